"""The transpose adversary (testcases/adversarial/transposes.cu): which
kernels the transposed-store rewrite takes at -O3 and -O0 and how (the way
the block decides to take the staged path, the threads and bytes of its
tiles, its run-time overlap checks), and why the others are left alone.

A transposed store (`out[x*N + y]` from a 2-D block) is permuted through a
padded __shared__ tile: each thread puts its value in slot y*(ntid.x+1) + x
and, after a barrier, thread q stores slot (q / ntid.y, q % ntid.y), its
address recomputed for that owner or read from an address tile. The corpus
attacks the block shapes it must refuse at run time (1-D, one warp, 3-D),
the guards every thread must decide alike (min, lower bounds, parity,
reversed lanes, a wrapping unsigned y), addresses it must recompute or
carry (loaded per-block and per-row offsets, swapped thread roles), element
types up to 16-byte integers and a 48 KB tile, views of one buffer and
read-backs it must check, read-modify-writes around stores and barriers,
and exits, loops and collectives around the store.
tests/test_adversarial.py runs every kernel through the differential oracle
at -O0 and -O3 (every layout and schedule, sizes 1, 33 and 70); here the
decisions are pinned, so that the kernels that attack the permuted code
stay permuted and the ones the pass must refuse stay refused.

No miscompile found so far (2670 comparisons at each level).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, differing_kernels, in_function, optimize_levels, plant, run_in_process

SOURCE = TESTCASES / "adversarial" / "transposes.cu"
LEVELS = (3, 0)
PASS_ARGS = ("--pass-arg=-coalda-stage-small-always",)  # as tests/test_adversarial.py builds the corpus

# kernel -> go ("uniform", "vote" or "shape") of its transposed staging,
# at both levels.
GO_BOTH = {
    "shape_tall": "uniform", "shape_flat": "uniform", "shape_one_warp": "uniform", "shape_1024": "uniform",
    "shape_column": "uniform", "shape_3d": "uniform", "shape_batch_z": "uniform", "shape_extra_blocks": "uniform",
    "guard_min": "vote", "guard_after_load": "uniform", "guard_lower_bound": "vote", "guard_submatrix": "uniform",
    "guard_wrap_y": "uniform",
    "idx_swapped_tid": "uniform", "idx_interleave": "uniform",
    "ty_char": "uniform", "ty_u128": "uniform",
    "view_halves": "uniform", "view_readback_own": "vote", "view_readback_other": "vote",
    "view_inplace_block": "uniform",
    "rmw_add": "uniform", "rmw_store_between": "uniform", "rmw_after_barrier": "uniform",
    "ctl_shared_budget": "uniform", "ctl_launch_bounds": "uniform", "ctl_return_after": "vote",
    "ctl_read_after_merge": "uniform", "ctl_exit_noguard": "vote", "ctl_divergent_after": "vote",
    "ctl_shuffle": "shape", "ctl_two_outputs": "vote", "ctl_two_guards": "uniform",
}
GO = {
    # -O3: the && chain with a parity test is one branch; one store of a
    # select for the if/else; 64-bit bounds folded (vote); the read-back's
    # check has the same thread terms as the element (uniform).
    # The reversed lane's ~tid reads as -1 - tid (its bound is a suffix: vote).
    3: GO_BOTH | {"guard_parity": "vote", "ctl_if_else": "uniform", "idx_size_t": "vote",
                  "view_negative_offset": "uniform", "guard_reversed_lane": "vote"},
    # -O0: the reversed lane is read (its bound is a suffix: vote); loaded
    # offsets stay where they were loaded (address tiles); the plain store
    # and its read-modify-write are two blocks; the loop is not unrolled.
    0: GO_BOTH | {"guard_reversed_lane": "vote", "idx_size_t": "uniform", "view_negative_offset": "vote",
                  "idx_block_offset": "uniform", "idx_row_loaded_half": "uniform", "ty_u128_shift": "uniform",
                  "rmw_after_store": "uniform", "ctl_loop_before": "uniform", "ctl_two_tiles": "vote"},
}

# Left alone, kernel -> a piece of its staging's reason (None: no candidate
# at all, the store not a transposed one made once per thread).
LEFT_ALONE_BOTH: dict[str, str | None] = {
    "view_inplace_pairs": None,  # two stores to one base in the block
    "rmw_atomic": None,  # an atomic, not a store
    "rmw_barrier_inside": "a call between the accesses may touch the staged elements: __syncthreads()",
    "ctl_data_dependent": "the branch before the accesses is not reached once by every thread",
    "ctl_grid_stride": "the transposed store is in a loop",
}
FROM_MEMORY = "is computed from memory the guard reads"
LEFT_ALONE: dict[int, dict[str, str | None]] = {
    3: LEFT_ALONE_BOTH | {
        "idx_block_offset": FROM_MEMORY, "idx_row_loaded_half": FROM_MEMORY, "ty_u128_shift": FROM_MEMORY,
        "ctl_two_tiles": FROM_MEMORY,
        "rmw_after_store": None,  # both stores in one block
        "ctl_loop_before": None,  # the unrolled loop's store address is a phi
        "ty_float2": None,  # two member stores, no transposed candidate
    },
    0: LEFT_ALONE_BOTH | {
        "guard_parity": "the accesses are not behind one branch",
        "ctl_if_else": "the branch before the accesses is not reached once by every thread",
        # -O0's SROA splits the float2 copy into two member loads and
        # stores; the read is an element staging candidate, which the
        # backend's vector takes
        "ty_float2": "moved as one vector per thread by the backend",
    },
}

# Threads the tiles are sized for, where not 1024: 44 KB of the kernel's
# own shared memory beside them; __launch_bounds__(128).
THREADS = {"ctl_shared_budget": 512, "ctl_launch_bounds": 128}
# Tile bytes (values, and 8-byte addresses where the address is not
# recomputed, times two for the padding), where not 8192 (4-byte values at
# 1024 threads).
TILE_BYTES_BOTH = {"ty_char": 2048, "ty_u128": 32768, "ctl_shared_budget": 4096, "ctl_launch_bounds": 1024,
                   "ctl_two_outputs": 16384}
TILE_BYTES = {
    3: TILE_BYTES_BOTH,
    0: TILE_BYTES_BOTH | {"idx_block_offset": 24576, "idx_row_loaded_half": 24576, "ty_u128_shift": 49152,
                          "ctl_two_tiles": 32768},
}
# Run-time overlap checks, where there are any: only accesses that may
# follow the deferred store through a pointer that may be out (reads back,
# stores to r), and two written arrays against each other.
CHECKS_BOTH = {"view_readback_own": 2, "view_readback_other": 2, "view_negative_offset": 1, "ctl_return_after": 1,
               "ctl_two_outputs": 1}
CHECKS = {
    3: CHECKS_BOTH | {"ctl_divergent_after": 1},  # the two stores to r are one select's
    0: CHECKS_BOTH | {"ctl_divergent_after": 2, "ctl_two_tiles": 1},
}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[int, tuple[Path, dict]]:
    return optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-transposes"), LEVELS, *PASS_ARGS)


def stagings(report: dict) -> dict[str, list[dict]]:
    return {k["name"]: k.get("stagings", []) for k in report["kernels"]}


def transposed(report: dict) -> dict[str, dict]:
    """Kernel -> its transformed staging (at most one per kernel)."""
    out = {}
    for name, ss in stagings(report).items():
        done = [s for s in ss if s["transformed"]]
        assert len(done) <= 1, f"{name}: {len(done)} stagings transformed"
        if done:
            out[name] = done[0]
    return out


def kernel_names() -> set[str]:
    return set(re.findall(r"^__global__ void (?:__launch_bounds__\(\d+\) )?(\w+)\(", SOURCE.read_text(), re.M))


def test_pins_are_disjoint_and_complete() -> None:
    names = kernel_names()
    assert 30 <= len(names) <= 50
    for level in LEVELS:
        both = set(GO[level]) & set(LEFT_ALONE[level])
        assert not both, f"-O{level}: pinned twice: {sorted(both)}"
        pinned = set(GO[level]) | set(LEFT_ALONE[level])
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"
        assert set(TILE_BYTES[level]) | set(CHECKS[level]) | set(THREADS) <= set(GO[level])
    spec = set(re.findall(r"^\[kernels\.(\w+)\]", SOURCE.with_suffix(".toml").read_text(), re.M))
    assert spec == names, f"spec-less: {sorted(names - spec)}, stale: {sorted(spec - names)}"


@pytest.mark.parametrize("level", LEVELS)
def test_transposed_or_not(level: int, reports: dict) -> None:
    report = reports[level][1]
    got = transposed(report)
    assert {k: s["kind"] for k, s in got.items()} == {k: "transposed" for k in got}, "a staging of another kind"
    lost = sorted(set(GO[level]) - set(got))
    gained = sorted(set(LEFT_ALONE[level]) & set(got))
    assert not lost and not gained, f"-O{level}: no longer transposed {lost}, now transposed {gained}"
    assert {k: s["go"] for k, s in got.items()} == GO[level]


@pytest.mark.parametrize("level", LEVELS)
def test_why_left_alone(level: int, reports: dict) -> None:
    all_stagings = stagings(reports[level][1])
    wrong = {}
    for name, piece in LEFT_ALONE[level].items():
        reasons = [s["reason"] for s in all_stagings[name]]
        if piece is None:
            if reasons:
                wrong[name] = reasons
        elif not any(piece in r for r in reasons):
            wrong[name] = reasons
    assert not wrong, f"-O{level}: {wrong}"


@pytest.mark.parametrize("level", LEVELS)
def test_tiles_and_checks(level: int, reports: dict) -> None:
    got = transposed(reports[level][1])
    assert {k: s["threads"] for k, s in got.items()} == {k: THREADS.get(k, 1024) for k in got}
    assert {k: s["tile_bytes"] for k, s in got.items()} == {k: TILE_BYTES[level].get(k, 8192) for k in got}
    assert {k: s["overlap_checks"] for k, s in got.items()} == {k: CHECKS[level].get(k, 0) for k in got}
    # the 48 KB of static shared memory: ty_u128_shift's tiles take all of
    # it at 1024 threads, ctl_shared_budget's beside its own 44 KB
    assert max(s["tile_bytes"] for s in got.values()) <= 48 * 1024


def test_one_staging_per_kernel(reports: dict) -> None:
    """ctl_two_guards: the second transposed store (its own block) is left
    alone, because the first is staged."""
    for level in LEVELS:
        reasons = [s["reason"] for s in stagings(reports[level][1])["ctl_two_guards"] if not s["transformed"]]
        assert any("one staging per kernel" in r for r in reasons), f"-O{level}: {reasons}"


def test_a_3d_block_on_the_staged_path_is_caught(reports: dict, tmp_path: Path) -> None:
    """The shape test's ntid.z == 1 planted away in shape_3d at -O3 (16x8x2
    blocks): the two z-layers of the block then share one tile, and each
    owner's address is recomputed with the storing thread's tid.z. The
    oracle sees it, in that kernel only (shape_1024 beside it stays right)."""
    out = reports[3][0]

    def planted(body: str) -> str:
        z = re.search(r"(%\w+) = call i32 @llvm\.nvvm\.read\.ptx\.sreg\.ntid\.z\(\)", body)
        assert z, "no ntid.z test in shape_3d"
        return re.sub(rf"(%\w+) = icmp eq i32 {re.escape(z.group(1))}, 1", r"\1 = icmp eq i32 1, 1", body, count=1)

    bad = plant(out, tmp_path, lambda text: in_function(text, "_Z8shape_3d", planted), "the ntid.z test")
    spec = tmp_path / "two.toml"
    tables = SOURCE.with_suffix(".toml").read_text().split("\n[kernels.")
    spec.write_text("sizes = [70]\n\n" + "\n".join("[kernels." + t for t in tables[1:]
                                                    if t.startswith(("shape_3d]", "shape_1024]"))))
    run = run_in_process("run", SOURCE, "--emulate", "-q", "-O", "3", "--spec", spec, "--from", bad)
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-1000:]
    assert differing_kernels(run) == {"shape_3d"}, run.stdout[-3000:]

