; RUN: %opt -passes=coalda -S %s | FileCheck %s

; Defect 2: a 12-byte element of two 6-byte <3 x i16> members. Member-width
; units were 6 bytes (the gcd) indexed with a shift by log2(6) = 2: units
; overlapped and a third of each row was never copied on the misaligned path.
; The fallback unit must be a power of two dividing every member: 2 bytes,
; indexed by a shift of 1. No 6-byte unit is emitted.
; CHECK-LABEL: define void @pairs
; CHECK-NOT: coalda.copy6
; CHECK: coalda.copy2:
; CHECK: %coalda.copy2.units = lshr i32 %{{[0-9]+}}, 1
; CHECK: %[[OFF:[0-9]+]] = shl nuw i32 %{{[0-9]+}}, 1
; CHECK-NEXT: %[[OFF64:[0-9]+]] = zext i32 %[[OFF]] to i64
; CHECK-NEXT: getelementptr i8, ptr %coalda.src, i64 %[[OFF64]]
; CHECK: load i16, ptr %{{[0-9]+}}, align 2
; CHECK-NOT: coalda.copy6

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @pairs(ptr noalias %dst, ptr noalias %src, i32 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %in = icmp slt i32 %i, %n
  br i1 %in, label %copy, label %done

copy:
  %idx = sext i32 %i to i64
  %s0 = getelementptr inbounds [6 x i16], ptr %src, i64 %idx
  %d0 = getelementptr inbounds [6 x i16], ptr %dst, i64 %idx
  %v0 = load <3 x i16>, ptr %s0, align 2
  store <3 x i16> %v0, ptr %d0, align 2
  %s1 = getelementptr inbounds i8, ptr %s0, i64 6
  %d1 = getelementptr inbounds i8, ptr %d0, i64 6
  %v1 = load <3 x i16>, ptr %s1, align 2
  store <3 x i16> %v1, ptr %d1, align 2
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @pairs, !"kernel", i32 1}
