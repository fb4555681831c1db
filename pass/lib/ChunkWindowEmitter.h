//===- ChunkWindowEmitter.h - The chunk windows' emitter --------*- C++ -*-===//
//
// Private to the chunk windows' emission: the emitter's state and steps,
// defined in ChunkWindowEmitter.cpp (load windows, the vote, versioning)
// and StoreWindowEmitter.cpp (store windows). The scheme is documented in
// ChunkWindow.cpp and StoreWindow.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_CHUNKWINDOWEMITTER_H
#define COALDA_LIB_CHUNKWINDOWEMITTER_H

#include "Staging.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

namespace coalda {

using llvm::AllocaInst;
using llvm::Align;
using llvm::BasicBlock;
using llvm::DebugLoc;
using llvm::DenseMap;
using llvm::Function;
using llvm::function_ref;
using llvm::GlobalVariable;
using llvm::Instruction;
using llvm::IRBuilder;
using llvm::LLVMContext;
using llvm::LoadInst;
using llvm::Loop;
using llvm::SmallVector;
using llvm::Twine;
using llvm::Type;
using llvm::Value;
namespace Intrinsic = llvm::Intrinsic;

class WindowEmitter {
public:
  WindowEmitter(const StagingCandidate &C, const StagingPlan &P)
      : C(C), P(P), F(P.VoteBlock->getParent()), Ctx(F->getContext()),
        I8(Type::getInt8Ty(Ctx)), I64(Type::getInt64Ty(Ctx)),
        Loc(C.Arrays.front().Accesses.front()->Inst->getDebugLoc()) {}

  std::string emit();

private:
  /// What the emitter keeps per windowed array.
  struct ArrayState {
    GlobalVariable *Tile = nullptr;
    AllocaInst *Start = nullptr;  ///< row 0's window start (an address)
    AllocaInst *Length = nullptr; ///< bytes in the window; 0: none yet
    Value *Stride = nullptr;      ///< S, i64
    DenseMap<const Loop *, Value *> Limit; ///< row 0's end, per site loop
    /// A site read by induction: its induction variable's last value.
    DenseMap<const AccessExpr *, Value *> IVLast;
    /// A window refilled per iteration: the thread's own address of the
    /// record, expanded at the top of its refill block.
    Value *Record = nullptr;
    /// What a refill's loads may assume of the array's addresses: the
    /// least alignment of its accesses, taken before emitSite erases them.
    Align GlobalAlign;
    /// A store window: the thread's address of the open window's start,
    /// and where its stores were (they are erased before its way out).
    AllocaInst *Own = nullptr;
    DebugLoc StoreLoc;
  };
  /// A store window's loop exit, taken before emission splits blocks: the
  /// exiting branch and the block it leaves to.
  DenseMap<unsigned, std::pair<Instruction *, BasicBlock *>> ExitEdge;

  const StagingCandidate &C;
  const StagingPlan &P;
  Function *F;
  LLVMContext &Ctx;
  Type *I8, *I64;
  DebugLoc Loc;
  std::vector<ArrayState> States;
  Value *Go = nullptr, *Tid = nullptr, *Ntid = nullptr;
  /// The vote's block-uniform part (launch shape, row length) and the
  /// thread's own (it takes the way to the loops).
  Value *Fits = nullptr, *Active = nullptr;
  /// The store windows run (block-uniform, decided apart from go so that
  /// a store window that does not qualify leaves the load windows theirs):
  /// whole warps, the stored rows long enough, the range checks.
  Value *StoreGo = nullptr;
  /// A loop's block on its edge out, where its store windows write back.
  DenseMap<const Loop *, BasicBlock *> LoopExit;

  void vote();
  Value *voteOn(IRBuilder<> &B, Value *Cond);
  void voteOnRows(IRBuilder<> &B, const StagedArray &A, Value *Stride,
                  Value *&Into);
  void expandLimits();
  void version();
  void emitSite(unsigned AI, const WindowSite &S);
  void emitIterationRefill(unsigned AI);
  Value *readOwnRow(IRBuilder<> &B, unsigned AI, LoadInst *Ld);
  Value *ownSlot(IRBuilder<> &B, unsigned AI, Value *Ptr);
  void moveRows(IRBuilder<> &B, unsigned AI, Value *Own, Value *Bytes);
  void moveRecords(IRBuilder<> &B, unsigned AI);
  void flatUnits(IRBuilder<> &B, unsigned AI, Value *Own,
                 function_ref<void(Value *Global, Value *Slot)> Each);
  void checkRanges(IRBuilder<> &B);
  std::pair<Value *, Value *> blockRange(IRBuilder<> &B, unsigned AI,
                                         const Loop *L);
  void emitStoreOpen(unsigned AI);
  void emitStoreSite(unsigned AI, const WindowSite &S);
  void emitStoreExit(unsigned AI);
  BasicBlock *writeBack(BasicBlock *At, unsigned AI);
  void writeBackPart(BasicBlock *At, unsigned AI, Value *Filled,
                     BasicBlock *Done);
  void openWindow(IRBuilder<> &B, unsigned AI, Value *Row0, Value *Bytes);
  void emitRefill(IRBuilder<> &B, unsigned AI, const WindowSite &S, Value *Row0,
                  BasicBlock *Done);
  void emitWriteThrough(Instruction *St);
  std::string describe() const;
  void mirrorBytes(BasicBlock *At, unsigned AI, Value *Offset, Value *Bits,
                   unsigned Bytes, BasicBlock *Done);

  Value *sreg(IRBuilder<> &B, Intrinsic::ID ID) {
    return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), I64);
  }
  /// The refill's barrier: the block's, or the warp's (memory ordering
  /// among its 32 threads, which all take the windowed code together).
  Instruction *barrier(IRBuilder<> &B) {
    if (P.Scope == WindowScope::Warp)
      return B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {},
                               {B.getInt32(-1)});
    return B.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
  }
  /// A store window's barrier: only the warp reads and writes its rows.
  void warpBarrier(IRBuilder<> &B) {
    B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {B.getInt32(-1)});
  }
  /// Bytes from one thread's row of array AI's tile to the next: its own
  /// window's, or the longest of the arrays that share the tile.
  uint64_t pitch(unsigned AI) const {
    return P.ArraysInTurn ? C.windowBytesPerThread(true)
                          : C.Arrays[AI].windowPitch();
  }
  uint64_t width(unsigned AI) const {
    return C.Arrays[AI].Accesses.front()->Width;
  }
  BasicBlock *block(const Twine &Name, BasicBlock *Before) {
    return BasicBlock::Create(Ctx, "coalda.window." + Name, F, Before);
  }
};

} // namespace coalda

#endif // COALDA_LIB_CHUNKWINDOWEMITTER_H
