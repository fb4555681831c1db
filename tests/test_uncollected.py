"""The report's `uncollected` (pass/lib/Report.cpp): an uncoalesced global
access that no copy, staging, window or promotion takes is named by the
collectors' rule that passes it by, so that the census counts it as a named
reason rather than "no candidate" (issue 39; docs/programs/issue-39.md has
the corpus's 52, each with its measurement)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import REPO, TESTCASES, run_cli

from coalda.report import action

sys.path.insert(0, str(REPO / "scripts"))
import corpus_census  # noqa: E402

SOURCE = """\
__global__ void transposed_read(float *out, const float *in, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n)
    out[y * n + x] = in[x * n + y] * 2.0f;
}

__global__ void column(float *m, const float *a, int size, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < size - 1 - t)
    m[size * (i + t + 1) + t] = a[size * (i + t + 1) + t] / a[size * t + t];
}

__global__ void chunk_store(float *out, int len, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < len; j++)
    out[i * len + j] = v * j;
}
"""

TRANSFER = "part of a memory transfer (memcpy)"
TRANSPOSED = "a transposed read: only transposed stores are staged"
RUNTIME_STRIDE = "a lane stride known only at run time (a row pitch)"
NO_WINDOW = "a chunk store no store window takes"


def kernels(*args: str | Path, clang: tuple[str, ...] = ()) -> list[dict]:
    proc = run_cli("analyze", *args, "--format", "json", "-q", *(("--", *clang) if clang else ()))
    assert proc.returncode == 0, proc.stderr
    return [k for r in json.loads(proc.stdout)["reports"] for k in r["kernels"]]


def uncoalesced(kernel: dict) -> list[dict]:
    return [a for a in kernel["accesses"] if a["class"] == "uncoalesced" and a["space"] == "global"]


def test_each_rule_is_named(tmp_path: Path) -> None:
    """A transposed read (its coalesced store has none), a matrix column
    read and written one element a thread, and chunk stores in a loop that
    loads nothing: each uncoalesced access names its rule."""
    source = tmp_path / "uncollected.cu"
    source.write_text(SOURCE)
    found = {k["name"]: k for k in kernels(source)}
    expected = {"transposed_read": TRANSPOSED, "column": RUNTIME_STRIDE, "chunk_store": NO_WINDOW}
    for name, reason in expected.items():
        accesses = uncoalesced(found[name])
        assert accesses and all(a.get("uncollected", "").startswith(reason) for a in accesses), (name, accesses)
        # the findings' verdict says why, by the shape's words and advice
        kernel = found[name]
        for access in accesses:
            verdict, _ = action(access, kernel["groups"], kernel.get("stagings"), kernel.get("promotions"))
            assert verdict.startswith("not staged: "), (name, verdict)
    assert all("uncollected" not in a for k in found.values() for a in k["accesses"] if a["class"] != "uncoalesced")


def test_a_transfer_is_named() -> None:
    """geglu's FOR_LOOP = 2 instances: -O3 moves each thread's two 32-byte
    vectors with llvm.memcpy, which no staging takes (the census's 18)."""
    found = kernels(REPO / "corpus" / "hecbench" / "geglu-cuda" / "main.cu", "-O", "3", clang=("-std=c++17",))
    twice = [k for k in found if k["name"].endswith(", 2>")]
    assert len(twice) == 3
    for kernel in twice:
        accesses = uncoalesced(kernel)
        assert len(accesses) == 6 and all(a["uncollected"].startswith(TRANSFER) for a in accesses), kernel["name"]
        # the findings say the rule (a transfer has no shape verdict of its
        # own: before, "uncoalesced, not part of a copy" or the copy group's
        # "not a pure copy")
        for access in accesses:
            verdict, _ = action(access, kernel["groups"], kernel.get("stagings"), kernel.get("promotions"))
            assert verdict == "not staged: " + access["uncollected"], verdict


def test_what_a_rewrite_takes_is_never_uncollected() -> None:
    """The accesses a copy or a staging holds (rewritten or refused for a
    reason of its own) carry no `uncollected`."""
    for kernel in kernels(TESTCASES / "rgb.cu", TESTCASES / "staging_loops.cu", TESTCASES / "gaussian.cu"):
        for access in kernel["accesses"]:
            if "staging" in access or "promotion" in access or (
                    "group" in access and kernel["groups"][access["group"]]["transformed"]):
                assert "uncollected" not in access, (kernel["name"], access)


def test_the_census_counts_it_as_a_named_reason() -> None:
    access = {"class": "uncoalesced", "shape": "transposed", "uncollected": TRANSPOSED + " through a tile"}
    assert corpus_census.why_not_rewritten(access, {}) == "reason: a transposed read"
    assert corpus_census.why_not_rewritten({"shape": "column"}, {}) == "no candidate: column"
