//===- RewriteChoice.h - A rewritten kernel chosen at run time -*- C++ -*-===//
//
// Issue 40's run-time choice for rewrites the static cost rule cannot be
// sure of: the original kernel kept beside its rewrite, the host choosing
// between them by measurement. See RewriteChoice.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_REWRITECHOICE_H
#define COALDA_LIB_REWRITECHOICE_H

#include "GridVariant.h"

namespace llvm {
class Function;
} // namespace llvm

namespace coalda {

/// Kernel's copy as it is before the rewrite: not yet a kernel, named apart
/// (keepOriginal makes it the kernel's variant, dropOriginal erases it).
llvm::Function *copyBeforeRewrite(llvm::Function &Kernel);

/// Erases Original, a copyBeforeRewrite that is not kept (null: nothing).
void dropOriginal(llvm::Function *Original);

/// Original, Kernel's copy from before the rewrite, becomes Kernel's variant
/// as written, Kernel__coalda_grid, launched on the original grid with the
/// original arguments, with Kernel's kernel annotations; Kernel, rewritten,
/// is marked K__coalda_rewrite and launches until measured.
GridVariantResult keepOriginal(llvm::Function &Kernel,
                               llvm::Function &Original);

} // namespace coalda

#endif // COALDA_LIB_REWRITECHOICE_H
