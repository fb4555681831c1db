; RUN: %opt -passes=coalda -coalda-reshape-launches -coalda-reshape-block-loops -S %s | FileCheck %s

; A rewritten copy whose entry block also holds a private array (an alloca
; that -O3 keeps, as a dynamically indexed local array is kept). The
; variant's loop must not contain it: an alloca in a loop takes new stack
; on every iteration. It stays in the variant's entry block, before the
; loop. The variant is a kernel by its calling convention as well as by
; its annotation (GridVariant.cpp's annotateLike: NVPTX's stale annotation
; cache in clang).
; CHECK-LABEL: define ptx_kernel void @copy_guarded_scratch__coalda_grid(
; CHECK-NEXT: vgrid.pre:
; CHECK-NEXT: %scratch = alloca [8 x i8], align 1
; CHECK-NEXT: %vgrid.first = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK: vgrid.block = phi
; CHECK-NOT: alloca
; CHECK: vgrid.done:

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pixel = type { i8, i8, i8 }

define void @copy_guarded_scratch(ptr noalias nocapture noundef writeonly %dst, ptr noalias nocapture noundef readonly %src, i32 noundef %n, ptr noalias noundef writeonly %out) {
entry:
  %scratch = alloca [8 x i8], align 1
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bdim = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %bid, %bdim
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = add i32 %base, %tid
  %lane = and i32 %tid, 7
  %lane64 = zext i32 %lane to i64
  %slot = getelementptr inbounds [8 x i8], ptr %scratch, i64 0, i64 %lane64
  store i8 1, ptr %slot, align 1
  %back = load i8, ptr %slot, align 1
  %i64 = sext i32 %i to i64
  %outp = getelementptr inbounds i8, ptr %out, i64 %i64
  store i8 %back, ptr %outp, align 1
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

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!nvvm.annotations = !{!0}
!0 = !{ptr @copy_guarded_scratch, !"kernel", i32 1}
