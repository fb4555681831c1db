//===- GridVariantTile.cpp - A transpose's variant: 32x32 tiles ----------===//
//
// Issue 40's "transposes get a 32x32 tile per 32x8 block (4 virtual
// blocks)". A naive transpose, `out[x*M + y] = f(in[y*N + x])` with x and y
// the thread's 2-D grid index, is staged by the default rewrite within its
// block: at 32x8 a warp then stores 8 consecutive elements of a column, one
// 32-byte sector, and the kernel stops at 48% of cudaMemcpy on the H200
// (docs/benchmarks.md). Written down a 32x32 tile, a warp stores 32
// consecutive elements of a column, a whole 128-byte line. The tile is
// 32/blockDim.x by 32/blockDim.y original blocks, which one block of 256
// threads runs in turn (4 at 32x8, 16x16 and 8x32):
//
//   K__coalda_grid(args..., unsigned Gx, unsigned Gy):   // on the grid
//                    (ceil(Gx / C), ceil(Gy / R), gridDim.z), C = 32/ntid.x,
//                    R = 32/ntid.y, the same block
//     for k in 0..3 (unrolled: four copies of the body):
//       vb = (blockIdx.x*C + k%C, blockIdx.y*R + k/C)      // a virtual block
//       mine[k] = (undefined, null)
//       if vb is in the original grid (Gx by Gy):
//         K's body with blockIdx.x,y read as vb and gridDim.x,y as Gx, Gy,
//         its one store replaced by mine[k] = (v, p)
//     for k in 0..3:                           // slot of the k-th thread
//       s = (k/C*ntid.y + tid.y)*33 + k%C*ntid.x + tid.x
//       value[s], address[s] = mine[k]
//     __syncthreads()
//     for j in 0..3:                           // the tile's columns, in turn
//       w = j*256 + tid.y*ntid.x + tid.x
//       s = (w % 32)*33 + w / 32              // 32 threads down a column
//       if address[s]: *address[s] = value[s]
//
// mine[k] lives in registers: the four copies' loads are then in flight
// together before the first value is used (a loop over k, storing into the
// tile in each iteration, waited for each load in turn: 55% of cudaMemcpy
// on the H200 against 76%, docs/runs/launches/README.md, runs 4 and 5).
// The host half launches it only for blocks of 256 threads whose x and y
// are powers of two up to 32, with z of 1 (LaunchGrid.cpp), so that the
// slots of a block's virtual threads are the tile's 1024, each once. The
// 33-element pitch keeps both phases free of bank conflicts.
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
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"

#define DEBUG_TYPE "coalda-grid-variant"

using namespace llvm;

STATISTIC(NumTileVariants, "Grid variants that transpose through 32x32 tiles");

namespace coalda {
namespace {

/// The tile's side, and its rows' pitch in elements; the blocks it is made
/// for (the run time launches the variant for no other), and the original
/// blocks of such a block's tile.
constexpr unsigned TileSide = 32;
constexpr unsigned TilePitch = TileSide + 1;
constexpr unsigned TileThreads = 256;
constexpr unsigned VirtualBlocks = TileSide * TileSide / TileThreads;

/// The one transposed store the only legal rewrite stages, or null.
StoreInst *onlyTransposedStore(ArrayRef<GroupOutcome> Groups,
                               ArrayRef<StagingOutcome> Stagings) {
  if (any_of(Groups, [](const GroupOutcome &O) { return O.legal(); }))
    return nullptr;
  const StagingOutcome *Only = theOnlyLegal(Stagings);
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

/// One virtual block of the tile: its index in the original grid and its
/// threads' place in the tile, the k-th of VirtualBlocks.
struct VirtualBlock {
  Value *X = nullptr, *Y = nullptr; ///< the original block's index
  Value *Slot = nullptr;            ///< the thread's slot in the tile
  AllocaInst *Value = nullptr;   ///< what the thread stored, and where
  AllocaInst *Address = nullptr; ///< (0: nothing)
};

/// The block's registers the tile's arithmetic reads, read once up front.
struct TileShape {
  Value *Nx, *Ny, *Tx, *Ty, *Across, *Down, *BlockX, *BlockY;
};

TileShape readShape(IRBuilder<> &B) {
  TileShape S;
  S.Nx = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x, "tile.nx");
  S.Ny = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y, "tile.ny");
  S.Tx = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_x, "tile.tx");
  S.Ty = readRegister(B, Intrinsic::nvvm_read_ptx_sreg_tid_y, "tile.ty");
  S.Across = B.CreateUDiv(B.getInt32(TileSide), S.Nx, "tile.cols");
  S.Down = B.CreateUDiv(B.getInt32(TileSide), S.Ny, "tile.rows");
  S.BlockX = B.CreateMul(
      readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_x, ""), S.Across);
  S.BlockY = B.CreateMul(
      readRegister(B, Intrinsic::nvvm_read_ptx_sreg_ctaid_y, ""), S.Down);
  return S;
}

/// Virtual block K's indices and the thread's slot, computed in front of
/// the body (B's block), and its private result, cleared.
VirtualBlock virtualBlock(IRBuilder<> &B, const TileShape &S, unsigned K,
                          AllocaInst *Mine, AllocaInst *MineAt) {
  Value *Col = B.CreateURem(B.getInt32(K), S.Across);
  Value *Row = B.CreateUDiv(B.getInt32(K), S.Across);
  VirtualBlock V;
  V.X = B.CreateAdd(S.BlockX, Col, "tile.vx");
  V.Y = B.CreateAdd(S.BlockY, Row, "tile.vy");
  Value *X = B.CreateAdd(B.CreateMul(Col, S.Nx), S.Tx);
  Value *Y = B.CreateAdd(B.CreateMul(Row, S.Ny), S.Ty);
  V.Slot = B.CreateZExt(
      B.CreateAdd(B.CreateMul(Y, B.getInt32(TilePitch)), X), B.getInt64Ty(),
      "tile.slot");
  V.Value = Mine;
  V.Address = MineAt;
  B.CreateStore(B.getInt64(0), V.Address);
  return V;
}

/// The body's block-index and grid-size reads of x and y become virtual
/// block VB's and the original grid's.
void readVirtualIndices(ArrayRef<BasicBlock *> Body, const VirtualBlock &VB,
                        Value *Gx, Value *Gy) {
  SmallVector<IntrinsicInst *, 8> Reads;
  for (BasicBlock *BB : Body)
    for (Instruction &I : *BB)
      if (auto *II = dyn_cast<IntrinsicInst>(&I))
        Reads.push_back(II);
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
    case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
      With = Gy;
      break;
    default:
      continue;
    }
    Read->replaceAllUsesWith(With);
    Read->eraseFromParent();
  }
}

/// Copies of the body's blocks (Body, the original's, stay the first
/// copy), their values remapped; Store's copy in StoreCopy.
SmallVector<BasicBlock *, 8> cloneBody(ArrayRef<BasicBlock *> Body,
                                       StoreInst &Store, unsigned K,
                                       StoreInst *&StoreCopy) {
  Function &F = *Body.front()->getParent();
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Copy;
  for (BasicBlock *BB : Body) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".tile" + Twine(K), &F);
    VMap[BB] = C;
    Copy.push_back(C);
  }
  remapInstructionsInBlocks(Copy, VMap);
  StoreCopy = cast<StoreInst>(VMap[&Store]);
  return Copy;
}

/// Body's store keeps its value and address in VB's private result; its
/// returns go to Next.
void finishBody(ArrayRef<BasicBlock *> Body, StoreInst &Store,
                const VirtualBlock &VB, BasicBlock *Next) {
  IRBuilder<> B(&Store);
  B.CreateStore(Store.getValueOperand(), VB.Value);
  B.CreateStore(B.CreatePtrToInt(Store.getPointerOperand(), B.getInt64Ty()),
                VB.Address);
  Store.eraseFromParent();
  for (BasicBlock *BB : Body)
    if (auto *Ret = dyn_cast<ReturnInst>(BB->getTerminator())) {
      BranchInst::Create(Next, Ret);
      Ret->eraseFromParent();
    }
}

/// The stores are of ValTy through pointers of PtrTy, aligned to A.
struct SlotStore {
  Type *ValTy = nullptr;
  Type *PtrTy = nullptr;
  Align A;
};

/// After every virtual block: the thread's results go to their slots, and
/// after the barrier the tile's slots are stored down its columns, 32
/// threads to a column (w = j * 256 + q: row w % 32, column w / 32).
void writeTile(IRBuilder<> &B, const TileShape &Shape,
               ArrayRef<VirtualBlock> Blocks, const SlotStore &S,
               GlobalVariable *Values, GlobalVariable *Addresses) {
  Function &V = *B.GetInsertBlock()->getParent();
  LLVMContext &Ctx = V.getContext();
  Type *I64 = B.getInt64Ty();
  for (const VirtualBlock &VB : Blocks) {
    B.CreateStore(B.CreateLoad(S.ValTy, VB.Value),
                  B.CreateGEP(S.ValTy, Values, VB.Slot));
    B.CreateStore(B.CreateLoad(I64, VB.Address),
                  B.CreateGEP(I64, Addresses, VB.Slot));
  }
  B.CreateCall(Intrinsic::getDeclaration(V.getParent(),
                                         Intrinsic::nvvm_barrier0));
  Value *Q = B.CreateAdd(B.CreateMul(Shape.Ty, Shape.Nx), Shape.Tx, "tile.q");
  for (unsigned J = 0; J < VirtualBlocks; ++J) {
    Value *W = B.CreateAdd(B.getInt32(J * TileThreads), Q);
    Value *Slot = B.CreateZExt(
        B.CreateAdd(B.CreateMul(B.CreateURem(W, B.getInt32(TileSide)),
                                B.getInt32(TilePitch)),
                    B.CreateUDiv(W, B.getInt32(TileSide))),
        I64, "tile.out.slot");
    Value *Address =
        B.CreateLoad(I64, B.CreateGEP(I64, Addresses, Slot), "tile.address");
    BasicBlock *Store = BasicBlock::Create(Ctx, "tile.out.store", &V);
    BasicBlock *Next = BasicBlock::Create(Ctx, "tile.out.next", &V);
    B.CreateCondBr(B.CreateICmpNE(Address, B.getInt64(0)), Store, Next);
    B.SetInsertPoint(Store);
    Value *Val = B.CreateLoad(S.ValTy, B.CreateGEP(S.ValTy, Values, Slot),
                              "tile.value");
    B.CreateAlignedStore(Val, B.CreateIntToPtr(Address, S.PtrTy), S.A);
    B.CreateBr(Next);
    B.SetInsertPoint(Next);
  }
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
  SlotStore Kept{T.Store->getValueOperand()->getType(),
                 T.Store->getPointerOperandType(), T.Store->getAlign()};
  GlobalVariable *Values = tileOf(M, Kept.ValTy, V.getName() + ".tile.values");
  GlobalVariable *Addresses =
      tileOf(M, Type::getInt64Ty(Ctx), V.getName() + ".tile.addresses");

  SmallVector<BasicBlock *, 8> Body;
  for (BasicBlock &BB : V)
    Body.push_back(&BB);
  // The entry's allocas stay in the entry, shared by the copies.
  BasicBlock *Pre = entryWithAllocas(V, "tile.pre");
  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(T.Store->getDebugLoc());
  SmallVector<AllocaInst *, 8> Private;
  for (unsigned K = 0; K < VirtualBlocks; ++K)
    Private.append({B.CreateAlloca(Kept.ValTy, nullptr, "tile.mine"),
                    B.CreateAlloca(B.getInt64Ty(), nullptr, "tile.mine.at")});
  TileShape Shape = readShape(B);

  // The copies first, from the untouched body; then each is entered.
  SmallVector<SmallVector<BasicBlock *, 8>, 4> Copies{Body};
  SmallVector<StoreInst *, 4> Stores{T.Store};
  for (unsigned K = 1; K < VirtualBlocks; ++K) {
    StoreInst *Copy = nullptr;
    Copies.push_back(cloneBody(Body, *T.Store, K, Copy));
    Stores.push_back(Copy);
  }
  SmallVector<VirtualBlock, 4> Blocks;
  for (unsigned K = 0; K < VirtualBlocks; ++K) {
    BasicBlock *Next = BasicBlock::Create(Ctx, "tile.next" + Twine(K), &V);
    VirtualBlock VB =
        virtualBlock(B, Shape, K, Private[2 * K], Private[2 * K + 1]);
    B.CreateCondBr(B.CreateAnd(B.CreateICmpULT(VB.X, Gx),
                               B.CreateICmpULT(VB.Y, Gy), "tile.inside"),
                   Copies[K].front(), Next);
    readVirtualIndices(Copies[K], VB, Gx, Gy);
    finishBody(Copies[K], *Stores[K], VB, Next);
    Blocks.push_back(VB);
    B.SetInsertPoint(Next);
  }
  writeTile(B, Shape, Blocks, Kept, Values, Addresses);
  loosenAttributes(V);
  // The private results in registers: the copies' loads are then all in
  // flight before the first one's value is used (unrolled by hand for it).
  DominatorTree DT(V);
  PromoteMemToReg(Private, DT);
  ++NumTileVariants;
}

} // namespace coalda
