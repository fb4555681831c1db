//===- Legality.cpp - Decide which copy groups may be rewritten ----------===//
//
// Phase 2 of the transformation. The rewrite has the threads of a block row
// move each other's elements, so a candidate group is rewritten only when
// that cannot change any byte under any schedule of a race-free original:
//
//   shape      members in one block; not an element the backend already
//              moves as one vector (cost rule); stride within the limit
//   threads    the row's threads that run the copy are all of them, or a
//              prefix: a bounds guard `i < n` or a grid-stride loop on the
//              lane index (unsigned only when the row's first index cannot
//              be negative); its values are available at the copy
//   members    simple (not volatile/atomic), each load feeds only its
//              store, no other memory access between them
//   buffers    global source; same address space; distinct buffers; a
//              shared-memory destination only when run once by every
//              thread and followed by a __syncthreads()
//   others     no other access may touch the destination bytes (stores of
//              a copy from the same source at the same displacement
//              excepted: they write the same values), nothing else writes
//              the source (after a shared fill's barrier it may), no call
//              may touch either
//   overlap    a run-time overlap check unless the buffers are provably
//              disjoint (__restrict__, distinct globals, shared vs global)
//
// The outcome is a RewritePlan (guard, overlap check, unit widths, and for
// a grid-stride loop whose body is only the copy, the flat copy) or a Missed.
//
//===----------------------------------------------------------------------===//

#include "CopyGroup.h"
#include "Options.h"
#include "RowUniformity.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coalda"

using namespace llvm;

namespace coalda {

namespace {

/// The comparison Cmp (Holds: it is true, else false) as `Lo < Hi` or
/// `Lo <= Hi`; false for equalities.
bool asLessThan(const ICmpInst *Cmp, bool Holds, PrefixBound &Out) {
  CmpInst::Predicate Pred =
      Holds ? Cmp->getPredicate() : Cmp->getInversePredicate();
  Value *L = Cmp->getOperand(0), *R = Cmp->getOperand(1);
  switch (Pred) {
  case CmpInst::ICMP_SLT:
  case CmpInst::ICMP_ULT:
  case CmpInst::ICMP_SLE:
  case CmpInst::ICMP_ULE:
    Out.Lo = L, Out.Hi = R;
    break;
  case CmpInst::ICMP_SGT:
  case CmpInst::ICMP_UGT:
  case CmpInst::ICMP_SGE:
  case CmpInst::ICMP_UGE:
    Out.Lo = R, Out.Hi = L;
    break;
  default:
    return false;
  }
  Out.Signed = CmpInst::isSigned(Pred);
  Out.Inclusive = CmpInst::isNonStrictPredicate(Pred);
  return true;
}

/// The comparison `Lo < Hi` (or <=) that holds on the edge from Term's block
/// to Taken, if Term branches on one.
bool edgeLessThan(const Instruction *Term, const BasicBlock *Taken,
                  PrefixBound &Out) {
  const auto *Br = dyn_cast<BranchInst>(Term);
  if (!Br || !Br->isConditional() ||
      Br->getSuccessor(0) == Br->getSuccessor(1))
    return false;
  const auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || !is_contained(Br->successors(), Taken))
    return false;
  return asLessThan(Cmp, Br->getSuccessor(0) == Taken, Out);
}

/// The conditions that all hold on the edge from Term's block to Taken, as
/// (condition, whether it is true): `a && b` taken when true gives both,
/// `a || b` taken when false gives both negated; none for a plain jump.
/// False when Term is not a branch.
bool edgeConditions(const Instruction *Term, const BasicBlock *Taken,
                    SmallVectorImpl<std::pair<Value *, bool>> &Out) {
  const auto *Br = dyn_cast<BranchInst>(Term);
  if (Br && !Br->isConditional())
    return true;
  if (!Br ||
      Br->getSuccessor(0) == Br->getSuccessor(1) ||
      !is_contained(Br->successors(), Taken))
    return false;
  SmallVector<std::pair<Value *, bool>, 4> Work{
      {Br->getCondition(), Br->getSuccessor(0) == Taken}};
  while (!Work.empty()) {
    auto [C, Holds] = Work.pop_back_val();
    Value *A, *B;
    using namespace PatternMatch;
    if ((Holds && match(C, m_LogicalAnd(m_Value(A), m_Value(B)))) ||
        (!Holds && match(C, m_LogicalOr(m_Value(A), m_Value(B))))) {
      Work.push_back({A, Holds});
      Work.push_back({B, Holds});
    } else if (match(C, m_Not(m_Value(A)))) {
      Work.push_back({A, !Holds});
    } else {
      Out.push_back({C, Holds});
    }
  }
  return true;
}

/// The edge From -> To is never taken: From branches on a constant that
/// selects its other successor (`do { ... } while (0)` at -O0).
bool deadEdge(const BasicBlock *From, const BasicBlock *To) {
  const auto *Br = dyn_cast<BranchInst>(From->getTerminator());
  if (!Br || !Br->isConditional() || Br->getSuccessor(0) == Br->getSuccessor(1))
    return false;
  const auto *C = dyn_cast<ConstantInt>(Br->getCondition());
  return C && Br->getSuccessor(C->isZero() ? 0 : 1) == To;
}

/// L can iterate: one of its back edges is not dead.
bool iterates(const Loop *L) {
  SmallVector<BasicBlock *, 2> Latches;
  L->getLoopLatches(Latches);
  return any_of(Latches, [&](const BasicBlock *Latch) {
    return !deadEdge(Latch, L->getHeader());
  });
}

/// The innermost loop around BB that can iterate, or null.
Loop *liveLoopFor(const LoopInfo &LI, const BasicBlock *BB) {
  for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
    if (iterates(L))
      return L;
  return nullptr;
}

/// BB is in a cycle that is not a natural loop (entered at more than one
/// block): LoopInfo does not see it, and nothing here reasons about it.
bool inIrreducibleCycle(const CycleInfo &Cycles, const BasicBlock *BB) {
  for (const Cycle *C = Cycles.getCycle(BB); C; C = C->getParentCycle())
    if (!C->isReducible())
      return true;
  return false;
}

/// The outermost loop around BB that can iterate, or null.
Loop *outermostLiveLoop(const LoopInfo &LI, const BasicBlock *BB) {
  Loop *Live = nullptr;
  for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
    if (iterates(L))
      Live = L;
  return Live;
}

/// The one predecessor of BB over edges that can be taken, or null.
BasicBlock *singleLivePredecessor(BasicBlock *BB) {
  BasicBlock *Only = nullptr;
  for (BasicBlock *P : predecessors(BB)) {
    if (deadEdge(P, BB) || P == Only)
      continue;
    if (Only)
      return nullptr;
    Only = P;
  }
  return Only;
}

/// Decides whether a block outside loops runs in all threads of a block row
/// or in none: every branch on the way to it tests a row-uniform condition
/// (or it post-dominates the entry), and every loop on the way has only
/// row-uniform exits.
class UniformReach {
public:
  UniformReach(const RowUniformity &Uniformity, PostDominatorTree &PDT,
               LoopInfo &LI, const CycleInfo &Cycles)
      : Uniformity(Uniformity), PDT(PDT), LI(LI), Cycles(Cycles) {}

  /// The terminator of BB sends all threads of a row the same way.
  bool uniformBranch(const BasicBlock *BB) const {
    return Uniformity.isUniformBranch(*BB);
  }

  /// All threads of a row leave L together: every branch inside it is
  /// row-uniform (a uniform exit test in a block that only some threads
  /// reach would still let them leave in different iterations).
  bool uniformExits(const Loop *L) const {
    return all_of(L->blocks(), [&](BasicBlock *BB) { return uniformBranch(BB); });
  }

  bool allOrNone(const BasicBlock *BB) {
    if (liveLoopFor(LI, BB) || inIrreducibleCycle(Cycles, BB))
      return false;
    if (PDT.dominates(BB, &BB->getParent()->getEntryBlock()))
      return true;
    auto [It, New] = Memo.try_emplace(BB, false); // false while visiting
    if (!New)
      return It->second;
    bool Result = !pred_empty(BB);
    for (const BasicBlock *P : predecessors(BB)) {
      if (deadEdge(P, BB))
        continue;
      if (const Loop *PL = outermostLiveLoop(LI, P)) {
        // Leaving a loop: uniform if the loop is entered by all or none and
        // all its exits are uniform.
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
  const CycleInfo &Cycles;
  DenseMap<const BasicBlock *, bool> Memo;
};

/// A `__shared__` variable with a size of its own; every `extern __shared__`
/// array is the same dynamic shared memory.
bool isStaticShared(const Value *V) {
  const auto *GV = dyn_cast<GlobalVariable>(V);
  return isSharedBase(V) && GV->hasInitializer() &&
         !GV->hasExternalLinkage();
}

/// The memory a kernel parameter or a global-space variable names: global
/// memory (kernels receive global pointers).
bool isGlobalObject(const Value *V) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V))
    return !isSharedBase(GV) && GV->getAddressSpace() != 5;
  return isa<Argument>(V);
}

/// Two underlying objects are proven not to overlap.
bool disjointObjects(const Value *A, const Value *B) {
  if (A == B)
    return false;
  // Shared memory never overlaps global memory; two static __shared__
  // variables never overlap each other.
  if ((isSharedBase(A) && isGlobalObject(B)) ||
      (isSharedBase(B) && isGlobalObject(A)) ||
      (isStaticShared(A) && isStaticShared(B)))
    return true;
  auto NoAlias = [](const Value *V) {
    const auto *Arg = dyn_cast<Argument>(V);
    return Arg && Arg->hasNoAliasAttr();
  };
  auto Identified = [](const Value *V) {
    return isa<Argument>(V) || isa<GlobalVariable>(V) || isa<AllocaInst>(V);
  };
  // A __restrict__ parameter's object is reached only through pointers
  // based on it: any other identified object is disjoint from it.
  if (!Identified(A) || !Identified(B))
    return false;
  return NoAlias(A) || NoAlias(B) ||
         (!isa<Argument>(A) && !isa<Argument>(B) && !isSharedBase(A) &&
          !isSharedBase(B));
}

/// No object that pointer (or base) A may be based on overlaps one B may be
/// based on: through selects and phis, every pair is disjoint.
bool provablyDisjoint(const Value *A, const Value *B) {
  SmallVector<const Value *, 4> As, Bs;
  getUnderlyingObjects(A, As);
  getUnderlyingObjects(B, Bs);
  return all_of(As, [&](const Value *X) {
    return all_of(Bs, [&](const Value *Y) { return disjointObjects(X, Y); });
  });
}

/// A and B copy from the same source buffer into the same destination buffer
/// with the same distance between the byte each member stores and the byte
/// it loads, in every thread (collect made that distance equal within each
/// group).
bool sameDisplacement(const CopyGroup &A, const CopyGroup &B,
                      const CoalescingInfo &Info) {
  auto Displacement = [&](const CopyGroup &G) {
    return Info.addressPoly(G.first()) +
           Info.addressPoly(G.source()).scaled(-1);
  };
  return A.first().Base == B.first().Base &&
         A.source().Base == B.source().Base &&
         Displacement(A) == Displacement(B);
}

bool isBarrier(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() == Intrinsic::nvvm_barrier0 ||
                II->getIntrinsicID() == Intrinsic::nvvm_barrier_sync);
}

/// The (pointer, written?) pairs I touches; false when I is a call that may
/// touch memory we cannot name.
bool touchedMemory(const Instruction &I,
                   SmallVectorImpl<std::pair<const Value *, bool>> &Touched) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    Touched.push_back({Ptr, isa<StoreInst>(I)});
  else if (const auto *MT = dyn_cast<MemTransferInst>(&I))
    Touched.append({{MT->getRawDest(), true}, {MT->getRawSource(), false}});
  else if (const auto *MS = dyn_cast<MemSetInst>(&I))
    Touched.push_back({MS->getRawDest(), true});
  else if (const auto *Call = dyn_cast<CallBase>(&I);
           !Call || !Call->onlyAccessesInaccessibleMemory())
    return false;
  return true;
}

Instruction *firstMember(const CopyGroup &G) {
  Instruction *First = G.source().Inst;
  for (const AccessExpr *A : G.members())
    if (A->Inst->comesBefore(First))
      First = A->Inst;
  return First;
}

/// The phase: decides the candidates of one kernel.
class Legality {
public:
  Legality(const CoalescingInfo &Info, PostDominatorTree &PDT,
           DominatorTree &DT, LoopInfo &LI, const CycleInfo &Cycles,
           const std::vector<GroupOutcome> &Groups)
      : Info(Info), PDT(PDT), DT(DT), LI(LI), Cycles(Cycles),
        Reach(Info.uniformity(), PDT, LI, Cycles),
        Tid(Info.registerAtom(Atom::ThreadIdx, 0)) {
    // The members of every pure copy collect found, for the question which
    // other accesses may touch a copy's bytes.
    for (const GroupOutcome &O : Groups)
      if (O.legal())
        for (const AccessExpr *A : O.Group.members())
          CopyOf[A->Inst] = &O.Group;
  }

  /// Fills O.Plan, or O.Skip with the first check that fails.
  void decide(GroupOutcome &O) {
    if (O.Skip)
      return;
    const CopyGroup &G = O.Group;
    RewritePlan &P = O.Plan;
    O.Skip = checkShape(G);
    if (!O.Skip)
      O.Skip = findActiveThreads(G, P);
    if (!O.Skip)
      O.Skip = checkMembers(G);
    if (!O.Skip)
      O.Skip = checkBuffers(G, P);
    if (!O.Skip)
      O.Skip = checkOtherAccesses(G);
    if (O.Skip)
      return;
    P.NeedsOverlapCheck = !provablyDisjoint(G.first().Base, G.source().Base);
    if (P.Kind == Guard::Loop && opts::FlatLoops)
      findFlatLoop(G, P);
    if (P.NeedsOverlapCheck && !opts::RuntimeChecks) {
      O.Skip = Missed{MissedReason::NoRuntimeChecks,
                      "source and destination may overlap (no __restrict__) "
                      "and run-time checks are disabled"};
      return;
    }
    // In a loop, the run-time overlap check of one iteration's regions does
    // not cover the next iteration reading what this one wrote (the same
    // thread, in the original; another thread, after the rewrite). Only the
    // flat copy, which checks the whole loop's bytes, may then be used.
    if (P.NeedsOverlapCheck && liveLoopFor(LI, G.first().Inst->getParent())) {
      if (!P.flat()) {
        O.Skip = Missed{MissedReason::OverlapInLoop,
                        "source and destination may overlap (no __restrict__) "
                        "and the copy is in a loop: a later iteration could "
                        "read bytes this one wrote"};
        return;
      }
      P.FlatOnly = true;
    }
    for (unsigned U : {16u, 4u})
      if (U > G.MemberWidth && U <= opts::MaxUnitWidth)
        P.Units.push_back(U);
    P.Units.push_back(G.MemberWidth);
  }

private:
  const CoalescingInfo &Info;
  PostDominatorTree &PDT;
  DominatorTree &DT;
  LoopInfo &LI;
  const CycleInfo &Cycles;
  UniformReach Reach;
  unsigned Tid;
  DenseMap<const Instruction *, const CopyGroup *> CopyOf;

  Verdict checkShape(const CopyGroup &G);
  Verdict findActiveThreads(const CopyGroup &G, RewritePlan &P);
  Verdict findGridStrideLoop(const CopyGroup &G, Loop *L, RewritePlan &P);
  /// Why B does not keep a prefix of the row (NotLane when its sides have
  /// the wrong form), or nothing.
  Verdict prefixBound(PrefixBound &B, const Missed &NotLane);
  Verdict findBoundsGuards(const CopyGroup &G, RewritePlan &P);
  std::optional<Poly> loopStep(const PHINode *Phi);
  Verdict checkMembers(const CopyGroup &G);
  Verdict checkBuffers(const CopyGroup &G, const RewritePlan &P);
  Verdict checkOtherAccesses(const CopyGroup &G);
  const Instruction *barrierAfterFill(const CopyGroup &G);
  void findFlatLoop(const CopyGroup &G, RewritePlan &P);
};

Verdict Legality::checkShape(const CopyGroup &G) {
  BasicBlock *BB = G.first().Inst->getParent();
  for (const AccessExpr *A : G.members())
    if (A->Inst->getParent() != BB)
      return Missed{MissedReason::DifferentBlocks,
                    "the copy's loads and stores are in different blocks"};
  // Cost rule (measured, docs/benchmarks.md): an element of power-of-two
  // size up to 16 bytes whose first member is aligned to that size is
  // merged by the backend into one vector access per thread (int2:
  // ld.v2.u32), which is already coalesced; the rewrite measured
  // 0.90-1.09x there.
  if (opts::CostRules && isPowerOf2_64(G.Stride) && G.Stride <= 16) {
    Align A0 = std::min(G.first().alignment(), G.source().alignment());
    if (A0.value() >= (uint64_t)G.Stride)
      return Missed{MissedReason::VectorizedElement,
                    "not profitable: the backend already moves each aligned " +
                        std::to_string(G.Stride) +
                        "-byte element as one vector"};
  }
  if ((uint64_t)G.Stride > opts::MaxStride)
    return Missed{MissedReason::StrideLimit,
                  "lane stride " + std::to_string(G.Stride) +
                      " exceeds the rewrite's limit of " +
                      std::to_string(opts::MaxStride) + " bytes"};
  return std::nullopt;
}

/// The coefficient of tid.x in P when it is its only use of tid.x (linear),
/// else nullopt.
std::optional<int64_t> laneCoefficient(const Poly &P, unsigned Tid) {
  int64_t C = 0;
  for (const auto &[M, K] : P.Terms)
    if (is_contained(M, Tid)) {
      if (M.size() != 1)
        return std::nullopt;
      C = K;
    }
  return C;
}

/// Every value on the way from tid.x to V that depends on tid.x has V's
/// width: an extension applies only to the tid.x read itself. Then a value
/// that wraps inside a row does so in that one width.
bool laneInOneWidth(const Value *V, unsigned Bits,
                    SmallPtrSetImpl<const Value *> &Seen,
                    const CoalescingInfo &Info, unsigned Tid) {
  if (!Seen.insert(V).second)
    return true;
  std::optional<Poly> P = Info.readInteger(V);
  if (!P)
    return false;
  if (!P->mentions(Tid))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (const auto *II = dyn_cast_or_null<IntrinsicInst>(I);
      II && II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x)
    return Bits == 32;
  if (isa_and_nonnull<ZExtInst>(I) || isa_and_nonnull<SExtInst>(I)) {
    const auto *Op = dyn_cast<IntrinsicInst>(I->getOperand(0));
    return Op && Op->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_tid_x &&
           I->getType()->getIntegerBitWidth() == Bits;
  }
  if (!I || !I->getType()->isIntegerTy(Bits))
    return false;
  return all_of(I->operands(), [&](const Use &U) {
    return laneInOneWidth(U.get(), Bits, Seen, Info, Tid);
  });
}

// `Lo < Hi` (or <=) holds for a prefix of the row's threads when Lo - Hi is
// tid.x plus a row-uniform value, tid.x being in one side only (+tid.x in
// Lo, or -tid.x in Hi: `n - i > 0`), as long as that side does not wrap
// inside the row (gid - 5 does in block 0, unsigned; so does a 32-bit gid
// past 2^31, signed). The rewrite checks that at run time (every thread of a
// row that wraps sees its row start out of range, so the row decides alike);
// here the lane side must be computed in one width. With tid.x the other way
// round the threads that pass are a suffix.
Verdict Legality::prefixBound(PrefixBound &B, const Missed &NotLane) {
  std::optional<Poly> L = Info.readInteger(B.Lo);
  std::optional<Poly> H = Info.readInteger(B.Hi);
  if (!L || !H)
    return NotLane;
  std::optional<int64_t> CL = laneCoefficient(*L, Tid);
  std::optional<int64_t> CH = laneCoefficient(*H, Tid);
  if (!CL || !CH || (*CL != 0 && *CH != 0))
    return NotLane;
  if (*CL == -1 || *CH == 1)
    return Missed{MissedReason::SuffixGuard,
                  "the guard keeps a suffix of the row's threads (the lane "
                  "index must be below the bound), not a prefix"};
  if (*CL != 1 && *CH != -1)
    return NotLane;
  B.LaneOnHi = *CH == -1;
  Value *Lane = B.LaneOnHi ? B.Hi : B.Lo;
  SmallPtrSet<const Value *, 8> Seen;
  if (!laneInOneWidth(Lane, Lane->getType()->getIntegerBitWidth(), Seen, Info,
                      Tid))
    return Missed{MissedReason::ActiveThreads,
                  "the guard's index mixes integer widths on its way from "
                  "threadIdx.x: a wrap inside a row could not be detected"};
  return std::nullopt;
}

Verdict Legality::findActiveThreads(const CopyGroup &G, RewritePlan &P) {
  BasicBlock *BB = G.first().Inst->getParent();
  if (Reach.allOrNone(BB))
    return std::nullopt;
  if (inIrreducibleCycle(Cycles, BB))
    return Missed{MissedReason::ActiveThreads,
                  "the copy is in a cycle that is not a loop (entered at more "
                  "than one block): threads may leave it in different "
                  "iterations"};
  if (Loop *L = liveLoopFor(LI, BB))
    return findGridStrideLoop(G, L, P);
  return findBoundsGuards(G, P);
}

// Bounds guards: walking up from the copy's block through single
// predecessors until a block that all threads of the row reach or none, every
// condition on the way is row-uniform or a prefix bound on the lane index
// (`if (i < n)`, `if (i >= n) return;`, `if (i < n && flag)`, nested guards,
// `n - i > 0`, `i <= n - 1`). The active threads are below every bound.
Verdict Legality::findBoundsGuards(const CopyGroup &G, RewritePlan &P) {
  const Missed NotGuard{
      MissedReason::ActiveThreads,
      "not every thread of the block reaches the copy, and its condition is "
      "not a bounds guard `i < n` on the lane index"};
  const RowUniformity &Uniformity = Info.uniformity();
  for (BasicBlock *Cur = G.first().Inst->getParent(); !Reach.allOrNone(Cur);) {
    BasicBlock *Pred = singleLivePredecessor(Cur);
    SmallVector<std::pair<Value *, bool>, 4> Conditions;
    if (!Pred || liveLoopFor(LI, Pred) || inIrreducibleCycle(Cycles, Pred) ||
        !edgeConditions(Pred->getTerminator(), Cur, Conditions))
      return NotGuard;
    for (auto [C, Holds] : Conditions) {
      if (Uniformity.isUniform(C))
        continue; // all threads of the row or none
      PrefixBound B;
      auto *Cmp = dyn_cast<ICmpInst>(C);
      if (!Cmp)
        return NotGuard;
      if (!asLessThan(Cmp, Holds, B)) {
        // An (in)equality on the lane index is a hole or a single thread;
        // anything else is not a guard on the lane index at all.
        std::optional<Poly> L = Info.readInteger(Cmp->getOperand(0));
        std::optional<Poly> R = Info.readInteger(Cmp->getOperand(1));
        if (!L || !R || !(*L + R->scaled(-1)).mentions(Tid))
          return NotGuard;
        return Missed{MissedReason::ActiveThreads,
                      "the guard " + describe(Cmp) +
                          " is not a bound on the lane index: the threads "
                          "that pass it need not be a prefix of the row"};
      }
      if (Verdict Why = prefixBound(B, NotGuard))
        return Why;
      P.Bounds.push_back(B);
    }
    Cur = Pred;
  }
  P.Kind = P.Bounds.empty() ? Guard::None : Guard::Bounds;
  // The region copy computes the active threads from the bounds where the
  // last member is: they must be available there.
  for (const PrefixBound &B : P.Bounds)
    for (Value *V : {B.Lo, B.Hi})
      if (auto *I = dyn_cast<Instruction>(V);
          I && !DT.dominates(I, lastMember(G)))
        return Missed{MissedReason::GuardUnavailable,
                      "the guard's value " + describe(I) +
                          " is not available where the copy is"};
  return std::nullopt;
}

// A grid-stride loop: `for (i = tid + u; i < n; i += step) { copy }`, tested
// in its header, or rotated (tested at the latch, with `start < n` before).
// This function is long because the two loop shapes share their matching.
Verdict Legality::findGridStrideLoop(const CopyGroup &G, Loop *L,
                                     RewritePlan &P) {
  const Missed NotGridStride{
      MissedReason::ActiveThreads,
      "the copy is inside a loop that is not a grid-stride loop `for (i = "
      "lane index; i < n; i += step)` running it once per iteration"};
  BasicBlock *BB = G.first().Inst->getParent();
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
  BasicBlock *Before = Outside, *Into = Header;
  if (!cast<BranchInst>(Before->getTerminator())->isConditional()) {
    Into = Before;
    Before = Before->getSinglePredecessor();
  }
  // A loop whose exit test is row-uniform, entered by all threads of a row
  // or none, runs every iteration in all of them.
  if (Reach.uniformExits(L)) {
    if (Reach.allOrNone(Outside) && Reach.uniformBranch(Outside))
      return std::nullopt;
    return NotGridStride;
  }
  PrefixBound Test;
  if (!edgeLessThan(ExitBr, Stay, Test))
    return NotGridStride;
  Value *Tested = Test.Lo;
  Verdict Why = NotGridStride;
  for (PHINode &Phi : Header->phis()) {
    Value *Start = Phi.getIncomingValueForBlock(Outside);
    Value *Next = Phi.getIncomingValueForBlock(Latch);
    if (Tested != &Phi && Tested != Next)
      continue;
    // The iteration runs when `phi < End` (rotated: the latch's test of
    // the next value decides the next iteration).
    PrefixBound Current = Test;
    Current.Lo = &Phi;
    if (Verdict NotPrefix = prefixBound(Current, NotGridStride)) {
      Why = NotPrefix;
      continue;
    }
    // The threads still in the loop are those below the bound now only if
    // the index never goes down (a thread that left could pass the test
    // again) and never wraps between iterations (checked at run time:
    // bound + step fits the type).
    std::optional<Poly> Step = loopStep(&Phi);
    if (!Step) {
      Why = Missed{MissedReason::ActiveThreads,
                   "the loop's index does not step up by a positive "
                   "multiple of the grid's dimensions: a thread that left "
                   "the loop could pass its test again"};
      continue;
    }
    if (Tested == &Phi) {
      // Tested on entry to every iteration: all threads must enter, and the
      // copy must come after the test (only threads that pass it copy).
      if (!Reach.allOrNone(Outside) || !Reach.uniformBranch(Outside) ||
          !DT.dominates(BasicBlockEdge(Exiting, Stay), BB))
        continue;
    } else {
      // Rotated: the test of the next value must end the iteration, after
      // the copy (a test before it would skip the copy of the last element).
      if (Exiting != Latch)
        continue;
      // Rotated: tested after each iteration; the first is guarded by
      // `start < n` before the loop.
      PrefixBound First;
      if (!Before || !Reach.allOrNone(Before) ||
          !edgeLessThan(Before->getTerminator(), Into, First) ||
          First.Lo != Start || First.Hi != Test.Hi ||
          First.Signed != Test.Signed || First.Inclusive != Test.Inclusive)
        continue;
    }
    P.Kind = Guard::Loop;
    P.Bounds.assign({Current});
    P.LoopStep = *Step;
    P.LoopStart = Start;
    P.RotatedLoop = Tested == Next;
    if (auto *I = dyn_cast<Instruction>(Test.Hi);
        I && !DT.dominates(I, lastMember(G)))
      return Missed{MissedReason::GuardUnavailable,
                    "the loop bound " + describe(I) +
                        " is not available where the copy is"};
    return std::nullopt;
  }
  return Why;
}

/// The step of the induction Phi (start + step*iter(Phi)) when it is a
/// positive combination of special registers (ntid.x*nctaid.x): never
/// negative, the same in every thread of the grid. Else nullopt.
std::optional<Poly> Legality::loopStep(const PHINode *Phi) {
  std::optional<Poly> I = Info.readInteger(Phi);
  if (!I)
    return std::nullopt;
  unsigned Iter = Info.iterationAtom(Phi);
  Poly Step;
  for (const auto &[M, C] : I->Terms) {
    if (count(M, Iter) == 0)
      continue;
    Monomial Rest;
    for (unsigned Id : M)
      if (Id != Iter)
        Rest.push_back(Id);
    if (C <= 0 || count(M, Iter) != 1 ||
        any_of(Rest, [&](unsigned Id) {
          const Atom &A = Info.atoms()[Id];
          return A.Kind > Atom::GridDim || A.isLane();
        }))
      return std::nullopt;
    Step.Terms[Rest] += C;
  }
  if (Step.Terms.empty())
    return std::nullopt;
  return Step;
}

Verdict Legality::checkMembers(const CopyGroup &G) {
  for (const AccessExpr *A : G.members())
    if (!A->isSimple())
      return Missed{MissedReason::VolatileOrAtomic,
                    "a member is volatile or atomic"};
  for (const AccessExpr *Ld : G.Loads)
    if (!Ld->isTransfer() && !Ld->Inst->hasOneUse())
      return Missed{MissedReason::LoadReused,
                    "a loaded member is used by more than its store"};
  Instruction *First = firstMember(G), *Last = lastMember(G);
  SmallPtrSet<const Instruction *, 16> Members;
  for (const AccessExpr *A : G.members())
    Members.insert(A->Inst);
  for (auto It = First->getIterator(); &*It != Last; ++It)
    if (!Members.count(&*It) && It->mayReadOrWriteMemory())
      return Missed{MissedReason::AccessBetween,
                    "another memory access lies between the copy's members (" +
                        describe(&*It) + ")"};
  return std::nullopt;
}

Verdict Legality::checkBuffers(const CopyGroup &G, const RewritePlan &P) {
  const AccessExpr &Dst = G.first(), &Src = G.source();
  if (Src.Space != MemorySpace::Global)
    return Missed{MissedReason::SourceNotGlobal,
                  "the source is not global memory"};
  if (Dst.Space == MemorySpace::Global &&
      Dst.pointer()->getType() != Src.pointer()->getType())
    return Missed{MissedReason::AddressSpaces,
                  "source and destination are in different address spaces"};
  if (Dst.Base == Src.Base)
    return Missed{MissedReason::SameBuffer,
                  "source and destination are the same buffer"};
  // Another iteration or the threads that skip the guard could read the
  // tile while other threads fill it.
  if (isSharedBase(Dst.Base) &&
      (P.Kind != Guard::None || liveLoopFor(LI, Dst.Inst->getParent())))
    return Missed{MissedReason::SharedFillGuarded,
                  "a shared-memory fill is rewritten only when every thread "
                  "runs it once (no guard, no loop)"};
  return std::nullopt;
}

/// The __syncthreads() that directly follows a shared-memory fill in its
/// block (no memory access in between), or null.
const Instruction *Legality::barrierAfterFill(const CopyGroup &G) {
  Instruction *Last = lastMember(G);
  for (auto It = std::next(Last->getIterator()),
            E = Last->getParent()->end();
       It != E; ++It) {
    if (isBarrier(*It))
      return &*It;
    if (It->mayReadOrWriteMemory())
      return nullptr;
  }
  return nullptr;
}

// The rewrite has each thread move other threads' elements. Any other access
// to the destination, or store to the source, could now race with the copy
// where the original did not. A shared-memory fill is read by other threads:
// a __syncthreads() must follow it and come before every other access.
Verdict Legality::checkOtherAccesses(const CopyGroup &G) {
  const Value *Dst = G.first().Base, *Src = G.source().Base;
  bool Shared = isSharedBase(Dst);
  const Instruction *Barrier = Shared ? barrierAfterFill(G) : nullptr;
  if (Shared && !Barrier)
    return Missed{MissedReason::NoBarrier,
                  "no __syncthreads() directly follows the shared-memory fill"};
  for (Instruction &I : instructions(*G.first().Inst->getFunction())) {
    if (!I.mayReadOrWriteMemory() || isBarrier(I))
      continue;
    const AccessExpr *A = Info.lookup(&I);
    if (A && (is_contained(G.Stores, A) || is_contained(G.Loads, A)))
      continue; // a member (a transfer's destination stands for it)
    // A store of another copy from the same source at the same displacement
    // (e.g. an unrolled iteration of the loop) writes any byte it shares
    // with this copy with the same source byte, which nothing writes: in
    // whatever order the two land, the result is the same. Its loads are
    // not exempt: reading the destination races with the rewrite (another
    // thread now writes the bytes), and so does any other access.
    const CopyGroup *Other = CopyOf.lookup(&I);
    bool SameValues = Other && (isa<StoreInst>(I) || isa<MemTransferInst>(I)) &&
                      sameDisplacement(G, *Other, Info);
    SmallVector<std::pair<const Value *, bool>, 2> Touched;
    if (!touchedMemory(I, Touched))
      return Missed{MissedReason::CallMayTouch,
                    "the kernel calls " + describe(&I) +
                        ", which may touch the copied memory"};
    for (auto [Ptr, Writes] : Touched) {
      const Value *Base = Ptr;
      if (Shared && !provablyDisjoint(Base, Dst)) {
        if (!DT.dominates(Barrier, &I))
          return Missed{MissedReason::TileBeforeBarrier,
                        "the shared tile is accessed (" + describe(&I) +
                            ") where the __syncthreads() after the fill does "
                            "not precede it"};
        continue;
      }
      if (!SameValues && !provablyDisjoint(Base, Dst))
        return Missed{MissedReason::DestinationAccessed,
                      "the destination may also be " +
                          std::string(Writes ? "written" : "read") +
                          " elsewhere (" + describe(&I) + ")"};
      // A shared-memory fill runs once, before its barrier, in every thread:
      // a write after the barrier cannot race with the fill's loads.
      bool AfterFill = Shared && DT.dominates(Barrier, &I);
      if (Writes && !AfterFill && !provablyDisjoint(Base, Src))
        return Missed{MissedReason::SourceWritten,
                      "the source may also be written elsewhere (" +
                          describe(&I) + ")"};
    }
  }
  return std::nullopt;
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

/// The entry of the flat copy: the block every thread passes right before
/// the loop (the plain jump into a header-tested loop, or the `i < n` test
/// in front of a rotated one), or null.
BasicBlock *flatEntry(const RewritePlan &P, Loop *L, LoopInfo &LI,
                      PostDominatorTree &PDT) {
  BasicBlock *Entry = L->getLoopPredecessor();
  if (P.RotatedLoop &&
      !cast<BranchInst>(Entry->getTerminator())->isConditional())
    Entry = Entry->getSinglePredecessor();
  auto *Br = Entry ? dyn_cast<BranchInst>(Entry->getTerminator()) : nullptr;
  if (!Entry || !Br || LI.getLoopFor(Entry) ||
      !PDT.dominates(Entry, &Entry->getParent()->getEntryBlock()))
    return nullptr;
  if (Br->isConditional() && !is_contained(Br->successors(), L->getExitBlock()))
    return nullptr;
  // The flat copy jumps from Entry over the loop: a preheader in between
  // must do nothing that the flat path would skip.
  BasicBlock *Preheader = L->getLoopPredecessor();
  if (Preheader != Entry)
    for (Instruction &I : *Preheader) {
      if (I.mayHaveSideEffects() || I.mayReadOrWriteMemory())
        return nullptr;
      for (const User *U : I.users())
        if (cast<Instruction>(U)->getParent() != Preheader &&
            !L->contains(cast<Instruction>(U)))
          return nullptr;
    }
  return Entry;
}

// The flat copy replaces the whole loop: i = gid + ntid.x*nctaid.x*iter, the
// bound uniform over the grid, addresses base + S*i + offset on both sides,
// nothing else in the loop, nothing it computes used after it.
void Legality::findFlatLoop(const CopyGroup &G, RewritePlan &P) {
  const PrefixBound &Bound = P.Bounds.front();
  auto *Phi = cast<PHINode>(Bound.Lo);
  Loop *L = LI.getLoopFor(Phi->getParent());
  BasicBlock *Exit = L->getExitBlock();
  // The flat copy starts at the bases themselves: arguments or globals.
  auto Available = [](const Value *Base) {
    return isa<GlobalValue>(Base) || isa<Argument>(Base);
  };
  if (!Exit || !Available(G.first().Base) || !Available(G.source().Base) ||
      !Exit->phis().empty() || isSharedBase(G.first().Base))
    return;
  BasicBlock *Entry = flatEntry(P, L, LI, PDT);
  if (!Entry)
    return;
  unsigned Ctaid = Info.registerAtom(Atom::BlockIdx, 0);
  unsigned Ntid = Info.registerAtom(Atom::BlockDim, 0);
  unsigned Nctaid = Info.registerAtom(Atom::GridDim, 0);
  Poly Gid = Poly::atom(Tid) + Poly::atom(Ctaid) * Poly::atom(Ntid);
  Poly Grid = Poly::atom(Ntid) * Poly::atom(Nctaid);
  std::optional<Poly> I = Info.readInteger(Phi);
  if (!I || *I != Gid + Grid * Poly::atom(Info.iterationAtom(Phi)))
    return;
  std::optional<Poly> N = Info.readInteger(Bound.Hi);
  if (!N)
    return;
  for (const auto &[M, C] : N->Terms)
    for (unsigned Id : M)
      if (Info.atoms()[Id].Kind != Atom::Argument &&
          Info.atoms()[Id].Kind != Atom::GridDim &&
          Info.atoms()[Id].Kind != Atom::BlockDim)
        return;
  for (const AccessExpr *A : {&G.first(), &G.source()}) {
    Poly Rel = Info.addressPoly(*A) + Poly::constant(-A->Offset);
    if (Rel != I->scaled(G.Stride))
      return;
  }
  SmallPtrSet<const Instruction *, 16> Members;
  for (const AccessExpr *A : G.members())
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
  if (!availableAt(Bound.Hi, Entry->getTerminator(), DT, Copies)) {
    LLVM_DEBUG(dbgs() << "coalda: no flat copy: the loop bound " << *Bound.Hi
                      << " is not available before the loop\n");
    return;
  }
  P.FlatEndCopies.assign(Copies.begin(), Copies.end());
  P.FlatEntry = Entry;
  P.FlatExit = Exit;
}

} // namespace

void decideLegality(std::vector<GroupOutcome> &Groups,
                    const CoalescingInfo &Info, PostDominatorTree &PDT,
                    DominatorTree &DT, LoopInfo &LI, const CycleInfo &Cycles) {
  Legality Phase(Info, PDT, DT, LI, Cycles, Groups);
  for (GroupOutcome &O : Groups) {
    Phase.decide(O);
    if (opts::AnalyzeOnly && O.legal())
      O.Skip = Missed{MissedReason::AnalysisOnly,
                      "analysis only (-coalda-analyze-only)"};
    LLVM_DEBUG(if (O.Skip) dbgs()
               << "coalda: left alone: " << Info.exprString(O.Group.first())
               << ": " << O.Skip->Detail << "\n");
  }
}

} // namespace coalda
