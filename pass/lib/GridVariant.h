//===- GridVariant.h - A kernel's variant for a reshaped launch -*- C++ -*-===//
//
// The device half of issue 40's reshaped launches: a copy of a rewritten
// kernel that loops over the original grid's blocks on a smaller grid. The
// host half (LaunchHost.cpp) launches it in builds where `coalda cc`
// compiles the kernel's own translation unit. See GridVariant.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_GRIDVARIANT_H
#define COALDA_LIB_GRIDVARIANT_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace coalda {

/// The suffix of a variant's name: the kernel `K`'s variant is
/// `K__coalda_grid`. The host half and `coalda cc` find variants by it.
inline constexpr llvm::StringLiteral GridVariantSuffix = "__coalda_grid";

/// Why a rewritten kernel gets no variant, or None when it got one.
enum class GridVariantRefusal {
  None,
  KernelLoops,      ///< not one piece of work per thread: no block-rate bound
  Call,             ///< calls a function (it may read the block's index)
  InlineAsm,        ///< inline assembly (it may read %ctaid or synchronize)
  GridRegister,     ///< reads a grid or cluster register other than the index
  SpinWait,         ///< an atomic or volatile access in a loop
  SharedNoBarrier,  ///< shared memory shared without a block barrier
  ExitBeforeSync,   ///< a thread may leave while others still synchronize
  ClusterLaunch,    ///< declares a cluster shape
};

/// What the reshaping did to one kernel.
struct GridVariantResult {
  llvm::Function *Variant = nullptr;
  GridVariantRefusal Why = GridVariantRefusal::None;
};

/// What Kernel, before any rewrite, says of a variant: KernelLoops unless
/// it does one piece of work per thread (no loop: the shape whose launch
/// the block rate bounds), Call or InlineAsm when it calls (a helper may
/// loop, or read blockIdx), else None.
GridVariantRefusal shapeBeforeRewrite(llvm::Function &Kernel);

/// Adds Kernel's grid-stride variant to its module when it may have one.
/// Kernel is a rewritten kernel; BeforeRewrite what shapeBeforeRewrite
/// said of it before the rewrite.
GridVariantResult makeGridVariant(llvm::Function &Kernel,
                                  GridVariantRefusal BeforeRewrite,
                                  llvm::FunctionAnalysisManager &FAM);

/// The reason, in the source's terms, for the report and -Wcoalda.
llvm::StringRef describe(GridVariantRefusal Why);

} // namespace coalda

#endif // COALDA_LIB_GRIDVARIANT_H
