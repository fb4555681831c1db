//===- SharedBudget.cpp - The shared memory a tile may take ---------------===//
//
// The budget of SharedBudget.h: the static shared memory a kernel already
// uses (its own __shared__ variables and its callees'), against which the
// element staging's tiles and the chunk windows are sized (each with its
// own rule for how many threads to size for), and the x bound of its
// __launch_bounds__. They used to live in the staging's tile sizing.
//
//===----------------------------------------------------------------------===//

#include "SharedBudget.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace coalda {

namespace {

/// F and the functions it calls, directly or not: their __shared__
/// variables are all in F's blocks.
SmallPtrSet<const Function *, 8> callTree(const Function &F) {
  SmallPtrSet<const Function *, 8> Seen{&F};
  SmallVector<const Function *, 8> Work{&F};
  while (!Work.empty())
    for (const Instruction &I : instructions(*Work.pop_back_val()))
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && Seen.insert(Callee).second)
          Work.push_back(Callee);
  return Seen;
}

/// Used by an instruction of one of Fs, directly or through constant
/// expressions.
bool usedIn(const Value *V, const SmallPtrSetImpl<const Function *> &Fs) {
  for (const User *U : V->users()) {
    if (const auto *I = dyn_cast<Instruction>(U);
        I && Fs.contains(I->getFunction()))
      return true;
    if (isa<ConstantExpr>(U) && usedIn(U, Fs))
      return true;
  }
  return false;
}

} // namespace

SmallVector<NVVMAnnotation, 4> nvvmAnnotationsOf(const Function &F) {
  SmallVector<NVVMAnnotation, 4> Out;
  const NamedMDNode *Ann = F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!Ann)
    return Out;
  for (const MDNode *Op : Ann->operands()) {
    if (Op->getNumOperands() < 3)
      continue;
    auto *FV = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get());
    if (!FV || FV->getValue() != &F)
      continue;
    for (unsigned K = 1; K + 1 < Op->getNumOperands(); K += 2)
      if (auto *Key = dyn_cast<MDString>(Op->getOperand(K)))
        Out.push_back({Key->getString(),
                       mdconst::dyn_extract<ConstantInt>(Op->getOperand(K + 1))});
  }
  return Out;
}

unsigned launchBoundX(const Function &F) {
  if (unsigned N = F.getFnAttributeAsParsedInteger("nvvm.maxntid", 0))
    return N;
  for (const NVVMAnnotation &A : nvvmAnnotationsOf(F))
    if (A.Key == "maxntidx" && A.Value)
      return A.Value->getZExtValue();
  return 0;
}

std::optional<uint64_t> staticSharedBytes(const Function &F) {
  uint64_t Own = 0;
  SmallPtrSet<const Function *, 8> Tree = callTree(F);
  for (const GlobalVariable &GV : F.getParent()->globals()) {
    if (GV.getAddressSpace() != 3 || !usedIn(&GV, Tree))
      continue;
    if (!GV.hasInitializer())
      return std::nullopt;
    Own += F.getParent()->getDataLayout().getTypeAllocSize(GV.getValueType());
  }
  return Own;
}

std::variant<SharedBudget, Missed> sharedBudget(const Function &F,
                                                StringRef Tile) {
  std::optional<uint64_t> Static = staticSharedBytes(F);
  if (!Static)
    return Missed{MissedReason::StagingTileTooLarge,
                  "the kernel uses dynamic shared memory (extern __shared__): "
                  "a static " +
                      Tile.str() + " might not fit beside it"};
  return SharedBudget{*Static};
}

} // namespace coalda
