"""A rewritten kernel must launch wherever its original launched: with no
__launch_bounds__, a block of 1024 threads needs at most 64 registers per
thread (65536 per SM). ptxas (the CUDA 12 wheels') counts each kernel's
registers in the PTX `coalda optimize` and `coalda cc` write, before and
after the pass (coalda/driver/registers.py).

Found on an H200 on 2026-12-02 (docs/runs/o0/README.md): at -O0 the chunk
windows' kernels took 65-109 registers where the originals took 15-26, and
`coalda run` could not launch windows.cu's block_1024 (1024 threads) after
the pass: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES. At -O3 read_only_windows'
float_math_const and two_const_strides and real_shapes' row_softmax cross
the line too, and on the corpus softmax's softMax (27 -> 72)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from coalda.driver import registers
from coalda.driver.toolchain import find_ptxas
from conftest import REPO, TESTCASES, optimize_levels

SMALL = "--pass-arg=-coalda-stage-small-always"


def usage(ptx: Path) -> dict[str, registers.Usage]:
    return registers.assemble(find_ptxas(), ptx, "sm_90", "/dev/null")


def crossing(before: Path, after: Path) -> list[registers.Limited]:
    """The kernels that launch at 1024 threads before the pass and cannot
    after it (launch bounds of their own are what ptxas sizes for)."""
    return registers.crossings(usage(before), usage(after), registers.own_bounds(after.read_text()))


@pytest.mark.parametrize("stem,level", [("windows", 0)])  # -O3: softmax below
def test_rewritten_kernels_keep_the_register_budget(stem: str, level: int, tmp_path: Path) -> None:
    """The PTX `coalda optimize` writes launches at 1024 threads wherever the
    original did, and the report names the kernels given the limit. Without
    the limit (the `.maxnreg` lines taken out again), they would not: the
    check sees the bug it guards against."""
    ((out, report),) = optimize_levels(TESTCASES / "adversarial" / f"{stem}.cu", tmp_path, (level,), SMALL,
                                       ptx=True).values()
    before, after = out / f"{stem}.before.ptx", out / f"{stem}.after.ptx"
    assert usage(before) and crossing(before, after) == []
    limited = {k["symbol"]: k["register_limit"] for k in report["kernels"] if "register_limit" in k}
    assert limited and all(x["limit"] == 64 and x["before"] <= 64 < x["unlimited"] for x in limited.values())
    assert "| `register_limit`? |" in (REPO / "docs" / "report-schema.md").read_text()  # test_report_schema.OPTIMIZE_ONLY
    unlimited = tmp_path / "unlimited.ptx"
    unlimited.write_text(re.sub(r"^\.maxnreg 64\n", "", after.read_text(), flags=re.M))
    assert {x.symbol for x in crossing(before, unlimited)} == set(limited)
    # coalda cc's twins of the same kernels, on this real PTX (its entries'
    # inner blocks, its shared tiles): it assembles, each twin takes the
    # registers its kernel takes without the limit, and the kernels stay
    # within it
    twinned = tmp_path / "twinned.ptx"
    twinned.write_text(registers.with_limit(registers.with_twins(unlimited.read_text(), set(limited), "__twin"),
                                            set(limited)))
    sizes, free = usage(twinned), usage(unlimited)
    assert {k: sizes[k + "__twin"].registers for k in limited} == {k: free[k].registers for k in limited}
    assert all(sizes[k].registers <= 64 for k in limited) and len(sizes) == len(free) + len(limited)


def test_only_kernels_that_cross_get_the_limit() -> None:
    """A kernel with bounds of its own, or whose original was over 64 too
    (it never launched at 1024 threads), or that stays at 64, is left to
    ptxas: a limit makes ptxas take registers up to it (fewer warps per SM)."""
    use = registers.Usage
    before = {"a": use(27, 0), "b": use(94, 0), "c": use(20, 0), "d": use(20, 0), "e": use(64, 0)}
    after = {"a": use(72, 0), "b": use(92, 0), "c": use(64, 0), "d": use(80, 0), "e": use(65, 0)}
    assert registers.crossings(before, after, {"d"}) == [registers.Limited("a", 27, 72), registers.Limited("e", 64, 65)]
    # sm_53 and sm_62 have 32K registers a block: 32 a thread at 1024 threads
    assert registers.limit_for("sm_62") == registers.limit_for("sm_53") == 32 and registers.limit_for("sm_90") == 64
    assert registers.crossings({"c": use(20, 0)}, {"c": use(40, 0)}, set(), 32) == [registers.Limited("c", 20, 40, 32)]
    assert ".maxnreg 32\n" in registers.with_limit(PTX, {"k1"}, 32)


def test_ptxas_report_is_read_and_its_warnings_still_shown() -> None:
    """`ptxas -v`'s report gives each kernel's registers and spilled bytes;
    coalda keeps the report to itself unless the user asked for -v, and
    passes ptxas's warnings on as ptxas without -v would."""
    stderr = ("ptxas info    : 0 bytes gmem\n"
              "ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
              "ptxas info    : Function properties for k\n"
              "    8 bytes stack frame, 12 bytes spill stores, 4 bytes spill loads\n"
              "ptxas info    : Used 64 registers, used 0 barriers, 368 bytes cmem[0]\n")
    assert registers.parse_usage(stderr) == {"k": registers.Usage(64, 16)}
    warning = "ptxas warning : Stack size for entry function 'k' cannot be statically determined\n"
    assert [line for line in (stderr + warning).splitlines(keepends=True) if not registers._REPORT.match(line)] == [warning]


PTX = """.visible .entry k1(
\t.param .u64 k1_param_0
)
{
\tret;
}
.visible .entry k2(
\t.param .u64 k2_param_0
)
.maxntid 256, 1, 1
{
\tret;
}
"""


def test_the_limit_goes_in_the_entry_directives() -> None:
    assert registers.own_bounds(PTX) == {"k2"}
    limited = registers.with_limit(PTX, {"k1"})
    assert limited.count(".maxnreg 64") == 1
    assert ")\n.maxnreg 64\n{\n\tret;" in limited.split(".entry k2")[0]
    assert registers.own_bounds(limited) == {"k1", "k2"}


def test_a_limited_kernel_keeps_a_twin_without_the_limit() -> None:
    """coalda cc's twin: the whole entry, inner blocks included, copied
    right after it under K + suffix, its parameters as they were; the limit
    goes on K only, and a kernel not named gets no twin."""
    nested = PTX.replace("{\n\tret;\n}\n.visible .entry k2", "{\n\t{ // callseq\n\t}\n\tret;\n}\n.visible .entry k2")
    twinned = registers.with_limit(registers.with_twins(nested, {"k1"}, "__coalda_grid"), {"k1"})
    k1, twin, k2 = twinned.split(".visible .entry ")[1:]
    assert k1.startswith("k1(") and ".maxnreg 64" in k1 and k1.rstrip().endswith("}")
    assert twin.startswith("k1__coalda_grid(\n\t.param .u64 k1_param_0\n)\n{\n\t{ // callseq\n\t}\n\tret;\n}")
    assert ".maxnreg" not in twin and k2.startswith("k2(")
    assert registers.with_twins(PTX, {"k2"}, "_t").count(".entry k2_t(") == 1
    assert registers.with_twins(PTX, set(), "_t") == PTX
    # an entry of the twin's name already there (a reshape build's variant
    # of another form) gives way to the twin
    other = PTX + ".visible .entry k1__coalda_grid(\n)\n{\n\tbar.sync 0;\n}\n"
    replaced = registers.with_twins(other, {"k1"}, "__coalda_grid")
    assert replaced.count(".entry k1__coalda_grid(") == 1 and "bar.sync" not in replaced
    assert registers.without_entries(other, {"k1__coalda_grid"}) == PTX


# coalda cc's limit on a real program, with its -Wcoalda line: softmax, built by
# its own Makefile (tests/test_corpus_makefiles.py).
