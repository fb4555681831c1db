"""The emulator runs the warp collectives: shuffles, votes and reductions
(coalda/emulator/threads.py), as PTX defines them.

Each kernel applies one collective to random per-lane operands; the
reference below computes CUDA's documented result warp by warp, from the
lane's index, the mask, the offset and the width. Divergent calls with
partial masks, partial last warps, calls at two sites that pair up, and a
lane missing from its own mask are covered too. The reductions are called
through clang's builtins (value, mask): clang 19's `__reduce_*_sync(mask,
value)` passes them the other way round, which the GPU runs as an illegal
instruction and the emulator reports (test_clang_19_reduce_add_sync_swaps). scripts/nvvm_fidelity.py
runs the same kernels on a GPU against the emulator
(docs/runs/nvvm-fidelity-h200.txt).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from coalda.emulator import emulate
from coalda.driver.compile import CompileOptions, compile_to_ir
from coalda.emulator.schedule import SCHEDULES, Schedule
from coalda.emulator.threads import EmulationFault
from test_emulate_math import MACROS

N = 4096
BLOCK = 256
WARP = 32

KERNELS = r"""
F2(shfl_down, int, int, __shfl_down_sync(~0u, x, y & 31))
F2(shfl_up16, int, int, __shfl_up_sync(~0u, x, y & 15, 16))
F2(shfl_xor, float, float, __shfl_xor_sync(~0u, x, 5))
F2(shfl_idx8, int, int, __shfl_sync(~0u, x, y, 8))
F2(shfl_idx, int, int, __shfl_sync(~0u, x, y & 31))
F2(shfl_half, int, int, (threadIdx.x & 31) < 16 ? __shfl_sync(0xffffu, x, y & 15) : x)
F2(ballot, unsigned, int, __ballot_sync(~0u, x > y))
F2(ballot_odd, unsigned, int, (threadIdx.x & 1) ? __ballot_sync(0xaaaaaaaau, x > y) : 7u)
F2(any_, int, int, __any_sync(~0u, x > y))
F2(all_, int, int, __all_sync(~0u, x > y))
F2(uni_, int, int, __uni_sync(~0u, (y & 0x40000000) != 0))
F2(redux_add, int, int, __nvvm_redux_sync_add(x, ~0u))
F2(redux_min, int, int, __nvvm_redux_sync_min(x, ~0u))
F2(redux_umax, unsigned, unsigned, __nvvm_redux_sync_umax(x, ~0u))
F2(redux_xor, unsigned, unsigned, __nvvm_redux_sync_xor(x, ~0u))
F2(redux_and, unsigned, unsigned, __nvvm_redux_sync_and(x | y, ~0u))
F2(two_sites, int, int, (threadIdx.x & 31) < 16 ? __shfl_sync(~0u, x, 31) : __shfl_sync(~0u, x + 1, 0))
"""
SOURCE = MACROS + KERNELS + r"""
// a warp reduction over a partial last warp, and a lane missing from its mask
extern "C" __global__ void warp_sum(int *o, const int *a) {
  int x = a[blockIdx.x * blockDim.x + threadIdx.x];
  for (int d = 16; d > 0; d /= 2)
    x += __shfl_down_sync(~0u, x, d);
  if ((threadIdx.x & 31) == 0)
    o[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = x;
}
extern "C" __global__ void own_lane_missing(int *o, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = __shfl_sync(0xfffffffeu, a[i], 1);
}
// __activemask() after a data-dependent early return: the lanes that run
// together (CUDA promises only that the caller's own lane is in it)
extern "C" __global__ void active_after_exit(unsigned *o, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (a[i] & 1)
    return;
  o[i] = __activemask();
}
// __activemask() in a loop: each lane's mask, and the iteration of the
// mask's first lane (a GPU may run lanes of two iterations together)
// (a run-time trip count: the loop stays a loop, one call site)
extern "C" __global__ void active_in_loop(unsigned *o, int *lead_k, int trips) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < trips; ++k) {
    unsigned m = __activemask();
    lead_k[4 * i + k] = __shfl_sync(m, k, __ffs(m) - 1);
    o[4 * i + k] = m;
  }
}
// __activemask() at two call sites of one warp in one interval: the lanes
// at each site read their own site's mask (not the other site's lanes)
extern "C" __global__ void active_two_sites(unsigned *o, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (a[i] & 1)
    o[i] = __activemask() ^ 0x1u;
  else
    o[i] = __activemask() ^ 0x2u;
}
// a shuffle whose lanes name two different masks: lane 0's mask names lane
// 1, which waits at a shuffle with the whole warp's mask; neither opens
extern "C" __global__ void masks_disagree(int *o, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = (threadIdx.x & 31) == 0 ? __shfl_sync(0x3u, a[i], 1) : __shfl_sync(~0u, a[i], 0);
}
// clang 19's header passes __reduce_add_sync's mask as the value and the
// value as the mask (__nvvm_redux_sync_add(src, mask))
extern "C" __global__ void reduce_header(int *o, const int *a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = __reduce_add_sync(~0u, a[i]);
}
"""


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> emulate.EmulatedModule:
    tmp = tmp_path_factory.mktemp("warp")
    (tmp / "warp.cu").write_text(SOURCE)
    compile_to_ir(tmp / "warp.cu", CompileOptions(), tmp / "warp.ll")
    return emulate.load((tmp / "warp.ll").read_text())


def ints(seed: int, dtype: type = np.int32) -> np.ndarray:
    info = np.iinfo(dtype)
    return np.random.default_rng(seed).integers(info.min, info.max, N, dtype=dtype, endpoint=True)


def per_warp(x: np.ndarray, y: np.ndarray, lane_result: Callable[[int, np.ndarray, np.ndarray], object]) -> list:
    """Each lane's result, from its lane index and its warp's x and y."""
    out = []
    for w in range(N // WARP):
        xs, ys = x[w * WARP:(w + 1) * WARP], y[w * WARP:(w + 1) * WARP]
        out += [lane_result(lane, xs, ys) for lane in range(WARP)]
    return out


def shuffle(source: Callable[[int, int], int | None]) -> Callable[[int, np.ndarray, np.ndarray], object]:
    """The value of the lane SOURCE(lane, y) names, or the lane's own."""
    def lane_result(lane: int, xs: np.ndarray, ys: np.ndarray) -> object:
        s = source(lane, int(ys[lane]))
        return xs[s if s is not None else lane]
    return lane_result


def within(width: int, s: int, lane: int) -> int | None:
    """A source lane inside the lane's segment of WIDTH lanes, else None."""
    return s if lane // width == s // width and 0 <= s < WARP else None


CASES: list[tuple[str, type, type, Callable[[int, np.ndarray, np.ndarray], object]]] = [
    ("shfl_down", np.int32, np.int32, shuffle(lambda lane, y: within(32, lane + (y & 31), lane))),
    ("shfl_up16", np.int32, np.int32, shuffle(lambda lane, y: within(16, lane - (y & 15), lane))),
    ("shfl_idx8", np.int32, np.int32, shuffle(lambda lane, y: lane // 8 * 8 + y % 8)),
    ("shfl_idx", np.int32, np.int32, shuffle(lambda lane, y: y & 31)),
    ("shfl_half", np.int32, np.int32, shuffle(lambda lane, y: (y & 15) if lane < 16 else None)),
    ("two_sites", np.int32, np.int32,
     lambda lane, xs, ys: xs[31] + 1 if lane < 16 else xs[0]),
    ("ballot", np.int32, np.uint32,
     lambda lane, xs, ys: sum(1 << k for k in range(WARP) if xs[k] > ys[k])),
    ("ballot_odd", np.int32, np.uint32,
     lambda lane, xs, ys: sum(1 << k for k in range(1, WARP, 2) if xs[k] > ys[k]) if lane & 1 else 7),
    ("any_", np.int32, np.int32, lambda lane, xs, ys: int(bool((xs > ys).any()))),
    ("all_", np.int32, np.int32, lambda lane, xs, ys: int(bool((xs > ys).all()))),
    ("uni_", np.int32, np.int32, lambda lane, xs, ys: int(len({int(v) >> 30 & 1 for v in ys}) == 1)),
    ("redux_add", np.int32, np.int32, lambda lane, xs, ys: int(xs.astype(np.int64).sum())),
    ("redux_min", np.int32, np.int32, lambda lane, xs, ys: int(xs.min())),
    ("redux_umax", np.uint32, np.uint32, lambda lane, xs, ys: int(xs.max())),
    ("redux_xor", np.uint32, np.uint32, lambda lane, xs, ys: int(np.bitwise_xor.reduce(xs))),
    ("redux_and", np.uint32, np.uint32, lambda lane, xs, ys: int(np.bitwise_and.reduce(xs | ys))),
]


@pytest.mark.parametrize(("name", "itype", "otype", "lane_result"), CASES, ids=[c[0] for c in CASES])
def test_warp_collective_computes_what_cuda_defines(
    module: emulate.EmulatedModule, name: str, itype: type, otype: type,
    lane_result: Callable[[int, np.ndarray, np.ndarray], object],
) -> None:
    x, y = ints(1, itype), ints(2, itype)
    if name == "uni_":  # some warps uniform, some not
        y[: N // 2] &= ~np.array(0x40000000, dtype=itype)
    if name in ("any_", "all_"):  # some warps all true, some all false, the others mixed
        x[: N // 4], x[N // 4 : N // 2] = np.iinfo(itype).max, np.iinfo(itype).min
        y[: N // 4] = np.minimum(y[: N // 4], np.iinfo(itype).max - 1)
    got = np.zeros(N, dtype=otype)
    module.launch(name, (N // BLOCK, 1, 1), (BLOCK, 1, 1), [got, x, y])
    want = np.array([int(v) % (1 << 32) for v in per_warp(x, y, lane_result)], dtype=np.uint64).astype(np.uint32)
    assert np.array_equal(got.view(np.uint32), want), name
    if name in ("uni_", "any_", "all_"):
        assert 0 < got.sum() < N  # both answers occur


def test_float_shuffles_move_bits(module: emulate.EmulatedModule) -> None:
    x = ints(3).view(np.float32)  # NaNs with payloads included: a shuffle moves bits
    got = np.zeros(N, dtype=np.float32)
    module.launch("shfl_xor", (N // BLOCK, 1, 1), (BLOCK, 1, 1), [got, x, x.copy()])
    assert np.array_equal(got.view(np.uint32), x.view(np.uint32).reshape(-1, WARP)[:, np.arange(WARP) ^ 5].ravel())


@pytest.mark.parametrize("block", [256, 48, 100])
def test_warp_reduction_over_partial_warps(module: emulate.EmulatedModule, block: int) -> None:
    """A tree of __shfl_down_sync: each full warp sums its 32 values; in a
    partial last warp the missing lanes read nothing (the reader keeps its
    own value), and the emulator neither waits for them nor deadlocks."""
    blocks = 4
    a = ints(4) % 1000
    out = np.zeros(blocks * block // WARP + blocks, dtype=np.int32)
    module.launch("warp_sum", (blocks, 1, 1), (block, 1, 1), [out, a])
    for b in range(blocks):
        for w in range(0, block, WARP):
            if w + WARP <= block:
                first = b * block + w
                assert out[first // WARP] == a[first:first + WARP].sum(), (block, b, w)


def test_a_lane_missing_from_its_own_mask_is_reported(module: emulate.EmulatedModule) -> None:
    out = np.zeros(64, dtype=np.int32)
    with pytest.raises(EmulationFault, match=r"__shfl_sync\(0xfffffffe\).*without its own lane 0"):
        module.launch("own_lane_missing", (1, 1, 1), (64, 1, 1), [out, ints(5)[:64].copy()])


def test_clang_19_reduce_add_sync_swaps_its_operands(module: emulate.EmulatedModule) -> None:
    """clang 19's __reduce_add_sync(mask, value) calls
    __nvvm_redux_sync_add(mask, value), whose operands are (value, mask):
    each lane's random value becomes its mask. An H200 stops the kernel
    (CUDA_ERROR_ILLEGAL_INSTRUCTION: docs/runs/nvvm-fidelity-clang19-reduce-h200.txt);
    the emulator names the mask that leaves out its own lane."""
    a = ints(6)[:64].copy()
    a[:] = a & ~1  # lane 0's mask without lane 0
    with pytest.raises(EmulationFault, match=r"__reduce_add_sync\(0x[0-9a-f]{8}\).*without its own lane 0"):
        module.launch("reduce_header", (1, 1, 1), (64, 1, 1), [np.zeros(64, dtype=np.int32), a])


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
@pytest.mark.parametrize("block", [256, 48])
def test_activemask_names_the_lanes_that_run_together(module: emulate.EmulatedModule, schedule: Schedule,
                                                      block: int) -> None:
    """`__activemask()` after an early return: each lane's mask holds its own
    lane and only lanes that did not return, and the lanes named in a mask
    read that same mask (they ran it together). Under every schedule but
    shuffled all remaining lanes run together; under shuffled some warps
    split in two (a GPU may run them apart), others do not, so code that
    waits for a full mask runs both ways."""
    blocks = 8
    n = blocks * block
    a = ints(7)[:n].copy()
    a[: n // 2] &= ~1  # the first half: no lane returns (full warps)
    got = np.full(n, 0xDEADBEEF, dtype=np.uint32)
    module.launch("active_after_exit", (blocks, 1, 1), (block, 1, 1), [got, a], schedule=schedule)
    split = whole = 0
    for b in range(blocks):
        for w in range(0, block, WARP):
            first, lanes = b * block + w, min(WARP, block - w)
            live = {k for k in range(lanes) if not a[first + k] & 1}
            alive_mask = sum(1 << k for k in live)
            for k in range(lanes):
                if k not in live:
                    assert got[first + k] == 0xDEADBEEF  # returned: wrote nothing
                    continue
                mask = int(got[first + k])
                assert mask >> k & 1 and mask & ~alive_mask == 0, (b, w, k, hex(mask))
                assert all(int(got[first + j]) == mask for j in range(lanes) if mask >> j & 1)
            masks = {int(got[first + k]) for k in live}
            split += len(masks) > 1
            whole += masks == {alive_mask}
    if schedule.name == "shuffled":
        assert split and whole
    else:
        assert split == 0


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_activemask_in_a_loop_may_name_lanes_of_two_iterations(module: emulate.EmulatedModule,
                                                              schedule: Schedule) -> None:
    """`__activemask()` in a loop: under shuffled, half of a split warp is
    sometimes held at the call until the other half comes back to it in the
    next iteration, so one mask names lanes of two iterations (a GPU may
    group them: its scheduler groups lanes by program counter); every lane
    still runs every iteration. Under the other schedules a warp's lanes
    always read the full mask in the same iteration."""
    blocks, block = 4, 128
    n = blocks * block
    masks = np.full(4 * n, 0xDEADBEEF, dtype=np.uint32)
    lead_k = np.full(4 * n, -1, dtype=np.int32)
    module.launch("active_in_loop", (blocks, 1, 1), (block, 1, 1), [masks, lead_k, np.int32(4)], schedule=schedule)
    lane = np.repeat(np.arange(n) % WARP, 4)
    assert np.all(masks >> lane.astype(np.uint32) & 1)  # every lane ran every iteration, in its own mask
    k = np.tile(np.arange(4), n)
    mixed = int(np.count_nonzero(lead_k != k))
    if schedule.name == "shuffled":
        assert mixed and np.count_nonzero(masks == 0xFFFFFFFF)
    else:
        assert mixed == 0 and np.all(masks == 0xFFFFFFFF)


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_activemask_at_two_sites_names_each_sites_lanes(module: emulate.EmulatedModule, schedule: Schedule) -> None:
    """The lanes of a warp split between two `__activemask()` calls of one
    interval: each lane's mask holds only lanes at its own call (under
    every schedule; under all but shuffled, all of them)."""
    n = 256
    a = ints(8)[:n].copy()
    got = np.zeros(n, dtype=np.uint32)
    module.launch("active_two_sites", (1, 1, 1), (n, 1, 1), [got, a], schedule=schedule)
    for w in range(0, n, WARP):
        odd = sum(1 << k for k in range(WARP) if a[w + k] & 1)
        for k in range(WARP):
            mask = int(got[w + k]) ^ (0x1 if a[w + k] & 1 else 0x2)
            site = odd if a[w + k] & 1 else ~odd & 0xFFFFFFFF
            assert mask >> k & 1 and mask & ~site == 0, (w, k, hex(mask), hex(site))
            if schedule.name != "shuffled":
                assert mask == site, (w, k, hex(mask), hex(site))


@pytest.mark.parametrize("schedule", SCHEDULES, ids=str)
def test_lanes_that_name_different_masks_deadlock(module: emulate.EmulatedModule, schedule: Schedule) -> None:
    """A collective opens only when its mask's lanes wait with that same
    mask: lane 0 names lanes 0-1 (0x3), lane 1 waits with the whole warp's
    mask, which lane 0 never joins, so nothing opens."""
    out = np.zeros(32, dtype=np.int32)
    with pytest.raises(EmulationFault, match=r"deadlock at barriers"):
        module.launch("masks_disagree", (1, 1, 1), (32, 1, 1), [out, ints(9)[:32].copy()], schedule=schedule)
