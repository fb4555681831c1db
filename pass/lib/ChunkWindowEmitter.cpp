//===- ChunkWindowEmitter.cpp - Emits chunk windows -----------------------===//
//
// Emits a legal chunk-window candidate (the scheme is documented in
// ChunkWindow.cpp). In order, so that ScalarEvolution still describes the
// loops when the limits are expanded:
//
//   vote     at the end of VoteBlock: each array's lane stride S, go
//   limits   before each site loop (its predecessor): row 0's end of what the
//            loop reads of the array (the last iteration's address + w -
//            S*tid)
//   version  the code after the vote, cloned: go ? windowed : the clone
//            (the original loads keep their schedule when the window does
//            not pay: a branch per load cost 1024-thread blocks 30%)
//   sites    the load becomes  hit ? tile : (refill; tile)
//   stores   that may write a windowed array: the bytes that fall in the
//            thread's own window row are written there too
//
// The window's position and length live in allocas, promoted to registers
// at the end: every thread holds the same values (they change only at the
// block-uniform refills).
//
//===----------------------------------------------------------------------===//

#include "ChunkWindowEmitter.h"
#include "IRUtils.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "SourceNames.h"
#include "Staging.h"
#include "Versioning.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#define DEBUG_TYPE "coalda-window-emit"

using namespace llvm;

STATISTIC(NumWindowLoads, "Chunk loads read through a shared-memory window");
STATISTIC(NumWindowStores, "Stores written through to a chunk window");

namespace coalda {


/// go, alike in every thread, at the end of VoteBlock; the tiles and the
/// window variables.
void WindowEmitter::vote() {
  BasicBlock *V = P.VoteBlock;
  LocatedBuilder B(V, Loc);
  B.SetInsertPoint(V->getTerminator());
  Tid = sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Ntid = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  // Operands that emit code are made one statement each, in a fixed order
  // (a call's arguments are evaluated in an order the compiler chooses).
  Value *NtidZ = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z);
  Value *NtidY = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *OneRow = B.CreateICmpEQ(B.CreateMul(NtidY, NtidZ), B.getInt64(1));
  Fits = B.CreateAnd(B.CreateICmpULE(Ntid, B.getInt64(P.Capacity)), OneRow,
                     "coalda.window.fits");
  // A warp refills its 32 rows (so do the block's records, a warp at a
  // time): every warp of the block is whole.
  if (P.Scope == WindowScope::Warp ||
      any_of(C.Arrays, [](const StagedArray &A) { return A.perIteration(); }))
    Fits = B.CreateAnd(
        Fits, B.CreateICmpEQ(B.CreateAnd(Ntid, B.getInt64(31)), B.getInt64(0)),
        "coalda.window.warps");
  // Cost rule: a grid of fewer blocks than the device has SMs runs one
  // block per SM, whose threads' rows L1 holds line by line (page-rank's
  // map at 16 blocks of 256: 0.87x windowed; softmax at 391 blocks: 1.05x).
  if (opts::WindowMinBlocksPerSM) {
    Value *NctaidZ = sreg(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_z);
    Value *NctaidY = sreg(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_y);
    Value *NctaidX = sreg(B, Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    Value *Blocks = B.CreateMul(B.CreateMul(NctaidX, NctaidY), NctaidZ);
    Value *Wave =
        B.CreateMul(sreg(B, Intrinsic::nvvm_read_ptx_sreg_nsmid),
                    B.getInt64(opts::WindowMinBlocksPerSM));
    Fits = B.CreateAnd(Fits, B.CreateICmpUGE(Blocks, Wave),
                       "coalda.window.wave");
  }
  IRBuilder<> Entry(&F->getEntryBlock(), F->getEntryBlock().begin());
  Module &M = *F->getParent();
  GlobalVariable *Shared = nullptr; // the one tile of arrays in turn
  for (auto [AI, A] : enumerate(C.Arrays)) {
    ArrayState St;
    std::string Name = P.ArraysInTurn ? "tiles" : irLabel(A.Base);
    St.Stride = materializePoly(B, A.LaneStride, *P.Atoms);
    St.GlobalAlign = Align(A.Accesses.front()->Width);
    for (const AccessExpr *M : A.Accesses)
      St.GlobalAlign = std::min(St.GlobalAlign, M->alignment());
    if (A.storeWindow() && !StoreGo)
      StoreGo = B.CreateICmpEQ(B.CreateAnd(Ntid, B.getInt64(31)),
                               B.getInt64(0), "coalda.window.store.warps");
    voteOnRows(B, A, St.Stride, A.storeWindow() ? StoreGo : Fits);
    auto *Ty = ArrayType::get(I8, pitch(AI) * P.Capacity);
    St.Tile = Shared ? Shared
                     : new GlobalVariable(M, Ty, false,
                                          GlobalValue::InternalLinkage,
                                          UndefValue::get(Ty),
                                          "coalda.window." + Name, nullptr,
                                          GlobalValue::NotThreadLocal, 3);
    St.Tile->setAlignment(Align(16));
    if (P.ArraysInTurn)
      Shared = St.Tile;
    St.Start = Entry.CreateAlloca(I64, nullptr, "coalda.window.start");
    St.Length = Entry.CreateAlloca(I64, nullptr, "coalda.window.length");
    B.CreateStore(B.getInt64(0), St.Start);
    B.CreateStore(B.getInt64(0), St.Length);
    if (A.storeWindow()) {
      St.Own = Entry.CreateAlloca(B.getPtrTy(), nullptr, "coalda.window.own");
      St.StoreLoc = A.Leader->Inst->getDebugLoc();
    }
    States.push_back(St);
  }
  checkRanges(B);
  Active = B.getTrue();
  if (P.Guard)
    Active = P.ActiveOnTrue ? P.Guard->getCondition()
                            : B.CreateNot(P.Guard->getCondition());
  if (P.RowModulus)
    return; // version() votes behind a branch on Fits
  Go = voteOn(B, B.CreateAnd(Active, Fits));
}

/// Fits also asks what array A's rows (Stride bytes apart) must be.
void WindowEmitter::voteOnRows(IRBuilder<> &B, const StagedArray &A,
                               Value *Stride, Value *&Into) {
  // The stride read as the IR reads it: a narrow atom sign-extended by
  // materializePoly is the zero-extended one only when not negative.
  if (Value *Ok = narrowAtomsNonNegative(B, A.LaneStride, *P.Atoms))
    Into = B.CreateAnd(Into, Ok);
  // Cost rule: short rows are read well enough by L1.
  Into = B.CreateAnd(Into,
                     B.CreateICmpSGE(Stride, B.getInt64(opts::WindowMinRow)));
  // A loop that only reads: L1 serves it well unless the rows are a
  // multiple of RowModulus bytes apart (measured in docs/benchmarks.md).
  if (P.RowModulus) {
    Value *Multiple = B.CreateICmpEQ(
        B.CreateURem(Stride, B.getInt64(P.RowModulus)), B.getInt64(0));
    Value *Long = B.CreateICmpSGE(Stride, B.getInt64(P.RowModulus));
    Into = B.CreateAnd(Into, B.CreateAnd(Long, Multiple));
  }
}

/// Whether Cond holds in every thread of the block (a block barrier).
Value *WindowEmitter::voteOn(IRBuilder<> &B, Value *Cond) {
  Value *All = B.CreateIntrinsic(Intrinsic::nvvm_barrier0_and, {},
                                 {B.CreateZExt(Cond, B.getInt32Ty())});
  return B.CreateICmpNE(All, B.getInt32(0), "coalda.window.go");
}

/// Row 0's end of what each site loop reads of each array, in its
/// preheader: the greatest last-iteration address of its sites, plus w.
void WindowEmitter::expandLimits() {
  SCEVExpander Expander(*P.SE, F->getParent()->getDataLayout(), "coalda");
  for (auto [AI, A] : enumerate(C.Arrays))
    for (const WindowSite &S : A.Sites) {
      if (A.storeWindow()) {
        if (S.Access == A.Leader)
          States[AI].Record = Expander.expandCodeFor(
              P.SE->getSCEV(A.Leader->pointer()),
              A.Leader->pointer()->getType(), &*A.OpenAt->getFirstInsertionPt());
        continue;
      }
      if (A.perIteration()) {
        if (S.Access == A.Leader)
          States[AI].Record = Expander.expandCodeFor(
              P.SE->getSCEV(A.Leader->pointer()),
              A.Leader->pointer()->getType(), &*A.RefillAt->getFirstInsertionPt());
        continue;
      }
      Instruction *At = S.Loop->getLoopPredecessor()->getTerminator();
      if (S.IV) {
        States[AI].IVLast[S.Access] =
            Expander.expandCodeFor(S.IVLast, S.IV->getType(), At);
        continue;
      }
      Value *Last =
          Expander.expandCodeFor(S.Last, S.Access->pointer()->getType(), At);
      LocatedBuilder B(At->getParent(), Loc);
      B.SetInsertPoint(At);
      Value *End =
          B.CreateAdd(B.CreatePtrToInt(Last, I64), B.getInt64(width(AI)));
      End = B.CreateSub(End, B.CreateMul(States[AI].Stride, Tid));
      Value *&Limit = States[AI].Limit[S.Loop];
      Limit =
          Limit ? B.CreateBinaryIntrinsic(Intrinsic::umax, Limit, End) : End;
    }
}

/// The block (or each warp, WindowScope::Warp: its own 32 rows, unit k by
/// lane k % 32) refills array AI's window from Row0 (row 0's address of the
/// site): barrier; the rows' WindowBytes moved in w-byte units, unit k by
/// thread k % ntid.x (moveRows); barrier; then to Done. Straight-line, so
/// that a thread's loads are in flight together: a unit past the window's
/// end loads the thread's own element instead (valid: the thread reads it
/// now) into a tile byte nobody reads.
void WindowEmitter::emitRefill(IRBuilder<> &B, unsigned AI, const WindowSite &S,
                               Value *Row0, BasicBlock *Done) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  uint64_t W = width(AI);
  Value *Ahead; // bytes from Row0 to the end of what the site's loop reads
  if (S.IV) {
    // the iterations left, times the bytes the address advances by in one
    auto *IV = const_cast<PHINode *>(S.IV);
    Value *Left = B.CreateExactSDiv(
        B.CreateSub(St.IVLast.lookup(S.Access), IV),
        ConstantInt::get(IV->getType(), S.IVStep, /*IsSigned=*/true));
    Ahead = B.CreateAdd(
        B.CreateMul(B.CreateSExt(Left, I64), B.getInt64(S.BytesPerIteration)),
        B.getInt64(W));
  } else {
    Ahead = B.CreateSub(St.Limit.lookup(S.Loop), Row0);
  }
  // At least the element every row's thread loads now: a bound that fell
  // short (it never should) then costs a refill, never a read of another
  // row's stale bytes or, wrapped to a huge unsigned length, past the chunk.
  Ahead = B.CreateBinaryIntrinsic(Intrinsic::smax, Ahead, B.getInt64(W));
  Value *Bytes =
      B.CreateBinaryIntrinsic(Intrinsic::umin, B.getInt64(A.WindowBytes), Ahead,
                              nullptr, "coalda.window.bytes");
  openWindow(B, AI, Row0, Bytes);
  barrier(B);
  moveRows(B, AI, S.Access->pointer(), Bytes);
  barrier(B);
  B.CreateBr(Done);
}

/// Array AI's window now starts at Row0 (row 0's address) and holds Bytes;
/// with arrays in turn the tile holds AI's rows, so the others' are gone.
void WindowEmitter::openWindow(IRBuilder<> &B, unsigned AI, Value *Row0,
                               Value *Bytes) {
  B.CreateStore(Row0, States[AI].Start);
  B.CreateStore(Bytes, States[AI].Length);
  if (P.ArraysInTurn)
    for (auto [Other, OtherState] : enumerate(States))
      if (Other != AI)
        B.CreateStore(B.getInt64(0), OtherState.Length);
}

/// The rows' window of array AI, from Own (the thread's own address of the
/// window's start) on, moved into the tile in w-byte units: by the block,
/// unit k by thread k % ntid.x, or by a warp, its own 32 rows, unit k by
/// lane k % 32 (consecutive threads, consecutive units of a row: a sector
/// per row). A unit at or past Bytes (null: every unit is in the window)
/// loads the thread's own element instead, into a tile byte nobody reads.
void WindowEmitter::moveRows(IRBuilder<> &B, unsigned AI, Value *Own,
                             Value *Bytes) {
  ArrayState &St = States[AI];
  uint64_t W = width(AI), PerRow = C.Arrays[AI].WindowBytes / W;
  Type *Unit = copyUnitType(Ctx, W);
  // The movers and their rows: the block's threads all rows, or a warp's
  // lanes its own 32 (rows First + 0..31).
  bool Warp = P.Scope == WindowScope::Warp;
  Value *Mover = Warp ? B.CreateAnd(Tid, B.getInt64(31)) : Tid;
  Value *Movers = Warp ? B.getInt64(32) : Ntid;
  Value *First = Warp ? B.CreateSub(Tid, Mover) : B.getInt64(0);
  SmallVector<std::pair<Value *, Value *>, 8> Moves; // (value, tile slot)
  for (uint64_t U = 0; U < PerRow; ++U) {
    Value *K = B.CreateAdd(Mover, B.CreateMul(Movers, B.getInt64(U)));
    Value *InRow = isPowerOf2_64(PerRow)
                       ? B.CreateAnd(K, PerRow - 1)
                       : B.CreateURem(K, B.getInt64(PerRow));
    Value *Row = B.CreateAdd(First, isPowerOf2_64(PerRow)
                                        ? B.CreateLShr(K, Log2_64(PerRow))
                                        : B.CreateUDiv(K, B.getInt64(PerRow)));
    Value *At = B.CreateMul(InRow, B.getInt64(W));
    // Row r's address: the thread's own plus S*(r - tid).
    Value *Src = B.CreateGEP(
        I8, Own,
        B.CreateAdd(B.CreateMul(St.Stride, B.CreateSub(Row, Tid)), At));
    if (Bytes)
      Src = B.CreateSelect(B.CreateICmpULT(At, Bytes), Src, Own);
    Value *Val =
        B.CreateAlignedLoad(Unit, Src, St.GlobalAlign, "coalda.window.in");
    Moves.push_back(
        {Val,
         B.CreateGEP(
             I8, St.Tile,
             B.CreateAdd(B.CreateMul(Row, B.getInt64(pitch(AI))), At))});
  }
  for (auto [Val, Slot] : Moves)
    B.CreateAlignedStore(Val, Slot, Align(W));
}

/// A window refilled per iteration: at the top of its refill block (after
/// the record's address), every iteration, the rows' record: barrier, the
/// rows moved, barrier. The sites then read the tile unchecked.
void WindowEmitter::emitIterationRefill(unsigned AI) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  Instruction *At = &*A.RefillAt->getFirstInsertionPt();
  if (auto *I = dyn_cast<Instruction>(St.Record);
      I && I->getParent() == A.RefillAt && !isa<PHINode>(I))
    At = I->getNextNode();
  LocatedBuilder B(A.RefillAt, A.Leader->Inst->getDebugLoc());
  B.SetInsertPoint(At);
  Value *Row0 = B.CreateSub(B.CreatePtrToInt(St.Record, I64),
                            B.CreateMul(St.Stride, Tid), "coalda.window.row0");
  openWindow(B, AI, Row0, B.getInt64(A.WindowBytes));
  barrier(B);
  moveRecords(B, AI);
  barrier(B);
}

/// The rows' records of array AI (P = WindowBytes / w units each, P <= 32)
/// moved into the tile by the warp, or by the block a warp at a time, as
/// the warp's 32*P units in a row: lane l moves unit u = 32*i + l on its
/// i-th request, of row u / P and column u % P. Every lane moves a unit on
/// each of the P requests (a request of one row per lane, as a first form
/// did, left 32 - P lanes idle on 32 requests: dslash 1.10x where this
/// form gained 1.77x, docs/probe/dslash_units-h200.txt). With l = q*P + c
/// and 32*i = Q_i*P + C_i, unit u is column c + C_i of row q + Q_i, or, when
/// c + C_i >= P, column c + C_i - P of the next row: every address is the
/// lane's first plus a constant plus a select, so a request's load and
/// store carry immediate offsets (per-unit divisions kept 18 64-bit
/// offsets alive through each of dslash's loops: 128 registers). The loads
/// are in flight together; the stores follow.
void WindowEmitter::moveRecords(IRBuilder<> &B, unsigned AI) {
  ArrayState &St = States[AI];
  Type *Unit = copyUnitType(Ctx, width(AI));
  SmallVector<std::pair<Value *, Value *>, 32> Moves; // (value, tile slot)
  flatUnits(B, AI, St.Record, [&](Value *From, Value *To) {
    Moves.push_back(
        {B.CreateAlignedLoad(Unit, From, St.GlobalAlign, "coalda.window.in"),
         To});
  });
  for (auto [Val, To] : Moves)
    B.CreateAlignedStore(Val, To, Align(width(AI)));
}

/// The warp's 32*P units of array AI's rows (P = WindowBytes / w, at most
/// 32): Each(global address, tile slot) of lane l's unit 32*i + l, for i
/// = 0..P-1 in order; Own is the thread's address of its row's first unit.
void WindowEmitter::flatUnits(
    IRBuilder<> &B, unsigned AI, Value *Own,
    function_ref<void(Value *Global, Value *Slot)> Each) {
  const StagedArray &A = C.Arrays[AI];
  ArrayState &St = States[AI];
  uint64_t W = width(AI), Units = A.WindowBytes / W, Pitch = pitch(AI);
  Value *Lane = B.CreateAnd(Tid, B.getInt64(31), "coalda.window.lane");
  Value *Row = B.CreateUDiv(Lane, B.getInt64(Units));  // q
  Value *Col = B.CreateURem(Lane, B.getInt64(Units));  // c
  Value *ColBytes = B.CreateMul(Col, B.getInt64(W));
  // The lane's first unit: global row (q - l) from its own, and its slot.
  Value *Src = B.CreateGEP(
      I8, Own,
      B.CreateAdd(B.CreateMul(St.Stride, B.CreateSub(Row, Lane,
                                                     "coalda.window.from.row")),
                  ColBytes));
  Value *Slot = B.CreateGEP(
      I8, St.Tile,
      B.CreateAdd(B.CreateMul(B.CreateAdd(B.CreateSub(Tid, Lane), Row),
                              B.getInt64(Pitch)),
                  ColBytes));
  // From a row's column c + C to the next row's column c + C - P.
  Value *SrcWrap =
      B.CreateSub(St.Stride, B.getInt64(Units * W), "coalda.window.wrap");
  int64_t SlotWrap = (int64_t)Pitch - (int64_t)(Units * W);
  for (uint64_t I = 0; I < Units; ++I) {
    uint64_t Rows = 32 * I / Units, Cols = 32 * I % Units;
    Value *From = B.CreateGEP(
        I8, Src,
        B.CreateAdd(B.CreateMul(St.Stride, B.getInt64(Rows)),
                    B.getInt64(Cols * W)));
    Value *To = B.CreateGEP(I8, Slot, B.getInt64(Rows * Pitch + Cols * W));
    if (Cols) {
      Value *Wraps = B.CreateICmpUGE(Col, B.getInt64(Units - Cols),
                                     "coalda.window.wraps");
      From = B.CreateGEP(I8, From,
                         B.CreateSelect(Wraps, SrcWrap, B.getInt64(0),
                                        "coalda.window.from.wrap"));
      To = B.CreateGEP(I8, To,
                       B.CreateSelect(Wraps, B.getInt64(SlotWrap),
                                      B.getInt64(0)));
    }
    Each(From, To);
  }
}

/// The thread's own row of array AI's tile at Ld's address (in the window).
Value *WindowEmitter::readOwnRow(IRBuilder<> &B, unsigned AI, LoadInst *Ld) {
  return B.CreateAlignedLoad(Ld->getType(),
                             ownSlot(B, AI, Ld->getPointerOperand()),
                             Align(width(AI)), "coalda.window.value");
}

/// The thread's slot of array AI's tile for its address Ptr (in the open
/// window): its row, at Ptr's offset from the window's start.
Value *WindowEmitter::ownSlot(IRBuilder<> &B, unsigned AI, Value *Ptr) {
  ArrayState &St = States[AI];
  Value *Row0 =
      B.CreateSub(B.CreatePtrToInt(Ptr, I64), B.CreateMul(St.Stride, Tid));
  Value *InRow = B.CreateSub(Row0, B.CreateLoad(I64, St.Start));
  return B.CreateGEP(
      I8, St.Tile, B.CreateAdd(B.CreateMul(Tid, B.getInt64(pitch(AI))), InRow));
}

/// One site, in the windowed code: a hit reads the own row; a miss refills
/// the window first.
void WindowEmitter::emitSite(unsigned AI, const WindowSite &S) {
  auto *Ld = cast<LoadInst>(S.Access->Inst);
  ++NumWindowLoads;
  if (C.Arrays[AI].perIteration()) {
    // The iteration's refill, which dominates the site, moved its bytes.
    LocatedBuilder B(Ld->getParent(), Ld->getDebugLoc());
    B.SetInsertPoint(Ld);
    Ld->replaceAllUsesWith(readOwnRow(B, AI, Ld));
    Ld->eraseFromParent();
    return;
  }
  ArrayState &St = States[AI];
  BasicBlock *Check = Ld->getParent();
  BasicBlock *Join = splitKeepingContraction(Check, Ld, "coalda.window.join");
  BasicBlock *Fill = block("refill", Join), *Read = block("read", Join);
  Check->getTerminator()->eraseFromParent();

  uint64_t W = width(AI);
  LocatedBuilder B(Check, Ld->getDebugLoc());
  Value *Own = B.CreateMul(St.Stride, Tid);
  Value *Row0 = B.CreateSub(B.CreatePtrToInt(Ld->getPointerOperand(), I64),
                            Own, "coalda.window.row0");
  Value *Off = B.CreateSub(Row0, B.CreateLoad(I64, St.Start));
  Value *Len = B.CreateLoad(I64, St.Length);
  Value *Whole = B.CreateICmpUGE(B.CreateSub(Len, Off), B.getInt64(W));
  Value *Hit =
      B.CreateAnd(B.CreateICmpULT(Off, Len), Whole, "coalda.window.hit");
  B.CreateCondBr(Hit, Read, Fill);

  LocatedBuilder R(Fill, Ld->getDebugLoc());
  emitRefill(R, AI, S, Row0, Read);

  LocatedBuilder Rd(Read, Ld->getDebugLoc());
  Value *InRow = Rd.CreateSub(Row0, Rd.CreateLoad(I64, St.Start));
  Value *Slot = Rd.CreateGEP(
      I8, St.Tile,
      Rd.CreateAdd(Rd.CreateMul(Tid, Rd.getInt64(pitch(AI))), InRow));
  Value *FromTile = Rd.CreateAlignedLoad(Ld->getType(), Slot, Align(W),
                                         "coalda.window.value");
  Rd.CreateBr(Join);
  Ld->replaceAllUsesWith(FromTile);
  Ld->eraseFromParent();
}

/// The stored bytes that fall in the thread's own row of array AI's window
/// (Offset: the store's address minus the row's window start), one by one.
void WindowEmitter::mirrorBytes(BasicBlock *At, unsigned AI, Value *Offset,
                                Value *Bits, unsigned Bytes, BasicBlock *Done) {
  ArrayState &St = States[AI];
  BasicBlock *Head = block("mirror", Done), *Put = block("mirror.byte", Done),
             *Next = block("mirror.next", Done);
  LocatedBuilder B(At, Loc);
  Value *Len = B.CreateLoad(I64, St.Length);
  B.CreateBr(Head);
  LocatedBuilder H(Head, Loc);
  PHINode *Byte = H.CreatePHI(I64, 2, "coalda.window.byte");
  Byte->addIncoming(H.getInt64(0), At);
  Value *Pos = H.CreateAdd(Offset, Byte);
  H.CreateCondBr(H.CreateICmpULT(Pos, Len), Put, Next);
  LocatedBuilder Pt(Put, Loc);
  Value *Shift =
      Pt.CreateZExtOrTrunc(Pt.CreateMul(Byte, Pt.getInt64(8)), Bits->getType());
  Value *Val = Pt.CreateTrunc(Pt.CreateLShr(Bits, Shift), I8);
  Value *Slot = Pt.CreateGEP(
      I8, St.Tile,
      Pt.CreateAdd(Pt.CreateMul(Tid, Pt.getInt64(pitch(AI))), Pos));
  Pt.CreateStore(Val, Slot);
  Pt.CreateBr(Next);
  LocatedBuilder N(Next, Loc);
  Value *After = N.CreateAdd(Byte, N.getInt64(1));
  Byte->addIncoming(After, Next);
  N.CreateCondBr(N.CreateICmpULT(After, N.getInt64(Bytes)), Head, Done);
}

/// A store (or small memcpy) that may write a windowed array, in the
/// windowed code: the bytes it writes into the thread's own window rows are
/// written there too.
void WindowEmitter::emitWriteThrough(Instruction *St) {
  const DataLayout &DL = F->getParent()->getDataLayout();
  BasicBlock *Mirror = St->getParent();
  BasicBlock *Cont =
      splitKeepingContraction(Mirror, St->getNextNode(), "coalda.window.stored");
  Mirror->getTerminator()->eraseFromParent();
  LocatedBuilder B(Mirror, St->getDebugLoc());
  // The bytes written, as one integer, and where.
  Value *Bits, *Dest;
  unsigned Bytes;
  if (auto *Copy = dyn_cast<MemCpyInst>(St)) {
    Bytes = cast<ConstantInt>(Copy->getLength())->getZExtValue();
    Bits = B.CreateAlignedLoad(B.getIntNTy(Bytes * 8), Copy->getSource(),
                               Align(1));
    Dest = Copy->getDest();
  } else {
    auto *Store = cast<StoreInst>(St);
    Value *V = Store->getValueOperand();
    Bytes = DL.getTypeStoreSize(V->getType()).getFixedValue();
    Type *IntTy = B.getIntNTy(Bytes * 8);
    Bits = V->getType()->isPointerTy()   ? B.CreatePtrToInt(V, IntTy)
           : V->getType()->isIntegerTy() ? B.CreateZExtOrTrunc(V, IntTy)
                                         : B.CreateBitCast(V, IntTy);
    Dest = Store->getPointerOperand();
  }
  Value *Addr = B.CreatePtrToInt(Dest, I64);
  BasicBlock *At = Mirror;
  for (unsigned AI = 0; AI < C.Arrays.size(); ++AI) {
    if (!C.Arrays[AI].Loaded || provablyDisjoint(Dest, C.Arrays[AI].Base))
      continue;
    LocatedBuilder H(At, St->getDebugLoc());
    Value *Own = H.CreateMul(States[AI].Stride, Tid);
    Value *RowStart = H.CreateAdd(H.CreateLoad(I64, States[AI].Start), Own);
    Value *Off = H.CreateSub(Addr, RowStart);
    Value *Len = H.CreateLoad(I64, States[AI].Length);
    Value *EndsAfter =
        H.CreateICmpSGT(H.CreateAdd(Off, H.getInt64(Bytes)), H.getInt64(0));
    Value *Overlaps = H.CreateAnd(H.CreateICmpSLT(Off, Len), EndsAfter);
    BasicBlock *Mirrored = block("mirrored", Cont),
               *Bytewise = block("mirror.bytes", Cont);
    H.CreateCondBr(Overlaps, Bytewise, Mirrored);
    mirrorBytes(Bytewise, AI, Off, Bits, Bytes, Mirrored);
    At = Mirrored;
  }
  LocatedBuilder(At, St->getDebugLoc()).CreateBr(Cont);
  ++NumWindowStores;
}

/// The code after the vote, cloned as the fallback: VoteBlock branches on
/// go to it or to the original, which the sites and stores then rewrite.
void WindowEmitter::version() {
  BasicBlock *Start = P.VoteBlock->splitBasicBlock(P.VoteBlock->getTerminator(),
                                                   "coalda.window.region");
  DominatorTree DT(*F);
  SmallVector<BasicBlock *, 16> Region;
  SmallPtrSet<BasicBlock *, 16> InRegion;
  for (BasicBlock &BB : *F)
    if (DT.dominates(Start, &BB)) {
      Region.push_back(&BB);
      InRegion.insert(&BB);
    }
  ValueToValueMapTy VMap;
  cloneRegionAsFallback(Region, InRegion, VMap);
  P.VoteBlock->getTerminator()->eraseFromParent();
  auto *Original = cast<BasicBlock>(VMap[Start]);
  BasicBlock *VoteAt = P.VoteBlock;
  if (P.RowModulus) {
    // A loop that only reads its chunks: blocks whose shape or rows do not
    // qualify skip the barrier (with it, 8-float rows measured 0.79-0.86x;
    // without, 0.81-0.93x: docs/runs/window-read-only*-h200.txt). Fits is the
    // same in every thread of the block: false in all of a 2-D block, and in a
    // 1-D block the row length is the block's (the window needs that too).
    VoteAt = block("vote", Start);
    LocatedBuilder(P.VoteBlock, Loc).CreateCondBr(Fits, VoteAt, Original);
    LocatedBuilder VB(VoteAt, Loc);
    Go = voteOn(VB, Active);
  }
  LocatedBuilder(VoteAt, Loc)
      .CreateCondBr(Go, Start, Original,
                    MDBuilder(Ctx).createLikelyBranchWeights());
}

std::string WindowEmitter::emit() {
  for (auto [AI, A] : enumerate(C.Arrays))
    if (A.storeWindow()) {
      const Loop *L = A.Sites.front().Loop;
      ExitEdge[AI] = {A.FlushAt->getTerminator(),
                      *find_if(successors(A.FlushAt), [&](BasicBlock *S) {
                        return !L->contains(S);
                      })};
    }
  vote();
  expandLimits();
  version();
  for (auto [AI, A] : enumerate(C.Arrays)) {
    if (A.storeWindow())
      continue;
    if (A.perIteration())
      emitIterationRefill(AI);
    for (const WindowSite &S : A.Sites)
      emitSite(AI, S);
  }
  // Before a store window takes a store: its bytes mirrored first.
  for (Instruction *St : P.WriteThrough)
    emitWriteThrough(St);
  for (auto [AI, A] : enumerate(C.Arrays)) {
    if (!A.storeWindow())
      continue;
    emitStoreOpen(AI);
    for (const WindowSite &S : A.Sites)
      emitStoreSite(AI, S);
    emitStoreExit(AI);
  }
  SmallVector<AllocaInst *, 8> Allocas;
  for (const ArrayState &St : States) {
    Allocas.append({St.Start, St.Length});
    if (St.Own)
      Allocas.push_back(St.Own);
  }
  DominatorTree DT(*F);
  PromoteMemToReg(Allocas, DT);

  return describe();
}

/// What the windows do, for people.
std::string WindowEmitter::describe() const {
  std::string Names, Stored;
  unsigned Sites = 0, StoredBytes = 0;
  for (const StagedArray &A : C.Arrays) {
    if (A.storeWindow()) {
      Stored += (Stored.empty() ? "" : ", ") + baseName(A.Base);
      StoredBytes = A.WindowBytes;
      continue;
    }
    Names += (Names.empty() ? "" : ", ") + baseName(A.Base);
    Sites += A.Sites.size();
  }
  bool Warp = P.Scope == WindowScope::Warp;
  bool PerIteration = all_of(C.Arrays, [](const StagedArray &A) {
    return A.perIteration() || A.storeWindow();
  });
  std::string When =
      PerIteration
          ? std::string("on every iteration with the record its loads read")
          : formatv("when {0} load{1} leave{2} it", Sites, Sites > 1 ? "s" : "",
                    Sites > 1 ? "" : "s")
                .str();
  std::string Tile = P.ArraysInTurn ? "one tile the arrays take in turn"
                     : Warp         ? "warp tile"
                                    : "block tile";
  return formatv("staged the chunk{0} of {1} through a shared-memory window "
                 "of {2} bytes per thread ({12}, {3} bytes for {4} "
                 "threads), refilled by {13} {5}; 1-D blocks of up to {4} threads{14} whose rows are at "
                 "least {8} bytes{10}{11} take it, others run the original "
                 "loads{9}",
                 Names.find(',') != std::string::npos ? "s" : "", Names,
                 C.Arrays.front().WindowBytes,
                 C.windowBytesPerThread(P.ArraysInTurn) * P.Capacity,
                 P.Capacity, When, "", "",
                 (unsigned)opts::WindowMinRow,
                 P.WriteThrough.empty()
                     ? std::string()
                     : formatv("; {0} store{1} that may write it also "
                               "update{2} the thread's window",
                               P.WriteThrough.size(),
                               P.WriteThrough.size() > 1 ? "s" : "",
                               P.WriteThrough.size() > 1 ? "" : "s")
                           .str(),
                 P.RowModulus ? formatv(" and a multiple of {0} bytes (the "
                                        "loop only reads its chunks)",
                                        P.RowModulus)
                                    .str()
                              : std::string(),
                 opts::WindowMinBlocksPerSM
                     ? formatv(", in grids of at least {0} block{1} per SM",
                               (unsigned)opts::WindowMinBlocksPerSM,
                               opts::WindowMinBlocksPerSM > 1 ? "s" : "")
                           .str()
                     : std::string(),
                 Tile, Warp ? "each warp for its own threads" : "the block",
                 Warp || !Stored.empty() ? " (whole warps)" : "")
             .str() +
         (Stored.empty()
              ? std::string()
              : formatv("; the stores to {0} go through a window of {1} "
                        "bytes per thread that each warp writes back",
                        Stored, StoredBytes)
                    .str());
}

std::string emitWindows(const StagingCandidate &C, const StagingPlan &P) {
  return WindowEmitter(C, P).emit();
}

} // namespace coalda
