"""Random kernels for chunk windows refilled once per iteration with a
record (tests/record_kernels.py): the same bytes before and after under
every layout and schedule, at -O3 and -O0, and the decisions pinned. At -O3
every generated kernel is windowed per iteration (the report's window says
"on every iteration"): one that is not proves nothing about the records'
refills, so it fails with its reason. At -O0:

- records read by an inner loop over their elements are not windowed:
  -O0's loop-unroll-full unrolls it (`#pragma unroll`) but leaves its dead
  exit test (`br i1 false`) and that block in the record loop, which the
  analysis takes for a way out before the loads ("its loop may leave
  before the load runs on every iteration"); without the pragma the loads
  are in a loop nested in the record loop;
- records read element by element are windowed per iteration (an int
  index too: the record's address is the sign-extended `p*S + k*R`, an
  expression of the loop's recurrence if not one itself).

A kernel with a second array of the other width (record_kernels.py's
MIXED_ODDS) is windowed with both at -O3, through one tile in turn whose
row pitch is rounded up to the widest unit (k.capacity() counts it so); at
-O0 where both are read element by element, else with the one that is.

A fixed case pins the int index with the loads in a branch's arms at -O3
(dslash's shape with 32-bit indexes), which perIteration refused until
2026-12-04 while it asked for an add recurrence.

Campaigns: COALDA_RECORD_FUZZ random kernels (default 6 in `make test`, in batches of
6; when this was written, 300 kernels: all windowed per iteration at -O3,
every byte equal). The -O0 run takes only the kernels -O0 rewrites.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import O0_SCHEDULES, assert_all_match, optimize_levels, run_in_process
from record_kernels import UNIT_BYTES, RecordKernel, random_kernels

FUZZ = int(os.environ.get("COALDA_RECORD_FUZZ", "6"))
BATCH = 6
EVERY_ITERATION = "on every iteration"


def window_stagings(report: dict) -> dict[str, dict]:
    """Kernel name -> its chunk window staging."""
    return {k["name"]: s for k in report["kernels"] for s in k.get("stagings", []) if s.get("kind") == "window"}


def per_iteration(staging: dict | None) -> bool:
    return bool(staging and staging["transformed"] and EVERY_ITERATION in staging["reason"])


def expected_o0(kernel: RecordKernel) -> str:
    """What -O0 makes of the kernel: "per_iteration", "on_leaving" or
    "none" (the module docstring says why). Of two arrays, one read by an
    inner loop is left out and the other windowed alone."""
    arrays = [kernel] if kernel.second is None else [kernel, kernel.second]
    return "none" if all(a.reads == "loop" for a in arrays) else "per_iteration"


def decision(staging: dict | None) -> str:
    if not staging or not staging["transformed"]:
        return "none"
    return "per_iteration" if EVERY_ITERATION in staging["reason"] else "on_leaving"




def check_o3(kernels: list[RecordKernel], windows: dict[str, dict], source: Path) -> None:
    """Every kernel windowed per iteration, its refill moving whole records
    (one, or two where -O3 unrolled the loop) through a warp tile for the
    threads of its __launch_bounds__ (or 512)."""
    refused = {k.name: windows.get(k.name, {}).get("reason", "no window candidate")
               for k in kernels if not per_iteration(windows.get(k.name))}
    assert not refused, (source.read_text(), refused)
    for k in kernels:
        staging = windows[k.name]
        # a second array (of the other width) in a loop of its own: one
        # tile in turn, whose rows k.capacity() counts rounded up to the
        # widest unit
        arrays = [k] if k.second is None else [k, k.second]
        assert len(staging["arrays"]) == len(arrays), (k.name, staging)
        assert staging["arrays_in_turn"] == (k.second is not None), (k.name, staging)
        for got, a in zip(staging["arrays"], arrays):
            moved, record = got["window_bytes"], a.units * UNIT_BYTES[a.unit]
            assert moved % record == 0 and moved <= a.record_units() * UNIT_BYTES[a.unit], (k.name, moved)
            assert got["member_width"] == UNIT_BYTES[a.unit], (k.name, got)
        assert staging["tile"] == "warp" and staging["threads"] == k.capacity(), (k.name, staging)
        # the rows of a tile in turn: a multiple of the widest unit (44-byte
        # rows misaligned the doubles' until 61c939e)
        widest = max(got["member_width"] for got in staging["arrays"])
        assert staging["tile_bytes"] // staging["threads"] % widest == 0, (k.name, staging)


def check_o0(kernels: list[RecordKernel], windows: dict[str, dict], source: Path) -> None:
    got = {k.name: decision(windows.get(k.name)) for k in kernels}
    assert got == {k.name: expected_o0(k) for k in kernels}, source.read_text()


@pytest.mark.parametrize("batch", range(max(1, FUZZ // BATCH)))
def test_random_record_kernels(batch: int, tmp_path: Path) -> None:
    kernels = random_kernels(batch, BATCH)
    source = tmp_path / "record.cu"
    source.write_text("".join(k.source() for k in kernels))
    levels = optimize_levels(source, tmp_path, (3, 0))
    for level, check in ((3, check_o3), (0, check_o0)):
        out, report = levels[level]
        check(kernels, window_stagings(report), source)
        # at -O0 only the kernels it rewrites (the others' runs would
        # compare a kernel with itself)
        rewritten = [k for k in kernels if level == 3 or expected_o0(k) != "none"]
        if not rewritten:
            continue
        # 330 threads: 2 to 11 blocks, the last partial where a guard allows
        spec = tmp_path / f"record{level}.toml"
        spec.write_text("sizes = [330]\n\n" + "\n".join(k.spec() for k in rewritten))
        run = run_in_process("run", source, "--emulate", "-q", "-O", str(level), "--spec", spec,
                             *(O0_SCHEDULES if level == 0 else ()), "--from", out)
        assert_all_match(run)


INT_ARMS = r"""
__global__ void int_arms(float *out, const float *a, int n, int recs) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= n) return;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < recs; k++) {
    const float *rec = a + p * 80 + k * 18;
    if (k == 0) {
      s = 0.f;
      for (int j = 0; j < 18; j++) s += rec[j] * (float)(j + 1);
    } else {
      for (int j = 0; j < 18; j++) s = s * 0.5f - rec[j];
    }
    out[k * n + p] = s;
  }
}
"""


def arms_spec(*names: str) -> str:
    """The launch of INT_ARMS and its twins: 4 records of 18 floats in rows
    of 80."""
    return "sizes = [600]\n" + "".join(f"""
[kernels.{name}]
block = 256
grid = "cdiv(n, block)"
align = 4
params = [{{ name = "out", out = "4*4*n" }}, {{ name = "a", in = "320*n" }}, {{ name = "n", value = "n" }}, {{ name = "recs", value = "4" }}]
""" for name in names)


def test_int_index_in_arms_is_windowed_per_iteration(tmp_path: Path) -> None:
    """A record whose loads sit in a branch's arms (dslash's shape, the
    branch kept by the pragma) and whose index is int, pinned beside the
    random family's. ScalarEvolution reads its address as
    4*(zext i32 {0,+,18}) + ..., no add recurrence of its own (a load of the
    record in the loop body would give the product its no-wrap flag); the
    record's address is still an expression of the loop's recurrences,
    computed at the refill (the arms' cost rule refused such loops when
    perIteration asked for an add recurrence). Windowed per iteration like
    its size_t twin, and the same bytes."""
    source = tmp_path / "arms.cu"
    twin = INT_ARMS.replace("int_arms", "size_t_arms").replace("p * 80 + k * 18", "(size_t)p * 80 + (size_t)k * 18")
    source.write_text(INT_ARMS + twin)
    out, report = optimize_levels(source, tmp_path, (3,))[3]
    windows = window_stagings(report)
    assert per_iteration(windows["int_arms"]), windows["int_arms"]["reason"]
    assert per_iteration(windows["size_t_arms"]), windows["size_t_arms"]["reason"]
    spec = tmp_path / "arms.toml"
    spec.write_text(arms_spec("int_arms", "size_t_arms"))
    assert_all_match(run_in_process("run", source, "--emulate", "-q", "-O", "3", "--spec", spec, "--from", out))
