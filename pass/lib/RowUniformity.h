//===- RowUniformity.h - Values equal for every thread of a block row -----===//
//
// COALDA rewrites per block row: the threads that share threadIdx.y and
// threadIdx.z. A value is row-uniform when all threads of a row that reach
// it compute the same value there. This component answers that question for
// the address walker (which values are uniform atoms) and for legality
// (which branches send a whole row the same way).
//
// It is LLVM's UniformityAnalysis (sync dependence at the joins of divergent
// branches, temporal divergence out of loops with divergent exits) run with
// our own divergence sources instead of the target's: threadIdx.x and the
// other per-thread special registers, loads, atomics, allocas and calls.
// threadIdx.y/z, blockIdx, blockDim, gridDim and kernel parameters are
// uniform across a row. It is built on the dominator tree and cycles the
// caller's analysis manager already holds for the function: computing them
// again doubles the cost, and the cycles of a large function (a kernel with
// its helpers inlined) take time quadratic in its number of loops.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_ROWUNIFORMITY_H
#define COALDA_LIB_ROWUNIFORMITY_H

#include "llvm/ADT/GenericUniformityInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/CycleInfo.h"
#include "llvm/IR/SSAContext.h"

namespace llvm {
class BasicBlock;
class DominatorTree;
class Function;
class Value;
} // namespace llvm

namespace coalda {

/// Whose threads a value is uniform across: a block row's (threadIdx.y
/// and .z uniform), or the whole block's (GridVariant.cpp: threadIdx.y and
/// .z diverge, and block-wide votes, __syncthreads_and/or/count, do not).
enum class UniformScope { Row, Block };

class RowUniformity {
public:
  /// DT and Cycles are F's, and must outlive this object (the caller's
  /// analysis manager invalidates them together with it).
  RowUniformity(llvm::Function &F, bool IsKernel,
                const llvm::DominatorTree &DT, const llvm::CycleInfo &Cycles,
                UniformScope Scope = UniformScope::Row);
  ~RowUniformity();
  RowUniformity(const RowUniformity &) = delete;
  RowUniformity &operator=(const RowUniformity &) = delete;

  /// V is equal for all threads of a row at every one of its uses.
  bool isUniform(const llvm::Value *V) const;
  /// BB ends in an unconditional branch, or a conditional branch on a
  /// row-uniform condition, or a return.
  bool isUniformBranch(const llvm::BasicBlock &BB) const;

private:
  /// Answers with our divergence sources; the analysis keeps a pointer to it.
  llvm::TargetTransformInfo RowTTI;
  llvm::GenericUniformityInfo<llvm::SSAContext> UI;
};

} // namespace coalda

#endif // COALDA_LIB_ROWUNIFORMITY_H
