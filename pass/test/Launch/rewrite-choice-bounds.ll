; RUN: %opt -passes=coalda -coalda-reshape-launches -coalda-choose-rewrites -coalda-max-registers=64 -S %s > %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck --check-prefix=NOLIMIT %s < %t.ll

; The kept original's annotations (RewriteChoice.cpp): it gets every
; annotation of its kernel as written, the launch bounds of
; __launch_bounds__ (maxntid) included, and not the register limit that
; RegisterBudget gives the rewrite of a kernel without bounds of its own
; (-coalda-max-registers, as a clang that loads the plugin itself may ask):
; the limit is the rewrite's, the original's registers stay as ptxas sizes
; them. A kernel with bounds of its own gets no limit at all.
; CHECK-DAG: !{ptr @copy_and_flag, !"kernel", i32 1}
; CHECK-DAG: !{ptr @copy_and_flag, !"maxnreg", i32 64}
; CHECK-DAG: !{ptr @copy_and_flag__coalda_grid, !"kernel", i32 1}
; CHECK-DAG: !{ptr @bounded_copy, !"maxntid", i32 256}
; CHECK-DAG: !{ptr @bounded_copy__coalda_grid, !"kernel", i32 1}
; CHECK-DAG: !{ptr @bounded_copy__coalda_grid, !"maxntid", i32 256}
; NOLIMIT-NOT: !{ptr @copy_and_flag__coalda_grid, !"maxnreg"
; NOLIMIT-NOT: !{ptr @bounded_copy{{.*}}, !"maxnreg"

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

define void @bounded_copy(ptr noalias nocapture noundef writeonly %dst, ptr noalias nocapture noundef readonly %src, i32 noundef %n, ptr noalias noundef writeonly %out) {
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

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()


!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @copy_and_flag, !"kernel", i32 1}
!1 = !{ptr @bounded_copy, !"kernel", i32 1}
!2 = !{ptr @bounded_copy, !"maxntid", i32 256}
