//===- StagingEmitter.cpp - Stage a block's element accesses in shared ----===//
//
// Phase 3 of the staging rewrite, for one legal candidate (Staging.h has the
// scheme). The region between the phases is split off: without a guard the
// span from the first staged access to the last (in one block, or across
// the blocks of one control class), with one the guard's branch up to the
// merge point M. Then:
//
//   Pre:      go = ntid.x <= capacity && ntid.y == ntid.z == 1 [&& active]
//                  [&& the thread's other accesses miss its own elements]
//             go = barrier0.and(go)   (when go can differ between threads;
//                  the plan's uniform form instead, without a barrier, when
//                  every thread computes it alike: StagingUniformGo.cpp)
//             br go, Load, Original   (StagingGo.cpp)
//   Load:     for each loaded array j: the row's S_j*ntid.x bytes from
//             global memory into tile_j (StagingRowCopy.cpp: wide units,
//             several in flight); barrier0 if any. In front of the row
//             copies, the region's first loads of other memory (made before
//             the thread writes anything but a tile), under the guard's
//             tests (a chain of early returns: all of them): in flight with
//             the row's loads, not after the barrier (emitEarlyLoads)
//   region:   staged accesses use tile_j + S_j*tid.x + their offset
//   Store:    (on every edge from the region to M) barrier0; for each
//             written array: tile_j back to the row's S_j*ntid.x bytes (of
//             an element the stores write in part, only its stored units:
//             each unit tested against the StoredUnits mask)
//   Original: a clone of the region, unchanged, for partial rows, blocks the
//             tiles do not fit, and threads whose other accesses overlap.
//
// Exactly the bytes the original writes are written: every thread is active
// (go), and the store phase writes back the units of each element that
// every thread's stores write, no other (legality's StoredUnits). Loaded
// bytes lie in elements the thread writes or reads.
//
// Warp tiles (the plan's WarpTile) are the same scheme for one warp:
//
//   Pre:      go = ballot(activemask(), checks) == 0xffffffff (without
//             checks: activemask() == 0xffffffff), right
//             before the first staged access (a warp whose 32 threads
//             reach it together, all going on; threads that arrive apart,
//             or after others returned early, see a partial mask and go to
//             the original code, as do those of partial warps)
//   Load:     the warp's row: its 32*S_j bytes, from the element of lane
//             t & ~31 on, into the same bytes of tile_j a block tile uses;
//             units by lane t & 31, 32 apart; __syncwarp for each barrier
//
// so a warp needs no other warp: no thread of the block has to reach Pre.
// In a grid-stride loop the same, on each iteration, and go also asks that
// every lane's row start (its element minus S_j*lane) be lane 0's (a
// shuffle): lanes that run together may be in different iterations.
//
// Arrays in turn (the plan's ArraysInTurn: written-only records whose warp
// tiles do not fit together, lulesh's hgc) share one tile, each warp one
// slice of it sized for the largest element: the region's stores are
// erased, and the store phase, for each array in turn, writes the stores'
// values into the thread's slot, __syncwarp, writes the row back, and
// __syncwarp before the next array's values go in (emitArraysInTurn).
//
// A transposed store is staged by permuting which thread stores what
// through the tile (StagingTranspose.cpp). This file holds the core: the
// region split off and cloned, the tiles, the load and store phases and
// their barriers; the class is declared in StagingEmitterImpl.h.
//
//===----------------------------------------------------------------------===//

#include "IRUtils.h"
#include "Options.h"
#include "RewriteKind.h"
#include "SourceNames.h"
#include "StagingEmitterImpl.h"
#include "ThreadFunctions.h"
#include "Versioning.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;

STATISTIC(NumStaged, "Blocks staged through shared memory");

namespace coalda {

/// Whether a staged access's address reads threadIdx.y or .z (a 2-D index,
/// or the block's linear thread number). The tiles hold a row (the threads
/// of one tid.y and tid.z), which is the whole block only when the block is
/// one row, so blocks of several rows take the original code: the finding
/// says so, as such a kernel is most often launched that way.
bool StagingEmitter::indexReadsRows() const {
  for (const StagedArray &A : C.Arrays)
    for (const AccessExpr *M : A.Accesses)
      for (const auto &Term : M->Uniform.Terms)
        for (unsigned Id : Term.first) {
          const Atom &Of = (*P.Atoms)[Id];
          if (Of.Kind == Atom::ThreadIdx && Of.Dim > 0)
            return true;
        }
  return false;
}

/// Splits the region off: Pre ends in an unconditional branch to Entry, and
/// every path from Entry reaches Merge.
void StagingEmitter::split() {
  if (P.Guard) {
    Pre = P.Guard->getParent();
    Entry = splitKeepingContraction(Pre, P.Guard, "coalda.stage.region");
    Merge = P.Merge;
  } else {
    // From the first staged access to the last, which may lie in a later
    // block of the same control class.
    auto [First, Last] = accessSpan(C);
    Pre = C.Block;
    Entry = splitKeepingContraction(Pre, First, "coalda.stage.region");
    BasicBlock *Ends = C.LastBlock == C.Block ? Entry : C.LastBlock;
    Merge = splitKeepingContraction(Ends, Last->getNextNode(),
                                    "coalda.stage.merge");
  }
  SmallVector<BasicBlock *, 8> Work{Entry};
  InRegion.insert(Entry);
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    Region.push_back(BB);
    for (BasicBlock *S : successors(BB))
      if (S != Merge && InRegion.insert(S).second)
        Work.push_back(S);
  }
}

/// The original region, cloned, as the fallback; Pre branches on Go.
/// Returns the clone of Entry.
BasicBlock *StagingEmitter::cloneRegion(Value *Go) {
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 16> CloneList = cloneBlocks(Region, VMap);
  SmallPtrSet<BasicBlock *, 8> Clones(CloneList.begin(), CloneList.end());
  for (PHINode &Phi : Merge->phis())
    for (unsigned K = 0, N = Phi.getNumIncomingValues(); K < N; ++K)
      if (InRegion.contains(Phi.getIncomingBlock(K))) {
        Value *V = Phi.getIncomingValue(K);
        if (Value *Mapped = VMap.lookup(V))
          V = Mapped;
        Phi.addIncoming(V, cast<BasicBlock>(VMap[Phi.getIncomingBlock(K)]));
      }
  auto *Original = cast<BasicBlock>(VMap[Entry]);
  if (FitsBranch) // its false edge is the original code's too
    FitsBranch->setSuccessor(1, Original);
  Pre->getTerminator()->eraseFromParent();
  IRBuilder<> B(Pre);
  B.SetCurrentDebugLocation(Loc);
  B.CreateCondBr(Go, Entry, Original,
                 MDBuilder(Ctx).createLikelyBranchWeights());
  repairUsesOutside(Region, InRegion, Clones, VMap);
  // Lay the fallback out last, where a reader looks for it.
  for (BasicBlock *BB : CloneList)
    BB->moveBefore(Merge);
  return Original;
}

void StagingEmitter::makeTiles() {
  Module &M = *F->getParent();
  auto Make = [&](uint64_t Bytes, const std::string &Name) {
    auto *Ty = ArrayType::get(I8, Bytes);
    auto *Tile = new GlobalVariable(
        M, Ty, /*isConstant=*/false, GlobalValue::InternalLinkage,
        UndefValue::get(Ty), Name, nullptr, GlobalValue::NotThreadLocal,
        /*AddressSpace=*/3);
    Tile->setAlignment(Align(16));
    return Tile;
  };
  if (P.ArraysInTurn) {
    // One tile, each array's in turn (emitArraysInTurn).
    GlobalVariable *Shared =
        Make(C.largestStride() * P.Capacity,
             "coalda.tile.turns." + irLabel(C.Arrays.front().Base));
    Tiles.assign(C.Arrays.size(), Shared);
    return;
  }
  for (const StagedArray &A : C.Arrays) {
    std::string Name = irLabel(A.Base);
    if (!A.Transposed) {
      Tiles.push_back(Make(A.Stride * P.Capacity, "coalda.tile." + Name));
      continue;
    }
    Tiles.push_back(Make(A.Stride * 2 * P.Capacity, "coalda.tile." + Name));
    AddressTiles.push_back(A.AddressComputed ? nullptr
                                             : Make(8 * 2 * P.Capacity,
                                                    "coalda.addresses." + Name));
  }
}

/// The Load block on the staged edge: tiles filled, then each thread's
/// element pointers into them.
void StagingEmitter::emitLoadPhase() {
  BasicBlock *Load = BasicBlock::Create(Ctx, "coalda.stage.load", F, Entry);
  LoadBlock = Load;
  Pre->getTerminator()->setSuccessor(0, Load);
  IRBuilder<> B(Load);
  B.SetCurrentDebugLocation(Loc);
  Value *Tid32 = sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x);
  Value *Ntid32 = sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x);
  Tid = B.CreateZExt(Tid32, I64, "coalda.tid");
  Ntid = B.CreateZExt(Ntid32, I64, "coalda.ntid");
  bool Narrow = opts::StageIndex32;
  UnitTy = Narrow ? B.getInt32Ty() : I64;
  RowLane = Tid;
  UnitLane = Narrow ? Tid32 : Tid;
  UnitThreads = Narrow ? Ntid32 : Ntid;
  if (P.WarpTile) {
    RowLane = B.CreateAnd(Tid, B.getInt64(31), "coalda.lane");
    WarpFirst = B.CreateAnd(Tid, B.getInt64(~int64_t(31)), "coalda.warp");
    UnitLane = Narrow ? B.CreateAnd(Tid32, 31, "coalda.unit.lane") : RowLane;
    UnitThreads = ConstantInt::get(UnitTy, 32);
  }
  BranchInst *ToEntry = B.CreateBr(Entry);
  B.SetInsertPoint(ToEntry);
  if (P.LeadingBarrier && !P.barrierVote())
    barrier(B);
  bool Any = false;
  for (auto [A, Element, Tile] : zip(C.Arrays, Elements, Tiles))
    if (A.Loaded && !A.Transposed) {
      emitRowCopy(B, Element, Tile, A, /*ToTile=*/true);
      Any = true;
    }
  if (Any)
    barrier(B);
  if (C.transposed()) {
    redirectTransposed(B);
    return;
  }
  if (P.ArraysInTurn) // the stores move to the store phase
    return;
  redirectAccesses(B.GetInsertBlock());
  // The region's first loads of other memory go in front of the row copies,
  // so that they are in flight together and not after the barrier.
  if (Any) {
    B.SetInsertPoint(Load->getTerminator());
    emitEarlyLoads(B);
  }
}

/// The loads of other memory than the tiles that the region's first block
/// (the active edge of the guard, or of the last of a chain of early
/// returns; or Entry) runs before anything that writes memory other than a
/// tile, in order; Tests: the conditions under which that block runs (none:
/// always in the staged path). The blocks of a chain's branches touch no
/// memory (legality), so the loads see memory as at their place.
SmallVector<LoadInst *, 8>
StagingEmitter::earlyLoads(SmallVectorImpl<Test> &Tests) {
  SmallVector<LoadInst *, 8> Loads;
  if (!opts::StageEarlyLoads)
    return Loads;
  BasicBlock *First = Entry;
  if (P.Guard) {
    // Entry is the guard's branch alone; the active edge of the chain's
    // last branch (InnerGuards.front(), the one nearest the accesses) the
    // first block.
    if (&Entry->front() != P.Guard)
      return Loads;
    Tests.push_back({P.Guard->getCondition(), P.ActiveOnTrue});
    for (const StagingPlan::InnerGuard &G : reverse(P.InnerGuards))
      Tests.push_back({G.Branch->getCondition(), G.ActiveOnTrue});
    const BranchInst *Last =
        P.InnerGuards.empty() ? P.Guard : P.InnerGuards.front().Branch;
    First = Last->getSuccessor(Tests.back().second ? 0 : 1);
    if (!InRegion.contains(First) || !First->getSinglePredecessor())
      return Loads;
  }
  SmallPtrSet<const Value *, 4> OwnTiles(Tiles.begin(), Tiles.end());
  auto WritesOnlyTiles = [&](const Instruction &I) {
    const auto *S = dyn_cast<StoreInst>(&I);
    return S && S->isSimple() &&
           OwnTiles.contains(getUnderlyingObject(S->getPointerOperand()));
  };
  for (Instruction &I : *First) {
    if (isa<DbgInfoIntrinsic>(I))
      continue;
    if (auto *L = dyn_cast<LoadInst>(&I)) {
      if (!L->isSimple())
        break;
      if (L->getPointerAddressSpace() != 3 &&
          !OwnTiles.contains(getUnderlyingObject(L->getPointerOperand())))
        Loads.push_back(L);
      if (Loads.size() == opts::StageEarlyLoads)
        break;
      continue;
    }
    if (I.isTerminator() || WritesOnlyTiles(I))
      continue;
    const auto *Call = dyn_cast<CallBase>(&I);
    if (I.mayHaveSideEffects() || I.mayReadOrWriteMemory() ||
        (Call && Call->isConvergent())) {
      LLVM_DEBUG(dbgs() << "coalda:   early loads end at " << I << "\n");
      break;
    }
  }
  return Loads;
}

/// Moves earlyLoads() to B (in the Load block, before the row copies): a
/// clone of each, with its address, under the same test, whose value the
/// region uses instead. They read what they read at their place: between
/// here and there the thread writes only tiles, and the barrier they cross
/// is the rewrite's own (another thread's write that the original could see
/// there would race with the read).
void StagingEmitter::emitEarlyLoads(IRBuilder<> &B) {
  SmallVector<Test, 4> Tests;
  SmallVector<LoadInst *, 8> Loads = earlyLoads(Tests);
  DominatorTree DT(*F);
  Instruction *At = &*B.GetInsertPoint();
  if (any_of(Tests, [&](const Test &T) {
        return !canMaterializeAt(T.first, At, DT);
      }))
    return;
  erase_if(Loads, [&](LoadInst *L) {
    return !canMaterializeAt(L->getPointerOperand(), At, DT);
  });
  if (Loads.empty())
    return;
  DenseMap<Value *, Value *> Clones;
  SmallVector<Value *, 8> Addresses;
  for (LoadInst *L : Loads)
    Addresses.push_back(materializeAt(L->getPointerOperand(), At, DT, Clones));
  // Each test only where the ones before it hold (`select`, not `and`): a
  // later early return's condition may be poison where an earlier one
  // stops the thread (an index past the end).
  Value *Cond = nullptr;
  for (auto [V, OnTrue] : Tests) {
    Value *Holds = materializeAt(V, At, DT, Clones);
    Holds = OnTrue ? Holds : B.CreateNot(Holds);
    Cond = Cond ? B.CreateLogicalAnd(Cond, Holds) : Holds;
  }
  BasicBlock *Done =
      B.GetInsertBlock()->splitBasicBlock(At, "coalda.early.done");
  BasicBlock *From = B.GetInsertBlock();
  From->getTerminator()->eraseFromParent();
  BasicBlock *Do = From;
  if (Cond) {
    Do = BasicBlock::Create(Ctx, "coalda.early", F, Done);
    B.SetInsertPoint(From);
    B.CreateCondBr(Cond, Do, Done);
  }
  IRBuilder<> DB(Do);
  DB.SetCurrentDebugLocation(Loc);
  SmallVector<Value *, 8> Early;
  for (auto [L, Address] : zip(Loads, Addresses)) {
    auto *Clone = cast<LoadInst>(L->clone());
    Clone->setOperand(LoadInst::getPointerOperandIndex(), Address);
    DB.Insert(Clone, "coalda.early.ld");
    Early.push_back(Clone);
  }
  DB.CreateBr(Done);
  B.SetInsertPoint(Done, Done->getFirstInsertionPt());
  for (auto [L, V] : zip(Loads, Early)) {
    Value *Now = V;
    if (Cond) {
      PHINode *Phi = B.CreatePHI(V->getType(), 2, "coalda.early.v");
      Phi->addIncoming(V, Do);
      Phi->addIncoming(PoisonValue::get(V->getType()), From);
      Now = Phi;
    }
    L->replaceAllUsesWith(Now);
    L->eraseFromParent();
  }
  LLVM_DEBUG(dbgs() << "coalda:   " << Loads.size()
                    << " loads issued before the load phase\n");
}

/// Every staged access goes to the thread's element in its array's tile.
void StagingEmitter::redirectAccesses(BasicBlock *At) {
  IRBuilder<> B(At->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  for (auto [A, Tile] : zip(C.Arrays, Tiles)) {
    Value *Mine = B.CreateGEP(I8, Tile, B.CreateMul(Tid, B.getInt64(A.Stride)),
                              "coalda.mine." + irLabel(A.Base));
    for (const AccessExpr *M : A.Accesses) {
      int64_t Off = A.offsetInElement(*M);
      IRBuilder<> MB(M->Inst);
      Value *Ptr = Off ? MB.CreateGEP(I8, Mine, MB.getInt64(Off)) : Mine;
      Value *Old = M->pointer();
      Align Al = commonAlignment(commonAlignment(Align(16), A.Stride), Off);
      if (auto *L = dyn_cast<LoadInst>(M->Inst)) {
        L->setOperand(LoadInst::getPointerOperandIndex(), Ptr);
        L->setAlignment(Al);
      } else {
        auto *S = cast<StoreInst>(M->Inst);
        S->setOperand(StoreInst::getPointerOperandIndex(), Ptr);
        S->setAlignment(Al);
      }
      RecursivelyDeleteTriviallyDeadInstructions(Old);
    }
  }
}

/// A block on every edge from the region to Merge.
BasicBlock *StagingEmitter::storeBlock() {
  SmallVector<BasicBlock *, 4> Preds;
  for (BasicBlock *BB : predecessors(Merge))
    if (InRegion.contains(BB) && !is_contained(Preds, BB))
      Preds.push_back(BB);
  BasicBlock *Store =
      SplitBlockPredecessors(Merge, Preds, ".coalda.stage.store");
  Store->setName("coalda.stage.store");
  return Store;
}

/// On the edges from the region to Merge: barrier, tiles written back.
void StagingEmitter::emitStorePhase() {
  if (C.transposed())
    return emitTransposeStores();
  // A block that only reads: nothing to write back, and no barrier is
  // needed after the reads unless the tile is filled again.
  if (none_of(C.Arrays, [](const StagedArray &A) { return A.Written; })) {
    if (P.refillBarrier()) {
      IRBuilder<> B(storeBlock()->getTerminator());
      B.SetCurrentDebugLocation(Loc);
      barrier(B);
    }
    return;
  }
  if (P.ArraysInTurn)
    return emitArraysInTurn();
  BasicBlock *Store = storeBlock();
  IRBuilder<> B(Store->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  barrier(B);
  for (auto [A, Element, Tile] : zip(C.Arrays, Elements, Tiles))
    if (A.Written)
      emitRowCopy(B, Element, Tile, A, /*ToTile=*/false);
  if (P.endBarrierAfterStores())
    barrier(B);
}

/// The value S stores, where the store phase is: S's own where S's block
/// dominates Store, else through phis that are poison on the paths that
/// miss S. On the staged path every thread runs every staged store once
/// (legality), so those paths are not taken there.
Value *StagingEmitter::valueAtStore(StoreInst *S, BasicBlock *Store) {
  Value *V = S->getValueOperand();
  if (!isa<Instruction>(V))
    return V;
  SSAUpdater Updater;
  Updater.Initialize(V->getType(), "coalda.turn.value");
  Updater.AddAvailableValue(LoadBlock, PoisonValue::get(V->getType()));
  Updater.AddAvailableValue(S->getParent(), V);
  return Updater.GetValueInMiddleOfBlock(Store);
}

/// The store phase of arrays staged in turn through one tile: for each
/// array, the thread's stores to it (in program order, so a later store to
/// the same bytes wins) go to its slot of the tile, a barrier, the row
/// written back, and a barrier before the next array's stores overwrite
/// what other threads are still copying out. The region's stores to the
/// arrays are then erased (the fallback keeps its own).
void StagingEmitter::emitArraysInTurn() {
  BasicBlock *Store = storeBlock();
  IRBuilder<> B(Store->getTerminator());
  B.SetCurrentDebugLocation(Loc);
  std::vector<std::vector<Value *>> Values;
  for (const StagedArray &A : C.Arrays) {
    Values.emplace_back();
    for (const AccessExpr *M : A.Accesses)
      Values.back().push_back(valueAtStore(cast<StoreInst>(M->Inst), Store));
  }
  // A warp's slice is the same for every array (the largest element's 32
  // slots): warps run through the arrays at their own pace, and slices
  // that moved with each array's stride would overlap another warp's.
  SliceStride = C.largestStride();
  for (auto [J, A] : enumerate(C.Arrays)) {
    if (J)
      barrier(B);
    Value *Slot = B.CreateMul(RowLane, B.getInt64(A.Stride));
    if (WarpFirst)
      Slot = B.CreateAdd(B.CreateMul(WarpFirst, B.getInt64(SliceStride)), Slot);
    Value *Mine =
        B.CreateGEP(I8, Tiles[J], Slot, "coalda.turn." + irLabel(A.Base));
    for (auto [M, V] : zip(A.Accesses, Values[J])) {
      int64_t Off = A.offsetInElement(*M);
      Value *Ptr = Off ? B.CreateGEP(I8, Mine, B.getInt64(Off)) : Mine;
      B.CreateAlignedStore(
          V, Ptr, commonAlignment(commonAlignment(Align(16), A.Stride), Off));
    }
    barrier(B);
    emitRowCopy(B, Elements[J], Tiles[J], A, /*ToTile=*/false);
  }
  if (P.endBarrierAfterStores())
    barrier(B);
  for (const StagedArray &A : C.Arrays)
    for (const AccessExpr *M : A.Accesses) {
      Value *Old = M->pointer();
      M->Inst->eraseFromParent();
      RecursivelyDeleteTriviallyDeadInstructions(Old);
    }
}

/// Why warp tiles, in the words of the finding.
std::string StagingEmitter::warpReason() const {
  switch (P.WarpWhy) {
  case StagingPlan::WarpReason::NoBlockBarrier:
    return "no barrier may go where not every thread reaches";
  case StagingPlan::WarpReason::LargeElements:
    return "faster than a block tile for elements of 24 bytes or more";
  case StagingPlan::WarpReason::Forced:
    return "-coalda-stage-warp-tiles=always";
  }
  llvm_unreachable("every reason is named");
}

std::string StagingEmitter::emit() {
  split();
  Value *Go = computeGo();
  cloneRegion(Go);
  makeTiles();
  emitLoadPhase();
  emitStorePhase();
  ++NumStaged;
  LLVM_DEBUG(dbgs() << "coalda: staged " << C.Arrays.size() << " arrays in "
                    << F->getName() << "\n");
  RewriteKind Kind = rewriteKind(C, P);
  switch (Kind) {
  case RewriteKind::BlockTile:
  case RewriteKind::WarpTile:
    return describeElements(Kind == RewriteKind::WarpTile);
  case RewriteKind::TransposedTile:
    return describeTransposed();
  case RewriteKind::RegionCopy:
  case RewriteKind::FlatCopy:
  case RewriteKind::ChunkWindow:
  case RewriteKind::LoopPromotion:
    break;
  }
  llvm_unreachable("the staging emitter stages elements or transposes");
}

/// What a transposed staging did, for people.
std::string StagingEmitter::describeTransposed() const {
  const StagedArray &A = C.Arrays.front();
  return std::string(A.Loaded ? "transposed the loads and stores of "
                              : "transposed the stores to ") +
         baseName(A.Base) + " through a shared tile (the block " +
         (A.Loaded ? "loads and stores" : "stores") + " its columns in turn; " +
         std::to_string(C.bytesPerThread() * 2 * P.Capacity) + " bytes for " +
         std::to_string(P.Capacity) + " threads" +
         (A.Loaded && opts::CostRules
              ? "; blocks of rows narrower than 32 threads run the "
                "original code"
              : "") +
         ")";
}

/// What an element staging in block or warp tiles did, for people.
std::string StagingEmitter::describeElements(bool Warp) const {
  std::string Names;
  for (const StagedArray &A : C.Arrays)
    Names += (Names.empty() ? "" : ", ") + baseName(A.Base) + " (" +
             std::to_string(A.Stride) + "-byte elements, " +
             (A.Written ? A.Loaded ? "read and written" : "written" : "read") +
             (A.storesPart() ? ", " +
                                   std::to_string(popcount(A.StoredUnits) *
                                                  A.MemberWidth) +
                                   " of its bytes written back"
                             : "") +
             ")";
  std::string Where =
      Warp ? std::string(P.GridLoop ? ", each full warp on each "
                                      "iteration of the grid-stride "
                                      "loop: "
                                    : ", each full warp on its own: ") +
                 warpReason()
      : P.GridLoop ? ", on each full iteration of the grid-stride loop"
                   : "";
  if (indexReadsRows())
    Where += "; the index reads threadIdx.y or .z, and only blocks of one "
             "row (blockDim.y = blockDim.z = 1) take the staged path";
  uint64_t PerThread =
      P.ArraysInTurn ? C.largestStride() : C.bytesPerThread();
  return "staged " + Names + " through shared memory (" +
         (Warp ? "warp tiles, " : "block tile, ") +
         (P.ArraysInTurn ? "one array at a time through one tile: the "
                           "arrays' tiles together do not fit, "
                         : "") +
         std::to_string(PerThread * P.Capacity) + " bytes for " +
         std::to_string(P.Capacity) + " threads" + Where + ")";
}

std::string emitStaging(const StagingCandidate &C, const StagingPlan &P) {
  return StagingEmitter(C, P).emit();
}

} // namespace coalda
