; RUN: %opt -passes=coalda -coalda-max-registers=64 -S %s | FileCheck %s
; RUN: %opt -passes=coalda -coalda-max-registers=64 %s -o - | llc -march=nvptx64 -mcpu=sm_90 -o - | FileCheck %s --check-prefix=PTX
; RUN: %opt -passes=coalda -S %s | FileCheck %s --check-prefix=DEFAULT

; With -coalda-max-registers=64 (for a clang that loads the plugin itself;
; `coalda cc` and `coalda optimize` limit only the kernels that cross 64
; after ptxas), a rewritten kernel without launch bounds of its own gets
; `maxnreg` 64, which llc prints as `.maxnreg 64`. Both copies are rewritten;
; the one with __launch_bounds__ (maxntidx) keeps its own bound, and the
; kernel left as it was (a coalesced copy) gets nothing: one annotation is
; added, for copy3.
; CHECK-LABEL: define void @copy3
; CHECK: %coalda.fast =
; CHECK-LABEL: define void @bounded3
; CHECK: %coalda.fast =
; CHECK-LABEL: define void @coalesced
; CHECK-NOT: coalda
; CHECK: !nvvm.annotations = !{!0, !1, !2, !3, ![[LIMIT:[0-9]+]]}
; CHECK: ![[LIMIT]] = !{ptr @copy3, !"maxnreg", i32 64}

; llc prints it among copy3's entry directives, and bounded3 keeps its own.
; PTX-LABEL: .entry copy3(
; PTX: .maxnreg 64
; PTX-LABEL: .entry bounded3(
; PTX-NOT: .maxnreg
; PTX: .maxntid 256, 1, 1
; PTX-NOT: .maxnreg

; Off by default: under a limit ptxas takes registers up to it.
; DEFAULT-NOT: maxnreg

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @copy3(ptr noalias %dst, ptr noalias %src) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %s = getelementptr inbounds [3 x i8], ptr %src, i64 %idx
  %d = getelementptr inbounds [3 x i8], ptr %dst, i64 %idx
  %r = load i8, ptr %s, align 1
  store i8 %r, ptr %d, align 1
  %sg = getelementptr inbounds i8, ptr %s, i64 1
  %dg = getelementptr inbounds i8, ptr %d, i64 1
  %g = load i8, ptr %sg, align 1
  store i8 %g, ptr %dg, align 1
  %sb = getelementptr inbounds i8, ptr %s, i64 2
  %db = getelementptr inbounds i8, ptr %d, i64 2
  %b = load i8, ptr %sb, align 1
  store i8 %b, ptr %db, align 1
  ret void
}

define void @bounded3(ptr noalias %dst, ptr noalias %src) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %s = getelementptr inbounds [3 x i8], ptr %src, i64 %idx
  %d = getelementptr inbounds [3 x i8], ptr %dst, i64 %idx
  %r = load i8, ptr %s, align 1
  store i8 %r, ptr %d, align 1
  %sg = getelementptr inbounds i8, ptr %s, i64 1
  %dg = getelementptr inbounds i8, ptr %d, i64 1
  %g = load i8, ptr %sg, align 1
  store i8 %g, ptr %dg, align 1
  %sb = getelementptr inbounds i8, ptr %s, i64 2
  %db = getelementptr inbounds i8, ptr %d, i64 2
  %b = load i8, ptr %sb, align 1
  store i8 %b, ptr %db, align 1
  ret void
}

define void @coalesced(ptr noalias %dst, ptr noalias %src) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %s = getelementptr inbounds float, ptr %src, i64 %idx
  %d = getelementptr inbounds float, ptr %dst, i64 %idx
  %v = load float, ptr %s, align 4
  store float %v, ptr %d, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0, !1, !2, !3}
!0 = !{ptr @copy3, !"kernel", i32 1}
!1 = !{ptr @bounded3, !"kernel", i32 1}
!2 = !{ptr @bounded3, !"maxntidx", i32 256}
!3 = !{ptr @coalesced, !"kernel", i32 1}
