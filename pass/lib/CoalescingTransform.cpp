//===- CoalescingTransform.cpp - Rewrite strided copies coalesced ---------===//
//
// For each kernel: collect copy groups, check their legality, rewrite the
// legal ones, erase what the rewrite made dead. See CoalescingTransform.h.
//
// The rewrite of a group with lane stride S (bytes) and member width w, at
// the position of the group's last store. The threads of a block row that run
// the copy are a prefix of `active` threads: all ntid.x of them, or, under a
// bounds guard / in a grid-stride loop `i < n`, left = n - (i - tid.x).
//
//   dstStart = &dst[member 0] - S*tid.x      (the same value in every thread
//   srcStart = &src[member 0] - S*tid.x       of the row: the region's start)
//   fast: (dstStart|srcStart|S*ntid) % 16 == 0, regions disjoint, left >= ntid
//     -> copy16 over S*ntid bytes                        (one branch)
//   slow: R = S*clamp(left, 0, ntid)
//     regions overlap                        -> the original per-thread code
//     else if ((dstStart|srcStart|R) % 16 == 0) -> copy16
//     else if ((dstStart|srcStart|R) %  4 == 0) -> copy4    (when w < 4)
//     else                                       -> copyW    (w-byte units)
//
// copyU moves units u = k*active + tid.x, k < ceil(S/U), of U bytes each: all
// loads first, then all stores; a unit past R/U is skipped. Exactly the bytes
// [start, start+R) of each side are read and written, as by the original
// code. The overlap check is left out when the pointers are `noalias`
// (`__restrict__`), distinct globals, or shared vs global memory.
//
// A grid-stride loop `for (i = gid; i < n; i += ntid.x*nctaid.x)` whose body
// is only the copy covers elements [0, n) over the whole grid. In front of it
// every thread checks that dst and src are 16-byte aligned and disjoint; then
// the grid runs one flat copy of S*n bytes instead (16-byte units at a stride
// of the grid, four in flight per thread, then the last bytes) and skips the
// loop, which otherwise runs with each iteration rewritten as above.
//
// Cost rules, from measurements (docs/benchmarks.md): elements the backend
// already moves as one aligned vector (power-of-two size <= 16) are left
// alone; -coalda-wide-block=N keeps wide rows of narrow members on the
// original code (off by default: the extra branch cost more than it saved).
//===----------------------------------------------------------------------===//

#include "coalda/CoalescingTransform.h"
#include "RowUniformity.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"

#include <algorithm>
#include <numeric>

#define DEBUG_TYPE "coalda"

using namespace llvm;

STATISTIC(NumAccesses, "Global/shared accesses analysed");
STATISTIC(NumUncoalesced, "Uncoalesced accesses found");
STATISTIC(NumGroups, "Copy groups collected");
STATISTIC(NumGroupsRewritten, "Copy groups rewritten coalesced");
STATISTIC(NumRolledBack,
          "Kernels whose rewrite failed the IR verifier and was undone");

static cl::opt<std::string>
    ReportFile("coalda-report", cl::init(""),
               cl::desc("Write COALDA's findings as JSON to this file"));
static cl::opt<bool> RuntimeChecks(
    "coalda-runtime-checks", cl::init(true),
    cl::desc("Allow versioning a copy on a run-time overlap check when the "
             "pointers are not known to be disjoint"));
static cl::opt<bool> AnalyzeOnly(
    "coalda-analyze-only", cl::init(false),
    cl::desc("Report findings and groups but rewrite nothing"));
static cl::opt<unsigned>
    MaxUnitWidth("coalda-max-unit", cl::init(16),
                 cl::desc("Widest unit (bytes) the rewrite may move: 16, 4 "
                          "or the member width"));
static cl::opt<bool> InvariantLoads(
    "coalda-invariant-loads", cl::init(false),
    cl::desc("Mark the rewritten copy's loads !invariant.load, so that they "
             "can use the read-only data path (ld.global.nc)"));
static cl::opt<bool> FlatLoops(
    "coalda-flat-loops", cl::init(true),
    cl::desc("Replace a grid-stride copy loop by one flat copy by all threads "
             "(with the loop as fallback)"));
static cl::opt<bool> CostRules(
    "coalda-cost-rules", cl::init(true),
    cl::desc("Leave alone the copies the measurements found unprofitable "
             "(elements the backend already moves as one vector)"));
static cl::opt<unsigned> WideBlock(
    "coalda-wide-block", cl::init(0),
    cl::desc("Blocks with more threads than this keep the original code when "
             "the members are narrower than 4 bytes (0: no limit)"));
static cl::opt<bool> BreakForTesting(
    "coalda-test-break-ir", cl::init(false), cl::Hidden,
    cl::desc("Testing only: corrupt every rewritten kernel, so that the "
             "verifier's rollback to the original code can be tested"));
static cl::opt<unsigned>
    MaxStride("coalda-max-stride", cl::init(256),
              cl::desc("Largest lane stride (bytes) of a rewritten copy"));

namespace coalda {

namespace {

bool sameRegion(const AccessExpr &A, const AccessExpr &B) {
  return A.Base == B.Base && A.Lane == B.Lane && A.Stride == B.Stride &&
         A.Uniform == B.Uniform;
}

/// The instruction of the group that comes last in its block.
Instruction *lastMember(const CopyGroup &G) {
  Instruction *Last = G.Stores.front()->Inst;
  for (const AccessExpr *S : G.Stores)
    if (Last->comesBefore(S->Inst))
      Last = S->Inst;
  return Last;
}

/// The least alignment the original members declare.
Align memberAlignment(const CopyGroup &G) {
  Align A(16);
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *M : *List)
      A = std::min(A, getLoadStoreAlignment(M->Inst));
  return A;
}

Instruction *firstMember(const CopyGroup &G) {
  Instruction *First = G.Loads.front()->Inst;
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *A : *List)
      if (A->Inst->comesBefore(First))
        First = A->Inst;
  return First;
}

bool isSharedBase(const Value *V) {
  const auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && GV->getAddressSpace() == 3;
}

/// Two base objects are proven not to overlap.
bool provablyDisjoint(const Value *A, const Value *B) {
  if (A == B)
    return false;
  auto NoAlias = [](const Value *V) {
    const auto *Arg = dyn_cast<Argument>(V);
    return Arg && Arg->hasNoAliasAttr();
  };
  auto Object = [](const Value *V) {
    return isa<GlobalVariable>(V) || isa<AllocaInst>(V);
  };
  // Shared memory never overlaps global memory or another variable.
  if (isSharedBase(A) || isSharedBase(B))
    return true;
  return NoAlias(A) || NoAlias(B) || (Object(A) && Object(B));
}

/// P >= 0 in every launch: non-negative coefficients over atoms that are
/// never negative (special registers, loop iteration counts).
bool provablyNonNegative(const Poly &P, const std::vector<Atom> &Atoms) {
  return all_of(P.Terms, [&](const auto &T) {
    return T.second >= 0 && all_of(T.first, [&](unsigned Id) {
             return Atoms[Id].Kind <= Atom::GridDim ||
                    Atoms[Id].Kind == Atom::Iteration;
           });
  });
}

std::string partialCopy(int64_t From, int64_t To, int64_t Stride) {
  return "partial copy: bytes [" + std::to_string(From) + ", " +
         std::to_string(To) + ") of each " + std::to_string(Stride) +
         "-byte element are not copied";
}

std::string describe(const Instruction *I) {
  std::string S;
  raw_string_ostream OS(S);
  I->print(OS);
  StringRef Trimmed = StringRef(S).trim();
  return Trimmed.split(", !").first.str();
}

/// Whether V can be used at At: it is a constant or argument, it dominates
/// At, or it is a pure, speculatable computation of values that can be.
/// The instructions to repeat in front of At (operands first) are appended
/// to Copies.
bool availableAt(Value *V, const Instruction *At, const DominatorTree &DT,
                 SmallVectorImpl<Instruction *> &Copies, unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (DT.dominates(I, At))
    return true;
  if (Depth > 8 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!availableAt(Op, At, DT, Copies, Depth + 1))
      return false;
  if (!is_contained(Copies, I))
    Copies.push_back(I);
  return true;
}

/// V at Before: V itself, or the last of Copies (see availableAt) repeated
/// in front of Before.
Value *copyBefore(ArrayRef<Instruction *> Copies, Value *V,
                  Instruction *Before) {
  DenseMap<Value *, Value *> Clones;
  for (Instruction *I : Copies) {
    Instruction *C = I->clone();
    for (Use &U : C->operands())
      if (Value *Mapped = Clones.lookup(U.get()))
        U.set(Mapped);
    C->insertBefore(Before);
    C->setName(I->getName() + ".coalda");
    Clones[I] = C;
  }
  if (Value *Mapped = Clones.lookup(V))
    return Mapped;
  return V;
}

/// A and B copy from the same source buffer into the same destination buffer
/// with the same distance between the byte each member stores and the byte
/// it loads, in every thread (collect made that distance equal within each
/// group).
bool sameDisplacement(const CopyGroup &A, const CopyGroup &B,
                      const CoalescingInfo &Info) {
  auto Displacement = [&](const CopyGroup &G) {
    return Info.addressPoly(G.first()) +
           Info.addressPoly(*G.Loads.front()).scaled(-1);
  };
  return A.first().Base == B.first().Base &&
         A.Loads.front()->Base == B.Loads.front()->Base &&
         Displacement(A) == Displacement(B);
}

} // namespace

//===----------------------------------------------------------------------===//
// Step 1: collect
//===----------------------------------------------------------------------===//

std::vector<CopyGroup>
CoalescingTransformPass::collect(const CoalescingInfo &Info) {
  std::vector<CopyGroup> Groups;
  for (const AccessExpr &A : Info.Accesses) {
    if (!A.IsStore || !A.isKnown() || A.Lane == LaneKind::None)
      continue;
    auto It = find_if(Groups, [&](const CopyGroup &G) {
      return sameRegion(G.first(), A) &&
             G.first().Inst->getParent() == A.Inst->getParent();
    });
    if (It == Groups.end()) {
      Groups.emplace_back();
      It = std::prev(Groups.end());
    }
    It->Stores.push_back(&A);
  }

  for (CopyGroup &G : Groups) {
    ++NumGroups;
    llvm::sort(G.Stores, [](const AccessExpr *L, const AccessExpr *R) {
      return L->Offset < R->Offset;
    });
    const AccessExpr &Head = G.first();
    G.MemberWidth = Head.Width;
    std::optional<int64_t> S = Head.constantStride();
    if (!S) {
      // A run-time stride (a[n*tid + k]): the copy can be versioned on the
      // stride being the bytes its members cover, if it can be computed.
      bool Computable = all_of(Head.Stride.Terms, [&](const auto &T) {
        return none_of(T.first, [&](unsigned Id) {
          return Info.atoms()[Id].Kind == Atom::Iteration;
        });
      });
      if (!Computable) {
        G.Missed = "run-time lane stride (" + Info.exprString(Head) +
                   ") that depends on a loop iteration";
        continue;
      }
      G.RuntimeStride = Head.Stride;
    } else {
      G.Stride = *S;
    }
    if (S && (uint64_t)std::abs(*S) <= Head.Width) {
      G.Missed = "already coalesced (lane stride " + std::to_string(*S) +
                 " bytes, access width " + std::to_string(Head.Width) + ")";
      continue;
    }
    if (S && *S < 0) {
      G.Missed = "negative lane stride";
      continue;
    }
    for (const AccessExpr *St : G.Stores) {
      auto *Value = dyn_cast<LoadInst>(
          cast<StoreInst>(St->Inst)->getValueOperand());
      const AccessExpr *Ld = Value ? Info.lookup(Value) : nullptr;
      if (!Ld || !Ld->isKnown()) {
        G.Missed = "not a pure copy: the value stored at offset " +
                   std::to_string(St->Offset - Head.Offset) +
                   " is computed, not loaded";
        break;
      }
      G.Loads.push_back(Ld);
      // Members may differ in width (SLP merges some at -O3); the fallback
      // unit is their greatest common width.
      G.MemberWidth = std::gcd(G.MemberWidth, St->Width);
    }
    if (!G.Missed.empty())
      continue;
    // The fallback unit must be a power of two (units are indexed by shifts
    // and must be naturally aligned): the largest one dividing every member
    // width, e.g. 2 for two 6-byte <3 x i16> members.
    G.MemberWidth &= -G.MemberWidth;
    const AccessExpr &Src = *G.Loads.front();
    if (Src.Stride != Head.Stride) {
      G.Missed = "source lane stride differs from the destination's";
      continue;
    }
    // The members must tile [0, S) of each element: sorted by offset, each
    // starts where the previous one ends, and the last ends at S.
    int64_t SrcMin = Src.Offset;
    for (const AccessExpr *Ld : G.Loads)
      SrcMin = std::min(SrcMin, Ld->Offset);
    int64_t Covered = 0;
    for (size_t K = 0; K < G.Stores.size() && G.Missed.empty(); ++K) {
      const AccessExpr &St = *G.Stores[K], &Ld = *G.Loads[K];
      int64_t DstRel = St.Offset - Head.Offset;
      int64_t SrcRel = Ld.Offset - SrcMin;
      if (!sameRegion(Ld, Src))
        G.Missed = "members load from different source regions";
      else if (DstRel != SrcRel)
        G.Missed = "swizzle: the bytes stored at offset " +
                   std::to_string(DstRel) + " are loaded from offset " +
                   std::to_string(SrcRel);
      else if (DstRel < Covered)
        G.Missed = "members overlap (offset " + std::to_string(DstRel) +
                   " is stored twice)";
      else if (DstRel > Covered)
        G.Missed = S ? partialCopy(Covered, DstRel, *S)
                     : "the members leave a gap at byte " +
                           std::to_string(Covered);
      Covered = DstRel + St.Width;
    }
    if (!S && G.Missed.empty()) {
      // Versioned at run time on stride == Covered (see the rewrite).
      G.Stride = Covered;
      if (Covered <= (int64_t)G.MemberWidth)
        G.Missed = "run-time lane stride over a single member: coalesced "
                   "when the stride equals the member width";
    } else if (G.Missed.empty() && Covered != *S) {
      G.Missed = Covered < *S ? partialCopy(Covered, *S, *S)
                              : "members reach past the lane stride";
    }
  }
  return Groups;
}

//===----------------------------------------------------------------------===//
// Step 2: legality
//===----------------------------------------------------------------------===//

namespace {

/// The comparison `A < N` that holds on the edge from Br's block to Taken,
/// if Br tests one (slt/ult, or sgt/ugt with the operands swapped).
bool matchLessThan(const Instruction *Term, const BasicBlock *Taken, Value *&A,
                   Value *&N, bool &Signed) {
  const auto *Br = dyn_cast<BranchInst>(Term);
  if (!Br || !Br->isConditional())
    return false;
  const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || Br->getSuccessor(0) == Br->getSuccessor(1))
    return false;
  CmpInst::Predicate Pred = Br->getSuccessor(0) == Taken
                                ? Cmp->getPredicate()
                                : Cmp->getInversePredicate();
  if (Br->getSuccessor(0) != Taken && Br->getSuccessor(1) != Taken)
    return false;
  Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  switch (Pred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
    A = L, N = R;
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
    A = R, N = L;
    break;
  default:
    return false;
  }
  Signed = CmpInst::isSigned(Pred);
  return true;
}

/// Decides whether a block outside loops runs in all threads of a block row
/// or in none: every branch on the way to it tests a row-uniform condition
/// (or it post-dominates the entry), and every loop on the way has only
/// row-uniform exits.
class UniformReach {
public:
  UniformReach(const CoalescingInfo &Info, PostDominatorTree &PDT, LoopInfo &LI)
      : Uniformity(Info.uniformity()), PDT(PDT), LI(LI) {}

  /// The terminator of BB sends all threads of a row the same way.
  bool uniformBranch(const BasicBlock *BB) const {
    return Uniformity.isUniformBranch(*BB);
  }

  /// All exits of L test row-uniform conditions.
  bool uniformExits(const Loop *L) const {
    SmallVector<BasicBlock *, 4> Exiting;
    L->getExitingBlocks(Exiting);
    return all_of(Exiting, [&](BasicBlock *E) { return uniformBranch(E); });
  }

  bool allOrNone(const BasicBlock *BB) {
    if (LI.getLoopFor(BB))
      return false;
    if (PDT.dominates(BB, &BB->getParent()->getEntryBlock()))
      return true;
    auto [It, New] = Memo.try_emplace(BB, false); // false while visiting
    if (!New)
      return It->second;
    bool Result = !pred_empty(BB);
    for (const BasicBlock *P : predecessors(BB)) {
      if (const Loop *PL = LI.getLoopFor(P)) {
        // Leaving a loop: uniform if the loop is entered by all or none and
        // all its exits are uniform.
        while (PL->getParentLoop())
          PL = PL->getParentLoop();
        const BasicBlock *Pre = PL->getLoopPredecessor();
        Result &= Pre && uniformExits(PL) && allOrNone(Pre) &&
                  uniformBranch(Pre);
      } else {
        Result &= allOrNone(P) && uniformBranch(P);
      }
      if (!Result)
        break;
    }
    return Memo[BB] = Result;
  }

private:
  const RowUniformity &Uniformity;
  PostDominatorTree &PDT;
  LoopInfo &LI;
  DenseMap<const BasicBlock *, bool> Memo;
};

} // namespace

std::string CoalescingTransformPass::findActiveThreads(
    CopyGroup &G, const CoalescingInfo &Info, PostDominatorTree &PDT,
    DominatorTree &DT, LoopInfo &LI) {
  BasicBlock *BB = G.first().Inst->getParent();
  UniformReach Reach(Info, PDT, LI);
  if (Reach.allOrNone(BB))
    return "";
  unsigned Tid = Info.registerAtom(Atom::ThreadIdx, 0);
  // `Index < End` holds for a prefix of the row's threads when Index is
  // tid.x plus a row-uniform First and End is row-uniform: signed, it holds
  // for tid.x < End - First. Unsigned, an Index below zero wraps to a large
  // value and fails the test, so the active threads are a prefix only when
  // First cannot be negative (else, e.g. for gid - 5, a suffix of block 0).
  std::string NotPrefix;
  auto LaneIndex = [&](Value *Index, Value *End, bool Signed) {
    std::optional<Poly> I = Info.readInteger(Index);
    std::optional<Poly> N = Info.readInteger(End);
    if (!I || !N || N->mentions(Tid) ||
        !Info.uniformity().isUniform(End))
      return false;
    for (const auto &[M, C] : I->Terms)
      if (is_contained(M, Tid) && (M.size() != 1 || C != 1))
        return false;
    if (I->Terms.count(Monomial{Tid}) != 1)
      return false;
    Poly First = *I + Poly::atom(Tid).scaled(-1);
    if (!Signed && !provablyNonNegative(First, Info.atoms())) {
      std::string S;
      raw_string_ostream OS(S);
      First.print(OS, Info.atoms());
      NotPrefix = "the guard compares the index unsigned and the row's "
                  "first index (" + S + ") may be negative: the threads "
                  "that pass it need not be a prefix of the row";
      return false;
    }
    return true;
  };

  Loop *L = LI.getLoopFor(BB);
  if (!L) {
    // A bounds guard: `if (i < n) { copy }` in a block every thread reaches.
    BasicBlock *Pred = BB->getSinglePredecessor();
    Value *Index, *End;
    bool Signed;
    if (!Pred || !Reach.allOrNone(Pred) ||
        !matchLessThan(Pred->getTerminator(), BB, Index, End, Signed) ||
        !LaneIndex(Index, End, Signed))
      return !NotPrefix.empty()
                 ? NotPrefix
                 : "not every thread of the block reaches the copy, and its "
                   "condition is not a bounds guard `i < n` on the lane index";
    G.GuardIndex = Index, G.GuardEnd = End, G.GuardSigned = Signed;
    G.GuardKind = "bounds";
    return "";
  }

  // A grid-stride loop: `for (i = tid + u; i < n; i += step) { copy }`.
  const std::string NotGridStride =
      "the copy is inside a loop that is not a grid-stride loop `for (i = "
      "lane index; i < n; i += step)` running it once per iteration";
  BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  BasicBlock *Outside = L->getLoopPredecessor();
  if (L->getParentLoop() || !Latch || !Exiting || !Outside ||
      !DT.dominates(BB, Latch))
    return NotGridStride;
  auto *ExitBr = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!ExitBr || !ExitBr->isConditional() ||
      !isa<BranchInst>(Outside->getTerminator()))
    return NotGridStride;
  BasicBlock *Stay = L->contains(ExitBr->getSuccessor(0))
                         ? ExitBr->getSuccessor(0)
                         : ExitBr->getSuccessor(1);
  // The guard before a rotated loop: in Outside, or in its single
  // predecessor when Outside is a plain preheader.
  BasicBlock *Guard = Outside, *Into = Header;
  if (!cast<BranchInst>(Guard->getTerminator())->isConditional()) {
    Into = Guard;
    Guard = Guard->getSinglePredecessor();
  }
  // A loop whose exit test is row-uniform, entered by all threads of a row
  // or none, runs every iteration in all of them.
  if (Reach.uniformExits(L)) {
    if (Reach.allOrNone(Outside) && Reach.uniformBranch(Outside))
      return "";
    return NotGridStride;
  }
  Value *Tested, *End;
  bool Signed;
  if (!matchLessThan(ExitBr, Stay, Tested, End, Signed))
    return NotGridStride;
  for (PHINode &Phi : Header->phis()) {
    Value *Start = Phi.getIncomingValueForBlock(Outside);
    Value *Next = Phi.getIncomingValueForBlock(Latch);
    if (!LaneIndex(&Phi, End, Signed))
      continue;
    if (Tested == &Phi) {
      // Tested on entry to every iteration: all threads must enter.
      if (!Reach.allOrNone(Outside) || !Reach.uniformBranch(Outside))
        continue;
    } else if (Tested == Next) {
      // Rotated: tested after each iteration; the first is guarded by
      // `start < n` before the loop (in Outside or its single predecessor).
      Value *S0, *N0;
      bool Signed0;
      if (!Guard || !Reach.allOrNone(Guard) ||
          !matchLessThan(Guard->getTerminator(), Into, S0, N0, Signed0) ||
          S0 != Start || N0 != End || Signed0 != Signed)
        continue;
    } else {
      continue;
    }
    G.GuardIndex = &Phi, G.GuardEnd = End, G.GuardSigned = Signed;
    G.GuardKind = "loop";
    G.RotatedLoop = Tested == Next;
    return "";
  }
  return !NotPrefix.empty() ? NotPrefix : NotGridStride;
}

std::string CoalescingTransformPass::checkOtherAccesses(
    const CopyGroup &G, const CoalescingInfo &Info, DominatorTree &DT,
    const DenseMap<const Instruction *, const CopyGroup *> &CopyOf) {
  const Value *Dst = G.first().Base, *Src = G.Loads.front()->Base;
  Instruction *Last = lastMember(G);
  bool Shared = isSharedBase(Dst);

  // A shared-memory fill is read by other threads: a __syncthreads() must
  // follow it in its block, with no memory access in between, and must come
  // before every other access to the tile.
  const Instruction *Barrier = nullptr;
  if (Shared) {
    for (auto It = std::next(Last->getIterator()); It != Last->getParent()->end();
         ++It) {
      if (const auto *II = dyn_cast<IntrinsicInst>(&*It);
          II && (II->getIntrinsicID() == Intrinsic::nvvm_barrier0 ||
                 II->getIntrinsicID() == Intrinsic::nvvm_barrier_sync)) {
        Barrier = II;
        break;
      }
      if (It->mayReadOrWriteMemory())
        break;
    }
    if (!Barrier)
      return "no __syncthreads() directly follows the shared-memory fill";
  }

  // The rewrite has each thread move other threads' elements. Any other
  // access to the destination, or store to the source, could now race with
  // the copy where the original did not.
  for (Instruction &I : instructions(*Last->getFunction())) {
    if (!I.mayReadOrWriteMemory())
      continue;
    if (is_contained(G.Stores, Info.lookup(&I)) ||
        is_contained(G.Loads, Info.lookup(&I)))
      continue;
    // A store of another copy from the same source at the same displacement
    // (e.g. an unrolled iteration of the loop) writes any byte it shares
    // with this copy with the same source byte, which nothing writes: in
    // whatever order the two land, the result is the same. Its loads are
    // not exempt: reading the destination races with the rewrite (another
    // thread now writes the bytes), and so does any other access.
    const CopyGroup *Other = CopyOf.lookup(&I);
    bool SameBytesSameValues = Other && isa<StoreInst>(I) &&
                               sameDisplacement(G, *Other, Info);
    if (const auto *II = dyn_cast<IntrinsicInst>(&I))
      if (II->getIntrinsicID() == Intrinsic::nvvm_barrier0 ||
          II->getIntrinsicID() == Intrinsic::nvvm_barrier_sync)
        continue;
    // The (pointer, written?) pairs the instruction touches.
    SmallVector<std::pair<const Value *, bool>, 2> Touched;
    if (const Value *Ptr = getLoadStorePointerOperand(&I))
      Touched.push_back({Ptr, isa<StoreInst>(I)});
    else if (const auto *MT = dyn_cast<MemTransferInst>(&I))
      Touched.append({{MT->getRawDest(), true}, {MT->getRawSource(), false}});
    else if (const auto *MS = dyn_cast<MemSetInst>(&I))
      Touched.push_back({MS->getRawDest(), true});
    else if (const auto *Call = dyn_cast<CallBase>(&I);
             !Call || !Call->onlyAccessesInaccessibleMemory())
      return "the kernel calls " + describe(&I) +
             ", which may touch the copied memory";
    for (auto [Ptr, Writes] : Touched) {
      const Value *Base = getUnderlyingObject(Ptr);
      if (Shared && Base == Dst) {
        if (!DT.dominates(Barrier, &I))
          return "the shared tile is accessed (" + describe(&I) +
                 ") where the __syncthreads() after the fill does not "
                 "precede it";
        continue;
      }
      if (!SameBytesSameValues && !provablyDisjoint(Base, Dst))
        return "the destination may also be " +
               std::string(Writes ? "written" : "read") + " elsewhere (" +
               describe(&I) + ")";
      if (Writes && !provablyDisjoint(Base, Src))
        return "the source may also be written elsewhere (" + describe(&I) +
               ")";
    }
  }
  return "";
}

void CoalescingTransformPass::findFlatLoop(CopyGroup &G,
                                           const CoalescingInfo &Info,
                                           PostDominatorTree &PDT,
                                           DominatorTree &DT, LoopInfo &LI) {
  auto *Phi = cast<PHINode>(G.GuardIndex);
  Loop *L = LI.getLoopFor(Phi->getParent());
  BasicBlock *Outside = L->getLoopPredecessor(), *Exit = L->getExitBlock();
  // The flat copy starts at the bases themselves: arguments or globals.
  auto Available = [](const Value *Base) {
    return isa<GlobalValue>(Base) || isa<Argument>(Base);
  };
  if (!Exit || !Available(G.first().Base) || !Available(G.Loads.front()->Base))
    return;
  if (!Exit->phis().empty() || isSharedBase(G.first().Base))
    return;
  // The block all threads pass right before the loop: the plain jump into a
  // header-tested loop, or the `i < n` test in front of a rotated one
  // (Outside itself, or the block before a plain preheader).
  BasicBlock *Entry = Outside;
  if (G.RotatedLoop &&
      !cast<BranchInst>(Outside->getTerminator())->isConditional())
    Entry = Outside->getSinglePredecessor();
  auto *Br = Entry ? dyn_cast<BranchInst>(Entry->getTerminator()) : nullptr;
  if (!Entry || !Br || LI.getLoopFor(Entry) ||
      !PDT.dominates(Entry, &Entry->getParent()->getEntryBlock()))
    return;
  if (Br->isConditional() && !is_contained(Br->successors(), Exit))
    return;
  // i = gid + ntid.x*nctaid.x*iter, n uniform over the grid.
  unsigned Tid = Info.registerAtom(Atom::ThreadIdx, 0);
  unsigned Ctaid = Info.registerAtom(Atom::BlockIdx, 0);
  unsigned Ntid = Info.registerAtom(Atom::BlockDim, 0);
  unsigned Nctaid = Info.registerAtom(Atom::GridDim, 0);
  Poly Gid = Poly::atom(Tid) + Poly::atom(Ctaid) * Poly::atom(Ntid);
  Poly Grid = Poly::atom(Ntid) * Poly::atom(Nctaid);
  std::optional<Poly> I = Info.readInteger(Phi);
  if (!I || *I != Gid + Grid * Poly::atom(Info.iterationAtom(Phi)))
    return;
  std::optional<Poly> N = Info.readInteger(G.GuardEnd);
  if (!N)
    return;
  for (const auto &[M, C] : N->Terms)
    for (unsigned Id : M)
      if (Info.atoms()[Id].Kind != Atom::Argument &&
          Info.atoms()[Id].Kind != Atom::GridDim &&
          Info.atoms()[Id].Kind != Atom::BlockDim)
        return;
  // Addresses are base + S*i + offset on both sides.
  for (const AccessExpr *A : {&G.first(), G.Loads.front()}) {
    Poly Rel = Info.addressPoly(*A) + Poly::constant(-A->Offset);
    if (Rel != I->scaled(G.Stride))
      return;
  }
  // The loop does nothing but the copy, and nothing it computes is used
  // after it.
  SmallPtrSet<const Instruction *, 16> Members;
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *A : *List)
      Members.insert(A->Inst);
  for (BasicBlock *BB : L->blocks())
    for (Instruction &Inst : *BB) {
      if (!Members.count(&Inst) &&
          (Inst.mayHaveSideEffects() || Inst.mayReadOrWriteMemory()))
        return;
      for (const User *U : Inst.users())
        if (!L->contains(cast<Instruction>(U)->getParent()))
          return;
    }
  // The bound is used in front of the loop: it must be available there, or
  // be a pure computation of values that are (at -O0 `n - 1` is computed in
  // the loop header), which the flat copy then repeats.
  SmallVector<Instruction *, 4> Copies;
  if (!availableAt(G.GuardEnd, Entry->getTerminator(), DT, Copies)) {
    LLVM_DEBUG(dbgs() << "coalda: no flat copy: the loop bound "
                      << *G.GuardEnd << " is not available before the loop\n");
    return;
  }
  G.FlatEndCopies.assign(Copies.begin(), Copies.end());
  G.FlatEntry = Entry;
  G.FlatExit = Exit;
}

void CoalescingTransformPass::checkLegality(
    CopyGroup &G, const CoalescingInfo &Info, PostDominatorTree &PDT,
    DominatorTree &DT, LoopInfo &LI,
    const DenseMap<const Instruction *, const CopyGroup *> &CopyOf) {
  if (!G.Missed.empty())
    return;
  BasicBlock *BB = G.first().Inst->getParent();
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *A : *List)
      if (A->Inst->getParent() != BB) {
        G.Missed = "the copy's loads and stores are in different blocks";
        return;
      }
  // Cost rule (measured, docs/benchmarks.md): an element of power-of-two size
  // up to 16 bytes whose first member is aligned to that size is merged by
  // the backend into one vector access per thread (int2: ld.v2.u32), which
  // is already coalesced; the rewrite measured 0.90-1.09x there.
  if (CostRules && isPowerOf2_64(G.Stride) && G.Stride <= 16) {
    Align A0 = std::min(getLoadStoreAlignment(G.Stores.front()->Inst),
                        getLoadStoreAlignment(G.Loads.front()->Inst));
    if (A0.value() >= (uint64_t)G.Stride) {
      G.Missed = "not profitable: the backend already moves each aligned " +
                 std::to_string(G.Stride) + "-byte element as one vector";
      return;
    }
  }
  if ((uint64_t)G.Stride > MaxStride) {
    G.Missed = "lane stride " + std::to_string(G.Stride) +
               " exceeds the rewrite's limit of " + std::to_string(MaxStride) +
               " bytes";
    return;
  }
  if (std::string Why = findActiveThreads(G, Info, PDT, DT, LI); !Why.empty()) {
    G.Missed = Why;
    return;
  }
  // The region copy computes the active threads from the guard's index and
  // bound where the last member is: they must be available there.
  for (Value *V : {G.GuardIndex, G.GuardEnd})
    if (auto *I = dyn_cast_or_null<Instruction>(V);
        I && !DT.dominates(I, lastMember(G))) {
      G.Missed = "the guard's value " + describe(I) +
                 " is not available where the copy is";
      return;
    }
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *A : *List) {
      bool Simple = isa<LoadInst>(A->Inst) ? cast<LoadInst>(A->Inst)->isSimple()
                                           : cast<StoreInst>(A->Inst)->isSimple();
      if (!Simple) {
        G.Missed = "a member is volatile or atomic";
        return;
      }
    }
  for (const AccessExpr *Ld : G.Loads)
    if (!Ld->Inst->hasOneUse()) {
      G.Missed = "a loaded member is used by more than its store";
      return;
    }
  Instruction *First = firstMember(G), *Last = lastMember(G);
  SmallPtrSet<const Instruction *, 16> Members;
  for (const auto *List : {&G.Loads, &G.Stores})
    for (const AccessExpr *A : *List)
      Members.insert(A->Inst);
  for (auto It = First->getIterator(); &*It != Last; ++It)
    if (!Members.count(&*It) && It->mayReadOrWriteMemory()) {
      G.Missed = "another memory access lies between the copy's members (" +
                 describe(&*It) + ")";
      return;
    }
  const AccessExpr &Dst = G.first(), &Src = *G.Loads.front();
  if (Src.Space != MemorySpace::Global) {
    G.Missed = "the source is not global memory";
    return;
  }
  if (Dst.Space == MemorySpace::Global &&
      getLoadStorePointerOperand(Dst.Inst)->getType() !=
          getLoadStorePointerOperand(Src.Inst)->getType()) {
    G.Missed = "source and destination are in different address spaces";
    return;
  }
  if (Dst.Base == Src.Base) {
    G.Missed = "source and destination are the same buffer";
    return;
  }
  if (isSharedBase(Dst.Base) && (G.GuardIndex || LI.getLoopFor(BB))) {
    // Another iteration or the threads that skip the guard could read the
    // tile while other threads fill it.
    G.Missed = "a shared-memory fill is rewritten only when every thread "
               "runs it once (no guard, no loop)";
    return;
  }
  if (std::string Why = checkOtherAccesses(G, Info, DT, CopyOf);
      !Why.empty()) {
    G.Missed = Why;
    return;
  }
  G.NeedsOverlapCheck = !provablyDisjoint(Dst.Base, Src.Base);
  if (G.GuardKind == "loop" && FlatLoops)
    findFlatLoop(G, Info, PDT, DT, LI);
  if (G.NeedsOverlapCheck && !RuntimeChecks)
    G.Missed = "source and destination may overlap (no __restrict__) and "
               "run-time checks are disabled";
}

//===----------------------------------------------------------------------===//
// Step 3: rewrite
//===----------------------------------------------------------------------===//

namespace {

/// Emits the widened copies of one group; see the file banner.
class RegionCopyEmitter {
public:
  RegionCopyEmitter(CopyGroup &G, Instruction *Last,
                    const std::vector<Atom> &Atoms)
      : G(G), Atoms(Atoms), Ctx(Last->getContext()),
        Loc(Last->getDebugLoc()), I64(Type::getInt64Ty(Ctx)),
        I8(Type::getInt8Ty(Ctx)) {}

  void emit(Instruction *Last) {
    Function *F = Last->getFunction();
    // Program order of the members, for the fallback, before the block split.
    for (const auto *List : {&G.Loads, &G.Stores})
      for (const AccessExpr *A : *List)
        Order.push_back(A->Inst);
    llvm::sort(Order, [](Instruction *L, Instruction *R) {
      return L->comesBefore(R);
    });
    // Split at the last member: the rewrite goes between the halves.
    BasicBlock *Before = Last->getParent();
    Join = Before->splitBasicBlock(Last, "coalda.join");
    Before->getTerminator()->eraseFromParent();

    // Optional cost rule (off by default; measured in docs/benchmarks.md):
    // with members narrower than 4 bytes, blocks wider than WideBlock
    // threads keep the original code, decided first from ntid.x alone. At
    // 1024 threads the rewrite gains little there, but the early branch
    // cost the 256/512-thread shapes more than it saved.
    BasicBlock *Head = Before;
    IRBuilder<> PB(Before);
    PB.SetCurrentDebugLocation(Loc);
    SmallVector<Value *, 2> Preconditions;
    if (G.MemberWidth < 4 && WideBlock > 0) {
      Value *Width = PB.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x,
                                        {}, {});
      Preconditions.push_back(
          PB.CreateICmpULE(Width, PB.getInt32(WideBlock), "coalda.pays"));
    }
    // A run-time stride: the rewrite holds when it is the members' bytes.
    if (G.RuntimeStride)
      Preconditions.push_back(PB.CreateICmpEQ(
          materialize(PB, *G.RuntimeStride), PB.getInt64(G.Stride),
          "coalda.stride.ok"));
    if (!Preconditions.empty()) {
      Value *Go = Preconditions.front();
      for (Value *P : drop_begin(Preconditions))
        Go = PB.CreateAnd(Go, P);
      Head = BasicBlock::Create(Ctx, "coalda.rewrite", F, Join);
      PB.CreateCondBr(Go, Head, emitOriginal(F));
    }

    IRBuilder<> B(Head);
    B.SetCurrentDebugLocation(Loc);
    Tid = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {}), I64,
        "coalda.tid");
    Ntid = B.CreateZExt(
        B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ntid_x, {}, {}), I64,
        "coalda.ntid");
    // With a guard, the row's first `Left` threads are active (all of them
    // when Left >= ntid.x, the fast path's case).
    Value *Left = nullptr;
    if (G.GuardIndex) {
      auto Ext = [&](Value *V) {
        return G.GuardSigned ? B.CreateSExt(V, I64) : B.CreateZExt(V, I64);
      };
      Value *First = B.CreateSub(Ext(G.GuardIndex), Tid, "coalda.first");
      Left = B.CreateSub(Ext(G.GuardEnd), First, "coalda.left");
    }
    // stride*tid.x as a widening 32-bit multiply (a 64-bit multiply is
    // several instructions on the GPU), then stepped back from member 0.
    Value *Back = B.CreateNeg(
        B.CreateMul(Tid, B.getInt64(G.Stride), "", /*HasNUW=*/true,
                    /*HasNSW=*/true),
        "coalda.back");
    DstStart = B.CreateGEP(
        I8, getLoadStorePointerOperand(G.Stores.front()->Inst), Back,
        "coalda.dst");
    SrcStart = B.CreateGEP(
        I8, getLoadStorePointerOperand(G.Loads.front()->Inst), Back,
        "coalda.src");
    Value *FullRegion =
        B.CreateMul(Ntid, B.getInt64(G.Stride), "coalda.rowbytes");
    Value *DstInt = B.CreatePtrToInt(DstStart, I64);
    Value *SrcInt = B.CreatePtrToInt(SrcStart, I64);
    auto Disjoint = [&](IRBuilder<> &IB, Value *Bytes) {
      return IB.CreateOr(
          IB.CreateICmpULE(IB.CreateAdd(DstInt, Bytes), SrcInt),
          IB.CreateICmpULE(IB.CreateAdd(SrcInt, Bytes), DstInt),
          "coalda.nooverlap");
    };
    auto Aligned = [&](IRBuilder<> &IB, Value *Bytes, unsigned U) {
      Value *Bits = IB.CreateOr(IB.CreateOr(DstInt, SrcInt), Bytes);
      return IB.CreateICmpEQ(IB.CreateAnd(Bits, U - 1), IB.getInt64(0),
                             "coalda.aligned" + std::to_string(U));
    };


    SmallVector<unsigned, 3> Units;
    for (unsigned U : {16u, 4u})
      if (U > G.MemberWidth && U <= MaxUnitWidth)
        Units.push_back(U);

    // The fast path: a full row whose regions are disjoint and aligned to the
    // widest unit, decided by one branch. The number of blocks a GPU retires
    // per second bounds these short kernels, so the few cycles between the
    // thread's start and its first load are what a rewrite costs.
    BasicBlock *Slow = Head;
    if (!Units.empty()) {
      IRBuilder<> HB(Head);
      HB.SetCurrentDebugLocation(Loc);
      Value *Fast = Aligned(HB, FullRegion, Units[0]);
      if (G.NeedsOverlapCheck)
        Fast = HB.CreateAnd(Fast, Disjoint(HB, FullRegion));
      if (Left)
        Fast = HB.CreateAnd(Fast, HB.CreateICmpSGE(Left, Ntid, "coalda.full"));
      Fast->setName("coalda.fast");
      BasicBlock *FastCopy = emitCopy(Units[0], F, nullptr, Ntid, FullRegion,
                                      "coalda.fast" + std::to_string(Units[0]));
      Slow = BasicBlock::Create(Ctx, "coalda.slow", F, Join);
      // Likely: block placement makes the fast path fall through.
      HB.CreateCondBr(Fast, FastCopy, Slow,
                      MDBuilder(Ctx).createLikelyBranchWeights());
    }

    // The slow path: partial rows, other alignments, possible overlap. The
    // active threads are tid.x < clamp(End - (Index - tid.x), 0, ntid.x).
    IRBuilder<> SB(Slow);
    SB.SetCurrentDebugLocation(Loc);
    Value *Active = Ntid;
    if (Left) {
      Active = SB.CreateBinaryIntrinsic(
          Intrinsic::smax,
          SB.CreateBinaryIntrinsic(Intrinsic::smin, Left, Ntid),
          SB.getInt64(0));
      Active->setName("coalda.active");
    }
    Value *Region = SB.CreateMul(Active, SB.getInt64(G.Stride), "coalda.bytes");
    BasicBlock *Chain = Slow;
    if (G.NeedsOverlapCheck)
      Chain = BasicBlock::Create(Ctx, "coalda.disjoint", F, Join);
    BasicBlock *Cur = Chain;
    for (auto [I, U] : enumerate(Units)) {
      IRBuilder<> CB(Cur);
      CB.SetCurrentDebugLocation(Loc);
      Value *Ok = Aligned(CB, Region, U);
      BasicBlock *Copy = emitCopy(U, F, nullptr, Active, Region,
                                  "coalda.copy" + std::to_string(U));
      // Next tries the next narrower unit, or is the member-width copy.
      unsigned NextUnit = I + 1 < Units.size() ? Units[I + 1] : 0;
      BasicBlock *Next = BasicBlock::Create(
          Ctx,
          NextUnit ? "coalda.try" + std::to_string(NextUnit)
                   : "coalda.copy" + std::to_string(G.MemberWidth),
          F, Join);
      CB.CreateCondBr(Ok, Copy, Next);
      Cur = Next;
    }
    emitCopy(G.MemberWidth, F, Cur, Active, Region,
             "coalda.copy" + std::to_string(G.MemberWidth));
    if (G.NeedsOverlapCheck)
      SB.CreateCondBr(Disjoint(SB, Region), Chain, emitOriginal(F));
    // Lay the fallback out last, where a reader looks for it.
    if (Original)
      Original->moveBefore(Join);
    std::string Widths;
    for (unsigned U : Units) {
      Widths += std::to_string(U) + "/";
      G.Units.push_back(U);
    }
    G.Units.push_back(G.MemberWidth);
    G.Action = "rewritten: the row's " + std::to_string(G.Stride) +
               (G.GuardIndex ? "*active" : "*ntid.x") +
               "-byte region moved in " + Widths +
               std::to_string(G.MemberWidth) + "-byte units" +
               (G.NeedsOverlapCheck ? ", behind a run-time overlap check"
                                    : "") +
               (G.RuntimeStride ? ", when the run-time stride is " +
                                      std::to_string(G.Stride) + " bytes"
                                : "") +
               (G.GuardIndex ? ", by the threads that pass the " +
                                   G.GuardKind + " guard"
                             : "");
  }

private:
  CopyGroup &G;
  const std::vector<Atom> &Atoms;
  LLVMContext &Ctx;
  DebugLoc Loc;
  Type *I64, *I8;
  Value *Tid = nullptr, *Ntid = nullptr, *DstStart = nullptr,
        *SrcStart = nullptr;
  BasicBlock *Join = nullptr, *Original = nullptr;
  SmallVector<Instruction *, 16> Order;

  /// IR computing a polynomial (in i64) at B. Its atoms are special
  /// registers, kernel arguments or values the members' addresses use, so
  /// they are available where the group's last member is.
  Value *materialize(IRBuilder<> &B, const Poly &P) {
    static const Intrinsic::ID Registers[4][3] = {
        {Intrinsic::nvvm_read_ptx_sreg_tid_x, Intrinsic::nvvm_read_ptx_sreg_tid_y,
         Intrinsic::nvvm_read_ptx_sreg_tid_z},
        {Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
         Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
         Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
        {Intrinsic::nvvm_read_ptx_sreg_ntid_x,
         Intrinsic::nvvm_read_ptx_sreg_ntid_y,
         Intrinsic::nvvm_read_ptx_sreg_ntid_z},
        {Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
         Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
         Intrinsic::nvvm_read_ptx_sreg_nctaid_z}};
    Value *Sum = B.getInt64(0);
    for (const auto &[M, C] : P.Terms) {
      Value *Term = B.getInt64(C);
      for (unsigned Id : M) {
        const Atom &A = Atoms[Id];
        Value *V;
        if (A.Kind <= Atom::GridDim)
          V = B.CreateZExt(
              B.CreateIntrinsic(Registers[A.Kind][A.Dim], {}, {}), I64);
        else // kernel argument or opaque row-uniform value (Iteration: never)
          V = B.CreateSExtOrTrunc(const_cast<Value *>(A.V), I64);
        Term = B.CreateMul(Term, V);
      }
      Sum = B.CreateAdd(Sum, Term);
    }
    return Sum;
  }

  Type *unitType(unsigned U) {
    if (U == 16)
      return FixedVectorType::get(Type::getInt32Ty(Ctx), 4);
    return Type::getIntNTy(Ctx, U * 8);
  }

  /// Alignment of the original members: the region's start is the address of
  /// member 0 in thread 0, so it is at least this aligned.
  /// Copy the Bytes-long region in U-byte units by the row's first Count
  /// threads, starting in Entry (a new block if null); returns the entry
  /// block. The copy ends with a branch to Join.
  BasicBlock *emitCopy(unsigned U, Function *F, BasicBlock *Entry,
                       Value *Count, Value *RegionBytes,
                       const std::string &Name) {
    if (!Entry)
      Entry = BasicBlock::Create(Ctx, Name, F, Join);
    IRBuilder<> B(Entry);
    B.SetCurrentDebugLocation(Loc);
    Type *Ty = unitType(U);
    Align A = U > G.MemberWidth ? Align(U) : commonAlignment(memberAlignment(G), U);
    unsigned PerThread = (G.Stride + U - 1) / U;
    // Units past the region's end are skipped: when U does not divide the
    // stride, or when a guard may have shortened the row.
    bool Guarded = G.Stride % U != 0 || Count != Ntid;
    Value *Units =
        Guarded ? B.CreateLShr(RegionBytes, Log2_32(U), Name + ".units")
                : nullptr;
    auto Bytes = [&](IRBuilder<> &IB, Value *Unit) {
      return U == 1 ? Unit : IB.CreateShl(Unit, Log2_32(U));
    };

    SmallVector<Value *, 16> Index, Value_, InRange;
    for (unsigned K = 0; K < PerThread; ++K)
      Index.push_back(K == 0 ? Tid
                             : B.CreateAdd(B.CreateMul(Count, B.getInt64(K)),
                                           Tid, Name + ".u"));
    // All loads, then all stores: the regions do not overlap.
    for (unsigned K = 0; K < PerThread; ++K) {
      auto Load = [&](IRBuilder<> &LB) {
        Value *P = LB.CreateGEP(I8, SrcStart, Bytes(LB, Index[K]));
        LoadInst *V = LB.CreateAlignedLoad(Ty, P, A, Name + ".v");
        if (InvariantLoads)
          V->setMetadata(LLVMContext::MD_invariant_load,
                         MDNode::get(Ctx, {}));
        return V;
      };
      if (!Guarded) {
        Value_.push_back(Load(B));
        continue;
      }
      Value *In = B.CreateICmpULT(Index[K], Units, Name + ".in");
      InRange.push_back(In);
      BasicBlock *From = B.GetInsertBlock();
      BasicBlock *Do = BasicBlock::Create(Ctx, Name + ".ld", F, Join);
      BasicBlock *Cont = BasicBlock::Create(Ctx, Name + ".ld.cont", F, Join);
      B.CreateCondBr(In, Do, Cont);
      IRBuilder<> LB(Do);
      LB.SetCurrentDebugLocation(Loc);
      Value *V = Load(LB);
      LB.CreateBr(Cont);
      B.SetInsertPoint(Cont);
      PHINode *Phi = B.CreatePHI(Ty, 2, Name + ".v");
      Phi->addIncoming(V, Do);
      Phi->addIncoming(PoisonValue::get(Ty), From);
      Value_.push_back(Phi);
    }
    for (unsigned K = 0; K < PerThread; ++K) {
      auto Store = [&](IRBuilder<> &SB) {
        Value *P = SB.CreateGEP(I8, DstStart, Bytes(SB, Index[K]));
        SB.CreateAlignedStore(Value_[K], P, A);
      };
      if (!Guarded) {
        Store(B);
        continue;
      }
      Value *In = InRange[K];
      BasicBlock *Do = BasicBlock::Create(Ctx, Name + ".st", F, Join);
      BasicBlock *Cont = BasicBlock::Create(Ctx, Name + ".st.cont", F, Join);
      B.CreateCondBr(In, Do, Cont);
      IRBuilder<> SB(Do);
      SB.SetCurrentDebugLocation(Loc);
      Store(SB);
      SB.CreateBr(Cont);
      B.SetInsertPoint(Cont);
    }
    B.CreateBr(Join);
    return Entry;
  }

  /// The original per-thread copy, in program order, for overlapping regions.
  BasicBlock *emitOriginal(Function *F) {
    if (Original) // shared by the cost rule and the overlap check
      return Original;
    BasicBlock *BB = Original =
        BasicBlock::Create(Ctx, "coalda.original", F, Join);
    IRBuilder<> B(BB);
    DenseMap<Value *, Value *> Clones;
    for (Instruction *I : Order) {
      Instruction *C = I->clone();
      for (Use &U : C->operands())
        if (Value *Mapped = Clones.lookup(U.get()))
          U.set(Mapped);
      B.Insert(C, I->getName());
      Clones[I] = C;
    }
    B.CreateBr(Join);
    return BB;
  }
};

} // namespace

void CoalescingTransformPass::emitFlatCopy(CopyGroup &G) {
  LLVMContext &Ctx = G.FlatEntry->getContext();
  Function *F = G.FlatEntry->getParent();
  Type *I64 = Type::getInt64Ty(Ctx), *I8 = Type::getInt8Ty(Ctx);
  Instruction *Term = G.FlatEntry->getTerminator();
  DebugLoc Loc = G.Stores.back()->Inst->getDebugLoc();
  IRBuilder<> B(Term);
  B.SetCurrentDebugLocation(Loc);
  auto Reg = [&](Intrinsic::ID ID, const char *Name) {
    return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), I64, Name);
  };
  Value *Tid = Reg(Intrinsic::nvvm_read_ptx_sreg_tid_x, "flat.tid");
  Value *Ntid = Reg(Intrinsic::nvvm_read_ptx_sreg_ntid_x, "flat.ntid");
  Value *Ctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, "flat.ctaid");
  Value *Nctaid = Reg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, "flat.nctaid");
  Value *Gid = B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid, "flat.gid");
  Value *Threads = B.CreateMul(Ntid, Nctaid, "flat.threads");
  Value *Bound = copyBefore(G.FlatEndCopies, G.GuardEnd, Term);
  Value *End = G.GuardSigned ? B.CreateSExt(Bound, I64)
                             : B.CreateZExt(Bound, I64);
  Value *Bytes = B.CreateMul(
      B.CreateBinaryIntrinsic(Intrinsic::smax, End, B.getInt64(0)),
      B.getInt64(G.Stride), "flat.bytes");
  // Element 0's member 0, on both sides.
  auto Start = [&](const AccessExpr &A, const char *Name) {
    return B.CreateGEP(I8, const_cast<Value *>(A.Base),
                       B.getInt64(A.Offset), Name);
  };
  Value *Dst = Start(G.first(), "flat.dst"), *Src = Start(*G.Loads.front(), "flat.src");
  Value *DstInt = B.CreatePtrToInt(Dst, I64), *SrcInt = B.CreatePtrToInt(Src, I64);
  unsigned U = G.Units.empty() ? G.MemberWidth : G.Units.front();
  Align MemberAlign = commonAlignment(memberAlignment(G), G.MemberWidth);
  Value *Ok = B.CreateICmpEQ(
      B.CreateAnd(B.CreateOr(DstInt, SrcInt), B.getInt64(U - 1)),
      B.getInt64(0));
  if (G.NeedsOverlapCheck)
    Ok = B.CreateAnd(
        Ok, B.CreateOr(B.CreateICmpULE(B.CreateAdd(DstInt, Bytes), SrcInt),
                       B.CreateICmpULE(B.CreateAdd(SrcInt, Bytes), DstInt)));
  Ok->setName("flat.ok");

  // Entry: br flat.ok, flat, <the original jump into the loop>
  BasicBlock *Orig = BasicBlock::Create(Ctx, "flat.orig", F);
  Term->removeFromParent();
  Term->insertInto(Orig, Orig->end());
  for (BasicBlock *Succ : successors(Orig))
    Succ->replacePhiUsesWith(G.FlatEntry, Orig);
  BasicBlock *Head = BasicBlock::Create(Ctx, "flat.copy", F);
  B.SetInsertPoint(G.FlatEntry);
  B.CreateCondBr(Ok, Head, Orig, MDBuilder(Ctx).createLikelyBranchWeights());

  // A grid-stride loop over `Width`-byte units: thread gid moves the units
  // at First + (gid + k*threads)*Width below Limit, Unroll of them per
  // iteration (all loads, then all stores), then the rest one by one.
  auto EmitLoop = [&](BasicBlock *From, unsigned Width, unsigned Unroll,
                      Value *First, Value *Limit, BasicBlock *Next,
                      const std::string &Name) {
    IRBuilder<> FB(From);
    FB.SetCurrentDebugLocation(Loc);
    Type *Ty = Width == 16 ? (Type *)FixedVectorType::get(FB.getInt32Ty(), 4)
                           : FB.getIntNTy(Width * 8);
    // Whole units are aligned by the run-time check; member-width units as
    // the original members were.
    Align A = Width == G.MemberWidth && Width < U ? MemberAlign : Align(Width);
    Value *Step = FB.CreateMul(Threads, FB.getInt64(Width), Name + ".step");
    Value *Begin = FB.CreateAdd(First, FB.CreateMul(Gid, FB.getInt64(Width)));
    auto Move = [&](IRBuilder<> &LB, ArrayRef<Value *> At) {
      SmallVector<Value *, 4> Vs;
      for (Value *P : At) {
        LoadInst *V = LB.CreateAlignedLoad(Ty, LB.CreateGEP(I8, Src, P), A);
        if (InvariantLoads)
          V->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(Ctx, {}));
        Vs.push_back(V);
      }
      for (auto [P, V] : zip(At, Vs))
        LB.CreateAlignedStore(V, LB.CreateGEP(I8, Dst, P), A);
    };
    BasicBlock *Many = BasicBlock::Create(Ctx, Name + ".many", F);
    BasicBlock *SingleTest = BasicBlock::Create(Ctx, Name + ".rest", F);
    BasicBlock *Single = BasicBlock::Create(Ctx, Name + ".one", F);
    Value *Reach = FB.CreateMul(Step, FB.getInt64(Unroll - 1));
    // Unroll units in flight per thread while the last of them is in range.
    FB.CreateCondBr(FB.CreateICmpULT(FB.CreateAdd(Begin, Reach), Limit), Many,
                    SingleTest);
    IRBuilder<> MB(Many);
    MB.SetCurrentDebugLocation(Loc);
    PHINode *At = MB.CreatePHI(I64, 2, Name + ".at");
    At->addIncoming(Begin, From);
    SmallVector<Value *, 4> Ats{At};
    for (unsigned K = 1; K < Unroll; ++K)
      Ats.push_back(MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(K))));
    Move(MB, Ats);
    Value *After = MB.CreateAdd(At, MB.CreateMul(Step, MB.getInt64(Unroll)));
    At->addIncoming(After, Many);
    MB.CreateCondBr(MB.CreateICmpULT(MB.CreateAdd(After, Reach), Limit), Many,
                    SingleTest);
    // The remaining units, one per iteration.
    IRBuilder<> TB(SingleTest);
    TB.SetCurrentDebugLocation(Loc);
    PHINode *From1 = TB.CreatePHI(I64, 2, Name + ".from");
    From1->addIncoming(Begin, From);
    From1->addIncoming(After, Many);
    TB.CreateCondBr(TB.CreateICmpULT(From1, Limit), Single, Next);
    IRBuilder<> OB(Single);
    OB.SetCurrentDebugLocation(Loc);
    PHINode *One = OB.CreatePHI(I64, 2, Name + ".at1");
    One->addIncoming(From1, SingleTest);
    Move(OB, {One});
    Value *Again = OB.CreateAdd(One, Step);
    One->addIncoming(Again, Single);
    OB.CreateCondBr(OB.CreateICmpULT(Again, Limit), Single, Next);
  };
  // Whole units first, then the few bytes of the last partial unit in
  // member-width units.
  IRBuilder<> HB(Head);
  HB.SetCurrentDebugLocation(Loc);
  Value *Whole = HB.CreateAnd(Bytes, HB.getInt64(~uint64_t(U - 1)), "flat.whole");
  BasicBlock *Tail = BasicBlock::Create(Ctx, "flat.tail");
  EmitLoop(Head, U, 4, HB.getInt64(0), Whole, Tail, "flat.units");
  Tail->insertInto(F);
  EmitLoop(Tail, G.MemberWidth, 1, Whole, Bytes, G.FlatExit, "flat.bytes");
}

void CoalescingTransformPass::rewrite(CopyGroup &G,
                                      const CoalescingInfo &Info) {
  Instruction *Last = lastMember(G);
  RegionCopyEmitter(G, Last, Info.atoms()).emit(Last);
  if (G.FlatEntry) {
    emitFlatCopy(G);
    G.Action += "; the whole grid-stride loop runs as one flat copy by all "
                "threads when aligned and disjoint";
  }
  G.Transformed = true;
  ++NumGroupsRewritten;
}

//===----------------------------------------------------------------------===//
// Step 4: erase
//===----------------------------------------------------------------------===//

void CoalescingTransformPass::erase(CopyGroup &G) {
  SmallVector<WeakTrackingVH, 16> Addresses;
  for (const auto *List : {&G.Stores, &G.Loads})
    for (const AccessExpr *A : *List) {
      Addresses.push_back(getLoadStorePointerOperand(A->Inst));
      A->Inst->eraseFromParent();
    }
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(Addresses);
}

//===----------------------------------------------------------------------===//
// Driver and report
//===----------------------------------------------------------------------===//

namespace {

json::Value accessJSON(const AccessExpr &A, const CoalescingInfo &Info) {
  json::Object O;
  O["expr"] = Info.exprString(A);
  if (A.isKnown())
    O["base"] = baseName(A.Base);
  O["kind"] = A.IsStore ? "store" : "load";
  const DebugLoc &DL = A.Inst->getDebugLoc();
  O["line"] = DL ? (int64_t)DL.getLine() : 0;
  O["column"] = DL ? (int64_t)DL.getCol() : 0;
  if (auto *Scope = DL ? dyn_cast<DIScope>(DL.getScope()) : nullptr)
    O["file"] = Scope->getFilename();
  std::optional<int64_t> S = A.constantStride();
  O["stride"] = S ? json::Value(*S) : json::Value(nullptr);
  O["offset"] = A.isKnown() ? json::Value(A.Offset) : json::Value(nullptr);
  O["width"] = (int64_t)A.Width;
  O["lane"] = A.isKnown() ? A.laneName() : "unknown";
  O["coalesced"] = A.isKnown() && (A.Lane == LaneKind::None || A.isCoalesced());
  O["space"] = A.Space == MemorySpace::Shared ? "shared" : "global";
  if (!A.isKnown())
    O["reason"] = A.Unknown;
  return O;
}

} // namespace

/// Analysis remarks for every uncoalesced or unreadable access.
static void remarkAccesses(const CoalescingInfo &Info,
                           OptimizationRemarkEmitter &ORE) {
  for (const AccessExpr &A : Info.Accesses) {
    ++NumAccesses;
    if (A.isKnown() && (A.Lane == LaneKind::None || A.isCoalesced()))
      continue;
    if (A.isKnown())
      ++NumUncoalesced;
    ORE.emit([&] {
      return OptimizationRemarkAnalysis(
                 DEBUG_TYPE, A.isKnown() ? "Uncoalesced" : "Unanalyzable",
                 A.Inst)
             << (A.IsStore ? "store " : "load ") << Info.exprString(A)
             << (A.isKnown() ? " is uncoalesced: its lane stride exceeds "
                               "its width of " +
                                   std::to_string(A.Width) + " bytes"
                             : "");
    });
  }
}

/// One kernel of the -coalda-report JSON: every access, every group.
static json::Value kernelReport(const Function &F, const CoalescingInfo &Info,
                                const std::vector<CopyGroup> &Groups) {
  DenseMap<const Instruction *, int64_t> GroupOf;
  for (auto [Idx, G] : enumerate(Groups))
    for (const auto *List : {&G.Loads, &G.Stores})
      for (const AccessExpr *A : *List)
        GroupOf[A->Inst] = Idx;
  json::Array Accesses;
  for (const AccessExpr &A : Info.Accesses) {
    json::Value J = accessJSON(A, Info);
    if (auto It = GroupOf.find(A.Inst); It != GroupOf.end())
      (*J.getAsObject())["group"] = It->second;
    Accesses.push_back(std::move(J));
  }
  json::Array GroupsJSON;
  for (const CopyGroup &G : Groups) {
    json::Object O;
    O["base"] = baseName(G.first().Base);
    O["expr"] = Info.exprString(G.first());
    O["stride"] = G.first().constantStride()
                      ? json::Value(*G.first().constantStride())
                      : json::Value(nullptr);
    O["members"] = (int64_t)G.Stores.size();
    O["transformed"] = G.Transformed;
    O["reason"] = G.Transformed ? G.Action : G.Missed;
    if (G.Transformed) {
      json::Array Units;
      for (unsigned U : G.Units)
        Units.push_back((int64_t)U);
      O["units"] = std::move(Units);
      O["overlap_check"] = G.NeedsOverlapCheck;
      O["guard"] = G.GuardKind;
      O["flat"] = G.FlatEntry != nullptr;
    }
    const DebugLoc &DL = G.first().Inst->getDebugLoc();
    O["line"] = DL ? (int64_t)DL.getLine() : 0;
    GroupsJSON.push_back(std::move(O));
  }
  return json::Object{{"name", sourceName(F)},
                      {"symbol", F.getName()},
                      {"accesses", std::move(Accesses)},
                      {"groups", std::move(GroupsJSON)}};
}

namespace {

/// A copy of F's body to go back to if the rewrite turns out invalid.
Function *cloneForRollback(Function &F) {
  ValueToValueMapTy VMap;
  return CloneFunction(&F, VMap);
}

/// Puts Backup's body back into F and deletes Backup.
void rollback(Function &F, Function *Backup) {
  for (BasicBlock &BB : F)
    BB.dropAllReferences();
  while (!F.empty())
    F.begin()->eraseFromParent();
  F.splice(F.end(), Backup);
  for (auto [Mine, Theirs] : zip(F.args(), Backup->args()))
    Theirs.replaceAllUsesWith(&Mine);
  Backup->eraseFromParent();
}

/// For testing the rollback: makes F invalid (a use before its definition).
void breakForTesting(Function &F) {
  for (BasicBlock &BB : drop_begin(F))
    for (Instruction &I : BB)
      if (I.getType()->isIntegerTy()) {
        auto *Bad = BinaryOperator::CreateAdd(&I, &I, "coalda.broken");
        Bad->insertBefore(F.getEntryBlock().getFirstNonPHI());
        return;
      }
}

/// Where a group's remarks point: its first and last stores, saved before
/// the rewrite erases them.
struct GroupLocations {
  DebugLoc First, Last;
};

const char *const RolledBack =
    "COALDA's rewrite did not pass the IR verifier (a COALDA bug, please "
    "report it): the original code is kept";

void remarkGroup(const CopyGroup &G, const GroupLocations &Loc,
                 const Function &F, OptimizationRemarkEmitter &ORE) {
  const BasicBlock *Region = &F.getEntryBlock();
  if (G.Transformed)
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Coalesced", Loc.Last, Region)
             << "coalesced copy of " << std::to_string(G.Stores.size())
             << " members from " << baseName(G.Loads.front()->Base) << " to "
             << baseName(G.first().Base) << ": " << G.Action;
    });
  else
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, "NotCoalesced", Loc.First,
                                      Region)
             << "copy into " << baseName(G.first().Base)
             << " left alone: " << G.Missed;
    });
}

} // namespace

/// Rewrites the legal groups of F, then verifies F; an invalid result is
/// replaced by the original body and its groups are reported as missed.
/// Returns whether F changed.
bool CoalescingTransformPass::transformFunction(Function &F,
                                                std::vector<CopyGroup> &Groups,
                                                const CoalescingInfo &Info,
                                                json::Array *Report) {
  bool Any = any_of(Groups, [](const CopyGroup &G) { return G.Missed.empty(); });
  Function *Backup = Any ? cloneForRollback(F) : nullptr;
  for (CopyGroup &G : Groups)
    if (G.Missed.empty())
      rewrite(G, Info);
  // The report reads the members, so it comes before they are erased.
  std::optional<json::Value> Kernel;
  if (Report)
    Kernel = kernelReport(F, Info, Groups);
  for (CopyGroup &G : Groups)
    if (G.Transformed)
      erase(G);
  if (Any && BreakForTesting)
    breakForTesting(F);
  std::string Problems;
  raw_string_ostream OS(Problems);
  if (Backup && verifyFunction(F, &OS)) {
    LLVM_DEBUG(dbgs() << "coalda: invalid IR after rewriting " << F.getName()
                      << ", rolled back:\n"
                      << Problems);
    rollback(F, Backup);
    ++NumRolledBack;
    for (CopyGroup &G : Groups)
      if (G.Transformed) {
        G.Transformed = false;
        G.Missed = RolledBack;
        --NumGroupsRewritten;
      }
    if (Kernel)
      for (json::Value &J : *Kernel->getAsObject()->getArray("groups"))
        if (json::Object *O = J.getAsObject(); O && *O->getBoolean("transformed")) {
          (*O)["transformed"] = false;
          (*O)["reason"] = RolledBack;
          for (StringRef Key : {"units", "overlap_check", "guard", "flat"})
            O->erase(Key);
        }
  } else if (Backup) {
    Backup->eraseFromParent();
  }
  if (Kernel)
    Report->push_back(std::move(*Kernel));
  return Backup != nullptr;
}

PreservedAnalyses CoalescingTransformPass::run(Module &M,
                                               ModuleAnalysisManager &MAM) {
  if (!Triple(M.getTargetTriple()).isNVPTX())
    return PreservedAnalyses::all();
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  json::Array Kernels;
  bool Changed = false;
  DenseSet<const Function *> KernelSet = kernelsOf(M);
  // Rollback clones are added to M while it is walked: collect first.
  SmallVector<Function *, 8> Work;
  for (Function &F : M)
    if (!F.isDeclaration() && KernelSet.contains(&F))
      Work.push_back(&F);

  for (Function *FP : Work) {
    Function &F = *FP;
    const CoalescingInfo &Info = FAM.getResult<CoalescingAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    auto &PDT = FAM.getResult<PostDominatorTreeAnalysis>(F);
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);

    std::vector<CopyGroup> Groups = collect(Info);
    // The members of every pure copy collect found, for legality's
    // question which other accesses may touch a copy's bytes.
    DenseMap<const Instruction *, const CopyGroup *> CopyOf;
    for (const CopyGroup &G : Groups)
      if (G.Missed.empty())
        for (const auto *List : {&G.Loads, &G.Stores})
          for (const AccessExpr *A : *List)
            CopyOf[A->Inst] = &G;
    for (CopyGroup &G : Groups) {
      checkLegality(G, Info, PDT, DT, LI, CopyOf);
      if (AnalyzeOnly && G.Missed.empty())
        G.Missed = "analysis only (-coalda-analyze-only)";
      LLVM_DEBUG(if (!G.Missed.empty()) dbgs()
                 << "coalda: group " << Info.exprString(G.first())
                 << " left alone: " << G.Missed << "\n");
    }
    remarkAccesses(Info, ORE);
    std::vector<GroupLocations> Locations;
    for (const CopyGroup &G : Groups)
      Locations.push_back({G.first().Inst->getDebugLoc(),
                           G.Stores.back()->Inst->getDebugLoc()});
    if (transformFunction(F, Groups, Info,
                          ReportFile.empty() ? nullptr : &Kernels)) {
      Changed = true;
      FAM.invalidate(F, PreservedAnalyses::none());
    }
    for (auto [G, Loc] : zip(Groups, Locations))
      remarkGroup(G, Loc, F, ORE);
  }

  if (!ReportFile.empty()) {
    std::error_code EC;
    raw_fd_ostream OS(ReportFile, EC, sys::fs::OF_Text);
    if (EC)
      M.getContext().emitError("coalda: cannot write report '" + ReportFile +
                               "': " + EC.message());
    else
      OS << formatv("{0:2}", json::Value(json::Object{
                                 {"kernels", std::move(Kernels)}}))
         << "\n";
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

} // namespace coalda
