//===- StagingInterference.cpp - Staging legality, step 3 ----------------===//
//
// Step 3 of staging legality (StagingLegality.cpp runs the steps): what else
// the thread does between the phases, and around them, must not see the
// staged elements where the tiles move them.
//
//  3. Between the phases the staged elements must not be reached through
//     another pointer by the same thread (another thread's touching them is
//     a race in the original): calls that may touch memory, volatile and
//     atomic accesses refuse; a load or store through a pointer not proven
//     disjoint from a staged array is checked at run time, per thread,
//     against the thread's own elements (its address must be computable
//     before the region); so are pairs of staged arrays one of which is
//     written. A warp collective between the accesses would order another
//     lane's such access after the thread's store (no race then), so the
//     two together refuse.
//  3b. Memory the rest of the kernel touches asks for barriers around the
//     phases (markBarriersOutside).
//  3c. Warp collectives beside run-time checks refuse (checkCollectives).
//  A read-modify-written transposed element is loaded before the region:
//  no store of the thread before its loads may write it
//  (checkStoresBeforeLoads).
//
//===----------------------------------------------------------------------===//

#include "MemoryFacts.h"
#include "StagingLegalityImpl.h"
#include "ThreadFunctions.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

namespace coalda {

namespace {

/// A pointer into shared or local memory: never a staged global element.
bool notGlobal(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 3 || AS == 5;
}

/// A call that only reads memory its pointer arguments name (__ldg's
/// ld.global.nc), none of which may be a written array's.
bool readsOnlyElsewhere(const CallBase &Call, const StagingCandidate &C) {
  if (!Call.onlyReadsMemory() || !Call.onlyAccessesArgMemory())
    return false;
  return all_of(Call.args(), [&](const Use &Arg) {
    return !Arg->getType()->isPointerTy() ||
           all_of(C.Arrays, [&](const StagedArray &A) {
             return !A.Written || provablyDisjoint(Arg.get(), A.Base);
           });
  });
}

/// Whether I, of the same thread, can run after one of the candidate's
/// transposed stores. Those stores are deferred to the store phase, after
/// the region: an access that cannot follow them sees global memory as it
/// did in the original (another thread's access to a stored address would
/// be a race in the original), so it needs no run-time check.
bool mayFollowTransposedStore(const Instruction &I, const StagingCandidate &C,
                              const DominatorTree &DT) {
  return any_of(C.Arrays, [&](const StagedArray &A) {
    return !A.Transposed ||
           isPotentiallyReachable(A.Accesses.front()->Inst, &I, nullptr, &DT);
  });
}

} // namespace

/// 3. One instruction between the phases that is not a staged access.
Verdict checkOther(Instruction &I, const StagingCandidate &C, StagingPlan &P,
                   Instruction *CheckPoint, DominatorTree &DT) {
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (touchesNoAddressableMemory(*Call) || readsOnlyElsewhere(*Call, C))
      return std::nullopt;
    return miss(MissedReason::CallMayTouch,
                "a call between the accesses may touch the staged elements: " +
                    describe(&I));
  }
  if (!I.mayReadOrWriteMemory())
    return std::nullopt;
  if (!isa<LoadInst>(I) && !isa<StoreInst>(I))
    return miss(MissedReason::VolatileOrAtomic,
                "an atomic access or fence between the accesses: " +
                    describe(&I));
  if ((isa<LoadInst>(I) && !cast<LoadInst>(I).isSimple()) ||
      (isa<StoreInst>(I) && !cast<StoreInst>(I).isSimple()))
    return miss(MissedReason::VolatileOrAtomic,
                "a volatile access between the accesses: " + describe(&I));
  Value *Ptr = getLoadStorePointerOperand(&I);
  if (notGlobal(Ptr))
    return std::nullopt;
  bool IsStore = isa<StoreInst>(I);
  bool Needed = any_of(C.Arrays, [&](const StagedArray &A) {
    return (A.Written || IsStore) && !provablyDisjoint(Ptr, A.Base);
  });
  if (!Needed || !mayFollowTransposedStore(I, C, DT))
    return std::nullopt;
  if (Instruction *Blocker = materializationBlocker(Ptr, CheckPoint, DT)) {
    LLVM_DEBUG(dbgs() << "  address not computable first: " << I << "\n");
    // A phi is a loop's variable (a neighbour loop -O0 keeps rolled) or a
    // branch's choice; the rest read memory or have effects.
    const char *How = " is computed from memory between the accesses";
    if (const auto *Phi = dyn_cast<PHINode>(Blocker))
      How = any_of(Phi->blocks(),
                   [&](BasicBlock *From) {
                     return DT.dominates(Phi->getParent(), From);
                   })
                ? " changes from one iteration of a loop between the "
                  "accesses to the next"
                : " is chosen by a branch between the accesses";
    return miss(MissedReason::StagingAccessBetween,
                "the address of " + describe(&I) + How +
                    ", so its overlap with the staged elements cannot be "
                    "checked first");
  }
  const DataLayout &DL = I.getModule()->getDataLayout();
  Type *Ty = IsStore ? cast<StoreInst>(I).getValueOperand()->getType()
                     : I.getType();
  P.Checks.push_back({&I, DL.getTypeStoreSize(Ty).getFixedValue(), IsStore});
  return std::nullopt;
}

/// 3b. Memory the rest of the kernel touches: the same thread's accesses
/// before and after the region see its element where another thread
/// moves it, so the moves need barriers around them.
void markBarriersOutside(const StagingCandidate &C, StagingPlan &P,
                         ArrayRef<Instruction *> Region,
                         const DenseSet<const Instruction *> &Staged) {
  DenseSet<const Instruction *> Inside(Region.begin(), Region.end());
  for (Instruction &I : instructions(*C.Block->getParent())) {
    if (Inside.contains(&I) || Staged.contains(&I) ||
        !I.mayReadOrWriteMemory())
      continue;
    if (const auto *Call = dyn_cast<CallBase>(&I);
        Call && touchesNoAddressableMemory(*Call))
      continue;
    Value *Ptr = getLoadStorePointerOperand(&I);
    if (Ptr && notGlobal(Ptr))
      continue;
    for (const StagedArray &A : C.Arrays) {
      if (Ptr && provablyDisjoint(Ptr, A.Base))
        continue;
      if (A.Loaded && I.mayWriteToMemory())
        P.LeadingBarrier = true;
      if (A.Written)
        P.TrailingBarrier = true;
    }
  }
  // In a grid-stride loop the region's writes run as the original code of
  // an iteration that is not staged (a warp with a lane that left, the
  // partial one), and the next iteration's rows may hold what they wrote,
  // unless it is the same array's own element (its later rows lie past
  // it): those rows are loaded after a barrier (for a warp tile, after the
  // ballot, which orders no memory; for a block tile, after a vote that
  // may be gone).
  if (!P.GridLoop)
    return;
  for (const Instruction *I : Region) {
    if (!I->mayWriteToMemory())
      continue;
    if (const auto *Call = dyn_cast<CallBase>(I);
        Call && touchesNoAddressableMemory(*Call))
      continue;
    const Value *Ptr = getLoadStorePointerOperand(I);
    if (Ptr && notGlobal(Ptr))
      continue;
    for (const StagedArray &A : C.Arrays) {
      bool Own = any_of(A.Accesses,
                        [&](const AccessExpr *M) { return M->Inst == I; });
      if (A.Loaded && !Own && !(Ptr && provablyDisjoint(Ptr, A.Base))) {
        LLVM_DEBUG(dbgs() << "coalda: a leading barrier: the region writes "
                          << *I << "\n");
        P.LeadingBarrier = true;
      }
    }
  }
}

/// 3c. A warp collective between the accesses (a shuffle, vote, reduction)
/// runs its lanes in step: where another access may reach the staged
/// elements (checked at run time only against the thread's own), a lane
/// could read after it what another lane stored before it, through memory,
/// and the tile would hold that store back. Refused there.
Verdict checkCollectives(ArrayRef<Instruction *> Region,
                         const StagingPlan &P) {
  if (P.Checks.empty() && P.ArrayChecks.empty())
    return std::nullopt;
  for (Instruction *I : Region)
    if (const auto *Call = dyn_cast<CallBase>(I); Call && Call->isConvergent())
      return miss(MissedReason::StagingAccessBetween,
                  "a warp collective between the accesses (" + describe(I) +
                      ") may order another lane's access to a staged "
                      "element after this thread's store, which the tile "
                      "would hold back");
  return std::nullopt;
}

/// The loads of a read-modify-written transposed element move to the load
/// phase, before the region: a store of the same thread that can run before
/// them must not write the element.
Verdict checkStoresBeforeLoads(const StagingCandidate &C,
                               ArrayRef<Instruction *> Region,
                               const DenseSet<const Instruction *> &Staged,
                               const DominatorTree &DT) {
  for (const StagedArray &A : C.Arrays)
    for (const AccessExpr *M : drop_begin(A.Accesses))
      for (Instruction *I : Region) {
        if (Staged.contains(I) || !I->mayWriteToMemory())
          continue;
        Value *Ptr = getLoadStorePointerOperand(I);
        if (Ptr && (notGlobal(Ptr) || provablyDisjoint(Ptr, A.Base)))
          continue;
        if (isPotentiallyReachable(I, M->Inst, nullptr, &DT))
          return miss(MissedReason::StagingAccessBetween,
                      describe(I) + " may write the transposed element " +
                          baseName(A.Base) +
                          " before it is read, and the block loads it "
                          "before the region");
      }
  return std::nullopt;
}

} // namespace coalda
