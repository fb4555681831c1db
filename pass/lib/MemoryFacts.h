//===- MemoryFacts.h - What the rewrites may assume of memory ---*- C++ -*-===//
//
// Facts about memory that every rewrite's legality asks: which space a base
// names, whether two pointers can reach the same bytes, and which calls
// write nothing a later access could read. The copy rewrite, the element
// staging and the chunk windows (and their emitters, which leave out the
// checks these facts make needless) all ask the same questions, so the
// answers live here, once.
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

} // namespace coalda

#endif // COALDA_LIB_MEMORYFACTS_H
