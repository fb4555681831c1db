//===- Report.cpp - Remarks and the JSON report of the transformation -----===//
//
// Phase 4 of the transformation: what people read. Every uncoalesced or
// unreadable access gets an analysis remark; every group a Passed remark
// (what the rewrite did) or a Missed remark named after its MissedReason;
// -coalda-report=FILE writes all of it as JSON. Each MissedReason also has
// its own statistic (-stats).
//
//===----------------------------------------------------------------------===//

#include "Report.h"
#include "RewriteKind.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

// The remarks' pass name: -Rpass=coalda, -pass-remarks-missed=coalda (each
// phase has its own DEBUG_TYPE for -debug-only and its statistics).
#define DEBUG_TYPE "coalda"

using namespace llvm;

STATISTIC(NumAccesses, "Global/shared accesses analysed");
STATISTIC(NumUncoalesced, "Uncoalesced accesses found");

namespace coalda {

namespace {

/// The remark name of each MissedReason, in the enum's order.
const char *const ReasonNames[] = {
#define COALDA_MISSED(Name, Text) #Name,
#include "MissedReason.def"
};
constexpr size_t NumReasons = std::size(ReasonNames);

/// One statistic per MissedReason: groups left alone for that reason.
Statistic MissedStats[] = {
#define COALDA_MISSED(Name, Text)                                              \
  {DEBUG_TYPE, "NumMissed" #Name, "Groups left alone: " Text},
#include "MissedReason.def"
};
static_assert(std::size(MissedStats) == NumReasons,
              "one statistic per MissedReason");

/// The access's source location. An access -O3 merged from several lines
/// (line 0) takes the location of its address, else of the nearest
/// instruction before it that has one.
DebugLoc sourceLocation(const AccessExpr &A) {
  DebugLoc DL = A.Inst->getDebugLoc();
  if (DL && DL.getLine())
    return DL;
  if (const auto *Addr = dyn_cast<Instruction>(A.pointer()))
    if (const DebugLoc &AL = Addr->getDebugLoc(); AL && AL.getLine())
      return AL;
  for (const Instruction *I = A.Inst->getPrevNode(); I; I = I->getPrevNode())
    if (const DebugLoc &IL = I->getDebugLoc(); IL && IL.getLine())
      return IL;
  return DL;
}

/// What a reader calls the access: coalesced, uncoalesced, uniform (one
/// address for the whole row) or unknown (the analysis cannot read it).
const char *accessClass(const AccessExpr &A) {
  if (A.Warp)
    return A.Warp->sameAddress()                ? "uniform"
           : A.Warp->isCoalesced(A.pieceWidth()) ? "coalesced"
                                                 : "uncoalesced";
  if (!A.isKnown())
    return "unknown";
  if (A.Lane == LaneKind::None)
    return "uniform";
  // Merged with its neighbours into one vector as wide as the stride, the
  // access the hardware sees is contiguous (BackendVectors.cpp).
  return A.isCoalesced() || A.VectorWidth ? "coalesced" : "uncoalesced";
}

/// The shape of an uncoalesced access, for the reader: which rewrite could
/// take it, or why none does.
enum class AccessShape {
  Other,      ///< coalesced, uniform or unknown
  Element,    ///< a constant lane stride: a member of a per-thread element
  Chunk,      ///< a run-time stride, advancing with a loop: a per-thread chunk
  Column,     ///< a run-time stride, one element per thread: a matrix column
  Transposed, ///< steps by its width with tid.y: a column of a 2-D block
};

AccessShape accessShape(const AccessExpr &A, const CoalescingInfo &Info) {
  if (!A.isKnown() || A.Lane == LaneKind::None || A.isCoalesced() ||
      A.VectorWidth)
    return AccessShape::Other;
  auto Y = A.Uniform.Terms.find(Monomial{Info.registerAtom(Atom::ThreadIdx, 1)});
  if (Y != A.Uniform.Terms.end() && Y->second == (int64_t)A.Width)
    return AccessShape::Transposed;
  if (A.constantStride())
    return AccessShape::Element;
  for (const auto &Term : A.Uniform.Terms)
    for (unsigned Id : Term.first)
      if (Info.atoms()[Id].Kind == Atom::Iteration)
        return AccessShape::Chunk;
  return AccessShape::Column;
}

const char *shapeName(AccessShape S) {
  switch (S) {
  case AccessShape::Element:
    return "element";
  case AccessShape::Chunk:
    return "chunk";
  case AccessShape::Column:
    return "column";
  case AccessShape::Transposed:
    return "transposed";
  case AccessShape::Other:
    break;
  }
  return nullptr;
}

/// Why no rewrite's collector takes an uncoalesced access that no staging,
/// window or promotion holds: the rule of the collectors that passes it by
/// (docs/programs/issue-39.md lists the corpus's, each measured).
enum class Uncollected {
  None,           ///< no rule to name (another reason, or none known)
  Transfer,       ///< part of a memcpy/memmove: no staging moves a transfer
  TransposedRead, ///< only transposed stores are staged through a tile
  RuntimeStride,  ///< a row pitch: element stagings need a constant stride
  StoreNoWindow,  ///< store windows join only loops with a load window
};

Uncollected uncollected(const AccessExpr &A, AccessShape Shape) {
  if (Shape == AccessShape::Other || A.Space != MemorySpace::Global)
    return Uncollected::None;
  if (A.isTransfer())
    return Uncollected::Transfer;
  if (Shape == AccessShape::Transposed)
    return A.IsStore ? Uncollected::None : Uncollected::TransposedRead;
  if (Shape == AccessShape::Column)
    return Uncollected::RuntimeStride;
  if (Shape == AccessShape::Chunk && A.IsStore)
    return Uncollected::StoreNoWindow;
  return Uncollected::None;
}

StringRef describe(Uncollected Why) {
  switch (Why) {
  case Uncollected::None:
    break;
  case Uncollected::Transfer:
    return "part of a memory transfer (memcpy) the compiler made of the "
           "copy: no staging moves a transfer's bytes";
  case Uncollected::TransposedRead:
    return "a transposed read: only transposed stores are staged through a "
           "tile";
  case Uncollected::RuntimeStride:
    return "a lane stride known only at run time (a row pitch): element "
           "stagings need a constant stride, and windows a loop that walks "
           "the row by its iterations";
  case Uncollected::StoreNoWindow:
    return "a chunk store no store window takes: they join only the loops "
           "whose loads a chunk window takes";
  }
  return "";
}

/// The scope's file as a path that names it from here: clang may record a
/// file outside its working directory relative to a common ancestor (the
/// directory beside it), e.g. "st/k.cu" in "/tmp" for /tmp/st/k.cu.
std::string sourcePath(const DIScope &Scope) {
  StringRef Name = Scope.getFilename();
  SmallString<256> Here;
  if (Name.empty() || sys::path::is_absolute(Name) ||
      Scope.getDirectory().empty() || sys::fs::current_path(Here) ||
      Here == Scope.getDirectory()) // relative to here: as the user wrote it
    return Name.str();
  SmallString<256> Full(Scope.getDirectory());
  sys::path::append(Full, Name);
  return std::string(Full);
}

/// A shared-memory access's lanes, where they are known: read lane by lane,
/// or a constant stride from the same start.
std::optional<WarpPattern> sharedPattern(const AccessExpr &A) {
  if (A.Space != MemorySpace::Shared)
    return std::nullopt;
  if (A.Warp)
    return A.Warp;
  std::optional<int64_t> S = A.constantStride();
  if (!A.isKnown() || (A.Lane != LaneKind::None && !S))
    return std::nullopt;
  WarpPattern P;
  for (unsigned L = 0; L < WarpLanes; ++L)
    P.Offsets[L] = A.Offset + (S ? *S * L : 0);
  return P;
}

/// A's entry in the report; Collected: a copy, staging, window or
/// promotion holds it (else an uncoalesced access says why none does).
json::Value accessJSON(const AccessExpr &A, const CoalescingInfo &Info,
                       bool Collected) {
  json::Object O;
  O["expr"] = Info.exprString(A);
  // The buffer, also when the address within it cannot be read.
  if (A.isKnown())
    O["base"] = baseName(A.Base);
  else if (A.Warp)
    O["base"] = baseName(A.Warp->Base);
  else if (const Value *Object = getUnderlyingObject(A.pointer());
           isa<Argument>(Object) || isa<GlobalVariable>(Object))
    O["base"] = baseName(Object);
  O["kind"] = A.IsStore ? "store" : "load";
  O["class"] = accessClass(A);
  const DebugLoc DL = sourceLocation(A);
  O["line"] = DL ? (int64_t)DL.getLine() : 0;
  O["column"] = DL ? (int64_t)DL.getCol() : 0;
  if (auto *Scope = DL ? dyn_cast<DIScope>(DL.getScope()) : nullptr)
    O["file"] = sourcePath(*Scope);
  std::optional<int64_t> S = A.constantStride();
  O["stride"] = S ? json::Value(*S) : json::Value(nullptr);
  // A run-time stride as the source names it (`4*len`): findings show it.
  if (A.isKnown() && A.Lane != LaneKind::None && !S) {
    std::string Text;
    raw_string_ostream OS(Text);
    A.Stride.print(OS, Info.atoms());
    O["stride_expr"] = Text;
  }
  O["offset"] = A.isKnown() ? json::Value(A.Offset) : json::Value(nullptr);
  O["width"] = (int64_t)A.Width;
  O["align"] = (int64_t)A.alignment().value();
  O["piece"] = (int64_t)A.pieceWidth();
  O["lane"] = A.isKnown() ? A.laneName() : "unknown";
  O["coalesced"] = A.isKnown() && accessClass(A) != StringRef("uncoalesced");
  if (A.VectorWidth)
    O["vector"] = (int64_t)A.VectorWidth;
  O["space"] = A.Space == MemorySpace::Shared ? "shared" : "global";
  AccessShape Shape = accessShape(A, Info);
  if (const char *Name = shapeName(Shape))
    O["shape"] = Name;
  if (Uncollected Why = uncollected(A, Shape);
      !Collected && Why != Uncollected::None &&
      accessClass(A) == StringRef("uncoalesced"))
    O["uncollected"] = describe(Why);
  if (A.Warp) {
    // Read lane by lane: the counts themselves, and the pattern.
    O["lane"] = "warp";
    O["coalesced"] = accessClass(A) != StringRef("uncoalesced");
    O["sectors"] = (int64_t)A.Warp->sectors(A.pieceWidth());
    O["ideal_sectors"] = (int64_t)A.Warp->idealSectors(A.pieceWidth());
    O["sector_aligned"] = A.Warp->SectorAligned;
    json::Array Lanes;
    for (int64_t Off : A.Warp->Offsets)
      Lanes.push_back(Off);
    O["lane_offsets"] = std::move(Lanes);
  } else if (!A.isKnown()) {
    O["reason"] = A.Unknown;
  }
  if (std::optional<WarpPattern> P = sharedPattern(A))
    O["bank_ways"] = (int64_t)P->bankConflictWays(A.pieceWidth());
  return O;
}

json::Value groupJSON(const GroupOutcome &O, const CoalescingInfo &Info) {
  static const char *const GuardNames[] = {"none", "bounds", "loop"};
  const CopyGroup &G = O.Group;
  json::Object J;
  J["base"] = baseName(G.first().Base);
  J["expr"] = Info.exprString(G.first());
  std::optional<int64_t> S = G.first().constantStride();
  J["stride"] = S ? json::Value(*S) : json::Value(nullptr);
  J["members"] = (int64_t)G.Stores.size();
  J["transformed"] = O.Transformed;
  J["reason"] = O.Transformed ? O.Action : O.Skip->Detail;
  if (O.Transformed) {
    json::Array Units;
    for (unsigned U : O.Plan.Units)
      Units.push_back((int64_t)U);
    J["units"] = std::move(Units);
    J["overlap_check"] = O.Plan.NeedsOverlapCheck;
    J["guard"] = GuardNames[(int)O.Plan.Kind];
    J["flat"] = O.Plan.flat();
  } else {
    J["missed"] = missedName(O.Skip->Reason);
  }
  J["line"] = O.FirstLoc ? (int64_t)O.FirstLoc.getLine() : 0;
  return J;
}

/// "out" or "y, x": the arrays of a staging candidate.
std::string stagingBases(const StagingOutcome &O) {
  std::string Names;
  SmallPtrSet<const Value *, 4> Named; // a base reached at several elements
  for (const StagedArray &A : O.Candidate.Arrays)
    if (Named.insert(A.Base).second)
      Names += (Names.empty() ? "" : ", ") + baseName(A.Base);
  return Names;
}

json::Value stagingJSON(const StagingOutcome &O) {
  RewriteKind Kind = O.kind();
  json::Object J;
  json::Array Arrays;
  for (const StagedArray &A : O.Candidate.Arrays) {
    json::Object Arr{{"base", baseName(A.Base)},
                     {"stride", A.Stride},
                     {"member_width", (int64_t)A.MemberWidth},
                     {"written", A.Written},
                     {"loaded", A.Loaded}};
    if (A.Windowed && A.WindowBytes)
      Arr["window_bytes"] = (int64_t)A.WindowBytes;
    // Bytes of each element the store phase writes back, where the stores
    // write part of it (legality set the units).
    if (O.legal() && A.storesPart())
      Arr["written_back"] =
          (int64_t)(llvm::popcount(A.StoredUnits) * A.MemberWidth);
    Arrays.push_back(std::move(Arr));
  }
  J["arrays"] = std::move(Arrays);
  J["kind"] = kindName(Kind);
  J["transformed"] = O.Transformed;
  J["reason"] = O.Transformed ? O.Action : O.Skip ? O.Skip->Detail : "";
  if (O.Skip)
    J["missed"] = missedName(O.Skip->Reason);
  else {
    J["tile_bytes"] = (int64_t)O.tileBytes();
    J["threads"] = (int64_t)O.Plan.Capacity;
    J["vote"] = O.Plan.barrierVote();
    // A window's refills are the block's or each warp's (its scope).
    J["tile"] = Kind == RewriteKind::ChunkWindow &&
                        O.Plan.Scope == WindowScope::Warp
                    ? "warp"
                    : tileName(Kind);
    J["arrays_in_turn"] = O.Plan.ArraysInTurn;
    J["go"] = Kind == RewriteKind::WarpTile ? "warp"
              : !O.Plan.votes()             ? "shape"
              : O.Plan.UniformGo            ? "uniform"
                                            : "vote";
    if (Kind == RewriteKind::ChunkWindow) {
      // refill points: a site, or a per-iteration refill; a store window
      // writes back at the top of an iteration and on the loop's way out
      int64_t Sites = 0;
      for (const StagedArray &A : O.Candidate.Arrays)
        Sites += A.storeWindow() ? 2 : A.perIteration() ? 1 : A.Sites.size();
      J["barriers"] = 1 + 2 * Sites; // the vote; two per refill point
      J["write_through"] = (int64_t)O.Plan.WriteThrough.size();
      J["overlap_checks"] = (int64_t)0;
    } else {
      // Per staged pass (per full iteration in a grid-stride loop): the
      // vote, before the loads, after them, before the stores, after them
      // (in a warp tile each is a __syncwarp, and the ballot is none).
      const StagingPlan &P = O.Plan;
      bool Written = Kind == RewriteKind::TransposedTile ||
                     any_of(O.Candidate.Arrays,
                            [](const StagedArray &A) { return A.Written; });
      // Arrays in turn: before each array's row goes back, and between
      // one array's and the next's use of the tile.
      int64_t BeforeStores =
          !Written          ? 0
          : P.ArraysInTurn ? 2 * (int64_t)O.Candidate.Arrays.size() - 1
                           : 1;
      J["barriers"] = (int64_t)(
          P.barrierVote() + (P.LeadingBarrier && !P.barrierVote()) +
          any_of(O.Candidate.Arrays,
                 [](const StagedArray &A) { return A.Loaded; }) +
          BeforeStores +
          ((Written && P.endBarrierAfterStores()) || P.refillBarrier()));
      J["overlap_checks"] =
          (int64_t)(O.Plan.Checks.size() + O.Plan.ArrayChecks.size());
    }
  }
  J["line"] = O.Loc ? (int64_t)O.Loc.getLine() : 0;
  return J;
}

} // namespace

const char *missedName(MissedReason R) { return ReasonNames[(size_t)R]; }

namespace {

/// The remark of an access read lane by lane, when it wastes sectors.
void remarkWarpPattern(const AccessExpr &A, const CoalescingInfo &Info,
                       const BasicBlock *Region,
                       OptimizationRemarkEmitter &ORE) {
  if (accessClass(A) != StringRef("uncoalesced"))
    return;
  ++NumUncoalesced;
  ORE.emit([&] {
    return OptimizationRemarkAnalysis(DEBUG_TYPE, "Uncoalesced",
                                      A.Inst->getDebugLoc(), Region)
           << (A.IsStore ? "store " : "load ") << Info.exprString(A)
           << " is uncoalesced: a warp's request touches "
           << std::to_string(A.Warp->sectors(A.pieceWidth()))
           << " sectors where "
           << std::to_string(A.Warp->idealSectors(A.pieceWidth()))
           << " would hold its bytes";
  });
}

} // namespace

void remarkAccesses(const CoalescingInfo &Info, const Function &Kernel,
                    OptimizationRemarkEmitter &ORE) {
  const BasicBlock *Region = &Kernel.getEntryBlock();
  for (const AccessExpr &A : Info.Accesses) {
    ++NumAccesses;
    if (A.isKnown() && accessClass(A) != StringRef("uncoalesced"))
      continue;
    if (A.Warp) {
      remarkWarpPattern(A, Info, Region, ORE);
      continue;
    }
    if (A.isKnown())
      ++NumUncoalesced;
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(
                 DEBUG_TYPE, A.isKnown() ? "Uncoalesced" : "Unanalyzable",
                 A.Inst->getDebugLoc(), Region)
             << (A.IsStore ? "store " : "load ") << Info.exprString(A)
             << (!A.isKnown() ? ""
                 : A.isTransfer()
                     ? " is uncoalesced: its lane stride exceeds the " +
                           std::to_string(A.pieceWidth()) +
                           "-byte pieces the copy of " +
                           std::to_string(A.Width) + " bytes is made of"
                     : " is uncoalesced: its lane stride exceeds its width "
                       "of " +
                           std::to_string(A.Width) + " bytes");
    });
  }
}

void remarkGroup(const GroupOutcome &O, const Function &F,
                 OptimizationRemarkEmitter &ORE) {
  const CopyGroup &G = O.Group;
  const BasicBlock *Region = &F.getEntryBlock();
  if (O.Transformed) {
    ORE.emit([&] {
      std::string What =
          G.Assignment
              ? "assignment of " + std::to_string(G.Stride) + "-byte elements"
              : "copy of " + std::to_string(G.Stores.size()) + " members";
      return OptimizationRemark(DEBUG_TYPE, "Coalesced", O.LastLoc, Region)
             << "coalesced " << What << " from " << baseName(G.source().Base)
             << " to " << baseName(G.first().Base) << ": " << O.Action;
    });
    return;
  }
  ++MissedStats[(size_t)O.Skip->Reason];
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, missedName(O.Skip->Reason),
                                    O.FirstLoc, Region)
           << "copy into " << baseName(G.first().Base)
           << " left alone: " << O.Skip->Detail;
  });
}

json::Value kernelReport(const Function &F, const CoalescingInfo &Info,
                         const std::vector<GroupOutcome> &Groups,
                         const std::vector<StagingOutcome> &Stagings,
                         const std::vector<PromotionOutcome> &Promotions) {
  DenseMap<const Instruction *, int64_t> GroupOf, StagingOf, PromotionOf;
  for (auto [Idx, O] : enumerate(Promotions))
    for (const AccessExpr *A : O.Accesses)
      PromotionOf[A->Inst] = Idx;
  for (auto [Idx, O] : enumerate(Groups))
    for (const AccessExpr *A : O.Group.members())
      GroupOf[A->Inst] = Idx;
  DenseMap<const Instruction *, std::string> LeftOut;
  for (auto [Idx, O] : enumerate(Stagings)) {
    for (const StagedArray &A : O.Candidate.Arrays)
      for (const AccessExpr *M : A.Accesses)
        StagingOf[M->Inst] = Idx;
    for (const auto &[A, Why] : O.Candidate.LeftOut)
      for (const AccessExpr *M : A.Accesses) {
        StagingOf[M->Inst] = Idx;
        LeftOut[M->Inst] = Why;
      }
  }
  // The innermost loop around each access, by its source line (the line
  // a promotion names): which accesses a loop holds, at this level.
  DenseMap<const Function *, std::unique_ptr<LoopInfo>> Loops;
  auto LoopLine = [&](const Instruction *I) -> int64_t {
    const Function *Fn = I->getFunction();
    std::unique_ptr<LoopInfo> &LI = Loops[Fn];
    if (!LI) {
      DominatorTree DT(const_cast<Function &>(*Fn));
      LI = std::make_unique<LoopInfo>(DT);
    }
    const Loop *L = LI->getLoopFor(I->getParent());
    DebugLoc Start = L ? L->getStartLoc() : DebugLoc();
    return Start ? (int64_t)Start.getLine() : 0;
  };
  json::Array Accesses;
  for (const AccessExpr &A : Info.Accesses) {
    auto InGroup = GroupOf.find(A.Inst);
    bool Copied = InGroup != GroupOf.end() &&
                  (Groups[InGroup->second].Transformed ||
                   Groups[InGroup->second].legal());
    json::Value J = accessJSON(A, Info,
                               Copied || StagingOf.count(A.Inst) ||
                                   PromotionOf.count(A.Inst));
    if (int64_t Line = LoopLine(A.Inst))
      (*J.getAsObject())["loop_line"] = Line;
    if (auto It = GroupOf.find(A.Inst); It != GroupOf.end())
      (*J.getAsObject())["group"] = It->second;
    if (auto It = StagingOf.find(A.Inst); It != StagingOf.end())
      (*J.getAsObject())["staging"] = It->second;
    if (auto It = LeftOut.find(A.Inst); It != LeftOut.end())
      (*J.getAsObject())["left_out"] = It->second;
    if (auto It = PromotionOf.find(A.Inst); It != PromotionOf.end())
      (*J.getAsObject())["promotion"] = It->second;
    Accesses.push_back(std::move(J));
  }
  json::Array GroupsJSON;
  for (const GroupOutcome &O : Groups)
    GroupsJSON.push_back(groupJSON(O, Info));
  json::Array StagingsJSON;
  for (const StagingOutcome &O : Stagings)
    StagingsJSON.push_back(stagingJSON(O));
  json::Object Kernel{{"name", sourceName(F)},
                      {"symbol", F.getName().str()},
                      {"accesses", std::move(Accesses)},
                      {"groups", std::move(GroupsJSON)}};
  if (!StagingsJSON.empty())
    Kernel["stagings"] = std::move(StagingsJSON);
  if (!Promotions.empty()) {
    json::Array PromotionsJSON;
    for (const PromotionOutcome &O : Promotions)
      PromotionsJSON.push_back(promotionJSON(O));
    Kernel["promotions"] = std::move(PromotionsJSON);
  }
  return Kernel;
}

void markPromotions(json::Value &Kernel,
                    const std::vector<PromotionOutcome> &Promotions) {
  json::Array *J = Kernel.getAsObject()->getArray("promotions");
  if (!J)
    return;
  for (auto [Idx, O] : enumerate(Promotions))
    (*J)[Idx] = promotionJSON(O);
}

void markStaged(json::Value &Kernel, size_t Index, const StagingOutcome &O) {
  json::Object &S =
      *(*Kernel.getAsObject()->getArray("stagings"))[Index].getAsObject();
  S["transformed"] = true;
  S["reason"] = O.Action;
  S.erase("missed");
}

void remarkStaging(const StagingOutcome &O, const Function &F,
                   OptimizationRemarkEmitter &ORE) {
  const BasicBlock *Region = &F.getEntryBlock();
  if (O.Transformed) {
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Staged", O.Loc, Region)
             << O.Action;
    });
    return;
  }
  ++MissedStats[(size_t)O.Skip->Reason];
  bool Window = O.kind() == RewriteKind::ChunkWindow;
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, missedName(O.Skip->Reason),
                                    O.Loc, Region)
           << (Window ? "chunk of " : "elements of ") << stagingBases(O)
           << (Window ? " not read through a shared-memory window: "
                      : " not staged through shared memory: ")
           << O.Skip->Detail;
  });
}

namespace {
std::string checksText(unsigned Checks) {
  return std::to_string(Checks) +
         (Checks == 1 ? " overlap check" : " overlap checks");
}
} // namespace

json::Value promotionJSON(const PromotionOutcome &O) {
  json::Object J{{"line", O.Loc ? (int64_t)O.Loc.getLine() : 0},
                 {"accesses", (int64_t)O.Accesses.size()},
                 {"overlap_checks", (int64_t)O.Checks},
                 {"kind", kindName(O.kind())},
                 {"transformed", O.Transformed}};
  if (O.Skip) {
    J["missed"] = missedName(O.Skip->Reason);
    J["reason"] = O.Skip->Detail;
  } else {
    J["reason"] = "the loop's element stays in registers for the loop (" +
                  checksText(O.Checks) + " first)";
  }
  return J;
}

void remarkPromotion(const PromotionOutcome &O, const Function &Kernel,
                     OptimizationRemarkEmitter &ORE) {
  const BasicBlock *Region = &Kernel.getEntryBlock();
  if (O.Transformed) {
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Promoted", O.Loc, Region)
             << "the loop's global element stays in registers for the loop, "
             << "loaded before it and stored after it (" << checksText(O.Checks)
             << " first)";
    });
    return;
  }
  ++MissedStats[(size_t)O.Skip->Reason];
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, missedName(O.Skip->Reason),
                                    O.Loc, Region)
           << "the loop's global element is not kept in registers: "
           << O.Skip->Detail;
  });
}

json::Value skippedKernelReport(const Function &Kernel, StringRef Why) {
  return json::Object{{"name", sourceName(Kernel)},
                      {"symbol", Kernel.getName().str()},
                      {"accesses", json::Array()},
                      {"groups", json::Array()},
                      {"skipped", Why.str()}};
}

void remarkSkippedKernel(const Function &Kernel, StringRef Why,
                         OptimizationRemarkEmitter &ORE) {
  ORE.emit([&] {
    return OptimizationRemarkMissed(DEBUG_TYPE, "AnalysisBudget", &Kernel)
           << Why;
  });
}

void markRolledBack(json::Value &Kernel) {
  // What the rewrite did goes; why it was undone takes its place.
  auto Undo = [](json::Array *Entries, ArrayRef<StringRef> DoneKeys) {
    if (!Entries) // a kernel without stagings has no such key
      return;
    for (json::Value &J : *Entries) {
      json::Object *O = J.getAsObject();
      if (!O || !*O->getBoolean("transformed"))
        continue;
      (*O)["transformed"] = false;
      (*O)["reason"] = RolledBackDetail;
      (*O)["missed"] = missedName(MissedReason::RolledBack);
      for (StringRef Key : DoneKeys)
        O->erase(Key);
    }
  };
  json::Object &K = *Kernel.getAsObject();
  Undo(K.getArray("groups"), {"units", "overlap_check", "guard", "flat"});
  Undo(K.getArray("stagings"), {});
}

} // namespace coalda
