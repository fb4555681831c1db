//===- MemoryFacts.cpp - What the rewrites may assume of memory -----------===//
//
// The memory facts of MemoryFacts.h: address spaces of bases, objects that
// cannot overlap, calls that write nothing and calls that touch no
// addressable memory. Every rewrite's legality (Legality.cpp,
// StagingLegality.cpp, StagingInterference.cpp, ChunkWindow.cpp) and the
// emitters that leave out a run-time check for disjoint buffers ask them;
// they used to live in the phases that first needed them.
//
//===----------------------------------------------------------------------===//

#include "MemoryFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Operator.h"

using namespace llvm;

namespace coalda {

bool isSharedBase(const Value *V) {
  const auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && GV->getAddressSpace() == 3;
}

bool isGlobalObject(const Value *V) {
  if (const auto *GV = dyn_cast<GlobalVariable>(V))
    return !isSharedBase(GV) && GV->getAddressSpace() != 5;
  return isa<Argument>(V);
}

namespace {

/// A `__shared__` variable with a size of its own; every `extern __shared__`
/// array is the same dynamic shared memory.
bool isStaticShared(const Value *V) {
  const auto *GV = dyn_cast<GlobalVariable>(V);
  return isSharedBase(V) && GV->hasInitializer() &&
         !GV->hasExternalLinkage();
}


/// Only read through V: its users are loads, or address computations whose
/// users are.
bool onlyLoadedThrough(const Value *V, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  return all_of(V->users(), [&](const User *U) {
    if (const auto *L = dyn_cast<LoadInst>(U))
      return L->getPointerOperand() == V;
    if (isa<GEPOperator>(U) || isa<BitCastOperator>(U) ||
        isa<AddrSpaceCastOperator>(U))
      return onlyLoadedThrough(U, Depth + 1);
    return false;
  });
}

/// A global no store writes: a constant (a store to it is undefined), or one
/// of this module only (internal) that is only loaded from: libdevice's
/// tables at -O0, before they are marked constant.
bool neverWritten(const Value *V) {
  const auto *GV = dyn_cast<GlobalVariable>(V);
  return GV && !isSharedBase(GV) &&
         (GV->isConstant() ||
          (GV->hasLocalLinkage() && onlyLoadedThrough(GV)));
}

/// Two underlying objects are proven not to overlap.
bool disjointObjects(const Value *A, const Value *B) {
  if (A == B)
    return false;
  // Shared memory never overlaps global memory; two static __shared__
  // variables never overlap each other.
  if ((isSharedBase(A) && isGlobalObject(B)) ||
      (isSharedBase(B) && isGlobalObject(A)) ||
      (isStaticShared(A) && isStaticShared(B)))
    return true;
  // Nothing written overlaps a global that is never written, whatever the
  // other pointer is (libdevice's sinf reads its table).
  if (neverWritten(A) || neverWritten(B))
    return true;
  // A struct taken by value whose address is not captured (clang's
  // `nocapture byval` at -O1 and above) is the kernel's own copy: no other
  // pointer, loaded or passed, reaches it. Comparing p.rec's element with
  // p itself needs no run-time check (which would take p's address and so
  // move the parameter to local memory).
  auto ParamCopy = [](const Value *V) {
    const auto *Arg = dyn_cast<Argument>(V);
    return Arg && Arg->hasByValAttr() && Arg->hasNoCaptureAttr();
  };
  if (ParamCopy(A) || ParamCopy(B))
    return true;
  // A thread's alloca is made after its kernel's arguments were passed: no
  // argument points into it (libdevice's slow paths keep arrays there).
  if ((isa<AllocaInst>(A) && isa<Argument>(B)) ||
      (isa<AllocaInst>(B) && isa<Argument>(A)))
    return true;
  auto NoAlias = [](const Value *V) {
    const auto *Arg = dyn_cast<Argument>(V);
    return Arg && Arg->hasNoAliasAttr();
  };
  auto Identified = [](const Value *V) {
    return isa<Argument>(V) || isa<GlobalVariable>(V) || isa<AllocaInst>(V);
  };
  // A __restrict__ parameter's object is reached only through pointers
  // based on it: any other identified object is disjoint from it.
  if (!Identified(A) || !Identified(B))
    return false;
  return NoAlias(A) || NoAlias(B) ||
         (!isa<Argument>(A) && !isa<Argument>(B) && !isSharedBase(A) &&
          !isSharedBase(B));
}

} // namespace

bool provablyDisjoint(const Value *A, const Value *B) {
  SmallVector<const Value *, 4> As, Bs;
  getUnderlyingObjects(A, As);
  getUnderlyingObjects(B, Bs);
  return all_of(As, [&](const Value *X) {
    return all_of(Bs, [&](const Value *Y) { return disjointObjects(X, Y); });
  });
}

bool isMarkerCall(const CallBase &Call) {
  if (isa<DbgInfoIntrinsic>(Call) || Call.isLifetimeStartOrEnd())
    return true;
  const auto *II = dyn_cast<IntrinsicInst>(&Call);
  return II && II->getIntrinsicID() == Intrinsic::assume;
}

bool writesNoMemory(const CallBase &Call) {
  return isMarkerCall(Call) || !Call.mayWriteToMemory();
}

bool touchesNoAddressableMemory(const CallBase &Call) {
  return isMarkerCall(Call) || !Call.mayReadOrWriteMemory() ||
         Call.onlyAccessesInaccessibleMemory();
}

} // namespace coalda
