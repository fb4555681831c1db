"""Compiler-style diagnostics of `coalda analyze`: one per source access,
with the cost Nsight Compute would show (32-byte sectors per warp request),
ranked by the traffic they waste; as text (`FILE:LINE:COL: warning: ...`)
or SARIF 2.1.0 for code scanning.

The cost of an access with lane stride s bytes and pieces of w bytes (a
transfer moves several) is the number of distinct 32-byte sectors the 32
lanes of a full warp touch, from the start the address's constant offset
gives (an aligned start where other terms leave it unknown); a contiguous
access needs ceil(32*w/32) of them. An unknown access has no estimate.
docs/cost-validation.md compares these estimates with Nsight Compute.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .. import __version__
from ..report import Report, findings, lane_pattern

SECTOR = 32
WARP = 32
RULES = {
    "coalda-uncoalesced": "A warp's accesses touch more 32-byte sectors than the bytes they move need.",
    "coalda-unknown": "COALDA cannot read the address, so it cannot say whether the access is coalesced.",
    "coalda-bank-conflict": "A warp's shared-memory request reads or writes several words of one bank.",
}
# A lane-exact finding holds where a warp is 32 consecutive threadIdx.x of
# one block row; the message says so.
WARP_ASSUMPTION = "a warp being 32 consecutive threadIdx.x of one row"


def sectors(stride: int, width: int, phase: int = 0) -> int:
    """32-byte sectors one warp request touches: lanes at stride bytes apart
    each moving width bytes, lane 0 starting phase bytes past a sector boundary."""
    start = phase % SECTOR
    touched = {(start + abs(stride) * lane + byte) // SECTOR for lane in range(WARP) for byte in range(width)}
    return len(touched)


def _multiple_of_sector(term: str) -> bool:
    """Whether a uniform term of an address is a multiple of 32 bytes: its
    coefficient is, or it has a factor ntid.x (blocks are whole warps)."""
    coefficient, star, _ = term.partition("*")
    if "ntid.x" in term.split("*"):
        return True
    return bool(star) and coefficient.isdigit() and int(coefficient) % SECTOR == 0


def start_phase(access: dict[str, Any]) -> int:
    """Bytes past a 32-byte sector boundary at which lane 0 of a warp starts:
    the access's constant offset, when the base is allocation-aligned
    (cudaMalloc gives 256 B) and every other term of the address is a
    multiple of 32 bytes (the lane's stride times 32 lanes is); 0 (an
    aligned start, the best case) where a term's alignment is unknown."""
    expr = str(access.get("expr", ""))
    lane_term = f"{access.get('stride')}*{access.get('lane')}"
    terms = expr.replace(" - ", " + -").split(" + ")[1:]  # the first is the base
    for term in terms:
        term = term.removeprefix("-")
        if term == lane_term or term.isdigit():
            continue
        if not _multiple_of_sector(term):
            return 0
    return int(access.get("offset", 0)) % SECTOR


def ideal_sectors(width: int) -> int:
    return -(-WARP * width // SECTOR)


@dataclass
class Diagnostic:
    file: str
    line: int
    column: int
    rule: str
    message: str
    note: str
    excess: int  # sectors per request beyond the ideal, times the access's count (ranking)
    kernel: str = ""  # the kernel's source name (`copy<float, 3>`), not its symbol


def _cost(kind: str, access: dict[str, Any], stride: int) -> tuple[str, int]:
    """The message of a strided access and its excess sectors. An access of
    several pieces (a 3-byte struct copied whole, byte by byte) issues a warp
    request per piece; the ideal is what the bytes the warp needs take,
    32 x 3 B in 3 sectors, not one piece's sector."""
    width, piece = int(access["width"]), _piece(access)
    per_request = sectors(stride, piece, start_phase(access))
    if piece >= width:
        want = ideal_sectors(piece)
        return (f"{kind} of {width} B at stride {stride} B: {per_request} sectors per warp request "
                f"where {want} would do"), per_request - want
    requests = -(-width // piece)
    want = ideal_sectors(width)
    return (f"{kind} of {width} B at stride {stride} B in {requests} pieces of {piece} B: {requests} warp requests "
            f"of {per_request} sectors where {want} sectors in all would do"), requests * per_request - want


def _lane_exact_cost(kind: str, access: dict[str, Any]) -> tuple[str, int]:
    """The message of an access read lane by lane (`tid & 31`, `tid >> 2`,
    a pointer from a parameter struct) and its excess sectors: the pass
    counts them from the 32 lanes' offsets."""
    got, want = int(access["sectors"]), int(access["ideal_sectors"])
    return (f"{kind} of {access['width']} B at lane offsets {lane_pattern(access['lane_offsets'])}: "
            f"{got} sectors per warp request where {want} would do ({WARP_ASSUMPTION})"), got - want


def bank_conflict(kind: str, access: dict[str, Any]) -> str:
    ways = int(access["bank_ways"])
    return (f"shared {kind} of {access['width']} B: {ways}-way bank conflict, each warp request is "
            f"served in {ways} passes where 1 would do")


def _piece(access: dict[str, Any]) -> int:
    """Bytes one machine access moves (a memcpy: what its alignment allows)."""
    return int(access.get("piece", access["width"]))


def _note(access: dict[str, Any], verdict: str) -> str:
    if verdict.startswith("rewritten"):
        return "COALDA rewrites it (coalda optimize): " + verdict.removeprefix("rewritten: ")
    if verdict.startswith(("staged", "transposed")):
        return "COALDA stages it (coalda optimize): " + verdict
    if verdict.startswith("kept in registers"):
        return "COALDA keeps it in registers (coalda optimize): " + verdict
    advice = _advice(access, verdict)
    if verdict.startswith("not staged: "):
        if access.get("shape") not in ("transposed", "column", "chunk"):
            advice = "make consecutive threads touch consecutive bytes (a structure of arrays, a vector type)"
        return f"{advice}; COALDA does not stage it: " + verdict.removeprefix("not staged: ")
    if access.get("class") == "unknown":
        return advice
    return f"{advice}; {verdict}"


def _advice(access: dict[str, Any], verdict: str) -> str:
    """What the programmer can do, for this access's case (issue 36, item 8)."""
    reason = str(access.get("reason", ""))
    if access.get("class") == "unknown":
        if "data-dependent" in reason:  # a gather: no rewriting of the index makes it linear
            return ("a gather through data: its addresses depend on the values read, so sort or bucket "
                    "the indices for neighbouring threads to read neighbouring elements")
        return "make the index a linear function of threadIdx.x, or run coalda analyze -O0 to see the unrolled form"
    if access.get("shape") in ("transposed", "column"):
        return ("consecutive threads walk a column: swap the two indices so that threadIdx.x steps the "
                "last one, or go through a shared-memory tile")
    if access.get("shape") == "chunk":
        return ("each thread walks its own row: let consecutive threads take consecutive elements "
                "(a block- or grid-stride loop), or read the row through shared memory")
    # __restrict__ helps only where COALDA refused for a possible overlap
    restrict = ", or __restrict__ so that COALDA may stage it" if ("overlap" in verdict or "alias" in verdict) else ""
    return ("make consecutive threads touch consecutive bytes: a structure of arrays, a vector type "
            f"(float4, uchar4){restrict}")


def _by_source_access(rows: list[tuple[dict[str, Any], int, str, str]]) -> list[tuple[dict[str, Any], int, str, str]]:
    merged: dict[tuple[Any, ...], list[Any]] = {}
    for access, count, verdict, style in rows:
        key = (access.get("file"), access["line"], access["column"], access["kind"], access["width"],
               access.get("stride"), access.get("class"), verdict)
        if key in merged:
            merged[key][1] += count
        else:
            merged[key] = [access, count, verdict, style]
    return [tuple(row) for row in merged.values()]  # type: ignore[misc]


def diagnostics(report: Report) -> list[Diagnostic]:
    """One diagnostic per uncoalesced or unknown source access, worst first.
    The IR accesses of one source access that differ only in their offset
    (an unrolled loop's `out[8*i + k]`) are one diagnostic."""
    out = []
    for kernel in report["kernels"]:
        for access, count, verdict, _ in _by_source_access(findings(report, kernel)):
            cls = access.get("class")
            where = access.get("file") or report["source"]
            kind = access["kind"]
            if access.get("space") == "shared":  # banks, not sectors: never a global finding
                if int(access.get("bank_ways", 1)) > 1:
                    out.append(Diagnostic(where, access["line"], access["column"], "coalda-bank-conflict",
                                          bank_conflict(kind, access),
                                          "pad the shared array's rows by one word, or swap the indices "
                                          "so that consecutive threads touch consecutive words",
                                          (int(access["bank_ways"]) - 1) * count, kernel["name"]))
                continue
            if cls not in ("uncoalesced", "unknown"):
                continue
            if cls == "unknown":
                message = f"{kind} of {access['width']} B cannot be analysed: {access.get('reason', '?')}"
                out.append(Diagnostic(where, access["line"], access["column"], "coalda-unknown", message,
                                      _note(access, verdict), 0, kernel["name"]))
                continue
            stride = access["stride"]
            if "sectors" in access:
                message, excess = _lane_exact_cost(kind, access)
                excess *= count
            elif stride is None:
                message = f"{kind} of {access['width']} B at a run-time stride ({access['expr']})"
                excess = 0
            else:
                message, excess = _cost(kind, access, stride)
                excess *= count
            if count > 1:
                message += f" (x{count} in the IR)"
            out.append(Diagnostic(where, access["line"], access["column"], "coalda-uncoalesced", message,
                                  _note(access, verdict), excess, kernel["name"]))
    out.sort(key=lambda d: (-d.excess, d.rule, d.file, d.line, d.column))
    return out


SUPPRESS = "coalda: ignore"  # on the access's source line, in a comment
SYSTEM_DIRS = ("/usr/include/", "/usr/lib/", "/usr/local/include/", "/usr/local/cuda", "/opt/")


def _system_roots() -> tuple[str, ...]:
    """Where system headers live: the CUDA tree COALDA compiles with (thrust,
    CUB, the runtime's headers) and the usual system directories."""
    from ..errors import CoaldaError
    from ..driver.toolchain import cuda_path

    try:
        tree = Path(cuda_path())
    except CoaldaError:  # no CUDA tree yet: only the system directories
        return SYSTEM_DIRS
    return (str(tree) + "/", str(tree.resolve()) + "/", *SYSTEM_DIRS)


def in_system_header(file: str, roots: tuple[str, ...] | None = None) -> bool:
    path = Path(file)
    if not path.is_absolute():
        return False
    roots = roots if roots is not None else _system_roots()
    # as clang names it, and through the links of the CUDA tree (its headers
    # are the wheels')
    return str(path).startswith(roots) or str(path.resolve()).startswith(roots)


def suppressed(diag: Diagnostic, lines: dict[str, list[str]] | None = None) -> bool:
    """The access's source line says `coalda: ignore` (in a comment)."""
    cache = lines if lines is not None else {}
    if diag.file not in cache:
        try:
            cache[diag.file] = Path(diag.file).read_text(errors="replace").splitlines()
        except OSError:
            cache[diag.file] = []
    source = cache[diag.file]
    return 0 < diag.line <= len(source) and SUPPRESS in source[diag.line - 1]


def select(diags: list[Diagnostic], system_headers: bool = False, show: str = "all") -> list[Diagnostic]:
    """What `coalda analyze` shows and gates on: findings in system headers
    only with --system-headers (as clang's warnings), none on a line that
    says `coalda: ignore`, and only --show's class."""
    roots = _system_roots()
    cache: dict[str, list[str]] = {}
    rules = {"all": None, "uncoalesced": "coalda-uncoalesced", "unknown": "coalda-unknown",
             "bank-conflict": "coalda-bank-conflict"}
    out = []
    for d in diags:
        if not system_headers and in_system_header(d.file, roots):
            continue
        if suppressed(d, cache) or (rules[show] and d.rule != rules[show]):
            continue
        out.append(d)
    return out


def _fingerprint(uri: str, rule: str, message: str) -> tuple[str, str, str]:
    """What identifies a finding across runs: its file, rule and message,
    not its line (an edit above it moves it)."""
    return uri, rule, message.split(". ", 1)[0]


def new_since(diags: list[Diagnostic], baseline: str) -> list[Diagnostic]:
    """DIAGS less those a baseline SARIF log (an earlier run's) has: each of
    the baseline's findings accounts for one equal finding now."""
    try:
        log = json.loads(baseline)
        known: dict[tuple[str, str, str], int] = {}
        for run in log["runs"]:
            for result in run.get("results", []):
                uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                key = _fingerprint(uri, result["ruleId"], result["message"]["text"])
                known[key] = known.get(key, 0) + 1
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ValueError(f"not a SARIF log of coalda analyze ({type(exc).__name__}: {exc})") from None
    out = []
    for d in diags:
        key = _fingerprint(_artifact(d.file)["uri"], d.rule, d.message)
        if known.get(key, 0) > 0:
            known[key] -= 1
        else:
            out.append(d)
    return out


def text(diags: list[Diagnostic]) -> str:
    lines = []
    for d in diags:
        lines.append(f"{d.file}:{d.line}:{d.column}: warning: {d.message} [{d.rule}]")
        lines.append(f"{d.file}:{d.line}:{d.column}: note: {d.note}")
    return "\n".join(lines) + ("\n" if lines else "")


SRCROOT = "%SRCROOT%"  # the directory coalda ran in: code scanning maps it to the checkout


def _artifact(file: str) -> dict[str, str]:
    """A SARIF artifactLocation: a URI (percent-encoded: spaces and all)
    relative to %SRCROOT% for a file under the working directory, else an
    absolute file: URI (a system header)."""
    path = Path(file)
    absolute = path if path.is_absolute() else Path.cwd() / path
    try:
        relative = absolute.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return {"uri": absolute.resolve().as_uri()}
    return {"uri": quote(relative.as_posix()), "uriBaseId": SRCROOT}


def sarif(diags: list[Diagnostic]) -> str:
    """A SARIF 2.1.0 log with one run of COALDA."""
    results = [
        {
            "ruleId": d.rule,
            "level": "warning",
            "message": {"text": f"{d.message}. {d.note}"},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": _artifact(d.file),
                    "region": {"startLine": max(d.line, 1), "startColumn": max(d.column, 1)},
                }
            }],
        }
        for d in diags
    ]
    rules = [{"id": rid, "shortDescription": {"text": text_}} for rid, text_ in RULES.items()]
    log = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "COALDA", "version": __version__, "rules": rules}},
                  "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().as_uri() + "/"}},
                  "results": results}],
    }
    return json.dumps(log, indent=2) + "\n"


def counts(diags: list[Diagnostic]) -> dict[str, int]:
    return {"uncoalesced": sum(d.rule == "coalda-uncoalesced" for d in diags),
            "unknown": sum(d.rule == "coalda-unknown" for d in diags),
            "bank-conflict": sum(d.rule == "coalda-bank-conflict" for d in diags)}




# --- `coalda analyze --format json` -----------------------------------------

SCHEMA_VERSION = 2  # 2: {"reports": [...]} for one file too; accesses carry their sector cost


def sector_cost(access: dict[str, Any]) -> dict[str, int]:
    """The cost the text and SARIF give an uncoalesced global access at a
    constant stride, as the JSON report's keys: `sectors` per warp request,
    `ideal_sectors` (the fewest its bytes need, all its requests together)
    and, when it moves in several pieces, `requests`; {} for any other
    access, and for one that has the pass's own count (read lane by lane)."""
    stride = access.get("stride")
    if (access.get("class") != "uncoalesced" or access.get("space") == "shared"
            or not isinstance(stride, int) or "sectors" in access):
        return {}
    width, piece = int(access["width"]), _piece(access)
    cost = {"sectors": sectors(stride, piece, start_phase(access))}
    if piece >= width:
        return cost | {"ideal_sectors": ideal_sectors(piece)}
    return cost | {"ideal_sectors": ideal_sectors(width), "requests": -(-width // piece)}


def json_log(reports: list[Report]) -> dict[str, Any]:
    """What `--format json` prints, of one file or several alike: every
    report, each access with its sector cost (copies: the reports are not
    changed)."""
    return {"schema_version": SCHEMA_VERSION, "reports": [
        {**report, "kernels": [{**kernel, "accesses": [{**a, **sector_cost(a)} for a in kernel["accesses"]]}
                               for kernel in report["kernels"]]}
        for report in reports
    ]}
