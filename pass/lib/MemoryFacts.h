//===- MemoryFacts.h - What the rewrites may assume of memory ---*- C++ -*-===//
//
// Facts about memory that every rewrite's legality asks: which space a base
// names, whether two pointers can reach the same bytes, which calls write
// nothing a later access could read and which touch no addressable memory.
// The copy rewrite, the element staging and the chunk windows (and their
// emitters, which leave out the checks these facts make needless) all ask
// the same questions, so the answers live here, once.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_MEMORYFACTS_H
#define COALDA_LIB_MEMORYFACTS_H

namespace llvm {
class CallBase;
class Value;
} // namespace llvm

namespace coalda {

/// A shared-memory (__shared__) variable.
bool isSharedBase(const llvm::Value *V);

/// The memory a kernel parameter or a global-space variable names: global
/// memory (kernels receive global pointers).
bool isGlobalObject(const llvm::Value *V);

/// No object that pointer (or base) A may be based on overlaps one B may be
/// based on: through selects and phis, every pair is disjoint. For the
/// callers' question (may a write through one be seen through the other) a
/// constant global counts as disjoint from everything else: nothing writes
/// it.
bool provablyDisjoint(const llvm::Value *A, const llvm::Value *B);

/// A call that only marks the code: debug info, a lifetime marker or an
/// assume. It touches no memory a program could observe.
bool isMarkerCall(const llvm::CallBase &Call);

/// A call that writes no memory a later load could read: a marker, or one
/// that does not write memory at all (it may read). The chunk windows ask
/// this of the calls between a refill and the loads it serves.
bool writesNoMemory(const llvm::CallBase &Call);

/// A call that touches no memory IR can address: a marker, one that does
/// not touch memory at all, or one that touches only inaccessible memory
/// (the warp shuffles, votes and reductions). Barriers and __syncwarp say
/// nothing of their memory and are not such calls. The element staging
/// asks this of the calls between its phases: they cannot see the staged
/// elements (the region runs with the same threads on the staged path as
/// on the original one, which go picks alike for the whole block).
bool touchesNoAddressableMemory(const llvm::CallBase &Call);

} // namespace coalda

#endif // COALDA_LIB_MEMORYFACTS_H
