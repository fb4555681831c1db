//===- GridVariantTile.cpp - A transpose's variant: 32x32 tiles ----------===//
//
// Issue 40's "transposes get a 32x32 tile per 32x8 block (4 virtual
// blocks)". A naive transpose, `out[x*M + y] = f(in[y*N + x])` with x and y
// the thread's 2-D grid index, is staged by the default rewrite within its
// block: at 32x8 a warp then stores 8 consecutive elements of a column, one
// 32-byte sector, and the kernel stops at 48% of cudaMemcpy on the H200
// (docs/benchmarks.md). Written down a 32x32 tile, a warp stores 32
// consecutive elements of a column, a whole 128-byte line. The tile is
// 32/blockDim.x by 32/blockDim.y original blocks, which one block of the
// variant runs in turn (4 at 32x8 and 16x16):
//
//   K__coalda_grid(args..., unsigned Gx, unsigned Gy):   // on the grid
//                    (ceil(Gx / C), ceil(Gy / R), gridDim.z), C = 32/ntid.x,
//                    R = 32/ntid.y, the same block
//     for k in [0, C*R):
//       vb = (blockIdx.x*C + k%C, blockIdx.y*R + k/C)      // a virtual block
//       slot = (k/C*ntid.y + tid.y)*33 + k%C*ntid.x + tid.x
//       address[slot] = null
//       if vb is in the original grid (Gx by Gy):
//         K's body with blockIdx.x,y read as vb and gridDim.x,y as Gx, Gy,
//         its one store replaced by value[slot] = v, address[slot] = p
//     __syncthreads()
//     for j in [0, C*R):                      // the tile's columns, in turn
//       w = j*ntid.x*ntid.y + tid.y*ntid.x + tid.x
//       s = (w % 32)*33 + w / 32              // 32 threads down a column
//       if address[s]: *address[s] = value[s]
//
// The host half launches it only for blocks whose x and y sizes are powers
// of two up to 32, with z of 1 and at most 512 threads (LaunchGrid.cpp), so
// that the slots of a block's virtual threads are the tile's 1024, each
// once. The 33-element pitch keeps both phases free of bank conflicts.
//
// Why it computes the same bytes: each thread of the original grid runs
// once, as one virtual thread, with its own indices, and stores what it
// stored to where it stored it; only the store is later. What
// findKernelTileTranspose proves, on the kernel before its rewrite, makes
// that a schedule of the original:
//   - the only rewrite is one staging of a transposed store (so the store
//     runs at most once per thread) and nothing else writes memory but the
//     thread's own private variables;
//   - no load but of private memory can run after the store (the thread
//     reads nothing it could have written itself);
//   - no barrier, warp operation, atomic, volatile access or call but of
//     special registers and pure intrinsics, and no shared memory: the
//     original's threads do not wait for one another, so running a block's
//     loads before any of its stores is an order they may run in;
//   - of the special registers, only the thread's and block's indices and
//     sizes (x and y of the block's index and the grid's size are read
//     anew);
//   - no loop (GridVariant.cpp's shape rule) and no cluster shape.
//
//===----------------------------------------------------------------------===//

#include "GridVariant.h"
#include "Staging.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-grid-variant"

using namespace llvm;

STATISTIC(NumTileVariants, "Grid variants that transpose through 32x32 tiles");

namespace coalda {
namespace {

/// The tile's side, and its rows' pitch in elements.
constexpr unsigned TileSide = 32;
constexpr unsigned TilePitch = TileSide + 1;

/// The one transposed store the only legal rewrite stages, or null.
StoreInst *onlyTransposedStore(ArrayRef<GroupOutcome> Groups,
                               ArrayRef<StagingOutcome> Stagings) {
  if (any_of(Groups, [](const GroupOutcome &O) { return O.legal(); }))
    return nullptr;
  const StagingOutcome *Only = nullptr;
  for (const StagingOutcome &O : Stagings)
    if (O.legal()) {
      if (Only)
        return nullptr;
      Only = &O;
    }
  if (!Only || Only->Candidate.Arrays.size() != 1)
    return nullptr;
  const StagedArray &A = Only->Candidate.Arrays.front();
  if (!A.Transposed || A.Loaded || !A.Written || A.Accesses.size() != 1)
    return nullptr;
  auto *S = dyn_cast<StoreInst>(A.Accesses.front()->Inst);
  return S && S->isSimple() ? S : nullptr;
}

bool isPrivate(const Value *Pointer) {
  return isa<AllocaInst>(getUnderlyingObject(Pointer));
}

/// A special register the variant reads as the original did, or reads
/// anew (x and y of the block's index and the grid's size).
bool isIndexRegister(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return true;
  default:
    return false;
  }
}

/// Whether I is allowed beside the store: private memory, loads, index
/// registers and pure intrinsics.
bool allowedBeside(const Instruction &I, const StoreInst &S) {
  if (&I == &S || isa<DbgInfoIntrinsic>(I) || isa<AssumeInst>(I) ||
      I.isLifetimeStartOrEnd())
    return true;
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    const Function *Callee = Call->getCalledFunction();
    if (!Callee || !Callee->isIntrinsic() || Call->isConvergent())
      return false;
    return isIndexRegister(Callee->getIntrinsicID()) ||
           (!Call->mayReadOrWriteMemory() && !Call->mayHaveSideEffects());
  }
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isSimple();
  if (auto *Store = dyn_cast<StoreInst>(&I))
    return Store->isSimple() && isPrivate(Store->getPointerOperand());
  return !I.mayReadOrWriteMemory() && !I.mayHaveSideEffects();
}

/// Whether a load of memory other than the thread's private variables can
/// run after S (F has no loop: the blocks after S's are S's successors').
bool readsAfter(const StoreInst &S) {
  auto ReadsShared = [](const Instruction &I) {
    auto *Load = dyn_cast<LoadInst>(&I);
    return I.mayReadFromMemory() &&
           !(Load && isPrivate(Load->getPointerOperand()));
  };
  for (const Instruction *I = S.getNextNode(); I; I = I->getNextNode())
    if (ReadsShared(*I))
      return true;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work(succ_begin(S.getParent()),
                                          succ_end(S.getParent()));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second)
      continue;
    if (any_of(*BB, ReadsShared))
      return true;
    append_range(Work, successors(BB));
  }
  return false;
}

/// Whether F names shared memory (addrspace 3).
bool namesSharedMemory(const Function &F) {
  for (const Instruction &I : instructions(F))
    for (const Value *Op : I.operands())
      if (auto *P = dyn_cast<PointerType>(Op->getType());
          P && P->getAddressSpace() == 3)
        return true;
  return false;
}

/// Whether the store's value fits a tile slot: 1 to 16 bytes, a power of
/// two, stored whole, and its address 64 bits.
bool fitsSlot(const StoreInst &S) {
  const DataLayout &DL = S.getModule()->getDataLayout();
  Type *Ty = S.getValueOperand()->getType();
  if (!Ty->isSized() || Ty->isStructTy() || Ty->isArrayTy())
    return false;
  uint64_t Bytes = DL.getTypeStoreSize(Ty);
  return Bytes == DL.getTypeAllocSize(Ty) && isPowerOf2_64(Bytes) &&
         Bytes <= 16 &&
         DL.getPointerSizeInBits(S.getPointerAddressSpace()) == 64;
}

/// A tile of TilePitch x TileSide elements of Ty in shared memory.
GlobalVariable *tileOf(Module &M, Type *Ty, const Twine &Name) {
  auto *ArrayTy = ArrayType::get(Ty, uint64_t(TileSide) * TilePitch);
  auto *Tile = new GlobalVariable(M, ArrayTy, false,
                                  GlobalValue::InternalLinkage,
                                  UndefValue::get(ArrayTy), Name, nullptr,
                                  GlobalValue::NotThreadLocal, 3);
  Tile->setAlignment(M.getDataLayout().getABITypeAlign(Ty));
  return Tile;
}

Value *readRegister(IRBuilder<> &B, Intrinsic::ID ID, const Twine &Name) {
  return B.CreateIntrinsic(ID, {}, {}, nullptr, Name);
}

/// What the loop over virtual blocks gives the body.
struct VirtualBlock {
  Value *X = nullptr, *Y = nullptr; ///< the original block's index
  Value *Slot = nullptr;            ///< the virtual thread's tile slot
};

/// The loop's head: virtual block K's indices and the thread's slot;
/// clears the slot's address and skips a virtual block outside Gx x Gy.
VirtualBlock enterVirtualBlock(IRBuilder<> &B, Value *K, Value *Across,
                               Value *Gx, Value *Gy, Value *Addresses,
                               BasicBlock *Body, BasicBlock *Next) {
  Value *Nx = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, "tile.nx");
  Value *Ny = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y, "tile.ny");
  Value *Tx = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_x, "tile.tx");
  Value *Ty = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_y, "tile.ty");
  Value *Down = B.CreateUDiv(B.getInt32(TileSide), Ny, "tile.rows");
  Value *Col = B.CreateURem(K, Across, "tile.col");
  Value *Row = B.CreateUDiv(K, Across, "tile.row");
  VirtualBlock V;
  V.X = B.CreateAdd(
      B.CreateMul(readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x, ""),
                  Across),
      Col, "tile.vx");
  V.Y = B.CreateAdd(
      B.CreateMul(readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_y, ""),
                  Down),
      Row, "tile.vy");
  Value *X = B.CreateAdd(B.CreateMul(Col, Nx), Tx);
  Value *Y = B.CreateAdd(B.CreateMul(Row, Ny), Ty);
  V.Slot = B.CreateZExt(
      B.CreateAdd(B.CreateMul(Y, B.getInt32(TilePitch)), X), B.getInt64Ty(),
      "tile.slot");
  B.CreateStore(B.getInt64(0),
                B.CreateGEP(B.getInt64Ty(), Addresses, V.Slot));
  Value *Inside = B.CreateAnd(B.CreateICmpULT(V.X, Gx),
                              B.CreateICmpULT(V.Y, Gy), "tile.inside");
  B.CreateCondBr(Inside, Body, Next);
  return V;
}

/// The block-index and grid-size reads of x and y in V become the virtual
/// block's and the original grid's.
void readVirtualIndices(const VirtualBlock &VB, Value *Gx,
                        Value *Gy, ArrayRef<IntrinsicInst *> Reads) {
  for (IntrinsicInst *Read : Reads) {
    Value *With = nullptr;
    switch (Read->getIntrinsicID()) {
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
      With = VB.X;
      break;
    case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
      With = VB.Y;
      break;
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      With = Gx;
      break;
    default:
      With = Gy;
    }
    Read->replaceAllUsesWith(With);
    Read->eraseFromParent();
  }
}

/// The store goes to the thread's slot: its value, and its address as an
/// integer (0 marks a slot whose virtual thread stored nothing).
void redirectStore(StoreInst &S, Value *Slot, GlobalVariable *Values,
                   GlobalVariable *Addresses) {
  IRBuilder<> B(&S);
  Value *V = S.getValueOperand();
  B.CreateStore(V, B.CreateGEP(V->getType(), Values, Slot));
  B.CreateStore(B.CreatePtrToInt(S.getPointerOperand(), B.getInt64Ty()),
                B.CreateGEP(B.getInt64Ty(), Addresses, Slot));
}

/// After the barrier: the tile's slots stored down its columns, the block's
/// threads 32 to a column.
/// The stores are of ValTy through pointers of PtrTy, aligned to A.
struct SlotStore {
  Type *ValTy = nullptr;
  Type *PtrTy = nullptr;
  Align A;
};

void writeTileBack(IRBuilder<> &B, const SlotStore &S, Value *Count,
                   GlobalVariable *Values, GlobalVariable *Addresses) {
  Function &V = *B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = V.getContext();
  Type *I64 = B.getInt64Ty();
  Value *Nx = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, "");
  Value *Ny = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y, "");
  Value *Q = B.CreateAdd(
      B.CreateMul(readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_y, ""),
                  Nx),
      readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_x, ""), "tile.q");
  Value *Threads = B.CreateMul(Nx, Ny, "tile.threads");
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Head = BasicBlock::Create(Ctx, "tile.out", &V);
  BasicBlock *Store = BasicBlock::Create(Ctx, "tile.out.store", &V);
  BasicBlock *Next = BasicBlock::Create(Ctx, "tile.out.next", &V);
  BasicBlock *Done = BasicBlock::Create(Ctx, "tile.done", &V);
  B.CreateBr(Head);

  B.SetInsertPoint(Head);
  PHINode *J = B.CreatePHI(B.getInt32Ty(), 2, "tile.j");
  J->addIncoming(B.getInt32(0), Pre);
  Value *W = B.CreateAdd(B.CreateMul(J, Threads), Q);
  Value *Slot = B.CreateZExt(
      B.CreateAdd(B.CreateMul(B.CreateURem(W, B.getInt32(TileSide)),
                              B.getInt32(TilePitch)),
                  B.CreateUDiv(W, B.getInt32(TileSide))),
      I64, "tile.out.slot");
  Value *Address =
      B.CreateLoad(I64, B.CreateGEP(I64, Addresses, Slot), "tile.address");
  B.CreateCondBr(B.CreateICmpNE(Address, B.getInt64(0)), Store, Next);

  B.SetInsertPoint(Store);
  Value *Val =
      B.CreateLoad(S.ValTy, B.CreateGEP(S.ValTy, Values, Slot), "tile.value");
  B.CreateAlignedStore(Val, B.CreateIntToPtr(Address, S.PtrTy), S.A);
  B.CreateBr(Next);

  B.SetInsertPoint(Next);
  Value *After = B.CreateAdd(J, B.getInt32(1), "tile.j.next");
  J->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpULT(After, Count), Head, Done);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
}

/// What the original's attributes promised and the variant breaks: it
/// synchronizes (nosync), writes shared memory (memory(argmem: ...)), and
/// keeps each store's address in the tile (nocapture; noalias, whose
/// "based on" an integer round trip may lose).
void loosenAttributes(Function &V) {
  V.removeFnAttr(Attribute::Memory);
  V.removeFnAttr(Attribute::NoSync);
  for (Argument &A : V.args())
    if (A.getType()->isPointerTy()) {
      A.removeAttr(Attribute::NoCapture);
      A.removeAttr(Attribute::NoAlias);
    }
}

} // namespace

std::optional<KernelTileTranspose>
findKernelTileTranspose(Function &F, ArrayRef<GroupOutcome> Groups,
                        ArrayRef<StagingOutcome> Stagings) {
  StoreInst *S = onlyTransposedStore(Groups, Stagings);
  if (!S)
    return std::nullopt;
  if (!F.getReturnType()->isVoidTy() || !fitsSlot(*S) ||
      namesSharedMemory(F) ||
      !all_of(instructions(F),
              [&](const Instruction &I) { return allowedBeside(I, *S); }) ||
      readsAfter(*S)) {
    LLVM_DEBUG(dbgs() << "coalda: no tile variant of " << F.getName()
                      << ": another effect, a read after the store, shared "
                         "memory or a value that does not fit a slot\n");
    return std::nullopt;
  }
  ValueToValueMapTy VMap;
  KernelTileTranspose T;
  T.Variant = cloneWithGridParams(F, {"coalda.grid.x", "coalda.grid.y"}, VMap);
  T.Store = cast<StoreInst>(VMap[S]);
  return T;
}

void emitTileVariant(const KernelTileTranspose &T) {
  Function &V = *T.Variant;
  Module &M = *V.getParent();
  LLVMContext &Ctx = V.getContext();
  Value *Gx = V.getArg(V.arg_size() - 2), *Gy = V.getArg(V.arg_size() - 1);
  GlobalVariable *Values = tileOf(M, T.Store->getValueOperand()->getType(),
                                  V.getName() + ".tile.values");
  GlobalVariable *Addresses =
      tileOf(M, Type::getInt64Ty(Ctx), V.getName() + ".tile.addresses");

  SmallVector<IntrinsicInst *, 4> Reads;
  SmallVector<ReturnInst *, 4> Returns;
  for (Instruction &I : instructions(V)) {
    if (auto *Ret = dyn_cast<ReturnInst>(&I))
      Returns.push_back(Ret);
    if (auto *II = dyn_cast<IntrinsicInst>(&I))
      switch (II->getIntrinsicID()) {
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
      case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
      case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
        Reads.push_back(II);
        break;
      default:
        break;
      }
  }
  BasicBlock *Body = &V.getEntryBlock();
  SmallVector<AllocaInst *, 4> Static;
  for (Instruction &I : *Body)
    if (auto *Alloca = dyn_cast<AllocaInst>(&I);
        Alloca && Alloca->isStaticAlloca())
      Static.push_back(Alloca);
  BasicBlock *Pre = BasicBlock::Create(Ctx, "tile.pre", &V, Body);
  BasicBlock *Head = BasicBlock::Create(Ctx, "tile.block", &V, Body);
  BasicBlock *Next = BasicBlock::Create(Ctx, "tile.next", &V);
  BasicBlock *Out = BasicBlock::Create(Ctx, "tile.write", &V);
  for (AllocaInst *Alloca : Static)
    Alloca->moveBefore(*Pre, Pre->end());

  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(T.Store->getDebugLoc());
  Value *Across = B.CreateUDiv(
      B.getInt32(TileSide),
      readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, ""), "tile.cols");
  Value *Count = B.CreateMul(
      Across,
      B.CreateUDiv(B.getInt32(TileSide),
                   readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y, "")),
      "tile.blocks");
  B.CreateBr(Head);

  B.SetInsertPoint(Head);
  PHINode *K = B.CreatePHI(B.getInt32Ty(), 2, "tile.k");
  K->addIncoming(B.getInt32(0), Pre);
  VirtualBlock VB =
      enterVirtualBlock(B, K, Across, Gx, Gy, Addresses, Body, Next);
  readVirtualIndices(VB, Gx, Gy, Reads);
  SlotStore Kept{T.Store->getValueOperand()->getType(),
                 T.Store->getPointerOperandType(), T.Store->getAlign()};
  redirectStore(*T.Store, VB.Slot, Values, Addresses);
  T.Store->eraseFromParent();
  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Next, Ret);
    Ret->eraseFromParent();
  }

  B.SetInsertPoint(Next);
  Value *After = B.CreateAdd(K, B.getInt32(1), "tile.k.next");
  K->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpULT(After, Count), Head, Out);

  B.SetInsertPoint(Out);
  loosenAttributes(V);
  B.CreateCall(Intrinsic::getDeclaration(&M, Intrinsic::nvvm_barrier0));
  writeTileBack(B, Kept, Count, Values, Addresses);
  ++NumTileVariants;
}

} // namespace coalda
