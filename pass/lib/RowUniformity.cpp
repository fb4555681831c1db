//===- RowUniformity.cpp - Values equal for every thread of a block row ---===//
//
// See RowUniformity.h. LLVM's UniformityAnalysis asks TargetTransformInfo
// which values are sources of divergence; the NVPTX answer counts
// threadIdx.y/z as divergent (right for a warp, too strict for a row) and
// global loads as uniform. RowDivergence gives our answer instead:
//
//   source                                         row-uniform?
//   ---------------------------------------------  ---------------------
//   threadIdx.x, laneid, warpid, clock, other      no (per thread)
//     special registers not listed below
//   threadIdx.y/z, blockIdx, blockDim, gridDim     yes
//   kernel parameter                               yes
//   parameter of a non-kernel function             no (unknown caller)
//   load from a row-uniform address                yes: in a race-free
//                                                  kernel no thread writes
//                                                  what all of them read
//                                                  without a barrier between
//   volatile or atomic load, atomic, alloca        no (memory may change
//                                                  under the load, or is
//                                                  the thread's own)
//   call (not a pure intrinsic)                    no
//   anything else                                  if its operands are,
//                                                  and it is not a phi
//                                                  joining divergent paths
//
//===----------------------------------------------------------------------===//

#include "RowUniformity.h"

#include "llvm/ADT/GenericUniformityImpl.h"
#include "llvm/Analysis/TargetTransformInfoImpl.h"
#include "llvm/Analysis/UniformityAnalysis.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace llvm;

// GenericUniformityInfo::compute() is inline and needs the analysis' class;
// libLLVM instantiates its members (UniformityAnalysis.cpp), including a
// specialized initialize(): use those, instantiate none here.
template <> void GenericUniformityAnalysisImpl<SSAContext>::initialize();
extern template class llvm::GenericUniformityAnalysisImpl<SSAContext>;

namespace coalda {

namespace {

/// Special registers whose value is the same in every thread of a row.
bool isRowUniformRegister(Intrinsic::ID ID) {
  switch (ID) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return true;
  default:
    return false;
  }
}

/// Block-wide votes: the same result in every thread of the block.
bool isBlockVote(Intrinsic::ID ID) {
  return ID == Intrinsic::nvvm_barrier0_and ||
         ID == Intrinsic::nvvm_barrier0_or ||
         ID == Intrinsic::nvvm_barrier0_popc;
}

bool isDivergenceSource(const Value *V, bool IsKernel, UniformScope Scope) {
  if (isa<Argument>(V))
    return !IsKernel;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (const auto *Load = dyn_cast<LoadInst>(I))
    return !Load->isSimple();
  if (isa<AllocaInst>(I) || I->isAtomic())
    return true;
  const auto *Call = dyn_cast<CallBase>(I);
  if (!Call)
    return false;
  const auto *II = dyn_cast<IntrinsicInst>(Call);
  if (!II)
    return true;
  Intrinsic::ID ID = II->getIntrinsicID();
  if (Scope == UniformScope::Block &&
      (ID == Intrinsic::nvvm_read_ptx_sreg_tid_y ||
       ID == Intrinsic::nvvm_read_ptx_sreg_tid_z))
    return true;
  if (isRowUniformRegister(ID) ||
      (Scope == UniformScope::Block && isBlockVote(ID)))
    return false;
  // Every other special register (tid.x, laneid, clock, ...) differs per
  // thread; other intrinsics are pure functions of their operands unless
  // they touch memory or have side effects.
  if (II->getCalledFunction()->getName().starts_with("llvm.nvvm.read.ptx."))
    return true;
  return II->mayReadOrWriteMemory() || II->mayHaveSideEffects();
}

/// The divergence sources of a block row, in TargetTransformInfo's shape so
/// that LLVM's UniformityAnalysis can use them.
class RowDivergence : public TargetTransformInfoImplCRTPBase<RowDivergence> {
public:
  RowDivergence(const DataLayout &DL, bool IsKernel, UniformScope Scope)
      : TargetTransformInfoImplCRTPBase(DL), IsKernel(IsKernel),
        Scope(Scope) {}
  bool hasBranchDivergence(const Function *) const { return true; }
  bool isSourceOfDivergence(const Value *V) const {
    return isDivergenceSource(V, IsKernel, Scope);
  }
  /// A block-wide vote's result, whatever its operand (at block scope).
  bool isAlwaysUniform(const Value *V) const {
    const auto *II = dyn_cast<IntrinsicInst>(V);
    return Scope == UniformScope::Block && II &&
           isBlockVote(II->getIntrinsicID());
  }

private:
  bool IsKernel;
  UniformScope Scope;
};

} // namespace

RowUniformity::RowUniformity(Function &F, bool IsKernel,
                             const DominatorTree &DT, const CycleInfo &Cycles,
                             UniformScope Scope)
    : RowTTI(RowDivergence(F.getDataLayout(), IsKernel, Scope)),
      UI(DT, Cycles, &RowTTI) {
  // What UniformityInfoAnalysis::run does, on the caller's DT and cycles
  // (RowDivergence always has branch divergence).
  UI.compute();
}

RowUniformity::~RowUniformity() = default;

bool RowUniformity::isUniform(const Value *V) const {
  if (isa<Constant>(V))
    return true;
  if (UI.isDivergent(V))
    return false;
  // Temporal divergence: a value computed in a loop that threads leave in
  // different iterations differs per thread where it is used after the loop.
  // Without the use at hand, any such use makes the value non-uniform.
  for (const Use &U : V->uses())
    if (isa<Instruction>(U.getUser()) && UI.isDivergentUse(U))
      return false;
  return true;
}

bool RowUniformity::isUniformBranch(const BasicBlock &BB) const {
  const Instruction *Term = BB.getTerminator();
  if (isa<ReturnInst>(Term))
    return true;
  const auto *Br = dyn_cast<BranchInst>(Term);
  return Br && (!Br->isConditional() || isUniform(Br->getCondition()));
}

} // namespace coalda
