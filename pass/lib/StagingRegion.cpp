//===- StagingRegion.cpp - Staging legality, step 2: the region ----------===//
//
// Step 2 of staging legality (StagingLegality.cpp runs the steps): where the
// barriers go, and so the region between the load and store phases; block
// or warp tiles.
//
//  2. Where the barriers go: the accesses lie in one control class (blocks
//     run once by the same threads: a block, and those after libdevice's
//     branches, collect made them so), whose first block is H and whose
//     blocks run at most once per thread (in no cycle). Either every thread
//     of the block runs them (the region spans the first staged access to
//     the last, across the blocks between), or H's only predecessor D ends
//     in a branch that every thread reaches once, and H's first post-
//     dominator M outside what H dominates post-dominates D (every thread
//     meets again there): the region is D's branch up to M. Every thread
//     that enters H runs every staged access once, so the stores that cover
//     the element in the class cover it on every path. In a loop: the
//     accesses lie in one block that runs once per iteration of a
//     grid-stride loop `for (i = lane index; i < n; i += step)` (not nested,
//     ActiveThreads finds it); the region is the span from the first
//     access to the last, staged in the iterations whose row is full (the
//     emitter's iterationFull: then every thread of the block is in it), and
//     a barrier separates each such iteration from the next one's tile
//     writes (the next vote's, or one at its end). With warp tiles (the
//     cost rule's, or the option's) each iteration's full warps instead,
//     a warp whose lanes run together in one iteration (the emitter checks
//     that their elements are one row: a GPU may run a lane of the next
//     iteration with them).
//     Where no block barrier may go (D is not reached by every thread: an
//     early return before it reads memory; or no such D or M), warp
//     tiles: the region is the span from the first staged access to the
//     last, and a warp whose 32 threads reach the first together
//     (activemask) and pass the checks (a ballot) is staged on its own, with
//     __syncwarp for the barriers (findWarpRegion). Cost rule: a block
//     that writes elements of at least 24 bytes takes warp tiles even where
//     a block tile could go (measured faster at every block size, in
//     grid-stride loops too; smaller elements measured slower in warp
//     tiles: warpTilesMeasuredFaster).
//
//===----------------------------------------------------------------------===//

#include "StagingLegalityImpl.h"
#include "ActiveThreads.h"
#include "Options.h"
#include "ThreadFunctions.h"

#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

namespace coalda {

namespace {

/// Written elements of at least this many bytes go in warp tiles.
constexpr int64_t WarpTileMinElement = 24;

void markWarpTiles(StagingPlan &P, StagingPlan::WarpReason Why) {
  LLVM_DEBUG(dbgs() << "coalda: staging in warp tiles\n");
  P.WarpTile = true;
  P.WarpWhy = Why;
}

/// 2, warp tiles: the span from the first staged access to the last, as
/// when every thread runs them, but decided per warp: the threads that reach
/// the first access (in no cycle: at most once each) all run the others
/// (one control class), and a warp whose 32 threads reach it together goes
/// on (the emitter's ballot over activemask). No point of the block, and no
/// guard, has to be found.
Verdict findWarpRegion(const StagingCandidate &C, StagingPlan &P,
                       const CycleInfo &Cycles,
                       StagingPlan::WarpReason Why) {
  if (Cycles.getCycle(C.Block))
    return miss(MissedReason::StagingInLoop,
                "the accesses are in a loop: warp tiles are staged only "
                "outside loops");
  P.InnerGuards.clear();
  P.Guard = nullptr;
  P.Merge = nullptr;
  markWarpTiles(P, Why);
  return std::nullopt;
}

/// Cost rule: a block that writes elements of at least 24 bytes (every
/// staged array's) is staged in warp tiles where a block tile could go too:
/// measured faster on an H200 (24- to 64-byte records, with and without
/// math: 1.03-1.48 times the block tile's speed-up, all but a 24-byte axpy
/// at 1024 threads, 0.98; docs/benchmarks.md "Warp tiles"; in grid-stride
/// loops 32-byte elements 1.52-2.18x against 1.25-1.39x, "Warp tiles in
/// grid-stride loops"); 12-byte elements lost 2-20% in warp tiles at 128
/// and 256 threads (in loops up to 23%), so they keep the block's.
bool warpTilesMeasuredFaster(const StagingCandidate &C) {
  return any_of(C.Arrays, [](const StagedArray &A) { return A.Written; }) &&
         all_of(C.Arrays, [](const StagedArray &A) {
           return A.Stride >= WarpTileMinElement;
         });
}

/// Whether an edge into Succ leads straight to M: Succ is M, or a block
/// that only branches to M (-O0's `if (x >= n) return;` goes through a
/// block of its own to the function's one return block).
bool leadsStraightTo(BasicBlock *Succ, BasicBlock *M) {
  if (Succ == M)
    return true;
  auto *Jump = dyn_cast<BranchInst>(Succ->getTerminator());
  return Jump && Jump->isUnconditional() && Jump->getSuccessor(0) == M &&
         Succ->sizeWithoutDebug() == 1;
}

bool branchesStraightTo(BasicBlock *D, BasicBlock *M) {
  return any_of(successors(D),
                [&](BasicBlock *Succ) { return leadsStraightTo(Succ, M); });
}

/// 2. Where the block's barriers go, or why none may.
Verdict findBlockRegion(const StagingCandidate &C, StagingPlan &P,
                        PostDominatorTree &PDT, DominatorTree &DT,
                        const CycleInfo &Cycles) {
  BasicBlock *AB = C.Block;
  BasicBlock *Entry = &AB->getParent()->getEntryBlock();
  if (PDT.dominates(AB, Entry))
    return std::nullopt; // every thread of the block runs AB
  // The accesses' blocks are run by the threads that enter Head.
  BasicBlock *Head = controlClassHead(AB, DT, PDT, Cycles);
  BasicBlock *D = Head->getSinglePredecessor();
  auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return miss(MissedReason::StagingGuard,
                "the accesses are not behind one branch: only `if (cond) "
                "{...}` and early returns are staged");
  // Where the threads that entered Head meet the others: its first
  // post-dominator outside what it dominates.
  BasicBlock *M = Head;
  do {
    DomTreeNode *Next = PDT.getNode(M)->getIDom();
    M = Next ? Next->getBlock() : nullptr;
  } while (M && DT.dominates(Head, M));
  // A chain of early returns (`if (x >= M) return; if (y >= N) return;`):
  // climb to the first branch every thread reaches; the ones after it are
  // voted on there, so their blocks must not touch memory and their
  // conditions must be computable at the first.
  BasicBlock *On = Head;
  while (!Cycles.getCycle(D) && !PDT.dominates(D, Entry) && M &&
         branchesStraightTo(D, M) && D->getSinglePredecessor() &&
         none_of(*D, [](const Instruction &I) {
           return I.mayReadOrWriteMemory();
         })) {
    BasicBlock *Up = D->getSinglePredecessor();
    auto *UpBr = dyn_cast<BranchInst>(Up->getTerminator());
    if (!UpBr || !UpBr->isConditional() || !branchesStraightTo(Up, M))
      break;
    P.InnerGuards.push_back({Br, Br->getSuccessor(0) == On});
    On = D;
    D = Up;
    Br = UpBr;
  }
  if (Cycles.getCycle(D) || !PDT.dominates(D, Entry))
    return miss(MissedReason::StagingGuard,
                "the branch before the accesses is not reached once by every "
                "thread of the block, so no barrier may go there");
  if (!M || !PDT.dominates(M, D) || !DT.dominates(D, M) || Cycles.getCycle(M))
    return miss(MissedReason::StagingGuard,
                "the threads of the block do not all meet after the accesses, "
                "so no barrier may go there");
  for (const StagingPlan::InnerGuard &G : P.InnerGuards)
    if (!canMaterializeAt(G.Branch->getCondition(), Br, DT))
      return miss(MissedReason::StagingGuard,
                  "a later early return's condition reads memory or a value "
                  "computed after the first, so the block cannot vote on it "
                  "there");
  P.Guard = Br;
  P.ActiveOnTrue = Br->getSuccessor(0) == On;
  P.Merge = M;
  return std::nullopt;
}

} // namespace

/// 2. Block or warp tiles: warp tiles where no block barrier may go, and
/// where the cost rule measured them faster (transposed stores permute
/// across the block's rows: block tiles only).
Verdict findRegion(const StagingCandidate &C, StagingPlan &P,
                   PostDominatorTree &PDT, DominatorTree &DT,
                   const CycleInfo &Cycles) {
  using Reason = StagingPlan::WarpReason;
  opts::WarpTiles Mode = opts::StageWarpTiles;
  if (!C.transposed() && Mode == opts::WarpTiles::Always)
    return findWarpRegion(C, P, Cycles, Reason::Forced);
  Verdict Block = findBlockRegion(C, P, PDT, DT, Cycles);
  if (C.transposed() || Mode == opts::WarpTiles::Never)
    return Block;
  if (Block)
    return findWarpRegion(C, P, Cycles, Reason::NoBlockBarrier);
  if (Mode == opts::WarpTiles::Measured && warpTilesMeasuredFaster(C))
    return findWarpRegion(C, P, Cycles, Reason::LargeElements);
  return std::nullopt;
}

/// 2 in a loop: the accesses' one block runs once per iteration of a
/// grid-stride loop; the region is their span (no Guard). Where a thread
/// may skip them on some iterations (`if (!alive[i]) continue;`) no block
/// tile may go: warp tiles, unless the option forbids them.
Verdict findLoopRegion(const StagingCandidate &C, StagingPlan &P,
                       ActiveThreads &Threads) {
  if (C.Block != C.LastBlock)
    return miss(MissedReason::StagingInLoop,
                "the accesses in the loop lie in several blocks: staging per "
                "iteration takes one block of them");
  using Reason = StagingPlan::WarpReason;
  opts::WarpTiles Mode = opts::StageWarpTiles;
  Instruction *First = accessSpan(C).first;
  RewritePlan Loop;
  bool Skipped = false;
  if (Verdict V = Threads.findLoop(C.Block, First, Loop)) {
    Loop = RewritePlan();
    Skipped = Mode != opts::WarpTiles::Never &&
              !Threads.findLoop(C.Block, First, Loop,
                                /*EveryIteration=*/false);
    if (!Skipped)
      return miss(MissedReason::StagingInLoop, V->Detail);
    LLVM_DEBUG(dbgs() << "coalda: the accesses are skipped on some "
                         "iterations: warp tiles only\n");
  }
  if (Loop.Kind != Guard::Loop || Loop.Bounds.front().LaneOnHi)
    return miss(MissedReason::StagingInLoop,
                "the accesses are in a loop every thread of the block runs "
                "as often as the others (around the element, or a per-thread "
                "chunk loop that is not unrolled): staging per iteration "
                "would move the element on every pass, and staging around "
                "the loop is not implemented");
  P.GridLoop = StagingPlan::GridStride{Loop.Bounds.front(), *Loop.LoopStep,
                                       Loop.LoopStart};
  // Warp tiles per iteration where the option asks for them (the emitter
  // checks that the warp's lanes are in one iteration: their elements are
  // then one row).
  if (Skipped)
    markWarpTiles(P, Reason::NoBlockBarrier);
  else if (Mode == opts::WarpTiles::Always)
    markWarpTiles(P, Reason::Forced);
  else if (Mode == opts::WarpTiles::Measured && warpTilesMeasuredFaster(C))
    markWarpTiles(P, Reason::LargeElements);
  return std::nullopt;
}

/// The instructions between the phases, and where the run-time checks are
/// computed (before the region).
std::pair<SmallVector<Instruction *, 32>, Instruction *>
regionInstructions(const StagingCandidate &C, const StagingPlan &P) {
  SmallVector<Instruction *, 32> Insts;
  // Without a guard: from the first staged access to the last, across the
  // blocks between (every path from the first's block reaches the last's).
  // With one: the early returns' blocks first (they touch no memory, but say
  // so to every check anyway), then the guarded side up to the merge point.
  auto [First, Last] = accessSpan(C);
  BasicBlock *Start = First->getParent();
  if (P.Guard) {
    for (const StagingPlan::InnerGuard &G : reverse(P.InnerGuards))
      for (Instruction &I : *G.Branch->getParent())
        Insts.push_back(&I);
    // The innermost guard's guarded side: the accesses' control class.
    const BranchInst *Inner = P.Guard;
    bool OnTrue = P.ActiveOnTrue;
    if (!P.InnerGuards.empty())
      std::tie(Inner, OnTrue) = std::pair(P.InnerGuards.front().Branch,
                                          P.InnerGuards.front().ActiveOnTrue);
    Start = Inner->getSuccessor(OnTrue ? 0 : 1);
    First = &Start->front();
    Last = nullptr;
  }
  SmallVector<BasicBlock *, 8> Work{Start};
  SmallPtrSet<BasicBlock *, 8> Seen{Start};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    bool Ends = Last && BB == Last->getParent();
    Instruction *I = BB == Start ? First : &BB->front();
    for (; I != (Ends ? Last->getNextNode() : nullptr); I = I->getNextNode())
      Insts.push_back(I);
    if (Ends)
      continue;
    for (BasicBlock *S : successors(BB))
      if (S != P.Merge && Seen.insert(S).second)
        Work.push_back(S);
  }
  return {Insts, P.Guard ? P.Guard : First};
}

} // namespace coalda
