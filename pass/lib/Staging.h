//===- Staging.h - Staging element accesses through shared memory ---------===//
//
// Private to the transformation. The second rewrite kind: a kernel that
// computes on array-of-structs elements (stores them member by member,
// updates them in place, walks a per-thread chunk that -O3 unrolled) has its
// strided accesses to each element moved into a __shared__ tile; the block
// moves whole rows between global memory and the tile in wide coalesced
// units. Its phases mirror the copy rewrite's:
//
//   collect   (StagingCollect.cpp)   AccessExprs -> StagingCandidate
//   legality  (StagingLegality.cpp)  candidate   -> StagingPlan or Missed
//   emit      (StagingEmitter.cpp)   candidate + plan -> new IR
//
// Legality runs its numbered steps from their own files (StagingCost.cpp,
// StagingRegion.cpp, StagingInterference.cpp, StagingTiles.cpp; declared in
// StagingLegalityImpl.h); the emitter's class (StagingEmitterImpl.h) emits
// go in StagingGo.cpp, row copies in StagingRowCopy.cpp and transposed
// stores in StagingTranspose.cpp; both compute values early or as another
// thread would with ThreadFunctions.h.
//
// Chunk windows, the loads of a per-thread chunk that a loop walks (its
// length known at run time), share these types: collect and legality in
// ChunkWindow.cpp, emit in ChunkWindowEmitter.cpp (scheme documented there).
//
// Scheme, for a block of ntid.x threads whose thread t owns element t of
// each staged array (the element starts at Start_j + S_j*t, Start_j being the
// same in every thread of the row):
//
//   Pre:    go = all threads reach the accesses (full row) and the
//                run-time checks hold: decided by barrier.and, or without a
//                barrier where every thread computes it alike
//                (StagingUniformGo.cpp)
//           go ? Staged : Original          (Original: the region, cloned)
//   Staged: loaded arrays: the row's S_j*ntid bytes -> tile_j; barrier
//           the region, each staged access redirected to
//           tile_j + S_j*tid.x + (offset in the element)
//           barrier; written arrays: tile_j -> the row's S_j*ntid bytes
//
// Only full rows are staged (a partial tail block runs the original code),
// so which threads are active needs no analysis: the vote decides it, or
// the guard's bounds on the lane index where they are all it tests.
//
// Warp tiles (StagingPlan::WarpTile), where no block barrier may go and,
// by the cost rule, for written elements of 24 bytes or more: the same with
// the warp for the block, the region the span from the first staged access
// to the last. go = ballot(activemask, checks) == all 32
// lanes, so only a warp whose threads all reach the region together (none
// returned early) and pass the checks is staged; its row is its 32
// elements (Start_j + S_j*(t & ~31) on), its slice of tile_j the same bytes
// as in a block tile, and __syncwarp replaces each barrier.
//
//===----------------------------------------------------------------------===//

#ifndef COALDA_LIB_STAGING_H
#define COALDA_LIB_STAGING_H

#include "CopyGroup.h"
#include "RewriteKind.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace llvm {
class Loop;
class PHINode;
class LoopInfo;
class SCEV;
class ScalarEvolution;
} // namespace llvm

namespace coalda {

/// One load of a chunk window (ChunkWindow.cpp): a load in a loop that
/// runs it on every iteration, with where its pointer is on the last.
struct WindowSite {
  const AccessExpr *Access = nullptr;
  llvm::Loop *Loop = nullptr;
  const llvm::SCEV *Last = nullptr; ///< the pointer in the last iteration
  /// The pointer on the first and on the last iteration that runs the
  /// site, for a store window's range checks (StoreWindow.cpp).
  const llvm::SCEV *First = nullptr;
  const llvm::SCEV *RangeLast = nullptr;
  /// Where ScalarEvolution cannot follow the pointer (-O0's sign-extended
  /// int index) but the automaton reads it as BytesPerIteration*iter(IV) +
  /// loop-invariant terms, with IV the loop's induction phi: how far the
  /// site reads is computed at each refill from IV's value in the last
  /// iteration (IVLast) and its step.
  const llvm::PHINode *IV = nullptr;
  int64_t BytesPerIteration = 0;
  const llvm::SCEV *IVLast = nullptr;
  int64_t IVStep = 0;
  /// In an arm of a branch in the loop, its element read on every iteration
  /// only because every arm reads it (no load of it runs every iteration).
  bool InArm = false;
};

/// The accesses of one kernel to one array's elements: base + S*lane +
/// uniform + [ElementOffset, ElementOffset + S).
struct StagedArray {
  const llvm::Value *Base = nullptr;
  int64_t Stride = 0;        ///< S: the element's bytes
  int64_t ElementOffset = 0; ///< where the thread's element starts
  std::vector<const AccessExpr *> Accesses; ///< in program order
  /// Accesses that not every thread running the others runs (under a
  /// branch between them): they use the tile, but do not cover the element.
  llvm::SmallPtrSet<const llvm::Instruction *, 4> Conditional;
  uint64_t MemberWidth = 0; ///< power-of-two unit dividing every member
  bool Written = false;     ///< some access is a store
  /// A written array's MemberWidth-byte units that every thread's stores
  /// write (bit j: the element's bytes [j, j + 1) * MemberWidth), all of
  /// them when the stores write the element whole. The store phase writes
  /// back only these units: bytes the original does not write stay as they
  /// are (another thread may write them). Set by legality.
  uint64_t StoredUnits = 0;
  bool Loaded = false;      ///< some access is a load
  /// A transposed store (`out[x*M + y]` from a 2-D block): one store per
  /// thread whose address steps by its width with tid.y. It is staged by
  /// permuting which thread stores which (address, value) pair, so that
  /// consecutive threads store consecutive addresses; Stride is its width.
  bool Transposed = false;
  /// A transposed store whose address is a pure function of the kernel's
  /// arguments, block-uniform registers and (tid.x, tid.y): the storing
  /// thread recomputes the address of the slot's owner instead of reading
  /// it from an address tile (see cloneForThread).
  bool AddressComputed = false;
  /// A chunk window: the loads of a per-thread chunk that a loop walks
  /// (`in[p*C + k]`, C known at run time): Sites[k] is Accesses[k]'s, the
  /// lane stride is LaneStride (Stride is it when constant, else 0) and
  /// each thread's slot holds WindowBytes of its chunk plus one element of
  /// padding.
  bool Windowed = false;
  std::vector<WindowSite> Sites;
  Poly LaneStride;
  uint64_t WindowBytes = 0;
  /// A window refilled once per iteration of its one loop, at RefillAt (a
  /// block of the loop that runs on exactly the iterations the sites run,
  /// dominating them): WindowBytes are then the bytes of the row that the
  /// iteration's sites read, every one of them (a record: dslash's 72-byte
  /// matrix), from the address of Leader (the site of least offset), and
  /// the sites read the tile without a test. Null: refilled when a load
  /// leaves the window.
  llvm::BasicBlock *RefillAt = nullptr;
  const AccessExpr *Leader = nullptr;
  bool perIteration() const { return RefillAt; }
  /// A store window (-coalda-window-stores, StoreWindow.cpp): the stores of
  /// a chunk its loop walks, `out[p*C + k] = v`, each iteration writing a
  /// record of StoredRecord bytes of each row, every byte, right after the
  /// last iteration's. The thread writes into its tile row instead; its
  /// warp writes the 32 rows' window back, a unit per lane, when the
  /// iteration's record (from Leader's address at the top of OpenAt) does
  /// not fit it, and on the loop's edge out of FlushAt (its one exiting
  /// block, the edge split for it). WindowBytes,
  /// a multiple of StoredRecord, is its capacity.
  llvm::BasicBlock *OpenAt = nullptr;
  llvm::BasicBlock *FlushAt = nullptr;
  uint64_t StoredRecord = 0;
  bool storeWindow() const { return OpenAt; }
  uint64_t windowPitch() const {
    return WindowBytes + Accesses.front()->Width;
  }

  /// MemberWidth-byte units in the element.
  uint64_t unitsPerElement() const { return (uint64_t)Stride / MemberWidth; }
  /// The stores write part of the element: the store phase is masked.
  bool storesPart() const {
    return Written && !Transposed && !Windowed &&
           StoredUnits != maskOfUnits(unitsPerElement());
  }
  static uint64_t maskOfUnits(uint64_t N) {
    return N >= 64 ? ~uint64_t(0) : (uint64_t(1) << N) - 1;
  }

  /// Bytes of the element relative to its start, of one access.
  int64_t offsetInElement(const AccessExpr &A) const {
    return A.Offset - ElementOffset;
  }
};

/// The arrays a kernel accesses with strided elements in one control class:
/// blocks that every thread reaching one of them runs once, in a chain of
/// dominance (controlClassHead). libdevice's sinf or expf between the
/// accesses splits them over several such blocks, its slow paths beside.
struct StagingCandidate {
  llvm::BasicBlock *Block = nullptr; ///< the first staged access's block
  /// The last staged access's block: Block, or one that Block dominates and
  /// that post-dominates Block.
  llvm::BasicBlock *LastBlock = nullptr;
  std::vector<StagedArray> Arrays;   ///< written arrays first
  /// Arrays of the block the cost rule leaves where they are, and why.
  std::vector<std::pair<StagedArray, std::string>> LeftOut;
  /// Bases whose accesses reach more than one element per thread (`x[i]`
  /// and `x[i + 160]`): an array each, which legality refuses to stage.
  llvm::SmallPtrSet<const llvm::Value *, 2> SeveralElements;

  /// Tile bytes per thread: the element, or a transposed store's value and
  /// address.
  /// The largest element of the staged arrays: the tile's bytes per
  /// thread when they go through it in turn.
  uint64_t largestStride() const {
    int64_t Most = 0;
    for (const StagedArray &A : Arrays)
      Most = std::max(Most, A.Stride);
    return Most;
  }
  /// A chunk window's tile bytes per thread: the arrays' window rows, or,
  /// when they go through one tile in turn, one pitch for all: the longest,
  /// rounded up to a multiple of the widest unit (10 ints and 4 doubles in
  /// turn: 48, not 44, or the doubles' rows are misaligned).
  uint64_t windowBytesPerThread(bool InTurn) const {
    uint64_t N = 0, Widest = 1;
    for (const StagedArray &A : Arrays) {
      N = InTurn ? std::max(N, A.windowPitch()) : N + A.windowPitch();
      Widest = std::max<uint64_t>(Widest, A.Accesses.front()->Width);
    }
    return InTurn ? llvm::alignTo(N, Widest) : N;
  }
  uint64_t bytesPerThread() const {
    uint64_t N = 0;
    for (const StagedArray &A : Arrays)
      N += A.Windowed                         ? A.windowPitch()
           : A.Transposed && !A.AddressComputed ? A.Stride + 8
                                                : A.Stride;
    return N;
  }
  bool transposed() const {
    return !Arrays.empty() && Arrays.front().Transposed;
  }
  bool windowed() const { return !Arrays.empty() && Arrays.front().Windowed; }
};

/// Another access between the phases whose bytes may overlap a thread's own
/// elements: checked at run time per thread.
struct OverlapCheck {
  llvm::Instruction *Access = nullptr; ///< its address is materialized
  uint64_t Width = 0;
  bool IsStore = false;
};

/// How a legal candidate is staged.
struct StagingPlan {
  /// The accesses are reached by a prefix-free condition of Guard's branch
  /// (null: by every thread of the block).
  llvm::BranchInst *Guard = nullptr;
  bool ActiveOnTrue = true;     ///< the accesses are on the true edge
  /// Early returns after Guard on the way to the accesses (`if (x >= M)
  /// return; if (y >= N) return;`): each branch's condition, with the edge
  /// that goes on, and its block (nothing in it touches memory). The vote
  /// takes them all at Guard.
  struct InnerGuard {
    llvm::BranchInst *Branch;
    bool ActiveOnTrue;
  };
  std::vector<InnerGuard> InnerGuards;
  llvm::BasicBlock *Merge = nullptr; ///< where all threads meet again
  unsigned Capacity = 1024;     ///< threads the tiles are sized for
  bool CapacityFromLaunchBounds = false;
  std::vector<OverlapCheck> Checks; ///< other accesses checked at run time
  /// Pairs of staged arrays (indices) that may overlap, one written.
  std::vector<std::pair<unsigned, unsigned>> ArrayChecks;
  /// Code outside the region may write a loaded array: a barrier before the
  /// rows are loaded makes those writes (by the element's own thread) seen
  /// by the thread that loads them (the vote, when there is one, is it).
  bool LeadingBarrier = false;
  /// Code outside the region may read or write a written array: a barrier
  /// after the rows are stored (by other threads) before the element's own
  /// thread reads it back.
  bool TrailingBarrier = false;

  /// A chunk window's: the block every thread runs once, before the loops,
  /// at whose end the block votes (Guard, when set, is its branch); the
  /// stores that may write a windowed array, written through to the
  /// window; the analyses its limits are expanded from.
  llvm::BasicBlock *VoteBlock = nullptr;
  /// Who refills the windows. A warp refills its own 32 rows between
  /// __syncwarps (blocks of whole warps only), and arrays whose site loops
  /// are apart go through one tile in turn (ArraysInTurn): a refill of one
  /// empties the others' windows.
  WindowScope Scope = WindowScope::Block;
  std::vector<llvm::Instruction *> WriteThrough; ///< stores, small memcpys
  /// A store window (Stored) and a load window (Read) that may overlap, both
  /// with sites in one loop: go asks that the byte ranges the block's rows
  /// take of the two in that loop be disjoint (a store held in the tile
  /// would else be missed by a refill, or land after a later read).
  struct RangeCheck {
    unsigned Stored = 0, Read = 0;
    const llvm::Loop *Loop = nullptr;
  };
  std::vector<RangeCheck> RangeChecks;
  /// The loops only read their chunks: blocks take the window only when
  /// the rows are a multiple of this many bytes (0: rows of any length).
  unsigned RowModulus = 0;
  llvm::ScalarEvolution *SE = nullptr;
  const std::vector<Atom> *Atoms = nullptr;

  /// go without a vote (StagingUniformGo.cpp): each part of the guard's
  /// conditions and each overlap check in a form every thread of the block
  /// computes alike, so no barrier decides it.
  struct GoPart {
    llvm::Value *Condition = nullptr; ///< block-uniform; null for a bound
    bool Holds = true;                ///< the thread goes on when it is
    PrefixBound Bound;                ///< else: every lane of the block passes
    unsigned Dim = 0;                 ///< the bound's lane: tid.x or tid.y
  };
  /// An address as a kernel argument, plus integer kernel arguments times
  /// constants, plus a constant: a check's other side has the same
  /// thread-dependent terms, which cancel and are left out.
  struct UniformAddress {
    struct ArgumentTerm {
      llvm::Value *Argument;
      bool ZeroExtended; ///< else sign-extended to 64 bits
      int64_t Scale;
    };
    llvm::Value *Root = nullptr;
    std::vector<ArgumentTerm> Terms;
    int64_t Offset = 0;
  };
  /// [X, X + XWidth) and [Y, Y + YWidth) do not overlap in any thread.
  struct UniformCheck {
    UniformAddress X, Y;
    uint64_t XWidth = 0, YWidth = 0;
  };
  bool UniformGo = false;
  std::vector<GoPart> GoParts;
  std::vector<UniformCheck> UniformChecks;

  /// Staged once per iteration of the grid-stride loop `for (i = lane
  /// index; i < n; i += step)` around the accesses (Guard is null): an
  /// iteration is staged when the block's row of it is full, which every
  /// thread in it computes alike (StagingEmitter::iterationFull); the next
  /// iteration fills the tiles again, after a barrier (its vote's, or one
  /// that ends each staged iteration).
  struct GridStride {
    PrefixBound Bound;            ///< Lo: the index (a header phi), Hi: n
    Poly Step;                    ///< special registers only
    llvm::Value *Start = nullptr; ///< the index on entry
  };
  std::optional<GridStride> GridLoop;

  /// Staged in warp tiles: a warp whose 32 threads reach the region (the
  /// span of the accesses; Guard is null) together (activemask is full)
  /// and all pass its checks (a ballot) moves its own 32 elements through
  /// its slice of the tiles and meets at __syncwarp; other threads run the
  /// original code. No block barrier: for accesses behind an early return
  /// that depends on data, where not every thread of the block reaches,
  /// and for written elements of 24 bytes or more (measured faster). With
  /// GridLoop: on each iteration, for a warp whose lanes are in one
  /// iteration (their elements one row), with no test of the block's row.
  bool WarpTile = false;
  /// Why warp tiles (typed, for the remark).
  enum class WarpReason { NoBlockBarrier, LargeElements, Forced };
  WarpReason WarpWhy = WarpReason::NoBlockBarrier;

  /// Written-only arrays whose tiles together do not fit go through one
  /// tile in turn, each array's own (StagingTiles.cpp): the region's stores
  /// to them go nowhere, and the store phase writes each array's values
  /// (the stores' own SSA values) into the tile, flushes it, and meets at a
  /// barrier before the next array's (StagingEmitter::emitArraysInTurn).
  /// Chunk windows refilled by warps: the arrays share one tile (Scope).
  bool ArraysInTurn = false;

  /// Whether go can differ between threads, so that the block decides it:
  /// by a vote, or by the uniform form.
  bool votes() const {
    return Guard || !Checks.empty() || !ArrayChecks.empty() || VoteBlock;
  }
  /// The block votes with a barrier (barrier0.and).
  bool barrierVote() const { return votes() && !UniformGo && !WarpTile; }
  /// A barrier ends each staged iteration of a grid-stride loop: the next
  /// one writes the tiles again (its row copies may split them into units
  /// differently: the row's alignment can change), and neither a vote nor
  /// a barrier before its loads waits for the threads still using them.
  bool refillBarrier() const {
    return GridLoop && !barrierVote() && !LeadingBarrier;
  }
  /// After a grid-stride iteration's rows are written back, a barrier
  /// always: the next iteration may run the original code (the partial
  /// last one does), which reaches neither a vote nor a leading barrier,
  /// and may read through another pointer the bytes that another thread
  /// has just written back for it (adversarial/early_loads.cu's
  /// grid_stride_prev reads its previous element through `y - stride`).
  bool endBarrierAfterStores() const { return TrailingBarrier || GridLoop; }
};

struct StagingOutcome {
  StagingCandidate Candidate;
  std::optional<Missed> Skip;
  StagingPlan Plan;
  bool Transformed = false;
  std::string Action;
  llvm::DebugLoc Loc; ///< of the first staged access

  bool legal() const { return !Skip; }
  /// Which rewrite the candidate and its plan make (RewriteKind.h).
  RewriteKind kind() const { return rewriteKind(Candidate, Plan); }
  uint64_t tileBytes() const {
    if (Candidate.windowed())
      return Candidate.windowBytesPerThread(Plan.ArraysInTurn) *
             Plan.Capacity;
    if (Plan.ArraysInTurn)
      return Candidate.largestStride() * Plan.Capacity;
    return Candidate.bytesPerThread() * Plan.Capacity *
           (Candidate.transposed() ? 2 : 1);
  }
};

/// Sets Block to the first of the blocks of C's staged accesses and
/// LastBlock to the last (one control class is a chain of dominance).
void placeCandidate(StagingCandidate &C, const llvm::DominatorTree &DT);

/// The candidate's first and last staged access (in Block and LastBlock).
std::pair<llvm::Instruction *, llvm::Instruction *>
accessSpan(const StagingCandidate &C);

/// collect: per control class, the arrays whose strided elements it
/// accesses. Accesses that belong to a legal copy group (Claimed) are the
/// copy rewrite's.
std::vector<StagingOutcome>
collectStagings(const CoalescingInfo &Info,
                const llvm::DenseSet<const llvm::Instruction *> &Claimed,
                const llvm::DominatorTree &DT,
                const llvm::PostDominatorTree &PDT,
                const llvm::CycleInfo &Cycles);

/// Decides go without a vote for a legal element or transposed staging when
/// every thread can compute it alike (StagingUniformGo.cpp); the plan keeps
/// the vote otherwise.
void findUniformGo(const StagingCandidate &C, StagingPlan &P,
                   const CoalescingInfo &Info);

/// legality and the cost rule: fills each candidate's Plan or Skip.
void decideStagings(std::vector<StagingOutcome> &Stagings,
                    const CoalescingInfo &Info, llvm::PostDominatorTree &PDT,
                    llvm::DominatorTree &DT, llvm::LoopInfo &LI,
                    llvm::ScalarEvolution &SE, const llvm::CycleInfo &Cycles);

/// emit: stages one legal candidate; returns what it did, for people.
std::string emitStaging(const StagingCandidate &C, const StagingPlan &P);

/// collect + legality of chunk windows: the loads of per-thread chunks in
/// loops (not in Claimed), one candidate per kernel, decided.
std::vector<StagingOutcome>
collectWindows(const CoalescingInfo &Info,
               const llvm::DenseSet<const llvm::Instruction *> &Claimed,
               llvm::DominatorTree &DT, llvm::PostDominatorTree &PDT,
               llvm::LoopInfo &LI, llvm::ScalarEvolution &SE);

/// emit: windows one legal candidate's chunks; returns what it did.
/// A chunk window's refusal, logged under the legality phase's DEBUG_TYPE.
Missed windowMiss(MissedReason R, std::string Detail);

/// The chunk windows' cost rules (ChunkWindowRules.cpp): leaves out the
/// arrays they decline, with their reasons; a miss when none is left, or
/// when the loops only read chunks whose rows do not qualify.
Verdict windowCostRules(StagingCandidate &C, StagingPlan &P);

std::string emitWindows(const StagingCandidate &C, const StagingPlan &P);

} // namespace coalda

#endif // COALDA_LIB_STAGING_H
