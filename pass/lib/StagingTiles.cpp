//===- StagingTiles.cpp - Staging legality, step 4: the tiles' size ------===//
//
// Step 4 of staging legality (StagingLegality.cpp runs the steps). The
// kernel's shared memory and launch bounds it reads are SharedBudget.h's
// (chunk windows read them too).
//
//  4. Tiles: sized for __launch_bounds__ (maxntid.x) when given, else for
//     1024, 512 or 256 threads, whichever fits 48 KB (32 KB for a block that
//     only reads) with the kernel's own static shared memory; a larger
//     block runs the original code. Written-only arrays in warp tiles whose
//     tiles do not fit together go through one tile in turn, sized for the
//     largest element (ArraysInTurn).
//
//===----------------------------------------------------------------------===//

#include "StagingLegalityImpl.h"
#include "Options.h"
#include "SharedBudget.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

STATISTIC(NumArraysInTurn, "Legal stagings whose arrays go through one tile "
                           "in turn");

namespace coalda {

namespace {

/// The tiles of a block that only reads (see sizeTiles).
constexpr uint64_t ReadOnlyTileLimit = 32 * 1024;

/// The threads tiles of PerThread bytes per thread are sized for (P's
/// Capacity), or false when none fits Limit.
bool fitCapacity(const StagingCandidate &C, StagingPlan &P, const Function &F,
                 const SharedBudget &Shared, uint64_t PerThread,
                 uint64_t Limit) {
  if (unsigned Bound = launchBoundX(F)) {
    P.Capacity = Bound;
    P.CapacityFromLaunchBounds = true;
    return Shared.fits(PerThread, Bound, Limit);
  }
  uint64_t Budget = std::min<uint64_t>(Limit, opts::StageTileBudget);
  // Cost rule: a small element's load, barriers and store do not pay in
  // the widest blocks (they run the original code, decided before any
  // barrier).
  unsigned Most = any_of(C.Arrays,
                         [](const StagedArray &A) {
                           return A.Loaded && !A.Transposed && A.Stride <= 16;
                         })
                      ? opts::StageSmallRMWThreads
                      : 1024u;
  for (unsigned Threads : {1024u, 512u, 256u})
    if (Threads <= Most &&
        (Shared.fits(PerThread, Threads, Budget) || Threads == 256)) {
      if (!Shared.fits(PerThread, Threads, Limit))
        return false;
      P.Capacity = Threads;
      return true;
    }
  return false;
}

/// Whether C's arrays may go through one tile in turn: several arrays, all
/// written and none read (their values come from the region's stores, so
/// no array's tile has to hold loaded bytes while another's is in use), in
/// warp tiles (measured: lulesh's hgc, six 64-byte records per thread,
/// 3.22x in one 2 KB warp tile per array, docs/probe/lulesh_hgc_stores.cu)
/// and not in a grid-stride loop (each iteration would flush every array
/// in turn: not measured).
bool arraysInTurnApply(const StagingCandidate &C, const StagingPlan &P) {
  return opts::StageArraysInTurn && C.Arrays.size() > 1 && P.WarpTile &&
         !P.GridLoop && all_of(C.Arrays, [](const StagedArray &A) {
           return A.Written && !A.Loaded && !A.Transposed && !A.Windowed &&
                  A.Conditional.empty();
         });
}

} // namespace

/// 4. The threads the tiles are sized for, or why none fits.
Verdict sizeTiles(const StagingCandidate &C, StagingPlan &P,
                  const Function &F) {
  std::variant<SharedBudget, Missed> Got = sharedBudget(F, "tile");
  if (auto *NoBudget = std::get_if<Missed>(&Got))
    return miss(NoBudget->Reason, std::move(NoBudget->Detail));
  const SharedBudget &Shared = std::get<SharedBudget>(Got);
  // A transposed store's slot of thread (x, y) is y*(ntid.x+1) + x: the
  // padding column avoids bank conflicts, so the tile has up to twice as
  // many slots as threads.
  uint64_t PerThread = C.bytesPerThread() * (C.transposed() ? 2 : 1);
  // A block that only reads keeps L1 for the blocks that run the original
  // code: a 48 KB tile measured 0.61x there (192-byte elements, 512 threads).
  bool ReadOnly = none_of(
      C.Arrays, [](const StagedArray &A) { return A.Written || A.Transposed; });
  uint64_t Limit = ReadOnly ? ReadOnlyTileLimit : StaticSharedLimit;
  if (fitCapacity(C, P, F, Shared, PerThread, Limit))
    return std::nullopt;
  unsigned TriedFor = P.CapacityFromLaunchBounds ? P.Capacity : 256u;
  bool InTurn = arraysInTurnApply(C, P);
  if (InTurn && fitCapacity(C, P, F, Shared, C.largestStride(), Limit)) {
    LLVM_DEBUG(dbgs() << "coalda: staging the arrays in turn through one "
                      << C.largestStride() * P.Capacity << "-byte tile\n");
    P.ArraysInTurn = true;
    ++NumArraysInTurn;
    return std::nullopt;
  }
  return miss(
      MissedReason::StagingTileTooLarge,
      "tiles of " + std::to_string(PerThread) + " bytes per thread for " +
          std::to_string(TriedFor) +
          (ReadOnly ? " threads do not fit the 32 KB a block that "
                      "only reads may take (the rest of the SM's "
                      "shared memory is L1 for the original code)"
                    : " threads do not fit the 48 KB of static "
                      "shared memory (more is dynamic shared memory, "
                      "which only the launch in host code can ask for)") +
          (InTurn ? ", nor does the largest element's alone (" +
                        std::to_string(C.largestStride()) +
                        " bytes), which one array at a time would take"
                  : ""));
}

} // namespace coalda
