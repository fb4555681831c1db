//===- StoreWindow.cpp - Chunk stores staged through a window -------------===//
//
// Collect and legality of store windows (-coalda-window-stores): the stores
// of a per-thread chunk that a loop walks, `out[p*C + k] = v` (softmax's
// `dest[i*sliceSize + j] = expf(src[...] - max_) / sum`), in a loop whose
// loads a chunk window already takes (ChunkWindow.cpp). Each warp store
// touches 32 rows C*w bytes apart: a sector per row, of which the thread
// writes w bytes.
//
// Scheme (emitted by ChunkWindowEmitter.cpp). Each iteration writes a
// record [Lo, Hi) of the thread's row, every byte of it, right after the
// previous iteration's (the address advances by Hi - Lo). The thread
// writes into its row of a shared tile instead, at the record's offset in
// the open window (row 0's position Start, Filled bytes written). At the
// top of OpenAt (a block of the loop that runs on every iteration and
// dominates the stores), when the iteration's record does not fit the
// window's WindowBytes (a multiple of the record), the warp writes back
// its 32 rows' Filled bytes: __syncwarp, the 32*P units (P = Filled / w)
// moved by the lanes flat (lane l, request i: unit 32*i + l, as the record
// refills move theirs), __syncwarp; then the window opens at the record.
// On the loop's one edge out (from FlushAt, its exiting block) the warp
// writes back what is left. Blocks of whole warps only.
//
// Why it is correct (race-free original assumed; every thread of the block
// runs the loop's iterations alike, which the load window's vote and
// uniform paths already ensure):
//  - a row's Filled bytes are exactly those its thread wrote since the
//    window opened (every byte of every record, records back to back), so
//    the write-back writes what the thread wrote, the value it wrote last;
//  - nothing in the loop reads or writes the array meanwhile: each load,
//    store or call of the loop is provably elsewhere (another object,
//    shared or local memory), or a load of a windowed array (never the
//    stored one itself) whose byte ranges in the loop may meet the stored
//    array's; for those the store windows run only where the two ranges of
//    the block's rows are disjoint (RangeCheck, in the store windows' own
//    flag, beside whole warps and rows of 80 bytes: a block without it
//    stores where the original does and keeps its load windows), so no
//    refill reads a byte the tile still holds;
//  - other threads that read the bytes in the original would race with
//    the owner unless a barrier orders them, and a barrier in the loop
//    refuses the window; after the loop the write-back is done;
//  - the stores are still mirrored into the thread's rows of load windows
//    that may hold their bytes (write-through), so a later read through a
//    window sees them.
//
// Cost (H200): softmax's own program, its loads already windowed (1.04x),
// with the stores windowed too: 106.48 -> 43.52 ms for 50 launches, 2.45x
// (docs/runs/store-windows/). The hand-written twin's stores alone through
// a per-warp window: 1.31x (docs/probe/chunk_stores-h200.txt). Windows of
// 32 bytes a row (-coalda-window-store-bytes), sized with the load windows
// for 512 threads; store windows that do not fit leave, the last found
// first (-O3's remainder loop; page-rank keeps its unrolled loop's).
//
//===----------------------------------------------------------------------===//

#include "ChunkWindowImpl.h"
#include "CopyGroup.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "SourceNames.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <variant>

#define DEBUG_TYPE "coalda-window-legality"

using namespace llvm;

STATISTIC(NumStoreWindowsRefused, "Chunk stores refused a store window");
STATISTIC(NumStoreWindowsLeftOut,
          "Store windows left out after legality (range, tile size)");
STATISTIC(NumStoreRangeChecks,
          "Run-time range checks between a store and a load window");

namespace coalda {

namespace {

/// A store of a per-thread chunk directly in L: global, strided, not
/// coalesced, plain.
bool isChunkStore(const AccessExpr &A, const Loop *L, const LoopInfo &LI) {
  return A.isKnown() && A.IsStore && !A.isTransfer() && A.isSimple() &&
         A.Space == MemorySpace::Global && A.Lane != LaneKind::None &&
         !A.isCoalesced() && LI.getLoopFor(A.Inst->getParent()) == L;
}

std::string refuse(const Twine &Why) {
  LLVM_DEBUG(dbgs() << "coalda: store window rejected: " << Why << "\n");
  ++NumStoreWindowsRefused;
  return Why.str();
}

/// Site pointer Ptr (a SCEV) on iteration It of L: its add recurrences of
/// L evaluated there.
const SCEV *atIteration(const SCEV *Ptr, const Loop *L, const SCEV *It,
                        ScalarEvolution &SE) {
  LoopToScevMapT Map;
  Map[L] = It;
  return SCEVLoopAddRecRewriter::rewrite(Ptr, Map, SE);
}

/// S's address on the first and on the last iteration that runs it, both
/// invariant in L, or false. A recurrence under a sign extension (-O0's int
/// index, `sext {p*C,+,1}`) is evaluated inside it: the iterations that run
/// compute it without overflow (its `add nsw`), so between them the
/// address moves as the recurrence does.
bool bound(WindowSite &S, ScalarEvolution &SE) {
  const Loop *L = S.Loop;
  const SCEV *Taken = SE.getBackedgeTakenCount(L);
  if (isa<SCEVCouldNotCompute>(Taken))
    return false;
  const SCEV *Last = runsOnExitIteration(S.Access->Inst->getParent(), L)
                         ? Taken
                         : SE.getMinusSCEV(Taken, SE.getOne(Taken->getType()));
  const SCEV *Ptr = SE.getSCEV(S.Access->pointer());
  S.First = atIteration(Ptr, L, SE.getZero(Taken->getType()), SE);
  S.Last = atIteration(Ptr, L, Last, SE);
  return SE.isLoopInvariant(S.First, L) && SE.isLoopInvariant(S.Last, L);
}

/// The bytes A's address advances by on each iteration of L: the step of
/// its add recurrence, else the automaton's c in `c*iter(IV)` beside terms
/// invariant in L (-O0's int index); none when neither is known.
std::optional<int64_t> advance(const AccessExpr &A, const Loop *L,
                               ScalarEvolution &SE,
                               const std::vector<Atom> &Atoms) {
  if (auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(A.pointer())))
    if (AR->getLoop() == L && AR->isAffine())
      if (auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE)))
        return Step->getAPInt().getSExtValue();
  if (std::optional<IterationTerm> Term = iterationTerm(A, L, Atoms))
    return Term->BytesPerIteration;
  return std::nullopt;
}

/// The sites of the stores (one width, whole units, every iteration), each
/// with its first and last address, or why not.
std::variant<std::vector<WindowSite>, std::string>
storeSites(ArrayRef<const AccessExpr *> Stores, Loop *L, DominatorTree &DT,
           ScalarEvolution &SE) {
  uint64_t W = Stores.front()->Width;
  if (W < 4 || W > 16 || !isPowerOf2_64(W))
    return refuse("its stores are " + Twine(W) +
                  " bytes wide: store windows take 4, 8 or 16");
  std::vector<WindowSite> Sites;
  for (const AccessExpr *A : Stores) {
    if (A->Width != W || A->Offset % (int64_t)W ||
        !(A->Uniform == Stores.front()->Uniform))
      return refuse("its stores in the loop differ in width or in their "
                    "position in the row");
    if (!runsEveryIteration(A->Inst->getParent(), L, DT))
      return refuse("a store of it does not run on every iteration of its "
                    "loop, so which bytes the thread writes is not known");
    WindowSite S{A, L, nullptr};
    if (!bound(S, SE))
      return refuse("its loop's trip count is not known before the loop");
    S.RangeLast = S.Last;
    Sites.push_back(S);
  }
  return Sites;
}

/// Where D's window opens (OpenAt, with Leader, StoredRecord and
/// WindowBytes), or why it cannot: the stores write a record of each row
/// per iteration, every byte, the next right after it, and a block of the
/// loop dominating them runs on exactly their iterations.
std::optional<std::string> placeWindow(StagedArray &D, DominatorTree &DT,
                                       ScalarEvolution &SE,
                                       const std::vector<Atom> &Atoms) {
  std::optional<std::pair<int64_t, int64_t>> Record = iterationRecord(D);
  if (!Record)
    return refuse("its stores leave bytes of each iteration's record "
                  "unwritten, which a write-back of the window would "
                  "overwrite");
  Loop *L = D.Sites.front().Loop;
  uint64_t Bytes = Record->second - Record->first, W = D.MemberWidth;
  BasicBlock *R = nullptr;
  for (const WindowSite &S : D.Sites) {
    BasicBlock *BB = S.Access->Inst->getParent();
    R = R ? DT.findNearestCommonDominator(R, BB) : BB;
    if (S.Access->Offset == Record->first)
      D.Leader = S.Access;
  }
  std::optional<int64_t> Step = advance(*D.Leader, L, SE, Atoms);
  if (Step != (int64_t)Bytes)
    return refuse(formatv("its loop writes {0} bytes of each row per "
                          "iteration but does not advance by them",
                          Bytes)
                      .str());
  uint64_t Capacity = alignTo(std::max<uint64_t>(opts::WindowStoreBytes, 1),
                              Bytes);
  if (Capacity > 32 * W)
    return refuse(formatv("its record of {0} bytes an iteration is over 32 "
                          "units",
                          Bytes)
                      .str());
  SCEVExpander Expander(SE, R->getModule()->getDataLayout(), "coalda");
  // R counts a record as written: it must run on exactly the iterations
  // that write one (-O0's header runs once more than its body).
  if (!L->contains(R) || !runsEveryIteration(R, L, DT) ||
      any_of(D.Sites,
             [&](const WindowSite &S) {
               return runsOnExitIteration(S.Access->Inst->getParent(), L) !=
                      runsOnExitIteration(R, L);
             }) ||
      !Expander.isSafeToExpandAt(SE.getSCEV(D.Leader->pointer()),
                                 &*R->getFirstInsertionPt()))
    return refuse("no block of its loop runs on exactly the iterations that "
                  "store it");
  // The write-back goes on the loop's one edge out (split at emission:
  // -O3's unrolled loop shares its exit with the guard that skips it).
  BasicBlock *Exiting = L->getExitingBlock();
  if (!Exiting || count_if(successors(Exiting), [&](const BasicBlock *S) {
                    return !L->contains(S);
                  }) != 1)
    return refuse("its loop has more than one way out, where the window "
                  "would be written back");
  D.OpenAt = R;
  D.FlushAt = Exiting;
  D.StoredRecord = Bytes;
  D.WindowBytes = Capacity;
  return std::nullopt;
}

/// The load window of C whose sites include I (a load), if any.
std::optional<unsigned> readWindowOf(const StagingCandidate &C,
                                     const Instruction &I) {
  for (auto [AI, A] : enumerate(C.Arrays))
    if (A.Loaded && !A.storeWindow() &&
        any_of(A.Sites, [&](const WindowSite &S) {
          return S.Access->Inst == &I;
        }))
      return AI;
  return std::nullopt;
}

/// Nothing else in D's loop may read or write D's chunk: each load, store
/// or call is elsewhere, or a load of a load window, whose ranges the vote
/// then checks (Checks gets its index); or why not.
std::optional<std::string> checkLoop(const StagedArray &D,
                                     const StagingCandidate &C,
                                     SmallVectorImpl<unsigned> &Checks) {
  const Loop *L = D.Sites.front().Loop;
  SmallPtrSet<const Instruction *, 8> Own;
  for (const AccessExpr *A : D.Accesses)
    Own.insert(A->Inst);
  for (const BasicBlock *BB : L->blocks())
    for (const Instruction &I : *BB) {
      if (Own.contains(&I) || !I.mayReadOrWriteMemory() ||
          isa<DbgInfoIntrinsic>(I) || isa<LifetimeIntrinsic>(I))
        continue;
      auto Touches = [&] {
        return refuse(describe(&I) + " in its loop may read or write " +
                      baseName(D.Base) + "'s chunk while the window holds it");
      };
      const Value *Ptr = getLoadStorePointerOperand(&I);
      if (!Ptr || isa<CallBase>(I))
        return Touches();
      unsigned AS = Ptr->getType()->getPointerAddressSpace();
      if (AS == 3 || AS == 5 || isa<AllocaInst>(getUnderlyingObject(Ptr)) ||
          provablyDisjoint(Ptr, D.Base))
        continue;
      std::optional<unsigned> Read =
          isa<LoadInst>(I) ? readWindowOf(C, I) : std::nullopt;
      if (!Read)
        return Touches();
      // The loop reads what it writes (`x[p*C + k] *= s`): the ranges
      // would never be apart.
      if (C.Arrays[*Read].Base == D.Base)
        return refuse("its loop reads the array it writes, through the load "
                      "window");
      if (!is_contained(Checks, *Read))
        Checks.push_back(*Read);
    }
  return std::nullopt;
}

/// The load windows of Checks have a first and a last address for every
/// site in D's loop (their block's range in it), or why not.
std::optional<std::string> rangesKnown(StagingCandidate &C,
                                       ArrayRef<unsigned> Checks,
                                       const Loop *L, ScalarEvolution &SE) {
  for (unsigned X : Checks)
    for (WindowSite &S : C.Arrays[X].Sites) {
      WindowSite Bounded = S;
      if (S.Loop != L)
        continue;
      if (!bound(Bounded, SE))
        return refuse(baseName(C.Arrays[X].Base) +
                      ", read in its loop, may overlap it, and how far the "
                      "loop reads it is not known before the loop");
      // The load window keeps its own Last (its refill's bound).
      S.First = Bounded.First;
      S.RangeLast = Bounded.Last;
    }
  return std::nullopt;
}

/// The store window of one group of chunk stores in L, or why not.
std::variant<StagedArray, std::string>
makeStoreWindow(std::vector<const AccessExpr *> Stores, Loop *L,
                StagingCandidate &C, SmallVectorImpl<unsigned> &Checks,
                DominatorTree &DT, ScalarEvolution &SE,
                const std::vector<Atom> &Atoms) {
  const AccessExpr &First = *Stores.front();
  StagedArray D;
  D.Base = First.Base;
  D.Windowed = D.Written = true;
  D.Accesses = Stores;
  D.LaneStride = First.Stride;
  D.Stride = First.Stride.isConstant() ? First.Stride.constantTerm() : 0;
  D.MemberWidth = First.Width;
  auto Sites = storeSites(Stores, L, DT, SE);
  if (auto *Why = std::get_if<std::string>(&Sites))
    return *Why;
  D.Sites = std::move(std::get<std::vector<WindowSite>>(Sites));
  if (std::optional<std::string> Why = placeWindow(D, DT, SE, Atoms))
    return *Why;
  if (std::optional<std::string> Why = checkLoop(D, C, Checks))
    return *Why;
  if (std::optional<std::string> Why = rangesKnown(C, Checks, L, SE))
    return *Why;
  return D;
}

/// The loops of C's load windows (outermost, as their sites are).
SmallPtrSet<Loop *, 4> windowedLoops(const StagingCandidate &C) {
  SmallPtrSet<Loop *, 4> Loops;
  for (const StagedArray &A : C.Arrays)
    for (const WindowSite &S : A.Sites)
      Loops.insert(S.Loop);
  return Loops;
}

} // namespace

void addStoreWindows(StagingCandidate &C, StagingPlan &P,
                     const CoalescingInfo &Info,
                     const DenseSet<const Instruction *> &Claimed,
                     DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE) {
  SmallPtrSet<Loop *, 4> Loops = windowedLoops(C);
  std::map<std::tuple<const Value *, const Loop *, Poly>,
           std::vector<const AccessExpr *>>
      Groups;
  std::vector<std::tuple<const Value *, const Loop *, Poly>> Order;
  for (const AccessExpr &A : Info.Accesses) {
    Loop *L = LI.getLoopFor(A.Inst->getParent());
    if (!L || !Loops.contains(L) || Claimed.contains(A.Inst) ||
        !isChunkStore(A, L, LI))
      continue;
    auto Key = std::make_tuple(A.Base, (const Loop *)L, A.Stride);
    if (!Groups.count(Key))
      Order.push_back(Key);
    Groups[Key].push_back(&A);
  }
  for (const auto &Key : Order) {
    SmallVector<unsigned, 2> Checks;
    Loop *L = const_cast<Loop *>(std::get<1>(Key));
    auto Made =
        makeStoreWindow(Groups[Key], L, C, Checks, DT, SE, Info.atoms());
    if (auto *D = std::get_if<StagedArray>(&Made)) {
      for (unsigned X : Checks)
        P.RangeChecks.push_back({(unsigned)C.Arrays.size(), X, L});
      NumStoreRangeChecks += Checks.size();
      C.Arrays.push_back(std::move(*D));
      continue;
    }
    StagedArray Left;
    Left.Base = std::get<0>(Key);
    Left.Windowed = Left.Written = true;
    Left.Accesses = Groups[Key];
    Left.LaneStride = std::get<2>(Key);
    C.LeftOut.push_back(
        {std::move(Left), "not windowed: " + std::get<std::string>(Made)});
  }
}

void leaveOutStoreWindow(StagingCandidate &C, StagingPlan &P, unsigned AI,
                         const std::string &Why) {
  erase_if(P.RangeChecks,
           [&](const StagingPlan::RangeCheck &R) { return R.Stored == AI; });
  for (StagingPlan::RangeCheck &R : P.RangeChecks) {
    R.Stored -= R.Stored > AI;
    R.Read -= R.Read > AI;
  }
  LLVM_DEBUG(dbgs() << "coalda: store window left out: " << Why << "\n");
  ++NumStoreWindowsLeftOut;
  C.LeftOut.push_back({std::move(C.Arrays[AI]), "not windowed: " + Why});
  C.Arrays.erase(C.Arrays.begin() + AI);
}

void keepExpandableChecks(StagingCandidate &C, StagingPlan &P) {
  Instruction *At = P.VoteBlock->getTerminator();
  SCEVExpander Expander(*P.SE, At->getModule()->getDataLayout(), "coalda");
  auto Expandable = [&](const StagedArray &A, const Loop *L) {
    return all_of(A.Sites, [&](const WindowSite &S) {
      return S.Loop != L || (Expander.isSafeToExpandAt(S.First, At) &&
                             Expander.isSafeToExpandAt(S.RangeLast, At));
    });
  };
  for (unsigned AI = C.Arrays.size(); AI-- > 0;) {
    if (!C.Arrays[AI].storeWindow())
      continue;
    bool Known = all_of(P.RangeChecks, [&](const StagingPlan::RangeCheck &R) {
      return R.Stored != AI || (Expandable(C.Arrays[R.Stored], R.Loop) &&
                                Expandable(C.Arrays[R.Read], R.Loop));
    });
    if (Known)
      continue;
    leaveOutStoreWindow(C, P, AI,
                        "it may overlap an array its loop reads, and where "
                        "the two lie is not known before the loops");
  }
}

} // namespace coalda
