//===- GridVariant.cpp - A kernel's variant for a reshaped launch --------===//
//
// Issue 40's reshaped launches, device half. A kernel that does one piece
// of work per thread (no loop) is bound by the rate at which the GPU starts
// blocks: rgb's copy at 128 threads moves 1.2 TB/s however its accesses are
// rewritten, and the same copy written as a grid-stride loop over a grid the
// size of the device moves 3.6 TB/s (docs/benchmarks.md). So a rewritten
// kernel K of that shape gets a second kernel, K__coalda_grid, that loops
// over the original grid's blocks:
//
//   K__coalda_grid(args..., unsigned G):
//     for (vb = blockIdx.x; vb < G; vb += gridDim.x)
//       K's body, with blockIdx.x read as vb and gridDim.x as G,
//       its returns going to the next vb
//       (and a __syncthreads() before it, when K uses shared memory)
//
// The host half (LaunchHost.cpp, LaunchGrid.cpp) launches it, in `coalda
// cc` builds, with the original grid's y and z and fewer blocks in x (the
// blocks the device holds at once, shared by the rows), passing the
// original grid's x size as G: each row of blocks loops over its own row.
// blockIdx.y/z and gridDim.y/z are the same in both launches, so only the
// x registers are read anew.
//
// Why it computes the same bytes: each iteration runs one original block,
// whole, with the same thread indices; the original's blocks may run in any
// order and any number at once, so running them in turn on fewer blocks is
// one of its schedules. What could break that, and is refused:
//   - a thread that leaves its block (returns) while the others still
//     synchronize: in the variant it goes on to the next block and would
//     meet the others' barrier there. Refused when a divergent branch can
//     lead to a return without a barrier of the block, and a
//     synchronization (a warp's too) lies on a way from it before its ways
//     meet again (RowUniformity.h, over the whole block). A branch whose
//     sides meet again with no synchronization on either side lets no
//     thread pass a synchronization the others skip. Different barriers on
//     the two sides of a divergent branch are undefined in CUDA and assumed
//     absent;
//   - shared memory, read in the next iteration before every warp is done
//     with this one: a barrier ends each iteration; a kernel that shares
//     memory without any barrier (warp-synchronous code) is refused;
//   - blocks that wait for one another (spin-waits on flags): an atomic or
//     volatile access in a loop refuses the kernel;
//   - calls and inline assembly (they may read %ctaid), grid and cluster
//     registers, cluster shapes.
// The cost rules: only kernels with no loop before the rewrite (one piece
// of work per thread); a kernel that loops over its own work is not bound
// by the block rate. And by default only kernels whose whole effect is one
// copy (GridVariantFlat.cpp), whose variant starts with one flat copy of
// the original grid's elements, or one transposed store per thread
// (GridVariantTile.cpp), whose variant runs 32x32 tiles of original blocks:
// the bare loop over blocks measured no faster on the H200 (BlockLoopCost;
// -coalda-reshape-block-loops makes it anyway). A flat copy of small
// elements, and a tile variant, are marked (K__coalda_prefer) for the host
// to launch until the run-time measurement is in.
//
//===----------------------------------------------------------------------===//

#include "GridVariant.h"
#include "Options.h"
#include "RowUniformity.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "coalda-grid-variant"

using namespace llvm;

STATISTIC(NumGridVariants, "Rewritten kernels given a grid-stride variant");
STATISTIC(NumGridRefused, "Rewritten kernels refused a grid-stride variant");

namespace coalda {
namespace {

/// An intrinsic that synchronizes threads or depends on which are
/// converged: block and warp barriers, shuffles, votes, matches, the
/// active mask.
bool isSyncOp(const Function &Callee) {
  StringRef Name = Callee.getName();
  if (!Name.consume_front("llvm.nvvm."))
    return false;
  return Name.contains("sync") || Name.starts_with("barrier") ||
         Name.starts_with("bar.") || Name == "activemask";
}

/// A special register the variant reads as the original did: the thread's
/// and block's indices and sizes (x of the block's are read anew), the
/// lane, clocks, the SM.
bool isBlockRegister(StringRef Reg) {
  for (StringRef Ok : {"tid.", "ntid.", "ctaid.", "nctaid.", "laneid",
                       "warpsize", "lanemask", "clock", "globaltimer", "smid",
                       "nsmid", "warpid", "nwarpid"})
    if (Reg.starts_with(Ok))
      return true;
  return false;
}

/// What K's calls allow, or None.
GridVariantRefusal checkCalls(Function &K, bool &HasSync) {
  for (Instruction &I : instructions(K)) {
    auto *Call = dyn_cast<CallBase>(&I);
    if (!Call)
      continue;
    if (Call->isInlineAsm())
      return GridVariantRefusal::InlineAsm;
    const Function *Callee = Call->getCalledFunction();
    if (!Callee || !Callee->isIntrinsic())
      return GridVariantRefusal::Call;
    StringRef Name = Callee->getName();
    if (Name.consume_front("llvm.nvvm.read.ptx.sreg.") &&
        !isBlockRegister(Name))
      return GridVariantRefusal::GridRegister;
    if (Name.contains("cluster"))
      return GridVariantRefusal::GridRegister;
    HasSync |= isSyncOp(*Callee);
  }
  return GridVariantRefusal::None;
}

/// Whether I waits on other threads' writes when it sits in a loop.
bool mayPoll(const Instruction &I) {
  if (isa<AtomicRMWInst, AtomicCmpXchgInst>(I))
    return true;
  if (auto *Load = dyn_cast<LoadInst>(&I))
    return Load->isVolatile() || Load->isAtomic();
  if (auto *Call = dyn_cast<CallBase>(&I))
    if (const Function *Callee = Call->getCalledFunction())
      return Callee->getName().contains("atomic");
  return false;
}

bool hasSpinWait(const LoopInfo &LI) {
  for (const Loop *L : LI.getLoopsInPreorder())
    for (const BasicBlock *BB : L->blocks())
      if (any_of(*BB, mayPoll))
        return true;
  return false;
}

/// Whether K names shared memory (addrspace 3), directly or through a
/// constant expression.
bool usesSharedMemory(Function &K) {
  for (GlobalVariable &G : K.getParent()->globals()) {
    if (G.getAddressSpace() != 3)
      continue;
    SmallVector<const User *, 8> Work(G.users().begin(), G.users().end());
    while (!Work.empty()) {
      const User *U = Work.pop_back_val();
      if (auto *I = dyn_cast<Instruction>(U)) {
        if (I->getFunction() == &K)
          return true;
      } else if (isa<Constant>(U)) {
        Work.append(U->user_begin(), U->user_end());
      }
    }
  }
  return false;
}

/// A barrier of the whole block (__syncthreads and its votes, bar.sync),
/// not of a warp.
bool isBlockBarrier(const Function &Callee) {
  StringRef Name = Callee.getName();
  return Name.consume_front("llvm.nvvm.") &&
         (Name.starts_with("barrier") || Name.starts_with("bar.sync"));
}

/// Whether BB calls an intrinsic Is says yes to.
bool blockCalls(const BasicBlock &BB, bool (*Is)(const Function &)) {
  return any_of(BB, [Is](const Instruction &I) {
    auto *Call = dyn_cast<CallBase>(&I);
    const Function *Callee = Call ? Call->getCalledFunction() : nullptr;
    return Callee && Is(*Callee);
  });
}

bool blockSyncs(const BasicBlock &BB) { return blockCalls(BB, isSyncOp); }

/// Whether a return is reachable from From without passing a barrier of
/// the whole block. A warp's synchronization does not count: a thread that
/// leaves after a __syncwarp() would, in the variant, meet its block's
/// barrier in the next virtual block (the adversary's exit_after_syncwarp).
bool returnsWithoutSync(const BasicBlock *From) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work{From};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (!Seen.insert(BB).second || blockCalls(*BB, isBlockBarrier))
      continue;
    if (isa<ReturnInst>(BB->getTerminator()))
      return true;
    append_range(Work, successors(BB));
  }
  return false;
}

/// Whether a block after From's terminator and before Join (where the
/// ways from From meet again; null: they may not) synchronizes.
bool syncsBefore(const BasicBlock *From, const BasicBlock *Join) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work(succ_begin(From), succ_end(From));
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    if (BB == Join || !Seen.insert(BB).second)
      continue;
    if (blockSyncs(*BB))
      return true;
    append_range(Work, successors(BB));
  }
  return false;
}

/// Whether a thread may return while others of its block still
/// synchronize: a divergent branch with a way to a return that passes no
/// barrier of the block, and a synchronization on some way from the branch
/// before the ways meet again (its immediate post-dominator). Threads that
/// meet again there have passed the same synchronizations: a branch around
/// a thread's own atomic before a staging is no reason.
bool mayExitBeforeSync(Function &K, const RowUniformity &Block,
                       const PostDominatorTree &PDT) {
  for (BasicBlock &BB : K) {
    if (succ_size(&BB) < 2 || Block.isUniformBranch(BB))
      continue;
    const DomTreeNode *Node = PDT.getNode(&BB);
    const BasicBlock *Join =
        Node && Node->getIDom() ? Node->getIDom()->getBlock() : nullptr;
    if (syncsBefore(&BB, Join) && any_of(successors(&BB), returnsWithoutSync))
      return true;
  }
  return false;
}

/// K's nodes in nvvm.annotations (kernel, maxntid, cluster_dim_x, ...).
SmallVector<MDNode *, 4> annotationsOf(const Function &K) {
  SmallVector<MDNode *, 4> Mine;
  if (NamedMDNode *Annotations =
          K.getParent()->getNamedMetadata("nvvm.annotations"))
    for (MDNode *Node : Annotations->operands())
      if (Node->getNumOperands() >= 1 &&
          mdconst::dyn_extract_or_null<Function>(Node->getOperand(0)) == &K)
        Mine.push_back(Node);
  return Mine;
}

bool declaresCluster(const Function &K) {
  for (const MDNode *Node : annotationsOf(K))
    for (unsigned I = 1; I + 1 < Node->getNumOperands(); I += 2)
      if (auto *Tag = dyn_cast<MDString>(Node->getOperand(I)))
        if (Tag->getString().contains("cluster"))
          return true;
  return false;
}

GridVariantRefusal checkKernel(Function &K, bool &UsesShared,
                               FunctionAnalysisManager &FAM) {
  bool HasSync = false;
  if (declaresCluster(K))
    return GridVariantRefusal::ClusterLaunch;
  if (GridVariantRefusal Why = checkCalls(K, HasSync);
      Why != GridVariantRefusal::None)
    return Why;
  if (hasSpinWait(FAM.getResult<LoopAnalysis>(K)))
    return GridVariantRefusal::SpinWait;
  UsesShared = usesSharedMemory(K);
  if (UsesShared && !HasSync)
    return GridVariantRefusal::SharedNoBarrier;
  if (HasSync && mayExitBeforeSync(
                     K,
                     RowUniformity(K, /*IsKernel=*/true,
                                   FAM.getResult<DominatorTreeAnalysis>(K),
                                   FAM.getResult<CycleAnalysis>(K),
                                   UniformScope::Block),
                     FAM.getResult<PostDominatorTreeAnalysis>(K)))
    return GridVariantRefusal::ExitBeforeSync;
  return GridVariantRefusal::None;
}

} // namespace

Function *cloneWithGridParams(Function &K, ArrayRef<StringRef> Extra,
                              ValueToValueMapTy &VMap) {
  SmallVector<Type *, 8> Params(K.getFunctionType()->params());
  Params.append(Extra.size(), Type::getInt32Ty(K.getContext()));
  auto *Ty = FunctionType::get(K.getReturnType(), Params, false);
  Function *V = Function::Create(Ty, K.getLinkage(), K.getAddressSpace(),
                                 K.getName() + GridVariantSuffix,
                                 K.getParent());
  auto NewArg = V->arg_begin();
  for (Argument &A : K.args()) {
    NewArg->setName(A.getName());
    VMap[&A] = &*NewArg++;
  }
  for (StringRef Name : Extra)
    (NewArg++)->setName(Name);
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(V, &K, VMap, CloneFunctionChangeType::GlobalChanges,
                    Returns);
  V->setCallingConv(K.getCallingConv());
  return V;
}

BasicBlock *entryWithAllocas(Function &V, const Twine &Name) {
  BasicBlock *Old = &V.getEntryBlock();
  // Asked while Old is still the entry: isStaticAlloca looks at the
  // function's first block.
  SmallVector<AllocaInst *, 4> Static;
  for (Instruction &I : *Old)
    if (auto *Alloca = dyn_cast<AllocaInst>(&I);
        Alloca && Alloca->isStaticAlloca())
      Static.push_back(Alloca);
  BasicBlock *Entry = BasicBlock::Create(V.getContext(), Name, &V, Old);
  for (AllocaInst *Alloca : Static)
    Alloca->moveBefore(*Entry, Entry->end());
  return Entry;
}

void annotateLike(Function &V, Function &K) {
  for (MDNode *Node : annotationsOf(K)) {
    SmallVector<Metadata *, 4> Ops(Node->operands());
    Ops[0] = ValueAsMetadata::get(&V);
    K.getParent()
        ->getNamedMetadata("nvvm.annotations")
        ->addOperand(MDNode::get(K.getContext(), Ops));
  }
  // LLVM 19's NVPTX backend reads nvvm.annotations through a cache keyed by
  // the function's address, filled at the pipeline's start (NVVMIntrRange
  // asks every function for its launch bounds) and never invalidated: an
  // empty entry is kept for each function without annotations. When one of
  // those (an inlined helper) is freed and V is allocated at its address,
  // the backend reads V's annotations from that stale entry (none) and
  // emits V as a .func, not a kernel: in clang's in-process compiles
  // (`coalda cc`) only, as often as the heap's layout makes it (found as a
  // test that failed every other run; opt then llc read fresh modules). The
  // backend falls back to the calling convention when it finds no "kernel"
  // annotation, so V is a kernel either way.
  V.setCallingConv(CallingConv::PTX_Kernel);
}

void markVariant(Function &Kernel, StringRef Suffix) {
  Module &M = *Kernel.getParent();
  Type *I8 = Type::getInt8Ty(M.getContext());
  new GlobalVariable(M, I8, /*isConstant=*/true, GlobalValue::ExternalLinkage,
                     ConstantInt::get(I8, 1), Kernel.getName() + Suffix,
                     nullptr, GlobalValue::NotThreadLocal, /*AddressSpace=*/1);
}

namespace {

/// K's copy with one more parameter, the original grid's x size, and K's
/// kernel annotations.
Function *cloneWithGridParam(Function &K) {
  ValueToValueMapTy VMap;
  Function *V = cloneWithGridParams(K, {"coalda.grid"}, VMap);
  annotateLike(*V, K);
  return V;
}

/// Calls of the x block index and grid size in V.
void collectIndexReads(Function &V, SmallVectorImpl<CallInst *> &Index,
                       SmallVectorImpl<CallInst *> &Size) {
  for (Instruction &I : instructions(V))
    if (auto *II = dyn_cast<IntrinsicInst>(&I)) {
      if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_ctaid_x)
        Index.push_back(II);
      else if (II->getIntrinsicID() == Intrinsic::nvvm_read_ptx_sreg_nctaid_x)
        Size.push_back(II);
    }
}

/// V's body becomes the loop over virtual blocks the banner describes.
/// Returns the blocks in front of it and after it.
std::pair<BasicBlock *, BasicBlock *> wrapInBlockLoop(Function &V,
                                                      bool BarrierAtEnd) {
  LLVMContext &Ctx = V.getContext();
  Module &M = *V.getParent();
  Value *G = V.getArg(V.arg_size() - 1);
  SmallVector<CallInst *, 4> IndexReads, SizeReads;
  collectIndexReads(V, IndexReads, SizeReads);
  SmallVector<ReturnInst *, 4> Returns;
  for (BasicBlock &BB : V)
    if (auto *Ret = dyn_cast<ReturnInst>(BB.getTerminator()))
      Returns.push_back(Ret);

  BasicBlock *Body = &V.getEntryBlock();
  BasicBlock *Pre = entryWithAllocas(V, "vgrid.pre");
  BasicBlock *Next = BasicBlock::Create(Ctx, "vgrid.next", &V);
  BasicBlock *Done = BasicBlock::Create(Ctx, "vgrid.done", &V);

  IRBuilder<> B(Pre);
  Value *First = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_ctaid_x, {},
                                   {}, nullptr, "vgrid.first");
  Value *Step = B.CreateIntrinsic(Intrinsic::nvvm_read_ptx_sreg_nctaid_x, {},
                                  {}, nullptr, "vgrid.step");
  B.CreateCondBr(B.CreateICmpULT(First, G), Body, Done);

  B.SetInsertPoint(Body, Body->begin());
  PHINode *VB = B.CreatePHI(B.getInt32Ty(), 2, "vgrid.block");
  VB->addIncoming(First, Pre);
  for (CallInst *Read : IndexReads) {
    Read->replaceAllUsesWith(VB);
    Read->eraseFromParent();
  }
  for (CallInst *Read : SizeReads) {
    Read->replaceAllUsesWith(G);
    Read->eraseFromParent();
  }
  for (ReturnInst *Ret : Returns) {
    BranchInst::Create(Next, Ret);
    Ret->eraseFromParent();
  }

  B.SetInsertPoint(Next);
  if (BarrierAtEnd)
    B.CreateCall(Intrinsic::getDeclaration(&M, Intrinsic::nvvm_barrier0));
  // vb < G < 2^31 and the step < 2^31: the sum does not wrap.
  Value *After = B.CreateAdd(VB, Step, "vgrid.after", /*HasNUW=*/true);
  VB->addIncoming(After, Next);
  B.CreateCondBr(B.CreateICmpULT(After, G), Body, Done);
  ReturnInst::Create(Ctx, Done);
  return {Pre, Done};
}

/// Cost rule (docs/runs/launches/README.md, run 3): the flat copy of
/// elements of at most this many bytes is launched until the measurement
/// is in. Measured on the H200: rgb's 3-byte pixels 2.0-3.0x over plain at
/// 128 to 1024 threads a block, where the rewrite alone gives 1.0-1.5x;
/// aligned-types' 12- and 16-byte records 0.95-0.99x of plain, where the
/// rewrite gives 1.02-1.03x; its 32-byte records 1.0-1.1x of the rewrite.
constexpr int64_t PreferredElementBytes = 8;

/// Whether Kernel's flat variant is launched until measured: its elements
/// are small. Marked for the host by a global of the device code,
/// `K__coalda_prefer`, which `coalda cc` reads from the PTX.
bool preferVariant(Function &Kernel, const KernelFlatCopy &Flat) {
  if (Flat.Stride > PreferredElementBytes)
    return false;
  markVariant(Kernel, GridVariantPreferSuffix);
  return true;
}

/// The tile form (GridVariantTile.cpp): T's copy becomes the variant, marked
/// as of that form and, by the cost rule, launched until measured
/// (docs/runs/launches/README.md, run 4).
GridVariantResult makeTileVariant(Function &Kernel,
                                  const KernelTileTranspose &T) {
  annotateLike(*T.Variant, Kernel);
  emitTileVariant(T);
  markVariant(Kernel, GridVariantTileSuffix);
  markVariant(Kernel, GridVariantPreferSuffix);
  GridVariantResult Result;
  Result.Variant = T.Variant;
  Result.Form = GridVariantForm::TileTranspose;
  Result.Preferred = true;
  return Result;
}

} // namespace

GridVariantRefusal shapeBeforeRewrite(Function &Kernel) {
  for (Instruction &I : instructions(Kernel))
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (Call->isInlineAsm())
        return GridVariantRefusal::InlineAsm;
      // A helper's loops would not show below.
      if (!Call->getCalledFunction() ||
          !Call->getCalledFunction()->isIntrinsic())
        return GridVariantRefusal::Call;
    }
  LoopInfo LI{DominatorTree(Kernel)};
  return LI.empty() ? GridVariantRefusal::None
                    : GridVariantRefusal::KernelLoops;
}

void VariantShapes::dropTile() {
  if (Tile)
    Tile->Variant->eraseFromParent();
  Tile.reset();
}

GridVariantResult makeGridVariant(Function &Kernel,
                                  GridVariantRefusal BeforeRewrite,
                                  VariantShapes &Shapes,
                                  FunctionAnalysisManager &FAM) {
  GridVariantResult Result;
  bool UsesShared = false;
  Result.Why = BeforeRewrite == GridVariantRefusal::None
                   ? checkKernel(Kernel, UsesShared, FAM)
                   : BeforeRewrite;
  if (Result.Why == GridVariantRefusal::None && Shapes.Tile) {
    Result = makeTileVariant(Kernel, *Shapes.Tile);
    Shapes.Tile.reset(); // now the module's
    ++NumGridVariants;
    return Result;
  }
  Shapes.dropTile();
  const std::optional<KernelFlatCopy> &Flat = Shapes.Flat;
  // Cost rule (docs/runs/launches/README.md, runs 2 and 3): a variant
  // that only loops over the original blocks measured no faster than the
  // rewritten kernel (rgb's copy at 256 and 512 threads, matrixT's
  // transpose) or slower (gaussian16's Fan2, 0.92x).
  if (Result.Why == GridVariantRefusal::None && !Flat &&
      !opts::ReshapeBlockLoops)
    Result.Why = GridVariantRefusal::BlockLoopCost;
  if (Result.Why != GridVariantRefusal::None) {
    LLVM_DEBUG(dbgs() << "coalda: no grid variant of " << Kernel.getName()
                      << ": " << describe(Result.Why) << "\n");
    ++NumGridRefused;
    return Result;
  }
  Result.Variant = cloneWithGridParam(Kernel);
  auto [Pre, Done] = wrapInBlockLoop(*Result.Variant, UsesShared);
  if (Flat) {
    emitFlatVariant(*Result.Variant, *Flat, Pre, Done);
    Result.Form = GridVariantForm::FlatCopy;
    Result.Preferred = preferVariant(Kernel, *Flat);
  }
  ++NumGridVariants;
  return Result;
}

StringRef describe(GridVariantRefusal Why) {
  switch (Why) {
  case GridVariantRefusal::None:
    return "launch reshaped where its grid is larger than the device "
           "holds, chosen at run time by measurement: the kernel or its "
           "variant on fewer blocks in x";
  case GridVariantRefusal::KernelLoops:
    return "launch kept: each thread loops over its own work, so the block "
           "rate does not bound the kernel";
  case GridVariantRefusal::Call:
    return "launch kept: the kernel calls a function, which may read "
           "blockIdx";
  case GridVariantRefusal::InlineAsm:
    return "launch kept: inline assembly may read blockIdx or synchronize";
  case GridVariantRefusal::GridRegister:
    return "launch kept: the kernel reads a grid or cluster register";
  case GridVariantRefusal::SpinWait:
    return "launch kept: an atomic or volatile access in a loop may wait "
           "for another block, which a block looping over blocks could "
           "deadlock";
  case GridVariantRefusal::SharedNoBarrier:
    return "launch kept: the kernel shares memory without __syncthreads()";
  case GridVariantRefusal::ExitBeforeSync:
    return "launch kept: a thread may return while others of its block "
           "still synchronize";
  case GridVariantRefusal::ClusterLaunch:
    return "launch kept: the kernel declares a cluster shape";
  case GridVariantRefusal::BlockLoopCost:
    return "launch kept: not profitable: a variant that loops over the "
           "original blocks measured no faster; only a kernel whose whole "
           "effect is one copy (one flat copy) or one transposed store "
           "(32x32 tiles) gets a variant";
  }
  llvm_unreachable("unknown refusal");
}

StringRef describe(GridVariantForm Form) {
  switch (Form) {
  case GridVariantForm::BlockLoop:
    return "each block loops over original blocks";
  case GridVariantForm::FlatCopy:
    return "one flat copy of the original grid's elements by all threads "
           "when aligned and disjoint, else each block loops over original "
           "blocks";
  case GridVariantForm::TileTranspose:
    return "each block runs a 32x32 tile of original blocks, its "
           "transposed stores written 32 to a column";
  case GridVariantForm::Rewrite:
    return "the kernel as written kept as a variant on the same grid, "
           "beside its rewrite";
  }
  llvm_unreachable("unknown form");
}

StringRef describeReshaped(GridVariantForm Form) {
  if (Form == GridVariantForm::Rewrite)
    return "chosen at run time by measurement: the rewritten kernel or the "
           "original, on the launch's own grid";
  if (Form == GridVariantForm::TileTranspose)
    return "launch reshaped (4 virtual blocks per block at 32x8 and 16x16 "
           "threads), chosen at run time by measurement: the kernel or its "
           "variant on a grid of 32x32 tiles";
  return describe(GridVariantRefusal::None);
}

StringRef formName(GridVariantForm Form) {
  switch (Form) {
  case GridVariantForm::BlockLoop:
    return "block loop";
  case GridVariantForm::FlatCopy:
    return "flat copy";
  case GridVariantForm::TileTranspose:
    return "tile transpose";
  case GridVariantForm::Rewrite:
    return "rewrite";
  }
  llvm_unreachable("unknown form");
}

} // namespace coalda
