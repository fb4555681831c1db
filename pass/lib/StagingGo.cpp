//===- StagingGo.cpp - The staging emitter: go ----------------------------===//
//
// The staging emitter's go (StagingEmitter.cpp has the scheme): the test at
// the end of Pre that picks the staged path or the original code, decided
// alike in every thread that takes part:
//
//   go = ntid.x <= capacity && ntid.y == ntid.z == 1 [&& active]
//        [&& the thread's other accesses miss its own elements]
//   go = barrier0.and(go)   (when go can differ between threads; the plan's
//        uniform form instead, without a barrier, when every thread
//        computes it alike: StagingUniformGo.cpp decides it, uniformGo
//        emits it)
//
// A block the tiles do not fit goes to the original code before the vote.
// In a grid-stride loop the iteration's row must be full (iterationFull),
// decided before any barrier. A warp tile's go is the warp's:
// ballot(activemask(), checks) == 0xffffffff (without checks: activemask()
// == 0xffffffff), and in a grid-stride loop every lane's row start (its
// element minus S_j*lane) must be lane 0's (a shuffle: lanes that run
// together may be in different iterations).
//
//===----------------------------------------------------------------------===//

#include "IRUtils.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "StagingEmitterImpl.h"
#include "ThreadFunctions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;
using namespace llvm::PatternMatch;

namespace coalda {

/// go, decided alike in every thread of the block, at the end of Pre.
Value *StagingEmitter::computeGo() {
  DominatorTree DT(*F);
  DenseMap<Value *, Value *> Clones;
  IRBuilder<> B(Pre->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  for (const StagedArray &A : C.Arrays) {
    const AccessExpr &First = *A.Accesses.front();
    Value *Ptr = materializeAt(First.pointer(), Pre->getTerminator(), DT,
                               Clones);
    assert(Ptr && "legality checked that the address is computable");
    Elements.push_back(B.CreateGEP(I8, Ptr,
                                   B.getInt64(-A.offsetInElement(First)),
                                   "coalda.element"));
  }
  Value *Fits = C.transposed() ? transposeFits(B) : rowsFit(B);
  // In a grid-stride loop the threads of a partial iteration (or the few
  // left in one) must not reach a barrier, the vote's included: decided
  // first, alike in every thread in the iteration. (A warp tile's go asks
  // its own warp: the lanes that left the loop are missing from its mask.)
  if (P.GridLoop && !P.WarpTile)
    Fits = B.CreateAnd(Fits, iterationFull(B), "coalda.fits");
  if (!P.votes() && !P.WarpTile)
    return Fits;
  // A block the tiles do not fit goes to the original code at once, without
  // paying for the vote's barrier (the shape is the same in every thread).
  BasicBlock *Vote = Pre->splitBasicBlock(
      Pre->getTerminator(), P.UniformGo  ? "coalda.go"
                            : P.WarpTile ? "coalda.warp.vote"
                                         : "coalda.vote");
  Pre->getTerminator()->eraseFromParent();
  IRBuilder<>(Pre).CreateCondBr(Fits, Vote, Entry,
                                MDBuilder(Ctx).createLikelyBranchWeights());
  FitsBranch = cast<BranchInst>(Pre->getTerminator());
  Pre = Vote;
  DT.recalculate(*F);
  B.SetInsertPoint(Pre->getTerminator());
  if (P.UniformGo)
    return uniformGo(B, DT, Clones);
  // Each test only where the ones before it hold (`select`, not `and`): an
  // early return's condition, or a check's address, may be poison in a
  // thread an earlier test stops (an index past the end), and freeze of
  // `false and poison` could be true.
  Value *Go = B.getTrue();
  if (P.Guard) {
    Value *Cond = P.Guard->getCondition();
    Go = B.CreateAnd(Go, P.ActiveOnTrue ? Cond : B.CreateNot(Cond),
                     "coalda.active");
    // The early returns after it, computed here (legality checked that they
    // can be).
    for (const StagingPlan::InnerGuard &G : P.InnerGuards) {
      Value *Inner = materializeAt(G.Branch->getCondition(),
                                   Pre->getTerminator(), DT, Clones);
      assert(Inner && "legality checked that the condition is computable");
      Go = B.CreateLogicalAnd(Go, G.ActiveOnTrue ? Inner : B.CreateNot(Inner),
                              "coalda.active");
    }
  }
  if (Value *Checks = checksHold(B, DT, Clones))
    Go = match(Go, m_One()) ? Checks : B.CreateLogicalAnd(Go, Checks);
  if (P.WarpTile)
    return warpGo(B, Go);
  // An inactive thread's early addresses may be poison: freeze them out.
  Go = B.CreateFreeze(Go);
  Value *All = B.CreateIntrinsic(Intrinsic::nvvm_barrier0_and, {},
                                 {B.CreateZExt(Go, B.getInt32Ty())});
  return B.CreateICmpNE(All, B.getInt32(0), "coalda.stage.go");
}

/// A warp tile's go: the warp's 32 threads are here together (activemask:
/// threads that arrive apart, or whose warp is partial, see a mask with
/// lanes missing) and every one of them goes on. The ballot names exactly
/// the threads that read the mask together, so all of them execute it;
/// they all get the same answer.
Value *StagingEmitter::warpGo(IRBuilder<> &B, Value *Go) {
  Value *Together = B.CreateIntrinsic(Intrinsic::nvvm_activemask, {}, {},
                                      nullptr, "coalda.together");
  if (P.GridLoop) {
    Value *Row = oneRow(B, Together);
    Go = match(Go, m_One()) ? Row : B.CreateLogicalAnd(Go, Row);
  }
  if (match(Go, m_One())) // no checks: the mask alone
    return B.CreateICmpEQ(Together, B.getInt32(-1), "coalda.stage.go");
  // An address past the end may be poison: freeze it out.
  Go = B.CreateFreeze(Go);
  Value *Ballot = B.CreateIntrinsic(Intrinsic::nvvm_vote_ballot_sync, {},
                                    {Together, Go}, nullptr, "coalda.ballot");
  return B.CreateICmpEQ(Ballot, B.getInt32(-1), "coalda.stage.go");
}

/// In a loop the lanes that run together need not be in one iteration (a
/// GPU may run a lane that is an iteration ahead with the others): the
/// warp's elements are one row when every lane's row start, its element
/// minus S*lane, is lane 0's, in every array. Lane 0's comes by a shuffle
/// among the lanes of MASK (lane 0 missing: the ballot fails anyway).
Value *StagingEmitter::oneRow(IRBuilder<> &B, Value *Mask) {
  Value *Lane = B.CreateZExt(
      B.CreateAnd(sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x), 31), I64);
  Value *Same = nullptr;
  auto FromLane0 = [&](Value *Word) {
    return B.CreateIntrinsic(Intrinsic::nvvm_shfl_sync_idx_i32, {},
                             {Mask, Word, B.getInt32(0), B.getInt32(31)});
  };
  for (auto [A, Element] : zip(C.Arrays, Elements)) {
    Value *Own = B.CreateMul(Lane, B.getInt64(A.Stride));
    Value *Start = B.CreateSub(B.CreatePtrToInt(Element, I64), Own);
    for (unsigned Shift : {0u, 32u}) {
      Value *Word = B.CreateTrunc(Shift ? B.CreateLShr(Start, Shift) : Start,
                                  B.getInt32Ty());
      Value *Equal = B.CreateICmpEQ(Word, FromLane0(Word));
      Same = Same ? B.CreateAnd(Same, Equal) : Equal;
    }
  }
  Same->setName("coalda.one.row");
  return Same;
}

/// go computed alike by every thread, without a barrier (the plan's uniform
/// form, StagingUniformGo.cpp).
Value *StagingEmitter::uniformGo(IRBuilder<> &B, DominatorTree &DT,
                                 DenseMap<Value *, Value *> &Clones) {
  Instruction *At = Pre->getTerminator();
  Value *Go = nullptr;
  auto Both = [&](Value *Holds) { Go = Go ? B.CreateAnd(Go, Holds) : Holds; };
  for (const StagingPlan::GoPart &Part : P.GoParts) {
    Value *Holds;
    if (Part.Condition) {
      Value *Cond = materializeAt(Part.Condition, At, DT, Clones);
      assert(Cond && "legality checked that the condition is computable");
      Holds = Part.Holds ? Cond : B.CreateNot(Cond);
    } else {
      Holds = everyLanePasses(B, Part, DT, Clones);
    }
    // A later early return's bound may be poison in a block an earlier part
    // stops (an index past the end): frozen, `false and it` is false.
    Both(B.CreateFreeze(Holds));
  }
  for (const StagingPlan::UniformCheck &Check : P.UniformChecks)
    Both(uniformApart(B, Check));
  if (!Go)
    return B.getTrue();
  Go->setName("coalda.stage.go");
  return Go;
}

/// Every lane of the block passes Part's bound: the last lane's value of the
/// lane side X, from the first lane's (S: X computed with the lane's
/// register 0), does not overflow X's type (no lane wraps) and passes.
/// Block-uniform values only, in X's own width (a 64-bit form shared ntid's
/// extension with the load phase and cost d4_update 5 registers).
Value *StagingEmitter::everyLanePasses(IRBuilder<> &B,
                                       const StagingPlan::GoPart &Part,
                                       DominatorTree &DT,
                                       DenseMap<Value *, Value *> &Clones) {
  Instruction *At = Pre->getTerminator();
  const PrefixBound &Bound = Part.Bound;
  Value *Other =
      materializeAt(Bound.LaneOnHi ? Bound.Lo : Bound.Hi, At, DT, Clones);
  assert(Other && "legality checked the guard's values");
  // The other thread index, if the side reads it, is this thread's own.
  Value *Zero = B.getInt32(0);
  Value *First = cloneForThread(Bound.LaneOnHi ? Bound.Hi : Bound.Lo,
                                Part.Dim ? nullptr : Zero,
                                Part.Dim ? Zero : nullptr, At, ".first");
  Type *Ty = First->getType(); // 32 or 64 bits (legality)
  Value *Span = B.CreateZExt(
      B.CreateSub(sreg(B, Part.Dim ? Intrinsic::nvvm_read_ptx_sreg_ntid_y
                                   : Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                  B.getInt32(1)),
      Ty);
  // Lane on Lo: X = S + t, all pass when S + span < Hi (<=); on Hi: X =
  // S - t, all pass when Lo < S - span (<=).
  Intrinsic::ID Step = Bound.LaneOnHi
                           ? (Bound.Signed ? Intrinsic::ssub_with_overflow
                                           : Intrinsic::usub_with_overflow)
                           : (Bound.Signed ? Intrinsic::sadd_with_overflow
                                           : Intrinsic::uadd_with_overflow);
  Value *Pair = B.CreateBinaryIntrinsic(Step, First, Span);
  Value *Last = B.CreateExtractValue(Pair, 0, "coalda.last");
  Value *NoWrap = B.CreateNot(B.CreateExtractValue(Pair, 1), "coalda.nowrap");
  Value *Low = Bound.LaneOnHi ? Other : Last;
  Value *High = Bound.LaneOnHi ? Last : Other;
  CmpInst::Predicate Less =
      Bound.Inclusive ? (Bound.Signed ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE)
                      : (Bound.Signed ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT);
  return B.CreateAnd(B.CreateICmp(Less, Low, High), NoWrap, "coalda.all");
}

/// A check's two ranges are apart: their difference, the same in every
/// thread, is at least Y's width or at most minus X's.
Value *StagingEmitter::uniformApart(IRBuilder<> &B,
                                    const StagingPlan::UniformCheck &Check) {
  auto Address = [&](const StagingPlan::UniformAddress &A) {
    Value *Sum = B.CreatePtrToInt(A.Root, I64);
    for (const auto &Term : A.Terms) {
      Value *V = Term.ZeroExtended ? B.CreateZExtOrTrunc(Term.Argument, I64)
                                   : B.CreateSExtOrTrunc(Term.Argument, I64);
      Sum = B.CreateAdd(Sum, B.CreateMul(V, B.getInt64(Term.Scale)));
    }
    return A.Offset ? B.CreateAdd(Sum, B.getInt64(A.Offset)) : Sum;
  };
  // Y's address, then X's: one statement each, so that every compiler
  // emits them in this order (a call's arguments are evaluated in an order
  // of the compiler's choosing).
  Value *YAddress = Address(Check.Y);
  Value *D = B.CreateSub(Address(Check.X), YAddress);
  Value *XAfter = B.CreateICmpSLE(D, B.getInt64(-(int64_t)Check.XWidth));
  return B.CreateOr(B.CreateICmpSGE(D, B.getInt64(Check.YWidth)), XAfter,
                    "coalda.apart");
}

/// A 1-D block of at most the tiles' threads.
Value *StagingEmitter::rowsFit(IRBuilder<> &B) {
  Value *FlatZ = B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z),
                                B.getInt32(1));
  Value *FlatY = B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y),
                                B.getInt32(1));
  Value *OneRow = B.CreateAnd(FlatY, FlatZ);
  return B.CreateAnd(
      B.CreateICmpULE(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                      B.getInt32(P.Capacity)),
      OneRow, "coalda.fits");
}

/// The block's row of this iteration of the grid-stride loop is full. The
/// threads in an iteration are those whose index start_k + tid.x passes the
/// bound, start_k the same in all (so all of them compute it as index -
/// tid.x), as long as the row did not wrap on entry and no index wraps
/// between iterations (bound + step fits the index's type: a thread that
/// left could not come back). Then the row is full when its last lane's
/// index passes the bound without wrapping.
Value *StagingEmitter::iterationFull(IRBuilder<> &B) {
  const StagingPlan::GridStride &L = *P.GridLoop;
  const PrefixBound &Bound = L.Bound;
  Type *Ty = Bound.Lo->getType();
  Value *Lane =
      B.CreateZExtOrTrunc(sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x), Ty);
  Value *Span = B.CreateZExtOrTrunc(
      B.CreateSub(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                  B.getInt32(1)),
      Ty);
  Intrinsic::ID Add = Bound.Signed ? Intrinsic::sadd_with_overflow
                                   : Intrinsic::uadd_with_overflow;
  // The last lane's index from the row's start (index - tid.x, the same in
  // every lane of a row that did not wrap), and that it did not wrap.
  auto LastLane = [&](Value *Index) {
    Value *Pair =
        B.CreateBinaryIntrinsic(Add, B.CreateSub(Index, Lane), Span);
    Value *NoWrap = B.CreateNot(B.CreateExtractValue(Pair, 1));
    return std::pair(B.CreateExtractValue(Pair, 0, "coalda.last"), NoWrap);
  };
  auto [Last, RowNoWrap] = LastLane(Bound.Lo);
  Value *EntryNoWrap = LastLane(L.Start).second;
  CmpInst::Predicate Less =
      Bound.Inclusive ? (Bound.Signed ? CmpInst::ICMP_SLE : CmpInst::ICMP_ULE)
                      : (Bound.Signed ? CmpInst::ICMP_SLT : CmpInst::ICMP_ULT);
  Value *Full = B.CreateAnd(B.CreateICmp(Less, Last, Bound.Hi), RowNoWrap);
  Value *LoopNoWrap =
      loopIndexCannotWrap(B, Bound, materializePoly(B, L.Step, *P.Atoms));
  return B.CreateAnd(Full, B.CreateAnd(EntryNoWrap, LoopNoWrap),
                     "coalda.iteration.full");
}

/// The thread's other accesses and staged elements do not overlap its own
/// elements (the plan's run-time checks); null when there are none.
Value *StagingEmitter::checksHold(IRBuilder<> &B, DominatorTree &DT,
                                  DenseMap<Value *, Value *> &Clones) {
  Value *Ok = nullptr;
  DenseMap<Value *, Value *> Ints; // each address converted once
  auto Int = [&](Value *P) {
    Value *&I = Ints[P];
    return I ? I : I = B.CreatePtrToInt(P, I64);
  };
  auto Disjoint = [&](Value *X, uint64_t XW, Value *Y, uint64_t YW) {
    Value *XI = Int(X), *YI = Int(Y);
    Value *Apart =
        emitApart(B, XI, B.getInt64(XW), YI, B.getInt64(YW), "coalda.apart");
    Ok = Ok ? B.CreateAnd(Ok, Apart) : Apart;
  };
  for (const OverlapCheck &Check : P.Checks) {
    Value *Ptr = materializeAt(getLoadStorePointerOperand(Check.Access),
                               Pre->getTerminator(), DT, Clones);
    assert(Ptr && "legality checked that the address is computable");
    for (auto [A, Element] : zip(C.Arrays, Elements))
      if ((A.Written || Check.IsStore) &&
          !provablyDisjoint(getLoadStorePointerOperand(Check.Access), A.Base))
        Disjoint(Ptr, Check.Width, Element, A.Stride);
  }
  for (auto [J, K] : P.ArrayChecks)
    Disjoint(Elements[J], C.Arrays[J].Stride, Elements[K],
             C.Arrays[K].Stride);
  return Ok;
}

} // namespace coalda
