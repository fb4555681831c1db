//===- ChunkWindow.cpp - Chunk loops staged through a moving window -------===//
//
// Collect and legality of the third staging kind: a per-thread chunk that a
// loop walks, `for (i = 0; i < C; i++) ... in[p*C + i]`, C known only at run
// time (kmeans' invert_mapping). Each warp's load touches 32 rows C*w bytes
// apart; L1 absorbs that for short rows only (docs/benchmarks.md, "Chunk
// windows").
//
// Scheme (emitted by ChunkWindowEmitter.cpp). Row r of the block is thread
// r's chunk, S bytes after row r-1 (S the lane stride); every address of a
// site is P = row0 + S*tid.x, row0 the same in all threads. The block keeps
// one window per array: WindowBytes of each row from a block-uniform row-0
// position W, in a __shared__ tile (a row per thread, padded by one
// element). At a site, when P - S*tid.x lies outside [W, W + Len) (a
// block-uniform test) the block refills the window from there: barrier,
// rows moved in w-byte units by consecutive threads (one sector per row),
// barrier. The load then reads the thread's own row of the tile.
//
//   Vote (VoteBlock, every thread once, before the loops):
//     go = barrier.and(thread takes the way to the loops && 1-D block of at
//                      most Capacity threads && S >= 80 bytes)
//     go ? the code after the vote, windowed : a clone of it, untouched
//   Site: hit ? read the own row : (refill; read the own row)
//   Store that may write a windowed array: also into the own window row
//
// Records refilled per iteration (-coalda-window-iteration-bytes=B, 32 by
// default): an array whose sites are all in one loop, at one uniform part,
// reading every byte of a record of at least B bytes (at most 32 units) of
// each row per iteration (perIteration), is refilled at the top of the
// block of the loop that dominates them and runs on exactly their
// iterations, with that record; its loads read the tile unchecked. Each
// warp moves its own 32 rows' records as 32*P flat units (every lane on
// each of P requests) between __syncwarps, and arrays whose loops are apart
// share one tile in turn. dslash's four 72-byte matrices: 1.26x (1.19x
// with a request a row, 18 of 32 lanes: docs/runs/records-flat/); its
// hand-written twins 1.10x and 1.77x (docs/probe/dslash_units-h200.txt).
//
// Stores of a chunk such a loop writes, record after record: StoreWindow.cpp.
//
// A form for measurements, off by default: -coalda-window-scope=warp, each
// warp refills its own rows of the other windows too (dslash's 32-byte
// windows over the arms 0.67x, softmax 1.03x -> 1.00x: docs/runs/records/).
//
// Why it is correct (race-free original assumed):
//  - every thread runs the same sites in the same order: between the vote
//    and the sites every branch is row-uniform or its threads meet again
//    before any site, the block is 1-D and all of it voted for the way to
//    the loops, so the refill barriers match;
//  - a refill reads only bytes the row's own thread reads: from its current
//    access up to the site loop's last access of that array (each site's
//    element is read on every iteration, and the loop has one exit; the
//    last address from ScalarEvolution, else a sibling site's plus their
//    distance, else the automaton's c*iter(IV) with IV's last value), all
//    in one object, so nothing past a chunk's end is touched. A site in an
//    arm of a branch qualifies when every way through an iteration passes
//    a load of the same element (dslash's `k == 0 ? mult_su3_mat_vec :
//    mult_su3_mat_vec_sum`, both reading the k-th matrix whole): the bytes
//    an iteration reads do not depend on the way it goes;
//  - a refill reads earlier than the owner would: another thread's write
//    would race with the owner's read in the original, unless a barrier
//    orders them, and a call that may hold one (any call that may write,
//    any convergent call but an intrinsic's) between the vote and the
//    loads refuses the window; the owner's own
//    earlier writes are before a barrier; its writes after the refill are
//    written through to its window row (a per-byte check of its stores
//    that may alias);
//  - global memory is never written by the rewrite.
//
// Cost rule (measured on an H200: docs/probe/chunk_runtime-h200.txt, the
// hand-written form; docs/runs/window-lengths-h200.txt, the pass's, against
// the chunk length at 128-512 threads):
//  - a loop that also stores to global memory (invert_mapping): rows of at
//    least 80 bytes, decided at run time (20 floats 1.29-1.91x, 34 floats
//    1.91-3.67x; 16 floats 0.93x at 512 threads, 12 floats 0.78-1.04x);
//  - a loop that only reads its chunks (a reduction): rows a multiple of
//    128 bytes apart, where the original loop reads at about a third of
//    its speed at other lengths and the window gains 1.2-2.3x (32-512
//    floats); at other lengths L1 serves the loop (0.37-1.36x at 8-48
//    floats; docs/runs/window-read-only-h200.txt).
//    A row length known at compile time is decided here; a run-time one
//    only with -coalda-window-read-only=runtime, since the tile's static
//    shared memory takes L1 from the blocks that run the original loop too
//    (0.74-0.97x at 20 floats); each block then tests its rows before the
//    vote, and blocks that do not qualify skip the barrier;
//  - 32-byte windows, tiles for 512 threads (for 1024 the static tile halves
//    the blocks per SM at 128 threads: 1.3-1.9x instead of 1.8-2.9x), blocks
//    of more threads run the original loop; loads of 4 to 16 bytes; loops
//    not nested in another (an outer loop walks the chunk again, refilling
//    it every pass);
//  - an array with an element that only the arms of a branch read (each
//    arm a load of it, no load of it on every iteration: Coverage::EveryArm)
//    is left out unless -coalda-window-arms: dslash's loop, the one of the
//    corpus, ran 0.66x windowed (docs/programs/issue-39.md). An arm's load
//    of an element that a load on every iteration also reads (BodyLoad,
//    real_shapes' row_diff) is windowed with it;
//  - an array whose rows are a constant under 80 bytes apart is left out
//    (dslash's 32-byte index rows beside its 288-byte matrices).
// An array left out by a cost rule leaves the others of its loops their
// windows.
//
//===----------------------------------------------------------------------===//

#include "ChunkWindowImpl.h"
#include "MemoryFacts.h"
#include "Options.h"
#include "RowUniformity.h"
#include "SharedBudget.h"
#include "Staging.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"

#include <map>
#include <variant>

#define DEBUG_TYPE "coalda-window-legality"

using namespace llvm;

STATISTIC(NumWindowsLegal, "Chunk windows found legal");
STATISTIC(NumWindowArmSites,
          "Chunk loads in a branch's arm whose element every iteration reads");
STATISTIC(NumWindowIterations,
          "Chunk windows refilled once per iteration with its record");

namespace coalda {

Missed windowMiss(MissedReason R, std::string Detail) {
  LLVM_DEBUG(dbgs() << "coalda: chunk window rejected: " << Detail << "\n");
  return Missed{R, std::move(Detail)};
}

namespace {

/// A load of a per-thread chunk in a loop: global, strided, not coalesced.
bool isChunkLoad(const AccessExpr &A, const LoopInfo &LI,
                 const std::vector<Atom> &Atoms) {
  const Loop *L = LI.getLoopFor(A.Inst->getParent());
  // An address that its own loop advances by the grid's size (a grid-stride
  // loop's element) walks no chunk: the element staging takes it per
  // iteration.
  auto OwnIteration = [&](unsigned Id) {
    const auto *Phi = dyn_cast_or_null<Instruction>(Atoms[Id].V);
    return Atoms[Id].Kind == Atom::Iteration && Phi &&
           Phi->getParent() == L->getHeader();
  };
  auto GridRegister = [&](unsigned Id) {
    return Atoms[Id].Kind <= Atom::GridDim && !Atoms[Id].isLane();
  };
  bool GridStride = L && any_of(A.Uniform.Terms, [&](const auto &T) {
    const Monomial &M = T.first;
    return M.size() > 1 && count_if(M, OwnIteration) == 1 &&
           all_of(M, [&](unsigned Id) {
             return OwnIteration(Id) || GridRegister(Id);
           });
  });
  return A.isKnown() && !A.IsStore && !A.isTransfer() &&
         A.Space == MemorySpace::Global && A.Lane != LaneKind::None &&
         !A.isCoalesced() && !GridStride && L;
}

/// Every coefficient of P divisible by W.
bool divisible(const Poly &P, uint64_t W) {
  return all_of(P.Terms,
                [&](const auto &T) { return T.second % (int64_t)W == 0; });
}

} // namespace

/// BB runs once on every iteration of L that goes round (it dominates the
/// latch), and L has one exit, at its latch or its header; L is entered from
/// one block outside it.
bool runsEveryIteration(const BasicBlock *BB, const Loop *L,
                        const DominatorTree &DT) {
  const BasicBlock *Latch = L->getLoopLatch(), *Exiting = L->getExitingBlock();
  return Latch && L->getLoopPredecessor() && DT.dominates(BB, Latch) &&
         (Exiting == Latch || Exiting == L->getHeader());
}

namespace {

/// How A's element is read on every iteration of L when A's own block may
/// not run on every iteration.
enum class Coverage {
  None,      ///< some way through an iteration does not read it
  BodyLoad,  ///< another load of it runs on every iteration
  EveryArm,  ///< each arm of a branch reads it (dslash's matrices)
};

/// Every path through an iteration of L (header to latch) passes a block of
/// L with a load of A's element: of the same array at the same address (the
/// same uniform part, offset and width). dslash's `k == 0 ?
/// mult_su3_mat_vec(a, b) : mult_su3_mat_vec_sum(a, b)` reads all of the
/// k-th matrix in either arm. The bytes one iteration reads are then the
/// same whichever way it goes, so the last iteration's address bounds what
/// the thread reads.
Coverage coverage(const AccessExpr &A, ArrayRef<const AccessExpr *> Group,
                  const Loop *L, const LoopInfo &LI, const DominatorTree &DT) {
  const BasicBlock *Header = L->getHeader(), *Latch = L->getLoopLatch(),
                   *Exiting = L->getExitingBlock();
  if (!Latch || !L->getLoopPredecessor() ||
      !(Exiting == Latch || Exiting == Header))
    return Coverage::None;
  SmallPtrSet<const BasicBlock *, 8> Readers;
  for (const AccessExpr *B : Group)
    if (B->Width == A.Width && B->Offset == A.Offset &&
        B->Uniform == A.Uniform && LI.getLoopFor(B->Inst->getParent()) == L)
      Readers.insert(B->Inst->getParent());
  if (any_of(Readers, [&](const BasicBlock *BB) {
        return runsEveryIteration(BB, L, DT);
      }))
    return Coverage::BodyLoad;
  // Is the latch reachable from the header without passing a reader?
  SmallPtrSet<const BasicBlock *, 16> Seen{Header};
  SmallVector<const BasicBlock *, 16> Work{Header};
  while (!Work.empty())
    for (const BasicBlock *S : successors(Work.pop_back_val())) {
      if (!L->contains(S) || Readers.contains(S) || !Seen.insert(S).second)
        continue;
      if (S == Latch)
        return Coverage::None;
      Work.push_back(S);
    }
  return Coverage::EveryArm;
}

Error noSite(const Twine &Why) {
  return createStringError(inconvertibleErrorCode(), Why);
}

} // namespace

/// BB runs on the iteration on which L exits too: L exits at its latch
/// (a rotated loop: every block runs as often as the latch), or at its
/// header and BB is the header (it runs once more than the body: the
/// header's `(v = in[k], k < len)` loads before it tests).
bool runsOnExitIteration(const BasicBlock *BB, const Loop *L) {
  return L->getExitingBlock() == L->getLoopLatch() || BB == L->getHeader();
}

/// AR (an affine recurrence of L) on the last iteration that runs Site (a
/// block of L that runs on every iteration): AR's exit value when Site runs
/// on the exit iteration, one step before when it does not (-O0's `for`:
/// the body runs one time fewer than the header); null when that is not
/// known before L.
const SCEV *lastIteration(const SCEVAddRecExpr *AR, const Loop *L,
                          const BasicBlock *Site, ScalarEvolution &SE) {
  const SCEV *Last = SE.getSCEVAtScope(AR, nullptr);
  if (isa<SCEVCouldNotCompute>(Last))
    return nullptr;
  if (!runsOnExitIteration(Site, L))
    Last = SE.getMinusSCEV(Last, AR->getStepRecurrence(SE));
  SCEVExpander Expander(SE, L->getHeader()->getModule()->getDataLayout(),
                        "coalda");
  if (!SE.isLoopInvariant(Last, L) ||
      !Expander.isSafeToExpandAt(Last,
                                 L->getLoopPredecessor()->getTerminator()))
    return nullptr;
  return Last;
}

std::optional<IterationTerm> iterationTerm(const AccessExpr &A, const Loop *L,
                                           const std::vector<Atom> &Atoms) {
  const PHINode *IV = nullptr;
  int64_t PerIteration = 0;
  bool Invariant = true;
  for (const auto &[M, Coeff] : A.Uniform.Terms)
    for (unsigned Id : M) {
      const Atom &At = Atoms[Id];
      if (At.Kind == Atom::Iteration) {
        bool Alone = M.size() == 1 && !IV;
        IV = Alone ? dyn_cast<PHINode>(At.V) : nullptr;
        PerIteration = Alone ? Coeff : 0;
        if (!Alone)
          Invariant = false;
      } else if (const auto *I = dyn_cast_or_null<Instruction>(At.V)) {
        Invariant &= !L->contains(I);
      }
    }
  if (!IV || !Invariant || PerIteration <= 0 ||
      IV->getParent() != L->getHeader())
    return std::nullopt;
  return IterationTerm{IV, PerIteration};
}

namespace {

/// The site of A when ScalarEvolution cannot follow its pointer: the
/// automaton reads its uniform part as c*iter(IV) (c > 0 bytes, IV L's
/// induction phi, which ScalarEvolution follows) plus terms invariant in L.
Expected<WindowSite> siteByInduction(const AccessExpr &A, Loop *L,
                                     const CoalescingInfo &Info,
                                     ScalarEvolution &SE) {
  std::optional<IterationTerm> Term = iterationTerm(A, L, Info.atoms());
  if (!Term)
    return noSite("its address does not advance by a constant with the loop");
  const PHINode *IV = Term->IV;
  int64_t PerIteration = Term->BytesPerIteration;
  auto *IVRec = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(const_cast<PHINode *>(IV)));
  const auto *IVStep =
      IVRec && IVRec->getLoop() == L && IVRec->isAffine()
          ? dyn_cast<SCEVConstant>(IVRec->getStepRecurrence(SE))
          : nullptr;
  const SCEV *IVLast = IVStep && !IVStep->getAPInt().isZero() &&
                               IVStep->getAPInt().getSignificantBits() <= 63
                           ? lastIteration(IVRec, L, A.Inst->getParent(), SE)
                           : nullptr;
  if (!IVLast)
    return noSite("its loop's trip count is not known before the loop");
  WindowSite Site{&A, L, nullptr};
  Site.IV = IV;
  Site.BytesPerIteration = PerIteration;
  Site.IVLast = IVLast;
  Site.IVStep = IVStep->getAPInt().getSExtValue();
  return Site;
}

/// The site of A, or why its window cannot be bounded: A runs on every
/// iteration of an outermost loop with one exit, whose pointer advances by
/// a positive constant and is known on the last iteration.
Expected<WindowSite> siteOf(const AccessExpr &A,
                            ArrayRef<const AccessExpr *> Group,
                            DominatorTree &DT, LoopInfo &LI,
                            ScalarEvolution &SE, const CoalescingInfo &Info) {
  auto No = [](const Twine &Why) {
    return createStringError(inconvertibleErrorCode(), Why);
  };
  BasicBlock *BB = A.Inst->getParent();
  Loop *L = LI.getLoopFor(BB);
  if (L->getParentLoop())
    return No("it is in a loop nested in another, which walks the chunk "
              "again on every pass");
  Coverage Covered = runsEveryIteration(BB, L, DT)
                         ? Coverage::BodyLoad
                         : coverage(A, Group, L, LI, DT);
  if (Covered == Coverage::None)
    return No("its loop may leave before the load runs on every iteration, "
              "so how far the chunk is read is not known");
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(A.pointer()));
  const auto *Step = AR && AR->getLoop() == L && AR->isAffine()
                         ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                         : nullptr;
  if (!Step || !Step->getAPInt().isStrictlyPositive())
    return No("its address does not advance by a constant with the loop");
  const SCEV *Last = lastIteration(AR, L, BB, SE);
  if (!Last)
    return No("its loop's trip count is not known before the loop");
  WindowSite Site{&A, L, Last};
  Site.InArm = Covered == Coverage::EveryArm;
  NumWindowArmSites += Site.InArm;
  return Site;
}

/// The site of a load ScalarEvolution cannot follow (FailWhy says why).
/// A load `in[p*C + (i|3)]` of an unrolled loop is a constant away from a
/// sibling of the same loop with the same uniform part: its last address is
/// the sibling's plus that constant. Else the automaton's reading of the
/// address, by the loop's induction variable.
Expected<WindowSite> siteBesides(const AccessExpr &A, StringRef FailWhy,
                                 ArrayRef<WindowSite> Sites,
                                 ArrayRef<const AccessExpr *> Loads,
                                 DominatorTree &DT, LoopInfo &LI,
                                 ScalarEvolution &SE,
                                 const CoalescingInfo &Info) {
  Loop *L = LI.getLoopFor(A.Inst->getParent());
  const BasicBlock *BB = A.Inst->getParent();
  Coverage Covered = runsEveryIteration(BB, L, DT)
                         ? Coverage::BodyLoad
                         : coverage(A, Loads, L, LI, DT);
  if (Covered == Coverage::None)
    return noSite(FailWhy);
  const WindowSite *Sibling = find_if(Sites, [&](const WindowSite &S) {
    return S.Loop == L && S.Last && S.Access->Uniform == A.Uniform &&
           runsOnExitIteration(BB, L) ==
               runsOnExitIteration(S.Access->Inst->getParent(), L);
  });
  bool InArm = Covered == Coverage::EveryArm;
  if (Sibling != Sites.end()) {
    const SCEV *Delta =
        SE.getConstant(SE.getEffectiveSCEVType(Sibling->Last->getType()),
                       A.Offset - Sibling->Access->Offset, /*isSigned=*/true);
    WindowSite Site{&A, L, SE.getAddExpr(Sibling->Last, Delta)};
    Site.InArm = InArm;
    return Site;
  }
  if (L->getParentLoop())
    return noSite(FailWhy);
  Expected<WindowSite> Site = siteByInduction(A, L, Info, SE);
  if (Site)
    Site->InArm = InArm;
  return Site;
}

} // namespace

/// The offsets [Lo, Hi) that A's sites read of a row in one iteration,
/// when each byte of it is read (no gap between their elements) and the
/// sites are all in one loop at one uniform part (a constant apart).
std::optional<std::pair<int64_t, int64_t>> iterationRecord(
    const StagedArray &A) {
  const AccessExpr &First = *A.Sites.front().Access;
  std::vector<int64_t> Offsets;
  for (const WindowSite &S : A.Sites) {
    if (S.Loop != A.Sites.front().Loop || !(S.Access->Uniform == First.Uniform))
      return std::nullopt;
    Offsets.push_back(S.Access->Offset);
  }
  llvm::sort(Offsets);
  int64_t W = A.MemberWidth, End = Offsets.front();
  for (int64_t O : Offsets) {
    if (O > End)
      return std::nullopt; // a gap: bytes the thread does not read
    End = std::max(End, O + W);
  }
  return std::make_pair(Offsets.front(), End);
}

namespace {

/// Makes A a window refilled once per iteration (StagedArray::RefillAt)
/// where its loop reads a record of at least -coalda-window-iteration-bytes
/// of each row per iteration, every byte of it (iterationRecord), and a
/// block of the loop dominates the sites and runs on exactly the
/// iterations they run (dslash's loop body, above `k == 0 ? ... : ...`).
/// A refill then moves only bytes that the row's own thread reads in that
/// iteration: no bound on the chunk is needed.
void perIteration(StagedArray &A, const DominatorTree &DT,
                  ScalarEvolution &SE) {
  std::optional<std::pair<int64_t, int64_t>> Record;
  if (opts::WindowIterationBytes && !A.Sites.empty())
    Record = iterationRecord(A);
  // A warp moves at least one row's record a request (moveRecords).
  int64_t Span = Record ? Record->second - Record->first : 0;
  if (!Record || Span < (int64_t)opts::WindowIterationBytes ||
      Span > 32 * (int64_t)A.MemberWidth)
    return;
  Loop *L = A.Sites.front().Loop;
  BasicBlock *R = nullptr;
  const AccessExpr *Leader = nullptr;
  for (const WindowSite &S : A.Sites) {
    BasicBlock *BB = S.Access->Inst->getParent();
    R = R ? DT.findNearestCommonDominator(R, BB) : BB;
    if (S.Access->Offset == Record->first)
      Leader = S.Access;
  }
  if (!L->contains(R) || !runsEveryIteration(R, L, DT) ||
      any_of(A.Sites, [&](const WindowSite &S) {
        return runsOnExitIteration(S.Access->Inst->getParent(), L) !=
               runsOnExitIteration(R, L);
      }))
    return;
  // The record's address, computed at the top of R in the same iteration:
  // any expression of L's recurrences (an int index's
  // `4 * zext(i32 {0,+,18})`, which has no no-wrap flag, is no add
  // recurrence of its own) that does not vary in a loop inside L.
  const SCEV *Addr = SE.getSCEV(Leader->pointer());
  SCEVExpander Expander(SE, R->getModule()->getDataLayout(), "coalda");
  auto VariesIn = [&](const Loop *M) { return !SE.isLoopInvariant(Addr, M); };
  if (isa<SCEVCouldNotCompute>(Addr) || !VariesIn(L) ||
      any_of(L->getSubLoops(), VariesIn) ||
      !Expander.isSafeToExpandAt(Addr, &*R->getFirstInsertionPt()))
    return;
  A.RefillAt = R;
  A.Leader = Leader;
  A.WindowBytes = Span;
  ++NumWindowIterations;
}

/// The array of one group of chunk loads (same base, lane, lane stride):
/// its sites, or why none can be windowed.
std::variant<StagedArray, std::string>
makeArray(std::vector<const AccessExpr *> Loads, DominatorTree &DT,
          LoopInfo &LI, ScalarEvolution &SE, const CoalescingInfo &Info,
          std::vector<std::pair<const AccessExpr *, std::string>> &LeftOut) {
  const AccessExpr &First = *Loads.front();
  uint64_t W = First.Width;
  if (W < 4 || W > 16 || !isPowerOf2_64(W))
    return std::string("its loads are " + std::to_string(W) +
                       " bytes wide: chunk windows take 4, 8 or 16");
  StagedArray Arr;
  Arr.Base = First.Base;
  Arr.Windowed = Arr.Loaded = true;
  Arr.LaneStride = First.Stride;
  Arr.Stride = First.Stride.isConstant() ? First.Stride.constantTerm() : 0;
  Arr.WindowBytes = PowerOf2Ceil(
      std::max<uint64_t>(opts::WindowRowBytes, 2 * W));
  Arr.MemberWidth = W;
  std::string Why;
  std::vector<std::pair<const AccessExpr *, std::string>> Failed;
  for (const AccessExpr *A : Loads) {
    if (A->Width != W || !A->isSimple() || !divisible(A->Stride, W) ||
        !divisible(A->Uniform, W) || A->Offset % (int64_t)W != 0) {
      Why = "its loads differ in width, are volatile, or do not step in "
            "whole elements";
      LeftOut.push_back({A, Why});
      continue;
    }
    Expected<WindowSite> S = siteOf(*A, Loads, DT, LI, SE, Info);
    if (!S) {
      Failed.push_back({A, toString(S.takeError())});
      LLVM_DEBUG(dbgs() << "coalda: chunk window: no site for " << *A->Inst
                        << ": " << Failed.back().second << "\n");
      continue;
    }
    Arr.Accesses.push_back(A);
    Arr.Sites.push_back(*S);
  }
  for (auto &[A, FailWhy] : Failed) {
    Expected<WindowSite> S =
        siteBesides(*A, FailWhy, Arr.Sites, Loads, DT, LI, SE, Info);
    if (!S) {
      Why = toString(S.takeError());
      LeftOut.push_back({A, Why});
      continue;
    }
    Arr.Accesses.push_back(A);
    Arr.Sites.push_back(*S);
  }
  if (Arr.Accesses.empty())
    return Why;
  perIteration(Arr, DT, SE);
  return Arr;
}

/// The block every thread runs once whose end dominates the sites, and the
/// branch there that leads to them (when it is conditional).
Verdict findVote(const StagingCandidate &C, StagingPlan &P, DominatorTree &DT,
                 PostDominatorTree &PDT, LoopInfo &LI) {
  BasicBlock *D = nullptr;
  for (const StagedArray &A : C.Arrays)
    for (const WindowSite &S : A.Sites) {
      BasicBlock *BB = S.Access->Inst->getParent();
      D = D ? DT.findNearestCommonDominator(D, BB) : BB;
    }
  BasicBlock *Entry = &D->getParent()->getEntryBlock();
  BasicBlock *X = D, *Below = nullptr;
  while (X && (LI.getLoopFor(X) || !PDT.dominates(X, Entry))) {
    Below = X;
    DomTreeNode *Up = DT.getNode(X)->getIDom();
    X = Up ? Up->getBlock() : nullptr;
  }
  if (!X || X == D)
    return windowMiss(MissedReason::StagingGuard,
                "no point before the loops is reached once by every thread of "
                "the block, so no barrier may go there");
  P.VoteBlock = X;
  auto *Br = dyn_cast<BranchInst>(X->getTerminator());
  if (Br && Br->isConditional() && Below &&
      Below->getSinglePredecessor() == X &&
      Br->getSuccessor(0) != Br->getSuccessor(1)) {
    P.Guard = Br;
    P.ActiveOnTrue = Br->getSuccessor(0) == Below;
  }
  return std::nullopt;
}

/// The blocks from which a site can be reached (sites' blocks included).
SmallPtrSet<const BasicBlock *, 16>
blocksReachingSites(const StagingCandidate &C) {
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work;
  for (const StagedArray &A : C.Arrays)
    for (const WindowSite &S : A.Sites)
      if (Seen.insert(S.Access->Inst->getParent()).second)
        Work.push_back(S.Access->Inst->getParent());
  while (!Work.empty())
    for (const BasicBlock *Pred : predecessors(Work.pop_back_val()))
      if (Seen.insert(Pred).second)
        Work.push_back(Pred);
  return Seen;
}

/// A divergent branch at BB whose threads meet again (at BB's immediate
/// post-dominator) before any of them reaches a chunk load: `v = a < b ?
/// a : b` in the loop body. The block then runs the loads, and so the
/// refills' barriers, alike in every thread.
bool rejoinsBeforeSites(const BasicBlock &BB,
                        const SmallPtrSetImpl<const BasicBlock *> &Sites,
                        const PostDominatorTree &PDT) {
  const DomTreeNode *Next = PDT.getNode(&BB)->getIDom();
  const BasicBlock *Join = Next ? Next->getBlock() : nullptr;
  if (!Join)
    return false;
  SmallPtrSet<const BasicBlock *, 16> Seen;
  SmallVector<const BasicBlock *, 16> Work;
  for (const BasicBlock *S : successors(&BB))
    if (S != Join && Seen.insert(S).second)
      Work.push_back(S);
  while (!Work.empty()) {
    const BasicBlock *At = Work.pop_back_val();
    if (Sites.contains(At) || At == &BB)
      return false;
    for (const BasicBlock *S : successors(At))
      if (S != Join && Seen.insert(S).second)
        Work.push_back(S);
  }
  return true;
}

/// Between the vote and the sites every thread goes the same way: every
/// branch after the vote's (or the guard's active edge) from which a site can
/// be reached is row-uniform, or its threads meet again before any site.
Verdict checkUniformPaths(const StagingCandidate &C, const StagingPlan &P,
                          const CoalescingInfo &Info, DominatorTree &DT,
                          const PostDominatorTree &PDT) {
  SmallPtrSet<const BasicBlock *, 16> Reaching = blocksReachingSites(C);
  SmallPtrSet<const BasicBlock *, 16> Sites;
  for (const StagedArray &A : C.Arrays)
    for (const WindowSite &S : A.Sites)
      Sites.insert(S.Access->Inst->getParent());
  BasicBlock *Root =
      P.Guard ? P.Guard->getSuccessor(P.ActiveOnTrue ? 0 : 1) : P.VoteBlock;
  for (BasicBlock &BB : *P.VoteBlock->getParent()) {
    if (!Reaching.contains(&BB) || !DT.dominates(Root, &BB) ||
        Info.uniformity().isUniformBranch(BB) ||
        rejoinsBeforeSites(BB, Sites, PDT))
      continue;
    return windowMiss(MissedReason::StagingGuard,
                describe(BB.getTerminator()) +
                    ", between the vote and the chunk loads, may split the "
                    "block, so the window's barriers may not go there");
  }
  return std::nullopt;
}

/// A memcpy, memmove or memset into the thread's own stack (-O0's struct
/// temporaries), shared memory, or an object disjoint from every windowed
/// array.
bool writesOnlyElsewhere(const CallBase &Call, const StagingCandidate &C) {
  const auto *MI = dyn_cast<MemIntrinsic>(&Call);
  if (!MI)
    return false;
  const Value *Dest = MI->getRawDest();
  unsigned AS = Dest->getType()->getPointerAddressSpace();
  if (AS == 3 || AS == 5 || isa<AllocaInst>(getUnderlyingObject(Dest)))
    return true;
  return all_of(C.Arrays, [&](const StagedArray &A) {
    return provablyDisjoint(Dest, A.Base);
  });
}

/// Writes that can come between a refill and a later site: calls and
/// atomics refuse; a plain store that may write a windowed array is
/// written through to the thread's window.
Verdict checkWrites(const StagingCandidate &C, StagingPlan &P,
                    const DominatorTree &DT) {
  SmallPtrSet<const BasicBlock *, 16> Reaching = blocksReachingSites(C);
  for (Instruction &I : instructions(*P.VoteBlock->getParent())) {
    // Writes before the vote come before any refill (and the vote's barrier
    // makes them seen by the refilling threads).
    const BasicBlock *BB = I.getParent();
    if (BB == P.VoteBlock || !DT.dominates(P.VoteBlock, BB) ||
        !Reaching.contains(BB))
      continue;
    // A call that may wait for other threads (a barrier in a function the
    // inliner left, or in inline asm) orders their writes before the loads
    // that follow, whatever its memory attributes say: a `pure` helper
    // five calls deep around __syncthreads (adversarial/windows_cross.cu).
    if (const auto *Call = dyn_cast<CallBase>(&I);
        Call && Call->isConvergent() && !isa<IntrinsicInst>(Call))
      return windowMiss(MissedReason::CallMayTouch,
                  "a call before a chunk load may wait at a barrier for "
                  "other threads' writes to its chunk: " +
                      describe(&I));
    if (!I.mayWriteToMemory())
      continue;
    if (auto *Call = dyn_cast<CallBase>(&I)) {
      if (writesNoMemory(*Call) || writesOnlyElsewhere(*Call, C))
        continue;
      // A small memcpy (-O0's struct assignment) is mirrored like a store:
      // its source's bytes, read back after it.
      if (const auto *Copy = dyn_cast<MemCpyInst>(Call)) {
        const auto *Size = dyn_cast<ConstantInt>(Copy->getLength());
        if (!Copy->isVolatile() && Size && !Size->isZero() &&
            Size->getZExtValue() <= 16) {
          P.WriteThrough.push_back(&I);
          continue;
        }
      }
      // A barrier is a write as far as LLVM is told: it orders the other
      // threads' writes before the loads.
      return windowMiss(MissedReason::CallMayTouch,
                  Call->isConvergent()
                      ? describe(&I) + " before a chunk load may order "
                                       "other threads' writes to its chunk"
                      : "a call before a chunk load may write its chunk: " +
                            describe(&I));
    }
    auto *St = dyn_cast<StoreInst>(&I);
    Value *Ptr = getLoadStorePointerOperand(&I);
    if (auto *RMW = dyn_cast<AtomicRMWInst>(&I))
      Ptr = RMW->getPointerOperand();
    if (auto *X = dyn_cast<AtomicCmpXchgInst>(&I))
      Ptr = X->getPointerOperand();
    if (!Ptr)
      return windowMiss(MissedReason::VolatileOrAtomic,
                  describe(&I) + " before a chunk load may order other "
                                 "threads' writes to its chunk");
    unsigned AS = Ptr->getType()->getPointerAddressSpace();
    if (AS == 3 || AS == 5)
      continue;
    // A store window's array is not read through a window: only load
    // windows mirror writes.
    if (none_of(C.Arrays, [&](const StagedArray &A) {
          return A.Loaded && !provablyDisjoint(Ptr, A.Base);
        }))
      continue;
    if (!St || !St->isSimple())
      return windowMiss(MissedReason::VolatileOrAtomic,
                  "an atomic or volatile write before a chunk load may write "
                  "its chunk: " +
                      describe(&I));
    Type *Ty = St->getValueOperand()->getType();
    if (!(Ty->isIntOrIntVectorTy() || Ty->isFPOrFPVectorTy() ||
          Ty->isPointerTy()) ||
        St->getModule()->getDataLayout().getTypeStoreSize(Ty) > 16)
      return windowMiss(MissedReason::StagingAccessBetween,
                  describe(&I) + " may write a windowed chunk and stores a "
                                 "value the window cannot mirror");
    P.WriteThrough.push_back(St);
  }
  return std::nullopt;
}

/// The lane stride's atoms are available where the block votes.
bool strideAvailable(const StagedArray &A, const StagingPlan &P,
                     const std::vector<Atom> &Atoms, DominatorTree &DT) {
  for (const auto &[M, Coeff] : A.LaneStride.Terms)
    for (unsigned Id : M) {
      const Atom &At = Atoms[Id];
      if (At.Kind == Atom::Iteration ||
          (At.Kind == Atom::ThreadIdx && At.Dim == 0))
        return false;
      if (const auto *I = dyn_cast_or_null<Instruction>(At.V);
          I && !DT.dominates(I, P.VoteBlock->getTerminator()))
        return false;
    }
  return true;
}

/// Tiles for __launch_bounds__ threads, else for -coalda-window-threads.
Verdict sizeWindows(const StagingCandidate &C, StagingPlan &P,
                    const Function &F) {
  std::variant<SharedBudget, Missed> Budget = sharedBudget(F, "window");
  if (auto *NoBudget = std::get_if<Missed>(&Budget))
    return windowMiss(NoBudget->Reason, std::move(NoBudget->Detail));
  unsigned Bound = launchBoundX(F), Threads = opts::WindowTileThreads;
  P.Capacity = Bound && Bound < Threads ? Bound : Threads;
  P.CapacityFromLaunchBounds = Bound && Bound < Threads;
  uint64_t PerThread = C.windowBytesPerThread(P.ArraysInTurn);
  if (!std::get<SharedBudget>(Budget).fits(PerThread, P.Capacity))
    return windowMiss(MissedReason::StagingTileTooLarge,
                "windows of " + std::to_string(PerThread) +
                    " bytes per thread for " + std::to_string(P.Capacity) +
                    " threads do not fit the 48 KB of static shared memory "
                    "(more is dynamic shared memory, which only the launch "
                    "in host code can ask for)");
  return std::nullopt;
}

/// No two arrays are read in one loop: each goes through a tile shared with
/// the others while its own loops run (dslash's four matrices, a loop
/// each), refilling it after the others once per loop.
bool loopsApart(const StagingCandidate &C) {
  if (C.Arrays.size() < 2)
    return false;
  SmallPtrSet<const Loop *, 8> Seen;
  for (const StagedArray &A : C.Arrays) {
    SmallPtrSet<const Loop *, 4> Own;
    for (const WindowSite &S : A.Sites)
      Own.insert(S.Loop);
    for (const Loop *L : Own)
      if (!Seen.insert(L).second)
        return false;
  }
  return true;
}

Verdict decide(StagingOutcome &O, const CoalescingInfo &Info,
               const DenseSet<const Instruction *> &Claimed, DominatorTree &DT,
               PostDominatorTree &PDT, LoopInfo &LI) {
  StagingCandidate &C = O.Candidate;
  StagingPlan &P = O.Plan;
  if (Verdict V = windowCostRules(C, P))
    return V;
  // Store windows join load windows refilled when a load leaves them (not
  // records refilled per iteration, whose warps share tiles in turn).
  if (opts::WindowStores && none_of(C.Arrays, [](const StagedArray &A) {
        return A.perIteration();
      }))
    addStoreWindows(C, P, Info, Claimed, DT, LI, *P.SE);
  if (Verdict V = findVote(C, P, DT, PDT, LI))
    return V;
  keepExpandableChecks(C, P);
  for (const StagedArray &A : C.Arrays)
    if (!strideAvailable(A, P, Info.atoms(), DT))
      return windowMiss(MissedReason::StagingAccessBetween,
                  "the chunk length of " + baseName(A.Base) +
                      " is not known before the loops");
  if (Verdict V = checkUniformPaths(C, P, Info, DT, PDT))
    return V;
  if (Verdict V = checkWrites(C, P, DT))
    return V;
  // A record refilled per iteration is moved by each warp for its own rows,
  // which only they read: the warp's barrier orders it.
  bool Records = all_of(
      C.Arrays, [](const StagedArray &A) { return A.perIteration(); });
  P.Scope = Records ? WindowScope::Warp : opts::WindowRefills;
  P.ArraysInTurn = P.Scope == WindowScope::Warp && loopsApart(C);
  // Store windows leave the tiles, the last found first (-O3's remainder
  // loop after its unrolled one), until they fit.
  Verdict Sized = sizeWindows(C, P, *P.VoteBlock->getParent());
  while (Sized && C.Arrays.back().storeWindow()) {
    leaveOutStoreWindow(C, P, C.Arrays.size() - 1, Sized->Detail);
    Sized = sizeWindows(C, P, *P.VoteBlock->getParent());
  }
  return Sized;
}

} // namespace

std::vector<StagingOutcome>
collectWindows(const CoalescingInfo &Info,
               const DenseSet<const Instruction *> &Claimed, DominatorTree &DT,
               PostDominatorTree &PDT, LoopInfo &LI, ScalarEvolution &SE) {
  std::map<std::tuple<const Value *, LaneKind, Poly>,
           std::vector<const AccessExpr *>>
      Groups;
  std::vector<std::tuple<const Value *, LaneKind, Poly>> Order;
  for (const AccessExpr &A : Info.Accesses) {
    if (Claimed.contains(A.Inst) || !isChunkLoad(A, LI, Info.atoms()))
      continue;
    auto Key = std::make_tuple(A.Base, A.Lane, A.Stride);
    if (!Groups.count(Key))
      Order.push_back(Key);
    Groups[Key].push_back(&A);
  }
  if (Order.empty())
    return {};
  StagingOutcome O;
  for (const auto &Key : Order) {
    std::vector<std::pair<const AccessExpr *, std::string>> Loose;
    auto Made = makeArray(Groups[Key], DT, LI, SE, Info, Loose);
    if (auto *A = std::get_if<StagedArray>(&Made)) {
      // The loads of a windowed array that stay where they are, and why.
      for (auto &[M, LooseWhy] : Loose) {
        StagedArray One = *A;
        One.Accesses = {M};
        One.Sites.clear();
        O.Candidate.LeftOut.push_back({One, "not windowed: " + LooseWhy});
      }
      O.Candidate.Arrays.push_back(std::move(*A));
      continue;
    }
    StagedArray Left;
    Left.Base = std::get<0>(Key);
    Left.Windowed = Left.Loaded = true;
    Left.Accesses = Groups[Key];
    Left.LaneStride = std::get<2>(Key);
    O.Candidate.LeftOut.push_back(
        {std::move(Left), std::get<std::string>(Made)});
  }
  const StagedArray &Any = O.Candidate.Arrays.empty()
                               ? O.Candidate.LeftOut.front().first
                               : O.Candidate.Arrays.front();
  O.Loc = Any.Accesses.front()->Inst->getDebugLoc();
  O.Candidate.Block = O.Candidate.LastBlock =
      Any.Accesses.front()->Inst->getParent();
  if (O.Candidate.Arrays.empty()) {
    // The report names the candidate's arrays: the first left out stands
    // for it, with its reason; the others keep theirs.
    auto [First, Why] = O.Candidate.LeftOut.front();
    O.Candidate.LeftOut.erase(O.Candidate.LeftOut.begin());
    O.Candidate.Arrays.push_back(std::move(First));
    O.Skip = windowMiss(MissedReason::StagingInLoop, Why);
    return {std::move(O)};
  }
  O.Plan.SE = &SE;
  O.Plan.Atoms = &Info.atoms();
  O.Skip = decide(O, Info, Claimed, DT, PDT, LI);
  // The cost rules may have left out the array the location came from: the
  // window is where its first remaining array is read.
  O.Loc = O.Candidate.Arrays.front().Accesses.front()->Inst->getDebugLoc();
  if (O.legal())
    ++NumWindowsLegal;
  return {std::move(O)};
}

} // namespace coalda
