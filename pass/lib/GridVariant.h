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

#include "CopyGroup.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

namespace llvm {
class Function;
class GlobalValue;
class Module;
class StoreInst;
class Twine;
} // namespace llvm

namespace coalda {

struct StagingOutcome;

/// The suffix of a variant's name: the kernel `K`'s variant is
/// `K__coalda_grid`. The host half and `coalda cc` find variants by it.
inline constexpr llvm::StringLiteral GridVariantSuffix = "__coalda_grid";

/// The suffix of the device global that marks a variant to launch until
/// the run-time measurement is in (`K__coalda_prefer`); `coalda cc` reads
/// it from the PTX.
inline constexpr llvm::StringLiteral GridVariantPreferSuffix =
    "__coalda_prefer";

/// The suffix of the device global that marks a variant of the tile form
/// (`K__coalda_tile`, GridVariantTile.cpp): launched on a grid of 32x32
/// tiles with the original grid's x and y sizes appended. `coalda cc`
/// reads it from the PTX and tells the host half.
inline constexpr llvm::StringLiteral GridVariantTileSuffix = "__coalda_tile";

/// The suffix of the device global that marks a variant of the rewrite
/// form (`K__coalda_rewrite`, RewriteChoice.cpp): the kernel as written,
/// launched on the original grid with the original arguments, K being its
/// rewrite. `coalda cc` reads it from the PTX.
inline constexpr llvm::StringLiteral GridVariantRewriteSuffix =
    "__coalda_rewrite";

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
  BlockLoopCost,    ///< only a loop over blocks, measured no faster
};

/// What a variant runs (GridVariant.cpp, GridVariantFlat.cpp).
enum class GridVariantForm {
  BlockLoop, ///< each block loops over original blocks of its row
  FlatCopy,  ///< one flat copy of the whole grid's elements, else BlockLoop
  TileTranspose, ///< a 32x32 tile of original blocks per block, its
                 ///< transposed stores written down the tile's columns
  Rewrite, ///< the kernel as written, on the original grid, beside its
           ///< rewrite (RewriteChoice.cpp)
};

/// What the reshaping did to one kernel.
struct GridVariantResult {
  llvm::Function *Variant = nullptr;
  GridVariantRefusal Why = GridVariantRefusal::None;
  GridVariantForm Form = GridVariantForm::BlockLoop;
  /// Launched until the run-time measurement is in (else the original).
  bool Preferred = false;
};

/// The one outcome of Outcomes whose rewrite is legal, or null when none or
/// several are (the variant forms take a kernel of one rewrite).
template <typename Outcome>
const Outcome *theOnlyLegal(llvm::ArrayRef<Outcome> Outcomes) {
  const Outcome *Only = nullptr;
  for (const Outcome &O : Outcomes)
    if (O.legal()) {
      if (Only)
        return nullptr;
      Only = &O;
    }
  return Only;
}

/// A kernel whose whole effect is one copy of element gid = blockIdx.x *
/// blockDim.x + threadIdx.x below bounds: what its variant moves as one
/// flat copy (GridVariantFlat.cpp). Values are named by parameter number,
/// so that they can be found in the variant.
struct KernelFlatCopy {
  /// The ArgNo-th parameter, or Global, plus Offset bytes.
  struct Base {
    unsigned ArgNo = 0;
    llvm::GlobalValue *Global = nullptr;
    int64_t Offset = 0;
  };
  /// `gid < End` (`<=` when Inclusive): the ArgNo-th parameter, or Constant.
  struct Bound {
    std::optional<unsigned> ArgNo;
    int64_t Constant = 0;
    bool Signed = true;
    bool Inclusive = false;
  };
  Base Dst, Src;
  int64_t Stride = 0;
  uint64_t MemberWidth = 0;
  llvm::Align MemberAlign;
  unsigned Unit = 0;
  bool NeedsOverlapCheck = true;
  llvm::SmallVector<Bound, 2> Bounds;
};

/// A kernel whose whole effect is one transposed store per thread, after
/// its loads (GridVariantTile.cpp): its variant, a copy of the kernel
/// before the rewrite with the original grid's x and y sizes appended,
/// still to be emitted, and the store in it.
struct KernelTileTranspose {
  llvm::Function *Variant = nullptr;
  llvm::StoreInst *Store = nullptr;
};

/// What a kernel about to be rewritten offers a variant, read before the
/// rewrite: its flat copy or its transposed store.
struct VariantShapes {
  std::optional<KernelFlatCopy> Flat;
  std::optional<KernelTileTranspose> Tile;
  /// Erases the tile form's unfinished copy (the kernel was not rewritten).
  void dropTile();
};

/// The flat copy of F, a kernel about to be rewritten whose legal rewrites
/// are Groups and Stagings, when its whole effect is one such copy.
std::optional<KernelFlatCopy>
findKernelFlatCopy(const llvm::Function &F, llvm::ArrayRef<GroupOutcome> Groups,
                   llvm::ArrayRef<StagingOutcome> Stagings,
                   const CoalescingInfo &Info);

/// In front of Entry's terminator in the variant V: C's flat copy, which
/// then goes to Exit.
void emitFlatVariant(llvm::Function &V, const KernelFlatCopy &C,
                     llvm::BasicBlock *Entry, llvm::BasicBlock *Exit);

/// The tile form of F, a kernel about to be rewritten whose legal rewrites
/// are Groups and Stagings, when its whole effect is one transposed store
/// per thread after its loads: F's copy is made now, before the rewrite.
std::optional<KernelTileTranspose>
findKernelTileTranspose(llvm::Function &F, llvm::ArrayRef<GroupOutcome> Groups,
                        llvm::ArrayRef<StagingOutcome> Stagings);

/// T's variant's body becomes the loop over its tile's original blocks and
/// the tile's write-back (GridVariantTile.cpp).
void emitTileVariant(const KernelTileTranspose &T);

/// What Kernel, before any rewrite, says of a variant: KernelLoops unless
/// it does one piece of work per thread (no loop: the shape whose launch
/// the block rate bounds), Call or InlineAsm when it calls (a helper may
/// loop, or read blockIdx), else None.
GridVariantRefusal shapeBeforeRewrite(llvm::Function &Kernel);

/// Adds Kernel's grid-stride variant to its module when it may have one.
/// Kernel is a rewritten kernel; BeforeRewrite what shapeBeforeRewrite
/// said of it before the rewrite; Shapes what it offered then.
GridVariantResult makeGridVariant(llvm::Function &Kernel,
                                  GridVariantRefusal BeforeRewrite,
                                  VariantShapes &Shapes,
                                  llvm::FunctionAnalysisManager &FAM);

/// The reason, in the source's terms, for the report and -Wcoalda.
llvm::StringRef describe(GridVariantRefusal Why);

/// What a variant of that form does, for the report and -Wcoalda.
llvm::StringRef describe(GridVariantForm Form);

/// Why a kernel's launch was reshaped into that form (the report's
/// `launch.reason`, the remark's lead).
llvm::StringRef describeReshaped(GridVariantForm Form);

/// The form's name in the report's `launch.form`.
llvm::StringRef formName(GridVariantForm Form);

/// K's copy named K__coalda_grid, with one i32 parameter more per name of
/// Extra, VMap mapping K's values to the copy's; not yet a kernel
/// (annotateLike makes it one).
llvm::Function *cloneWithGridParams(llvm::Function &K,
                                    llvm::ArrayRef<llvm::StringRef> Extra,
                                    llvm::ValueToValueMapTy &VMap);

/// A new first block of V, named Name, holding V's static allocas, moved
/// out of the old entry (which the caller makes a loop's body: the
/// allocas stay out of the loop).
llvm::BasicBlock *entryWithAllocas(llvm::Function &V, const llvm::Twine &Name);

/// V gets K's kernel annotations (nvvm.annotations), and is a kernel by its
/// calling convention too (PTX_Kernel): in clang, NVPTX's annotation cache
/// may already hold a stale, empty entry at V's address (see the
/// definition).
void annotateLike(llvm::Function &V, llvm::Function &K);

/// The device global Kernel's name + Suffix, an i8 of 1 in global memory:
/// a mark `coalda cc` reads from the PTX.
void markVariant(llvm::Function &Kernel, llvm::StringRef Suffix);

} // namespace coalda

#endif // COALDA_LIB_GRIDVARIANT_H
