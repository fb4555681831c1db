"""The pass bounds its own work (pass/lib/CoalescingTransform.cpp): a
recursive device helper is inlined into a kernel's analysed copy once, not
again into its own inlined body, and a kernel whose code is over
-coalda-max-function-size instructions is skipped, with a remark and a
`skipped` entry in the report that the findings table shows.

logic-rewrite's refactor_core.cu (recursive ISOP and factoring helpers) ran
past 400 s and 4.6 GB in the pass before (its helpers inlined four levels
deep into every kernel); `coalda analyze` takes about 5 s on it now, most
of it clang's.
"""

from __future__ import annotations

import json
import time

import pytest
from rich.console import Console

from coalda.report import findings_table
from conftest import REPO, run_cli

REFACTOR_CORE = REPO / "corpus" / "hecbench" / "logic-rewrite-cuda" / "refactor_core.cu"
WHY = ("COALDA skipped kernel `big`: its code after inlining has 60123 instructions, "
       "over the analysis budget of 50000 (-coalda-max-function-size)")


def test_the_table_says_why_a_kernel_was_skipped() -> None:
    report = {"source": "k.cu", "arch": "sm_90", "opt_level": 3,
              "kernels": [{"name": "big", "symbol": "_Z3bigv", "accesses": [], "groups": [], "skipped": WHY}]}
    console = Console(record=True, width=400)
    console.print(findings_table(report, 400))
    text = console.export_text()
    assert WHY in text
    assert "no global-memory accesses" not in text


@pytest.mark.skipif(not REFACTOR_CORE.exists(), reason="the corpus's logic-rewrite is not vendored")
def test_recursive_helpers_are_analysed_in_bounded_time() -> None:
    start = time.monotonic()
    proc = run_cli("analyze", REFACTOR_CORE, "--format", "json", "-I", REFACTOR_CORE.parent, "--", "-std=c++17")
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    assert elapsed < 60
    [report] = json.loads(proc.stdout)["reports"]
    kernels = report["kernels"]
    assert {k["name"] for k in kernels} >= {"resynCut", "factorFromTruth"}
    assert not [k["name"] for k in kernels if "skipped" in k]
