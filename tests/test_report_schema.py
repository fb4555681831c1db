"""docs/report-schema.md lists every key of the JSON report: the keys the
testcases and the analysis programs produce, at every level, are all in its
tables (and every table key is produced by some testcase)."""

from __future__ import annotations

import json
import re

from conftest import REPO, TESTCASES, run_cli

DOC = REPO / "docs" / "report-schema.md"
SOURCES = [TESTCASES / "staging.cu", TESTCASES / "copies.cu", TESTCASES / "transpose.cu", TESTCASES / "guards.cu",
           TESTCASES / "analysis" / "columns.cu", TESTCASES / "adversarial" / "staging.cu",
           TESTCASES / "assign.cu",  # struct copies in several pieces: `requests`
           TESTCASES / "adversarial" / "promotions.cu"]


def documented() -> dict[str, set[str]]:
    """Section -> the keys in the first column of its table."""
    sections: dict[str, set[str]] = {}
    current = ""
    for line in DOC.read_text().splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            sections[current] = set()
        elif line.startswith("| `") and current:
            sections[current] |= set(re.findall(r"`(\w+)`\??", line.split("|")[1]))
    return sections


def produced() -> dict[str, set[str]]:
    keys: dict[str, set[str]] = {s: set() for s in ("Report", "Kernel", "Access", "Copy group", "Staging",
                                                     "Promotion")}
    arrays: set[str] = set()
    log = json.loads(run_cli("analyze", *SOURCES, "--format", "json", "-q").stdout)
    keys["Log"] = set(log)
    for report in log["reports"]:
        keys["Report"] |= set(report)
        for kernel in report["kernels"]:
            keys["Kernel"] |= set(kernel)
            for access in kernel["accesses"]:
                keys["Access"] |= set(access)
            for group in kernel["groups"]:
                keys["Copy group"] |= set(group)
            for promotion in kernel.get("promotions", []):
                keys["Promotion"] |= set(promotion)
            for staging in kernel.get("stagings", []):
                keys["Staging"] |= set(staging)
                for array in staging["arrays"]:
                    arrays |= set(array)
    keys["Staging arrays"] = arrays
    return keys


# Keys only `coalda optimize` writes, after ptxas (tests/test_register_budget.py
# checks that they are produced and documented), and those only the option
# -coalda-reshape-launches writes (tests/test_grid_variants.py checks them).
OPTIMIZE_ONLY = {"Kernel": {"register_limit", "launch"}}


def test_every_key_is_documented_and_every_documented_key_exists() -> None:
    doc = documented()
    got = produced()
    for section, keys in OPTIMIZE_ONLY.items():
        got[section] |= keys
    staging_arrays = set(re.findall(r"`(\w+)`", next(line for line in DOC.read_text().splitlines()
                                                      if line.startswith("| `arrays`"))))
    assert got.pop("Staging arrays") <= staging_arrays
    for section, keys in got.items():
        assert keys - doc[section] == set(), f"{section}: undocumented keys in {DOC.name}"
        assert doc[section] - keys == set(), f"{section}: {DOC.name} lists keys no testcase produces"
