"""A rewritten kernel launches wherever its original launched.

A kernel without launch bounds may be launched with blocks of 1024 threads,
which leave each thread 64 registers (65,536 per SM). ptxas gives the whole
kernel one register count, and a rewritten kernel carries its staged path
beside the original's, so the count can cross 64 where the original's did
not: the kernel then fails to launch at 1024 threads
(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES; found on an H200, docs/runs/o0/). On the
corpus, softmax's `softMax` went from 27 registers to 72
(docs/programs/registers.md).

Which kernels cross the line only ptxas can tell, so the rule runs after it
(`coalda cc`, `coalda optimize`): a rewritten kernel that declares no bound
of its own (.maxntid, .reqntid, .maxnreg), that ptxas gives more than 64
registers, and whose original it gives at most 64, gets `.maxnreg 64` in its
PTX entry and is assembled again. ptxas then keeps it within 64, spilling
where it must. The limit is not put on every rewritten kernel: under a limit
ptxas takes registers up to it (geglu 40 -> 52, sph 32 -> 48: fewer warps
per SM), and an original over 64 could not launch at 1024 threads anyway
(lulesh's integrateStress, 94 before the pass, would spill 600 bytes at 64).

In a `coalda cc` build the limited kernel K also keeps a twin,
`K__coalda_grid`, the same PTX without the limit (`with_twins`), and K's
stub launches the twin wherever the device holds a block of it at the
launch's block size (pass/runtime/LaunchGrid.cpp's bounded form, no
measurement): the limit then costs only the launches that need it. On
dslash (256 threads a block) the limit cost 20% (docs/runs/launches/README.md,
run 10). Launches that do not go through K's stub run K, which launches
everywhere its original did.

COALDA_REGISTER_LIMIT=off leaves every kernel as ptxas sizes it (to measure
what the limit costs, or for programs that never launch 1024 threads).

sm_53 and sm_62 (Tegra) allow 32K registers per block: there the line is 32
(`limit_for`).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..errors import CoaldaError, ToolFailed

LIMIT = 64  # registers per thread that let a block of 1024 threads launch
SMALL_REGISTER_FILES = {"sm_53": 32, "sm_62": 32}  # 32K registers per block
_BOUNDS = re.compile(r"(?:^|\s)\.(maxntid|reqntid|maxnreg)\b", re.M)
# what PTX text says without meaning: comments (inline assembly's are copied
# into a body verbatim, braces and all) and string literals
_INERT = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/', re.S)
_LINKAGE = (".visible", ".weak", ".extern")
# the lines -v adds to ptxas's stderr
_REPORT = re.compile(r"ptxas info\s*:|\s+(Compile time|Function properties|\d+ bytes (stack|spill)|Used \d+)")


@dataclass(frozen=True)
class Usage:
    """What ptxas gives one kernel."""

    registers: int
    spill_bytes: int  # spill stores + spill loads


@dataclass(frozen=True)
class Limited:
    """A kernel given `.maxnreg LIMIT`: its registers before the pass, and
    after it without the limit."""

    symbol: str
    before: int
    after: int
    limit: int = LIMIT


def limit_for(arch: str) -> int:
    """The registers per thread that let a block of 1024 threads launch on ARCH."""
    return SMALL_REGISTER_FILES.get(arch, LIMIT)


def parse_usage(ptxas_stderr: str) -> dict[str, Usage]:
    """Kernel symbol -> Usage, from `ptxas -v`'s report."""
    out: dict[str, Usage] = {}
    current, spills = None, 0
    for line in ptxas_stderr.splitlines():
        if m := re.search(r"Compiling entry function '([^']+)'", line):
            current, spills = m.group(1), 0
        elif m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line):
            spills = int(m.group(1)) + int(m.group(2))
        elif (m := re.search(r"Used (\d+) registers", line)) and current:
            out[current], current = Usage(int(m.group(1)), spills), None
    return out


def within_limit(usage: dict[str, Usage], arch: str) -> bool:
    """Whether every kernel of USAGE stays within ARCH's line."""
    return all(u.registers <= limit_for(arch) for u in usage.values())


def ptxas_argv(ptxas: Path, ptx: Path, arch: str, output: Path | str, flags: Sequence[str] = ()) -> list[str]:
    """The ptxas command line `assemble` runs."""
    return [str(ptxas), "-m64", "-v", "--gpu-name", arch, *flags, "--output-file", str(output), str(ptx)]


def assemble(ptxas: Path, ptx: Path, arch: str, output: Path | str, flags: Sequence[str] = ()) -> dict[str, Usage]:
    """ptxas -v: PTX to OUTPUT (a cubin, or /dev/null); each kernel's usage.
    ptxas's warnings go to stderr as without -v; its report too when FLAGS
    ask for it (-v)."""
    argv = ptxas_argv(ptxas, ptx, arch, output, flags)
    try:
        proc = subprocess.run(argv, capture_output=True, text=True)
    except OSError as exc:
        raise CoaldaError(f"cannot run {ptxas}: {exc.strerror}") from None
    if proc.returncode != 0:
        raise ToolFailed(f"ptxas could not assemble {ptx}", argv, proc.returncode, proc.stderr)
    verbose = "-v" in flags or "--verbose" in flags
    sys.stderr.write("".join(line for line in proc.stderr.splitlines(keepends=True)
                             if verbose or not _REPORT.match(line)))
    return parse_usage(proc.stderr)


def _masked(ptx: str) -> str:
    """PTX with its comments and strings blanked, character for character
    (newlines kept): positions in it are positions in PTX."""
    return _INERT.sub(lambda m: re.sub(r"[^\n]", " ", m[0]), ptx)


@dataclass(frozen=True)
class _Entry:
    """Where a PTX entry lies: from its line (its linkage's, on the line of
    `.entry` or before it) past its closing brace; its name; where its
    parameter list ends and its body opens (its directives lie between)."""

    symbol: str
    start: int
    name_at: int
    params_end: int
    body: int
    end: int


def _entries(code: str) -> list[_Entry]:
    """Each entry of CODE, PTX as _masked gives it (comments and strings,
    inline assembly's among them, are not read)."""
    found = []
    for m in re.finditer(r"\.entry\s+([\w$.]+)\s*\(", code):
        params_end = code.index(")", m.end())
        body = code.index("{", params_end)
        found.append(_Entry(m[1], _entry_start(code, m.start()), m.start(1), params_end, body,
                            _entry_end(code, body)))
    return found


def _entry_start(code: str, at: int) -> int:
    """The start of the line of the linkage words before `.entry` at AT."""
    k = at
    while True:
        j = k
        while j > 0 and code[j - 1] in " \t\n":
            j -= 1
        word = next((w for w in _LINKAGE if code.endswith(w, 0, j) and (j == len(w) or code[j - len(w) - 1] in " \t\n")),
                    None)
        if word is None:
            return code.rfind("\n", 0, k) + 1
        k = j - len(word)


def _entry_end(code: str, body: int) -> int:
    """Past the closing brace of the body that opens at BODY: the body's
    inner blocks (a call sequence's) nest."""
    depth = 0
    for k in range(body, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    raise CoaldaError("the PTX after the pass has an entry whose braces do not balance (a backend fault: report "
                      "it with the source)")


def own_bounds(ptx: str) -> set[str]:
    """The kernels whose PTX entry declares a bound of its own."""
    code = _masked(ptx)
    return {e.symbol for e in _entries(code) if _BOUNDS.search(code, e.params_end, e.body)}


def crossings(before: dict[str, Usage], after: dict[str, Usage], bounded: set[str],
              limit: int = LIMIT) -> list[Limited]:
    """The kernels at most LIMIT registers before the pass and more after
    it, with no bound of their own."""
    return [Limited(k, before[k].registers, after[k].registers, limit) for k in sorted(after)
            if k in before and k not in bounded and before[k].registers <= limit < after[k].registers]


def with_limit(ptx: str, symbols: set[str], limit: int = LIMIT) -> str:
    """PTX with `.maxnreg LIMIT` in the entry directives of SYMBOLS."""
    out, last = [], 0
    for e in _entries(_masked(ptx)):
        if e.symbol in symbols:
            out += [ptx[last:e.body], f".maxnreg {limit}\n"]
            last = e.body
    return "".join(out) + ptx[last:]


def without_entries(ptx: str, symbols: set[str]) -> str:
    """PTX less the entries of SYMBOLS."""
    out, last = [], 0
    for e in _entries(_masked(ptx)):
        if e.symbol in symbols:
            out.append(ptx[last:e.start])
            last = e.end + 1 if ptx.startswith("\n", e.end) else e.end  # its line's end too
    return "".join(out) + ptx[last:]


def with_twins(ptx: str, symbols: set[str], suffix: str) -> str:
    """PTX with a copy of each entry of SYMBOLS named symbol + SUFFIX, right
    after it: the twin `coalda cc` keeps without the register limit,
    launched where a block of it fits (pass/runtime/LaunchGrid.cpp's
    bounded form). Its parameters keep their names (an entry's
    parameters are its own), and module-scope variables (shared tiles) are
    the same ones, as for any two kernels that use one. An entry of that
    name already there (a reshape build's variant of another form) is
    dropped: the twin takes its place."""
    ptx = without_entries(ptx, {symbol + suffix for symbol in symbols})
    out, last = [], 0
    for e in _entries(_masked(ptx)):
        if e.symbol in symbols:
            renamed = e.name_at + len(e.symbol)
            twin = ptx[e.start:renamed] + suffix + ptx[renamed:e.end]
            out += [ptx[last:e.end], "\n\n", twin]
            last = e.end
    return "".join(out) + ptx[last:]


def wanted(flags: Sequence[str]) -> bool:
    """Whether the limit applies: not under COALDA_REGISTER_LIMIT=off, nor
    where ptxas's FLAGS bound every kernel already (--maxrregcount)."""
    return os.environ.get("COALDA_REGISTER_LIMIT") != "off" and not any("maxrregcount" in f for f in flags)


def limit_crossings(ptxas: Path, before: Path, after: Path, arch: str, output: Path | str,
                    flags: Sequence[str] = (), after_usage: dict[str, Usage] | None = None,
                    twin_suffix: str = "") -> list[Limited]:
    """Assembles AFTER (PTX after the pass) to OUTPUT; when a kernel crosses
    the line against BEFORE (the PTX without the pass), rewrites AFTER with
    the limit on those kernels and assembles it again. AFTER_USAGE: AFTER
    already assembled to OUTPUT (its usage), when the caller did. A user's
    --maxrregcount among FLAGS bounds every kernel already: nothing is done.
    TWIN_SUFFIX: each limited kernel also keeps a twin of that name without
    the limit (with_twins), for a host that launches it where it fits."""
    if not wanted(flags):
        if after_usage is None:
            assemble(ptxas, after, arch, output, flags)
        return []
    if after_usage is None:
        after_usage = assemble(ptxas, after, arch, output, flags)
    if within_limit(after_usage, arch):
        return []
    return _limit(ptxas, before, after, arch, output, flags, after_usage, twin_suffix)


def limit_rewritten(ptxas: Path, before: Path, after: Path, arch: str, rewritten: set[str]) -> list[Limited]:
    """limit_crossings for `coalda optimize`, which keeps no cubin: ptxas
    assembles only the REWRITTEN kernels (a kernel the pass left as it was
    cannot cross), none when there are none."""
    if not rewritten or not wanted(()):
        return []
    entries = ["--entry", ",".join(sorted(rewritten))]
    after_usage = assemble(ptxas, after, arch, "/dev/null", entries)
    if within_limit(after_usage, arch):
        return []
    return _limit(ptxas, before, after, arch, "/dev/null", entries, after_usage)


def _limit(ptxas: Path, before: Path, after: Path, arch: str, output: Path | str, flags: Sequence[str],
           after_usage: dict[str, Usage], twin_suffix: str = "") -> list[Limited]:
    text = after.read_text()
    limit = limit_for(arch)
    limited = crossings(assemble(ptxas, before, arch, "/dev/null", flags), after_usage, own_bounds(text), limit)
    if limited:
        symbols = {x.symbol for x in limited}
        if twin_suffix:
            text = with_twins(text, symbols, twin_suffix)
        after.write_text(with_limit(text, symbols, limit))
        assemble(ptxas, after, arch, output, flags)
    return limited
