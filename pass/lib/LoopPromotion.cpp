//===- LoopPromotion.cpp - Loop accumulators promoted to registers --------===//
//
// A loop that reads and writes the same uncoalesced global element on every
// iteration pays for its members on every pass: LICM cannot keep the element
// in registers because nothing proves that the loop's other accesses miss
// it. The promotion proves it at run time, with LLVM's own loop versioning
// and LICM:
//
//   1. Candidates (collectPromotions): an innermost loop with an
//      uncoalesced global access whose address the loop does not change.
//   2. Legality (collectPromotions, then planChecks): the loop has one exit;
//      every store to such an address (the element) runs on every
//      iteration, as LICM promotes no other; everything in it that touches
//      memory is a simple load or store, and nothing is convergent (a call,
//      a barrier, a warp shuffle, an atomic: refused; an access to shared,
//      constant or local memory cannot reach the element and is not
//      compared); and every access's bytes over the loop are a range known
//      at its entry: [p, p + width) for a fixed address, from the first to
//      the last address of one that steps by the same constant each
//      iteration, spanning under 2^62 bytes whatever the trip count (the
//      check also tests each range's start below its end: an address that
//      wrapped past the top of the address space takes the original loop). The element's ranges (those whose starts differ by a
//      constant merged into one) and the other accesses' are compared in
//      pairs: apart by a constant distance, nothing to check; overlapping
//      at one, refused; otherwise a check at run time, at most MaxChecks.
//   3. Versioning (applyPromotions): the loop is put in loop-simplify,
//      rotated (-O0 leaves its test at the top) and LCSSA form; the
//      preheader tests every pair apart and enters the loop, else a clone
//      of it (the original code, Versioning.h). The loop's own accesses get
//      scoped no-alias metadata: the element in one scope, the others in
//      another, each not aliasing the other.
//   4. LICM, run on the function, moves the element's loads before that
//      loop and its stores after it, and the reads the loop does not change
//      out of it. Where an element's access is still in the loop, the
//      promotion is reported as not done; when no loop of the kernel was
//      promoted the caller restores the kernel's body.
//
// The checks compare one thread's address ranges, as LICM's own reasoning
// is about one thread: another thread's accesses can meet the element only
// through a data race in the original kernel.
//
//===----------------------------------------------------------------------===//

#include "LoopPromotion.h"
#include "Options.h"
#include "Versioning.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Scalar/LICM.h"
#include "llvm/Transforms/Scalar/LoopPassManager.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopRotationUtils.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>

#define DEBUG_TYPE "coalda-promote"

using namespace llvm;

STATISTIC(NumPromoted, "Loops whose global accumulators went to registers");
STATISTIC(NumPromotionCandidates,
          "Loops with an uncoalesced global access at a fixed address");

namespace coalda {
namespace {

/// More checks than this cost more than most loops they would speed up.
constexpr unsigned MaxChecks = 16;

Missed miss(MissedReason R, std::string Detail) {
  LLVM_DEBUG(dbgs() << "coalda-promote: not promoted: " << Detail << "\n");
  return Missed{R, std::move(Detail)};
}

/// A global access of the loop at an address the loop does not change
/// (computed inside it or not: -O0 leaves the address's arithmetic there).
bool fixedInLoop(const AccessExpr &A, const Loop &L, ScalarEvolution &SE) {
  return A.Space == MemorySpace::Global && !A.isTransfer() && A.isSimple() &&
         SE.isLoopInvariant(SE.getSCEV(A.pointer()), &L);
}

bool uncoalesced(const AccessExpr &A) {
  return A.isKnown() && A.Lane != LaneKind::None && !A.isCoalesced() &&
         !A.VectorWidth;
}

std::string lineOf(const Instruction &I) {
  const DebugLoc &DL = I.getDebugLoc();
  return DL && DL.getLine() ? " at line " + std::to_string(DL.getLine()) : "";
}

/// Rule 2: every instruction of the loop that touches memory is a simple
/// load or store.
Verdict checkMemory(const Loop &L) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      // A warp shuffle touches no memory, but the threads of a warp that
      // the checks send down different copies of the loop would not meet.
      if (auto *Call = dyn_cast<CallBase>(&I); Call && Call->isConvergent())
        return miss(MissedReason::PromotionUnanalyzable,
                    "the loop has a barrier or another operation every "
                    "thread must reach together" + lineOf(I));
      if (!I.mayReadOrWriteMemory())
        continue;
      if (isa<CallBase>(I)) {
        return miss(MissedReason::PromotionUnanalyzable,
                    "the loop calls a function that may touch memory" +
                        lineOf(I));
      }
      auto *Load = dyn_cast<LoadInst>(&I);
      auto *Store = dyn_cast<StoreInst>(&I);
      if (!(Load && Load->isSimple()) && !(Store && Store->isSimple()))
        return miss(MissedReason::PromotionUnanalyzable,
                    "the loop has an atomic or volatile access" + lineOf(I));
    }
  return std::nullopt;
}

/// Rule 2, the loop's shape and its element's stores.
Verdict checkLoop(const Loop &L, const PromotionOutcome &P,
                  const DominatorTree &DT) {
  BasicBlock *Latch = L.getLoopLatch();
  if (!L.getExitingBlock() || !L.getUniqueExitBlock() || !Latch)
    return miss(MissedReason::PromotionLoopShape,
                "the loop can be left at more than one place");
  // Rotated, the latch is where the loop is left; not yet (-O0), the
  // latch ends every iteration that goes on.
  for (const AccessExpr *A : P.Accesses)
    if (A->IsStore && !DT.dominates(A->Inst->getParent(), Latch))
      return miss(MissedReason::PromotionConditionalStore,
                  "the element is stored on some iterations only" +
                      lineOf(*A->Inst));
  return checkMemory(L);
}

/// The bytes an access of the loop touches over all its iterations:
/// [Start, End), pointers.
struct ByteRange {
  const SCEV *Start = nullptr;
  const SCEV *End = nullptr;
  bool Element = false; ///< the element kept in registers
};

/// Bytes a loop-variant range may span, at most: with the run-time test
/// that each range's start lies below its end (emitApart), a range whose
/// end wrapped past the top of the address space is then seen, and takes
/// the original loop.
constexpr uint64_t MaxSpan = uint64_t(1) << 62;

/// An access's range over the loop, or nullopt: its address is neither
/// fixed nor a step by the same constant on every iteration of a loop whose
/// trip count is known at its entry, or the steps may span MaxSpan bytes
/// (an address of a conditional access may wrap between the iterations
/// that run it: `p[k * 0x3fffffffffffffff]` on every fourth).
std::optional<ByteRange> rangeOf(Instruction &I, const Loop &L,
                                 ScalarEvolution &SE) {
  Value *Ptr = getLoadStorePointerOperand(&I);
  Type *Ty = getLoadStoreType(&I);
  const DataLayout &DL = I.getModule()->getDataLayout();
  uint64_t Bytes = DL.getTypeStoreSize(Ty).getFixedValue();
  // Addresses as 64-bit integers: ranges of pointers of different types
  // (generic, global) then compare.
  Type *IntPtr = DL.getIntPtrType(I.getContext());
  if (DL.getPointerSizeInBits(Ptr->getType()->getPointerAddressSpace()) !=
      IntPtr->getIntegerBitWidth())
    return std::nullopt;
  const SCEV *Width = SE.getConstant(IntPtr, Bytes);
  const SCEV *S = SE.getPtrToIntExpr(SE.getSCEV(Ptr), IntPtr);
  if (isa<SCEVCouldNotCompute>(S))
    return std::nullopt;
  if (SE.isLoopInvariant(S, &L))
    return ByteRange{S, SE.getAddExpr(S, Width)};
  auto *AR = dyn_cast<SCEVAddRecExpr>(S);
  const SCEV *Taken = SE.getBackedgeTakenCount(&L);
  if (!AR || AR->getLoop() != &L || !AR->isAffine() ||
      isa<SCEVCouldNotCompute>(Taken))
    return std::nullopt;
  auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
  APInt MaxTaken = SE.getUnsignedRangeMax(Taken);
  if (!Step || MaxTaken.getActiveBits() > 62)
    return std::nullopt;
  // |step| * (trips) + width under MaxSpan, computed without overflow.
  APInt Magnitude = Step->getAPInt().abs().zextOrTrunc(128);
  APInt Span = Magnitude * (MaxTaken.zextOrTrunc(128) + 1) + Bytes;
  if (Span.uge(MaxSpan))
    return std::nullopt;
  const SCEV *Last = AR->evaluateAtIteration(Taken, SE);
  if (!Step->getAPInt().isNegative())
    return ByteRange{AR->getStart(), SE.getAddExpr(Last, Width)};
  return ByteRange{Last, SE.getAddExpr(AR->getStart(), Width)};
}

/// Ranges whose starts, and whose ends, lie a constant distance apart,
/// merged into one: [StartAnchor + Lo, EndAnchor + Hi).
SmallVector<ByteRange, 4> merged(ArrayRef<ByteRange> Ranges,
                                 ScalarEvolution &SE) {
  struct Merged {
    const SCEV *StartAnchor, *EndAnchor;
    int64_t Lo = 0, Hi = 0;
  };
  auto Offset = [&](const SCEV *S,
                    const SCEV *Anchor) -> std::optional<int64_t> {
    if (auto *C = dyn_cast<SCEVConstant>(SE.getMinusSCEV(S, Anchor)))
      return C->getAPInt().trySExtValue();
    return std::nullopt;
  };
  SmallVector<Merged, 4> Out;
  for (const ByteRange &R : Ranges) {
    auto Into = find_if(Out, [&](const Merged &M) {
      return Offset(R.Start, M.StartAnchor) && Offset(R.End, M.EndAnchor);
    });
    if (Into == Out.end()) {
      Out.push_back({R.Start, R.End});
      continue;
    }
    Into->Lo = std::min(Into->Lo, *Offset(R.Start, Into->StartAnchor));
    Into->Hi = std::max(Into->Hi, *Offset(R.End, Into->EndAnchor));
  }
  auto At = [&](const SCEV *Anchor, int64_t Off) {
    Type *Ty = SE.getEffectiveSCEVType(Anchor->getType());
    return SE.getAddExpr(Anchor, SE.getConstant(Ty, Off, /*isSigned=*/true));
  };
  SmallVector<ByteRange, 4> Result;
  for (const Merged &M : Out)
    Result.push_back({At(M.StartAnchor, M.Lo), At(M.EndAnchor, M.Hi)});
  return Result;
}

enum class Apart { Always, Never, AtRunTime };

/// Whether two ranges are apart, decided here when their distance is a
/// constant.
Apart apart(const ByteRange &A, const ByteRange &B, ScalarEvolution &SE) {
  if (SE.isKnownPredicate(ICmpInst::ICMP_ULE, A.End, B.Start) ||
      SE.isKnownPredicate(ICmpInst::ICMP_ULE, B.End, A.Start))
    return Apart::Always;
  if (isa<SCEVConstant>(SE.getMinusSCEV(A.Start, B.Start)))
    return Apart::Never;
  return Apart::AtRunTime;
}

/// The loop's element and other accesses, and the pairs of their ranges to
/// compare at run time (rule 2; step 3's checks).
struct PromotionChecks {
  SmallVector<Instruction *, 16> Element, Others;
  SmallVector<std::pair<ByteRange, ByteRange>, 4> Pairs;
};

/// An access to shared, constant or local memory (NVPTX's address spaces
/// 3, 4 and 5): it cannot reach the global element.
bool apartFromGlobal(const Instruction &I) {
  unsigned AS = getLoadStorePointerOperand(&I)->getType()->getPointerAddressSpace();
  return AS == 3 || AS == 4 || AS == 5;
}

Verdict planChecks(Loop &L, ScalarEvolution &SE, PromotionChecks &C) {
  SmallVector<const SCEV *, 8> Stored;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *Store = dyn_cast<StoreInst>(&I))
        if (SE.isLoopInvariant(SE.getSCEV(Store->getPointerOperand()), &L))
          Stored.push_back(SE.getSCEV(Store->getPointerOperand()));
  SmallVector<ByteRange, 8> Element, Others;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB) {
      if (!isa<LoadInst, StoreInst>(I) || apartFromGlobal(I))
        continue;
      std::optional<ByteRange> R = rangeOf(I, L, SE);
      if (!R)
        return miss(MissedReason::PromotionUnanalyzable,
                    "an address" + lineOf(I) +
                        " changes in the loop by other than a fixed step, "
                        "so the bytes it reaches are not known before it");
      R->Element = is_contained(Stored, SE.getSCEV(getLoadStorePointerOperand(&I)));
      (R->Element ? Element : Others).push_back(*R);
      (R->Element ? C.Element : C.Others).push_back(&I);
    }
  for (const ByteRange &E : merged(Element, SE))
    for (const ByteRange &O : merged(Others, SE))
      switch (apart(E, O, SE)) {
      case Apart::Always:
        break;
      case Apart::Never:
        return miss(MissedReason::PromotionUnanalyzable,
                    "the loop reaches bytes of the element through another "
                    "address");
      case Apart::AtRunTime:
        C.Pairs.push_back({E, O});
      }
  if (C.Pairs.size() > MaxChecks)
    return miss(MissedReason::PromotionUnanalyzable,
                "its accesses need " + std::to_string(C.Pairs.size()) +
                    " overlap checks, over " + std::to_string(MaxChecks));
  if (!C.Pairs.empty() && !opts::RuntimeChecks)
    return miss(MissedReason::NoRuntimeChecks,
                "keeping the element in registers needs " +
                    std::to_string(C.Pairs.size()) +
                    " overlap checks, and run-time checks are off");
  return std::nullopt;
}

/// Whether an access the loop kept at a fixed address is still in the loop
/// headed by Header (rule 4).
bool stillInLoop(ArrayRef<WeakVH> Tracked, BasicBlock *Header, LoopInfo &LI) {
  Loop *L = LI.getLoopFor(Header);
  return L && any_of(Tracked, [&](const WeakVH &V) {
           auto *I = dyn_cast_or_null<Instruction>(V);
           return I && L->contains(I);
         });
}

/// Step 3: the loop in loop-simplify, rotated and LCSSA form; the header of
/// the result, or null when it cannot be rotated.
Loop *canonical(Function &F, PromotionOutcome &P, FunctionAnalysisManager &FAM) {
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  Loop *L = LI.getLoopFor(P.Header);
  simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr, /*PreserveLCSSA=*/false);
  if (!L->isRotatedForm()) {
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    LoopRotation(L, &LI, &FAM.getResult<TargetIRAnalysis>(F), &AC, &DT, &SE,
                 nullptr, getBestSimplifyQuery(FAM, F), /*RotationOnly=*/true,
                 /*Threshold=*/~0u, /*IsUtilMode=*/true);
    simplifyLoop(L, &DT, &LI, &SE, nullptr, nullptr, false);
  }
  formLCSSARecursively(*L, DT, &LI, &SE);
  P.Header = L->getHeader();
  return L->isRotatedForm() && L->getLoopPreheader() ? L : nullptr;
}

/// The run-time test that every pair is apart, at the end of Preheader.
Value *emitApart(ArrayRef<std::pair<ByteRange, ByteRange>> Pairs,
                 BasicBlock *Preheader, ScalarEvolution &SE) {
  const DataLayout &DL = Preheader->getModule()->getDataLayout();
  SCEVExpander Exp(SE, DL, "coalda.promote");
  Instruction *At = Preheader->getTerminator();
  IRBuilder<> B(At);
  auto Int = [&](const SCEV *S) { return Exp.expandCodeFor(S, S->getType(), At); };
  Value *All = B.getTrue();
  for (const auto &[E, O] : Pairs) {
    Value *EStart = Int(E.Start), *EEnd = Int(E.End);
    Value *OStart = Int(O.Start), *OEnd = Int(O.End);
    // Neither range wrapped past the top of the address space (each spans
    // less than MaxSpan bytes, so a wrapped end lies below its start) ...
    Value *Whole = B.CreateAnd(B.CreateICmpULT(EStart, EEnd),
                               B.CreateICmpULT(OStart, OEnd));
    // ... and one ends before the other begins.
    Value *Apart = B.CreateOr(B.CreateICmpULE(EEnd, OStart),
                              B.CreateICmpULE(OEnd, EStart));
    All = B.CreateAnd(All, B.CreateAnd(Whole, Apart), "coalda.promote.apart");
  }
  return All;
}

/// Step 3: the original loop as the fallback of the checks; L's own
/// accesses told, by scoped no-alias metadata, that the element and the
/// others are apart.
void version(Loop &L, const PromotionChecks &C, ScalarEvolution &SE) {
  BasicBlock *Preheader = L.getLoopPreheader();
  Value *Apart = emitApart(C.Pairs, Preheader, SE);
  SmallVector<BasicBlock *, 16> Region(L.blocks());
  SmallPtrSet<BasicBlock *, 16> InRegion(Region.begin(), Region.end());
  ValueToValueMapTy VMap;
  cloneRegionAsFallback(Region, InRegion, VMap);
  Instruction *Br = Preheader->getTerminator();
  IRBuilder<>(Br).CreateCondBr(Apart, L.getHeader(),
                               cast<BasicBlock>(VMap[L.getHeader()]));
  Br->eraseFromParent();
  MDBuilder MDB(Preheader->getContext());
  MDNode *Domain = MDB.createAnonymousAliasScopeDomain("coalda.promote");
  MDNode *ElementScope = MDB.createAnonymousAliasScope(Domain, "element");
  MDNode *OtherScope = MDB.createAnonymousAliasScope(Domain, "other");
  auto Annotate = [](Instruction *I, MDNode *Own, MDNode *Apart) {
    I->setMetadata(LLVMContext::MD_alias_scope,
                   MDNode::concatenate(I->getMetadata(LLVMContext::MD_alias_scope),
                                       MDNode::get(I->getContext(), {Own})));
    I->setMetadata(LLVMContext::MD_noalias,
                   MDNode::concatenate(I->getMetadata(LLVMContext::MD_noalias),
                                       MDNode::get(I->getContext(), {Apart})));
  };
  for (Instruction *I : C.Element)
    Annotate(I, ElementScope, OtherScope);
  for (Instruction *I : C.Others)
    Annotate(I, OtherScope, ElementScope);
}

/// Steps 3 for one candidate: canonical form, checks, versioning.
void versionLoop(Function &F, PromotionOutcome &P,
                 FunctionAnalysisManager &FAM) {
  Loop *L = canonical(F, P, FAM);
  if (!L) {
    P.Skip = miss(MissedReason::PromotionLoopShape,
                  "the loop's exit test is not at its end, and rotating it "
                  "failed");
    return;
  }
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  PromotionChecks C;
  P.Skip = planChecks(*L, SE, C);
  if (P.Skip)
    return;
  P.Checks = C.Pairs.size();
  if (!C.Pairs.empty())
    version(*L, C, SE);
  FAM.invalidate(F, PreservedAnalyses::none());
}

void runLICM(Function &F, FunctionAnalysisManager &FAM) {
  FunctionPassManager FPM;
  FPM.addPass(createFunctionToLoopPassAdaptor(LICMPass(LICMOptions()),
                                              /*UseMemorySSA=*/true));
  FAM.invalidate(F, PreservedAnalyses::none());
  FPM.run(F, FAM);
  FAM.invalidate(F, PreservedAnalyses::none());
}

} // namespace

std::vector<PromotionOutcome>
collectPromotions(Function &F, const CoalescingInfo &Info,
                  FunctionAnalysisManager &FAM) {
  if (!opts::PromoteLoops)
    return {};
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  std::map<BasicBlock *, PromotionOutcome> ByHeader; // in block order below
  std::map<BasicBlock *, bool> Wanted;
  for (const AccessExpr &A : Info.Accesses) {
    Loop *L = LI.getLoopFor(A.Inst->getParent());
    if (!L || !L->isInnermost() || !fixedInLoop(A, *L, SE))
      continue;
    PromotionOutcome &P = ByHeader[L->getHeader()];
    P.Header = L->getHeader();
    P.Accesses.push_back(&A);
    Wanted[P.Header] |= uncoalesced(A);
  }
  std::vector<PromotionOutcome> Out;
  for (BasicBlock &BB : F) {
    auto It = ByHeader.find(&BB);
    if (It == ByHeader.end() || !Wanted[&BB])
      continue;
    PromotionOutcome P = std::move(It->second);
    ++NumPromotionCandidates;
    Loop *L = LI.getLoopFor(P.Header);
    P.Loc = L->getStartLoc();
    P.Skip = checkLoop(*L, P, DT);
    Out.push_back(std::move(P));
  }
  return Out;
}

bool applyPromotions(Function &F, std::vector<PromotionOutcome> &Ps,
                     FunctionAnalysisManager &FAM) {
  std::vector<SmallVector<WeakVH, 8>> Tracked(Ps.size());
  for (auto [P, T] : zip(Ps, Tracked))
    for (const AccessExpr *A : P.Accesses)
      T.push_back(WeakVH(A->Inst));
  for (PromotionOutcome &P : Ps)
    if (P.legal())
      versionLoop(F, P, FAM);
  runLICM(F, FAM);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  bool Any = false;
  for (auto [P, T] : zip(Ps, Tracked)) {
    if (!P.legal())
      continue;
    if (stillInLoop(T, P.Header, LI)) {
      P.Skip = miss(MissedReason::PromotionNotHoisted,
                    "LICM left part of the element in the loop");
      continue;
    }
    P.Transformed = true;
    ++NumPromoted;
    Any = true;
  }
  return Any;
}

} // namespace coalda
