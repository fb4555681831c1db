"""`coalda analyze --format json` (issue 36, item 10): the sector cost the
text and SARIF show is in each access, and one file and several give the
same shape, {"schema_version": 2, "reports": [...]}."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from conftest import TESTCASES, run_cli

ANALYSIS = TESTCASES / "analysis"
# `rgb.cu:18:12: warning: store of 1 B at stride 3 B: 3 sectors per warp
# request where 1 would do`, or `... in 3 pieces of 4 B: 3 warp requests of
# 12 sectors where 12 sectors in all would do`
WARNING = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): warning: (?P<kind>load|store) of .*?"
    r"(?:(?P<requests>\d+) warp requests of (?P<many>\d+) sectors where (?P<many_ideal>\d+) sectors in all would do"
    r"|(?P<one>\d+) sectors per warp request where (?P<one_ideal>\d+) would do)"
)
Where = tuple[str, int, int, str]
Cost = tuple[int, int, int | None]


def _text_costs(*sources: Path) -> dict[Where, Cost]:
    proc = run_cli("analyze", *sources, "--format", "text", "-q")
    assert proc.returncode == 0, proc.stderr
    costs: dict[Where, Cost] = {}
    for line in proc.stdout.splitlines():
        if (m := WARNING.match(line)) is None:
            continue
        where = (m["file"], int(m["line"]), int(m["column"]), m["kind"])
        if m["requests"]:
            costs[where] = (int(m["many"]), int(m["many_ideal"]), int(m["requests"]))
        else:
            costs[where] = (int(m["one"]), int(m["one_ideal"]), None)
    return costs


def _json(*sources: Path) -> dict[str, Any]:
    proc = run_cli("analyze", *sources, "--format", "json", "-q")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _json_costs(log: dict[str, Any]) -> dict[Where, set[Cost]]:
    """The costs of the uncoalesced global accesses, by source location;
    each must have one."""
    costs: dict[Where, set[Cost]] = {}
    for report in log["reports"]:
        for kernel in report["kernels"]:
            for a in kernel["accesses"]:
                if a["class"] == "uncoalesced" and a["space"] == "global" and a["stride"] is not None:
                    where = (a.get("file") or report["source"], a["line"], a["column"], a["kind"])
                    costs.setdefault(where, set()).add((a["sectors"], a["ideal_sectors"], a.get("requests")))
    return costs


def test_each_access_has_the_sector_cost_the_text_shows() -> None:
    """rgb.cu: 1-byte members at stride 3; assign.cu: struct copies in
    several pieces; stencil.cu: constant offsets that move the start."""
    sources = (TESTCASES / "rgb.cu", TESTCASES / "assign.cu", ANALYSIS / "stencil.cu")
    text = _text_costs(*sources)
    assert len(text) >= 8 and any(cost[2] for cost in text.values())  # both message forms
    in_json = _json_costs(_json(*sources))
    for where, cost in text.items():
        assert in_json.get(where) == {cost}, (where, cost, in_json.get(where))
    # and every uncoalesced access is one the text shows
    assert set(in_json) == set(text)


def test_a_cost_counts_a_misaligned_start() -> None:
    """The keys are the text's function of the access, phase included: the
    same stride costs more sectors from a start inside a sector."""
    from coalda.findings.diagnostics import sector_cost

    access = {"class": "uncoalesced", "space": "global", "stride": 8, "width": 4, "lane": "gid",
              "expr": "in + 8*gid + 4", "offset": 4}
    assert sector_cost(access) == {"sectors": 8, "ideal_sectors": 4}
    assert sector_cost({**access, "expr": "in + 8*gid + 16", "offset": 16}) == {"sectors": 9, "ideal_sectors": 4}
    assert sector_cost({**access, "class": "coalesced"}) == {}
    assert sector_cost({**access, "stride": None}) == {}


def test_one_file_and_several_have_one_shape() -> None:
    one = _json(TESTCASES / "rgb.cu")
    several = _json(TESTCASES / "rgb.cu", ANALYSIS / "stencil.cu")
    assert set(one) == set(several) == {"schema_version", "reports"}
    assert one["schema_version"] == several["schema_version"] == 2
    assert len(one["reports"]) == 1 and len(several["reports"]) == 2
    assert one["reports"][0] == several["reports"][0]
    assert Path(several["reports"][1]["source"]).name == "stencil.cu"
