//===- FlatCopy.h - One flat copy of a range, by every thread -*- C++ -*---===//
//
// The flat copy of FlatCopyEmitter.cpp, apart from the code it replaces: a
// grid-stride loop's (the copy's own emitter) or a whole one-copy kernel's
// (its grid variant, GridVariant.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_FLATCOPY_H
#define COALDA_LIB_FLATCOPY_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/DebugLoc.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Support/Alignment.h"

#include <utility>

namespace coalda {

/// What a flat copy moves: elements [0, End) of Stride bytes, member 0 of
/// element 0 at DstBase + DstOffset and SrcBase + SrcOffset.
struct FlatCopyShape {
  llvm::Value *DstBase = nullptr, *SrcBase = nullptr;
  int64_t DstOffset = 0, SrcOffset = 0;
  int64_t Stride = 0;
  uint64_t MemberWidth = 0;
  llvm::Align MemberAlign;
  unsigned Unit = 0; ///< the widest unit, in bytes
  bool NeedsOverlapCheck = true;
  llvm::DebugLoc Loc;
};

/// The element count End (i64, clamped at 0 by the caller) and a further
/// condition of the flat path (or null), emitted with B in front of the
/// code replaced; Threads is the grid's thread count (i64).
using FlatCopyEnd = llvm::function_ref<std::pair<llvm::Value *, llvm::Value *>(
    llvm::IRBuilder<> &B, llvm::Value *Threads)>;

/// At the end of Entry, in front of its terminator: when the bases are
/// aligned to the unit, disjoint (if NeedsOverlapCheck) and End's condition
/// holds, every thread of the grid moves its share of the units and goes
/// to Exit; otherwise Entry's terminator runs as before.
void emitFlatCopyAt(const FlatCopyShape &Shape, llvm::BasicBlock *Entry,
                    llvm::BasicBlock *Exit, FlatCopyEnd End);

} // namespace coalda

#endif // COALDA_LIB_FLATCOPY_H
