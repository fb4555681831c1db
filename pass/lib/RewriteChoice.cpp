//===- RewriteChoice.cpp - A rewritten kernel chosen at run time ---------===//
//
// Issue 40, item 1: where the static cost rule cannot be sure, keep both
// kernels and let the host choose by measurement. Whether a rewrite pays
// depends on how the kernel is launched, which the device compile does not
// see: rodinia-gaussian's Fan2 is a transposed staging that measured 1.86x
// at 32x32 blocks and 0.99x at 16x16, scan2's prefixSum 0.98x on a 0.1 ms
// launch (docs/programs.md). In a `coalda cc -fcoalda-reshape` build
// (-coalda-choose-rewrites), a rewritten kernel that gets no grid variant
// (GridVariant.cpp: a reshaped launch is its own measured choice) keeps
// its original as its variant:
//
//   before the rewrite:  Original = copy of K     (named apart)
//   the rewrite of K, in place, as in any build
//   after it:            Original -> K__coalda_grid, the code as written
//
// K is byte for byte what the build without the choice compiles, so every
// launch that does not go through K's stub (a direct cudaLaunchKernel, a
// cooperative launch, another unit's copy of a template's stub) runs the
// rewrite, as a default build does. K's stub launches through the choice
// (LaunchHost.cpp's Rewrite form, LaunchGrid.cpp): the variant on the
// launch's own grid with the same arguments. Both compute the same bytes
// because the rewrite does (its proof is the rewrite's own). The static
// decision, until measured and under a profiler or in a graph capture, is
// the kernel: the rewrite. The device global K__coalda_rewrite says which
// form the variant is.
//
// The copy is made before the rewrite because the rewrite changes the
// kernel in place (and may inline its helpers into it); the copy keeps the
// kernel's calls as written. It gets the kernel's nvvm.annotations as
// written, before RegisterBudget bounds the rewrite, and the PTX_Kernel
// calling convention (annotateLike: NVPTX's stale annotation cache in
// clang).
//
//===----------------------------------------------------------------------===//

#include "RewriteChoice.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Debug.h"
#include "llvm/Transforms/Utils/Cloning.h"

#define DEBUG_TYPE "coalda-rewrite-choice"

using namespace llvm;

STATISTIC(NumRewriteChoices,
          "Rewritten kernels kept beside their original, chosen at run time");

namespace coalda {

Function *copyBeforeRewrite(Function &Kernel) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&Kernel, VMap);
  Copy->setName(Kernel.getName() + ".coalda.before.rewrite");
  return Copy;
}

void dropOriginal(Function *Original) {
  if (Original)
    Original->eraseFromParent();
}

GridVariantResult keepOriginal(Function &Kernel, Function &Original) {
  Original.setName(Kernel.getName() + GridVariantSuffix);
  annotateLike(Original, Kernel);
  markVariant(Kernel, GridVariantRewriteSuffix);
  LLVM_DEBUG(dbgs() << "coalda: " << Kernel.getName()
                    << " keeps its original as its variant\n");
  ++NumRewriteChoices;
  GridVariantResult Result;
  Result.Variant = &Original;
  Result.Form = GridVariantForm::Rewrite;
  return Result;
}

} // namespace coalda
