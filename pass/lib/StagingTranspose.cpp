//===- StagingTranspose.cpp - The staging emitter: transposed stores ------===//
//
// The staging emitter's transposed stores (`out[x*M + y]` from a 2-D block,
// StagedArray::Transposed): each thread stores its value (and, unless the
// address is recomputed, its address) into its slot y*(ntid.x+1) + x of the
// tile, the padding column avoiding bank conflicts; after the barrier thread
// q = tid.y*ntid.x + tid.x stores the pair of slot (q / ntid.y, q % ntid.y),
// read down the tile's columns, so that consecutive threads store
// consecutive addresses of one column piece. A read-modify-written element
// is loaded the same way round in the load phase (loadTransposedElements).
// Only blocks of more than one warp and more than one row are permuted
// (transposeFits).
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "SourceNames.h"
#include "StagingEmitterImpl.h"
#include "ThreadFunctions.h"

#include "llvm/IR/Instructions.h"

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;

namespace coalda {

/// A 2-D block (rows to permute) of at most the tiles' threads, and more
/// than one warp: permuting within a single warp leaves the set of
/// addresses each warp touches as it was (Rodinia's 4x4 blocks), so such a
/// block runs the original code. A transposed read-modify-write also needs
/// rows of at least a warp (cost rule): in narrower blocks a warp's column
/// spans half as many sectors already, and the load phase and barriers cost
/// what the permutation gains (Rodinia's Fan2 at 16x16: 0.91-0.97x; 2.74x
/// at 32x8).
Value *StagingEmitter::transposeFits(IRBuilder<> &B) {
  Value *X = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Value *Y = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *Threads = B.CreateMul(X, Y);
  // One statement per compare, in a fixed order (a call's arguments are
  // evaluated in an order of the compiler's choosing).
  Value *FlatZ = B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z),
                                B.getInt32(1));
  Value *Rows = B.CreateAnd(B.CreateICmpUGT(Y, B.getInt32(1)), FlatZ);
  Value *MoreThanAWarp = B.CreateICmpUGT(Threads, B.getInt32(32));
  Value *Size = B.CreateAnd(B.CreateICmpULE(Threads, B.getInt32(P.Capacity)),
                            MoreThanAWarp);
  Value *Fits = B.CreateAnd(Size, Rows, "coalda.fits");
  bool ReadModifyWrite = any_of(
      C.Arrays, [](const StagedArray &A) { return A.Loaded && A.Written; });
  if (!ReadModifyWrite || !opts::CostRules)
    return Fits;
  return B.CreateAnd(Fits, B.CreateICmpUGE(X, B.getInt32(32)),
                     "coalda.fits.rows");
}

Value *StagingEmitter::slotOf(IRBuilder<> &B, Value *X, Value *Y) {
  Value *Pitch = B.CreateAdd(Ntid, B.getInt64(1));
  return B.CreateAdd(B.CreateMul(Y, Pitch), X, "coalda.slot");
}

/// The thread's store goes to its slot of the value tile, with its address
/// beside it in the address tile.
void StagingEmitter::redirectTransposed(IRBuilder<> &B) {
  loadTransposedElements(B);
  Value *Y = B.CreateZExt(sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_y), I64);
  Value *Slot = slotOf(B, Tid, Y);
  for (auto [A, Tile, Addresses] : zip(C.Arrays, Tiles, AddressTiles)) {
    auto *S = cast<StoreInst>(A.Accesses.front()->Inst);
    Value *Mine = B.CreateGEP(I8, Tile, B.CreateMul(Slot, B.getInt64(A.Stride)),
                              "coalda.mine." + irLabel(A.Base));
    Originals.push_back(
        {S->getAlign(), S->getPointerOperandType(), S->getPointerOperand()});
    if (!A.AddressComputed) {
      Value *MyAddress =
          B.CreateGEP(I8, Addresses, B.CreateMul(Slot, B.getInt64(8)));
      IRBuilder<> SB(S);
      SB.CreateAlignedStore(S->getPointerOperand(), MyAddress, Align(8));
    }
    S->setOperand(StoreInst::getPointerOperandIndex(), Mine);
    S->setAlignment(commonAlignment(Align(16), A.Stride));
    // A read-modify-write reads its element from the slot the load phase
    // filled (and, after its store, the value it stored there).
    for (const AccessExpr *M : drop_begin(A.Accesses)) {
      auto *L = cast<LoadInst>(M->Inst);
      L->setOperand(LoadInst::getPointerOperandIndex(), Mine);
      L->setAlignment(commonAlignment(Align(16), A.Stride));
    }
  }
}

/// The owner of the slot thread q moves: (q / ntid.y, q % ntid.y), so that
/// consecutive threads move consecutive addresses of one column piece.
std::pair<Value *, Value *> StagingEmitter::ownerOf(IRBuilder<> &B) {
  // In 32 bits: q < 1024, and a 64-bit division is a long call on the GPU.
  Value *Y = sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_y);
  Value *Rows = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y);
  Value *X = sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value *Q = B.CreateAdd(
      B.CreateMul(Y, sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x)), X,
      "coalda.q");
  return {B.CreateUDiv(Q, Rows, "coalda.owner.x"),
          B.CreateURem(Q, Rows, "coalda.owner.y")};
}

/// A read-modify-written transposed element: thread q loads the element of
/// the slot's owner (its address recomputed) into the slot, then a barrier;
/// the owner's loads then read the slot (redirectTransposed).
void StagingEmitter::loadTransposedElements(IRBuilder<> &B) {
  bool Any = false;
  for (auto [A, Tile] : zip(C.Arrays, Tiles)) {
    if (!A.Loaded)
      continue;
    if (!Any)
      std::tie(LoadOwnerX, LoadOwnerY) = ownerOf(B);
    Any = true;
    auto *L = cast<LoadInst>(A.Accesses[1]->Inst);
    Value *Address = cloneForThread(L->getPointerOperand(), LoadOwnerX,
                                    LoadOwnerY, &*B.GetInsertPoint());
    Value *V = B.CreateAlignedLoad(L->getType(), Address, L->getAlign(),
                                   "coalda.owner.value");
    Value *OwnerY = B.CreateZExt(LoadOwnerY, I64);
    Value *Slot = slotOf(B, B.CreateZExt(LoadOwnerX, I64), OwnerY);
    B.CreateAlignedStore(
        V, B.CreateGEP(I8, Tile, B.CreateMul(Slot, B.getInt64(A.Stride))),
        commonAlignment(Align(16), A.Stride));
  }
  if (Any)
    barrier(B);
}

/// After the barrier, thread q of the block (q = tid.y*ntid.x + tid.x) stores
/// the pair of slot (q / ntid.y, q % ntid.y) read down the tile's columns:
/// consecutive threads store consecutive addresses of one column piece.
void StagingEmitter::emitTransposeStores() {
  BasicBlock *Store = storeBlock();
  IRBuilder<> B(Store->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  barrier(B);
  auto [OwnerX, OwnerY] = ownerOf(B);
  Value *OwnerY64 = B.CreateZExt(OwnerY, I64);
  Value *Slot = slotOf(B, B.CreateZExt(OwnerX, I64), OwnerY64);
  for (auto [A, Tile, Addresses, Original] :
       zip(C.Arrays, Tiles, AddressTiles, Originals)) {
    auto *S = cast<StoreInst>(A.Accesses.front()->Inst);
    // The slot's owner stored to this address: recomputed with its thread
    // index where the address is a thread function, else read back.
    Value *Address =
        A.AddressComputed
            ? cloneForThread(Original.Address, OwnerX, OwnerY,
                             &*B.GetInsertPoint())
            : B.CreateAlignedLoad(
                  Original.AddressType,
                  B.CreateGEP(I8, Addresses, B.CreateMul(Slot, B.getInt64(8))),
                  Align(8), "coalda.address");
    Value *V = B.CreateAlignedLoad(
        S->getValueOperand()->getType(),
        B.CreateGEP(I8, Tile, B.CreateMul(Slot, B.getInt64(A.Stride))),
        commonAlignment(Align(16), A.Stride), "coalda.value");
    B.CreateAlignedStore(V, Address, Original.Alignment);
  }
  if (P.TrailingBarrier)
    barrier(B);
}

} // namespace coalda
