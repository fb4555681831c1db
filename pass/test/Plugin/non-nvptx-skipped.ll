; RUN: rm -f %t.json
; RUN: %opt -passes=coalda -coalda-report=%t.json -S %s | FileCheck %s
; RUN: test ! -e %t.json

; A host (x86-64) module is never touched, even with a kernel-shaped copy.
; CHECK-LABEL: define void @copy(
; CHECK-NOT: coalda.
; CHECK: ret void

; Nor is a report written for it: the host half of a CUDA compile with
; -fpass-plugin must not overwrite the device half's report.

target triple = "x86_64-unknown-linux-gnu"

define void @copy(ptr %dst, ptr %src, i64 %i) {
  %s = getelementptr i8, ptr %src, i64 %i
  %v = load i8, ptr %s
  %d = getelementptr i8, ptr %dst, i64 %i
  store i8 %v, ptr %d
  ret void
}
