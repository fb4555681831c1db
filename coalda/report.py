"""The findings: JSON report (schema of `coalda optimize`) and the rich table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

Report = dict[str, Any]


def build_report(pass_report: Path, source: Path, arch: str, opt_level: int) -> Report:
    """The pass's per-kernel findings, plus what the pipeline knows."""
    data = json.loads(pass_report.read_text())
    return {"source": str(source), "arch": arch, "opt_level": opt_level, "kernels": data["kernels"]}


def pattern(access: dict[str, Any]) -> str:
    """Short form of an access: `3*gid+1`, `1*tid.x`, or `?` when unknown."""
    if access["lane"] == "unknown":
        return "?"
    if access["lane"] == "none":
        lane = "uniform"
    elif access["stride"] is None:
        lane = f"n*{access['lane']}"
    else:
        lane = f"{access['stride']}*{access['lane']}"
    offset = access["offset"] or 0
    return lane + (f"+{offset}" if offset > 0 else f"-{-offset}" if offset < 0 else "")


def action(access: dict[str, Any], groups: list[dict[str, Any]]) -> tuple[str, str]:
    """(verdict, style) for one access."""
    if "group" in access:
        group = groups[access["group"]]
        if group["transformed"]:
            units = "/".join(str(u) for u in group["units"])
            notes = [f"{units}-byte units"]
            if group["overlap_check"]:
                notes.append("overlap-checked")
            if group.get("guard", "none") != "none":
                notes.append(f"{group['guard']} guard")
            if group.get("flat"):
                notes.append("flat grid-stride copy")
            return "rewritten: " + ", ".join(notes), "green"
        if access["coalesced"]:
            return "already coalesced", "dim"
        return "left alone: " + group["reason"], "yellow"
    if access["lane"] == "unknown":
        return "not analysable: " + access.get("reason", "?"), "red"
    if access["coalesced"]:
        return "already coalesced", "dim"
    return "uncoalesced, not part of a copy", "yellow"


def findings_table(report: Report) -> Table:
    table = Table(title=f"COALDA findings for {report['source']} ({report['arch']}, -O{report['opt_level']})")
    table.add_column("kernel", style="bold")
    table.add_column("location")
    table.add_column("access")
    table.add_column("pattern")
    table.add_column("action / why not")
    for kernel in report["kernels"]:
        if not kernel["accesses"]:
            table.add_row(kernel["name"], "", "", "", "no global-memory accesses")
        for access in kernel["accesses"]:
            verdict, style = action(access, kernel["groups"])
            where = f"{Path(access.get('file') or report['source']).name}:{access['line']}:{access['column']}"
            table.add_row(
                kernel["name"], where, f"{access['kind']} {access['width']}B",
                pattern(access), f"[{style}]{verdict}[/]",
            )
    return table


def print_findings(report: Report, console: Console) -> None:
    console.print(findings_table(report))
    groups = [g for k in report["kernels"] for g in k["groups"]]
    done = sum(g["transformed"] for g in groups)
    console.print(f"{done} of {len(groups)} copy groups rewritten coalesced.")


def run_table(rows: list[Any], title: str, timed: bool) -> Table:
    """The table of `coalda run`: one row per comparison."""
    table = Table(title=title)
    columns = ["kernel", "n", "layout", "vs", "result"] + (["original ms", "optimized ms"] if timed else [])
    for column in columns:
        table.add_column(column, justify="right" if column == "n" or column.endswith("ms") else "left", no_wrap=column != "result")
    for row in rows:
        r = row.result
        result = "[green]match[/]" if r.match else f"[bold red]MISMATCH[/] {r.detail}"
        ms = lambda v: "" if v is None else f"{v:.3f}"  # noqa: E731
        cells = [r.kernel, str(r.n), r.layout, r.against, result]
        table.add_row(*cells, *([ms(row.ms_original), ms(row.ms_optimized)] if timed else []))
    return table
