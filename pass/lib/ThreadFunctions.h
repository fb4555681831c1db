//===- ThreadFunctions.h - Values computed elsewhere ------------*- C++ -*-===//
//
// Private to the staging rewrite; see ThreadFunctions.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_THREADFUNCTIONS_H
#define COALDA_LIB_THREADFUNCTIONS_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"

namespace llvm {
class DominatorTree;
class Instruction;
class Value;
} // namespace llvm

namespace coalda {

/// A clone of V's pure computation before InsertBefore (V itself when it is
/// available there), without flags that could make the clone poison where
/// the original was not computed; null when V depends on memory or on a
/// value not available there. Clones is where the clones go, for reuse.
llvm::Value *
materializeAt(llvm::Value *V, llvm::Instruction *InsertBefore,
              llvm::DominatorTree &DT,
              llvm::DenseMap<llvm::Value *, llvm::Value *> &Clones);

/// Whether materializeAt would succeed (no IR is changed).
bool canMaterializeAt(llvm::Value *V, llvm::Instruction *InsertBefore,
                      llvm::DominatorTree &DT);

/// The instruction that keeps V from being computed at InsertBefore (a
/// phi of a loop, a load, a call), or null when canMaterializeAt holds.
llvm::Instruction *materializationBlocker(llvm::Value *V,
                                          llvm::Instruction *InsertBefore,
                                          llvm::DominatorTree &DT);

/// Whether V is computed, without memory, phis or calls other than the
/// block-uniform special registers (ctaid, ntid, nctaid) and tid.x, tid.y,
/// tid.z, from the kernel's arguments and constants: the value another
/// thread of the block computes is V's computation with its thread index.
bool isThreadFunction(llvm::Value *V);

/// V's computation cloned before InsertBefore with tid.x and tid.y replaced
/// by X and Y (i32; null: read as they are): what thread (X, Y) of the
/// block computes as V (tid.z is left as it is: the caller's blocks are
/// flat in z). V must satisfy isThreadFunction. The clones are named with
/// Suffix.
llvm::Value *cloneForThread(llvm::Value *V, llvm::Value *X, llvm::Value *Y,
                            llvm::Instruction *InsertBefore,
                            llvm::StringRef Suffix = ".owner");

} // namespace coalda

#endif // COALDA_LIB_THREADFUNCTIONS_H
