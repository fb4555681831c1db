"""`coalda analyze --html OUT.html`: one self-contained HTML page (no script,
no external resource) per run.

For each analysed file: its kernels at a glance, the source of every file
with a finding, each finding (the compiler-style warning and its note) in a
row right below its line, a cost heat per line (the sectors per warp request
beyond the ideal that `coalda.findings.diagnostics` estimates, summed over the line's
accesses), and for each kernel that `coalda optimize` would rewrite its
device IR before and after, then the module's whole diff.

Every text that comes from the source, the IR or the report is escaped.
Rows of the source table carry `data-line` (and findings `data-column` and
`data-rule`) so that a test or a script can read the page back.
"""

from __future__ import annotations

import html
import os
import re
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from .diagnostics import Diagnostic, diagnostics
from ..errors import CoaldaError
from ..report import Report


@dataclass
class FileResult:
    """One analysed .cu: its report and its device IR before and after COALDA."""

    report: Report
    before: str
    after: str
    diff: str


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 2em 3em; color: #1d1f21; background: #fff; }
h1 { font-size: 1.5em; margin: 1em 0 .2em; } h2 { margin-top: 2em; border-bottom: 2px solid #ccc; }
h3 { margin: 1.5em 0 .4em; font-family: ui-monospace, monospace; font-size: 1em; }
.meta { color: #555; margin: .2em 0 1em; }
table { border-collapse: collapse; }
table.kernels td, table.kernels th { padding: .2em .8em; border-bottom: 1px solid #ddd; text-align: left; }
table.kernels td.num { text-align: right; }
table.source { width: 100%; font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
table.source td { padding: 0 .5em; vertical-align: top; }
table.source td.no { color: #999; text-align: right; user-select: none; width: 3em; }
table.source td.heat { width: 3.5em; text-align: right; color: #7a1010; font-weight: 600; }
table.source td.code { white-space: pre; }
table.source td.code pre { margin: 0; font: inherit; }
tr.finding td.msg { white-space: normal; padding: .25em .6em .35em; font-family: system-ui, sans-serif; }
tr.finding.coalda-uncoalesced td.msg { background: #fff3cd; border-left: 4px solid #d39e00; }
tr.finding.coalda-unknown td.msg { background: #eef1f5; border-left: 4px solid #6c7a89; }
tr.finding.rewritten td.msg { background: #e6f4ea; border-left: 4px solid #2e8540; }
.warning { font-weight: 600; } .rule { color: #666; } .note { color: #333; }
.legend span { display: inline-block; padding: 0 .6em; margin-right: .3em; }
.ir { display: flex; gap: 1em; } .ir > div { flex: 1; min-width: 0; }
pre.ir, pre.diff { max-height: 32em; overflow: auto; background: #f6f8fa; padding: .6em;
  font: 12px/1.35 ui-monospace, monospace; border: 1px solid #ddd; }
pre.diff .add { background: #e6ffec; display: block; } pre.diff .del { background: #ffebe9; display: block; }
pre.diff .hunk { color: #0550ae; display: block; }
details { margin: .5em 0; } summary { cursor: pointer; }
"""


def _heat_color(value: int, top: int) -> str:
    """A background from pale yellow to red, by the line's share of the worst line's cost."""
    if value <= 0 or top <= 0:
        return ""
    share = min(value / top, 1.0)
    hue = 50 - 50 * share
    light = 88 - 30 * share
    return f"background: hsl({hue:.0f}, 95%, {light:.0f}%)"


def _function(ir: str, symbol: str) -> str:
    """The definition of SYMBOL in a textual IR module ('' when absent)."""
    head = re.compile(rf'^define [^\n]*@"?{re.escape(symbol)}"?\(', re.M)
    match = head.search(ir)
    if not match:
        return ""
    end = ir.find("\n}\n", match.start())
    return ir[match.start(): len(ir) if end < 0 else end + 2]


def _group_text(group: dict[str, Any]) -> str:
    parts = [f"{group.get('members', '?')} members of {group.get('base', '?')} at stride "
             f"{group.get('stride', '?')} B ({group.get('expr', '')})"]
    if group.get("units"):
        parts.append("/".join(str(u) for u in group["units"]) + "-byte units")
    if group.get("overlap_check"):
        parts.append("overlap-checked")
    if group.get("guard", "none") != "none":
        parts.append(f"{group['guard']} guard")
    if group.get("flat"):
        parts.append("flat grid-stride copy")
    return ", ".join(parts)


def _read(path: str) -> list[str] | None:
    try:
        return Path(path).read_text(errors="replace").splitlines()
    except OSError:
        return None


def _source_table(path: str, lines: list[str], diags: list[Diagnostic], top: int) -> str:
    by_line: dict[int, list[Diagnostic]] = defaultdict(list)
    for d in diags:
        by_line[d.line].append(d)
    heat = {line: sum(d.excess for d in ds) for line, ds in by_line.items()}
    out = [f'<table class="source" data-file="{esc(path)}">']
    for number, code in enumerate(lines, start=1):
        cost = heat.get(number, 0)
        title = f' title="{cost} excess sectors per warp request on this line"' if cost else ""
        out.append(
            f'<tr class="line" data-line="{number}"><td class="no">{number}</td>'
            f'<td class="heat" data-excess="{cost}" style="{_heat_color(cost, top)}"{title}>{cost or ""}</td>'
            f'<td class="code"><pre>{esc(code)}</pre></td></tr>'
        )
        for d in sorted(by_line.get(number, []), key=lambda d: d.column):
            rewritten = " rewritten" if d.note.startswith("COALDA rewrites it") else ""
            kernel = f" in {esc(d.kernel)}" if d.kernel else ""
            out.append(
                f'<tr class="finding {esc(d.rule)}{rewritten}" data-line="{d.line}" data-column="{d.column}" '
                f'data-rule="{esc(d.rule)}"><td class="no"></td><td class="heat"></td><td class="msg">'
                f'<div class="warning">{d.line}:{d.column}{kernel}: {esc(d.message)} '
                f'<span class="rule">[{esc(d.rule)}]</span></div>'
                f'<div class="note">note: {esc(d.note)}</div></td></tr>'
            )
    # a finding at a line past the end (a file changed since): still shown
    for number in sorted(n for n in by_line if n > len(lines) or n < 1):
        for d in by_line[number]:
            out.append(
                f'<tr class="finding {esc(d.rule)}" data-line="{d.line}" data-column="{d.column}" '
                f'data-rule="{esc(d.rule)}"><td class="no"></td><td class="heat"></td><td class="msg">'
                f'<div class="warning">{d.line}:{d.column}: {esc(d.message)}</div></td></tr>'
            )
    out.append("</table>")
    return "\n".join(out)


def _diff_html(diff: str) -> str:
    rows = []
    for line in diff.splitlines():
        cls = ("hunk" if line.startswith("@@") else "add" if line.startswith("+") and not line.startswith("+++")
               else "del" if line.startswith("-") and not line.startswith("---") else "")
        rows.append(f'<span class="{cls}">{esc(line)}</span>' if cls else esc(line))
    return "\n".join(rows)


def _kernels_table(report: Report, diags: list[Diagnostic]) -> str:
    rows = ['<table class="kernels"><tr><th>kernel</th><th>accesses</th><th>uncoalesced</th><th>unknown</th>'
            '<th>excess sectors</th><th>rewritten (copies and stagings)</th></tr>']
    for kernel in report["kernels"]:
        mine = [d for d in diags if d.kernel == kernel["name"]]
        considered = _considered(kernel)
        rows.append(
            f'<tr><td><a href="#{esc(_anchor(report, kernel))}">{esc(kernel["name"])}</a></td>'
            f'<td class="num">{len(kernel["accesses"])}</td>'
            f'<td class="num">{sum(d.rule == "coalda-uncoalesced" for d in mine)}</td>'
            f'<td class="num">{sum(d.rule == "coalda-unknown" for d in mine)}</td>'
            f'<td class="num">{sum(d.excess for d in mine)}</td>'
            f'<td class="num">{sum(bool(c["transformed"]) for c in considered)} of {len(considered)}</td></tr>'
        )
    rows.append("</table>")
    return "\n".join(rows)


def _anchor(report: Report, kernel: dict[str, Any]) -> str:
    return "k-" + re.sub(r"[^A-Za-z0-9_.-]", "_", f"{Path(report['source']).name}-{kernel['symbol']}")


def _considered(kernel: dict[str, Any]) -> list[dict[str, Any]]:
    """Every rewrite the pass considered in KERNEL, of every kind: its copy
    groups and its stagings (element, transposed, window)."""
    return [*kernel.get("groups", []), *kernel.get("stagings", [])]


def _rewrite_text(item: dict[str, Any]) -> str:
    """A done rewrite, named by its typed kind (a staging's `kind`)."""
    return f"{item['kind']} staging: {item['reason']}" if "kind" in item else _group_text(item)


def _rewrites(result: FileResult) -> str:
    out = []
    for kernel in result.report["kernels"]:
        done = [c for c in _considered(kernel) if c["transformed"]]
        anchor = esc(_anchor(result.report, kernel))
        if not done:
            out.append(f'<p id="{anchor}" class="unchanged">{esc(kernel["name"])}: nothing rewritten.</p>')
            continue
        items = "".join(f"<li>{esc(_rewrite_text(c))}</li>" for c in done)
        before, after = _function(result.before, kernel["symbol"]), _function(result.after, kernel["symbol"])
        out.append(
            f'<details class="rewrite" id="{anchor}" data-kernel="{esc(kernel["name"])}" open>'
            f'<summary><b>{esc(kernel["name"])}</b>: {len(done)} rewrite(s)</summary><ul>{items}</ul>'
            f'<div class="ir"><div><h4>before ({before.count(chr(10))} lines of IR)</h4>'
            f'<pre class="ir before">{esc(before)}</pre></div>'
            f'<div><h4>after ({after.count(chr(10))} lines of IR)</h4>'
            f'<pre class="ir after">{esc(after)}</pre></div></div></details>'
        )
    if result.diff.strip() and any(c["transformed"] for k in result.report["kernels"] for c in _considered(k)):
        out.append(f'<details class="diff"><summary>the whole module\'s diff (STEM.diff)</summary>'
                   f'<pre class="diff">{_diff_html(result.diff)}</pre></details>')
    return "\n".join(out)


def render(results: list[FileResult]) -> str:
    """The page."""
    per_file = [(r, [d for d in diagnostics(r.report)]) for r in results]
    every = [d for _, ds in per_file for d in ds]
    uncoalesced = sum(d.rule == "coalda-uncoalesced" for d in every)
    unknown = sum(d.rule == "coalda-unknown" for d in every)
    groups = [g for r in results for k in r.report["kernels"] for g in k.get("groups", [])]
    done = sum(bool(g["transformed"]) for g in groups)
    stagings = [s for r in results for k in r.report["kernels"] for s in k.get("stagings", [])]
    staged = sum(bool(s["transformed"]) for s in stagings)
    top = max((sum(d.excess for d in ds if (d.file, d.line) == key)
               for _, ds in per_file for key in {(d.file, d.line) for d in ds}), default=0)
    title = "COALDA report: " + ", ".join(Path(r.report["source"]).name for r in results)
    parts = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
        f'<p class="meta">coalda {esc(__version__)}: {len(results)} file(s), {uncoalesced} uncoalesced and '
        f"{unknown} unknown source accesses; {done} of {len(groups)} copy groups would be rewritten "
        f"coalesced and {staged} of {len(stagings)} stagings (elements, transposes, windows) done by "
        "<code>coalda optimize</code>.</p>",
        '<p class="legend">Heat: the 32-byte sectors a warp request touches beyond the ideal, summed over '
        'the line\'s accesses (times their count in the IR): '
        f'<span style="{_heat_color(1, 4)}">low</span><span style="{_heat_color(4, 4)}">high</span> '
        '(worst line on this page: ' + str(top) + ").</p>",
    ]
    for index, (result, diags) in enumerate(per_file):
        report = result.report
        source = report["source"]
        parts.append(f'<section class="report" id="file-{index}" data-source="{esc(source)}">')
        parts.append(f"<h2>{esc(source)}</h2>")
        parts.append(f'<p class="meta">{esc(report["arch"])}, -O{esc(report["opt_level"])}</p>')
        parts.append(_kernels_table(report, diags))
        files = [source] + sorted({d.file for d in diags} - {source})
        for path in files:
            mine = [d for d in diags if d.file == path]
            if path != source and not mine:
                continue
            lines = _read(path)
            parts.append(f"<h3>{esc(path)}</h3>")
            if lines is None:
                parts.append(f'<p class="missing">{esc(path)} cannot be read; its findings:</p>')
                lines = []
            parts.append(_source_table(path, lines, mine, top))
        parts.append("<h3>Rewrites</h3>")
        parts.append(_rewrites(result))
        parts.append("</section>")
    parts.append("</body></html>\n")
    return "\n".join(parts)


def write_html(path: Path, results: list[FileResult]) -> None:
    """Write the page to PATH whole or not at all."""
    page = render(results)
    target = path.resolve()
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    except OSError as exc:
        raise CoaldaError(f"cannot write the HTML report {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(page)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as exc:
        raise CoaldaError(f"cannot write the HTML report {path}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
