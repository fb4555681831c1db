; RUN: %opt -passes=coalda -coalda-reshape-launches -coalda-reshape-block-loops -pass-remarks=coalda -pass-remarks-missed=coalda -S %s 2>&1 | FileCheck %s
; RUN: %opt -passes=coalda -coalda-reshape-launches -pass-remarks=coalda -pass-remarks-missed=coalda -S %s 2>&1 | FileCheck --check-prefix=DEFAULT %s
; RUN: %opt -passes=coalda -S %s | FileCheck --check-prefix=OFF %s

; Three kernels of one source (clang++-19 -O3 --cuda-device-only, no debug
; info): a guarded member-by-member copy of 3-byte pixels (rewritten into a
; region copy), a structure-of-arrays to array-of-structures write (staged
; through a block tile, with barriers), and the same copy as a grid-stride
; loop.
;
; With -coalda-reshape-block-loops the two one-element-per-thread kernels
; get a grid-stride variant: the copy one flat copy, the staging a loop over
; virtual blocks; the loop keeps its launch, with the reason.
; CHECK: remark: {{.*}}kernel `copy_guarded`: launch reshaped where its grid is larger than the device holds{{.*}}(one flat copy of the original grid's elements by all threads when aligned and disjoint, else each block loops over original blocks); until measured, the variant
; CHECK: remark: {{.*}}kernel `soa_to_aos`: launch reshaped{{.*}}(each block loops over original blocks); until measured, the kernel
; CHECK: remark: {{.*}}kernel `copy_grid_stride`: launch kept: each thread loops over its own work

; The copy's variant takes the original's parameters and the original
; grid's x size. In front of its loop over virtual blocks it is one flat
; copy: the elements are the original grid's threads in x (G * blockDim.x)
; below n (none when n is negative); it runs when that count fits 2^31
; (the original's 32-bit index never wrapped) and the buffers are aligned
; and disjoint, and then leaves.
; CHECK-LABEL: define {{.*}}@_Z12copy_guardedP5PixelPKS_i__coalda_grid(ptr {{.*}}, ptr {{.*}}, i32 noundef %2, i32 %coalda.grid)
; CHECK-NEXT: vgrid.pre:
; CHECK-NEXT: %vgrid.first = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %vgrid.step = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-NEXT: [[ANY:%[0-9]+]] = icmp ult i32 %vgrid.first, %coalda.grid
; CHECK: [[G:%[0-9]+]] = zext i32 %coalda.grid to i64
; CHECK-NEXT: %flat.gids = mul i64 [[G]], {{%[0-9]+}}
; CHECK-NEXT: [[FITS:%[0-9]+]] = icmp ule i64 %flat.gids, 2147483648
; CHECK-NEXT: [[N:%[0-9]+]] = sext i32 %2 to i64
; CHECK-NEXT: [[N0:%[0-9]+]] = call i64 @llvm.smax.i64(i64 [[N]], i64 0)
; CHECK-NEXT: [[END:%[0-9]+]] = call i64 @llvm.umin.i64(i64 %flat.gids, i64 [[N0]])
; CHECK-NEXT: [[COUNT:%[0-9]+]] = call i64 @llvm.smax.i64(i64 [[END]], i64 0)
; CHECK-NEXT: %flat.bytes = mul i64 [[COUNT]], 3
; CHECK: %flat.ok = and i1 {{%[0-9]+}}, [[FITS]]
; CHECK-NEXT: br i1 %flat.ok, label %flat.copy, label %flat.orig
; Otherwise the loop: it starts at its own block index and steps by its
; grid's size; the body reads the virtual block where the original read
; blockIdx.x.
; CHECK: [[BODY:[0-9]+]]:
; CHECK-NEXT: %vgrid.block = phi i32 [ %vgrid.first, %flat.orig ], [ %vgrid.after, %vgrid.next ]
; CHECK-NOT: ctaid.x
; CHECK: mul i32 %vgrid.block,
; The original's return goes to the next virtual block; no barrier there,
; as the copy shares no memory.
; CHECK-NOT: ctaid.x
; CHECK: vgrid.next:
; CHECK-NEXT: %vgrid.after = add nuw i32 %vgrid.block, %vgrid.step
; CHECK-NEXT: [[MORE:%[0-9]+]] = icmp ult i32 %vgrid.after, %coalda.grid
; CHECK-NEXT: br i1 [[MORE]], label %[[BODY]], label %vgrid.done
; CHECK: vgrid.done:
; CHECK-NEXT: ret void
; CHECK: flat.orig:
; CHECK-NEXT: br i1 [[ANY]], label %[[BODY]], label %vgrid.done
; The flat copy's last loop (member-width units) leaves to the return.
; CHECK: flat.bytes.one:
; CHECK: br i1 {{%[0-9]+}}, label %flat.bytes.one, label %vgrid.done

; The staged kernel's variant ends each virtual block with a barrier: the
; next block's tile must not be written while a warp still reads this one.
; CHECK-LABEL: define {{.*}}@_Z10soa_to_aosP2F3PKfS2_S2_i__coalda_grid(
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: vgrid.next:
; CHECK-NEXT: call void @llvm.nvvm.barrier0()
; CHECK-NEXT: %vgrid.after = add nuw i32 %vgrid.block, %vgrid.step

; The variants are kernels.
; CHECK: !{ptr @_Z12copy_guardedP5PixelPKS_i__coalda_grid, !"kernel", i32 1}
; CHECK: !{ptr @_Z10soa_to_aosP2F3PKfS2_S2_i__coalda_grid, !"kernel", i32 1}

; By default (no -coalda-reshape-block-loops) only the copy gets a variant,
; its flat copy: the staging's loop over blocks is refused by the cost rule.
; DEFAULT: remark: {{.*}}kernel `copy_guarded`: launch reshaped{{.*}}(one flat copy
; DEFAULT: remark: {{.*}}kernel `soa_to_aos`: launch kept: not profitable: a variant that loops over the original blocks measured no faster
; DEFAULT: remark: {{.*}}kernel `copy_grid_stride`: launch kept: each thread loops
; The copy's elements are 3 bytes: its variant launches until the run-time
; measurement is in, which the device code says by a global the host's
; build reads from the PTX.
; DEFAULT: @_Z12copy_guardedP5PixelPKS_i__coalda_prefer = addrspace(1) constant i8 1
; DEFAULT-NOT: __coalda_prefer =
; DEFAULT: define {{.*}}@_Z12copy_guardedP5PixelPKS_i__coalda_grid(
; DEFAULT-NOT: define {{.*}}__coalda_grid(

; Without -coalda-reshape-launches (the default), no variant.
; OFF-NOT: __coalda_grid

; ModuleID = 'lit.cu'
source_filename = "lit.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pixel = type { i8, i8, i8 }
%struct.F3 = type { float, float, float }

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z12copy_guardedP5PixelPKS_i(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, i32 noundef %2) local_unnamed_addr #0 {
  %4 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %6 = mul i32 %4, %5
  %7 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = add i32 %6, %7
  %9 = icmp slt i32 %8, %2
  br i1 %9, label %10, label %21

10:                                               ; preds = %3
  %11 = sext i32 %8 to i64
  %12 = getelementptr inbounds %struct.Pixel, ptr %1, i64 %11
  %13 = load i8, ptr %12, align 1, !tbaa !10
  %14 = getelementptr inbounds %struct.Pixel, ptr %0, i64 %11
  store i8 %13, ptr %14, align 1, !tbaa !10
  %15 = getelementptr inbounds i8, ptr %12, i64 1
  %16 = load i8, ptr %15, align 1, !tbaa !14
  %17 = getelementptr inbounds i8, ptr %14, i64 1
  store i8 %16, ptr %17, align 1, !tbaa !14
  %18 = getelementptr inbounds i8, ptr %12, i64 2
  %19 = load i8, ptr %18, align 1, !tbaa !15
  %20 = getelementptr inbounds i8, ptr %14, i64 2
  store i8 %19, ptr %20, align 1, !tbaa !15
  br label %21

21:                                               ; preds = %10, %3
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z10soa_to_aosP2F3PKfS2_S2_i(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, ptr nocapture noundef readonly %2, ptr nocapture noundef readonly %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %8 = mul i32 %6, %7
  %9 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = add i32 %8, %9
  %11 = icmp slt i32 %10, %4
  br i1 %11, label %12, label %23

12:                                               ; preds = %5
  %13 = sext i32 %10 to i64
  %14 = getelementptr inbounds float, ptr %1, i64 %13
  %15 = load float, ptr %14, align 4, !tbaa !16
  %16 = getelementptr inbounds %struct.F3, ptr %0, i64 %13
  store float %15, ptr %16, align 4, !tbaa !18
  %17 = getelementptr inbounds float, ptr %2, i64 %13
  %18 = load float, ptr %17, align 4, !tbaa !16
  %19 = getelementptr inbounds i8, ptr %16, i64 4
  store float %18, ptr %19, align 4, !tbaa !20
  %20 = getelementptr inbounds float, ptr %3, i64 %13
  %21 = load float, ptr %20, align 4, !tbaa !16
  %22 = getelementptr inbounds i8, ptr %16, i64 8
  store float %21, ptr %22, align 4, !tbaa !21
  br label %23

23:                                               ; preds = %12, %5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local void @_Z16copy_grid_strideP5PixelPKS_i(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, i32 noundef %2) local_unnamed_addr #1 {
  %4 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %6 = mul i32 %4, %5
  %7 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %8 = add i32 %6, %7
  %9 = icmp slt i32 %8, %2
  br i1 %9, label %10, label %13

10:                                               ; preds = %3
  %11 = tail call noundef range(i32 1, -2147483648) i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %12 = mul i32 %5, %11
  br label %14

13:                                               ; preds = %14, %3
  ret void

14:                                               ; preds = %10, %14
  %15 = phi i32 [ %8, %10 ], [ %26, %14 ]
  %16 = sext i32 %15 to i64
  %17 = getelementptr inbounds %struct.Pixel, ptr %1, i64 %16
  %18 = load i8, ptr %17, align 1, !tbaa !10
  %19 = getelementptr inbounds %struct.Pixel, ptr %0, i64 %16
  store i8 %18, ptr %19, align 1, !tbaa !10
  %20 = getelementptr inbounds i8, ptr %17, i64 1
  %21 = load i8, ptr %20, align 1, !tbaa !14
  %22 = getelementptr inbounds i8, ptr %19, i64 1
  store i8 %21, ptr %22, align 1, !tbaa !14
  %23 = getelementptr inbounds i8, ptr %17, i64 2
  %24 = load i8, ptr %23, align 1, !tbaa !15
  %25 = getelementptr inbounds i8, ptr %19, i64 2
  store i8 %24, ptr %25, align 1, !tbaa !15
  %26 = add i32 %15, %12
  %27 = icmp slt i32 %26, %2
  br i1 %27, label %14, label %13, !llvm.loop !22
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.nctaid.x() #2

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!nvvm.annotations = !{!4, !5, !6}
!llvm.ident = !{!7, !8}
!nvvmir.version = !{!9}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{ptr @_Z12copy_guardedP5PixelPKS_i, !"kernel", i32 1}
!5 = !{ptr @_Z10soa_to_aosP2F3PKfS2_S2_i, !"kernel", i32 1}
!6 = !{ptr @_Z16copy_grid_strideP5PixelPKS_i, !"kernel", i32 1}
!7 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!8 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!9 = !{i32 2, i32 0}
!10 = !{!11, !12, i64 0}
!11 = !{!"_ZTS5Pixel", !12, i64 0, !12, i64 1, !12, i64 2}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C++ TBAA"}
!14 = !{!11, !12, i64 1}
!15 = !{!11, !12, i64 2}
!16 = !{!17, !17, i64 0}
!17 = !{!"float", !12, i64 0}
!18 = !{!19, !17, i64 0}
!19 = !{!"_ZTS2F3", !17, i64 0, !17, i64 4, !17, i64 8}
!20 = !{!19, !17, i64 4}
!21 = !{!19, !17, i64 8}
!22 = distinct !{!22, !23}
!23 = !{!"llvm.loop.mustprogress"}
