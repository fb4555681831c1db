//===- ChunkWindowImpl.h - What the chunk windows' steps share --*- C++ -*-===//
//
// Private to the chunk windows: the loop facts that the load windows'
// legality (ChunkWindow.cpp) and the store windows' (StoreWindow.cpp) both
// ask of a site.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_CHUNKWINDOWIMPL_H
#define COALDA_LIB_CHUNKWINDOWIMPL_H

#include "Staging.h"

#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <utility>

namespace llvm {
class PHINode;
class SCEVAddRecExpr;
} // namespace llvm

namespace coalda {

/// BB runs once on every iteration of L that goes round (it dominates the
/// latch), and L has one exit, at its latch or its header; L is entered
/// from one block outside it.
bool runsEveryIteration(const llvm::BasicBlock *BB, const llvm::Loop *L,
                        const llvm::DominatorTree &DT);

/// BB runs on the iteration on which L exits too.
bool runsOnExitIteration(const llvm::BasicBlock *BB, const llvm::Loop *L);

/// AR on the last iteration that runs Site, expandable before L; null when
/// that is not known before L.
const llvm::SCEV *lastIteration(const llvm::SCEVAddRecExpr *AR,
                                const llvm::Loop *L,
                                const llvm::BasicBlock *Site,
                                llvm::ScalarEvolution &SE);

/// The offsets [Lo, Hi) that A's sites access of a row in one iteration,
/// when each byte of it is accessed and the sites are all in one loop at
/// one uniform part.
std::optional<std::pair<int64_t, int64_t>>
iterationRecord(const StagedArray &A);

/// The automaton's reading of A's uniform part as c*iter(IV) beside terms
/// invariant in L (-O0's sign-extended int index, which ScalarEvolution
/// cannot follow): IV, L's induction phi, and c > 0, the bytes the address
/// advances by an iteration.
struct IterationTerm {
  const llvm::PHINode *IV = nullptr;
  int64_t BytesPerIteration = 0;
};
std::optional<IterationTerm> iterationTerm(const AccessExpr &A,
                                           const llvm::Loop *L,
                                           const std::vector<Atom> &Atoms);

/// Store windows (StoreWindow.cpp): adds to C, after its load windows'
/// cost rules, the arrays whose chunk stores go through a window flushed by
/// warps, in loops where C windows loads; the stores that cannot, left out
/// with their reason. P gets the run-time range checks they need.
void addStoreWindows(StagingCandidate &C, StagingPlan &P,
                     const CoalescingInfo &Info,
                     const llvm::DenseSet<const llvm::Instruction *> &Claimed,
                     llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                     llvm::ScalarEvolution &SE);

/// The range checks of C's store windows, each operand safe to compute at
/// the end of the vote block (else the store window is left out).
void keepExpandableChecks(StagingCandidate &C, StagingPlan &P);

/// Leaves out of C its store window AI, with Why, and the range checks
/// that name it.
void leaveOutStoreWindow(StagingCandidate &C, StagingPlan &P, unsigned AI,
                         const std::string &Why);

} // namespace coalda

#endif // COALDA_LIB_CHUNKWINDOWIMPL_H
