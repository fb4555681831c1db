"""The findings: JSON report (schema of `coalda optimize`) and the rich table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .verdicts import Unchecked, Verdict

Report = dict[str, Any]


def launch_said(launch: dict) -> str:
    """A report's "launch" decision as -Wcoalda and `coalda analyze` say
    it: the reason, and what a variant does when one was made."""
    does = launch.get("does")
    if not does:
        return launch["reason"]
    until = launch.get("until_measured")
    return f"{launch['reason']} ({does})" + (f"; until measured, the {until}" if until else "")


def build_report(pass_report: Path, source: Path, arch: str, opt_level: int, inputs: str = "") -> Report:
    """The pass's per-kernel findings, plus what the pipeline knows; `inputs`
    fingerprints the source and the options (`coalda run --from` checks it)."""
    data = json.loads(pass_report.read_text())
    return {"source": str(source), "arch": arch, "opt_level": opt_level, "inputs": inputs, "kernels": data["kernels"]}


def pattern(access: dict[str, Any]) -> str:
    """Short form of an access: `3*gid+1`, `1*tid.x`, `(4*len)*gid` (a
    run-time stride), or `?` when unknown."""
    if access["lane"] == "unknown":
        return "?"
    if access["lane"] == "warp":
        return lane_pattern(access.get("lane_offsets") or [0])
    if access["lane"] == "none":
        lane = "uniform"
    elif access["stride"] is None:
        lane = f"({access.get('stride_expr', '?')})*{access['lane']}"
    else:
        lane = f"{access['stride']}*{access['lane']}"
    offset = access["offset"] or 0
    return lane + (f"+{offset}" if offset > 0 else f"-{-offset}" if offset < 0 else "")


def lane_pattern(offsets: list[int]) -> str:
    """A warp's byte offsets read lane by lane (lane = threadIdx.x % 32):
    `8*lane+4` where they step evenly, else the first few, `lanes{0,4,8,12,256,...}`."""
    step = offsets[1] - offsets[0] if len(offsets) > 1 else 0
    if all(off == offsets[0] + step * lane for lane, off in enumerate(offsets)):
        start = offsets[0]
        return f"{step}*lane" + (f"+{start}" if start > 0 else f"-{-start}" if start < 0 else "")
    return "lanes{" + ",".join(str(off) for off in offsets[:6]) + ",...}"


def staging_action(staging: dict[str, Any]) -> tuple[str, str]:
    """(verdict, style) for an access of a block the pass considered staging
    through shared memory."""
    if staging["transformed"]:
        if staging.get("kind") == "window":
            window = staging["arrays"][0]["window_bytes"]
            return (f"staged through a shared-memory window ({window} B per thread, "
                    f"{staging['tile_bytes']} B)"), "green"
        if staging.get("kind") == "transposed":
            return (f"transposed through a shared tile (rows padded by one element, "
                    f"{staging['tile_bytes']} B)"), "green"
        tile = staging.get("tile", "block")
        turns = ", one array at a time" if staging.get("arrays_in_turn") else ""
        return (f"staged through shared memory ({tile} tile{'s' if tile == 'warp' else ''}{turns}, "
                f"{staging['tile_bytes']} B)"), "green"
    return "not staged: " + staging["reason"], "yellow"


def _rewritten(access: dict[str, Any], groups: list[dict[str, Any]], stagings: list[dict[str, Any]]) -> bool:
    staged = "staging" in access and stagings[access["staging"]]["transformed"] and "left_out" not in access
    return bool(staged or ("group" in access and groups[access["group"]]["transformed"]))


def promotion_action(access: dict[str, Any], promotions: list[dict[str, Any]]) -> tuple[str, str] | None:
    """The verdict of an access in a loop whose element the pass keeps (or
    does not keep) in registers; None when no promotion decided it."""
    if "promotion" not in access or not promotions:
        return None
    p = promotions[access["promotion"]]
    if p["transformed"]:
        return (f"kept in registers for the loop at line {p['line']}: loaded before it, stored after it "
                f"({p['overlap_checks']} overlap check{'' if p['overlap_checks'] == 1 else 's'} first)"), "green"
    if access.get("class") != "uncoalesced":
        return None
    return "not kept in registers for its loop: " + p["reason"], "yellow"


def action(access: dict[str, Any], groups: list[dict[str, Any]],
           stagings: list[dict[str, Any]] | None = None,
           promotions: list[dict[str, Any]] | None = None) -> tuple[str, str]:
    """(verdict, style) for one access."""
    if (promoted := promotion_action(access, promotions or [])) and promoted[1] == "green":
        return promoted
    if access.get("vector") and not _rewritten(access, groups, stagings or []):
        return (f"already coalesced: the backend moves each {access['vector']}-byte element as one vector "
                "per thread"), "dim"
    if "staging" in access and stagings:
        staging = stagings[access["staging"]]
        # A staged access is the staging's; an array left out of it says why
        # (also where the staging of the others was refused for a reason of
        # theirs: dslash's matrices beside its short index rows); a copy left
        # alone says why itself.
        if "left_out" in access:
            return "not staged: " + access["left_out"], "yellow"
        if staging["transformed"] or "group" not in access:
            return staging_action(staging)
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
        # A computed store is no copy: what matters is why no staging takes it.
        if group.get("missed") == "ComputedValue" and (verdict := shape_verdict(access)):
            return verdict, "yellow"
        return "left alone: " + group["reason"], "yellow"
    if access.get("class") == "unknown" or access["lane"] == "unknown":
        return "unknown: " + access.get("reason", "?"), "red"
    if access.get("space") == "shared":  # banks, not sectors
        ways = int(access.get("bank_ways", 1))
        return (f"shared memory: {ways}-way bank conflict", "yellow") if ways > 1 else (
            "shared memory: no bank conflict", "dim")
    if access["coalesced"]:
        return "already coalesced", "dim"
    if promoted:
        return promoted
    if any(p["transformed"] for p in promotions or []):
        return ("not staged: a loop of this kernel is kept in registers, and a kernel with a promoted loop "
                "gets no other rewrite"), "yellow"
    if access["lane"] == "warp":
        return ("uncoalesced (read lane by lane: COALDA rewrites addresses linear in "
                "threadIdx.x)"), "yellow"
    if verdict := shape_verdict(access):
        return verdict, "yellow"
    return "uncoalesced, not part of a copy", "yellow"


def shape_verdict(access: dict[str, Any]) -> str | None:
    """Why no staging takes an uncoalesced access: what its shape says (with
    advice for the source), else the collectors' rule the pass names
    (`uncollected`: a memory transfer, which has no shape of its own)."""
    if access.get("shape") in SHAPE_VERDICTS:
        return "not staged: " + SHAPE_VERDICTS[access["shape"]]
    if access.get("uncollected"):
        return "not staged: " + access["uncollected"]
    return None


# Why an uncoalesced access that no copy and no staging takes is left alone,
# by its shape (the report's `shape`).
SHAPE_VERDICTS = {
    "chunk": ("a per-thread chunk of run-time length (the lane stride is a run-time value, "
              "the offset advances with a loop): COALDA moves such chunks through a shared-memory "
              "window, the stores where the loop's loads have one"),
    "column": ("each thread touches one element at a run-time stride (a matrix column): "
               "no tile of the block's accesses is contiguous; walk rows with consecutive threads "
               "or store the matrix transposed"),
    "transposed": ("a column of a 2-D block (the address steps by its width with threadIdx.y) that no "
                   "store of the block writes once per thread: only such a store, and the loads of its "
                   "own element, are permuted through a tile"),
}


def findings(report: Report, kernel: dict[str, Any]) -> list[tuple[dict[str, Any], int, str, str]]:
    """One row per source access: (access, count, verdict, style). The IR
    accesses of one source access (an unrolled loop's copies, one per
    iteration) that read and end alike are merged, with their count."""
    rows: dict[tuple[Any, ...], list[Any]] = {}
    for access in kernel["accesses"]:
        verdict, style = action(access, kernel["groups"], kernel.get("stagings", []), kernel.get("promotions", []))
        key = (access.get("file"), access["line"], access["column"], access["kind"], access["width"],
               pattern(access), verdict)
        if key in rows:
            rows[key][1] += 1
        else:
            rows[key] = [access, 1, verdict, style]
    return [tuple(row) for row in rows.values()]  # type: ignore[misc]


# Kernel names (`copy_members<img::Rgb, 3>`) are never cut with an
# ellipsis: a name keeps its whole width when the console leaves room for
# the other columns at their narrowest (about OTHER_COLUMNS), and folds onto
# more lines otherwise.
OTHER_COLUMNS = 62


def _name_width(names: list[str], width: int | None) -> int:
    longest = max((len(n) for n in names), default=6)
    return longest if width is None else min(longest, max(12, width - OTHER_COLUMNS))


def findings_table(report: Report, width: int | None = None) -> Table:
    """The findings of one report; `width`: the console's, so that kernel
    names keep their room."""
    table = Table(title=f"COALDA findings for {report['source']} ({report['arch']}, -O{report['opt_level']})")
    table.add_column("kernel", style="bold", overflow="fold",
                     min_width=_name_width([k["name"] for k in report["kernels"]], width))
    table.add_column("location", overflow="fold")
    table.add_column("access")
    table.add_column("pattern")
    table.add_column("action / why not", overflow="fold")
    for kernel in report["kernels"]:
        if kernel.get("skipped"):  # over the pass's analysis budget
            table.add_row(kernel["name"], "", "", "", f"[yellow]{escape(kernel['skipped'])}[/]")
        elif not kernel["accesses"]:
            table.add_row(kernel["name"], "", "", "", "no global-memory accesses")
        for access, count, verdict, style in findings(report, kernel):
            where = f"{Path(access.get('file') or report['source']).name}:{access['line']}:{access['column']}"
            times = f" ×{count}" if count > 1 else ""
            table.add_row(
                kernel["name"], where, f"{access['kind']} {access['width']}B{times}",
                pattern(access), f"[{style}]{verdict}[/]",
            )
    return table


def print_findings(report: Report, console: Console, would: bool = False) -> None:
    """The table and the count of rewritten groups (`would`: analyze, which
    says what optimize does without writing it)."""
    console.print(findings_table(report, console.width))
    groups = [g for k in report["kernels"] for g in k["groups"]]
    done = sum(g["transformed"] for g in groups)
    verb = "would be rewritten" if would else "rewritten"
    console.print(f"{done} of {len(groups)} copy groups {verb} coalesced.")
    stagings = [s for k in report["kernels"] for s in k.get("stagings", [])]
    if stagings:
        staged = sum(s["transformed"] for s in stagings)
        verb = "would be staged" if would else "staged"
        console.print(f"{staged} of {len(stagings)} blocks of strided elements {verb} through shared memory.")
    # reshaped launches (-coalda-reshape-launches, as `coalda cc` builds them)
    for kernel in report["kernels"]:
        if kernel.get("launch"):
            console.print(f"{escape(kernel['name'])}: {escape(launch_said(kernel['launch']))}", soft_wrap=True)


_VERDICT_LABEL = {
    Verdict.MISMATCH: "[bold red]MISMATCH[/]",
    Verdict.RACE: "[bold red]RACE[/]",
    Verdict.RACY_ORIGINAL: "[bold yellow]RACY ORIGINAL[/]",
    Verdict.FAULT: "[bold red]FAULT[/]",
}


def _case(r: Any) -> tuple[str, int, str, str]:
    return (r.kernel, r.n, r.layout, r.against)


def _grouped(rows: list[Any]) -> list[tuple[Any, str]]:
    """(row, schedule cell): consecutive matching rows of one kernel, n,
    layout and comparison collapse into one row naming how many schedules."""
    out: list[tuple[Any, list[Any]]] = []
    for row in rows:
        r = row.result
        last = out[-1][1] if out else None
        key = _case(r)
        if last and r.match and last[-1].result.verdict is r.verdict and key == _case(last[0].result):
            last.append(row)
        else:
            out.append((row, [row]))
    return [(first, group[0].result.schedule if len(group) == 1 else f"all {len(group)}") for first, group in out]


def run_table(rows: list[Any], title: str, timed: bool) -> Table:
    """The table of `coalda run`: one row per comparison (matches under
    every schedule collapse into one row)."""
    table = Table(title=title)
    columns = ["kernel", "n", "layout"] + ([] if timed else ["schedule"]) + ["vs", "result"]
    columns += ["original ms", "optimized ms"] if timed else []
    for column in columns:
        justify = "right" if column == "n" or column.endswith("ms") else "left"
        if column == "kernel":
            table.add_column(column, overflow="fold")
        elif column == "result":
            table.add_column(column, justify=justify, overflow="fold")
        else:
            table.add_column(column, justify=justify, no_wrap=True)
    ms = lambda v: "" if v is None else f"{v:.3f}"  # noqa: E731
    for row, schedule in _grouped(rows):
        r = row.result
        if r.verdict is Verdict.NAN_PAYLOADS:
            result = f"[yellow]match but for NaN payloads[/] ({r.detail})"
        elif r.verdict is Verdict.UNCHECKED:
            result = f"[yellow]{r.detail}[/]"
        elif r.match:
            result = "[green]match[/]"
        else:
            result = f"{_VERDICT_LABEL.get(r.verdict, '[bold red]MISMATCH[/]')} {r.detail}"
        cells = [r.kernel, str(r.n), r.layout] + ([] if timed else [schedule]) + [r.against, result]
        table.add_row(*cells, *([ms(row.ms_original), ms(row.ms_optimized)] if timed else []))
    return table


def run_success(rows: list[Any]) -> str:
    """The closing line of a `coalda run` whose comparisons all match."""
    payloads = sum(1 for row in rows if row.result.verdict is Verdict.NAN_PAYLOADS)
    unchecked = [row.result for row in rows if row.result.verdict is Verdict.UNCHECKED]
    checked = len(rows) - len(unchecked)
    if not payloads:
        line = f"All {checked} comparisons match byte for byte."
    else:
        line = (f"All {checked} comparisons match; {payloads} of them byte for byte except inside doubles that "
                "are NaN on both sides, whose payload the GPU takes from either NaN operand.")
    unchanged = sum(1 for row in rows if row.result.same_code)
    if unchanged:
        line += (f" {unchanged} of them are of kernels the pass left as they were: the same code, run once as the "
                 "original.")
    one, alias, undefined = ([r for r in unchecked if r.unchecked is kind]
                             for kind in (Unchecked.ONE_THREAD, Unchecked.ALIAS, Unchecked.UNDEFINED_LANES))
    if one:
        launches = "launch was" if len(one) == 1 else "launches were"
        line += (f" {len(one)} one-thread overlap {launches} not checked ({_names(one)}: run by one thread, the "
                 "original reads __shared__ memory no thread wrote).")
    if alias:
        launches = "launch was" if len(alias) == 1 else "launches were"
        line += (f" {len(alias)} alias {launches} not checked ({_names(alias)}: with every buffer at one address, "
                 "the original's threads race).")
    if undefined:
        line += (f" {len(undefined)} that differ were not checked on the GPU ({_names(undefined)}: the original "
                 "stores vector lanes it leaves undefined; the emulator checks them).")
    return line


def _names(results: list[Any]) -> str:
    return ", ".join(sorted({r.kernel for r in results}))


def run_failure(rows: list[Any]) -> str:
    """'' when every comparison matches, else one line saying what failed:
    differences (mismatches, races, faults of the rewritten kernel) and racy
    originals (the test proves nothing) are counted apart."""
    bad = [row.result for row in rows if not row.result.match]
    racy = {(r.kernel, r.n, r.layout) for r in bad if r.verdict is Verdict.RACY_ORIGINAL}
    differ = [r for r in bad if r.verdict is not Verdict.RACY_ORIGINAL]
    parts = []
    if differ:
        kinds = {Verdict.MISMATCH: "mismatch", Verdict.RACE: "race in the rewritten kernel",
                 Verdict.FAULT: "fault of the rewritten kernel"}
        counts = {label: sum(1 for r in differ if r.verdict is v) for v, label in kinds.items()}
        what = ", ".join(f"{label}: {c}" for label, c in counts.items() if c)
        parts.append(f"{len(differ)} of {len(rows)} comparisons differ ({what})")
    if racy:
        kernels = ", ".join(sorted({k for k, _, _ in racy}))
        parts.append(f"racy original: the result of {kernels} depends on the schedule in {len(racy)} case(s), "
                     "so the comparison proves nothing; fix the test kernel")
    return "; ".join(parts)
