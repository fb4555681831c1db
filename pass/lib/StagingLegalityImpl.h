//===- StagingLegalityImpl.h - The steps of staging legality ----*- C++ -*-===//
//
// Private to staging legality: what its driver (StagingLegality.cpp) calls
// of each numbered step, in the step's own file (StagingCost.cpp,
// StagingRegion.cpp, StagingInterference.cpp, StagingTiles.cpp), and what
// the steps share.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_STAGINGLEGALITYIMPL_H
#define COALDA_LIB_STAGINGLEGALITYIMPL_H

#include "Staging.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace coalda {

class ActiveThreads;

/// A staging refused for reason R (printed with -debug-only=
/// coalda-staging-legality).
Missed miss(MissedReason R, std::string Detail);

// 1. The cost rule (StagingCost.cpp).

/// 1. Keeps the arrays of C worth staging (written ones first), or why none.
Verdict applyCostRule(StagingCandidate &C);

/// 1b. Small elements, once the region (its instructions, Region) is known.
Verdict smallElementRule(const StagingCandidate &C,
                         llvm::ArrayRef<llvm::Instruction *> Region,
                         const StagingPlan &P);

/// 1c. The kernel's other work beside the staged accesses.
Verdict kernelWorkRule(const StagingCandidate &C, llvm::LoopInfo &LI,
                       llvm::ScalarEvolution &SE);

// 2. Where the barriers go (StagingRegion.cpp).

/// 2. Block or warp tiles, outside loops: sets P's guard and merge point, or
/// its warp tiles.
Verdict findRegion(const StagingCandidate &C, StagingPlan &P,
                   llvm::PostDominatorTree &PDT, llvm::DominatorTree &DT,
                   const llvm::CycleInfo &Cycles);

/// 2 in a loop: sets P's grid-stride loop (and its warp tiles).
Verdict findLoopRegion(const StagingCandidate &C, StagingPlan &P,
                       ActiveThreads &Threads);

/// The instructions between the phases, and where the run-time checks are
/// computed (before the region).
std::pair<llvm::SmallVector<llvm::Instruction *, 32>, llvm::Instruction *>
regionInstructions(const StagingCandidate &C, const StagingPlan &P);

// 3. Interference (StagingInterference.cpp).

/// 3. One instruction between the phases that is not a staged access: a
/// refusal, nothing, or a run-time check added to P (computed at
/// CheckPoint).
Verdict checkOther(llvm::Instruction &I, const StagingCandidate &C,
                   StagingPlan &P, llvm::Instruction *CheckPoint,
                   llvm::DominatorTree &DT);

/// 3b. The barriers around the phases that memory the rest of the kernel
/// touches asks for.
void markBarriersOutside(
    const StagingCandidate &C, StagingPlan &P,
    llvm::ArrayRef<llvm::Instruction *> Region,
    const llvm::DenseSet<const llvm::Instruction *> &Staged);

/// 3c. A warp collective between the accesses, beside run-time checks.
Verdict checkCollectives(llvm::ArrayRef<llvm::Instruction *> Region,
                         const StagingPlan &P);

/// No store of the thread that can run before a read-modify-written
/// transposed element's loads writes it.
Verdict
checkStoresBeforeLoads(const StagingCandidate &C,
                       llvm::ArrayRef<llvm::Instruction *> Region,
                       const llvm::DenseSet<const llvm::Instruction *> &Staged,
                       const llvm::DominatorTree &DT);

// 4. Tiles (StagingTiles.cpp).

/// 4. The threads the tiles are sized for (P.Capacity), or why none fits.
Verdict sizeTiles(const StagingCandidate &C, StagingPlan &P,
                  const llvm::Function &F);

} // namespace coalda

#endif // COALDA_LIB_STAGINGLEGALITYIMPL_H
