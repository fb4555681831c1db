//===- ActiveThreads.h - Which threads of a block row run a copy ---------===//
//
// Private to the transformation; see ActiveThreads.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_ACTIVETHREADS_H
#define COALDA_LIB_ACTIVETHREADS_H

#include "CopyGroup.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Intrinsics.h"

#include <memory>

namespace llvm {
class BasicBlock;
class ICmpInst;
class DominatorTree;
class Loop;
class LoopInfo;
class PHINode;
class PostDominatorTree;
} // namespace llvm

namespace coalda {

class UniformReach;

/// The comparison Cmp (Holds: it is true, else false) as `Lo < Hi` or
/// `Lo <= Hi`; false for equalities.
bool asLessThan(const llvm::ICmpInst *Cmp, bool Holds, PrefixBound &Out);

/// The conditions that all hold on the edge from Term's block to Taken, as
/// (condition, whether it is true): `a && b` taken when true gives both,
/// `a || b` taken when false gives both negated; none for a plain jump.
/// False when Term is not a branch.
bool edgeConditions(const llvm::Instruction *Term,
                    const llvm::BasicBlock *Taken,
                    llvm::SmallVectorImpl<std::pair<llvm::Value *, bool>> &Out);

/// The coefficient of the lane atom Tid in P when it is its only use of it
/// (linear), else nullopt.
std::optional<int64_t> laneCoefficient(const Poly &P, unsigned Tid);

/// Every value on the way from the lane register (tid.x, or tid.y; atom
/// Tid) to V that depends on it has V's width: an extension applies only to
/// the register read itself. Then a value that wraps inside a row does so
/// in that one width.
bool laneInOneWidth(const llvm::Value *V, unsigned Bits,
                    llvm::SmallPtrSetImpl<const llvm::Value *> &Seen,
                    const CoalescingInfo &Info, unsigned Tid,
                    llvm::Intrinsic::ID Register);

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
