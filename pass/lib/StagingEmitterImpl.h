//===- StagingEmitterImpl.h - The staging emitter's class -------*- C++ -*-===//
//
// Private to the staging emitter: the StagingEmitter class, whose member
// functions are defined by what they emit, in
//
//   StagingEmitter.cpp    the core: the region split off and cloned, the
//                         tiles, the load and store phases, the barriers
//   StagingGo.cpp         go, the test that picks the staged path
//   StagingRowCopy.cpp    a row's copy between global memory and a tile
//   StagingTranspose.cpp  transposed stores: the permutation through the
//                         tile
//
// StagingEmitter.cpp documents the scheme.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_STAGINGEMITTERIMPL_H
#define COALDA_LIB_STAGINGEMITTERIMPL_H

#include "IRUtils.h"
#include "Staging.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class DominatorTree;
class GlobalVariable;
} // namespace llvm

namespace coalda {

/// Stages one legal candidate: emit() rewrites its kernel.
class StagingEmitter {
public:
  StagingEmitter(const StagingCandidate &C, const StagingPlan &P)
      : C(C), P(P), F(C.Block->getParent()), Ctx(F->getContext()),
        Loc(C.Arrays.front().Accesses.front()->Inst->getDebugLoc()),
        I64(llvm::Type::getInt64Ty(Ctx)), I8(llvm::Type::getInt8Ty(Ctx)) {}

  std::string emit();

private:
  const StagingCandidate &C;
  const StagingPlan &P;
  llvm::Function *F;
  llvm::LLVMContext &Ctx;
  llvm::DebugLoc Loc;
  llvm::Type *I64, *I8;

  llvm::BasicBlock *Pre = nullptr, *Entry = nullptr, *Merge = nullptr;
  llvm::BasicBlock *LoadBlock = nullptr; ///< the staged path's first block
  llvm::SmallVector<llvm::BasicBlock *, 8> Region;
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> InRegion;
  std::vector<llvm::Value *> Elements; ///< each array's element start, at Pre
  std::vector<llvm::GlobalVariable *> Tiles;
  llvm::Value *Tid = nullptr, *Ntid = nullptr; ///< i64 in the Load block
  /// The row a thread helps move: the block's (RowLane = tid.x, of ntid.x
  /// threads) or, in a warp tile, its warp's (tid.x & 31, of 32), whose
  /// slice of each tile starts at byte S_j*(tid.x & ~31) (WarpFirst).
  llvm::Value *RowLane = nullptr, *WarpFirst = nullptr;
  /// Bytes per thread of a warp's slice when not the array's own stride:
  /// arrays in turn share one tile, and each warp keeps one slice for all
  /// of them (the largest element's 32 slots), since warps go through the
  /// arrays at their own pace (0: the array's stride).
  int64_t SliceStride = 0;
  /// RowLane and the row's threads in the row copies' unit index type,
  /// UnitTy: a row's bytes fit its tile (at most 48 KB), so i32 unless
  /// -coalda-stage-index32=false.
  llvm::Type *UnitTy = nullptr;
  llvm::Value *UnitLane = nullptr, *UnitThreads = nullptr;
  /// Pre's branch on the block's shape, in front of the vote (when any).
  llvm::BranchInst *FitsBranch = nullptr;

  // The core (StagingEmitter.cpp).
  void split();
  llvm::BasicBlock *cloneRegion(llvm::Value *Go);
  void makeTiles();
  void emitLoadPhase();
  /// A condition the region's first block runs under, and the value of it
  /// that lets it run.
  using Test = std::pair<llvm::Value *, bool>;
  llvm::SmallVector<llvm::LoadInst *, 8>
  earlyLoads(llvm::SmallVectorImpl<Test> &Tests);
  void emitEarlyLoads(llvm::IRBuilder<> &B);
  void redirectAccesses(llvm::BasicBlock *Load);
  void emitStorePhase();
  void emitArraysInTurn();
  llvm::Value *valueAtStore(llvm::StoreInst *S, llvm::BasicBlock *Store);
  llvm::BasicBlock *storeBlock();
  /// The block's barrier, or the warp's in a warp tile (memory ordering
  /// among its 32 threads, all of which take the staged path together).
  void barrier(llvm::IRBuilder<> &B) {
    if (P.WarpTile)
      B.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {},
                        {B.getInt32(-1)});
    else
      B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
  }
  std::string warpReason() const;
  /// What the staging did, for people: by its kind.
  std::string describeElements(bool Warp) const;
  std::string describeTransposed() const;
  llvm::Value *sreg(llvm::IRBuilder<> &B, llvm::Intrinsic::ID ID) {
    return B.CreateIntrinsic(ID, {}, {});
  }
  bool indexReadsRows() const;

  // go (StagingGo.cpp).
  llvm::Value *computeGo();
  llvm::Value *checksHold(llvm::IRBuilder<> &B, llvm::DominatorTree &DT,
                          llvm::DenseMap<llvm::Value *, llvm::Value *> &Clones);
  llvm::Value *uniformGo(llvm::IRBuilder<> &B, llvm::DominatorTree &DT,
                         llvm::DenseMap<llvm::Value *, llvm::Value *> &Clones);
  llvm::Value *
  everyLanePasses(llvm::IRBuilder<> &B, const StagingPlan::GoPart &Part,
                  llvm::DominatorTree &DT,
                  llvm::DenseMap<llvm::Value *, llvm::Value *> &Clones);
  llvm::Value *uniformApart(llvm::IRBuilder<> &B,
                            const StagingPlan::UniformCheck &Check);
  llvm::Value *rowsFit(llvm::IRBuilder<> &B);
  llvm::Value *iterationFull(llvm::IRBuilder<> &B);
  llvm::Value *warpGo(llvm::IRBuilder<> &B, llvm::Value *Go);
  llvm::Value *oneRow(llvm::IRBuilder<> &B, llvm::Value *Mask);

  // Transposed stores (StagingTranspose.cpp).
  llvm::Value *transposeFits(llvm::IRBuilder<> &B);
  void emitTransposeStores();
  void redirectTransposed(llvm::IRBuilder<> &B);
  std::pair<llvm::Value *, llvm::Value *> ownerOf(llvm::IRBuilder<> &B);
  void loadTransposedElements(llvm::IRBuilder<> &B);
  llvm::Value *LoadOwnerX = nullptr, *LoadOwnerY = nullptr;
  /// A transposed store's slot, y*(ntid.x+1) + x, and the address tiles.
  llvm::Value *slotOf(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y);
  std::vector<llvm::GlobalVariable *> AddressTiles;
  /// Each transposed store's own alignment, address type and address.
  struct OriginalStore {
    llvm::Align Alignment;
    llvm::Type *AddressType;
    llvm::Value *Address;
  };
  std::vector<OriginalStore> Originals;

  // Row copies (StagingRowCopy.cpp).
  void emitRowCopy(llvm::IRBuilder<> &B, llvm::Value *Element,
                   llvm::GlobalVariable *Tile, const StagedArray &A,
                   bool ToTile);
  void emitUnitLoop(llvm::IRBuilder<> &B, llvm::Value *Global,
                    llvm::Value *Tile, unsigned U, llvm::Value *FromByte,
                    llvm::Value *ToByte, bool ToTile,
                    const StagedArray *Masked);
  void emitUnrolledUnits(llvm::IRBuilder<> &B, llvm::Value *Global,
                         llvm::Value *Tile, unsigned U, unsigned PerThread,
                         llvm::Value *Units, bool Guarded, bool ToTile,
                         const StagedArray *Masked);
  /// A staged row's 8-byte units are <2 x i32>, the others copyUnitType's.
  llvm::Type *unitType(unsigned U) {
    return U == 8 ? llvm::FixedVectorType::get(llvm::Type::getInt32Ty(Ctx), 2)
                  : copyUnitType(Ctx, U);
  }
  llvm::Value *unitOffset(llvm::IRBuilder<> &B, llvm::Value *K, unsigned U) {
    return B.CreateZExt(B.CreateMul(K, llvm::ConstantInt::get(UnitTy, U), "",
                                    /*HasNUW=*/true, /*HasNSW=*/true),
                        I64, "", /*IsNonNeg=*/true);
  }
  llvm::Value *unitStored(llvm::IRBuilder<> &B, llvm::Value *K, unsigned U,
                          const StagedArray &A);
};

} // namespace coalda

#endif // COALDA_LIB_STAGINGEMITTERIMPL_H
