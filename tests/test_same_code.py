"""A kernel the pass left as it was runs once (oracle.same_code): the
emulator would compute the original's bytes again. What decides it,
ir.ModuleCode.closure, must tell apart every change that can change what a
launch computes (the kernel, a function it calls, a global it reads, a
metadata node, an attribute, a named type) and ignore what cannot (the
printer's numbering of metadata and attribute groups, debug locations,
other functions). And a planted change outside the kernel's own body is
still run and caught."""

from __future__ import annotations

import numpy as np
import pytest

from coalda.emulator.emulate import EmulatorExecutor
from coalda.ir import ModuleCode
from coalda.check.oracle import Verdict, check
from coalda.check.spec import KernelSpec, Param

# out[i] = twice(in[i]) + bias, for i < n; `other` is a kernel no one calls.
MODULE = """\
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pair = type { i32, i32 }

@bias = internal addrspace(1) global i32 7, align 4

define internal i32 @twice(i32 %x) #1 {
  %y = shl i32 %x, 1
  ret i32 %y
}

define void @k(ptr %out, ptr %in, i32 %n) #0 !dbg !10 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !range !20
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid, !dbg !11
  %in.range = icmp slt i32 %i, %n
  br i1 %in.range, label %body, label %done

body:
  %idx = sext i32 %i to i64
  %src = getelementptr inbounds i32, ptr %in, i64 %idx
  %v = load i32, ptr %src, align 4
  %t = call i32 @twice(i32 %v)
  %b = load i32, ptr addrspace(1) @bias, align 4
  %r = add i32 %t, %b
  %dst = getelementptr inbounds i32, ptr %out, i64 %idx
  store i32 %r, ptr %dst, align 4
  br label %done

done:
  ret void
}

define void @other(ptr %out) #0 {
  %p = getelementptr inbounds %struct.Pair, ptr %out, i64 0, i32 1
  store i32 1, ptr %p, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

attributes #0 = { nounwind }
attributes #1 = { nounwind readnone }

!nvvm.annotations = !{!0, !1}
!llvm.dbg.cu = !{!2}
!llvm.module.flags = !{!5}
!0 = !{ptr @k, !"kernel", i32 1}
!1 = !{ptr @other, !"kernel", i32 1}
!2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, emissionKind: LineTablesOnly)
!3 = !DIFile(filename: "k.cu", directory: "/")
!5 = !{i32 2, !"Debug Info Version", i32 3}
!10 = distinct !DISubprogram(name: "k", scope: !3, file: !3, line: 1, unit: !2, spFlags: DISPFlagDefinition)
!11 = !DILocation(line: 3, column: 5, scope: !10)
!20 = !{i32 0, i32 1024}
"""


def renumbered(text: str) -> str:
    """MODULE as the printer writes it when another function gained metadata
    and an attribute group first: every node and group number shifted."""
    for old, new in (("!20", "!31"), ("!11", "!22"), ("!10", "!21"), ("#1", "#3"), ("#0", "#2")):
        text = text.replace(old, new)
    return text


def changed(edit: tuple[str, str]) -> str:
    old, new = edit
    assert MODULE.count(old) == 1, old
    return MODULE.replace(old, new)


def closure(text: str, name: str = "k") -> str:
    return ModuleCode(text).closure(name)


def test_the_printers_numbering_and_debug_locations_do_not_count() -> None:
    assert closure(renumbered(MODULE)) == closure(MODULE)
    moved = changed(("!11 = !DILocation(line: 3, column: 5", "!11 = !DILocation(line: 9, column: 1"))
    assert closure(moved) == closure(MODULE)
    other = changed(("store i32 1, ptr %p", "store i32 2, ptr %p"))
    assert closure(other) == closure(MODULE), "a kernel the launch does not reach"
    assert closure(other, "other") != closure(MODULE, "other")


# Each a change of what a launch of k computes, outside and inside its body.
CHANGES = {
    "its body": ("%r = add i32 %t, %b", "%r = sub i32 %t, %b"),
    "a function it calls": ("%y = shl i32 %x, 1", "%y = shl i32 %x, 2"),
    "a global it reads": ("@bias = internal addrspace(1) global i32 7", "@bias = internal addrspace(1) global i32 8"),
    "a metadata node it names": ("!20 = !{i32 0, i32 1024}", "!20 = !{i32 0, i32 32}"),
    "an attribute group of a callee": ("attributes #1 = { nounwind readnone }", "attributes #1 = { nounwind }"),
}


@pytest.mark.parametrize("where", CHANGES)
def test_every_change_a_launch_can_see_counts(where: str) -> None:
    assert closure(changed(CHANGES[where])) != closure(MODULE)


def test_a_named_type_counts() -> None:
    wider = changed(("%struct.Pair = type { i32, i32 }", "%struct.Pair = type { i32, i64 }"))
    assert closure(wider, "other") != closure(MODULE, "other")
    assert closure(wider) == closure(MODULE)


def test_an_undefined_kernel_has_no_code() -> None:
    assert closure(MODULE, "absent") == ""


SPEC = KernelSpec("k", (Param("out", "out", "4*n"), Param("in", "in", "4*n"), Param("n", "value", "n")),
                  grid="cdiv(n, block)", block=64, align=4)


class Counting(EmulatorExecutor):
    """An emulator executor that counts its launches."""

    launches = 0

    def run(self, *args: object, **kwargs: object) -> None:  # type: ignore[override]
        self.launches += 1
        super().run(*args, **kwargs)  # type: ignore[arg-type]


def test_an_unchanged_kernel_runs_once_and_matches() -> None:
    original, optimized = Counting(MODULE), Counting(renumbered(MODULE))
    results = check(SPEC, lambda _: "k", original, optimized, 100, np.random.default_rng(0))
    assert len(results) == 16 and all(r.verdict is Verdict.MATCH and r.same_code for r in results)
    assert optimized.launches == 0 and original.launches == 16


@pytest.mark.parametrize("where", ["a function it calls", "a global it reads"])
def test_a_change_outside_the_kernels_body_is_run_and_caught(where: str) -> None:
    """The planted bugs the closure must not hide: k's own body is the
    same, what it calls or reads is not."""
    optimized = Counting(changed(CHANGES[where]))
    results = check(SPEC, lambda _: "k", EmulatorExecutor(MODULE), optimized, 100, np.random.default_rng(0))
    assert optimized.launches == 16
    assert results and all(r.verdict is Verdict.MISMATCH and not r.same_code for r in results)


class GpuLike:
    """An executor that is not Deterministic (as the GPU's, whose `code`
    attribute is its compiled object code, not a method): both always run."""

    def __init__(self, text: str) -> None:
        self.inner, self.code, self.launches = EmulatorExecutor(text), object(), 0

    def run(self, *args: object, **kwargs: object) -> None:
        self.launches += 1
        self.inner.run(*args, **kwargs)  # type: ignore[arg-type]


def test_an_executor_that_is_not_deterministic_runs_both() -> None:
    original, optimized = GpuLike(MODULE), GpuLike(MODULE)
    results = check(SPEC, lambda _: "k", original, optimized, 100, np.random.default_rng(0))
    assert all(r.verdict is Verdict.MATCH and not r.same_code for r in results)
    assert optimized.launches == 16
