"""The emulator's proof regime: shared memory, barriers and schedules.

Each test plants one bug into a kernel (a source variant compiled with
-DPLANT, or an edit of the IR) and shows that the oracle reports it with the
right verdict, and runs the same check on the unplanted kernel to show that
the test can tell the two apart.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from coalda.emulator import emulate
from coalda.driver.compile import CompileOptions, compile_to_ir
from coalda.emulator.emulate import EmulationFault, EmulatorExecutor
from coalda.errors import CoaldaError
from coalda.driver.pipeline import Artifacts, build
from coalda.check.oracle import (
    ALIAS_LAYOUT, GUARD, LAYOUTS, OVERLAP_LAYOUTS, POISON, SCHEDULES, CaseResult, Schedule, Verdict, check, make_args,
    other_poison, poison_of,
)
from coalda.emulator.schedule import FORWARD, REVERSE, SHARED_POISON, SHARED_POISON_OTHER, SHUFFLED
from coalda.check.spec import KernelSpec, Param, load_spec
from conftest import TESTCASES, run_cli

BLOCK = 64
SOURCE = r"""
struct Pixel { unsigned char r, g, b; };

// (b) mirror a block's pixels through a shared tile; PLANT reads one slot
// too far (tile[blockDim - t]: thread 0 reads the slot nobody fills).
extern "C" __global__ void tile_mirror(Pixel *dst, const Pixel *src) {
  __shared__ Pixel tile[65];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = src[i];
  __syncthreads();
#ifdef PLANT
  dst[i] = tile[blockDim.x - t];
#else
  dst[i] = tile[blockDim.x - 1 - t];
#endif
}

// (b) the same; PLANT stops the fill one thread short: the last slot keeps
// the emulator's poison, and thread 0 reads it.
extern "C" __global__ void tile_fill(Pixel *dst, const Pixel *src) {
  __shared__ Pixel tile[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
#ifdef PLANT
  if (t + 1 < blockDim.x)
#endif
  tile[t] = src[i];
  __syncthreads();
  dst[i] = tile[blockDim.x - 1 - t];
}

// (d) b = a, then c = b. PLANT is a "rewrite" that moves the copy of b one
// thread over: thread i writes b[i + 1], which thread i + 1 reads without a
// barrier. Right when threads run in increasing order, wrong otherwise.
extern "C" __global__ void chain(char *b, const char *a, char *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANT
  if (i == 0) b[0] = a[0];
  if (i + 1 < n) b[i + 1] = a[i + 1];
#else
  b[i] = a[i];
#endif
  c[i] = b[i];
}

// (c) PLANT shifts in place: a[i] reads a[i + 1], which thread i + 1 writes.
extern "C" __global__ void shift(char *a, char *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANT
  if (i + 1 < n) a[i] = a[i + 1] + 1;
#else
  if (i + 1 < n) b[i] = a[i + 1] + 1;
#endif
}

// (e) PLANT: the first 16 threads wait at another __syncthreads than the rest.
extern "C" __global__ void diverge(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
#ifdef PLANT
  if (t < 16) {
    s[t] += 1;
    __syncthreads();
    p[t] = s[t ^ 1];
  } else {
    __syncthreads();
    p[t] = s[t ^ 1] + 2;
  }
#else
  __syncthreads();
  p[t] = s[t ^ 1];
#endif
}

// (e) PLANT: half a warp waits at __syncwarp for lanes that wait at __syncthreads.
extern "C" __global__ void warp_wait(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = p[t];
#ifdef PLANT
  if (t % 32 < 16)
#endif
  __syncwarp();
  __syncthreads();
  p[t] = s[63 - t];
}

// Threads that return before a barrier are not waited for.
extern "C" __global__ void early_exit(int *p) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t >= 48) return;
  s[t] = p[t];
  __syncthreads();
  p[t] = s[47 - t];
}

// The order threads run in, before and after a barrier.
extern "C" __global__ void trace(int *log) {
  int t = threadIdx.x;
  int k = log[0];
  log[0] = k + 1;
  log[1 + k] = t;
  __syncthreads();
  k = log[0];
  log[0] = k + 1;
  log[1 + k] = t;
}

// (e) each thread's locals live on a stack of its own (its fiber's) while
// the others run: 64 KiB of them per thread, kept across a barrier.
extern "C" __global__ void own_stack(int *p) {
  volatile int local[16384];
  int t = threadIdx.x;
  for (int k = 0; k < 16384; ++k) local[k] = t * 7 + k;
  __syncthreads();
  int wrong = 0;
  for (int k = 0; k < 16384; ++k) wrong += local[k] != t * 7 + k;
  p[t] = wrong;
}

// (c) sized for its block of 64: run by one thread (an overlap layout), it
// reads slot 1, which no thread wrote.
extern "C" __global__ void tile_rotate(Pixel *dst, const Pixel *src) {
  __shared__ Pixel tile[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = src[i];
  __syncthreads();
  dst[i] = tile[(t + 1) % 64];
}

// (c) y += x with x read first; PLANT reads x after y's store: the same
// bytes unless x and y are one buffer.
extern "C" __global__ void own_axpy(float *y, const float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef PLANT
  y[i] = y[i] * 2.0f;
  y[i] += x[i];
#else
  float t = x[i];
  y[i] = y[i] * 2.0f + t;
#endif
}

// (c) each thread reads its right neighbour's element: with both buffers at
// one address, thread i's read races with thread i+1's write.
extern "C" __global__ void shift_left(float *dst, const float *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i + 1] + 1.0f;
}

// (f) dynamic shared memory, with and without a barrier.
extern "C" __global__ void dyn_mirror(float *dst, const float *src) {
  extern __shared__ float dyn[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  dyn[t] = src[i];
  __syncthreads();
  dst[i] = dyn[blockDim.x - 1 - t];
}

extern "C" __global__ void dyn_stage(float *dst, const float *src) {
  extern __shared__ float dyn[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  dyn[t] = src[i];
  dst[i] = 2 * dyn[t];
}

// (g) PLANT writes one byte before dst.
extern "C" __global__ void guarded_copy(char *dst, const char *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i];
#ifdef PLANT
  if (i == 0) dst[-1] = src[0];
#endif
}
"""


@pytest.fixture(scope="module")
def modules(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The device IR of SOURCE, as written ('correct') and with every bug planted."""
    tmp = tmp_path_factory.mktemp("schedules")
    source = tmp / "kernels.cu"
    source.write_text(SOURCE)
    out = {}
    for name, defines in (("correct", ()), ("planted", ("PLANT",))):
        ir = tmp / f"{name}.ll"
        compile_to_ir(source, CompileOptions(defines=defines), ir)
        out[name] = ir.read_text()
    return out


def run_check(
    modules: dict[str, str], spec: KernelSpec, n: int, original: str = "correct", optimized: str = "planted",
    **kwargs: object,
) -> list[CaseResult]:
    return check(spec, lambda name: name, EmulatorExecutor(modules[original]), EmulatorExecutor(modules[optimized]),
                 n, np.random.default_rng(n), **kwargs)  # type: ignore[arg-type]


def pixels(name: str) -> KernelSpec:
    return KernelSpec(name, (Param("dst", "out", "3*n"), Param("src", "in", "3*n")), grid="n // block", block=BLOCK)


def one_block(name: str, size: str = "4*n") -> KernelSpec:
    return KernelSpec(name, (Param("p", "inout", size),), grid=1, block="n")


# -- (a) a planted missing barrier


def without_barrier(ir: str) -> str:
    stripped, count = re.subn(r"^\s*(?:tail )?call void @llvm\.nvvm\.barrier0\(\).*\n", "", ir, flags=re.M)
    assert count >= 1
    return stripped


@pytest.fixture(scope="module")
def shared_tile(tmp_path_factory: pytest.TempPathFactory) -> Artifacts:
    art = Artifacts(tmp_path_factory.mktemp("shared_tile"), "shared_tile")
    build(TESTCASES / "shared_tile.cu", CompileOptions(), art, ptx=False)
    return art


@pytest.mark.parametrize("which", ["before", "after"])
def test_a_planted_missing_barrier_is_caught(shared_tile: Artifacts, which: str) -> None:
    """mirror_tile's IR (as compiled, and as rewritten by COALDA) with its
    __syncthreads deleted: threads read tile slots before they are filled."""
    spec = load_spec(TESTCASES / "shared_tile.toml").kernels["mirror_tile"]
    symbol = "_Z11mirror_tileP5PixelPKS_"
    ir = getattr(shared_tile, which).read_text()
    original = EmulatorExecutor(shared_tile.before.read_text())
    for optimized, planted in ((ir, False), (without_barrier(ir), True)):
        results = check(spec, lambda _: symbol, original, EmulatorExecutor(optimized), 512, np.random.default_rng(1))
        assert len(results) == len(LAYOUTS) * len(SCHEDULES)
        if planted:
            assert not any(r.match for r in results)
            assert {r.verdict for r in results} <= {Verdict.RACE, Verdict.MISMATCH}
            assert all("dst:" in r.detail for r in results)
        else:
            assert all(r.match for r in results), [r.detail for r in results]


# -- (b) a planted off-by-one in a shared tile


@pytest.mark.parametrize("kernel", ["tile_mirror", "tile_fill"])
def test_a_planted_off_by_one_in_a_shared_tile_is_caught(modules: dict[str, str], kernel: str) -> None:
    """tile_mirror reads tile[blockDim - t]; tile_fill leaves the last slot
    unfilled. Thread 0 reads a slot nobody wrote: the emulator's per-block
    poison makes that a difference under every schedule."""
    results = run_check(modules, pixels(kernel), 2 * BLOCK)
    assert results and all(r.verdict is Verdict.MISMATCH for r in results), [r.detail for r in results]
    # Only thread 0 of each block reads a wrong slot in tile_fill: 3 bytes per block.
    if kernel == "tile_fill":
        assert all(r.detail.startswith("dst: 6 bytes differ, first at byte 0") for r in results)
    control = run_check(modules, pixels(kernel), 2 * BLOCK, optimized="correct")
    assert all(r.match for r in control), [r.detail for r in control]


def test_unwritten_shared_bytes_read_as_poison(modules: dict[str, str]) -> None:
    """The slot tile_fill's plant leaves unfilled reads as the shared poison
    in every block (the previous block's tile does not leak into the next).
    That byte is no buffer's guard byte: a staged row stored where it must
    not be shows its unwritten slots in a guard zone too."""
    poisons = {SHARED_POISON, SHARED_POISON_OTHER}
    assert len(poisons) == 2 and not poisons & {poison_of(i) for i in range(254)}
    module = emulate.load(modules["planted"])
    src = np.zeros(3 * 2 * BLOCK, dtype=np.uint8)
    for schedule in [*SCHEDULES, other_poison(FORWARD)]:
        dst = np.zeros_like(src)
        module.launch("tile_fill", (2, 1, 1), (BLOCK, 1, 1), [dst, src], schedule)
        rows = dst.reshape(2, BLOCK, 3)
        assert (rows[:, 0] == schedule.shared_poison).all() and not rows[:, 1:].any()
    assert FORWARD.shared_poison == SHARED_POISON and other_poison(FORWARD).shared_poison == SHARED_POISON_OTHER
    assert {s.shared_poison for s in SCHEDULES[1:]} == {SHARED_POISON_OTHER}


# -- (c) a racy original


def test_a_racy_original_is_reported_as_such(modules: dict[str, str]) -> None:
    """shift in place reads what the next thread writes: its own result
    depends on the schedule, so the comparison proves nothing."""
    spec = KernelSpec("shift", (Param("a", "inout", "n"), Param("b", "inout", "n"), Param("n", "value", "n")),
                      grid="n // block", block=BLOCK)
    results = run_check(modules, spec, 4 * BLOCK, original="planted", optimized="planted")
    assert [r.layout for r in results] == [layout.name for layout in LAYOUTS]  # one verdict per layout
    assert all(r.verdict is Verdict.RACY_ORIGINAL and not r.match for r in results)
    assert all(r.detail.startswith("racy original: the test kernel itself depends on the schedule (forward vs reverse: a:")
               for r in results), results[0].detail
    control = run_check(modules, spec, 4 * BLOCK, original="correct", optimized="correct")
    assert len(control) == len(LAYOUTS) * len(SCHEDULES) and all(r.match for r in control)


def test_an_original_that_reads_unwritten_shared_memory_is_reported_as_such(modules: dict[str, str]) -> None:
    """tile_fill's plant leaves the last slot unfilled and thread 0 reads
    it: on a GPU it reads what an earlier block left there. Each schedule
    starts the blocks with its own poison byte, so the original's result
    depends on the schedule; the detail says why (the same order with the
    other poison differs too), not that its threads race."""
    results = run_check(modules, pixels("tile_fill"), 2 * BLOCK, original="planted", optimized="planted")
    assert [r.layout for r in results] == [layout.name for layout in LAYOUTS]
    assert all(r.verdict is Verdict.RACY_ORIGINAL and not r.match for r in results)
    assert all(r.detail.startswith("racy original: the test kernel reads __shared__ memory no thread wrote "
                                   "(forward vs forward, other shared poison: dst: 6 bytes differ") for r in results), \
        results[0].detail
    control = run_check(modules, pixels("tile_fill"), 2 * BLOCK, original="correct", optimized="correct")
    assert len(control) == len(LAYOUTS) * len(SCHEDULES) and all(r.match for r in control)


def test_a_kernel_that_needs_its_whole_block_is_not_checked_in_a_one_thread_launch(modules: dict[str, str]) -> None:
    """tile_rotate reads its neighbour's slot. In the full launch it is
    well defined and checked; in an overlap layout's one thread it reads a
    slot no thread wrote (garbage on a GPU, differing between two runs):
    its two runs there, with the two shared poisons, differ, and the layout
    says it checked nothing rather than failing (or passing by luck).
    tile_mirror's one thread reads only its own slot, so it stays checked;
    and a rewrite that differs in a layout that is checked still fails."""
    results = run_check(modules, pixels("tile_rotate"), 2 * BLOCK, optimized="correct", overlap=True)
    full = [r for r in results if r.layout in {layout.name for layout in LAYOUTS}]
    assert len(full) == len(LAYOUTS) * len(SCHEDULES) and all(r.verdict is Verdict.MATCH for r in full)
    one = [r for r in results if r not in full]
    assert [(r.layout, r.verdict, r.match) for r in one] == [
        ("overlap", Verdict.UNCHECKED, True), ("overlap-back", Verdict.UNCHECKED, True)]
    assert all(r.detail.startswith("not checked: in this one-thread launch the original reads __shared__ memory "
                                   "no thread wrote") for r in one), one[0].detail
    mirror = run_check(modules, pixels("tile_mirror"), 2 * BLOCK, optimized="correct", layouts=(), overlap=True)
    assert [(r.layout, r.verdict) for r in mirror] == [("overlap", Verdict.MATCH), ("overlap-back", Verdict.MATCH)]
    planted = run_check(modules, pixels("tile_mirror"), 2 * BLOCK, layouts=(), overlap=True)
    assert planted and all(r.verdict is Verdict.MISMATCH for r in planted), [r.detail for r in planted]


def test_the_alias_layout_runs_the_whole_grid_on_one_buffer(modules: dict[str, str]) -> None:
    """own_axpy's plant reads x after storing y: the same bytes on distinct
    buffers and in the one-thread overlap launches (x = y + 4 bytes there,
    another element), but not with x and y at one address, where every
    thread reads its own updated y. The alias layout (the whole grid, every
    schedule) sees it; the GPU's runs do not take it (alias=False)."""
    spec = KernelSpec("own_axpy", (Param("y", "inout", "4*n"), Param("x", "in", "4*n")), grid="n // block",
                      block=BLOCK, align=4)
    planted = run_check(modules, spec, 2 * BLOCK, overlap=True, alias=True)
    by_layout: dict[str, set[Verdict]] = {}
    for r in planted:
        by_layout.setdefault(r.layout, set()).add(r.verdict)
    assert by_layout == {**{layout.name: {Verdict.MATCH} for layout in (*LAYOUTS, *OVERLAP_LAYOUTS)},
                         "alias": {Verdict.MISMATCH}}, by_layout
    assert [r.schedule for r in planted if r.layout == "alias"] == [str(s) for s in SCHEDULES]
    control = run_check(modules, spec, 2 * BLOCK, optimized="correct", overlap=True, alias=True)
    assert all(r.verdict is Verdict.MATCH for r in control), [r.detail for r in control if not r.match]
    assert "alias" not in {r.layout for r in run_check(modules, spec, 2 * BLOCK, overlap=True)}


def test_an_original_that_races_on_one_buffer_is_not_checked_there(modules: dict[str, str]) -> None:
    """shift_left reads its neighbour's element: on one buffer its threads
    race, so the alias layout says it compared nothing, in one row; the
    other layouts compare as usual."""
    spec = KernelSpec("shift_left", (Param("dst", "out", "4*n"), Param("src", "in", "4*n + 4")),
                      grid="n // block", block=BLOCK, align=4)
    results = run_check(modules, spec, 2 * BLOCK, optimized="correct", overlap=True, alias=True)
    alias = [r for r in results if r.layout == "alias"]
    assert [(r.verdict, r.match) for r in alias] == [(Verdict.UNCHECKED, True)]
    assert alias[0].detail.startswith("not checked: with every buffer at one address the original's result "
                                      "depends on the schedule (dst:"), alias[0].detail
    assert all(r.verdict is Verdict.MATCH for r in results if r.layout != "alias")


# -- (d) a race that only some schedules expose


def chain_spec() -> KernelSpec:
    return KernelSpec(
        "chain", (Param("b", "out", "n"), Param("a", "in", "n"), Param("c", "out", "n"), Param("n", "value", "n")),
        grid="n // block", block=BLOCK,
    )


def test_a_race_in_the_rewritten_kernel_shows_under_reverse_and_shuffled(modules: dict[str, str]) -> None:
    """The planted chain is right when threads run in increasing order, so
    the old sequential emulator passed it; reverse, shuffled and strided
    catch it."""
    results = run_check(modules, chain_spec(), 4 * BLOCK)
    by_schedule: dict[str, set[Verdict]] = {}
    for r in results:
        by_schedule.setdefault(r.schedule, set()).add(r.verdict)
    assert by_schedule == {
        "forward": {Verdict.MATCH}, "reverse": {Verdict.RACE}, "shuffled(1)": {Verdict.RACE}, "strided": {Verdict.RACE},
    }
    race = next(r for r in results if r.schedule == "reverse")
    assert race.detail.startswith("race in the rewritten kernel (schedule reverse): c:")
    forward_only = run_check(modules, chain_spec(), 4 * BLOCK, schedules=(FORWARD,))
    assert all(r.match for r in forward_only)  # what a single sequential order would have said
    control = run_check(modules, chain_spec(), 4 * BLOCK, optimized="correct")
    assert all(r.match for r in control)


# -- (e) barrier divergence and deadlocks


def test_barrier_divergence_is_one_clear_error(modules: dict[str, str]) -> None:
    module = emulate.load(modules["planted"])
    p = np.arange(BLOCK, dtype=np.int32)
    with pytest.raises(EmulationFault) as info:
        module.launch("diverge", (1, 1, 1), (BLOCK, 1, 1), [p])
    message = str(info.value)
    assert "\n" not in message
    assert re.fullmatch(
        r"kernel diverge block \(0, 0, 0\): barrier divergence: threads 0-15 wait at __syncthreads at line \d+; "
        r"threads 16-63 wait at __syncthreads at line \d+", message,
    ), message
    correct = emulate.load(modules["correct"])
    for schedule in SCHEDULES:
        p = np.arange(BLOCK, dtype=np.int32)
        correct.launch("diverge", (1, 1, 1), (BLOCK, 1, 1), [p], schedule)
        assert (p == np.arange(BLOCK) ^ 1).all()


def test_divergence_in_the_rewritten_kernel_is_a_fault_verdict(modules: dict[str, str]) -> None:
    results = run_check(modules, one_block("diverge"), BLOCK, layouts=LAYOUTS[:1])
    assert all(r.verdict is Verdict.FAULT and "barrier divergence" in r.detail for r in results)
    with pytest.raises(EmulationFault, match="the original kernel diverge .*barrier divergence"):
        run_check(modules, one_block("diverge"), BLOCK, original="planted", layouts=LAYOUTS[:1])


def test_a_barrier_deadlock_is_reported(modules: dict[str, str]) -> None:
    """Lanes 0-15 wait at __syncwarp for lanes 16-31, which wait at __syncthreads."""
    p = np.arange(BLOCK, dtype=np.int32)
    with pytest.raises(EmulationFault, match=r"deadlock at barriers: threads 0-15, 32-47 wait at __syncwarp\(0xffffffff\) "
                                             r"at line \d+; threads 16-31, 48-63 wait at __syncthreads"):
        emulate.load(modules["planted"]).launch("warp_wait", (1, 1, 1), (BLOCK, 1, 1), [p])
    emulate.load(modules["correct"]).launch("warp_wait", (1, 1, 1), (BLOCK, 1, 1), [p])
    assert (p == np.arange(BLOCK)[::-1]).all()


def test_threads_that_exited_are_not_waited_for(modules: dict[str, str]) -> None:
    module = emulate.load(modules["correct"])
    for schedule in SCHEDULES:
        p = np.arange(BLOCK, dtype=np.int32)
        module.launch("early_exit", (1, 1, 1), (BLOCK, 1, 1), [p], schedule)
        assert (p[:48] == np.arange(48)[::-1]).all() and (p[48:] == np.arange(48, BLOCK)).all()


def test_each_thread_keeps_its_locals_across_a_barrier(modules: dict[str, str]) -> None:
    module = emulate.load(modules["correct"])
    for schedule in (FORWARD, REVERSE, SHUFFLED):
        p = np.full(BLOCK, -1, dtype=np.int32)
        module.launch("own_stack", (2, 1, 1), (BLOCK, 1, 1), [p], schedule)
        assert (p == 0).all(), p


def test_a_module_runs_again_after_a_barrier_fault(modules: dict[str, str]) -> None:
    """The threads parked when a block faulted are abandoned; the next launch
    makes its fibers afresh."""
    module = emulate.load(modules["planted"])
    with pytest.raises(EmulationFault, match="barrier divergence"):
        module.launch("diverge", (1, 1, 1), (BLOCK, 1, 1), [np.arange(BLOCK, dtype=np.int32)])
    log = np.zeros(1 + 2 * BLOCK, dtype=np.int32)
    module.launch("trace", (1, 1, 1), (BLOCK, 1, 1), [log], REVERSE)
    assert log[0] == 2 * BLOCK
    assert (log[1 : 1 + BLOCK] == np.arange(BLOCK)[::-1]).all()


def test_threads_run_between_barriers_in_the_schedules_order(modules: dict[str, str]) -> None:
    module = emulate.load(modules["correct"])
    for schedule in (FORWARD, REVERSE, SHUFFLED, Schedule("shuffled", 7)):
        log = np.zeros(1 + 2 * BLOCK, dtype=np.int32)
        module.launch("trace", (1, 1, 1), (BLOCK, 1, 1), [log], schedule)
        first, second = log[1 : 1 + BLOCK], log[1 + BLOCK :]
        # each interval runs the threads of its order that have yet to reach
        # the barrier (under shuffled, the warps it leaves out run in a later
        # one: lagging_warps_run_later below)
        expected, interval = [], 0
        for _ in range(2):
            arrived: set[int] = set()
            while len(arrived) < BLOCK:
                for t in schedule.thread_order(0, BLOCK, interval).tolist():
                    if t not in arrived:
                        arrived.add(t)
                        expected.append(t)
                interval += 1
        assert first.tolist() == expected[:BLOCK] and second.tolist() == expected[BLOCK:]
        assert (first != second).any() == (schedule.name == "shuffled")  # reshuffled at the barrier


def test_lagging_warps_run_later() -> None:
    """Under shuffled a third of a block's warps sit each interval out, never
    all of them; the other schedules run every thread in every interval."""
    threads = 8 * 32
    shuffled = Schedule("shuffled", 3)
    sat_out = [threads - len(shuffled.thread_order(0, threads, k)) for k in range(60)]
    assert all(n % 32 == 0 and n < threads for n in sat_out)
    assert 0.2 < sum(sat_out) / (60 * threads) < 0.45
    for name in ("forward", "reverse", "strided"):
        assert len(Schedule(name).thread_order(0, threads, 5)) == threads
    assert len(shuffled.thread_order(0, 32, 1)) == 32  # one warp always runs


# -- (f) dynamic shared memory


def dyn_spec(name: str) -> KernelSpec:
    return KernelSpec(name, (Param("dst", "out", "4*n"), Param("src", "in", "4*n")), grid="n // block", block=BLOCK,
                      shared="4*block", align=4)


@pytest.mark.parametrize("kernel", ["dyn_mirror", "dyn_stage"])
def test_dynamic_shared_memory(modules: dict[str, str], kernel: str) -> None:
    """extern __shared__ runs with barriers (fibers) and without (the
    native loop); a launch that states too little of it is a fault."""
    module = emulate.load(modules["correct"])
    src = np.arange(3 * BLOCK, dtype=np.float32)
    for schedule in SCHEDULES:
        dst = np.zeros_like(src)
        module.launch(kernel, (3, 1, 1), (BLOCK, 1, 1), [dst, src], schedule, shared_bytes=4 * BLOCK)
        expected = src.reshape(3, BLOCK)[:, ::-1].ravel() if kernel == "dyn_mirror" else 2 * src
        assert (dst == expected).all()
    results = run_check(modules, dyn_spec(kernel), 2 * BLOCK, optimized="correct")
    assert len(results) == len(LAYOUTS) * len(SCHEDULES) and all(r.match for r in results)
    with pytest.raises(EmulationFault, match=f"kernel {kernel}: a block wrote past its 252 bytes of dynamic shared memory"):
        module.launch(kernel, (3, 1, 1), (BLOCK, 1, 1), [dst, src], shared_bytes=4 * BLOCK - 4)
    with pytest.raises(CoaldaError, match="dynamic shared memory of 65536 bytes"):
        module.launch(kernel, (3, 1, 1), (BLOCK, 1, 1), [dst, src], shared_bytes=65536)


# -- (g) guard zones on both sides


def test_a_write_before_the_buffer_is_caught(modules: dict[str, str]) -> None:
    spec = KernelSpec("guarded_copy", (Param("dst", "out", "n"), Param("src", "in", "n")), grid="n // block", block=BLOCK)
    results = run_check(modules, spec, 2 * BLOCK)
    assert results and all(
        r.verdict is Verdict.MISMATCH and r.detail == "dst: written before its start (guard zone before it changed)"
        for r in results
    ), [r.detail for r in results]
    control = run_check(modules, spec, 2 * BLOCK, optimized="correct")
    assert all(r.match for r in control)


# -- layouts and schedules themselves


def test_layouts_misalign_and_guard_every_buffer() -> None:
    spec = chain_spec()
    rng = np.random.default_rng(0)
    starts = {}
    for layout in LAYOUTS:
        args = make_args(spec, 100, rng, layout)
        buffers = [a for a in args if not isinstance(a, int)]
        assert all(b.guard_intact() and b.storage.ctypes.data % 64 == 0 for b in buffers)
        assert all((b.storage[: b.offset] == b.poison).all() and (b.storage[b.offset + b.size :] == b.poison).all()
                   for b in buffers)
        # each buffer's guards hold a poison of their own
        assert len({b.poison for b in buffers}) == len(buffers) and buffers[0].poison == POISON
        starts[layout.name] = [(b.storage.ctypes.data + b.offset) % 16 for b in buffers]
    assert starts == {"aligned": [0, 0, 0], "offset": [1, 1, 1], "offset-max": [15, 15, 15], "mixed": [0, 4, 0]}
    four = KernelSpec("k", (Param("d", "out", "n"), Param("s", "in", "n")), align=4)
    assert [(make_args(four, 8, rng, layout)[1].offset - GUARD) for layout in LAYOUTS] == [0, 4, 12, 12]  # type: ignore[union-attr]


def test_the_alias_layout_keeps_given_contents_apart() -> None:
    """Every buffer at one address, but the one whose contents the spec
    gives (a bound, indices): the whole grid's writes through the others
    would change it, and a kernel that indexes with it would run wild (the
    emulator runs native code: it crashed on the staging adversary)."""
    spec = KernelSpec("k", (Param("d", "out", "4*n"), Param("s", "in", "4*n"), Param("lim", "in", "4", "n"),
                            Param("n", "value", "n")), align=4)
    d, s, lim, n = make_args(spec, 64, np.random.default_rng(0), ALIAS_LAYOUT)
    assert d.storage is s.storage and d.offset == s.offset  # type: ignore[union-attr]
    assert lim.storage is not d.storage and lim.guard_intact()  # type: ignore[union-attr]
    assert lim.storage[lim.offset : lim.offset + 4].view("<i4")[0] == 64 and n == 64  # type: ignore[union-attr]
    # the one-thread overlap layouts keep every buffer in the one allocation
    assert all(len({id(a.storage) for a in make_args(spec, 64, np.random.default_rng(0), layout)
                    if not isinstance(a, int)}) == 1 for layout in OVERLAP_LAYOUTS)


def test_overlap_layouts_share_one_allocation(modules: dict[str, str]) -> None:
    spec = KernelSpec("guarded_copy", (Param("dst", "out", "n"), Param("src", "in", "n")), grid="n // block", block=BLOCK)
    for layout, shift in zip(OVERLAP_LAYOUTS, (1, -1)):
        dst, src = make_args(spec, 64, np.random.default_rng(0), layout)
        assert dst.storage is src.storage and dst.offset - src.offset == shift  # type: ignore[union-attr]
    results = run_check(modules, spec, 2 * BLOCK, optimized="correct", layouts=(), overlap=True)
    assert [(r.layout, r.schedule, r.match) for r in results] == [("overlap", "forward", True), ("overlap-back", "forward", True)]
    # The plant's dst[-1] = src[0]: with dst = src + 1 that byte is src[0]
    # itself (no change); with dst = src - 1 it lies before the allocation.
    overlap, back = run_check(modules, spec, 2 * BLOCK, layouts=(), overlap=True)
    assert overlap.match and back.detail == "dst: written before its start (guard zone before it changed)"


def test_schedules_are_typed_and_seeded() -> None:
    assert [str(s) for s in SCHEDULES] == ["forward", "reverse", "shuffled(1)", "strided"]
    # strided: lane k of every warp before lane k+1; odd blocks first
    assert list(Schedule("strided").thread_order(0, 66, 0)[:6]) == [0, 32, 64, 1, 33, 65]
    assert list(Schedule("strided").block_order(4)) == [1, 3, 0, 2]
    assert (SHUFFLED.grid_order(4, 8) == Schedule("shuffled", 1).grid_order(4, 8)).all()
    assert (SHUFFLED.grid_order(4, 8) != Schedule("shuffled", 2).grid_order(4, 8)).any()
    order = SHUFFLED.grid_order(4, 8)
    assert sorted(order.tolist()) == list(range(32))
    assert all(len(set(order[8 * b : 8 * b + 8] // 8)) == 1 for b in range(4))  # blocks stay whole
    assert (REVERSE.grid_order(2, 3) == [5, 4, 3, 2, 1, 0]).all()
    with pytest.raises(CoaldaError, match="unknown schedule 'sideways'"):
        Schedule("sideways")


def test_coalda_run_emulates_the_shared_tile_testcase(shared_tile: Artifacts) -> None:
    proc = run_cli("run", TESTCASES / "shared_tile.cu", "--emulate")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    # 3 kernels x 2 sizes x 4 layouts x 4 schedules, plus for
    # mirror_tile_aliased (the only one without __restrict__) 2 overlap
    # layouts x 2 sizes and the alias layout's 4 schedules x 2 sizes
    assert "All 108 comparisons match byte for byte." in proc.stdout
    # The fill of the kernel without __restrict__ is rewritten too: dst is
    # written only after the barrier that ends it.
    report = json.loads(shared_tile.report.read_text())
    rewritten = {k["name"]: any(g["transformed"] for g in k["groups"]) for k in report["kernels"]}
    assert rewritten == {"mirror_tile": True, "mirror_tile_racy": False, "mirror_tile_aliased": True}


def test_coalda_run_says_racy_original_and_race_apart(tmp_path: Path) -> None:
    source = tmp_path / "racy.cu"
    source.write_text(SOURCE)
    spec = tmp_path / "racy.toml"
    spec.write_text(
        "sizes = [128]\n[kernels.shift]\nblock = 64\ngrid = \"n // block\"\n"
        "params = [{ name = \"a\", inout = \"n\" }, { name = \"b\", inout = \"n\" }, { name = \"n\", value = \"n\" }]\n"
    )
    proc = run_cli("run", source, "--emulate", "-D", "PLANT")
    assert proc.returncode == 1
    assert "RACY ORIGINAL" in proc.stdout
    error = proc.stderr.strip().splitlines()
    assert len(error) == 1 and error[0].startswith("coalda: error: racy original: the result of shift depends on the schedule")


MISALIGNED = """
__global__ void bounded(char *dst, const char *src, const int *np) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < *np) dst[i] = src[i];
}
"""


def test_a_misaligned_access_faults_as_on_the_gpu(tmp_path: Path) -> None:
    """The GPU faults on a load that is less aligned than it declares; the
    host would not. A spec whose layouts misalign the int bound (align = 1)
    is caught by the emulator as a fault, and align = 4 runs."""
    source = tmp_path / "bounded.cu"
    source.write_text(MISALIGNED)
    spec = tmp_path / "bounded.toml"
    params = 'params = [{ name = "dst", out = "n" }, { name = "src", in = "n" }, { name = "np", in = 4, int32 = "n" }]'
    spec.write_text(f"sizes = [100]\n[kernels.bounded]\nblock = 32\ngrid = 4\n{params}\n")
    proc = run_cli("run", source, "--emulate")
    assert proc.returncode == 1
    assert "misaligned access" in proc.stderr and "Traceback" not in proc.stderr
    spec.write_text(f"sizes = [100]\n[kernels.bounded]\nalign = 4\nblock = 32\ngrid = 4\n{params}\n")
    proc = run_cli("run", source, "--emulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr


VECTOR_MISALIGNED = """
typedef float f4u __attribute__((ext_vector_type(4), aligned(16)));
__global__ void vec(f4u *dst, const f4u *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i] = src[i] * 2.f;
}
"""


def test_a_misaligned_vector_access_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    """A 16-byte vector access at a 4-byte aligned address: the host's
    aligned vector move would kill the emulator (SIGSEGV) before the fault
    flag is read; the access is emulated unaligned and reported as the GPU's
    fault."""
    source = tmp_path / "vec.cu"
    source.write_text(VECTOR_MISALIGNED)
    spec = tmp_path / "vec.toml"
    params = 'params = [{ name = "dst", out = "16*n" }, { name = "src", in = "16*n" }]'
    spec.write_text(f"sizes = [64]\n[kernels.vec]\nalign = 4\nblock = 32\ngrid = 2\n{params}\n")
    proc = run_cli("run", source, "--emulate")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "misaligned access" in proc.stderr and "Traceback" not in proc.stderr


def test_fibers_say_in_one_line_where_they_cannot_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fibers need glibc's ucontext on a 64-bit Linux; elsewhere the
    emulator refuses with one line instead of failing inside the JIT."""
    from coalda.emulator import fibers

    monkeypatch.setattr(fibers, "_LIBC", None)
    monkeypatch.setattr(fibers.sys, "platform", "darwin")
    with pytest.raises(fibers.FibersUnavailable, match=r"^the CPU emulator needs 64-bit Linux \(its threads are glibc ucontext fibers\)$"):
        fibers.libc_symbols()


BLOCK_REDUCTIONS = """
// Threads past n return before the barriers: they are not waited for and
// not counted. Two barriers in a row with different ids are two barriers.
__global__ void reductions(int *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  int third = t % 3 == 0;
  int c = __syncthreads_count(third);
  int a = __syncthreads_and(t < n);
  int a2 = __syncthreads_and(third);
  int o = __syncthreads_or(t == n - 1);
  int o2 = __syncthreads_or(0);
  out[t * 5 + 0] = c;
  out[t * 5 + 1] = a;
  out[t * 5 + 2] = a2;
  out[t * 5 + 3] = o;
  out[t * 5 + 4] = o2;
}
"""


@pytest.mark.parametrize("schedule", [FORWARD, REVERSE, SHUFFLED], ids=str)
@pytest.mark.parametrize("n", [50, 64, 1])
def test_block_reductions_count_the_threads_that_wait(tmp_path: Path, schedule: object, n: int) -> None:
    """__syncthreads_count/and/or give each waiting thread the count, and,
    or of the waiting threads' predicates, whichever order they arrive in
    (the barriers open in the JIT code between intervals, for every
    schedule but shuffled, and from the launcher for shuffled)."""
    source = tmp_path / "reductions.cu"
    source.write_text(BLOCK_REDUCTIONS)
    ir = tmp_path / "reductions.ll"
    compile_to_ir(source, CompileOptions(opt_level=3), ir)
    module = emulate.load(ir.read_text())
    out = np.full(64 * 5, -7, np.int32)
    module.launch("_Z10reductionsPii", (1, 1, 1), (64, 1, 1), [out, n], schedule)  # type: ignore[arg-type]
    expected = [sum(1 for t in range(n) if t % 3 == 0), 1, int(n == 1), 1, 0]
    rows = out.reshape(64, 5)
    assert (rows[:n] == expected).all(), rows[:n].tolist()
    assert (rows[n:] == -7).all()
