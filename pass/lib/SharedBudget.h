//===- SharedBudget.h - The shared memory a tile may take -------*- C++ -*-===//
//
// The element staging's tiles and the chunk windows both go in static
// shared memory, beside the kernel's own __shared__ variables, within the
// 48 KB a block may have without opting in to more. What the two sizings
// have in common lives here, once: the bytes the kernel already uses (none
// to size against when it uses dynamic shared memory, whose size only the
// launch knows), whether tiles for so many threads fit beside them, and the
// kernel's __launch_bounds__. Which thread counts each tries is its own
// rule (StagingTiles.cpp's sizeTiles, ChunkWindow.cpp's sizeWindows).
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_SHAREDBUDGET_H
#define COALDA_LIB_SHAREDBUDGET_H

#include "CopyGroup.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <variant>

namespace llvm {
class ConstantInt;
class Function;
} // namespace llvm

namespace coalda {

/// The static shared memory a block may use: 48 KB.
constexpr uint64_t StaticSharedLimit = 48 * 1024;

/// The static shared memory of a kernel's blocks, and what is taken of it.
struct SharedBudget {
  /// The bytes of the kernel's own static __shared__ variables (those its
  /// callees use too).
  uint64_t Used = 0;

  /// Tiles of PerThread bytes for each of Threads threads fit beside the
  /// kernel's own variables within Limit bytes.
  bool fits(uint64_t PerThread, uint64_t Threads,
            uint64_t Limit = StaticSharedLimit) const {
    return Used + PerThread * Threads <= Limit;
  }
};

/// F's shared-memory budget, or, when F uses dynamic shared memory (extern
/// __shared__), why a static Tile ("tile", "window") might not fit beside
/// it.
std::variant<SharedBudget, Missed> sharedBudget(const llvm::Function &F,
                                                llvm::StringRef Tile);

/// The static shared memory F and the functions it calls use, or nothing
/// when they use dynamic shared memory (extern __shared__).
std::optional<uint64_t> staticSharedBytes(const llvm::Function &F);

/// One key and value of F's entries in nvvm.annotations (`maxntidx`, 256).
struct NVVMAnnotation {
  llvm::StringRef Key;
  const llvm::ConstantInt *Value; ///< null when the value is no integer
};

/// Every key and value the module's nvvm.annotations give F.
llvm::SmallVector<NVVMAnnotation, 4>
nvvmAnnotationsOf(const llvm::Function &F);

/// The x bound of F's __launch_bounds__ (maxntid.x: the `nvvm.maxntid`
/// attribute or clang 19's `maxntidx` in nvvm.annotations), or 0.
unsigned launchBoundX(const llvm::Function &F);

} // namespace coalda

#endif // COALDA_LIB_SHAREDBUDGET_H
