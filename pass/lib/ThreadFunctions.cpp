//===- ThreadFunctions.cpp - Values computed early, or by another thread --===//
//
// Two ways of computing a value of the kernel elsewhere than where it is,
// for the staging rewrite (legality asks whether they can, the emitter
// does it; ThreadFunctions.h declares them):
//
//  - at an earlier point (materializeAt): a clone of the value's pure
//    computation, for go and the run-time checks before the region;
//  - as another thread of the block computes it (cloneForThread): the
//    value's computation from the arguments, block-uniform special
//    registers and the thread index, with another thread's index, for a
//    transposed store's owner and go's first lane.
//
//===----------------------------------------------------------------------===//

#include "ThreadFunctions.h"
#include "coalda/CoalescingAnalysis.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#define DEBUG_TYPE "coalda-staging-emit"

using namespace llvm;

namespace coalda {

//===----------------------------------------------------------------------===//
// Moving a value's computation to an earlier point
//===----------------------------------------------------------------------===//

namespace {

/// An instruction whose clone may run anywhere: no memory, no side effects,
/// no trap (a division by a possible zero is not).
bool isPureCloneable(const Instruction *I) {
  if (isa<PHINode>(I) || I->isTerminator() || I->mayReadOrWriteMemory() ||
      I->mayHaveSideEffects())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(I))
    if (Call->isConvergent())
      return false;
  return isSafeToSpeculativelyExecute(I);
}

Instruction *blocker(Value *V, Instruction *At, DominatorTree &DT,
                     unsigned Depth) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return nullptr;
  // A pointer from a parameter struct, a base: moved to the kernel's top
  // before a rewrite that uses it is emitted (hoistLoadedBases).
  if (const auto *Load = dyn_cast<LoadInst>(I); Load && hoistableBase(*Load))
    return nullptr;
  if (Depth > 24 || !isPureCloneable(I))
    return I;
  for (Use &U : I->operands())
    if (Instruction *B = blocker(U.get(), At, DT, Depth + 1))
      return B;
  return nullptr;
}

} // namespace

bool canMaterializeAt(Value *V, Instruction *At, DominatorTree &DT) {
  return !blocker(V, At, DT, 0);
}

Instruction *materializationBlocker(Value *V, Instruction *At,
                                    DominatorTree &DT) {
  return blocker(V, At, DT, 0);
}

Value *materializeAt(Value *V, Instruction *At, DominatorTree &DT,
                     DenseMap<Value *, Value *> &Clones) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || DT.dominates(I, At))
    return V;
  if (Value *Done = Clones.lookup(V))
    return Done;
  if (!isPureCloneable(I))
    return nullptr;
  Instruction *Clone = I->clone();
  for (Use &U : Clone->operands()) {
    Value *Op = materializeAt(U.get(), At, DT, Clones);
    if (!Op) {
      Clone->deleteValue();
      return nullptr;
    }
    U.set(Op);
  }
  // The original ran only where its flags held; the clone runs in every
  // thread, also where they would not (an inactive thread's index).
  Clone->dropPoisonGeneratingAnnotations();
  Clone->insertBefore(At);
  Clone->setName(I->getName() + ".early");
  Clones[V] = Clone;
  return Clone;
}

//===----------------------------------------------------------------------===//
// Computing another thread's value
//===----------------------------------------------------------------------===//

namespace {

/// The special registers that are the same in every thread of a block, and
/// the thread indexes; anything else (laneid, clock, ...) is not a thread
/// function.
enum class SregKind { NotSreg, Uniform, TidX, TidY, TidZ };

SregKind sregKind(const Value *V) {
  const auto *II = dyn_cast<IntrinsicInst>(V);
  if (!II)
    return SregKind::NotSreg;
  switch (II->getIntrinsicID()) {
  case Intrinsic::nvvm_read_ptx_sreg_tid_x:
    return SregKind::TidX;
  case Intrinsic::nvvm_read_ptx_sreg_tid_y:
    return SregKind::TidY;
  case Intrinsic::nvvm_read_ptx_sreg_tid_z:
    return SregKind::TidZ;
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_x:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_y:
  case Intrinsic::nvvm_read_ptx_sreg_ntid_z:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
  case Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
    return SregKind::Uniform;
  default:
    return SregKind::NotSreg;
  }
}

bool isThreadFunctionAt(Value *V, unsigned Depth) {
  if (isa<Argument, Constant>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > 24)
    return false;
  if (sregKind(I) != SregKind::NotSreg)
    return true;
  if (isa<CallBase>(I) || !isPureCloneable(I))
    return false;
  return all_of(I->operands(),
                [&](Use &U) { return isThreadFunctionAt(U.get(), Depth + 1); });
}

Value *cloneOwnersValue(Value *V, Value *X, Value *Y, Instruction *At,
                        DenseMap<Value *, Value *> &Clones, StringRef Suffix) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return V;
  switch (sregKind(I)) {
  case SregKind::TidX:
    if (X)
      return X;
    break;
  case SregKind::TidY:
    if (Y)
      return Y;
    break;
  case SregKind::TidZ:
  case SregKind::Uniform:
  case SregKind::NotSreg:
    break;
  }
  if (Value *Done = Clones.lookup(V))
    return Done;
  Instruction *Clone = I->clone();
  for (Use &U : Clone->operands())
    U.set(cloneOwnersValue(U.get(), X, Y, At, Clones, Suffix));
  // The owner computed it under its own flags; the clone need not keep them.
  Clone->dropPoisonGeneratingAnnotations();
  Clone->insertBefore(At);
  Clone->setName(I->getName() + Suffix);
  Clones[V] = Clone;
  return Clone;
}

} // namespace

bool isThreadFunction(Value *V) { return isThreadFunctionAt(V, 0); }

Value *cloneForThread(Value *V, Value *X, Value *Y, Instruction *At,
                      StringRef Suffix) {
  assert(isThreadFunction(V) && "the caller checks the computation");
  DenseMap<Value *, Value *> Clones;
  return cloneOwnersValue(V, X, Y, At, Clones, Suffix);
}

} // namespace coalda
