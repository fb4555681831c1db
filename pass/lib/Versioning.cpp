//===- Versioning.cpp - New code beside the original ----------------------===//
//
// The versioning pieces of Versioning.h: code under a run-time condition,
// and a region's clone as the fallback with the SSA repair of the values it
// defines. The copy rewrite, the element staging and the chunk windows all
// keep the original code beside the new one this way.
//
//===----------------------------------------------------------------------===//

#include "Versioning.h"

#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;

namespace coalda {

Value *emitUnder(IRBuilder<> &B, Value *Cond, const Twine &Name,
                 const Twine &ValueName, BasicBlock *Before,
                 function_ref<Value *(IRBuilder<> &)> Body) {
  BasicBlock *From = B.GetInsertBlock();
  Function *F = From->getParent();
  LLVMContext &Ctx = F->getContext();
  BasicBlock *Do = BasicBlock::Create(Ctx, Name, F, Before);
  BasicBlock *Cont = BasicBlock::Create(Ctx, Name + ".cont", F, Before);
  B.CreateCondBr(Cond, Do, Cont);
  IRBuilder<> DB(Do);
  DB.SetCurrentDebugLocation(B.getCurrentDebugLocation());
  Value *V = Body(DB);
  DB.CreateBr(Cont);
  B.SetInsertPoint(Cont);
  if (!V)
    return nullptr;
  PHINode *Phi = B.CreatePHI(V->getType(), 2, ValueName);
  Phi->addIncoming(V, Do);
  Phi->addIncoming(PoisonValue::get(V->getType()), From);
  return Phi;
}

void repairUsesOutside(ArrayRef<BasicBlock *> Region,
                       const SmallPtrSetImpl<BasicBlock *> &InRegion,
                       const SmallPtrSetImpl<BasicBlock *> &Clones,
                       ValueToValueMapTy &VMap) {
  for (BasicBlock *BB : Region)
    for (Instruction &I : *BB) {
      SmallVector<Use *, 4> Outside;
      for (Use &U : I.uses()) {
        auto *User = cast<Instruction>(U.getUser());
        BasicBlock *At = User->getParent();
        if (auto *Phi = dyn_cast<PHINode>(User))
          At = Phi->getIncomingBlock(U);
        if (!InRegion.contains(At) && !Clones.contains(At))
          Outside.push_back(&U);
      }
      if (Outside.empty())
        continue;
      SSAUpdater SSA;
      SSA.Initialize(I.getType(), I.getName());
      SSA.AddAvailableValue(BB, &I);
      SSA.AddAvailableValue(cast<BasicBlock>(VMap[BB]), VMap[&I]);
      for (Use *U : Outside)
        SSA.RewriteUse(*U);
    }
}


SmallVector<BasicBlock *, 16> cloneBlocks(ArrayRef<BasicBlock *> Region,
                                          ValueToValueMapTy &VMap) {
  Function *F = Region.front()->getParent();
  SmallVector<BasicBlock *, 16> Clones;
  for (BasicBlock *BB : Region) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, ".orig", F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  remapInstructionsInBlocks(Clones, VMap);
  return Clones;
}

SmallVector<BasicBlock *, 16>
cloneRegionAsFallback(ArrayRef<BasicBlock *> Region,
                      const SmallPtrSetImpl<BasicBlock *> &InRegion,
                      ValueToValueMapTy &VMap) {
  SmallVector<BasicBlock *, 16> Clones = cloneBlocks(Region, VMap);
  SmallPtrSet<BasicBlock *, 16> CloneSet(Clones.begin(), Clones.end());
  // Blocks after the region (none when the kernel ends in it) are entered
  // from the clone too.
  for (BasicBlock *BB : Region)
    for (BasicBlock *Succ : successors(BB))
      if (!InRegion.contains(Succ))
        for (PHINode &Phi : Succ->phis()) {
          Value *V = Phi.getIncomingValueForBlock(BB);
          if (Value *Mapped = VMap.lookup(V))
            V = Mapped;
          Phi.addIncoming(V, cast<BasicBlock>(VMap[BB]));
        }
  repairUsesOutside(Region, InRegion, CloneSet, VMap);
  return Clones;
}

} // namespace coalda
