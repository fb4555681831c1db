; RUN: %opt -passes=coalda -coalda-test-break-ir -S %s | FileCheck %s
; RUN: %opt -passes=coalda -coalda-test-break-ir -pass-remarks=coalda -pass-remarks-missed=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes=coalda -coalda-test-break-ir -coalda-report=%t.json -disable-output %s && FileCheck %s --check-prefix=JSON < %t.json

; The pass verifies every kernel it changed. -coalda-test-break-ir plants an
; invalid instruction after the rewrite; the verifier catches it and the
; original body is put back (opt's own verifier then passes), the group is
; reported as left alone with the reason, in remarks and in the JSON report.
; CHECK-LABEL: define void @copy3
; CHECK-NOT: coalda.
; CHECK: store i8 %b, ptr %db, align 1
; CHECK-NEXT: ret void
; CHECK-NOT: define

; REMARK: remark: {{.*}}copy into dst left alone: COALDA's rewrite did not pass the IR verifier (a COALDA bug, please report it): the original code is kept
; REMARK-NOT: coalesced copy

; JSON: "reason": "COALDA's rewrite did not pass the IR verifier
; JSON-NEXT: "stride": 3
; JSON-NEXT: "transformed": false

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

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @copy3, !"kernel", i32 1}
