//===- StagingLegality.cpp - When staging through shared memory is right --===//
//
// Phase 2 of the staging rewrite, per candidate block AB:
//
//  1. Cost rule (measured on an H200, ../docs/benchmarks.md "Staging"):
//     stage arrays of members of at least 4 bytes; a written array's store
//     phase writes back the member-wide units every thread's stores write
//     (StoredUnits), and only those: a store under a branch of its own
//     must write within them (-coalda-stage-partial-gap=N also leaves
//     alone an element whose accesses leave N bytes of each row in a row
//     untouched; off by default: the rows move sectors the original never
//     touches, yet a quarter of a 64-byte record measured 1.35-1.53x
//     staged, docs/benchmarks.md "Records written in part"); a
//     read-only array joins only when its loads read the whole element and
//     some array is written (staging read-only AoS alone measured
//     0.91-1.00x, 1-byte members 0.89-1.00x: the copy rewrite or nothing).
//     Except a block that only reads elements a multiple of 64 bytes apart
//     in 4-byte loads the backend cannot widen (alignment 4): L1 does not
//     serve such rows and staging them measured 1.4-2.1x at 256 threads
//     (64- and 128-byte elements; a record the backend reads in 16-byte
//     loads measured 0.58-0.76x staged, so it stays). Such a staging has no
//     store phase, and its tile is at most 32 KB (a 48 KB one cost the
//     blocks that run the original code their L1: 0.61x).
//  1c. The kernel's other work (measured on the program corpus,
//     docs/programs.md): a staging is left alone beside a loop of run-time
//     length in the same thread (its accesses run once, the loop is the
//     kernel's time), or when its accesses are under 1 in 4 of the kernel's
//     global accesses (the others rely on the L1 the tile takes).
//  2. Where the barriers go: the accesses lie in one control class (blocks
//     run once by the same threads: a block, and those after libdevice's
//     branches, collect made them so), whose first block is H and whose
//     blocks run at most once per thread (in no cycle). Either every thread
//     of the block runs them (the region spans the first staged access to
//     the last, across the blocks between), or H's only predecessor D ends
//     in a branch that every thread reaches once, and H's first post-
//     dominator M outside what H dominates post-dominates D (every thread
//     meets again there): the region is D's branch up to M. Every thread
//     that enters H runs every staged access once, so the stores that cover
//     the element in the class cover it on every path. In a loop: the
//     accesses lie in one block that runs once per iteration of a
//     grid-stride loop `for (i = lane index; i < n; i += step)` (not nested,
//     ActiveThreads finds it); the region is the span from the first
//     access to the last, staged in the iterations whose row is full (the
//     emitter's iterationFull: then every thread of the block is in it), and
//     a barrier separates each such iteration from the next one's tile
//     writes (the next vote's, or one at its end). With warp tiles (the
//     cost rule's, or the option's) each iteration's full warps instead,
//     a warp whose lanes run together in one iteration (the emitter checks
//     that their elements are one row: a GPU may run a lane of the next
//     iteration with them).
//     Where no block barrier may go (D is not reached by every thread: an
//     early return before it reads memory; or no such D or M), warp
//     tiles: the region is the span from the first staged access to the
//     last, and a warp whose 32 threads reach the first together
//     (activemask) and pass the checks (a ballot) is staged on its own, with
//     __syncwarp for the barriers (findWarpRegion). Cost rule: a block
//     that writes elements of at least 24 bytes takes warp tiles even where
//     a block tile could go (measured faster at every block size, in
//     grid-stride loops too; smaller elements measured slower in warp
//     tiles: warpTilesMeasuredFaster).
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
//  4. Tiles: sized for __launch_bounds__ (maxntid.x) when given, else for
//     1024, 512 or 256 threads, whichever fits 48 KB (32 KB for a block that
//     only reads) with the kernel's own static shared memory; a larger
//     block runs the original code.
//
//===----------------------------------------------------------------------===//

#include "Staging.h"
#include "ActiveThreads.h"
#include "MemoryFacts.h"
#include "Options.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/PostDominators.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <set>

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

STATISTIC(NumStagingsLegal, "Staging candidates found legal");
STATISTIC(NumWarpTiles, "Legal stagings in warp tiles");
STATISTIC(NumSmallLeftAlone,
          "Stagings of small elements the cost rule left alone");
STATISTIC(NumKernelWorkLeftAlone,
          "Stagings the cost rule on the kernel's other work left alone");

namespace coalda {

namespace {

constexpr uint64_t SharedLimit = 48 * 1024;
constexpr uint64_t ReadOnlyTileLimit = 32 * 1024;
/// Written elements of at least this many bytes go in warp tiles.
constexpr int64_t WarpTileMinElement = 24;

Missed miss(MissedReason R, std::string Detail) {
  LLVM_DEBUG(dbgs() << "coalda: staging rejected: " << Detail << "\n");
  return Missed{R, std::move(Detail)};
}

/// The accesses of one kind (stores, or loads) that every thread of the
/// class runs cover every byte of A's element.
bool covers(const StagedArray &A, bool Stores) {
  SmallVector<std::pair<int64_t, int64_t>, 8> Spans;
  for (const AccessExpr *M : A.Accesses)
    if (M->IsStore == Stores && !A.Conditional.contains(M->Inst))
      Spans.push_back({A.offsetInElement(*M),
                       A.offsetInElement(*M) + (int64_t)M->Width});
  llvm::sort(Spans);
  int64_t Reached = 0;
  for (auto [Lo, Hi] : Spans) {
    if (Lo > Reached)
      return false;
    Reached = std::max(Reached, Hi);
  }
  return Reached >= A.Stride;
}

/// The MemberWidth-byte units of A's element its stores write (bit j: unit
/// j), of those every thread of the class runs or (Conditional) of all.
/// Units past 64 are not counted.
uint64_t unitsStored(const StagedArray &A, bool Conditional) {
  uint64_t Units = 0;
  for (const AccessExpr *M : A.Accesses) {
    if (!M->IsStore || (!Conditional && A.Conditional.contains(M->Inst)))
      continue;
    uint64_t First = A.offsetInElement(*M) / A.MemberWidth;
    for (uint64_t J = First; J < First + M->Width / A.MemberWidth && J < 64;
         ++J)
      Units |= uint64_t(1) << J;
  }
  return Units;
}

/// Sets A.StoredUnits, or says why the stores cannot be written back: the
/// store phase writes back the units every thread's stores write, and
/// only them.
std::optional<std::string> findStoredUnits(StagedArray &A) {
  std::string Name = baseName(A.Base);
  if (covers(A, /*Stores=*/true)) {
    A.StoredUnits = StagedArray::maskOfUnits(A.unitsPerElement());
    return std::nullopt;
  }
  if (A.unitsPerElement() > 64)
    return "the stores to " + Name + " write part of its " +
           std::to_string(A.Stride) + "-byte element, which has more than " +
           "64 " + std::to_string(A.MemberWidth) +
           "-byte units: too many to write back only those stored";
  A.StoredUnits = unitsStored(A, /*Conditional=*/false);
  if (unitsStored(A, /*Conditional=*/true) & ~A.StoredUnits)
    return "a store to " + Name + " under a branch writes bytes of its " +
           std::to_string(A.Stride) +
           "-byte element that not every thread writes, so no one set of " +
           "bytes can be written back";
  return std::nullopt;
}

/// The longest run of bytes, in a row of A's elements, that no access to
/// A touches (across element boundaries).
int64_t untouchedRun(const StagedArray &A) {
  std::vector<bool> Touched(A.Stride, false);
  for (const AccessExpr *M : A.Accesses)
    for (int64_t B = 0; B < (int64_t)M->Width; ++B)
      Touched[(A.offsetInElement(*M) + B) % A.Stride] = true;
  int64_t Longest = 0, Run = 0;
  for (int64_t B = 0; B < 2 * A.Stride; ++B) { // twice: runs that wrap
    Run = Touched[B % A.Stride] ? 0 : Run + 1;
    Longest = std::max(Longest, Run);
  }
  return std::min(Longest, A.Stride);
}

/// How wide the backend may make the element's loads: their width, or their
/// alignment (the NVPTX LoadStoreVectorizer joins aligned neighbours into
/// one 8- or 16-byte load, which L1 serves well).
uint64_t widestLoad(const StagedArray &A) {
  uint64_t W = 0;
  for (const AccessExpr *L : A.Accesses)
    W = std::max({W, L->Width, std::min<uint64_t>(L->alignment().value(), 16)});
  return W;
}

/// A read-only array whose elements are a multiple of
/// -coalda-stage-read-only-rows bytes (64) apart, read whole by simple
/// 4-byte loads: rows L1 does not serve (1.4-2.1x staged at 256 threads,
/// 64- and 128-byte elements; docs/benchmarks.md, "Read-only elements").
bool largeReadOnly(const StagedArray &A) {
  unsigned M = opts::StageReadOnlyRows;
  return M && opts::CostRules && A.Stride >= M && A.Stride % M == 0 &&
         widestLoad(A) <= 4 && covers(A, /*Stores=*/false) &&
         all_of(A.Accesses, [](const AccessExpr *L) { return L->isSimple(); });
}

/// Wide loads of a large read-only element: L1 serves them.
bool wideReadOnly(const StagedArray &A) {
  unsigned M = opts::StageReadOnlyRows;
  return M && A.Stride >= M && A.Stride % M == 0 && widestLoad(A) > 4;
}

/// 1. The cost rule: keeps the arrays worth staging (written ones first).
Verdict applyCostRule(StagingCandidate &C) {
  std::vector<StagedArray> Kept, Large;
  std::optional<Missed> Why;
  for (StagedArray &A : C.Arrays) {
    std::string Name = baseName(A.Base);
    if (A.MemberWidth < 4) {
      // Wide members accessed at a smaller alignment (#pragma pack, packed
      // attributes; or memcpy and void * copies, whose alignment is the
      // pointer's, 1) set the unit too: say which.
      bool Packed = all_of(A.Accesses,
                           [](const AccessExpr *M) { return M->Width >= 4; });
      std::string Unit = std::to_string(A.MemberWidth);
      Why = miss(MissedReason::StagingCostRule,
                 Packed ? Name + "'s accesses are only " + Unit +
                              "-byte aligned (a packed struct, or a copy "
                              "through memcpy or void *): staging is "
                              "measured only for members of 4 bytes or more "
                              "at their own alignment (1- and 2-byte "
                              "members: 0.89-1.00x)"
                        : Name + " has " + Unit +
                              "-byte members: staging them through shared "
                              "memory measured 0.89-1.00x");
      C.LeftOut.push_back({A, Why->Detail});
      continue;
    }
    // As in the copy rewrite: a power-of-two element of up to 16 bytes whose
    // member at offset 0 is aligned to its size becomes one vector access
    // per thread in the backend (int2: st.v2.u32), coalesced already.
    if (opts::CostRules && isPowerOf2_64(A.Stride) && A.Stride <= 16 &&
        all_of(A.Accesses, [&](const AccessExpr *M) {
          return A.offsetInElement(*M) != 0 ||
                 M->alignment().value() >= (uint64_t)A.Stride;
        })) {
      Why = miss(MissedReason::VectorizedElement,
                 Name + "'s " + std::to_string(A.Stride) +
                     "-byte elements are moved as one vector per thread by "
                     "the backend, which is coalesced already");
      C.LeftOut.push_back({A, Why->Detail});
      continue;
    }
    if (A.Written)
      if (std::optional<std::string> Problem = findStoredUnits(A)) {
        Why = miss(MissedReason::StagingPartialElement, *Problem);
        C.LeftOut.push_back({A, Why->Detail});
        continue;
      }
    int64_t Untouched = A.storesPart() ? untouchedRun(A) : 0;
    if (opts::CostRules && opts::StagePartialGap &&
        Untouched >= (int64_t)opts::StagePartialGap) {
      Why = miss(MissedReason::StagingCostRule,
                 Name + "'s accesses leave " + std::to_string(Untouched) +
                     " bytes of its " +
                     std::to_string(A.Stride) +
                     "-byte elements in a row untouched: the staged rows "
                     "would move whole 32-byte sectors the kernel never "
                     "reads or writes");
      C.LeftOut.push_back({A, Why->Detail});
      continue;
    }
    if (!A.Written && largeReadOnly(A)) {
      Large.push_back(A);
      continue;
    }
    if (!A.Written && wideReadOnly(A)) {
      Why = miss(MissedReason::StagingCostRule,
                 Name + "'s " + std::to_string(A.Stride) +
                     "-byte elements are read only, in loads the backend "
                     "makes " + std::to_string(widestLoad(A)) +
                     " bytes wide, which L1 serves well (staged: 0.58-0.76x "
                     "for a 64-byte record of float4s)");
      C.LeftOut.push_back({A, Why->Detail});
      continue;
    }
    if (!A.Written && (!opts::StageReadOnly || !covers(A, /*Stores=*/false))) {
      // read where it is; only whole elements are staged
      C.LeftOut.push_back(
          {A, opts::StageReadOnly
                  ? "its loads do not read the whole element"
                  : "read-only, read where it is (staging read-only arrays "
                    "measured slower)"});
      continue;
    }
    if (A.Written && !all_of(A.Accesses, [](const AccessExpr *M) {
          return M->isSimple();
        }))
      return miss(MissedReason::VolatileOrAtomic,
                  "an access to " + Name + " is volatile or atomic");
    Kept.push_back(A);
  }
  // A block that only reads: its large elements are staged (the L1 cache
  // does not absorb rows a multiple of 64 bytes apart), smaller ones are not.
  if (none_of(Kept, [](const StagedArray &A) { return A.Written; }) &&
      !Large.empty()) {
    C.Arrays = std::move(Kept);
    C.Arrays.insert(C.Arrays.end(), Large.begin(), Large.end());
    return std::nullopt;
  }
  for (StagedArray &A : Large)
    C.LeftOut.push_back({A, "read-only, read where it is (a block that also "
                            "writes stages only what it writes)"});
  if (none_of(Kept, [](const StagedArray &A) { return A.Written; })) {
    if (Why)
      return Why;
    return miss(MissedReason::StagingCostRule,
                "read-only array-of-structs elements: staging them measured "
                "0.91-1.00x (the L1 cache absorbs strided reads)");
  }
  C.Arrays = std::move(Kept);
  return std::nullopt;
}

/// Distinct member accesses (offset and width) that every thread of the
/// class runs.
unsigned memberCount(const StagedArray &A) {
  std::set<std::pair<int64_t, uint64_t>> Members;
  for (const AccessExpr *M : A.Accesses)
    if (!A.Conditional.contains(M->Inst))
      Members.insert({A.offsetInElement(*M), M->Width});
  return Members.size();
}

/// A global-memory load in the region after one of A's stores that may read
/// what the store wrote (A's own member loads, at other offsets, do not
/// count; nor do a thread's own allocas): the original kernel must issue it
/// behind the strided store.
bool loadWaitsBehindStores(const StagedArray &A,
                           ArrayRef<Instruction *> Region) {
  SmallPtrSet<const Instruction *, 16> Own;
  for (const AccessExpr *M : A.Accesses)
    Own.insert(M->Inst);
  bool Stored = false;
  for (const Instruction *I : Region) {
    if (Own.contains(I)) {
      Stored |= isa<StoreInst>(I);
      continue;
    }
    const auto *L = dyn_cast<LoadInst>(I);
    if (!Stored || !L || L->getPointerAddressSpace() == 3 ||
        L->getPointerAddressSpace() == 5)
      continue;
    SmallVector<const Value *, 4> Objects;
    getUnderlyingObjects(L->getPointerOperand(), Objects);
    if (all_of(Objects, [](const Value *O) { return isa<AllocaInst>(O); }))
      continue;
    if (!provablyDisjoint(L->getPointerOperand(), A.Base))
      return true;
  }
  return false;
}

/// 1b. The cost rule for small elements, once the region is known. Elements
/// of at least 24 bytes in at least 4 member accesses are staged (1.16-4.35x
/// at 128-512 threads on an H200, with or without libdevice's math between
/// them), and so are those written in part by accesses narrower than a
/// third of the element (3.2-4.6x: "Records written in part"). Smaller ones (under 24 bytes, or of 3 members such as a double3)
/// only where they measured faster: in a region without branches, and when
/// a load that may read what their stores wrote waits behind one of them
/// (SoA to AoS stores, 1.32-1.76x; axpy3 1.11-1.34x; a double3 axpy
/// 1.32-1.48x). Where every load comes before the stores (a lone
/// read-modify-write, two arrays read and then written, stores of values
/// read first) the original runs at 92-100% of cudaMemcpy and staging
/// measured 0.70-1.01x. With branchy math between the accesses (sinf, powf,
/// exp: the region spans several blocks) small elements measured
/// 0.42-0.94x: the math hides the strided accesses, and staging adds
/// registers (20 -> 36, 29 -> 53).
Verdict smallElementRule(const StagingCandidate &C,
                         ArrayRef<Instruction *> Region,
                         const StagingPlan &P) {
  if (!opts::CostRules || opts::StageSmallAlways || C.transposed() ||
      C.windowed())
    return std::nullopt;
  // A large element written in part by accesses narrower than a third of
  // it is not small: each of its strided accesses spans several times the
  // bytes it moves (flag_bounce's two 4-byte members of a 40-byte record
  // ran at 21% of cudaMemcpy, 3.2-4.6x staged; a double3, 8 of 24 bytes an
  // access, is small).
  auto NarrowPart = [](const StagedArray &A) {
    return A.storesPart() && all_of(A.Accesses, [&](const AccessExpr *M) {
             return 3 * (int64_t)M->Width < A.Stride;
           });
  };
  auto IsSmall = [&](const StagedArray &A) {
    return A.Written &&
           (A.Stride < 24 || (memberCount(A) < 4 && !NarrowPart(A)));
  };
  auto Small = find_if(C.Arrays, IsSmall);
  if (Small == C.Arrays.end())
    return std::nullopt;
  SmallPtrSet<const BasicBlock *, 8> Blocks;
  for (const Instruction *I : Region)
    Blocks.insert(I->getParent());
  for (const StagingPlan::InnerGuard &G : P.InnerGuards)
    Blocks.erase(G.Branch->getParent());
  auto Describe = [](const StagedArray &A) {
    return baseName(A.Base) + "'s " + std::to_string(A.Stride) +
           "-byte elements (" + std::to_string(memberCount(A)) +
           " member accesses)";
  };
  if (Blocks.size() > 1) {
    ++NumSmallLeftAlone;
    LLVM_DEBUG(dbgs() << "coalda: small elements across blocks\n");
    return miss(MissedReason::StagingCostRule,
                Describe(*Small) +
                    " with branches between the accesses (libdevice's "
                    "math, a loop, divergent arms): staging elements under "
                    "24 bytes or of fewer than 4 members there measured "
                    "0.42-0.94x");
  }
  for (const StagedArray &A : C.Arrays) {
    if (!IsSmall(A) || loadWaitsBehindStores(A, Region))
      continue;
    ++NumSmallLeftAlone;
    LLVM_DEBUG(dbgs() << "coalda: no load waits behind the small stores\n");
    return miss(MissedReason::StagingCostRule,
                Describe(A) +
                    ": no load waits behind their stores (every load comes "
                    "first): the original runs at 92-100% of cudaMemcpy, "
                    "staged 0.70-1.01x");
  }
  return std::nullopt;
}

/// A global-memory access of the kernel's own (not a thread's alloca, not
/// shared or parameter space): what the L1 cache serves.
bool isGlobalAccess(const Instruction &I) {
  const Value *Ptr = getLoadStorePointerOperand(&I);
  if (!Ptr)
    return false;
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != 0 && AS != 1)
    return false;
  return !isa<AllocaInst>(getUnderlyingObject(Ptr));
}

/// A loop of the kernel that does not contain the staged accesses and whose
/// trip count is not a small constant (KernelWorkLoopTrips): the thread's
/// work beside the staged elements. Null when there is none.
const Loop *loopBeside(const StagingCandidate &C, LoopInfo &LI,
                       ScalarEvolution &SE) {
  for (const Loop *L : LI.getLoopsInPreorder()) {
    bool Holds = L->contains(C.Block);
    for (const StagedArray &A : C.Arrays)
      for (const AccessExpr *M : A.Accesses)
        Holds |= L->contains(M->Inst);
    if (Holds)
      continue;
    unsigned Trips = SE.getSmallConstantMaxTripCount(L);
    if (Trips && Trips <= opts::KernelWorkLoopTrips)
      continue;
    return L;
  }
  return nullptr;
}

/// 1c. The cost rule on the kernel's other work (measured on the program
/// corpus, H200, docs/programs.md): the staged accesses gain only on their
/// own share of the kernel's time, while the tile's shared memory (sized for
/// up to 1024 threads) and the staged path's registers cost all of it.
///  - A loop of run-time (or long) trip count beside the staged accesses:
///    s8n's k_cube_select (the initial stores beside an O(n) search loop,
///    0.94x), md (a force stored after its neighbour loop, 0.95x),
///    mandelbrot (a pixel stored after its escape-time loop, 0.95x).
///  - The staged accesses are under 1 in -coalda-kernel-work-share of the
///    kernel's global accesses: dslash (d_dst beside 16 matrices of 72 bytes
///    per site, read through gathered indices, 0.77x; its 24 KB of warp
///    tiles took L1, hit rate 78.0% -> 63.4%).
Verdict kernelWorkRule(const StagingCandidate &C, LoopInfo &LI,
                       ScalarEvolution &SE) {
  if (!opts::CostRules || opts::StageSmallAlways || C.windowed())
    return std::nullopt;
  const Function &F = *C.Block->getParent();
  if (const Loop *L = loopBeside(C, LI, SE)) {
    LLVM_DEBUG(dbgs() << "coalda: a loop beside the staged accesses\n");
    ++NumKernelWorkLeftAlone;
    std::string Where;
    if (DebugLoc DL = L->getStartLoc(); DL && DL.getLine())
      Where = " (line " + std::to_string(DL.getLine()) + ")";
    return miss(MissedReason::StagingCostRule,
                "each thread also runs a loop of run-time length" + Where +
                    " beside the staged accesses, which it runs once: their "
                    "share of the kernel's time is small, and the tile's "
                    "shared memory and registers cost the loop (staged "
                    "0.94-0.95x in s8n, md and mandelbrot)");
  }
  if (C.transposed() || !opts::KernelWorkShare)
    return std::nullopt;
  size_t Staged = 0, Global = 0;
  for (const StagedArray &A : C.Arrays)
    Staged += A.Accesses.size();
  for (const Instruction &I : instructions(F))
    Global += isGlobalAccess(I);
  if (Staged * opts::KernelWorkShare >= Global)
    return std::nullopt;
  LLVM_DEBUG(dbgs() << "coalda: staged accesses a small share\n");
  ++NumKernelWorkLeftAlone;
  return miss(MissedReason::StagingCostRule,
              formatv("the staged elements are {0} of the kernel's {1} "
                      "global accesses (under 1 in {2}): the others rely on "
                      "L1, which the tile's shared memory takes (dslash: "
                      "0.77x staged, L1 hit rate 77.7% -> 64.4%)",
                      Staged, Global, opts::KernelWorkShare)
                  .str());
}

void markWarpTiles(StagingPlan &P, StagingPlan::WarpReason Why) {
  LLVM_DEBUG(dbgs() << "coalda: staging in warp tiles\n");
  P.WarpTile = true;
  P.WarpWhy = Why;
}

/// 2, warp tiles: the span from the first staged access to the last, as
/// when every thread runs them, but decided per warp: the threads that reach
/// the first access (in no cycle: at most once each) all run the others
/// (one control class), and a warp whose 32 threads reach it together goes
/// on (the emitter's ballot over activemask). No point of the block, and no
/// guard, has to be found.
Verdict findWarpRegion(const StagingCandidate &C, StagingPlan &P,
                       const CycleInfo &Cycles,
                       StagingPlan::WarpReason Why) {
  if (Cycles.getCycle(C.Block))
    return miss(MissedReason::StagingInLoop,
                "the accesses are in a loop: warp tiles are staged only "
                "outside loops");
  P.InnerGuards.clear();
  P.Guard = nullptr;
  P.Merge = nullptr;
  markWarpTiles(P, Why);
  return std::nullopt;
}

/// Cost rule: a block that writes elements of at least 24 bytes (every
/// staged array's) is staged in warp tiles where a block tile could go too:
/// measured faster on an H200 (24- to 64-byte records, with and without
/// math: 1.03-1.48 times the block tile's speed-up, all but a 24-byte axpy
/// at 1024 threads, 0.98; docs/benchmarks.md "Warp tiles"; in grid-stride
/// loops 32-byte elements 1.52-2.18x against 1.25-1.39x, "Warp tiles in
/// grid-stride loops"); 12-byte elements lost 2-20% in warp tiles at 128
/// and 256 threads (in loops up to 23%), so they keep the block's.
bool warpTilesMeasuredFaster(const StagingCandidate &C) {
  return any_of(C.Arrays, [](const StagedArray &A) { return A.Written; }) &&
         all_of(C.Arrays, [](const StagedArray &A) {
           return A.Stride >= WarpTileMinElement;
         });
}

/// 2. Where the block's barriers go, or why none may.
Verdict findBlockRegion(const StagingCandidate &C, StagingPlan &P,
                        PostDominatorTree &PDT, DominatorTree &DT,
                        const CycleInfo &Cycles) {
  BasicBlock *AB = C.Block;
  BasicBlock *Entry = &AB->getParent()->getEntryBlock();
  if (PDT.dominates(AB, Entry))
    return std::nullopt; // every thread of the block runs AB
  // The accesses' blocks are run by the threads that enter Head.
  BasicBlock *Head = controlClassHead(AB, DT, PDT, Cycles);
  BasicBlock *D = Head->getSinglePredecessor();
  auto *Br = D ? dyn_cast<BranchInst>(D->getTerminator()) : nullptr;
  if (!Br || !Br->isConditional())
    return miss(MissedReason::StagingGuard,
                "the accesses are not behind one branch: only `if (cond) "
                "{...}` and early returns are staged");
  // Where the threads that entered Head meet the others: its first
  // post-dominator outside what it dominates.
  BasicBlock *M = Head;
  do {
    DomTreeNode *Next = PDT.getNode(M)->getIDom();
    M = Next ? Next->getBlock() : nullptr;
  } while (M && DT.dominates(Head, M));
  // A chain of early returns (`if (x >= M) return; if (y >= N) return;`):
  // climb to the first branch every thread reaches; the ones after it are
  // voted on there, so their blocks must not touch memory and their
  // conditions must be computable at the first.
  BasicBlock *On = Head;
  while (!Cycles.getCycle(D) && !PDT.dominates(D, Entry) && M &&
         is_contained(successors(D), M) && D->getSinglePredecessor() &&
         none_of(*D, [](const Instruction &I) {
           return I.mayReadOrWriteMemory();
         })) {
    BasicBlock *Up = D->getSinglePredecessor();
    auto *UpBr = dyn_cast<BranchInst>(Up->getTerminator());
    if (!UpBr || !UpBr->isConditional() ||
        !is_contained(successors(Up), M))
      break;
    P.InnerGuards.push_back({Br, Br->getSuccessor(0) == On});
    On = D;
    D = Up;
    Br = UpBr;
  }
  if (Cycles.getCycle(D) || !PDT.dominates(D, Entry))
    return miss(MissedReason::StagingGuard,
                "the branch before the accesses is not reached once by every "
                "thread of the block, so no barrier may go there");
  if (!M || !PDT.dominates(M, D) || !DT.dominates(D, M) || Cycles.getCycle(M))
    return miss(MissedReason::StagingGuard,
                "the threads of the block do not all meet after the accesses, "
                "so no barrier may go there");
  for (const StagingPlan::InnerGuard &G : P.InnerGuards)
    if (!canMaterializeAt(G.Branch->getCondition(), Br, DT))
      return miss(MissedReason::StagingGuard,
                  "a later early return's condition reads memory or a value "
                  "computed after the first, so the block cannot vote on it "
                  "there");
  P.Guard = Br;
  P.ActiveOnTrue = Br->getSuccessor(0) == On;
  P.Merge = M;
  return std::nullopt;
}

/// 2. Block or warp tiles: warp tiles where no block barrier may go, and
/// where the cost rule measured them faster (transposed stores permute
/// across the block's rows: block tiles only).
Verdict findRegion(const StagingCandidate &C, StagingPlan &P,
                   PostDominatorTree &PDT, DominatorTree &DT,
                   const CycleInfo &Cycles) {
  using Reason = StagingPlan::WarpReason;
  opts::WarpTiles Mode = opts::StageWarpTiles;
  if (!C.transposed() && Mode == opts::WarpTiles::Always)
    return findWarpRegion(C, P, Cycles, Reason::Forced);
  Verdict Block = findBlockRegion(C, P, PDT, DT, Cycles);
  if (C.transposed() || Mode == opts::WarpTiles::Never)
    return Block;
  if (Block)
    return findWarpRegion(C, P, Cycles, Reason::NoBlockBarrier);
  if (Mode == opts::WarpTiles::Measured && warpTilesMeasuredFaster(C))
    return findWarpRegion(C, P, Cycles, Reason::LargeElements);
  return std::nullopt;
}

/// 2 in a loop: the accesses' one block runs once per iteration of a
/// grid-stride loop; the region is their span (no Guard). Where a thread
/// may skip them on some iterations (`if (!alive[i]) continue;`) no block
/// tile may go: warp tiles, unless the option forbids them.
Verdict findLoopRegion(const StagingCandidate &C, StagingPlan &P,
                       ActiveThreads &Threads) {
  if (C.Block != C.LastBlock)
    return miss(MissedReason::StagingInLoop,
                "the accesses in the loop lie in several blocks: staging per "
                "iteration takes one block of them");
  using Reason = StagingPlan::WarpReason;
  opts::WarpTiles Mode = opts::StageWarpTiles;
  Instruction *First = accessSpan(C).first;
  RewritePlan Loop;
  bool Skipped = false;
  if (Verdict V = Threads.findLoop(C.Block, First, Loop)) {
    Loop = RewritePlan();
    Skipped = Mode != opts::WarpTiles::Never &&
              !Threads.findLoop(C.Block, First, Loop,
                                /*EveryIteration=*/false);
    if (!Skipped)
      return miss(MissedReason::StagingInLoop, V->Detail);
    LLVM_DEBUG(dbgs() << "coalda: the accesses are skipped on some "
                         "iterations: warp tiles only\n");
  }
  if (Loop.Kind != Guard::Loop || Loop.Bounds.front().LaneOnHi)
    return miss(MissedReason::StagingInLoop,
                "the accesses are in a loop every thread of the block runs "
                "as often as the others (around the element, or a per-thread "
                "chunk loop that is not unrolled): staging per iteration "
                "would move the element on every pass, and staging around "
                "the loop is not implemented");
  P.GridLoop = StagingPlan::GridStride{Loop.Bounds.front(), *Loop.LoopStep,
                                       Loop.LoopStart};
  // Warp tiles per iteration where the option asks for them (the emitter
  // checks that the warp's lanes are in one iteration: their elements are
  // then one row).
  if (Skipped)
    markWarpTiles(P, Reason::NoBlockBarrier);
  else if (Mode == opts::WarpTiles::Always)
    markWarpTiles(P, Reason::Forced);
  else if (Mode == opts::WarpTiles::Measured && warpTilesMeasuredFaster(C))
    markWarpTiles(P, Reason::LargeElements);
  return std::nullopt;
}

/// The instructions between the phases, and where the run-time checks are
/// computed (before the region).
std::pair<SmallVector<Instruction *, 32>, Instruction *>
regionInstructions(const StagingCandidate &C, const StagingPlan &P) {
  SmallVector<Instruction *, 32> Insts;
  // Without a guard: from the first staged access to the last, across the
  // blocks between (every path from the first's block reaches the last's).
  // With one: the early returns' blocks first (they touch no memory, but say
  // so to every check anyway), then the guarded side up to the merge point.
  auto [First, Last] = accessSpan(C);
  BasicBlock *Start = First->getParent();
  if (P.Guard) {
    for (const StagingPlan::InnerGuard &G : reverse(P.InnerGuards))
      for (Instruction &I : *G.Branch->getParent())
        Insts.push_back(&I);
    // The innermost guard's guarded side: the accesses' control class.
    const BranchInst *Inner = P.Guard;
    bool OnTrue = P.ActiveOnTrue;
    if (!P.InnerGuards.empty())
      std::tie(Inner, OnTrue) = std::pair(P.InnerGuards.front().Branch,
                                          P.InnerGuards.front().ActiveOnTrue);
    Start = Inner->getSuccessor(OnTrue ? 0 : 1);
    First = &Start->front();
    Last = nullptr;
  }
  SmallVector<BasicBlock *, 8> Work{Start};
  SmallPtrSet<BasicBlock *, 8> Seen{Start};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    bool Ends = Last && BB == Last->getParent();
    Instruction *I = BB == Start ? First : &BB->front();
    for (; I != (Ends ? Last->getNextNode() : nullptr); I = I->getNextNode())
      Insts.push_back(I);
    if (Ends)
      continue;
    for (BasicBlock *S : successors(BB))
      if (S != P.Merge && Seen.insert(S).second)
        Work.push_back(S);
  }
  return {Insts, P.Guard ? P.Guard : First};
}

/// A pointer into shared or local memory: never a staged global element.
bool notGlobal(const Value *Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  return AS == 3 || AS == 5;
}

/// A call that cannot see the staged elements: no memory, or only memory
/// no IR can address (the warp shuffles, votes and reductions: the region
/// runs with the same threads on the staged path as on the original one,
/// which go picks alike for the whole block). Barriers and __syncwarp say
/// nothing of their memory and stay refused.
bool harmlessCall(const CallBase &Call) {
  if (isa<DbgInfoIntrinsic>(Call) || Call.isLifetimeStartOrEnd())
    return true;
  if (const auto *II = dyn_cast<IntrinsicInst>(&Call))
    if (II->getIntrinsicID() == Intrinsic::assume)
      return true;
  return !Call.mayReadOrWriteMemory() ||
         Call.onlyAccessesInaccessibleMemory();
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

/// 3. One instruction between the phases that is not a staged access.
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

Verdict checkOther(Instruction &I, const StagingCandidate &C, StagingPlan &P,
                   Instruction *CheckPoint, DominatorTree &DT) {
  if (auto *Call = dyn_cast<CallBase>(&I)) {
    if (harmlessCall(*Call) || readsOnlyElsewhere(*Call, C))
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
  if (!canMaterializeAt(Ptr, CheckPoint, DT))
    return miss(MissedReason::StagingAccessBetween,
                "the address of " + describe(&I) +
                    " is computed from memory between the accesses, so its "
                    "overlap with the staged elements cannot be checked first");
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
    if (const auto *Call = dyn_cast<CallBase>(&I); Call && harmlessCall(*Call))
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
    if (const auto *Call = dyn_cast<CallBase>(I); Call && harmlessCall(*Call))
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

namespace {

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

/// A read-modify-written transposed element is loaded in the load phase by
/// the thread that will store it (the owner's address recomputed), so every
/// load of it must be simple and its address a thread function.
Verdict checkTransposedLoads(const StagedArray &A) {
  for (const AccessExpr *M : drop_begin(A.Accesses)) {
    if (!M->isSimple())
      return miss(MissedReason::VolatileOrAtomic,
                  "the transposed element's load is volatile or atomic");
    if (opts::TransposeAddressTile || !isThreadFunction(M->pointer()))
      return miss(MissedReason::StagingAccessBetween,
                  "the transposed element is also read, and its address is "
                  "not a function of the arguments and the thread index, so "
                  "the block cannot load the column pieces for it");
  }
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

Verdict decide(StagingOutcome &O, PostDominatorTree &PDT, DominatorTree &DT,
               LoopInfo &LI, ScalarEvolution &SE, const CycleInfo &Cycles,
               ActiveThreads &Threads) {
  StagingCandidate &C = O.Candidate;
  StagingPlan &P = O.Plan;
  bool InLoop = Cycles.getCycle(C.Block);
  if (InLoop && C.transposed())
    return miss(MissedReason::StagingInLoop,
                "the transposed store is in a loop: permuting per iteration "
                "is not implemented");
  if (C.transposed()) {
    // Any width gains: a transposed store fills whole sectors once permuted.
    if (!C.Arrays.front().Accesses.front()->isSimple())
      return miss(MissedReason::VolatileOrAtomic,
                  "the transposed store is volatile or atomic");
    // The storing thread recomputes the owner's address when it can: no
    // address tile, and 8 bytes less shared traffic per element.
    for (StagedArray &A : C.Arrays) {
      A.AddressComputed = !opts::TransposeAddressTile &&
                          isThreadFunction(A.Accesses.front()->pointer());
      if (Verdict V = checkTransposedLoads(A))
        return V;
    }
  } else if (Verdict V = applyCostRule(C)) {
    return V;
  } else {
    placeCandidate(C, DT); // the arrays left out may have held the ends
  }
  if (Verdict V = InLoop ? findLoopRegion(C, P, Threads)
                         : findRegion(C, P, PDT, DT, Cycles))
    return V;
  auto [Insts, CheckPoint] = regionInstructions(C, P);
  DenseSet<const Instruction *> Staged;
  for (const StagedArray &A : C.Arrays) {
    for (const AccessExpr *M : A.Accesses)
      Staged.insert(M->Inst);
    if (!canMaterializeAt(A.Accesses.front()->pointer(), CheckPoint, DT))
      return miss(MissedReason::StagingAccessBetween,
                  "the address of " + baseName(A.Base) +
                      "'s element is computed from memory the guard reads, "
                      "so the row cannot be staged before it");
  }
  for (Instruction *I : Insts)
    if (!Staged.contains(I))
      if (Verdict V = checkOther(*I, C, P, CheckPoint, DT))
        return V;
  if (C.transposed())
    if (Verdict V = checkStoresBeforeLoads(C, Insts, Staged, DT))
      return V;
  if (Verdict V = smallElementRule(C, Insts, P))
    return V;
  if (Verdict V = kernelWorkRule(C, LI, SE))
    return V;
  markBarriersOutside(C, P, Insts, Staged);
  for (unsigned J = 0; J < C.Arrays.size(); ++J)
    for (unsigned K = J + 1; K < C.Arrays.size(); ++K)
      if ((C.Arrays[J].Written || C.Arrays[K].Written) &&
          !provablyDisjoint(C.Arrays[J].Base, C.Arrays[K].Base))
        P.ArrayChecks.push_back({J, K});
  if (Verdict V = checkCollectives(Insts, P))
    return V;
  return sizeTiles(C, P, *C.Block->getParent());
}

} // namespace

void decideStagings(std::vector<StagingOutcome> &Stagings,
                    const CoalescingInfo &Info, PostDominatorTree &PDT,
                    DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE,
                    const CycleInfo &Cycles) {
  ActiveThreads Threads(Info, PDT, DT, LI, Cycles);
  // One staging per kernel: of the legal candidates, the one with the most
  // staged accesses (the first of those), not a lone store before them
  // that part of the element could now be staged for.
  StagingOutcome *Best = nullptr;
  auto Accesses = [](const StagingOutcome &O) {
    size_t N = 0;
    for (const StagedArray &A : O.Candidate.Arrays)
      N += A.Accesses.size();
    return N;
  };
  for (StagingOutcome &O : Stagings) {
    O.Plan.Atoms = &Info.atoms();
    O.Skip = decide(O, PDT, DT, LI, SE, Cycles, Threads);
    if (O.legal() && (!Best || Accesses(O) > Accesses(*Best)))
      Best = &O;
  }
  for (StagingOutcome &O : Stagings) {
    if (!O.legal())
      continue;
    if (&O != Best) {
      O.Skip = miss(MissedReason::StagingOnePerKernel,
                    "another block of this kernel is staged (one staging "
                    "per kernel: the one with the most accesses)");
      continue;
    }
    ++NumStagingsLegal;
    NumWarpTiles += O.Plan.WarpTile;
    if (!O.Plan.WarpTile)
      findUniformGo(O.Candidate, O.Plan, Info);
  }
}

} // namespace coalda
