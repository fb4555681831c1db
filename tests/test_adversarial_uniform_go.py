"""The vote-free go adversary (testcases/adversarial/uniform_go.cu): how each
staged block decides to take the staged path, pinned per -O level.

A staged block goes only when every thread is active and its other accesses
miss its own elements. The report's per-staging "go" says how that is
decided: "shape" (no guard, no checks: only the block's shape is tested),
"uniform" (every thread computes the guard's lane bounds, uniform conditions
and overlap checks alike: no barrier) or "vote" (barrier0.and; "vote" is
true exactly then). The corpus attacks the uniform form (off-by-one and
lane-on-the-right bounds, unsigned and 64-bit compares, lane sides that wrap
inside a block, overlap checks between views of one buffer, per-thread index
differences, data-dependent and temporally divergent bounds, transposes);
tests/test_adversarial.py runs every kernel through the differential oracle
at -O0 and -O3. Here the decisions are pinned, so that a kernel that must
keep the vote does not quietly become "uniform", and the kernels that
attack the uniform form stay staged with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import TESTCASES, optimize_levels, run_in_process

SOURCE = TESTCASES / "adversarial" / "uniform_go.cu"
LEVELS = (3, 0)

# Uniform at both levels: lane bounds (strict, inclusive, lane on the right,
# `n - i > 0`, negated, signed, unsigned, i64, offsets, wraps checked at run
# time), block-uniform flags and loaded bounds, overlap checks whose thread
# terms cancel, transposes with x and y bounds.
UNIFORM_BOTH = {
    "lt", "le_inclusive", "le_short", "sub_gt_zero", "sub_ge_one", "gt_swapped", "ge_swapped",
    "ret_le_swapped", "ret_sub_le_zero", "unsigned_lt", "unsigned_le", "i64_lt", "u64_lt", "plus_k",
    "plus_const", "minus_k_unsigned", "tid_only", "flag_and", "and_flag_first", "two_bounds_and",
    "bound_in_memory", "bound_per_block", "bound_in_shared", "wrap_u32", "wrap_u32_b192",
    "wrap_i32_signed", "wrap_u64", "axpy", "axpy_view_same", "axpy_view_far", "byte_view_hit",
    "byte_view_far", "byte_view_hit4", "next_index_hit", "next_index_far", "two_written",
    "prologue_guarded", "prologue_float_view", "all_but_last", "ule_max", "neg_gt",
    "tr_and", "tr_le", "tr_unsigned_swapped", "tr_tid_y_bound", "tr_flag", "tr_swapped_limits",
    "tr_wrap_x", "tr_rmw_prologue", "prologue_same_block", "atomic_prologue", "tr_atomic_prologue",
}
# Must keep the vote at both levels: a sign-extended 32-bit lane side, a
# lower bound (a suffix of the block), per-thread loads (a bound per warp,
# per element), a parity test, tid.y in a 1-D bound, a zero-extended 32-bit
# wrap, a bound that differs per thread after a loop, a barrier's count,
# x[2*i] against y[i], tid.y in a transpose's x bound, a triangle, a loaded
# bound in a 2-D block, lane sides whose first lane's value cannot be
# recomputed (a load, a phi).
VOTE_BOTH = {
    "sext_compare", "minus_k_two_sided", "bound_per_warp", "guard_on_data", "guard_parity", "suffix_guard",
    "tid_y_in_bound", "wrap_zext_compare", "temporal_bound", "count_bound", "double_index",
    "tr_mixed_bound", "tr_triangle", "tr_loaded_bound", "loaded_offset_lane", "phi_offset_lane",
}
UNIFORM = {
    # -O3: one index value for x and y (CSE), one branch for the early
    # returns, x[3*i + 1] as 12*i + 4
    3: UNIFORM_BOTH | {"other_ssa_index", "or_return", "two_returns", "checks_and_flag", "tr_returns",
                       "float_view", "select_offset_lane"},
    # -O0: `n - i > 0` on size_t is still a subtraction (the lane side's wrap
    # is tested); the transpose's i64 bounds are plain compares; the early
    # returns are a chain (each `return` a block that only branches to the
    # return block), as -O3's one branch
    0: UNIFORM_BOTH | {"u64_sub_ne", "tr_i64", "or_return", "two_returns", "checks_and_flag", "tr_returns"},
}
VOTE = {
    # -O3: `n - i > 0` on size_t becomes `n != i` (an equality); `i < n ||
    # flag` is not a conjunction; the i64 transpose's bounds are folded
    3: VOTE_BOTH | {"u64_sub_ne", "or_guard", "tr_i64"},
    # -O0: x[j] and y[i] (j, z loaded or recomputed) and g[3*i + 1] have
    # other thread terms than y[i]; the select is a phi
    0: VOTE_BOTH | {"other_ssa_index", "loaded_zero_index", "float_view", "select_offset_lane"},
}
SHAPE = {3: {"shape_only"}, 0: {"shape_only"}}
# No block barrier may go before the accesses: staged in warp tiles, each
# full warp deciding by its ballot. -O3: a select between bounds (not one
# branch's conditions); -O0: `||` is a branch of its own.
WARP = {3: {"select_guard"}, 0: {"select_guard", "or_guard"}}
NOT_STAGED: dict[int, set[str]] = {
    # -O3: y[i + z] with z loaded in the region
    3: {"loaded_zero_index"},
    0: set(),
}
# Barriers of the staged path where a prologue writes the thread's own
# element before the region: the staging's leading barrier (the vote's, when
# it votes), the row load's, the write-back's and the trailing one. Without
# the leading barrier other threads load the row before the prologue ran.
BARRIERS = {"prologue_guarded": 4, "prologue_float_view": 4, "prologue_same_block": 4, "atomic_prologue": 4,
            "tr_atomic_prologue": 4}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[int, dict]:
    # the prologue kernels' float3 read-modify-writes are small elements
    # the cost rule leaves alone: staged anyway, to attack the staged go;
    # block tiles wherever a block barrier may go: the corpus attacks the
    # block's go (two_written's 24-byte elements would take warp tiles)
    built = optimize_levels(SOURCE, tmp_path_factory.mktemp("adv-uniform-go"), LEVELS,
                            "--pass-arg=-coalda-stage-small-always", "--pass-arg=-coalda-stage-warp-tiles=fallback")
    return {level: report for level, (_, report) in built.items()}


def transformed(report: dict) -> dict[str, dict]:
    """Kernel -> its one transformed staging."""
    out: dict[str, dict] = {}
    for k in report["kernels"]:
        staged = [s for s in k.get("stagings", []) if s["transformed"]]
        assert len(staged) <= 1, f"{k['name']}: {len(staged)} stagings"
        if staged:
            out[k["name"]] = staged[0]
    return out


def test_pins_are_disjoint_and_complete() -> None:
    for level in LEVELS:
        sets = [UNIFORM[level], VOTE[level], SHAPE[level], WARP[level], NOT_STAGED[level]]
        assert sum(map(len, sets)) == len(set().union(*sets)), f"-O{level}: a kernel pinned twice"
    names = {line.split("(")[0].split()[-1] for line in SOURCE.read_text().splitlines()
             if line.startswith("__global__ void")}
    for level in LEVELS:
        pinned = UNIFORM[level] | VOTE[level] | SHAPE[level] | WARP[level] | NOT_STAGED[level]
        assert pinned == names, f"-O{level}: unpinned {sorted(names - pinned)}, stale {sorted(pinned - names)}"


@pytest.mark.parametrize("level", LEVELS)
def test_staged_or_not(level: int, reports: dict) -> None:
    got = transformed(reports[level])
    names = {k["name"] for k in reports[level]["kernels"]}
    must = UNIFORM[level] | VOTE[level] | SHAPE[level] | WARP[level]
    assert must | NOT_STAGED[level] == names, "a kernel without a pinned decision"
    assert not must - set(got), f"-O{level}: no longer staged: {sorted(must - set(got))}"
    assert not NOT_STAGED[level] & set(got), f"-O{level}: now staged: {sorted(NOT_STAGED[level] & set(got))}"


@pytest.mark.parametrize("level", LEVELS)
def test_go_decisions(level: int, reports: dict) -> None:
    got = transformed(reports[level])
    missing = sorted(k for k, s in got.items() if "go" not in s)
    assert not missing, f"-O{level}: stagings without \"go\": {missing}"
    go = {k: s["go"] for k, s in got.items()}
    wrong = {}
    for want, names in (("uniform", UNIFORM[level]), ("vote", VOTE[level]), ("shape", SHAPE[level]),
                        ("warp", WARP[level])):
        wrong.update({k: f"{go.get(k)} (want {want})" for k in names if go.get(k) != want})
    assert not wrong, f"-O{level}: " + ", ".join(f"{k}: {v}" for k, v in sorted(wrong.items()))
    # "vote" is true exactly when a barrier votes
    votes = {k: s["vote"] for k, s in got.items() if s["vote"] != (s["go"] == "vote")}
    assert not votes, f"-O{level}: \"vote\" disagrees with \"go\": {votes}"
    barriers = {k: got[k]["barriers"] for k in BARRIERS}
    assert barriers == BARRIERS, f"-O{level}: barriers of the staged path"


WRAP_U64 = """struct F3 { float x, y, z; };
__global__ void wrap_u64(F3 *y, float s, unsigned long off, unsigned long n) {
  unsigned long j = off + (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    y[j].x = (float)j + s;
    y[j].y = (float)j * s;
    y[j].z = s - (float)j;
  }
}
"""
WRAP_U64_SPEC = """sizes = [287]
[kernels.wrap_u64]
block = 96
grid = "cdiv(n + 5, block)"
align = 4
params = [{ name = "y", out = "12*n" }, { name = "s", value = "3" }, { name = "off", value = "-5" }, { name = "n", value = "n" }]
"""


def test_a_dropped_overflow_test_is_caught(tmp_path: Path) -> None:
    """uniform_go.cu's wrap_u64 alone: j = 2^64 - 5 + i, so block 0's first
    five threads are inactive (j wraps past 2^64 only for the others) and the
    last lane's j + 95 overflows: only the overflow test keeps the block out.
    Planted without it, the block is staged: its row starts 60 bytes before
    y, and the five inactive threads' slots, never written, go to y's guard
    zone. The emulator's shared poison once equalled the first parameter's
    guard byte, and this bug passed unseen (found by mutating the optimized
    IR); the oracle must say so."""
    source = tmp_path / "wrap.cu"
    source.write_text(WRAP_U64)
    (tmp_path / "wrap.toml").write_text(WRAP_U64_SPEC)
    out = tmp_path / "out"
    # stores of values read before them: the cost rule leaves them alone;
    # staged anyway, as the corpus is, to attack the staged code
    proc = run_in_process("optimize", "-q", source, "-o", out, "--no-ptx", "--pass-arg=-coalda-stage-small-always")
    assert proc.returncode == 0, proc.stderr
    good = run_in_process("run", source, "--emulate", "--from", out)
    assert good.returncode == 0, good.stdout[-2000:] + good.stderr
    after = out / "wrap.after.ll"
    text = after.read_text()
    planted = re.sub(r"(%coalda\.nowrap\d* = xor i1 )%[\w.]+, true", r"\1false, true", text)
    assert planted != text, "no overflow test in the uniform go"
    after.write_text(planted)
    bad = run_in_process("run", source, "--emulate", "--from", out)
    assert bad.returncode == 1, bad.stdout[-2000:] + bad.stderr
    assert "MISMATCH" in bad.stdout, bad.stdout[-2000:]
