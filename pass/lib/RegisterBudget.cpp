//===- RegisterBudget.cpp - A rewritten kernel launches where it did ------===//
//
// A kernel without __launch_bounds__ may be launched with blocks of up to
// 1024 threads, and a block of 1024 threads leaves each at most 64
// registers (65,536 per SM). ptxas sizes one register count for the whole
// kernel, and a rewritten kernel carries its staged path beside the
// original's (the run-time checks choose between them), so the count can
// grow past 64 even where blocks of 1024 threads take the original path: at
// -O0, 59 of the 84 window kernels of testcases/adversarial/windows.cu took
// 65-109 registers where their originals took 15-26, and windows.cu's
// block_1024 no longer launched at 1024 threads
// (CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES; docs/runs/o0/README.md).
//
// Which kernels cross the line only ptxas knows, after the pass. So the
// rule lives where ptxas runs (coalda/driver/registers.py): `coalda cc` and
// `coalda optimize` count each kernel's registers before and after the
// pass, and give `.maxnreg 64` to the rewritten kernels without launch
// bounds of their own that went from at most 64 to more.
//
// This file is the same limit for a clang that loads the plugin itself
// (`-mllvm -coalda-max-registers=64`): every rewritten kernel without a
// bound of its own (no maxntid, reqntid or maxnreg in nvvm.annotations, no
// nvvm.maxntid attribute) gets `maxnreg` in nvvm.annotations, which the
// NVPTX backend prints as PTX's `.maxnreg`. It is off by default: under a
// limit ptxas takes registers up to it, where without one it takes what the
// code needs (scripts/register_budget.py over the corpus: geglu 40 -> 52
// registers, sph 32 -> 48, pso 48 -> 56, so fewer warps per SM; lulesh's
// integrateStress, 94 registers before the pass, 92 after, spills 600
// bytes at 64). `.maxntid 1024` (what __launch_bounds__(1024) gives) is
// worse: ptxas aims at two such blocks per SM, 32 registers (windows.cu's
// two_views: 40 -> 32 registers and 92 bytes spilled).
//
//===----------------------------------------------------------------------===//

#include "RegisterBudget.h"

#include "Options.h"
#include "SharedBudget.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-register-budget"

using namespace llvm;

STATISTIC(NumRegisterBounds, "Rewritten kernels given a register limit");
STATISTIC(NumUserBounds, "Rewritten kernels that declare their own bound");

namespace coalda {

namespace {

/// The nvvm.annotations keys that bound a kernel's threads or registers.
bool isBoundKey(StringRef Key) {
  return Key.starts_with("maxntid") || Key.starts_with("reqntid") ||
         Key == "maxnreg";
}

/// F declares a bound on its threads or registers of its own.
bool hasOwnBound(const Function &F) {
  if (F.hasFnAttribute("nvvm.maxntid") || F.hasFnAttribute("nvvm.reqntid") ||
      F.hasFnAttribute("nvvm.maxnreg"))
    return true;
  return any_of(nvvmAnnotationsOf(F),
                [](const NVVMAnnotation &A) { return isBoundKey(A.Key); });
}

} // namespace

RegisterBound boundRegisters(Function &Kernel) {
  if (opts::MaxRegisters == 0)
    return RegisterBound::Disabled;
  if (hasOwnBound(Kernel)) {
    LLVM_DEBUG(dbgs() << "coalda: " << Kernel.getName()
                      << " keeps its own launch bound\n");
    ++NumUserBounds;
    return RegisterBound::UserBound;
  }
  Module &M = *Kernel.getParent();
  LLVMContext &Ctx = M.getContext();
  Type *I32 = Type::getInt32Ty(Ctx);
  M.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(MDNode::get(
          Ctx, {ValueAsMetadata::get(&Kernel), MDString::get(Ctx, "maxnreg"),
                ConstantAsMetadata::get(
                    ConstantInt::get(I32, unsigned(opts::MaxRegisters)))}));
  ++NumRegisterBounds;
  return RegisterBound::Added;
}

} // namespace coalda
