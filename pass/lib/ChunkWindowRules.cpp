//===- ChunkWindowRules.cpp - The chunk windows' cost rules ---------------===//
//
// The cost rules of the chunk windows (the scheme and its measurements are
// in ChunkWindow.cpp's banner), applied after legality has made the
// candidate's arrays: an array with loads in a branch's arms (unless
// -coalda-window-arms, or refilled per iteration), an array whose rows are a
// constant under the minimum length apart, each left out on its own; then
// a loop that only reads its chunks takes the window only where its rows
// are a multiple of 128 bytes apart.
//
//===----------------------------------------------------------------------===//

#include "Options.h"
#include "SourceNames.h"
#include "Staging.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"

#define DEBUG_TYPE "coalda-window-legality"

using namespace llvm;

STATISTIC(NumWindowShortRows,
          "Arrays left out of a window for rows under the minimum length");
STATISTIC(NumWindowArmArrays,
          "Arrays left out of a window for loads in a branch's arms");

namespace coalda {

namespace {

/// I writes memory other than shared memory and the thread's own arrays: a
/// store, or a memcpy or memset (-O0 stores an int4 through a memcpy from a
/// local). A thread's own array (libdevice's sinf keeps its argument
/// reduction in one: michalewicz's loop was taken for one that stores,
/// 0.95x) is not global memory.
bool storesToGlobal(const Instruction &I) {
  const Value *Ptr = nullptr;
  if (const auto *St = dyn_cast<StoreInst>(&I))
    Ptr = St->getPointerOperand();
  else if (const auto *Mem = dyn_cast<MemIntrinsic>(&I))
    Ptr = Mem->getRawDest();
  if (!Ptr)
    return false;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS != 3 && AS != 5 && !isa<AllocaInst>(getUnderlyingObject(Ptr));
}

/// Some loop of the sites stores to global memory: a loop that only reads
/// its chunks (a reduction) is served well enough by L1 unless its rows
/// are a multiple of 128 bytes apart (the plan's RowModulus).
bool loopsStore(const StagingCandidate &C) {
  for (const StagedArray &A : C.Arrays)
    for (const WindowSite &S : A.Sites)
      for (const BasicBlock *BB : S.Loop->blocks())
        for (const Instruction &I : *BB)
          if (storesToGlobal(I))
            return true;
  return false;
}

/// The cost rule for a loop that only reads its chunks (a reduction): L1
/// serves it unless the rows are a multiple of 128 bytes apart. The tile's
/// static shared memory takes L1 from every block of the kernel, those that
/// run the original loop too (0.74-0.97x at run-time lengths that are not
/// such a multiple), so by default only compile-time row lengths qualify.
Verdict readOnlyRule(const StagingCandidate &C, StagingPlan &P) {
  const unsigned M = opts::WindowReadOnlyModulus;
  if (opts::WindowReadOnlyLoops == opts::WindowReadOnly::Never || !M)
    return windowMiss(MissedReason::StagingCostRule,
                "the loop only reads its chunks (no store to global memory "
                "in it) and -coalda-window-read-only=never");
  for (const StagedArray &A : C.Arrays) {
    if (A.Stride && (A.Stride < M || A.Stride % M))
      return windowMiss(MissedReason::StagingCostRule,
                  formatv("the loop only reads its chunks, and {0}'s rows "
                          "are {1} bytes apart, not a multiple of {2}: L1 "
                          "serves them (a window measured 0.37-1.36x at 32 "
                          "to 192 bytes, 1.2-2.3x at multiples: "
                          "docs/benchmarks.md, \"Chunk windows\")",
                          baseName(A.Base), A.Stride, M)
                      .str());
    if (!A.Stride &&
        opts::WindowReadOnlyLoops != opts::WindowReadOnly::RunTimeRows)
      return windowMiss(MissedReason::StagingCostRule,
                  "the loop only reads its chunks, and " + baseName(A.Base) +
                      "'s row length is known only at run time: the "
                      "tile's shared memory would cost the original loop "
                      "L1 at lengths not a multiple of 128 bytes "
                      "(0.74-0.97x; -coalda-window-read-only=runtime "
                      "takes it)");
  }
  // Run-time rows: each block tests them before the vote (see version()).
  P.RowModulus = M;
  return std::nullopt;
}

/// Leaves out of C each array that Why(array) gives a reason for, with it;
/// a miss with the first array's reason when none is left.
Verdict leaveOut(StagingCandidate &C,
                 function_ref<std::optional<std::string>(const StagedArray &)>
                     Why) {
  std::vector<StagedArray> Kept;
  size_t FirstLeft = C.LeftOut.size();
  for (StagedArray &A : C.Arrays) {
    if (std::optional<std::string> Reason = Why(A)) {
      LLVM_DEBUG(dbgs() << "coalda: window leaves out " << baseName(A.Base)
                        << ": " << *Reason << "\n");
      C.LeftOut.push_back({std::move(A), std::move(*Reason)});
    } else {
      Kept.push_back(std::move(A));
    }
  }
  C.Arrays = std::move(Kept);
  if (!C.Arrays.empty())
    return std::nullopt;
  // The report names the candidate by an array: the first left out takes
  // its place, with its reason; the others keep theirs.
  auto [First, Reason] = std::move(C.LeftOut[FirstLeft]);
  C.LeftOut.erase(C.LeftOut.begin() + FirstLeft);
  C.Arrays.push_back(std::move(First));
  return windowMiss(MissedReason::StagingCostRule, std::move(Reason));
}

/// The cost rule on short rows, decided here where a row's length is a
/// constant: each block tests it at run time (WindowMinRow), but a constant
/// row under that length never takes the window, while the tile's static
/// shared memory costs every block its occupancy and L1 (dslash's
/// make_back, rows of 32 bytes: 0.37x with a 40 KB tile it never used).
std::optional<std::string> shortRows(const StagedArray &A) {
  if (A.Stride <= 0 || A.Stride >= (int64_t)opts::WindowMinRow)
    return std::nullopt;
  ++NumWindowShortRows;
  return formatv("{0}'s rows are {1} bytes apart, under {2}: L1 serves such "
                 "short rows, and the window's tile would cost every block "
                 "its shared memory while no block takes it (dslash's "
                 "make_back: 0.37x)",
                 baseName(A.Base), A.Stride, (unsigned)opts::WindowMinRow)
      .str();
}

/// The cost rule on loads in a branch's arms: the one corpus loop of that
/// shape, dslash's `k == 0 ? mult_su3_mat_vec : mult_su3_mat_vec_sum` over
/// 72-byte matrices, measured 0.66x windowed (every iteration refills each
/// 288-byte row's window twice or three times, one barrier pair after
/// another, where the original issues the matrix's 18 loads together and
/// L1 serves the sectors they share). -coalda-window-arms takes them. An
/// array refilled once per iteration with its record is not such a window:
/// its refill dominates the arms (dslash's matrices, perIteration).
std::optional<std::string> armSites(const StagedArray &A) {
  if (opts::WindowArms || A.perIteration() ||
      none_of(A.Sites, [](const WindowSite &S) { return S.InArm; }))
    return std::nullopt;
  ++NumWindowArmArrays;
  return baseName(A.Base) +
         "'s loads sit in the arms of a branch in its loop: the one such "
         "loop measured, dslash's, ran 0.66x windowed (each iteration "
         "refilled the window, one barrier pair after another, where the "
         "original issues the arm's loads together; -coalda-window-arms "
         "takes it)";
}

} // namespace

Verdict windowCostRules(StagingCandidate &C, StagingPlan &P) {
  if (Verdict V = leaveOut(C, armSites))
    return V;
  if (Verdict V = leaveOut(C, shortRows))
    return V;
  if (!loopsStore(C))
    if (Verdict V = readOnlyRule(C, P))
      return V;
  return std::nullopt;
}

} // namespace coalda
