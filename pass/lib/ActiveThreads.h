//===- ActiveThreads.h - Which threads of a block row run a copy ---------===//
//
// Private to the transformation; see ActiveThreads.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_ACTIVETHREADS_H
#define COALDA_LIB_ACTIVETHREADS_H

#include "CopyGroup.h"

#include <memory>

namespace llvm {
class BasicBlock;
class DominatorTree;
class Loop;
class LoopInfo;
class PHINode;
class PostDominatorTree;
} // namespace llvm

namespace coalda {

class UniformReach;

/// The innermost loop around BB that can iterate (a `do { } while (0)` at
/// -O0 cannot), or null.
llvm::Loop *liveLoopFor(const llvm::LoopInfo &LI, const llvm::BasicBlock *BB);

/// Finds the threads of a row that run a copy, for legality.
class ActiveThreads {
public:
  ActiveThreads(const CoalescingInfo &Info, llvm::PostDominatorTree &PDT,
                llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                const llvm::CycleInfo &Cycles);
  ~ActiveThreads();

  /// All of the row (P.Kind stays None), or a prefix (P's guard, bounds and
  /// the values to check at run time), or why not.
  Verdict find(const CopyGroup &G, RewritePlan &P);

private:
  const CoalescingInfo &Info;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  const llvm::CycleInfo &Cycles;
  std::unique_ptr<UniformReach> Reach;
  unsigned Tid;

  Verdict findBoundsGuards(const CopyGroup &G, RewritePlan &P);
  Verdict findGridStrideLoop(const CopyGroup &G, llvm::Loop *L,
                             RewritePlan &P);
  /// Why B does not keep a prefix of the row (NotLane when its sides have
  /// the wrong form), or nothing.
  Verdict prefixBound(PrefixBound &B, const Missed &NotLane);
  std::optional<Poly> loopStep(const llvm::PHINode *Phi);
};

} // namespace coalda

#endif // COALDA_LIB_ACTIVETHREADS_H
