//===- StoreWindowEmitter.cpp - Emits store windows -----------------------===//
//
// Emits a legal candidate's store windows (the scheme is documented in
// StoreWindow.cpp), after its load windows: the vote's range checks; at the
// top of the opening block, the write-back of a window the iteration's
// record does not fit; the stores into the tile; the write-back on the
// loop's way out.
//
//===----------------------------------------------------------------------===//

#include "ChunkWindowEmitter.h"
#include "IRUtils.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "coalda-window-emit"

using namespace llvm;

STATISTIC(NumWindowStoreSites, "Chunk stores written into a store window");

namespace coalda {

/// The bytes [Lo, Hi) that the block's rows take of array AI in loop L,
/// from its sites' first and last addresses there: row 0's least first
/// address, and the last row's greatest last address plus w.
std::pair<Value *, Value *> WindowEmitter::blockRange(IRBuilder<> &B,
                                                      unsigned AI,
                                                      const Loop *L) {
  SCEVExpander Expander(*P.SE, F->getParent()->getDataLayout(), "coalda");
  Instruction *At = P.VoteBlock->getTerminator();
  Value *Lo = nullptr, *Hi = nullptr;
  for (const WindowSite &S : C.Arrays[AI].Sites) {
    if (S.Loop != L)
      continue;
    Type *Ptr = S.Access->pointer()->getType();
    Value *First = B.CreatePtrToInt(Expander.expandCodeFor(S.First, Ptr, At), I64);
    Value *Last = B.CreateAdd(
        B.CreatePtrToInt(Expander.expandCodeFor(S.RangeLast, Ptr, At), I64),
        B.getInt64(width(AI)));
    Lo = Lo ? B.CreateBinaryIntrinsic(Intrinsic::umin, Lo, First) : First;
    Hi = Hi ? B.CreateBinaryIntrinsic(Intrinsic::umax, Hi, Last) : Last;
  }
  Value *Own = B.CreateMul(States[AI].Stride, Tid);
  Value *Rows = B.CreateMul(States[AI].Stride, B.CreateSub(Ntid, B.getInt64(1)));
  return {B.CreateSub(Lo, Own), B.CreateAdd(B.CreateSub(Hi, Own), Rows)};
}

/// StoreGo also asks that each store window's block range in its loop miss
/// each load window's there that may overlap it (StagingPlan::RangeCheck).
void WindowEmitter::checkRanges(IRBuilder<> &B) {
  for (const StagingPlan::RangeCheck &R : P.RangeChecks) {
    auto [StoredLo, StoredHi] = blockRange(B, R.Stored, R.Loop);
    auto [ReadLo, ReadHi] = blockRange(B, R.Read, R.Loop);
    Value *Apart = B.CreateOr(B.CreateICmpULE(StoredHi, ReadLo),
                              B.CreateICmpULE(ReadHi, StoredLo),
                              "coalda.window.apart");
    StoreGo = B.CreateAnd(StoreGo, Apart);
  }
}

/// Store window AI, at the top of its OpenAt block on every iteration: when
/// the iteration's record does not fit the open window, the warp writes
/// the window back and it opens at the record; the window then holds the
/// record too (Length: the bytes written of each row).
void WindowEmitter::emitStoreOpen(unsigned AI) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  BasicBlock *Check = A.OpenAt;
  Instruction *At = &*Check->getFirstInsertionPt();
  if (auto *I = dyn_cast<Instruction>(St.Record);
      I && I->getParent() == Check && !isa<PHINode>(I))
    At = I->getNextNode();
  BasicBlock *Cont = splitKeepingContraction(Check, At, "coalda.window.opened");
  Check->getTerminator()->eraseFromParent();
  LocatedBuilder B(Check, St.StoreLoc);
  Value *Row0 = B.CreateSub(B.CreatePtrToInt(St.Record, I64),
                            B.CreateMul(St.Stride, Tid), "coalda.window.row0");
  Value *Filled = B.CreateLoad(I64, St.Length);
  Value *Off = B.CreateSub(Row0, B.CreateLoad(I64, St.Start));
  Value *Full = B.CreateICmpUGT(
      Off, B.getInt64(A.WindowBytes - A.StoredRecord), "coalda.window.full");
  Value *Empty = B.CreateICmpEQ(Filled, B.getInt64(0));
  BasicBlock *Open = block("open", Cont), *Back = block("write.back", Cont),
             *Set = block("set", Cont);
  B.CreateCondBr(B.CreateAnd(StoreGo, B.CreateOr(Empty, Full)), Open, Cont);
  LocatedBuilder(Open, B.getCurrentDebugLocation())
      .CreateCondBr(Empty, Set, Back);
  LocatedBuilder(writeBack(Back, AI), B.getCurrentDebugLocation())
      .CreateBr(Set);
  LocatedBuilder S(Set, B.getCurrentDebugLocation());
  S.CreateStore(Row0, St.Start);
  S.CreateStore(St.Record, St.Own);
  S.CreateBr(Cont);
  LocatedBuilder Rec(Cont, B.getCurrentDebugLocation());
  Rec.SetInsertPoint(&*Cont->getFirstInsertionPt());
  Value *InWindow = Rec.CreateSub(Row0, Rec.CreateLoad(I64, St.Start));
  // Without StoreGo nothing is held: the way out writes nothing back.
  Rec.CreateStore(
      Rec.CreateSelect(StoreGo,
                       Rec.CreateAdd(InWindow, Rec.getInt64(A.StoredRecord)),
                       Rec.getInt64(0)),
      St.Length);
}

/// A store of window AI: when StoreGo, into the thread's tile row at its
/// offset in the open window (which the iteration's opening made hold its
/// record), else where it was.
void WindowEmitter::emitStoreSite(unsigned AI, const WindowSite &S) {
  auto *Store = cast<StoreInst>(S.Access->Inst);
  LocatedBuilder B(Store->getParent(), Store->getDebugLoc());
  B.SetInsertPoint(Store);
  Value *Ptr = Store->getPointerOperand();
  Value *Slot = ownSlot(B, AI, Ptr);
  // A select of the address, not a branch: splitting the block here could
  // part a multiply from its add (no fma on the GPU: other bits). Both as
  // generic addresses (a global one, where address spaces were inferred,
  // cannot hold a shared one).
  Type *Generic = PointerType::get(Ctx, 0);
  Value *Own = Ptr->getType() == Generic ? Ptr
                                         : B.CreateAddrSpaceCast(Ptr, Generic);
  Value *To = B.CreateSelect(
      StoreGo, B.CreateAddrSpaceCast(Slot, Generic, "coalda.window.slot"), Own,
      "coalda.window.to");
  Store->setOperand(Store->getPointerOperandIndex(), To);
  Store->setAlignment(std::min(Store->getAlign(), Align(width(AI))));
  ++NumWindowStoreSites;
}

/// Store window AI at its loop's exit: the warp writes back what is left.
void WindowEmitter::emitStoreExit(unsigned AI) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  // A block on the edge out, which only the loop's threads pass (the
  // exiting branch may sit in a later block now: emission splits blocks).
  // One such block for the loop's store windows, each writing back in turn.
  BasicBlock *&Exit = LoopExit[A.Sites.front().Loop];
  if (!Exit) {
    auto [Branch, Out] = ExitEdge.lookup(AI);
    Exit = SplitEdge(Branch->getParent(), Out);
    Exit->setName("coalda.window.loop.exit");
  }
  BasicBlock *Cont = splitKeepingContraction(
      Exit, &*Exit->getFirstInsertionPt(), "coalda.window.written");
  Exit->getTerminator()->eraseFromParent();
  LocatedBuilder B(Exit, St.StoreLoc);
  BasicBlock *Back = block("write.back", Cont);
  B.CreateCondBr(B.CreateICmpNE(B.CreateLoad(I64, St.Length), B.getInt64(0)),
                 Back, Cont);
  LocatedBuilder Done(writeBack(Back, AI), B.getCurrentDebugLocation());
  Done.CreateStore(Done.getInt64(0), St.Length);
  Done.CreateBr(Cont);
}

/// In At: the warp writes back store window AI's Length bytes of its 32
/// rows, between __syncwarps: a full window as the warp's 32*P units flat
/// (flatUnits: the tile's units loaded, then stored), a part one unit by
/// unit. Returns the block after, unterminated.
BasicBlock *WindowEmitter::writeBack(BasicBlock *At, unsigned AI) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  LocatedBuilder B(At, St.StoreLoc);
  warpBarrier(B);
  Value *Filled = B.CreateLoad(I64, St.Length, "coalda.window.filled");
  BasicBlock *Whole = block("write.whole", nullptr),
             *Part = block("write.part", nullptr),
             *Done = block("written", nullptr);
  B.CreateCondBr(B.CreateICmpEQ(Filled, B.getInt64(A.WindowBytes)), Whole,
                 Part);
  LocatedBuilder W(Whole, B.getCurrentDebugLocation());
  Value *Own = W.CreateLoad(W.getPtrTy(), St.Own);
  Type *Unit = copyUnitType(Ctx, width(AI));
  SmallVector<std::pair<Value *, Value *>, 32> Moves; // (value, global)
  flatUnits(W, AI, Own, [&](Value *Global, Value *Slot) {
    Moves.push_back({W.CreateAlignedLoad(Unit, Slot, Align(width(AI)),
                                         "coalda.window.out"),
                     Global});
  });
  for (auto [Val, Global] : Moves)
    W.CreateAlignedStore(Val, Global, St.GlobalAlign);
  W.CreateBr(Done);
  writeBackPart(Part, AI, Filled, Done);
  LocatedBuilder D(Done, B.getCurrentDebugLocation());
  warpBarrier(D);
  return Done;
}

/// In At: the warp's 32 rows' first Filled bytes (Filled / w = P units a
/// row) written back, lane l moving units l, l + 32, ... of the 32*P; then
/// to Done.
void WindowEmitter::writeBackPart(BasicBlock *At, unsigned AI, Value *Filled,
                                  BasicBlock *Done) {
  ArrayState &St = States[AI];
  uint64_t W = width(AI);
  LocatedBuilder B(At, St.StoreLoc);
  Value *Lane = B.CreateAnd(Tid, B.getInt64(31));
  Value *PerRow = B.CreateUDiv(Filled, B.getInt64(W));
  Value *Units = B.CreateMul(PerRow, B.getInt64(32));
  Value *Own = B.CreateLoad(B.getPtrTy(), St.Own);
  BasicBlock *Head = block("write.unit", Done), *Body = block("write.move", Done);
  B.CreateBr(Head);
  LocatedBuilder H(Head, B.getCurrentDebugLocation());
  PHINode *U = H.CreatePHI(I64, 2, "coalda.window.unit");
  U->addIncoming(Lane, At);
  H.CreateCondBr(H.CreateICmpULT(U, Units), Body, Done);
  LocatedBuilder M(Body, B.getCurrentDebugLocation());
  Value *Row = M.CreateUDiv(U, PerRow), *Col = M.CreateURem(U, PerRow);
  Value *ColBytes = M.CreateMul(Col, M.getInt64(W));
  Value *Slot = M.CreateGEP(
      I8, St.Tile,
      M.CreateAdd(M.CreateMul(M.CreateAdd(M.CreateSub(Tid, Lane), Row),
                              M.getInt64(pitch(AI))),
                  ColBytes));
  Value *Global = M.CreateGEP(
      I8, Own,
      M.CreateAdd(M.CreateMul(St.Stride, M.CreateSub(Row, Lane)), ColBytes));
  Type *Unit = copyUnitType(Ctx, W);
  M.CreateAlignedStore(M.CreateAlignedLoad(Unit, Slot, Align(W)), Global,
                       St.GlobalAlign);
  U->addIncoming(M.CreateAdd(U, M.getInt64(32)), Body);
  M.CreateBr(Head);
}

} // namespace coalda
