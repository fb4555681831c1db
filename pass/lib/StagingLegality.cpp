//===- StagingLegality.cpp - When staging through shared memory is right --===//
//
// Phase 2 of the staging rewrite, per candidate block AB, in four numbered
// steps, each in its own file (StagingLegalityImpl.h declares them):
//
//  1. The cost rule (StagingCost.cpp): the arrays worth staging; 1b, small
//     elements, and 1c, the kernel's other work, once the region is known.
//  2. Where the barriers go (StagingRegion.cpp): the region between the
//     phases, in block or warp tiles, in a grid-stride loop or not.
//  3. Interference (StagingInterference.cpp): what the thread does between
//     the phases and around them; run-time overlap checks, barriers.
//  4. Tiles (StagingTiles.cpp): the threads the tiles are sized for.
//
// This file runs them for each candidate (decide), with a transposed
// store's own checks in place of the cost rule, and keeps one staging per
// kernel (decideStagings).
//
//===----------------------------------------------------------------------===//

#include "StagingLegalityImpl.h"
#include "ActiveThreads.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "RewriteKind.h"
#include "ThreadFunctions.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/IR/Dominators.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

STATISTIC(NumStagingsLegal, "Staging candidates found legal");
STATISTIC(NumWarpTiles, "Legal stagings in warp tiles");

namespace coalda {

Missed miss(MissedReason R, std::string Detail) {
  LLVM_DEBUG(dbgs() << "coalda: staging rejected: " << Detail << "\n");
  return Missed{R, std::move(Detail)};
}

namespace {

/// A read-modify-written transposed element is loaded in the load phase by
/// the thread that will store it (the owner's address recomputed), so every
/// load of it must be simple and its address a thread function.
Verdict checkTransposedLoads(const StagedArray &A) {
  for (const AccessExpr *M : drop_begin(A.Accesses)) {
    if (!M->isSimple())
      return miss(MissedReason::VolatileOrAtomic,
                  "the transposed element's load is volatile or atomic");
    if (opts::TransposeAddressTile || !isThreadFunction(M->pointer()))
      return miss(MissedReason::StagingAccessBetween,
                  "the transposed element is also read, and its address is "
                  "not a function of the arguments and the thread index, so "
                  "the block cannot load the column pieces for it");
  }
  return std::nullopt;
}

/// A staging moves one element of an array per thread: the arrays of a
/// base whose accesses reach several per thread stay where they are (the
/// accesses are then other accesses of the region, as any array's left
/// out); a candidate with nothing else is refused.
Verdict leaveSeveralElements(StagingCandidate &C) {
  if (C.SeveralElements.empty())
    return std::nullopt;
  auto Several = [&](const StagedArray &A) {
    return C.SeveralElements.contains(A.Base);
  };
  const StagedArray *First = &*find_if(C.Arrays, Several);
  std::string Why = baseName(First->Base) +
                    "'s accesses reach several of its elements per thread (a "
                    "constant number of elements apart): a staging moves one "
                    "element of an array per thread";
  LLVM_DEBUG(dbgs() << "coalda: staging: " << Why << "\n");
  if (all_of(C.Arrays, Several)) // the candidate's arrays, as refused
    return miss(MissedReason::StagingSeveralElements, Why);
  std::vector<StagedArray> Kept;
  for (StagedArray &A : C.Arrays)
    if (Several(A))
      C.LeftOut.push_back({std::move(A), Why});
    else
      Kept.push_back(std::move(A));
  C.Arrays = std::move(Kept);
  return std::nullopt;
}

Verdict decide(StagingOutcome &O, PostDominatorTree &PDT, DominatorTree &DT,
               LoopInfo &LI, ScalarEvolution &SE, const CycleInfo &Cycles,
               ActiveThreads &Threads) {
  StagingCandidate &C = O.Candidate;
  StagingPlan &P = O.Plan;
  bool InLoop = Cycles.getCycle(C.Block);
  if (InLoop && C.transposed())
    return miss(MissedReason::StagingInLoop,
                "the transposed store is in a loop: permuting per iteration "
                "is not implemented");
  if (C.transposed()) {
    // Any width gains: a transposed store fills whole sectors once permuted.
    if (!C.Arrays.front().Accesses.front()->isSimple())
      return miss(MissedReason::VolatileOrAtomic,
                  "the transposed store is volatile or atomic");
    // The storing thread recomputes the owner's address when it can: no
    // address tile, and 8 bytes less shared traffic per element.
    for (StagedArray &A : C.Arrays) {
      A.AddressComputed = !opts::TransposeAddressTile &&
                          isThreadFunction(A.Accesses.front()->pointer());
      if (Verdict V = checkTransposedLoads(A))
        return V;
    }
  } else if (Verdict V = leaveSeveralElements(C)) {
    return V;
  } else if (Verdict V = applyCostRule(C)) {
    return V;
  } else {
    placeCandidate(C, DT); // the arrays left out may have held the ends
  }
  if (Verdict V = InLoop ? findLoopRegion(C, P, Threads)
                         : findRegion(C, P, PDT, DT, Cycles))
    return V;
  auto [Insts, CheckPoint] = regionInstructions(C, P);
  DenseSet<const Instruction *> Staged;
  for (const StagedArray &A : C.Arrays) {
    for (const AccessExpr *M : A.Accesses)
      Staged.insert(M->Inst);
    if (!canMaterializeAt(A.Accesses.front()->pointer(), CheckPoint, DT))
      return miss(MissedReason::StagingAccessBetween,
                  "the address of " + baseName(A.Base) +
                      "'s element is computed from memory the guard reads, "
                      "so the row cannot be staged before it");
  }
  for (Instruction *I : Insts)
    if (!Staged.contains(I))
      if (Verdict V = checkOther(*I, C, P, CheckPoint, DT))
        return V;
  if (C.transposed())
    if (Verdict V = checkStoresBeforeLoads(C, Insts, Staged, DT))
      return V;
  if (Verdict V = smallElementRule(C, Insts, P))
    return V;
  if (Verdict V = kernelWorkRule(C, LI, SE))
    return V;
  markBarriersOutside(C, P, Insts, Staged);
  for (unsigned J = 0; J < C.Arrays.size(); ++J)
    for (unsigned K = J + 1; K < C.Arrays.size(); ++K)
      if ((C.Arrays[J].Written || C.Arrays[K].Written) &&
          !provablyDisjoint(C.Arrays[J].Base, C.Arrays[K].Base))
        P.ArrayChecks.push_back({J, K});
  if (Verdict V = checkCollectives(Insts, P))
    return V;
  return sizeTiles(C, P, *C.Block->getParent());
}

} // namespace

void decideStagings(std::vector<StagingOutcome> &Stagings,
                    const CoalescingInfo &Info, PostDominatorTree &PDT,
                    DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE,
                    const CycleInfo &Cycles) {
  ActiveThreads Threads(Info, PDT, DT, LI, Cycles);
  // One staging per kernel: of the legal candidates, the one with the most
  // staged accesses (the first of those), not a lone store before them
  // that part of the element could now be staged for.
  StagingOutcome *Best = nullptr;
  auto Accesses = [](const StagingOutcome &O) {
    size_t N = 0;
    for (const StagedArray &A : O.Candidate.Arrays)
      N += A.Accesses.size();
    return N;
  };
  for (StagingOutcome &O : Stagings) {
    O.Plan.Atoms = &Info.atoms();
    O.Skip = decide(O, PDT, DT, LI, SE, Cycles, Threads);
    if (O.legal() && (!Best || Accesses(O) > Accesses(*Best)))
      Best = &O;
  }
  for (StagingOutcome &O : Stagings) {
    if (!O.legal())
      continue;
    if (&O != Best) {
      O.Skip = miss(MissedReason::StagingOnePerKernel,
                    "another block of this kernel is staged (one staging "
                    "per kernel: the one with the most accesses)");
      continue;
    }
    ++NumStagingsLegal;
    // A warp tile's go is the warp's ballot; the block-wide kinds may
    // decide theirs without a vote.
    if (O.kind() == RewriteKind::WarpTile)
      ++NumWarpTiles;
    else
      findUniformGo(O.Candidate, O.Plan, Info);
  }
}

} // namespace coalda
