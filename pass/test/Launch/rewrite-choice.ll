; RUN: %opt -passes=coalda -coalda-reshape-launches -coalda-choose-rewrites -coalda-report=%t.json -S %s | FileCheck %s
; RUN: FileCheck --check-prefix=REPORT %s < %t.json
; RUN: %opt -passes=coalda -coalda-reshape-launches -S %s | FileCheck --check-prefix=NOCHOICE %s
; RUN: %opt -passes=coalda -S %s | FileCheck --check-prefix=DEFAULT %s

; A kernel that copies 3-byte pixels and also writes a flag per thread: its
; copy is rewritten, but its whole effect is not one copy, so it gets no
; grid variant (BlockLoopCost). With -coalda-choose-rewrites the kernel is
; rewritten in place, as in any build, and the copy made before the rewrite
; is kept as its variant, copy_and_flag__coalda_grid (appended last): the
; host launches either on the same grid (RewriteChoice.cpp). Both are
; kernels by their annotations, the variant by its calling convention too,
; and the kernel is marked as having a rewrite-form variant.
; CHECK: @copy_and_flag__coalda_rewrite = addrspace(1) constant i8 1
; CHECK-NOT: __coalda_prefer
; CHECK-LABEL: define void @copy_and_flag(
; CHECK: coalda
; CHECK: ret void

; The kernel the pass leaves alone keeps no copy and gets no variant.
; CHECK-LABEL: define void @flag_only(
; CHECK-NOT: @flag_only.coalda.before.rewrite
; CHECK-NOT: define {{.*}}@flag_only__coalda

; The variant keeps the byte loads and stores as written.
; CHECK-LABEL: define ptx_kernel void @copy_and_flag__coalda_grid(
; CHECK: %r = load i8, ptr %s, align 1
; CHECK-NEXT: %d = getelementptr inbounds %struct.Pixel, ptr %dst, i64 %i64
; CHECK-NEXT: store i8 %r, ptr %d, align 1
; CHECK-NOT: coalda
; CHECK: ret void
; CHECK-NOT: .coalda.before.rewrite
; CHECK-DAG: !{ptr @copy_and_flag, !"kernel", i32 1}
; CHECK-DAG: !{ptr @copy_and_flag__coalda_grid, !"kernel", i32 1}

; The report says the launch is chosen at run time, of the rewrite form,
; with the reason there is no grid variant; until measured, the rewrite.
; REPORT: "launch": {
; REPORT-DAG: "form": "rewrite"
; REPORT-DAG: "kept": "launch kept: not profitable
; REPORT-DAG: "reason": "chosen at run time by measurement
; REPORT-DAG: "reshaped": false
; REPORT-DAG: "until_measured": "rewrite"
; REPORT-DAG: "variant": "copy_and_flag__coalda_grid"
; REPORT: "name": "copy_and_flag",
; REPORT-NEXT: "symbol": "copy_and_flag"

; Without -coalda-choose-rewrites (a clang that loads the plugin itself)
; and in a default build, the kernel is rewritten in place and nothing is
; kept beside it.
; NOCHOICE-LABEL: define void @copy_and_flag(
; NOCHOICE-NOT: __coalda_grid
; NOCHOICE-NOT: __coalda_rewrite
; DEFAULT-LABEL: define void @copy_and_flag(
; DEFAULT-NOT: __coalda_grid
; DEFAULT-NOT: .coalda.before.rewrite

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pixel = type { i8, i8, i8 }

define void @copy_and_flag(ptr noalias nocapture noundef writeonly %dst, ptr noalias nocapture noundef readonly %src, i32 noundef %n, ptr noalias noundef writeonly %out) {
entry:
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %base, %tid
  %i64 = sext i32 %i to i64
  %outp = getelementptr inbounds i8, ptr %out, i64 %i64
  store i8 1, ptr %outp, align 1
  %in = icmp slt i32 %i, %n
  br i1 %in, label %copy, label %done

copy:
  %s = getelementptr inbounds %struct.Pixel, ptr %src, i64 %i64
  %r = load i8, ptr %s, align 1
  %d = getelementptr inbounds %struct.Pixel, ptr %dst, i64 %i64
  store i8 %r, ptr %d, align 1
  %s1 = getelementptr inbounds i8, ptr %s, i64 1
  %g = load i8, ptr %s1, align 1
  %d1 = getelementptr inbounds i8, ptr %d, i64 1
  store i8 %g, ptr %d1, align 1
  %s2 = getelementptr inbounds i8, ptr %s, i64 2
  %b = load i8, ptr %s2, align 1
  %d2 = getelementptr inbounds i8, ptr %d, i64 2
  store i8 %b, ptr %d2, align 1
  br label %done

done:
  ret void
}

define void @flag_only(ptr noalias noundef writeonly %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds i8, ptr %out, i64 %t64
  store i8 1, ptr %p, align 1
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @copy_and_flag, !"kernel", i32 1}
!1 = !{ptr @flag_only, !"kernel", i32 1}
