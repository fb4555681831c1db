//===- StagingTiles.cpp - Staging legality, step 4: the tiles' size ------===//
//
// Step 4 of staging legality (StagingLegality.cpp runs the steps), and the
// kernel's shared memory and launch bounds it reads (chunk windows use them
// too).
//
//  4. Tiles: sized for __launch_bounds__ (maxntid.x) when given, else for
//     1024, 512 or 256 threads, whichever fits 48 KB (32 KB for a block that
//     only reads) with the kernel's own static shared memory; a larger
//     block runs the original code.
//
//===----------------------------------------------------------------------===//

#include "StagingLegalityImpl.h"
#include "Options.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

namespace coalda {

namespace {

constexpr uint64_t SharedLimit = 48 * 1024;
constexpr uint64_t ReadOnlyTileLimit = 32 * 1024;

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
    if (const auto *I = dyn_cast<Instruction>(U); I && Fs.contains(I->getFunction()))
      return true;
    if (isa<ConstantExpr>(U) && usedIn(U, Fs))
      return true;
  }
  return false;
}

} // namespace

unsigned launchBoundX(const Function &F) {
  if (unsigned N = F.getFnAttributeAsParsedInteger("nvvm.maxntid", 0))
    return N;
  const NamedMDNode *Ann = F.getParent()->getNamedMetadata("nvvm.annotations");
  if (!Ann)
    return 0;
  for (const MDNode *Op : Ann->operands()) {
    if (Op->getNumOperands() < 3)
      continue;
    auto *FV = dyn_cast_or_null<ValueAsMetadata>(Op->getOperand(0).get());
    if (!FV || FV->getValue() != &F)
      continue;
    for (unsigned K = 1; K + 1 < Op->getNumOperands(); K += 2) {
      auto *Key = dyn_cast<MDString>(Op->getOperand(K));
      auto *Val = mdconst::dyn_extract<ConstantInt>(Op->getOperand(K + 1));
      if (Key && Val && Key->getString() == "maxntidx")
        return Val->getZExtValue();
    }
  }
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

/// 4. The threads the tiles are sized for, or why none fits.
Verdict sizeTiles(const StagingCandidate &C, StagingPlan &P,
                  const Function &F) {
  std::optional<uint64_t> Static = staticSharedBytes(F);
  if (!Static)
    return miss(MissedReason::StagingTileTooLarge,
                "the kernel uses dynamic shared memory (extern __shared__): "
                "a static tile might not fit beside it");
  uint64_t Own = *Static;
  // A transposed store's slot of thread (x, y) is y*(ntid.x+1) + x: the
  // padding column avoids bank conflicts, so the tile has up to twice as
  // many slots as threads.
  uint64_t PerThread = C.bytesPerThread() * (C.transposed() ? 2 : 1);
  // A block that only reads keeps L1 for the blocks that run the original
  // code: a 48 KB tile measured 0.61x there (192-byte elements, 512 threads).
  bool ReadOnly = none_of(
      C.Arrays, [](const StagedArray &A) { return A.Written || A.Transposed; });
  uint64_t Limit = ReadOnly ? ReadOnlyTileLimit : SharedLimit;
  if (unsigned Bound = launchBoundX(F)) {
    P.Capacity = Bound;
    P.CapacityFromLaunchBounds = true;
    if (Own + PerThread * Bound <= Limit)
      return std::nullopt;
  } else {
    uint64_t Budget = std::min<uint64_t>(Limit, opts::StageTileBudget);
    // Cost rule: a small element's load, barriers and store do not pay in
    // the widest blocks (they run the original code, decided before any
    // barrier).
    unsigned Most = any_of(C.Arrays,
                           [](const StagedArray &A) {
                             return A.Loaded && !A.Transposed &&
                                    A.Stride <= 16;
                           })
                        ? opts::StageSmallRMWThreads
                        : 1024u;
    for (unsigned Threads : {1024u, 512u, 256u})
      if (Threads <= Most &&
          (Own + PerThread * Threads <= Budget || Threads == 256)) {
        if (Own + PerThread * Threads > Limit)
          break;
        P.Capacity = Threads;
        return std::nullopt;
      }
  }
  return miss(
      MissedReason::StagingTileTooLarge,
      "tiles of " + std::to_string(PerThread) + " bytes per thread for " +
          std::to_string(P.CapacityFromLaunchBounds ? P.Capacity : 256u) +
          (ReadOnly ? " threads do not fit the 32 KB a block that "
                      "only reads may take (the rest of the SM's "
                      "shared memory is L1 for the original code)"
                    : " threads do not fit the 48 KB of static "
                      "shared memory"));
}

} // namespace coalda
