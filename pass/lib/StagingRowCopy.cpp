//===- StagingRowCopy.cpp - The staging emitter: a row's copy -------------===//
//
// The staging emitter's row copies (StagingEmitter.cpp has the scheme): the
// load phase moves each loaded array's row, the S_j*ntid.x bytes from the
// element of thread 0 on, from global memory into tile_j, and the store
// phase moves each written array's back. Units of 16 or 8 bytes where the
// row start's alignment allows (tested at run time), else member-wide; thread
// t moves units t + k*ntid.x, k < ceil(S_j/U), without a loop when at most
// -coalda-stage-unroll (8: all loads, then all stores, so several are in
// flight), unit indices in 32 bits. A warp tile's row is its warp's: 32*S_j
// bytes from the element of lane t & ~31 on, into the same bytes of tile_j
// a block tile uses, units by lane t & 31, 32 apart. An element that the
// stores write in part is written back only in its stored units (each unit
// tested against the StoredUnits mask; units that straddle stored and other
// bytes are not used).
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "StagingEmitterImpl.h"
#include "Versioning.h"
#include "llvm/Support/Debug.h"

#include <numeric>

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;

namespace coalda {

/// Whether every U-byte unit of a row of A's elements (the row starts at an
/// element) lies wholly in stored units of the element or wholly outside
/// them, so that a masked store phase can copy it or leave it whole.
static bool unitKeepsMask(const StagedArray &A, unsigned U) {
  uint64_t S = A.Stride, W = A.MemberWidth;
  uint64_t Period = std::lcm<uint64_t>(S, U) / U;
  auto Stored = [&](uint64_t Byte) {
    return (A.StoredUnits >> (Byte % S / W)) & 1;
  };
  for (uint64_t K = 0; K < Period; ++K)
    for (uint64_t Byte = K * U + W; Byte < (K + 1) * U; Byte += W)
      if (Stored(Byte) != Stored(K * U))
        return false;
  return true;
}

/// Moves the row's Stride*ntid.x bytes, whose thread-t element starts at
/// Element (in thread t), between global memory and Tile, in the widest
/// units the row start's alignment allows, the rest in member-wide units.
/// Into global memory, an element the stores write in part gets only its
/// stored units (units that straddle stored and other bytes are not used).
/// B ends where the copy is done.
void StagingEmitter::emitRowCopy(IRBuilder<> &B, Value *Element,
                                 GlobalVariable *Tile, const StagedArray &A,
                                 bool ToTile) {
  int64_t Stride = A.Stride;
  uint64_t MemberWidth = A.MemberWidth;
  const StagedArray *Masked = !ToTile && A.storesPart() ? &A : nullptr;
  Value *Back = B.CreateMul(RowLane, B.getInt64(Stride));
  Value *Row = B.CreateGEP(I8, Element, B.CreateNeg(Back), "coalda.row");
  Value *Global = B.CreateAddrSpaceCast(Row, PointerType::get(Ctx, 1));
  Value *Bytes = B.CreateMul(UnitThreads, ConstantInt::get(UnitTy, Stride),
                             "coalda.rowbytes", /*HasNUW=*/true,
                             /*HasNSW=*/true);
  // A warp's slice: a multiple of 32 bytes into the tile, so as aligned.
  Value *Slice = Tile;
  if (WarpFirst)
    Slice = B.CreateGEP(
        I8, Tile,
        B.CreateMul(WarpFirst, B.getInt64(SliceStride ? SliceStride : Stride)),
        "coalda.slice");
  Value *RowInt = B.CreatePtrToInt(Row, I64);
  SmallVector<unsigned, 3> Units;
  for (unsigned U : {16u, 8u})
    if (U > MemberWidth && (!Masked || unitKeepsMask(A, U)))
      Units.push_back(U);
  Units.push_back(MemberWidth);

  BasicBlock *Done =
      B.GetInsertBlock()->splitBasicBlock(B.GetInsertPoint(), "coalda.copied");
  BasicBlock *Test = B.GetInsertBlock();
  Test->getTerminator()->eraseFromParent();
  for (unsigned U : Units) {
    BasicBlock *Version = BasicBlock::Create(
        Ctx, "coalda.copy" + std::to_string(U), F, Done);
    BasicBlock *Next = nullptr;
    B.SetInsertPoint(Test);
    if (U == MemberWidth) {
      B.CreateBr(Version);
    } else {
      Next = BasicBlock::Create(Ctx, "coalda.narrower", F, Done);
      Value *Aligned = B.CreateICmpEQ(B.CreateAnd(RowInt, B.getInt64(U - 1)),
                                      B.getInt64(0));
      B.CreateCondBr(Aligned, Version, Next);
    }
    B.SetInsertPoint(Version);
    Value *Wide = B.CreateUDiv(Bytes, ConstantInt::get(UnitTy, U));
    Value *WideEnd = B.CreateMul(Wide, ConstantInt::get(UnitTy, U));
    // Thread t moves units t, t + T, ... below Stride*T/U: at most
    // ceil(Stride/U), and exactly Stride/U when U divides Stride.
    unsigned PerThread = divideCeil(Stride, U);
    bool Unrolled = PerThread <= opts::StageUnroll;
    if (Unrolled)
      emitUnrolledUnits(B, Global, Slice, U, PerThread, Wide, Stride % U != 0,
                        ToTile, Masked);
    else
      emitUnitLoop(B, Global, Slice, U, ConstantInt::get(UnitTy, 0), WideEnd,
                   ToTile, Masked);
    LLVM_DEBUG(dbgs() << "coalda:   " << (ToTile ? "load" : "store")
                      << " phase, " << U << "-byte units: " << PerThread
                      << " per thread, "
                      << (Unrolled ? "without a loop" : "in a loop") << "\n");
    // The row's last Bytes mod U bytes, none when U divides the stride.
    if (U != MemberWidth && Stride % U != 0)
      emitUnitLoop(B, Global, Slice, MemberWidth, WideEnd, Bytes, ToTile,
                   Masked);
    B.CreateBr(Done);
    Test = Next;
  }
  B.SetInsertPoint(Done, Done->getFirstInsertionPt());
}

/// Whether unit K (U bytes from the row start) lies in A's stored units:
/// bit ((K*U) mod S) / MemberWidth of StoredUnits.
Value *StagingEmitter::unitStored(IRBuilder<> &B, Value *K, unsigned U,
                                  const StagedArray &A) {
  auto Int = [&](uint64_t V) { return ConstantInt::get(K->getType(), V); };
  Value *InElement = B.CreateURem(B.CreateMul(K, Int(U)), Int(A.Stride),
                                  "coalda.in.element");
  // The mask has up to 64 units: shifted in 64 bits, whatever K's type (a
  // 32-bit K once cut it to the first 32, so a 48-unit record written in
  // part lost its units 32-47; tests/turn_kernels.py found it).
  Value *Unit = B.CreateZExt(B.CreateUDiv(InElement, Int(A.MemberWidth)), I64);
  Value *Bit = B.CreateAnd(B.CreateLShr(B.getInt64(A.StoredUnits), Unit),
                           B.getInt64(1));
  return B.CreateICmpNE(Bit, B.getInt64(0), "coalda.stored");
}

/// for (k = From/U + lane; k < To/U; k += row threads) copy unit k (U
/// bytes); lane and row threads are tid.x and ntid.x, or a warp's. With
/// Masked, only the units that lie in its stored units are copied.
void StagingEmitter::emitUnitLoop(IRBuilder<> &B, Value *Global, Value *Tile,
                                  unsigned U, Value *FromByte, Value *ToByte,
                                  bool ToTile, const StagedArray *Masked) {
  Type *Unit = unitType(U);
  BasicBlock *Before = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(Ctx, "coalda.units", F, Before);
  Head->moveAfter(Before);
  // Masked: Head -> Test (is unit k stored?) -> Body (copy) -> Latch.
  BasicBlock *Test =
      Masked ? BasicBlock::Create(Ctx, "coalda.unit.test", F) : nullptr;
  BasicBlock *Body = BasicBlock::Create(Ctx, "coalda.unit", F);
  BasicBlock *Latch =
      Masked ? BasicBlock::Create(Ctx, "coalda.unit.next", F) : Body;
  BasicBlock *After = BasicBlock::Create(Ctx, "coalda.units.done", F);
  BasicBlock *Last = Head;
  for (BasicBlock *BB : {Test, Body, Masked ? Latch : nullptr, After})
    if (BB) {
      BB->moveAfter(Last);
      Last = BB;
    }
  Value *First = B.CreateAdd(
      B.CreateUDiv(FromByte, ConstantInt::get(UnitTy, U)), UnitLane);
  Value *End = B.CreateUDiv(ToByte, ConstantInt::get(UnitTy, U));
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  PHINode *K = B.CreatePHI(UnitTy, 2, "coalda.k");
  K->addIncoming(First, Before);
  B.CreateCondBr(B.CreateICmpULT(K, End), Masked ? Test : Body, After);
  if (Masked) {
    B.SetInsertPoint(Test);
    B.CreateCondBr(unitStored(B, K, U, *Masked), Body, Latch);
  }
  B.SetInsertPoint(Body);
  Value *Off = unitOffset(B, K, U);
  Value *G = B.CreateGEP(I8, Global, Off), *T = B.CreateGEP(I8, Tile, Off);
  Value *From = ToTile ? G : T, *To = ToTile ? T : G;
  B.CreateAlignedStore(B.CreateAlignedLoad(Unit, From, Align(U)), To,
                       Align(U));
  if (Masked) {
    B.CreateBr(Latch);
    B.SetInsertPoint(Latch);
  }
  K->addIncoming(B.CreateAdd(K, UnitThreads), Latch);
  B.CreateBr(Head);
  B.SetInsertPoint(After);
}

/// Units lane + k*T (k < PerThread, T the row's threads) of U bytes,
/// without a loop: all loads, then all stores, so that a thread's loads are
/// in flight together. With Guarded, only units below Units; with Masked,
/// only the units in its stored units.
void StagingEmitter::emitUnrolledUnits(IRBuilder<> &B, Value *Global,
                                       Value *Tile, unsigned U,
                                       unsigned PerThread, Value *Units,
                                       bool Guarded, bool ToTile,
                                       const StagedArray *Masked) {
  Type *Unit = unitType(U);
  SmallVector<Value *, 8> Take, From, To;
  for (unsigned K = 0; K < PerThread; ++K) {
    Value *Index =
        K == 0 ? UnitLane
               : B.CreateAdd(B.CreateMul(UnitThreads,
                                         ConstantInt::get(UnitTy, K), "",
                                         /*HasNUW=*/true, /*HasNSW=*/true),
                             UnitLane, "coalda.u", /*HasNUW=*/true,
                             /*HasNSW=*/true);
    Value *Go = Guarded ? B.CreateICmpULT(Index, Units, "coalda.u.in") : nullptr;
    if (Masked) {
      Value *Stored = unitStored(B, Index, U, *Masked);
      Go = Go ? B.CreateAnd(Go, Stored) : Stored;
    }
    Take.push_back(Go);
    Value *Off = unitOffset(B, Index, U);
    Value *G = B.CreateGEP(I8, Global, Off), *T = B.CreateGEP(I8, Tile, Off);
    From.push_back(ToTile ? G : T);
    To.push_back(ToTile ? T : G);
  }
  // Body(builder) under Cond, when there is one (emitUnder).
  auto Under = [&](Value *Cond, const char *Name,
                   function_ref<Value *(IRBuilder<> &)> Body) -> Value * {
    if (!Cond)
      return Body(B);
    return emitUnder(B, Cond, Name, "coalda.u.v",
                     B.GetInsertBlock()->getNextNode(), Body);
  };
  SmallVector<Value *, 8> Loaded;
  for (unsigned K = 0; K < PerThread; ++K)
    Loaded.push_back(
        Under(Take[K], "coalda.u.ld", [&](IRBuilder<> &LB) -> Value * {
          return LB.CreateAlignedLoad(Unit, From[K], Align(U));
        }));
  for (unsigned K = 0; K < PerThread; ++K)
    Under(Take[K], "coalda.u.st", [&](IRBuilder<> &SB) -> Value * {
      SB.CreateAlignedStore(Loaded[K], To[K], Align(U));
      return nullptr;
    });
}

} // namespace coalda
