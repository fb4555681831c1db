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

/// How a bound `Lo < Hi` depends on the lane atom Tid: not at all, through
/// Lo with coefficient +1 or Hi with -1 (the threads below it are a prefix
/// of the row), as a suffix (-1 on Lo, +1 on Hi), or otherwise.
enum class LaneSide { None, Lo, Hi, Suffix, Other };
LaneSide laneSide(const Poly &L, const Poly &H, unsigned Tid);

/// Every value on the way from the lane register (tid.x, Dim 0, or tid.y)
/// to the bound's lane side Side that depends on it has Side's width: an
/// extension applies only to the register read itself. Then a value that
/// wraps inside a row does so in that one width.
bool laneSideInOneWidth(const llvm::Value *Side, const CoalescingInfo &Info,
                        unsigned Dim);

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

  /// The grid-stride loop around BB, whose accesses end at Last (the
  /// loop's bound must be available there): P.Kind is Guard::Loop with its
  /// bound, start and step; stays None when the loop's exit is row-uniform
  /// (every thread of a row runs every iteration); or why not. With
  /// EveryIteration false BB may be skipped on some iterations (`if
  /// (!alive[i]) continue;`): for warp tiles, which do not need the
  /// block's row to run it.
  Verdict findLoop(llvm::BasicBlock *BB, llvm::Instruction *Last,
                   RewritePlan &P, bool EveryIteration = true);

private:
  const CoalescingInfo &Info;
  llvm::PostDominatorTree &PDT;
  llvm::DominatorTree &DT;
  llvm::LoopInfo &LI;
  const llvm::CycleInfo &Cycles;
  std::unique_ptr<UniformReach> Reach;
  unsigned Tid;

  Verdict findBoundsGuards(const CopyGroup &G, RewritePlan &P);
  Verdict findGridStrideLoop(llvm::BasicBlock *BB, llvm::Instruction *Last,
                             llvm::Loop *L, RewritePlan &P,
                             bool EveryIteration = true);
  /// Why B does not keep a prefix of the row (NotLane when its sides have
  /// the wrong form), or nothing.
  Verdict prefixBound(PrefixBound &B, const Missed &NotLane);
  std::optional<Poly> loopStep(const llvm::PHINode *Phi);
};

} // namespace coalda

#endif // COALDA_LIB_ACTIVETHREADS_H
