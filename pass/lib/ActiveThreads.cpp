//===- ActiveThreads.cpp - Which threads of a block row run a copy -------===//
//
// Part of legality (Legality.cpp): the region rewrite is collective, so the
// threads of a row that run the copy must be known. They are
//
//   all or none   every branch on the way is row-uniform and every loop on
//                 the way is left by all threads together (UniformReach);
//   a prefix      below every bound on the way: a chain of single-predecessor
//                 edges up to an all-or-none block whose conditions are
//                 row-uniform or `Lo < Hi` with Lo - Hi = tid.x + uniform
//                 (findBoundsGuards), or the iterations of a grid-stride loop
//                 `for (i = lane index; i < n; i += step)` whose step is a
//                 positive combination of special registers
//                 (findGridStrideLoop).
//
// A prefix holds only in rows where the bound's lane side does not wrap;
// the plan records the values the emitter checks for that at run time.
// Edges a constant branch never takes (`do { } while (0)` at -O0) are not
// paths, and their "loops" are not loops. Copies in irreducible cycles are
// left alone.
//
//===----------------------------------------------------------------------===//

#include "ActiveThreads.h"
#include "RowUniformity.h"
#include "SourceNames.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;

namespace coalda {

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
static bool edgeLessThan(const Instruction *Term, const BasicBlock *Taken,
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

namespace {

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

} // namespace

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

namespace {

/// The coefficient of the lane atom Tid in P when it is its only use of it
/// (linear), else nullopt.
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

/// Every value on the way from the lane register to V that depends on it
/// has V's width: an extension applies only to the register read itself.
/// Then a value that wraps inside a row does so in that one width.
bool laneInOneWidth(const Value *V, unsigned Bits,
                    SmallPtrSetImpl<const Value *> &Seen,
                    const CoalescingInfo &Info, unsigned Tid,
                    Intrinsic::ID Register) {
  if (!Seen.insert(V).second)
    return true;
  std::optional<Poly> P = Info.readInteger(V);
  if (!P)
    return false;
  if (!P->mentions(Tid))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (const auto *II = dyn_cast_or_null<IntrinsicInst>(I);
      II && II->getIntrinsicID() == Register)
    return Bits == 32;
  if (isa_and_nonnull<ZExtInst>(I) || isa_and_nonnull<SExtInst>(I)) {
    const auto *Op = dyn_cast<IntrinsicInst>(I->getOperand(0));
    return Op && Op->getIntrinsicID() == Register &&
           I->getType()->getIntegerBitWidth() == Bits;
  }
  if (!I || !I->getType()->isIntegerTy(Bits))
    return false;
  return all_of(I->operands(), [&](const Use &U) {
    return laneInOneWidth(U.get(), Bits, Seen, Info, Tid, Register);
  });
}

} // namespace

LaneSide laneSide(const Poly &L, const Poly &H, unsigned Tid) {
  std::optional<int64_t> CL = laneCoefficient(L, Tid);
  std::optional<int64_t> CH = laneCoefficient(H, Tid);
  if (!CL || !CH || (*CL != 0 && *CH != 0))
    return LaneSide::Other;
  if (!*CL && !*CH)
    return LaneSide::None;
  if (*CL == -1 || *CH == 1)
    return LaneSide::Suffix;
  if (*CL == 1)
    return LaneSide::Lo;
  return *CH == -1 ? LaneSide::Hi : LaneSide::Other;
}

bool laneSideInOneWidth(const Value *Side, const CoalescingInfo &Info,
                        unsigned Dim) {
  SmallPtrSet<const Value *, 8> Seen;
  return laneInOneWidth(Side, Side->getType()->getIntegerBitWidth(), Seen, Info,
                        Info.registerAtom(Atom::ThreadIdx, Dim),
                        Dim ? Intrinsic::nvvm_read_ptx_sreg_tid_y
                            : Intrinsic::nvvm_read_ptx_sreg_tid_x);
}

/// The innermost loop around BB that can iterate, or null.
Loop *liveLoopFor(const LoopInfo &LI, const BasicBlock *BB) {
  for (Loop *L = LI.getLoopFor(BB); L; L = L->getParentLoop())
    if (iterates(L))
      return L;
  return nullptr;
}

ActiveThreads::ActiveThreads(const CoalescingInfo &Info, PostDominatorTree &PDT,
                             DominatorTree &DT, LoopInfo &LI,
                             const CycleInfo &Cycles)
    : Info(Info), PDT(PDT), DT(DT), LI(LI), Cycles(Cycles),
      Reach(std::make_unique<UniformReach>(Info.uniformity(), PDT, LI, Cycles)),
      Tid(Info.registerAtom(Atom::ThreadIdx, 0)) {}

ActiveThreads::~ActiveThreads() = default;

// `Lo < Hi` (or <=) holds for a prefix of the row's threads when Lo - Hi is
// tid.x plus a row-uniform value, tid.x being in one side only (+tid.x in
// Lo, or -tid.x in Hi: `n - i > 0`), as long as that side does not wrap
// inside the row (gid - 5 does in block 0, unsigned; so does a 32-bit gid
// past 2^31, signed). The rewrite checks that at run time (every thread of a
// row that wraps sees its row start out of range, so the row decides alike);
// here the lane side must be computed in one width. With tid.x the other way
// round the threads that pass are a suffix.
Verdict ActiveThreads::prefixBound(PrefixBound &B, const Missed &NotLane) {
  std::optional<Poly> L = Info.readInteger(B.Lo);
  std::optional<Poly> H = Info.readInteger(B.Hi);
  if (!L || !H)
    return NotLane;
  LaneSide Side = laneSide(*L, *H, Tid);
  if (Side == LaneSide::Suffix)
    return Missed{MissedReason::SuffixGuard,
                  "the guard keeps a suffix of the row's threads (the lane "
                  "index must be below the bound), not a prefix"};
  if (Side != LaneSide::Lo && Side != LaneSide::Hi)
    return NotLane;
  B.LaneOnHi = Side == LaneSide::Hi;
  if (!laneSideInOneWidth(B.LaneOnHi ? B.Hi : B.Lo, Info, 0))
    return Missed{MissedReason::ActiveThreads,
                  "the guard's index mixes integer widths on its way from "
                  "threadIdx.x: a wrap inside a row could not be detected"};
  return std::nullopt;
}

Verdict ActiveThreads::find(const CopyGroup &G, RewritePlan &P) {
  BasicBlock *BB = G.first().Inst->getParent();
  if (Reach->allOrNone(BB))
    return std::nullopt;
  if (inIrreducibleCycle(Cycles, BB))
    return Missed{MissedReason::ActiveThreads,
                  "the copy is in a cycle that is not a loop (entered at more "
                  "than one block): threads may leave it in different "
                  "iterations"};
  if (Loop *L = liveLoopFor(LI, BB))
    return findGridStrideLoop(BB, lastMember(G), L, P);
  return findBoundsGuards(G, P);
}

Verdict ActiveThreads::findLoop(BasicBlock *BB, Instruction *Last,
                                RewritePlan &P, bool EveryIteration) {
  if (inIrreducibleCycle(Cycles, BB))
    return Missed{MissedReason::ActiveThreads,
                  "the accesses are in a cycle that is not a loop (entered "
                  "at more than one block)"};
  Loop *L = liveLoopFor(LI, BB);
  if (!L)
    return Missed{MissedReason::ActiveThreads, "the accesses are in no loop"};
  return findGridStrideLoop(BB, Last, L, P, EveryIteration);
}

// Bounds guards: walking up from the copy's block through single
// predecessors (or, at a join, to the head of its control class) until a
// block that all threads of the row reach or none, every
// condition on the way is row-uniform or a prefix bound on the lane index
// (`if (i < n)`, `if (i >= n) return;`, `if (i < n && flag)`, nested guards,
// `n - i > 0`, `i <= n - 1`). The active threads are below every bound.
Verdict ActiveThreads::findBoundsGuards(const CopyGroup &G, RewritePlan &P) {
  const Missed NotGuard{
      MissedReason::ActiveThreads,
      "not every thread of the block reaches the copy, and its condition is "
      "not a bounds guard `i < n` on the lane index"};
  const RowUniformity &Uniformity = Info.uniformity();
  for (BasicBlock *Cur = G.first().Inst->getParent(); !Reach->allOrNone(Cur);) {
    // After branches every thread that reached the block before them takes
    // (libdevice's sinf between the guard and the copy): the threads that
    // run Cur are those that run its control class's head.
    if (!singleLivePredecessor(Cur))
      if (BasicBlock *Head = controlClassHead(Cur, DT, PDT, Cycles);
          Head != Cur) {
        Cur = Head;
        continue;
      }
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
                      "the guard" + valueAt(Cmp) +
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
                      "the guard's value" + valueAt(I) +
                          " is not available where the copy is"};
  return std::nullopt;
}

/// V is the same on every iteration of L: computed outside it, or inside
/// from such values without memory, phis or calls (`n - 1` in the header of
/// an -O0 loop).
static bool invariantIn(const Loop *L, const Value *V, unsigned Depth = 0) {
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || !L->contains(I))
    return true;
  if (Depth > 8 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      isa<CallBase>(I) || I->isTerminator())
    return false;
  return all_of(I->operands(), [&](const Use &U) {
    return invariantIn(L, U.get(), Depth + 1);
  });
}

namespace {

/// The blocks of a loop shaped as a grid-stride loop's: its header, one
/// latch, one exiting block (ending in the conditional branch ExitBr, whose
/// successor Stay is in the loop) and a predecessor outside it; Before: the
/// block whose branch may guard a rotated loop's first iteration, on its
/// edge to Into.
struct GridStrideShape {
  BasicBlock *Header, *Latch, *Exiting, *Outside, *Stay, *Before, *Into;
  BranchInst *ExitBr;
};

} // namespace

/// L's blocks when it has a grid-stride loop's shape and runs BB once per
/// iteration, or nothing.
static std::optional<GridStrideShape>
gridStrideShape(const Loop *L, const BasicBlock *BB, bool EveryIteration,
                const DominatorTree &DT, const LoopInfo &LI) {
  BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch();
  BasicBlock *Exiting = L->getExitingBlock();
  BasicBlock *Outside = L->getLoopPredecessor();
  // BB on every iteration (it dominates the latch), or where the caller
  // allows skips, at most once per iteration (in L itself, no inner loop).
  if (L->getParentLoop() || !Latch || !Exiting || !Outside ||
      !(EveryIteration ? DT.dominates(BB, Latch) : LI.getLoopFor(BB) == L))
    return std::nullopt;
  auto *ExitBr = dyn_cast<BranchInst>(Exiting->getTerminator());
  if (!ExitBr || !ExitBr->isConditional() ||
      !isa<BranchInst>(Outside->getTerminator()))
    return std::nullopt;
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
  return GridStrideShape{Header, Latch, Exiting, Outside,
                         Stay,   Before, Into,    ExitBr};
}

/// Whether the loop's test Test (of the index phi, or rotated, of its next
/// value) lets into each iteration, up to BB, only the threads that pass it.
static bool testedEachIteration(const GridStrideShape &S, bool TestedOnEntry,
                                const Value *Start, const PrefixBound &Test,
                                const BasicBlock *BB, UniformReach &Reach,
                                const DominatorTree &DT) {
  if (TestedOnEntry)
    // Tested on entry to every iteration: all threads must enter, and the
    // copy must come after the test (only threads that pass it copy).
    return Reach.allOrNone(S.Outside) && Reach.uniformBranch(S.Outside) &&
           DT.dominates(BasicBlockEdge(S.Exiting, S.Stay), BB);
  // Rotated: the test of the next value must end the iteration, after
  // the copy (a test before it would skip the copy of the last element).
  if (S.Exiting != S.Latch)
    return false;
  // Rotated: tested after each iteration; the first is guarded by
  // `start < n` before the loop.
  PrefixBound First;
  return S.Before && Reach.allOrNone(S.Before) &&
         edgeLessThan(S.Before->getTerminator(), S.Into, First) &&
         First.Lo == Start && First.Hi == Test.Hi &&
         First.Signed == Test.Signed && First.Inclusive == Test.Inclusive;
}

// A grid-stride loop: `for (i = tid + u; i < n; i += step) { copy }`, tested
// in its header, or rotated (tested at the latch, with `start < n` before).
Verdict ActiveThreads::findGridStrideLoop(BasicBlock *BB, Instruction *Last,
                                          Loop *L, RewritePlan &P,
                                          bool EveryIteration) {
  const Missed NotGridStride{
      MissedReason::ActiveThreads,
      "the accesses are inside a loop that is not a grid-stride loop `for "
      "(i = lane index; i < n; i += step)` running them once per iteration"};
  std::optional<GridStrideShape> Shape =
      gridStrideShape(L, BB, EveryIteration, DT, LI);
  if (!Shape)
    return NotGridStride;
  // A loop whose exit test is row-uniform, entered by all threads of a row
  // or none, runs every iteration in all of them.
  if (Reach->uniformExits(L)) {
    if (Reach->allOrNone(Shape->Outside) &&
        Reach->uniformBranch(Shape->Outside))
      return std::nullopt;
    return NotGridStride;
  }
  PrefixBound Test;
  if (!edgeLessThan(Shape->ExitBr, Shape->Stay, Test))
    return NotGridStride;
  // A bound that changes between iterations (`i < lim[k]`) can let a thread
  // that left pass the test again: the threads still in the loop are no
  // longer those below it.
  if (!invariantIn(L, Test.Hi))
    return Missed{MissedReason::ActiveThreads,
                  "the loop's bound" + valueAt(cast<Instruction>(Test.Hi)) +
                      " may change between iterations: the threads still in "
                      "the loop need not be those below it"};
  Value *Tested = Test.Lo;
  Verdict Why = NotGridStride;
  for (PHINode &Phi : Shape->Header->phis()) {
    Value *Start = Phi.getIncomingValueForBlock(Shape->Outside);
    Value *Next = Phi.getIncomingValueForBlock(Shape->Latch);
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
    if (!testedEachIteration(*Shape, Tested == &Phi, Start, Test, BB, *Reach,
                             DT))
      continue;
    P.Kind = Guard::Loop;
    P.Bounds.assign({Current});
    P.LoopStep = *Step;
    P.LoopStart = Start;
    P.RotatedLoop = Tested == Next;
    if (auto *I = dyn_cast<Instruction>(Test.Hi); I && !DT.dominates(I, Last))
      return Missed{MissedReason::GuardUnavailable,
                    "the loop bound" + valueAt(I) +
                        " is not available where the accesses are"};
    return std::nullopt;
  }
  return Why;
}

/// The step of the induction Phi (start + step*iter(Phi)) when it is a
/// positive combination of special registers (ntid.x*nctaid.x): never
/// negative, the same in every thread of the grid. Else nullopt.
std::optional<Poly> ActiveThreads::loopStep(const PHINode *Phi) {
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

} // namespace coalda
