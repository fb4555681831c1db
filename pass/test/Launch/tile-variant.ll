; RUN: %opt -passes=coalda -coalda-reshape-launches -pass-remarks=coalda -pass-remarks-missed=coalda -S %s 2>&1 | FileCheck %s
; RUN: %opt -passes=coalda -S %s | FileCheck --check-prefix=OFF %s

; Two kernels of one source (clang++-19 -O3 --cuda-device-only, no debug
; info): a naive transpose, out[x*N + y] = in[y*M + x], and the same with a
; second store. Both are staged by the default rewrite (transposed stores).
;
; The transpose's whole effect is one transposed store after its load: its
; variant runs 32x32 tiles of original blocks (GridVariantTile.cpp), marked
; for `coalda cc` as of the tile form and preferred until measured. The
; second kernel's other store refuses the tile form, and the loop over
; blocks alone is refused by the cost rule.
; CHECK: remark: {{.*}}kernel `transpose`: launch reshaped (4 virtual blocks per block at 32x8 and 16x16 threads), chosen at run time by measurement: the kernel or its variant on a grid of 32x32 tiles (each block runs a 32x32 tile of original blocks, its transposed stores written 32 to a column); until measured, the variant
; CHECK: remark: {{.*}}kernel `transpose_and_read_back`: launch kept: not profitable: {{.*}}one transposed store (32x32 tiles) gets a variant

; Two shared tiles of 32 rows of 33 slots: the values, and the addresses
; they go to (0: the slot's virtual thread stored nothing); the marks.
; CHECK: @_Z9transposePfPKfii__coalda_grid.tile.values = internal addrspace(3) global [1056 x float] undef, align 4
; CHECK: @_Z9transposePfPKfii__coalda_grid.tile.addresses = internal addrspace(3) global [1056 x i64] undef, align 8
; CHECK: @_Z9transposePfPKfii__coalda_tile = addrspace(1) constant i8 1
; CHECK: @_Z9transposePfPKfii__coalda_prefer = addrspace(1) constant i8 1
; CHECK-NOT: transpose_and_read_back{{.*}}__coalda_tile

; The variant takes the original grid's x and y sizes; its pointers are no
; longer nocapture (their addresses go to the tile). A block of 256 threads
; runs four original blocks, 32/ntid.x across and 32/ntid.y down. It is a
; kernel by its calling convention too (annotateLike).
; CHECK: define {{.*}}ptx_kernel void @_Z9transposePfPKfii__coalda_grid(ptr noundef writeonly %0, ptr noundef readonly %1, i32 noundef %2, i32 noundef %3, i32 %coalda.grid.x, i32 %coalda.grid.y) local_unnamed_addr [[ATTRS:#[0-9]+]]
; CHECK-NEXT: tile.pre:
; CHECK: %tile.cols = udiv i32 32, %tile.nx
; CHECK-NEXT: %tile.rows = udiv i32 32, %tile.ny
; The first virtual block (k = 0): its indices, the thread's slot (row
; k / cols * ntid.y + tid.y, column k % cols * ntid.x + tid.x, rows of 33);
; a virtual block outside the original grid runs nothing.
; CHECK: [[C0:%[0-9]+]] = urem i32 0, %tile.cols
; CHECK-NEXT: [[R0:%[0-9]+]] = udiv i32 0, %tile.cols
; CHECK-NEXT: %tile.vx = add i32 {{%[0-9]+}}, [[C0]]
; CHECK-NEXT: %tile.vy = add i32 {{%[0-9]+}}, [[R0]]
; CHECK: mul i32 {{%[0-9]+}}, 33
; CHECK: %tile.slot = zext i32
; CHECK: %tile.inside = and i1
; CHECK-NEXT: br i1 %tile.inside, label %[[BODY0:[0-9]+]], label %tile.next0
; Its copy of the body reads the virtual block where the original read
; blockIdx.x and .y, and keeps its store's value and address in registers
; (0: nothing stored), so that the four copies' loads are in flight
; together.
; CHECK: [[BODY0]]:
; CHECK-NOT: ctaid
; CHECK: mul i32 %tile.vx,
; CHECK: mul nuw nsw i32 %tile.vy,
; CHECK: [[V0:%[0-9]+]] = load float, ptr
; CHECK-NOT: store
; CHECK: [[A0:%[0-9]+]] = ptrtoint ptr {{%[0-9]+}} to i64
; CHECK: %tile.mine.at.0 = phi i64 [ [[A0]], %{{[0-9]+}} ], [ 0, %[[BODY0]] ]
; CHECK-NEXT: %tile.mine.0 = phi float [ [[V0]], %{{[0-9]+}} ], [ undef, %[[BODY0]] ]
; The other three copies, the same.
; CHECK-COUNT-3: load float, ptr
; Each next virtual block's indices, k = 1, 2, 3.
; CHECK: tile.next0:
; CHECK: urem i32 1, %tile.cols
; CHECK: tile.next1:
; CHECK: urem i32 2, %tile.cols
; CHECK: tile.next2:
; CHECK: urem i32 3, %tile.cols
; After the last: each result to its slot of the tiles, then a barrier;
; then the tile is written down its columns: thread q's j-th slot is
; w = j * 256 + q, at row w % 32 and column w / 32, so that 32 threads
; store one column, where a virtual thread stored.
; CHECK: tile.next3:
; CHECK: store float %tile.mine.1, ptr addrspace(3)
; CHECK: store i64 %tile.mine.at.1, ptr addrspace(3)
; CHECK-COUNT-3: store float %tile.mine{{[0-9]+}}.1, ptr addrspace(3)
; CHECK: call void @llvm.nvvm.barrier0()
; CHECK: %tile.q = add i32
; CHECK: [[W:%[0-9]+]] = add i32 256, %tile.q
; CHECK-NEXT: [[R:%[0-9]+]] = urem i32 [[W]], 32
; CHECK-NEXT: {{%[0-9]+}} = mul i32 [[R]], 33
; CHECK-NEXT: {{%[0-9]+}} = udiv i32 [[W]], 32
; CHECK: %tile.address{{[0-9]*}} = load i64, ptr addrspace(3)
; CHECK-NEXT: icmp ne i64 %tile.address{{[0-9]*}}, 0
; CHECK: tile.out.store{{[0-9]*}}:
; CHECK: %tile.value{{[0-9]*}} = load float, ptr addrspace(3)
; CHECK-NEXT: [[P:%[0-9]+]] = inttoptr i64 %tile.address{{[0-9]*}} to ptr
; CHECK-NEXT: store float %tile.value{{[0-9]*}}, ptr [[P]], align 4
; CHECK: ret void
; The variant is a kernel; what the original's attributes promised and the
; variant breaks is gone (it synchronizes, writes shared memory).
; CHECK: attributes [[ATTRS]] = { mustprogress nofree norecurse nounwind willreturn "frame-pointer"
; CHECK: !{ptr @_Z9transposePfPKfii__coalda_grid, !"kernel", i32 1}

; Without the option: no variant.
; OFF-NOT: __coalda_grid
; OFF-NOT: __coalda_tile

; ModuleID = '/tmp/s60/tv.cu'
source_filename = "/tmp/s60/tv.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z9transposePfPKfii(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, i32 noundef %2, i32 noundef %3) local_unnamed_addr #0 {
  %5 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %6 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %7 = mul i32 %5, %6
  %8 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %9 = add i32 %7, %8
  %10 = tail call noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %11 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %12 = mul nuw nsw i32 %10, %11
  %13 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %14 = add nuw nsw i32 %12, %13
  %15 = icmp slt i32 %9, %2
  %16 = icmp slt i32 %14, %3
  %17 = and i1 %15, %16
  br i1 %17, label %18, label %30

18:                                               ; preds = %4
  %19 = zext nneg i32 %14 to i64
  %20 = sext i32 %2 to i64
  %21 = mul nsw i64 %20, %19
  %22 = sext i32 %9 to i64
  %23 = getelementptr float, ptr %1, i64 %21
  %24 = getelementptr float, ptr %23, i64 %22
  %25 = load float, ptr %24, align 4, !tbaa !9
  %26 = zext nneg i32 %3 to i64
  %27 = mul nsw i64 %26, %22
  %28 = getelementptr float, ptr %0, i64 %27
  %29 = getelementptr float, ptr %28, i64 %19
  store float %25, ptr %29, align 4, !tbaa !9
  br label %30

30:                                               ; preds = %18, %4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z23transpose_and_read_backPfPKfS_ii(ptr nocapture noundef writeonly %0, ptr nocapture noundef readonly %1, ptr nocapture noundef writeonly %2, i32 noundef %3, i32 noundef %4) local_unnamed_addr #0 {
  %6 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %7 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %8 = mul i32 %6, %7
  %9 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %10 = add i32 %8, %9
  %11 = tail call noundef range(i32 0, 65535) i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %12 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %13 = mul nuw nsw i32 %11, %12
  %14 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %15 = add nuw nsw i32 %13, %14
  %16 = icmp slt i32 %10, %3
  %17 = icmp slt i32 %15, %4
  %18 = and i1 %16, %17
  br i1 %18, label %19, label %34

19:                                               ; preds = %5
  %20 = zext nneg i32 %15 to i64
  %21 = sext i32 %3 to i64
  %22 = mul nsw i64 %21, %20
  %23 = sext i32 %10 to i64
  %24 = add nsw i64 %22, %23
  %25 = getelementptr inbounds float, ptr %1, i64 %24
  %26 = load float, ptr %25, align 4, !tbaa !9
  %27 = zext nneg i32 %4 to i64
  %28 = mul nsw i64 %27, %23
  %29 = getelementptr float, ptr %0, i64 %28
  %30 = getelementptr float, ptr %29, i64 %20
  store float %26, ptr %30, align 4, !tbaa !9
  %31 = getelementptr i8, ptr %25, i64 4
  %32 = load float, ptr %31, align 4, !tbaa !9
  %33 = getelementptr inbounds float, ptr %2, i64 %24
  store float %32, ptr %33, align 4, !tbaa !9
  br label %34

34:                                               ; preds = %19, %5
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.y() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.y() #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3}
!nvvm.annotations = !{!4, !5}
!llvm.ident = !{!6, !7}
!nvvmir.version = !{!8}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{ptr @_Z9transposePfPKfii, !"kernel", i32 1}
!5 = !{ptr @_Z23transpose_and_read_backPfPKfS_ii, !"kernel", i32 1}
!6 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!7 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!8 = !{i32 2, i32 0}
!9 = !{!10, !10, i64 0}
!10 = !{!"float", !11, i64 0}
!11 = !{!"omnipotent char", !12, i64 0}
!12 = !{!"Simple C++ TBAA"}
