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
//             br go, Load, Original
//   Load:     for each loaded array j: the row's S_j*ntid.x bytes from
//             global memory into tile_j (16-, 8-byte or member-wide units by
//             the row start's alignment; thread t's units t + k*ntid.x,
//             k < ceil(S_j/U), without a loop when at most 8 (all loads,
//             then all stores: several in flight), indices in 32 bits);
//             barrier0 if any. In front of the row copies, the region's
//             first loads of other memory (made before the thread writes
//             anything but a tile), under the guard's tests (a chain of
//             early returns: all of them): in flight with the row's
//             loads, not after the barrier (emitEarlyLoads)
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
//===----------------------------------------------------------------------===//

#include "IRUtils.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "SourceNames.h"
#include "Staging.h"
#include "Versioning.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <numeric>

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;
using namespace llvm::PatternMatch;

STATISTIC(NumStaged, "Blocks staged through shared memory");

namespace coalda {

//===----------------------------------------------------------------------===//
// Moving a value's computation to an earlier point
//===----------------------------------------------------------------------===//

namespace {

/// An instruction whose clone may run anywhere: no memory, no side effects,
/// no trap (a division by a possible zero is not).
bool isPureCloneable(const Instruction *I) {
  if (isa<PHINode>(I) || I->isTerminator() || I->mayReadOrWriteMemory() ||
      I->mayHaveSideEffects())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(I))
    if (Call->isConvergent())
      return false;
  return isSafeToSpeculativelyExecute(I);
}

bool canMaterialize(Value *V, Instruction *At, DominatorTree &DT,
                    unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return true;
  if (Depth > 24 || !isPureCloneable(I))
    return false;
  return all_of(I->operands(), [&](Use &U) {
    return canMaterialize(U.get(), At, DT, Depth + 1);
  });
}

} // namespace

bool canMaterializeAt(Value *V, Instruction *At, DominatorTree &DT) {
  return canMaterialize(V, At, DT, 0);
}

Value *materializeAt(Value *V, Instruction *At, DominatorTree &DT,
                     DenseMap<Value *, Value *> &Clones) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return V;
  if (Value *Done = Clones.lookup(V))
    return Done;
  if (!isPureCloneable(I))
    return nullptr;
  Instruction *Clone = I->clone();
  for (Use &U : Clone->operands()) {
    Value *Op = materializeAt(U.get(), At, DT, Clones);
    if (!Op) {
      Clone->deleteValue();
      return nullptr;
    }
    U.set(Op);
  }
  // The original ran only where its flags held; the clone runs in every
  // thread, also where they would not (an inactive thread's index).
  Clone->dropPoisonGeneratingAnnotations();
  Clone->insertBefore(At);
  Clone->setName(I->getName() + ".early");
  Clones[V] = Clone;
  return Clone;
}

//===----------------------------------------------------------------------===//
// Computing another thread's value
//===----------------------------------------------------------------------===//

namespace {

/// The special registers that are the same in every thread of a block, and
/// the thread indexes; anything else (laneid, clock, ...) is not a thread
/// function.
enum class SregKind { NotSreg, Uniform, TidX, TidY, TidZ };

SregKind sregKind(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return SregKind::NotSreg;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return SregKind::TidX;
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return SregKind::TidY;
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return SregKind::TidZ;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return SregKind::Uniform;
  default:
    return SregKind::NotSreg;
  }
}

bool isThreadFunctionAt(Value *V, unsigned Depth) {
  if (isa<Argument, Constant>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 24)
    return false;
  if (sregKind(I) != SregKind::NotSreg)
    return true;
  if (isa<CallBase>(I) || !isPureCloneable(I))
    return false;
  return all_of(I->operands(),
                [&](Use &U) { return isThreadFunctionAt(U.get(), Depth + 1); });
}

Value *cloneOwnersValue(Value *V, Value *X, Value *Y, Instruction *At,
                        DenseMap<Value *, Value *> &Clones, StringRef Suffix) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  switch (sregKind(I)) {
  case SregKind::TidX:
    if (X)
      return X;
    break;
  case SregKind::TidY:
    if (Y)
      return Y;
    break;
  case SregKind::TidZ:
  case SregKind::Uniform:
  case SregKind::NotSreg:
    break;
  }
  if (Value *Done = Clones.lookup(V))
    return Done;
  Instruction *Clone = I->clone();
  for (Use &U : Clone->operands())
    U.set(cloneOwnersValue(U.get(), X, Y, At, Clones, Suffix));
  // The owner computed it under its own flags; the clone need not keep them.
  Clone->dropPoisonGeneratingAnnotations();
  Clone->insertBefore(At);
  Clone->setName(I->getName() + Suffix);
  Clones[V] = Clone;
  return Clone;
}

} // namespace

bool isThreadFunction(Value *V) { return isThreadFunctionAt(V, 0); }

Value *cloneForThread(Value *V, Value *X, Value *Y, Instruction *At,
                      StringRef Suffix) {
  assert(isThreadFunction(V) && "the caller checks the computation");
  DenseMap<Value *, Value *> Clones;
  return cloneOwnersValue(V, X, Y, At, Clones, Suffix);
}

//===----------------------------------------------------------------------===//
// The emitter
//===----------------------------------------------------------------------===//

namespace {

class StagingEmitter {
public:
  StagingEmitter(const StagingCandidate &C, const StagingPlan &P)
      : C(C), P(P), F(C.Block->getParent()), Ctx(F->getContext()),
        Loc(C.Arrays.front().Accesses.front()->Inst->getDebugLoc()),
        I64(Type::getInt64Ty(Ctx)), I8(Type::getInt8Ty(Ctx)) {}

  std::string emit();

private:
  const StagingCandidate &C;
  const StagingPlan &P;
  Function *F;
  LLVMContext &Ctx;
  DebugLoc Loc;
  Type *I64, *I8;

  BasicBlock *Pre = nullptr, *Entry = nullptr, *Merge = nullptr;
  SmallVector<BasicBlock *, 8> Region;
  SmallPtrSet<BasicBlock *, 8> InRegion;
  std::vector<Value *> Elements; ///< each array's element start, at Pre
  std::vector<GlobalVariable *> Tiles;
  Value *Tid = nullptr, *Ntid = nullptr; ///< i64 in the Load block
  /// The row a thread helps move: the block's (RowLane = tid.x, of ntid.x
  /// threads) or, in a warp tile, its warp's (tid.x & 31, of 32), whose
  /// slice of each tile starts at byte S_j*(tid.x & ~31) (WarpFirst).
  Value *RowLane = nullptr, *WarpFirst = nullptr;
  /// RowLane and the row's threads in the row copies' unit index type,
  /// UnitTy: a row's bytes fit its tile (at most 48 KB), so i32 unless
  /// -coalda-stage-index32=false.
  Type *UnitTy = nullptr;
  Value *UnitLane = nullptr, *UnitThreads = nullptr;
  /// Pre's branch on the block's shape, in front of the vote (when any).
  BranchInst *FitsBranch = nullptr;

  void split();
  Value *computeGo();
  Value *checksHold(IRBuilder<> &B, DominatorTree &DT,
                    DenseMap<Value *, Value *> &Clones);
  Value *uniformGo(IRBuilder<> &B, DominatorTree &DT,
                   DenseMap<Value *, Value *> &Clones);
  Value *everyLanePasses(IRBuilder<> &B, const StagingPlan::GoPart &Part,
                         DominatorTree &DT, DenseMap<Value *, Value *> &Clones);
  Value *uniformApart(IRBuilder<> &B, const StagingPlan::UniformCheck &Check);
  Value *rowsFit(IRBuilder<> &B);
  Value *iterationFull(IRBuilder<> &B);
  Value *transposeFits(IRBuilder<> &B);
  void emitTransposeStores();
  void redirectTransposed(IRBuilder<> &B);
  std::pair<Value *, Value *> ownerOf(IRBuilder<> &B);
  void loadTransposedElements(IRBuilder<> &B);
  Value *LoadOwnerX = nullptr, *LoadOwnerY = nullptr;
  /// A transposed store's slot, y*(ntid.x+1) + x, and the address tiles.
  Value *slotOf(IRBuilder<> &B, Value *X, Value *Y);
  std::vector<GlobalVariable *> AddressTiles;
  BasicBlock *cloneRegion(Value *Go);
  void repairUses(ValueToValueMapTy &VMap,
                  const SmallPtrSetImpl<BasicBlock *> &Clones);
  void makeTiles();
  void emitLoadPhase();
  /// A condition the region's first block runs under, and the value of it
  /// that lets it run.
  using Test = std::pair<Value *, bool>;
  SmallVector<LoadInst *, 8> earlyLoads(SmallVectorImpl<Test> &Tests);
  void emitEarlyLoads(IRBuilder<> &B);
  void redirectAccesses(BasicBlock *Load);
  void emitStorePhase();
  llvm::BasicBlock *storeBlock();
  /// Each transposed store's own alignment, address type and address.
  struct OriginalStore {
    Align Alignment;
    Type *AddressType;
    Value *Address;
  };
  std::vector<OriginalStore> Originals;
  void emitRowCopy(IRBuilder<> &B, Value *Element, GlobalVariable *Tile,
                   const StagedArray &A, bool ToTile);
  void emitUnitLoop(IRBuilder<> &B, Value *Global, Value *Tile, unsigned U,
                    Value *FromByte, Value *ToByte, bool ToTile,
                    const StagedArray *Masked);
  void emitUnrolledUnits(IRBuilder<> &B, Value *Global, Value *Tile,
                         unsigned U, unsigned PerThread, Value *Units,
                         bool Guarded, bool ToTile, const StagedArray *Masked);
  /// A staged row's 8-byte units are <2 x i32>, the others copyUnitType's.
  Type *unitType(unsigned U) {
    return U == 8 ? FixedVectorType::get(Type::getInt32Ty(Ctx), 2)
                  : copyUnitType(Ctx, U);
  }
  Value *unitOffset(IRBuilder<> &B, Value *K, unsigned U) {
    return B.CreateZExt(B.CreateMul(K, ConstantInt::get(UnitTy, U), "",
                                    /*HasNUW=*/true, /*HasNSW=*/true),
                        I64, "", /*IsNonNeg=*/true);
  }
  Value *unitStored(IRBuilder<> &B, Value *K, unsigned U,
                    const StagedArray &A);
  /// The block's barrier, or the warp's in a warp tile (memory ordering
  /// among its 32 threads, all of which take the staged path together).
  void barrier(IRBuilder<> &B) {
    if (P.WarpTile)
      B.CreateIntrinsic(Intrinsic::nvvm_bar_warp_sync, {}, {B.getInt32(-1)});
    else
      B.CreateIntrinsic(Intrinsic::nvvm_barrier0, {}, {});
  }
  Value *warpGo(IRBuilder<> &B, Value *Go);
  Value *oneRow(IRBuilder<> &B, Value *Mask);
  std::string warpReason() const {
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
  Value *sreg(IRBuilder<> &B, Intrinsic::ID ID) {
    return B.CreateIntrinsic(ID, {}, {});
  }
  bool indexReadsRows() const;
};

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
    Value *Start = B.CreateSub(B.CreatePtrToInt(Element, I64),
                               B.CreateMul(Lane, B.getInt64(A.Stride)));
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
  Value *D = B.CreateSub(Address(Check.X), Address(Check.Y));
  return B.CreateOr(B.CreateICmpSGE(D, B.getInt64(Check.YWidth)),
                    B.CreateICmpSLE(D, B.getInt64(-(int64_t)Check.XWidth)),
                    "coalda.apart");
}

/// A 1-D block of at most the tiles' threads.
Value *StagingEmitter::rowsFit(IRBuilder<> &B) {
  return B.CreateAnd(
      B.CreateICmpULE(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x),
                      B.getInt32(P.Capacity)),
      B.CreateAnd(
          B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_y),
                         B.getInt32(1)),
          B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z),
                         B.getInt32(1))),
      "coalda.fits");
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
    return std::pair(B.CreateExtractValue(Pair, 0, "coalda.last"),
                     B.CreateNot(B.CreateExtractValue(Pair, 1)));
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
  Value *Fits = B.CreateAnd(
      B.CreateAnd(B.CreateICmpULE(Threads, B.getInt32(P.Capacity)),
                  B.CreateICmpUGT(Threads, B.getInt32(32))),
      B.CreateAnd(
          B.CreateICmpUGT(Y, B.getInt32(1)),
          B.CreateICmpEQ(sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_z),
                         B.getInt32(1))),
      "coalda.fits");
  bool ReadModifyWrite = any_of(
      C.Arrays, [](const StagedArray &A) { return A.Loaded && A.Written; });
  if (!ReadModifyWrite || !opts::CostRules)
    return Fits;
  return B.CreateAnd(Fits, B.CreateICmpUGE(X, B.getInt32(32)),
                     "coalda.fits.rows");
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
        B.CreateOr(B.CreateICmpULE(B.CreateAdd(XI, B.getInt64(XW)), YI),
                   B.CreateICmpULE(B.CreateAdd(YI, B.getInt64(YW)), XI),
                   "coalda.apart");
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

/// The original region, cloned, as the fallback; Pre branches on Go.
/// Returns the clone of Entry.
BasicBlock *StagingEmitter::cloneRegion(Value *Go) {
  ValueToValueMapTy VMap;
  SmallPtrSet<BasicBlock *, 8> Clones;
  SmallVector<BasicBlock *, 8> CloneList;
  for (BasicBlock *BB : Region) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, ".orig", F);
    VMap[BB] = Clone;
    Clones.insert(Clone);
    CloneList.push_back(Clone);
  }
  remapInstructionsInBlocks(CloneList, VMap);
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
  repairUses(VMap, Clones);
  // Lay the fallback out last, where a reader looks for it.
  for (BasicBlock *BB : CloneList)
    BB->moveBefore(Merge);
  return Original;
}

/// Values of the region used after it now come from the region or its
/// clone: an SSA phi where the two meet.
void StagingEmitter::repairUses(ValueToValueMapTy &VMap,
                                const SmallPtrSetImpl<BasicBlock *> &Clones) {
  for (BasicBlock *BB : Region)
    for (Instruction &I : *BB) {
      SmallVector<Use *, 4> Outside;
      for (Use &U : I.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock *At = User->getParent();
        if (auto *Phi = dyn_cast<PHINode>(User))
          At = Phi->getIncomingBlock(U);
        if (!InRegion.contains(At) && !Clones.contains(At))
          Outside.push_back(&U);
      }
      if (Outside.empty())
        continue;
      SSAUpdater SSA;
      SSA.Initialize(I.getType(), I.getName());
      SSA.AddAvailableValue(BB, &I);
      SSA.AddAvailableValue(cast<BasicBlock>(VMap[BB]), VMap[&I]);
      for (Use *U : Outside)
        SSA.RewriteUse(*U);
    }
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
  Value *Q = B.CreateAdd(
      B.CreateMul(Y, sreg(B, Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
      sreg(B, Intrinsic::nvvm_read_ptx_sreg_tid_x), "coalda.q");
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
    Value *Slot = slotOf(B, B.CreateZExt(LoadOwnerX, I64),
                         B.CreateZExt(LoadOwnerY, I64));
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
  Value *Slot =
      slotOf(B, B.CreateZExt(OwnerX, I64), B.CreateZExt(OwnerY, I64));
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
    Slice = B.CreateGEP(I8, Tile, B.CreateMul(WarpFirst, B.getInt64(Stride)),
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
  Value *Unit = B.CreateUDiv(InElement, Int(A.MemberWidth));
  Value *Bit = B.CreateAnd(B.CreateLShr(Int(A.StoredUnits), Unit), Int(1));
  return B.CreateICmpNE(Bit, Int(0), "coalda.stored");
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
  if (C.transposed())
    return std::string(C.Arrays.front().Loaded ? "transposed the loads and "
                                                 "stores of "
                                               : "transposed the stores to ") +
           baseName(C.Arrays.front().Base) +
           " through a shared tile (the block " +
           (C.Arrays.front().Loaded ? "loads and stores" : "stores") +
           " its columns in turn; " +
           std::to_string(C.bytesPerThread() * 2 * P.Capacity) +
           " bytes for " + std::to_string(P.Capacity) + " threads" +
           (C.Arrays.front().Loaded && opts::CostRules
                ? "; blocks of rows narrower than 32 threads run the "
                  "original code"
                : "") +
           ")";
  std::string Where =
      P.WarpTile ? std::string(P.GridLoop ? ", each full warp on each "
                                            "iteration of the grid-stride "
                                            "loop: "
                                          : ", each full warp on its own: ") +
                       warpReason()
      : P.GridLoop ? ", on each full iteration of the grid-stride loop"
                   : "";
  if (indexReadsRows())
    Where += "; the index reads threadIdx.y or .z, and only blocks of one "
             "row (blockDim.y = blockDim.z = 1) take the staged path";
  return "staged " + Names + " through shared memory (" +
         (P.WarpTile ? "warp tiles, " : "block tile, ") +
         std::to_string(C.bytesPerThread() * P.Capacity) + " bytes for " +
         std::to_string(P.Capacity) + " threads" + Where + ")";
}

} // namespace

std::string emitStaging(const StagingCandidate &C, const StagingPlan &P) {
  return StagingEmitter(C, P).emit();
}

} // namespace coalda
