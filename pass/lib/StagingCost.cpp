//===- StagingCost.cpp - Staging legality, step 1: the cost rule ---------===//
//
// Step 1 of staging legality (StagingLegality.cpp runs the steps): which of
// a candidate's arrays are worth staging, measured on an H200.
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
//     An element of up to 32 bytes moved in 16-byte vectors is left alone
//     (geglu's 32-byte elements measured 0.91-0.98x staged).
//     Except a block that only reads elements a multiple of 64 bytes apart
//     in 4-byte loads the backend cannot widen (alignment 4): L1 does not
//     serve such rows and staging them measured 1.4-2.1x at 256 threads
//     (64- and 128-byte elements; a record the backend reads in 16-byte
//     loads measured 0.58-0.76x staged, so it stays). Such a staging has no
//     store phase, and its tile is at most 32 KB (a 48 KB one cost the
//     blocks that run the original code their L1: 0.61x).
//  1b. Small elements, once the region is known (smallElementRule): staged
//     only where they measured faster.
//  1c. The kernel's other work (measured on the program corpus,
//     docs/programs.md): a staging is left alone beside a loop of run-time
//     length in the same thread (its accesses run once, the loop is the
//     kernel's time), or when its accesses are under 1 in 4 of the kernel's
//     global accesses (the others rely on the L1 the tile takes).
//
// The cost rule that picks warp tiles over a block tile is step 2's
// (StagingRegion.cpp, warpTilesMeasuredFaster); the one on the widest
// blocks for small elements step 4's (StagingTiles.cpp).
//
//===----------------------------------------------------------------------===//

#include "MemoryFacts.h"
#include "Options.h"
#include "StagingLegalityImpl.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/Support/Debug.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

#include <set>

#define DEBUG_TYPE "coalda-staging-legality"

using namespace llvm;

STATISTIC(NumSmallLeftAlone,
          "Stagings of small elements the cost rule left alone");
STATISTIC(NumKernelWorkLeftAlone,
          "Stagings the cost rule on the kernel's other work left alone");

namespace coalda {

namespace {

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

/// A's elements are 16 or 32 bytes that the backend moves in 16-byte
/// vectors: the loads, and the stores, each cover the whole element; none
/// crosses a 16-byte boundary of it, and each 16-byte piece has an access
/// of each kind that starts it at 16-byte alignment (the backend's
/// load-store vectorizer joins each piece's accesses into one).
bool movedInVectors(const StagedArray &A) {
  if (A.Stride % 16 != 0 || A.Stride > 32)
    return false;
  bool Loads = false, Stores = false;
  std::set<std::pair<bool, int64_t>> Starts; // (is store, aligned piece)
  for (const AccessExpr *M : A.Accesses) {
    (M->IsStore ? Stores : Loads) = true;
    int64_t Offset = A.offsetInElement(*M);
    if (Offset / 16 != (Offset + (int64_t)M->Width - 1) / 16)
      return false;
    if (Offset % 16 == 0 && M->alignment().value() >= 16)
      Starts.insert({M->IsStore, Offset / 16});
  }
  int64_t Pieces = A.Stride / 16;
  auto Vectorized = [&](bool Store) {
    for (int64_t P = 0; P < Pieces; ++P)
      if (!Starts.count({Store, P}))
        return false;
    return covers(A, Store);
  };
  return (Loads || Stores) && (!Loads || Vectorized(false)) &&
         (!Stores || Vectorized(true));
}

/// Why the cost rule leaves A where it is, whether read or written: for
/// its members' width or alignment, its elements' size, or the bytes its
/// stores write (a written array's StoredUnits are set here); nothing when
/// A may be staged.
Verdict leaveAlone(StagedArray &A) {
  std::string Name = baseName(A.Base);
  if (A.MemberWidth < 4) {
    // Wide members accessed at a smaller alignment (#pragma pack, packed
    // attributes; or memcpy and void * copies, whose alignment is the
    // pointer's, 1) set the unit too: say which.
    bool Packed = all_of(A.Accesses,
                         [](const AccessExpr *M) { return M->Width >= 4; });
    std::string Unit = std::to_string(A.MemberWidth);
    return miss(MissedReason::StagingCostRule,
                Packed ? Name + "'s accesses are only " + Unit +
                             "-byte aligned (a packed struct, or a copy "
                             "through memcpy or void *): staging is "
                             "measured only for members of 4 bytes or more "
                             "at their own alignment (1- and 2-byte "
                             "members: 0.89-1.00x)"
                       : Name + " has " + Unit +
                             "-byte members: staging them through shared "
                             "memory measured 0.89-1.00x");
  }
  // As in the copy rewrite: a power-of-two element of up to 16 bytes whose
  // member at offset 0 is aligned to its size becomes one vector access
  // per thread in the backend (int2: st.v2.u32), coalesced already.
  if (opts::CostRules && isPowerOf2_64(A.Stride) && A.Stride <= 16 &&
      all_of(A.Accesses, [&](const AccessExpr *M) {
        return A.offsetInElement(*M) != 0 ||
               M->alignment().value() >= (uint64_t)A.Stride;
      }))
    return miss(MissedReason::VectorizedElement,
                Name + "'s " + std::to_string(A.Stride) +
                    "-byte elements are moved as one vector per thread by "
                    "the backend, which is coalesced already");
  // An element of up to 32 bytes that every access moves in 16-byte
  // vectors (the backend's widest): a warp's two requests for it cover the
  // halves of the same sectors back to back. Staged in warp tiles, geglu's
  // 32-byte elements of 8 floats measured 0.91-0.98x, and 0.73-0.98x with
  // its read-only input staged too (docs/probe/geglu_read_only-h200.txt).
  if (opts::CostRules && !opts::StageSmallAlways && movedInVectors(A))
    return miss(MissedReason::VectorizedElement,
                Name + "'s " + std::to_string(A.Stride) +
                    "-byte elements are moved in 16-byte vectors by the "
                    "backend: staging them measured 0.91-0.98x");
  if (A.Written)
    if (std::optional<std::string> Problem = findStoredUnits(A))
      return miss(MissedReason::StagingPartialElement, *Problem);
  int64_t Untouched = A.storesPart() ? untouchedRun(A) : 0;
  if (opts::CostRules && opts::StagePartialGap &&
      Untouched >= (int64_t)opts::StagePartialGap)
    return miss(MissedReason::StagingCostRule,
                Name + "'s accesses leave " + std::to_string(Untouched) +
                    " bytes of its " + std::to_string(A.Stride) +
                    "-byte elements in a row untouched: the staged rows "
                    "would move whole 32-byte sectors the kernel never "
                    "reads or writes");
  return std::nullopt;
}

} // namespace

/// 1. The cost rule: keeps the arrays worth staging (written ones first).
Verdict applyCostRule(StagingCandidate &C) {
  std::vector<StagedArray> Kept, Large;
  std::optional<Missed> Why;
  for (StagedArray &A : C.Arrays) {
    if (Verdict Alone = leaveAlone(A)) {
      Why = Alone;
      C.LeftOut.push_back({A, Why->Detail});
      continue;
    }
    std::string Name = baseName(A.Base);
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

namespace {

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

} // namespace

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

namespace {

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

} // namespace

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

} // namespace coalda
