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
// uniform across a row.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_ROWUNIFORMITY_H
#define COALDA_LIB_ROWUNIFORMITY_H

#include "llvm/ADT/GenericUniformityInfo.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/SSAContext.h"

#include <memory>

namespace llvm {
class BasicBlock;
class Function;
class Value;
} // namespace llvm

namespace coalda {

class RowUniformity {
public:
  RowUniformity(llvm::Function &F, bool IsKernel);
  ~RowUniformity();

  /// V is equal for all threads of a row at every one of its uses.
  bool isUniform(const llvm::Value *V) const;
  /// BB ends in an unconditional branch, or a conditional branch on a
  /// row-uniform condition, or a return.
  bool isUniformBranch(const llvm::BasicBlock &BB) const;

private:
  /// A private analysis manager whose TargetIRAnalysis answers with our
  /// divergence sources; it owns the dominator tree, cycles and the result.
  std::unique_ptr<llvm::FunctionAnalysisManager> FAM;
  const llvm::GenericUniformityInfo<llvm::SSAContext> *UI = nullptr;
};

} // namespace coalda

#endif // COALDA_LIB_ROWUNIFORMITY_H
