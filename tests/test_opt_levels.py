"""scripts/opt_levels.py's comparison of one file's reports at -O0 and -O3
(issue 39's "-O0 and -O3 decide the same"), on reports made by hand, and the
pass's `loop_line`, which the comparison reads, on a kernel."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from conftest import run_cli

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import opt_levels  # noqa: E402


def kernel(accesses: list[dict[str, Any]], promotions: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    k: dict[str, Any] = {"name": "k", "accesses": accesses, "groups": []}
    if promotions is not None:
        k["promotions"] = promotions
    return {"kernels": [k]}


PROMOTED_AT_O0 = kernel(
    [{"line": 7, "kind": "store", "file": "a.cu", "base": "acc", "loop_line": 5, "promotion": 0,
      "class": "uncoalesced"}],
    [{"line": 5, "transformed": True, "kind": "promotion"}])


def test_a_promotion_where_llvm_took_the_access_out_of_the_loop_is_the_same_in_effect() -> None:
    # -O3: the store is after the loop (LICM), in no loop at all
    o3 = kernel([{"line": 7, "kind": "store", "file": "a.cu", "base": "acc", "class": "uncoalesced",
                  "staging": 0}])
    o3["kernels"][0]["stagings"] = [{"transformed": False, "missed": "StagingCostRule", "reason": "r"}]
    got = opt_levels.compare({"0": PROMOTED_AT_O0, "3": o3})
    assert not got["differ"] and got["accesses"] == []
    assert [(a["line"], a["loop_line"], a["rewritten_at"]) for a in got["same_in_effect"]] == [(7, 5, "-O0")]


def test_a_promotion_whose_buffer_the_other_level_still_touches_in_the_loop_differs() -> None:
    # -O3 keeps a load of acc in the loop of line 5 (merged into another line)
    o3 = kernel([{"line": 6, "kind": "load", "file": "a.cu", "base": "acc", "loop_line": 5,
                  "class": "uncoalesced"}])
    got = opt_levels.compare({"0": PROMOTED_AT_O0, "3": o3})
    assert got["differ"] and got["same_in_effect"] == []
    assert [(a["line"], a["rewritten_at"]) for a in got["accesses"]] == [(7, "-O0")]


def test_another_buffer_in_the_loop_does_not_count() -> None:
    o3 = kernel([{"line": 6, "kind": "load", "file": "a.cu", "base": "table", "loop_line": 5,
                  "class": "coalesced"}])
    assert not opt_levels.compare({"0": PROMOTED_AT_O0, "3": o3})["differ"]


def test_a_staging_at_one_level_only_differs() -> None:
    staged = kernel([{"line": 7, "kind": "store", "file": "a.cu", "base": "acc", "staging": 0,
                      "class": "uncoalesced"}])
    staged["kernels"][0]["stagings"] = [{"transformed": True}]
    got = opt_levels.compare({"0": staged, "3": kernel([])})
    assert got["differ"] and got["same_in_effect"] == []


def test_loop_line_names_the_innermost_loop(tmp_path: Path) -> None:
    src = tmp_path / "l.cu"
    src.write_text("__global__ void k(float *a, const float *b, int n, int m) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  a[i] = b[i];\n"
                   "  for (int r = 0; r < m; ++r)\n"
                   "    for (int c = 0; c < n; ++c)\n"
                   "      a[i * n + c] += b[r * n + c];\n"
                   "}\n")
    proc = run_cli("analyze", src, "-O", "0", "--format", "json")
    assert proc.returncode in (0, 3), proc.stderr
    accesses = json.loads(proc.stdout)["reports"][0]["kernels"][0]["accesses"]
    lines = {(a["line"], a["kind"], a.get("loop_line")) for a in accesses if a["space"] == "global"}
    assert (3, "load", None) in lines and (3, "store", None) in lines
    assert {(line, kind, loop) for line, kind, loop in lines if line == 6} == {(6, "load", 5), (6, "store", 5)}
