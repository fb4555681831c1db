"""Random kernels for store windows (tests/store_window_kernels.py): a loop
that a chunk window takes for its loads and that stores each iteration's
record of the thread's own row of another array (softmax's output pass),
optimized with -coalda-window-stores at -O3 and -O0. The same bytes before
and after on the emulator under every layout and schedule (and, without
__restrict__, the overlap layouts and every buffer at one address), and
the decisions pinned, store by store: the storing loop's stores (the
generator's store_lines) are windowed when each of them is an access of a
transformed window staging with a `written` array (its `window_bytes`),
the report's criterion for a store window.

What the pass decides, as observed (plugin of 2026-12-04 06:29; 1,200
random kernels):

- it refuses (must_refuse, both levels) every kernel whose storing loop
  breaks a condition: a record with a gap ("does not advance by" it / "its
  stores leave bytes ... unwritten"), a store skipped on some iterations,
  the row walked backwards (no load window: "does not advance by a
  constant"), dest read in the loop, the current record or the previous
  one ("its loop reads the array it writes, through the load window"; a
  previous record's load also "may read or write dest's chunk"), one
  buffer for both arrays (in place, shifted in the row, or dest after src:
  "its loop reads the array it writes" — the last a missed rewrite, whose
  ranges a run-time check could tell apart), a second stored array that
  may alias dest ("a store to dest2 ... may read or write dest's chunk");
  and at -O0 the second exit (no load window: "its loop may leave before
  the load runs on every iteration"). -O3 folds that exit into the trip
  count and sometimes takes it (store_windows.cu pins such shapes);
- it takes (must_take) the plain shape at -O0: separate arrays, no twist,
  j stepping by 1, one src element an iteration, dest not read in a loop
  of its own before or after (each such loop gives dest a load window too,
  and the tiles, 108 to 120 bytes a thread for 512 threads, do not fit
  48 KB: a missed rewrite), no second stored array, records of at most 32
  bytes (a 64-byte record's window and the loads' do not fit either); and
  at -O3 the same under `#pragma unroll 1` with records of at most 16
  bytes and a guard (without one, -O3 may leave no point for the vote:
  "no point before the loops is reached once by every thread of the
  block", no window at all). What -O3 does with its own unrolling is left
  free (each of the unrolled loop and its remainder is a store window of
  its own, and together they often do not fit: "windows of N bytes ... do
  not fit the 48 KB"; SLP merges part of a record's stores into vectors:
  "differ in width"; the remainder loop's range is not expandable at the
  vote: "where the two lie is not known before the loops"), and so is a
  loop stepping by 2 (-O0: "its loop's trip count is not known before the
  loop") or reading a record of src an iteration (its per-iteration
  refill takes no store window, with no reason given).

Every kernel is compared whatever is decided: a refused kernel's other
windows (and the original path) run too.

Campaigns: COALDA_STORE_WINDOW_FUZZ random kernels (default 6 in `make test`, in batches
of 6).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import O0_SCHEDULES, assert_all_match, optimize_levels, run_in_process
from store_window_kernels import StoreWindowKernel, random_kernels

FUZZ = int(os.environ.get("COALDA_STORE_WINDOW_FUZZ", "6"))
BATCH = 6
STORES = "--pass-arg=-coalda-window-stores"
# twists whose storing loop the pass must leave alone
BROKEN = ("gap", "sometimes", "reverse", "reread", "reread_prev")


def store_window(staging: dict) -> bool:
    """A transformed window staging with a written array staged (its
    window_bytes): the report's store window."""
    return (staging.get("kind") == "window" and staging["transformed"]
            and any(a.get("written") and a.get("window_bytes") for a in staging["arrays"]))


def store_decisions(kernels: list[StoreWindowKernel], report: dict) -> dict[str, tuple[str, list[str]]]:
    """Kernel -> ("all" / "some" / "none" of its storing loop's store
    accesses in a store window, the left_out reasons of the others). -O3's
    unrolled loop and its remainder each have the stores of the source's
    lines: "some" is one of them."""
    first, line = {}, 1
    for k in kernels:
        first[k.name] = line
        line += len(k.source().splitlines())
    out = {}
    for kr in report["kernels"]:
        k = next(x for x in kernels if x.name == kr["name"])
        lines = {first[k.name] - 1 + n for n in k.store_lines()}
        stores = [a for a in kr["accesses"] if a["kind"] == "store" and a["line"] in lines]
        windowed = [a for a in stores if "staging" in a and store_window(kr["stagings"][a["staging"]])]
        why = sorted({a["left_out"] for a in stores if a.get("left_out")})
        out[k.name] = ("all" if stores and len(windowed) == len(stores) else "some" if windowed else "none", why)
    return out


def must_refuse(k: StoreWindowKernel, level: int) -> bool:
    return (k.twist in BROKEN or k.layout != "separate" or (k.dest2 and not k.restrict)
            or (level == 0 and k.twist == "exit"))


def must_take(k: StoreWindowKernel, level: int) -> bool:
    plain = (k.twist == "none" and k.layout == "separate" and not k.dest2 and k.step == 1 and k.lper == 1
             and not k.pre_read and k.post in ("none", "tail", "neighbour"))
    return plain and k.per * k.sw <= 32 and (level == 0 or k.unroll == "one" and k.per * k.sw <= 16
                                             and k.guard != "none")


def check_decisions(kernels: list[StoreWindowKernel], report: dict, level: int, source: Path) -> None:
    windows = {k["name"]: [s for s in k.get("stagings", []) if s.get("kind") == "window"] for k in report["kernels"]}
    # the plain shape's loads are windowed (else nothing here is tested);
    # but at -O3 without a guard, where the loop's own test of its run-time
    # count can leave the entry block the loops' nearest common dominator
    # ("no point before the loops is reached once by every thread of the
    # block": no vote), as in tests/record_kernels.py
    unloaded = {k.name for k in kernels if k.twist == "none" and k.lper == 1 and (level == 0 or k.guard != "none")
                and not any(s["transformed"] for s in windows[k.name])}
    assert not unloaded, (source.read_text(), unloaded)
    got = store_decisions(kernels, report)
    wrong = {k.name: got[k.name] for k in kernels
             if must_refuse(k, level) and got[k.name][0] != "none" or must_take(k, level) and got[k.name][0] != "all"}
    assert not wrong, (source.read_text(), level, wrong)
    # a kernel whose storing loop is windowed has the report's store window
    for k in kernels:
        if got[k.name][0] != "none":
            assert any(store_window(s) for s in windows[k.name]), (k.name, windows[k.name])


@pytest.mark.parametrize("batch", range(max(1, FUZZ // BATCH)))
def test_random_store_window_kernels(batch: int, tmp_path: Path) -> None:
    kernels = random_kernels(batch, BATCH)
    source = tmp_path / "stores.cu"
    source.write_text("".join(k.source() for k in kernels))
    # each kernel's spec names its own threads (n): the file's size is unused
    (tmp_path / "stores.toml").write_text("sizes = [1]\n\n" + "\n".join(k.spec() for k in kernels))
    levels = optimize_levels(source, tmp_path, (3, 0), STORES)
    for level in (3, 0):
        out, report = levels[level]
        check_decisions(kernels, report, level, source)
        run = run_in_process("run", source, "--emulate", "-q", "-O", str(level),
                             *(O0_SCHEDULES if level == 0 else ()), "--from", out)
        assert run.returncode == 0, source.read_text() + run.stdout[-4000:] + run.stderr[-2000:]
        assert_all_match(run)
