//===- Versioning.h - New code beside the original --------------*- C++ -*-===//
//
// Every rewrite keeps the original code as the fallback of a run-time
// condition: the copy rewrite and the element staging run units of a copy
// under a test (emitUnder), and the element staging and the chunk windows
// clone a region of the kernel as the fallback, after which a value the
// region defines reaches its users outside from either copy
// (repairUsesOutside). Both rewrites need the same two pieces, so they live
// here, once.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_VERSIONING_H
#define COALDA_LIB_VERSIONING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

namespace llvm {
class BasicBlock;
class Twine;
class Value;
} // namespace llvm

namespace coalda {

/// Body's code under Cond: B branches on Cond to a new block Name, where
/// Body builds (with B's debug location), and on to a new block Name.cont,
/// where B goes on. A value Body returns comes out of a phi named
/// ValueName (poison where Cond is false); otherwise null. The two blocks
/// go before Before (null: at the function's end). Units of a copy that may
/// lie past the end of their region are moved this way, all loads first.
llvm::Value *
emitUnder(llvm::IRBuilder<> &B, llvm::Value *Cond, const llvm::Twine &Name,
          const llvm::Twine &ValueName, llvm::BasicBlock *Before,
          llvm::function_ref<llvm::Value *(llvm::IRBuilder<> &)> Body);

/// The blocks of Region cloned in their function, ".orig" appended to their
/// names, their operands remapped to the clones (VMap maps each block and
/// instruction to its clone): the first step of every fallback clone.
/// Returns the clones, in Region's order.
llvm::SmallVector<llvm::BasicBlock *, 16>
cloneBlocks(llvm::ArrayRef<llvm::BasicBlock *> Region,
            llvm::ValueToValueMapTy &VMap);

/// The blocks of Region (whose set is InRegion) cloned as the original
/// code's fallback, ".orig" appended to their names, with their operands
/// remapped to the clones: VMap maps each block and instruction to its
/// clone. A block after the region (a phi's block) that a region block
/// enters is entered from that block's clone too, with the clone's value;
/// and every value of the region used outside it is repaired
/// (repairUsesOutside). The caller still has to branch to the clone of the
/// region's entry. Returns the clones, in Region's order.
llvm::SmallVector<llvm::BasicBlock *, 16> cloneRegionAsFallback(
    llvm::ArrayRef<llvm::BasicBlock *> Region,
    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &InRegion,
    llvm::ValueToValueMapTy &VMap);

/// Values of Region (whose set is InRegion) used outside it (in a phi of a
/// block after it) now come from the region or its clone (Clones, VMap: the
/// region's blocks and instructions to theirs): an SSA phi where the two
/// meet.
void repairUsesOutside(
    llvm::ArrayRef<llvm::BasicBlock *> Region,
    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &InRegion,
    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &Clones,
    llvm::ValueToValueMapTy &VMap);

} // namespace coalda

#endif // COALDA_LIB_VERSIONING_H
