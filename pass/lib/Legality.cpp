//===- Legality.cpp - Decide which copy groups may be rewritten ----------===//
//
// Phase 2 of the transformation. The rewrite has the threads of a block row
// move each other's elements, so a candidate group is rewritten only when
// that cannot change any byte under any schedule of a race-free original:
//
//   shape      members in one block; not an element the backend already
//              moves as one vector (cost rule); stride within the limit
//   threads    the row's threads that run the copy are all of them, or a
//              prefix: a bounds guard `i < n` or a grid-stride loop on the
//              lane index (unsigned only when the row's first index cannot
//              be negative); its values are available at the copy
//   members    simple (not volatile/atomic), each load feeds only its
//              store, no other memory access between them
//   buffers    global source; same address space; distinct buffers; a
//              shared-memory destination only when run once by every
//              thread and followed by a __syncthreads()
//   others     no other access may touch the destination bytes (stores of
//              a copy from the same source at the same displacement
//              excepted: they write the same values), nothing else writes
//              the source (after a shared fill's barrier it may), no call
//              may touch either
//   overlap    a run-time overlap check unless the buffers are provably
//              disjoint (__restrict__, distinct globals, shared vs global)
//
// The outcome is a RewritePlan (guard, overlap check, unit widths, and for
// a grid-stride loop whose body is only the copy, the flat copy) or a Missed.
//
//===----------------------------------------------------------------------===//

#include "ActiveThreads.h"
#include "CopyGroup.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "RowUniformity.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/CycleAnalysis.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/MathExtras.h"

#define DEBUG_TYPE "coalda-legality"

using namespace llvm;

namespace coalda {

namespace {

/// A and B copy from the same source buffer into the same destination buffer
/// with the same distance between the byte each member stores and the byte
/// it loads, in every thread (collect made that distance equal within each
/// group).
bool sameDisplacement(const CopyGroup &A, const CopyGroup &B,
                      const CoalescingInfo &Info) {
  auto Displacement = [&](const CopyGroup &G) {
    return Info.addressPoly(G.first()) +
           Info.addressPoly(G.source()).scaled(-1);
  };
  return A.first().Base == B.first().Base &&
         A.source().Base == B.source().Base &&
         Displacement(A) == Displacement(B);
}

bool isBarrier(const Instruction &I) {
  const auto *II = dyn_cast<IntrinsicInst>(&I);
  return II && (II->getIntrinsicID() == Intrinsic::nvvm_barrier0 ||
                II->getIntrinsicID() == Intrinsic::nvvm_barrier_sync);
}

/// The (pointer, written?) pairs I touches; false when I is a call that may
/// touch memory we cannot name.
bool touchedMemory(const Instruction &I,
                   SmallVectorImpl<std::pair<const Value *, bool>> &Touched) {
  if (const Value *Ptr = getLoadStorePointerOperand(&I))
    Touched.push_back({Ptr, isa<StoreInst>(I)});
  else if (const auto *MT = dyn_cast<MemTransferInst>(&I))
    Touched.append({{MT->getRawDest(), true}, {MT->getRawSource(), false}});
  else if (const auto *MS = dyn_cast<MemSetInst>(&I))
    Touched.push_back({MS->getRawDest(), true});
  else if (const auto *Call = dyn_cast<CallBase>(&I); !Call)
    return false;
  else if (Call->isLifetimeStartOrEnd() || isa<DbgInfoIntrinsic>(Call))
    return true; // markers (libdevice's local arrays): no memory touched
  else if (Call->onlyAccessesArgMemory()) {
    // __ldg: the memory its pointer arguments name
    for (const Use &Arg : Call->args())
      if (Arg->getType()->isPointerTy())
        Touched.push_back({Arg.get(), !Call->onlyReadsMemory()});
  } else if (!Call->onlyAccessesInaccessibleMemory())
    return false;
  return true;
}

Instruction *firstMember(const CopyGroup &G) {
  Instruction *First = G.source().Inst;
  for (const AccessExpr *A : G.members())
    if (A->Inst->comesBefore(First))
      First = A->Inst;
  return First;
}

/// The phase: decides the candidates of one kernel.
class Legality {
public:
  Legality(const CoalescingInfo &Info, PostDominatorTree &PDT,
           DominatorTree &DT, LoopInfo &LI, const CycleInfo &Cycles,
           const std::vector<GroupOutcome> &Groups)
      : Info(Info), PDT(PDT), DT(DT), LI(LI),
        Threads(Info, PDT, DT, LI, Cycles) {
    // The members of every pure copy collect found, for the question which
    // other accesses may touch a copy's bytes.
    for (const GroupOutcome &O : Groups)
      if (O.legal())
        for (const AccessExpr *A : O.Group.members())
          CopyOf[A->Inst] = &O.Group;
  }

  /// Fills O.Plan, or O.Skip with the first check that fails.
  void decide(GroupOutcome &O) {
    if (O.Skip)
      return;
    const CopyGroup &G = O.Group;
    RewritePlan &P = O.Plan;
    O.Skip = checkShape(G);
    if (!O.Skip)
      O.Skip = Threads.find(G, P);
    if (!O.Skip)
      O.Skip = checkMembers(G);
    if (!O.Skip)
      O.Skip = checkBuffers(G, P);
    if (!O.Skip)
      O.Skip = checkOtherAccesses(G);
    if (O.Skip)
      return;
    P.NeedsOverlapCheck = !provablyDisjoint(G.first().Base, G.source().Base);
    if (P.Kind == Guard::Loop && opts::FlatLoops)
      findFlatLoop(G, P);
    if (P.NeedsOverlapCheck && !opts::RuntimeChecks) {
      O.Skip = Missed{MissedReason::NoRuntimeChecks,
                      "source and destination may overlap (no __restrict__) "
                      "and run-time checks are disabled"};
      return;
    }
    // In a loop, the run-time overlap check of one iteration's regions does
    // not cover the next iteration reading what this one wrote (the same
    // thread, in the original; another thread, after the rewrite). Only the
    // flat copy, which checks the whole loop's bytes, may then be used.
    if (P.NeedsOverlapCheck && liveLoopFor(LI, G.first().Inst->getParent())) {
      if (!P.flat()) {
        O.Skip = Missed{MissedReason::OverlapInLoop,
                        "source and destination may overlap (no __restrict__) "
                        "and the copy is in a loop: a later iteration could "
                        "read bytes this one wrote"};
        return;
      }
      P.FlatOnly = true;
    }
    for (unsigned U : {16u, 4u})
      if (U > G.MemberWidth && U <= opts::MaxUnitWidth)
        P.Units.push_back(U);
    P.Units.push_back(G.MemberWidth);
  }

private:
  const CoalescingInfo &Info;
  PostDominatorTree &PDT;
  DominatorTree &DT;
  LoopInfo &LI;
  ActiveThreads Threads;
  DenseMap<const Instruction *, const CopyGroup *> CopyOf;

  Verdict checkShape(const CopyGroup &G);
  Verdict checkMembers(const CopyGroup &G);
  Verdict checkBuffers(const CopyGroup &G, const RewritePlan &P);
  Verdict checkOtherAccesses(const CopyGroup &G);
  const Instruction *barrierAfterFill(const CopyGroup &G);
  void findFlatLoop(const CopyGroup &G, RewritePlan &P);
};

Verdict Legality::checkShape(const CopyGroup &G) {
  BasicBlock *BB = G.first().Inst->getParent();
  for (const AccessExpr *A : G.members())
    if (A->Inst->getParent() != BB)
      return Missed{MissedReason::DifferentBlocks,
                    "the copy's loads and stores are in different blocks"};
  // Cost rule (measured, docs/benchmarks.md): an element of power-of-two
  // size up to 16 bytes whose first member is aligned to that size is
  // merged by the backend into one vector access per thread (int2:
  // ld.v2.u32), which is already coalesced; the rewrite measured
  // 0.90-1.09x there.
  if (opts::CostRules && isPowerOf2_64(G.Stride) && G.Stride <= 16) {
    Align A0 = std::min(G.first().alignment(), G.source().alignment());
    if (A0.value() >= (uint64_t)G.Stride)
      return Missed{MissedReason::VectorizedElement,
                    "not profitable: the backend already moves each aligned " +
                        std::to_string(G.Stride) +
                        "-byte element as one vector"};
  }
  if ((uint64_t)G.Stride > opts::MaxStride)
    return Missed{MissedReason::StrideLimit,
                  "lane stride " + std::to_string(G.Stride) +
                      " exceeds the rewrite's limit of " +
                      std::to_string(opts::MaxStride) + " bytes"};
  return std::nullopt;
}

Verdict Legality::checkMembers(const CopyGroup &G) {
  for (const AccessExpr *A : G.members())
    if (!A->isSimple())
      return Missed{MissedReason::VolatileOrAtomic,
                    "a member is volatile or atomic"};
  for (const AccessExpr *Ld : G.Loads)
    if (!Ld->isTransfer() && !Ld->Inst->hasOneUse())
      return Missed{MissedReason::LoadReused,
                    "a loaded member is used by more than its store"};
  Instruction *First = firstMember(G), *Last = lastMember(G);
  SmallPtrSet<const Instruction *, 16> Members;
  for (const AccessExpr *A : G.members())
    Members.insert(A->Inst);
  // A read of a parameter struct's field or a constant (p.n, p.out) cannot
  // meet the copy: no store writes there.
  auto Constant = [](const Instruction &I) {
    const auto *Load = dyn_cast<LoadInst>(&I);
    return Load && readsConstantMemory(*Load);
  };
  for (auto It = First->getIterator(); &*It != Last; ++It)
    if (!Members.count(&*It) && It->mayReadOrWriteMemory() && !Constant(*It))
      return Missed{MissedReason::AccessBetween,
                    "another memory access lies between the copy's members (" +
                        describe(&*It) + ")"};
  return std::nullopt;
}

Verdict Legality::checkBuffers(const CopyGroup &G, const RewritePlan &P) {
  const AccessExpr &Dst = G.first(), &Src = G.source();
  if (Src.Space != MemorySpace::Global)
    return Missed{MissedReason::SourceNotGlobal,
                  "the source is not global memory"};
  if (Dst.Space == MemorySpace::Global &&
      Dst.pointer()->getType() != Src.pointer()->getType())
    return Missed{MissedReason::AddressSpaces,
                  "source and destination are in different address spaces"};
  if (Dst.Base == Src.Base)
    return Missed{MissedReason::SameBuffer,
                  "source and destination are the same buffer"};
  // Another iteration or the threads that skip the guard could read the
  // tile while other threads fill it.
  if (isSharedBase(Dst.Base) &&
      (P.Kind != Guard::None || liveLoopFor(LI, Dst.Inst->getParent())))
    return Missed{MissedReason::SharedFillGuarded,
                  "a shared-memory fill is rewritten only when every thread "
                  "runs it once (no guard, no loop)"};
  return std::nullopt;
}

/// The __syncthreads() that directly follows a shared-memory fill in its
/// block (no memory access in between), or null.
const Instruction *Legality::barrierAfterFill(const CopyGroup &G) {
  Instruction *Last = lastMember(G);
  for (auto It = std::next(Last->getIterator()),
            E = Last->getParent()->end();
       It != E; ++It) {
    if (isBarrier(*It))
      return &*It;
    if (It->mayReadOrWriteMemory())
      return nullptr;
  }
  return nullptr;
}

// The rewrite has each thread move other threads' elements. Any other access
// to the destination, or store to the source, could now race with the copy
// where the original did not. A shared-memory fill is read by other threads:
// a __syncthreads() must follow it and come before every other access.
Verdict Legality::checkOtherAccesses(const CopyGroup &G) {
  const Value *Dst = G.first().Base, *Src = G.source().Base;
  bool Shared = isSharedBase(Dst);
  const Instruction *Barrier = Shared ? barrierAfterFill(G) : nullptr;
  if (Shared && !Barrier)
    return Missed{MissedReason::NoBarrier,
                  "no __syncthreads() directly follows the shared-memory fill"};
  for (Instruction &I : instructions(*G.first().Inst->getFunction())) {
    if (!I.mayReadOrWriteMemory() || isBarrier(I))
      continue;
    if (const auto *Load = dyn_cast<LoadInst>(&I);
        Load && readsConstantMemory(*Load))
      continue; // a parameter's field, a constant: never written
    const AccessExpr *A = Info.lookup(&I);
    if (A && (is_contained(G.Stores, A) || is_contained(G.Loads, A)))
      continue; // a member (a transfer's destination stands for it)
    // A store of another copy from the same source at the same displacement
    // (e.g. an unrolled iteration of the loop) writes any byte it shares
    // with this copy with the same source byte, which nothing writes: in
    // whatever order the two land, the result is the same. Its loads are
    // not exempt: reading the destination races with the rewrite (another
    // thread now writes the bytes), and so does any other access.
    const CopyGroup *Other = CopyOf.lookup(&I);
    bool SameValues = Other && (isa<StoreInst>(I) || isa<MemTransferInst>(I)) &&
                      sameDisplacement(G, *Other, Info);
    SmallVector<std::pair<const Value *, bool>, 2> Touched;
    if (!touchedMemory(I, Touched))
      return Missed{MissedReason::CallMayTouch,
                    "the kernel calls " + describe(&I) +
                        ", which may touch the copied memory"};
    for (auto [Ptr, Writes] : Touched) {
      const Value *Base = Ptr;
      if (Shared && !provablyDisjoint(Base, Dst)) {
        if (!DT.dominates(Barrier, &I))
          return Missed{MissedReason::TileBeforeBarrier,
                        "the shared tile is accessed (" + describe(&I) +
                            ") where the __syncthreads() after the fill does "
                            "not precede it"};
        continue;
      }
      if (!SameValues && !provablyDisjoint(Base, Dst))
        return Missed{MissedReason::DestinationAccessed,
                      "the destination may also be " +
                          std::string(Writes ? "written" : "read") +
                          " elsewhere (" + describe(&I) + ")"};
      // A shared-memory fill runs once, before its barrier, in every thread:
      // a write after the barrier cannot race with the fill's loads.
      bool AfterFill = Shared && DT.dominates(Barrier, &I);
      if (Writes && !AfterFill && !provablyDisjoint(Base, Src))
        return Missed{MissedReason::SourceWritten,
                      "the source may also be written elsewhere (" +
                          describe(&I) + ")"};
    }
  }
  return std::nullopt;
}

/// Whether V can be used at At: it is a constant or argument, it dominates
/// At, or it is a pure, speculatable computation of values that can be.
/// The instructions to repeat in front of At (operands first) are appended
/// to Copies.
bool availableAt(Value *V, const Instruction *At, const DominatorTree &DT,
                 SmallVectorImpl<Instruction *> &Copies, unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  auto *I = dyn_cast<Instruction>(V);
  if (!I)
    return false;
  if (DT.dominates(I, At))
    return true;
  if (Depth > 8 || isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!availableAt(Op, At, DT, Copies, Depth + 1))
      return false;
  if (!is_contained(Copies, I))
    Copies.push_back(I);
  return true;
}

/// The entry of the flat copy: the block every thread passes right before
/// the loop (the plain jump into a header-tested loop, or the `i < n` test
/// in front of a rotated one), or null.
BasicBlock *flatEntry(const RewritePlan &P, Loop *L, LoopInfo &LI,
                      PostDominatorTree &PDT) {
  BasicBlock *Entry = L->getLoopPredecessor();
  if (P.RotatedLoop &&
      !cast<BranchInst>(Entry->getTerminator())->isConditional())
    Entry = Entry->getSinglePredecessor();
  auto *Br = Entry ? dyn_cast<BranchInst>(Entry->getTerminator()) : nullptr;
  if (!Entry || !Br || LI.getLoopFor(Entry) ||
      !PDT.dominates(Entry, &Entry->getParent()->getEntryBlock()))
    return nullptr;
  if (Br->isConditional() && !is_contained(Br->successors(), L->getExitBlock()))
    return nullptr;
  // The flat copy jumps from Entry over the loop: a preheader in between
  // must do nothing that the flat path would skip.
  BasicBlock *Preheader = L->getLoopPredecessor();
  if (Preheader != Entry)
    for (Instruction &I : *Preheader) {
      if (I.mayHaveSideEffects() || I.mayReadOrWriteMemory())
        return nullptr;
      for (const User *U : I.users())
        if (cast<Instruction>(U)->getParent() != Preheader &&
            !L->contains(cast<Instruction>(U)))
          return nullptr;
    }
  return Entry;
}

// The flat copy replaces the whole loop: i = gid + ntid.x*nctaid.x*iter, the
// bound uniform over the grid, addresses base + S*i + offset on both sides,
// nothing else in the loop, nothing it computes used after it.
void Legality::findFlatLoop(const CopyGroup &G, RewritePlan &P) {
  const PrefixBound &Bound = P.Bounds.front();
  auto *Phi = cast<PHINode>(Bound.Lo);
  Loop *L = LI.getLoopFor(Phi->getParent());
  BasicBlock *Exit = L->getExitBlock();
  // The flat copy starts at the bases themselves: arguments or globals.
  auto Available = [](const Value *Base) {
    return isa<GlobalValue>(Base) || isa<Argument>(Base);
  };
  if (!Exit || !Available(G.first().Base) || !Available(G.source().Base) ||
      !Exit->phis().empty() || isSharedBase(G.first().Base))
    return;
  BasicBlock *Entry = flatEntry(P, L, LI, PDT);
  if (!Entry)
    return;
  Poly Gid = gridIndex(Info);
  Poly Grid = Poly::atom(Info.registerAtom(Atom::BlockDim, 0)) *
              Poly::atom(Info.registerAtom(Atom::GridDim, 0));
  std::optional<Poly> I = Info.readInteger(Phi);
  if (!I || *I != Gid + Grid * Poly::atom(Info.iterationAtom(Phi)))
    return;
  std::optional<Poly> N = Info.readInteger(Bound.Hi);
  if (!N)
    return;
  for (const auto &[M, C] : N->Terms)
    for (unsigned Id : M)
      if (Info.atoms()[Id].Kind != Atom::Argument &&
          Info.atoms()[Id].Kind != Atom::GridDim &&
          Info.atoms()[Id].Kind != Atom::BlockDim)
        return;
  for (const AccessExpr *A : {&G.first(), &G.source()}) {
    Poly Rel = Info.addressPoly(*A) + Poly::constant(-A->Offset);
    if (Rel != I->scaled(G.Stride))
      return;
  }
  SmallPtrSet<const Instruction *, 16> Members;
  for (const AccessExpr *A : G.members())
    Members.insert(A->Inst);
  for (BasicBlock *BB : L->blocks())
    for (Instruction &Inst : *BB) {
      if (!Members.count(&Inst) &&
          (Inst.mayHaveSideEffects() || Inst.mayReadOrWriteMemory()))
        return;
      for (const User *U : Inst.users())
        if (!L->contains(cast<Instruction>(U)->getParent()))
          return;
    }
  // The bound is used in front of the loop: it must be available there, or
  // be a pure computation of values that are (at -O0 `n - 1` is computed in
  // the loop header), which the flat copy then repeats.
  SmallVector<Instruction *, 4> Copies;
  if (!availableAt(Bound.Hi, Entry->getTerminator(), DT, Copies)) {
    LLVM_DEBUG(dbgs() << "coalda: no flat copy: the loop bound " << *Bound.Hi
                      << " is not available before the loop\n");
    return;
  }
  P.FlatEndCopies.assign(Copies.begin(), Copies.end());
  P.FlatEntry = Entry;
  P.FlatExit = Exit;
}

} // namespace

Poly gridIndex(const CoalescingInfo &Info) {
  return Poly::atom(Info.registerAtom(Atom::ThreadIdx, 0)) +
         Poly::atom(Info.registerAtom(Atom::BlockIdx, 0)) *
             Poly::atom(Info.registerAtom(Atom::BlockDim, 0));
}

void decideLegality(std::vector<GroupOutcome> &Groups,
                    const CoalescingInfo &Info, PostDominatorTree &PDT,
                    DominatorTree &DT, LoopInfo &LI, const CycleInfo &Cycles) {
  Legality Phase(Info, PDT, DT, LI, Cycles, Groups);
  for (GroupOutcome &O : Groups) {
    Phase.decide(O);
    if (opts::AnalyzeOnly && O.legal())
      O.Skip = Missed{MissedReason::AnalysisOnly,
                      "analysis only (-coalda-analyze-only)"};
    LLVM_DEBUG(if (O.Skip) dbgs()
               << "coalda: left alone: " << Info.exprString(O.Group.first())
               << ": " << O.Skip->Detail << "\n");
  }
}

} // namespace coalda
