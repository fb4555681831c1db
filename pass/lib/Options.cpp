//===- Options.cpp - The transformation's command-line switches -----------===//
//
// See Options.h.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

using namespace llvm;

namespace coalda::opts {

cl::opt<std::string>
    ReportFile("coalda-report", cl::init(""),
               cl::desc("Write COALDA's findings as JSON to this file"));
cl::opt<bool> RuntimeChecks(
    "coalda-runtime-checks", cl::init(true),
    cl::desc("Allow versioning a copy on a run-time overlap check when the "
             "pointers are not known to be disjoint"));
cl::opt<bool> AnalyzeOnly(
    "coalda-analyze-only", cl::init(false),
    cl::desc("Report findings and groups but rewrite nothing"));
cl::opt<unsigned>
    MaxUnitWidth("coalda-max-unit", cl::init(16),
                 cl::desc("Widest unit (bytes) the rewrite may move: 16, 4 "
                          "or the member width"));
cl::opt<bool> InvariantLoads(
    "coalda-invariant-loads", cl::init(false),
    cl::desc("Mark the rewritten copy's loads !invariant.load, so that they "
             "can use the read-only data path (ld.global.nc)"));
cl::opt<bool> FlatLoops(
    "coalda-flat-loops", cl::init(true),
    cl::desc("Replace a grid-stride copy loop by one flat copy by all threads "
             "(with the loop as fallback)"));
cl::opt<bool> PromoteLoops(
    "coalda-promote-loops", cl::init(true),
    cl::desc("Keep a loop's uncoalesced global element in registers for the "
             "loop, behind run-time overlap checks (loop versioning and "
             "LICM)"));

cl::opt<bool> Staging(
    "coalda-staging", cl::init(true),
    cl::desc("Stage strided stores and read-modify-writes of array-of-structs "
             "elements through a shared-memory tile (kernels without a "
             "rewritten copy)"));
cl::opt<bool> StageArraysInTurn(
    "coalda-stage-arrays-in-turn", cl::init(true),
    cl::desc("Written-only records whose warp tiles do not fit together go "
             "through one tile in turn, sized for the largest (lulesh's hgc, "
             "six 64-byte records per thread: 3.22x, "
             "docs/probe/lulesh_hgc_stores.cu); false refuses them "
             "(StagingTileTooLarge)"));
cl::opt<bool> ReshapeLaunches(
    "coalda-reshape-launches", cl::init(false),
    cl::desc("Give each rewritten kernel of one piece of work per thread a "
             "grid-stride variant, K__coalda_grid, for a reshaped launch "
             "(GridVariant.cpp). Off by default: only a build whose host "
             "side launches the variant (coalda cc) turns it on"));
cl::opt<bool> ChooseRewrites(
    "coalda-choose-rewrites", cl::init(false),
    cl::desc("With -coalda-reshape-launches, a rewritten kernel that gets no "
             "grid variant keeps its original beside the rewrite, which "
             "becomes its variant on the same grid, chosen at run time by "
             "measurement (RewriteChoice.cpp; coalda cc -fcoalda-reshape "
             "turns it on)"));
cl::opt<bool> ReshapeBlockLoops(
    "coalda-reshape-block-loops", cl::init(false),
    cl::desc("With -coalda-reshape-launches, also give a variant that loops "
             "over the original blocks to kernels whose whole effect is not "
             "one copy (measured no faster on the H200: "
             "docs/runs/launches/README.md)"));
cl::opt<bool> StageReadOnly(
    "coalda-stage-read-only", cl::init(false),
    cl::desc("Also stage read-only arrays read whole at the same index as a "
             "staged written array (measured slower: docs/benchmarks.md)"));
cl::opt<unsigned> StageReadOnlyRows(
    "coalda-stage-read-only-rows", cl::init(64),
    cl::desc("Stage the elements of a block that only reads when they are a "
             "multiple of this many bytes apart (0: never; docs/benchmarks.md, "
             "\"Read-only elements\")"));
cl::opt<unsigned> StagePartialGap(
    "coalda-stage-partial-gap", cl::init(0),
    cl::desc("Leave alone an element the stores write in part when its "
             "accesses leave this many bytes of each row in a row untouched "
             "(sectors the staged rows move for nothing; 0, the default: "
             "never, as measured: a 64-byte record a quarter of which is "
             "updated gained 1.35-1.53x staged, one member of it "
             "0.99-1.19x; docs/benchmarks.md, \"Records written in "
             "part\")"));
cl::opt<unsigned> MaxRegisters(
    "coalda-max-registers", cl::init(0),
    cl::desc("Give each rewritten kernel without __launch_bounds__ this "
             "register limit (PTX .maxnreg; 64 lets a block of 1024 threads "
             "launch). 0, the default: none, as measured (under a limit "
             "ptxas takes up to the limit: geglu 40 -> 52 registers, sph "
             "32 -> 48, fewer warps per SM); `coalda cc` and `coalda "
             "optimize` limit only the kernels that need it, after ptxas "
             "(pass/lib/RegisterBudget.cpp)"));
cl::opt<unsigned> StageTileBudget(
    "coalda-stage-tile-budget", cl::init(48 * 1024),
    cl::desc("Without __launch_bounds__, size the tiles for the most threads "
             "(1024, 512 or 256) whose tiles fit this many bytes: a static "
             "tile costs its bytes at every block size"));
cl::opt<unsigned> StageSmallRMWThreads(
    "coalda-stage-small-rmw-threads", cl::init(512),
    cl::desc("Read-modify-writes of elements of at most 16 bytes are staged "
             "in blocks of at most this many threads (axpy3 at 1024 measured "
             "0.98x staged, docs/benchmarks.md)"));
cl::opt<bool> StageSmallAlways(
    "coalda-stage-small-always", cl::init(false),
    cl::desc("Also stage elements under 24 bytes or of fewer than 4 member "
             "accesses, and elements of up to 32 bytes the backend moves in "
             "16-byte vectors, where staging them measured slower (no load "
             "waiting behind their stores; branches between the "
             "accesses), and kernels whose other work the cost rule on it "
             "says the staging would cost: for the "
             "adversarial corpora, which attack the staged code"));
cl::opt<unsigned> KernelWorkLoopTrips(
    "coalda-kernel-work-loop-trips", cl::init(64),
    cl::desc("Cost rule on the kernel's other work: a loop beside the staged "
             "accesses of at most this many iterations (a constant) does not "
             "count as work that the staging would cost (s8n, md, "
             "mandelbrot: loops of run-time length, staged 0.94-0.95x)"));
cl::opt<unsigned> KernelWorkShare(
    "coalda-kernel-work-share", cl::init(4),
    cl::desc("Cost rule on the kernel's other work: stage only where the "
             "staged accesses are at least 1 in this many of the kernel's "
             "global accesses (dslash, 1 in 10: 0.77x staged; 0 turns the "
             "rule off)"));
cl::opt<bool> TransposeAddressTile(
    "coalda-transpose-address-tile", cl::init(false),
    cl::desc("Permuted transposed stores read each slot's address from a "
             "shared address tile even where the storing thread can "
             "recompute it (the general form; for testing and measurement)"));
cl::opt<bool> StageAlwaysVote(
    "coalda-stage-always-vote", cl::init(false), cl::Hidden,
    cl::desc("Stagings decide go by a barrier vote even where every thread "
             "can compute it alike (the general form; for testing and "
             "measurement)"));
cl::opt<WarpTiles> StageWarpTiles(
    "coalda-stage-warp-tiles", cl::init(WarpTiles::Measured),
    cl::desc("Element stagings in warp tiles, each full warp deciding for "
             "itself and meeting at __syncwarp (docs/benchmarks.md, \"Warp "
             "tiles\")"),
    cl::values(
        clEnumValN(WarpTiles::Never, "never",
                   "block tiles only: refuse where no block barrier may go"),
        clEnumValN(WarpTiles::Fallback, "fallback",
                   "only where no block barrier may go (an early return "
                   "that depends on data before the accesses)"),
        clEnumValN(WarpTiles::Measured, "measured",
                   "there, and for written elements of 24 bytes or more, "
                   "where they measured faster than block tiles (default)"),
        clEnumValN(WarpTiles::Always, "always",
                   "every element staging but transposes (for measurement)")));
cl::opt<unsigned> WindowMinRow(
    "coalda-window-min-row", cl::init(80),
    cl::desc("Chunk windows: blocks whose chunks (rows) are shorter than this "
             "many bytes run the original loads, decided at run time "
             "(docs/benchmarks.md, \"Chunk windows\")"));
cl::opt<unsigned> WindowTileThreads(
    "coalda-window-threads", cl::init(512), cl::Hidden,
    cl::desc("Chunk windows: the threads a tile is sized for, unless "
             "__launch_bounds__ says fewer (measured at 512; 256 fits "
             "dslash's four 288-byte arrays, for measurements: tiles sized "
             "to fit cost kalman 0.976x, docs/programs/issue-39.md)"));
cl::opt<bool> WindowArms(
    "coalda-window-arms", cl::init(false),
    cl::desc("Chunk windows also for arrays read in the arms of a branch in "
             "the loop whose every way reads the same elements (dslash's "
             "k == 0 ? mult_su3_mat_vec : mult_su3_mat_vec_sum; off: dslash "
             "measured 0.66x windowed, docs/programs/issue-39.md)"));
cl::opt<WindowScope> WindowRefills(
    "coalda-window-scope", cl::init(WindowScope::Block),
    cl::desc("Chunk windows: who refills a thread's window, and meets at "
             "which barrier"),
    cl::values(
        clEnumValN(WindowScope::Block, "block",
                   "the block, between block barriers (default; measured "
                   "on the corpus)"),
        clEnumValN(WindowScope::Warp, "warp",
                   "each warp its own 32 rows, between __syncwarps, one "
                   "tile for arrays whose loops are apart (blocks of whole "
                   "warps)")));
cl::opt<unsigned> WindowRowBytes(
    "coalda-window-bytes", cl::init(32), cl::Hidden,
    cl::desc("Chunk windows: bytes of a thread's chunk a refill moves (a "
             "power of two; measured at 32, others are for measurements)"));
cl::opt<unsigned> WindowIterationBytes(
    "coalda-window-iteration-bytes", cl::init(32), cl::Hidden,
    cl::desc("Chunk windows: an array whose loop reads a record of at least "
             "this many bytes of each row per iteration, every byte of it, "
             "is refilled once per iteration with the record, by each warp "
             "for its own rows, instead of when a load leaves the window "
             "(0: never; 32 measured on dslash)"));
cl::opt<bool> WindowStores(
    "coalda-window-stores", cl::init(true), cl::Hidden,
    cl::desc("Chunk windows: the stores of a chunk that a windowed loop "
             "writes, a record of each row per iteration, go through a "
             "window each warp writes back (StoreWindow.cpp)"));
cl::opt<unsigned> WindowStoreBytes(
    "coalda-window-store-bytes", cl::init(32), cl::Hidden,
    cl::desc("Chunk windows: bytes of each row a store window holds, rounded "
             "up to a multiple of the loop's record"));
cl::opt<WindowReadOnly> WindowReadOnlyLoops(
    "coalda-window-read-only", cl::init(WindowReadOnly::ConstantRows),
    cl::desc("Chunk windows for loops that only read their chunks (rows a "
             "multiple of 128 bytes apart: docs/benchmarks.md, \"Chunk "
             "windows\")"),
    cl::values(
        clEnumValN(WindowReadOnly::Never, "never", "leave them alone"),
        clEnumValN(WindowReadOnly::ConstantRows, "constant",
                   "rows of a compile-time length (default): the kernel "
                   "gets no tile unless the window is taken"),
        clEnumValN(WindowReadOnly::RunTimeRows, "runtime",
                   "also rows of run-time length, decided per block; the "
                   "tile's shared memory costs the loop 3-26% at the "
                   "lengths that run the original")));
cl::opt<unsigned> WindowReadOnlyModulus(
    "coalda-window-read-only-modulus", cl::init(128), cl::Hidden,
    cl::desc("Chunk windows: a loop that only reads takes the window when its "
             "rows are a multiple of this many bytes apart (measured at 128; "
             "other values are for measurements, 0: never)"));
cl::opt<unsigned> WindowMinBlocksPerSM(
    "coalda-window-min-blocks-per-sm", cl::init(1),
    cl::desc("Chunk windows run only in grids of at least this many blocks "
             "per SM (the SM count read at run time, %nsmid): a smaller grid "
             "runs one block per SM, whose rows L1 serves (page-rank's map "
             "at 16 blocks: 0.87x windowed; 0: no such test)"));
cl::opt<bool> CostRules(
    "coalda-cost-rules", cl::init(true),
    cl::desc("Leave alone the copies the measurements found unprofitable "
             "(elements the backend already moves as one vector)"));
cl::opt<unsigned> WideBlock(
    "coalda-wide-block", cl::init(0),
    cl::desc("Blocks with more threads than this keep the original code when "
             "the members are narrower than 4 bytes (0: no limit)"));
cl::opt<bool> FastFullRow(
    "coalda-fast-full-row", cl::init(true), cl::Hidden,
    cl::desc("A guarded region copy's fast path tests that the row is full "
             "with one comparison on the row's start (false: left >= ntid.x "
             "and the no-wrap check, the form measured before 2026-11-26)"));
cl::opt<bool> CopyIndex32(
    "coalda-copy-index32", cl::init(true), cl::Hidden,
    cl::desc("Region copies index their units in 32 bits (false: in 64 "
             "bits, the form measured before 2026-11-26)"));
cl::opt<bool> StageIndex32(
    "coalda-stage-index32", cl::init(true), cl::Hidden,
    cl::desc("Staged row copies index their units in 32 bits (false: in 64 "
             "bits, the form measured until 2026-11-26)"));
cl::opt<unsigned> StageUnroll(
    "coalda-stage-unroll", cl::init(8), cl::Hidden,
    cl::desc("A staged row copy whose wide units are at most this many per "
             "thread moves them without a loop, all loads before all stores "
             "(a bound on the code emitted, not tuned; 0: always a loop, the "
             "form measured until 2026-11-26)"));
cl::opt<unsigned> StageEarlyLoads(
    "coalda-stage-early-loads", cl::init(8), cl::Hidden,
    cl::desc("At most this many loads of other memory that a staged "
             "region's first block makes before it writes any are issued "
             "before the load phase's row copies, not after its barrier (0: "
             "never, the form measured until 2026-11-27)"));
cl::opt<bool> BreakForTesting(
    "coalda-test-break-ir", cl::init(false), cl::Hidden,
    cl::desc("Testing only: corrupt every rewritten kernel, so that the "
             "verifier's rollback to the original code can be tested"));
cl::opt<unsigned>
    MaxStride("coalda-max-stride", cl::init(256),
              cl::desc("Largest lane stride (bytes) of a rewritten copy"));
cl::opt<unsigned> MaxFunctionSize(
    "coalda-max-function-size", cl::init(50000),
    cl::desc("Analysis budget: a kernel whose code, with its device "
             "functions inlined, has more instructions than this is skipped "
             "with a remark (0: no budget). The corpus's largest, "
             "logic-rewrite's resynCut, has about 11,000; 48,000 took "
             "2.4 s and 150 MB, 96,000 8.6 s (2026-11-28)"));

} // namespace coalda::opts
