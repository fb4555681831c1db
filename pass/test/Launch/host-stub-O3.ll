; RUN: %opt -passes=coalda-launch-host -coalda-launch-variants=_Z12copy_guardedP5PixelPKS_i,_Z6copy_tI5PixelEvPT_PKS1_i,_Z7missingv -coalda-launch-preferred=_Z12copy_guardedP5PixelPKS_i -coalda-launch-tiles=_Z6copy_tI5PixelEvPT_PKS1_i -coalda-launch-runtime=%launch_runtime -S %s | FileCheck %s
; RUN: %opt -passes=coalda-launch-host -S %s | FileCheck --check-prefix=NONE %s
; RUN: %opt -passes=coalda-launch-host -coalda-launch-variants=_Z12copy_guardedP5PixelPKS_i,_Z6copy_tI5PixelEvPT_PKS1_i -coalda-launch-rewrites=_Z6copy_tI5PixelEvPT_PKS1_i -coalda-launch-runtime=%launch_runtime -S %s | FileCheck --check-prefix=REWRITE %s
; RUN: %opt -passes=coalda-launch-host -coalda-launch-variants=_Z6copy_tI5PixelEvPT_PKS1_i -coalda-launch-bounded=_Z6copy_tI5PixelEvPT_PKS1_i -coalda-launch-runtime=%launch_runtime -S %s | FileCheck --check-prefix=BOUNDED %s

; clang++-19's host IR of one CUDA source at -O3, before any pass (-Xclang
; -disable-llvm-passes, with -fcuda-include-gpubinary so that the unit
; registers its kernels), as the plugin's host pass sees it at the
; pipeline's start: an ordinary kernel copy_guarded, a template kernel
; copy_t<Pixel> (its stub linkonce_odr in a COMDAT) launched on an explicit
; stream, a kernel other that is not listed, and a direct
; cudaLaunchKernel(copy_guarded, ...) written by the user. The list also
; names a kernel the unit does not have.
;
; Each listed kernel's variant gets a host handle of this unit's own,
; registered under the variant's device name right after the kernel.
; CHECK: @__coalda_grid_handle = internal constant i8 0
; CHECK: @__coalda_grid_name = private unnamed_addr constant [42 x i8] c"_Z12copy_guardedP5PixelPKS_i__coalda_grid\00"
; CHECK: @__coalda_grid_handle.1 = internal constant i8 0
; CHECK: c"_Z6copy_tI5PixelEvPT_PKS1_i__coalda_grid\00"
; CHECK-NOT: _Z7missingv__coalda_grid

; The stub's own launch goes through the run-time choice: the stub, the
; variant's handle, the kernel's name, the configuration it popped, its
; arguments and their number (3), shared memory, stream, and whether the
; variant launches until measured (listed in -coalda-launch-preferred: 1),
; and its form (not listed in -coalda-launch-tiles: 0, fewer blocks in x).
; CHECK-LABEL: define dso_local void @_Z27__device_stub__copy_guardedP5PixelPKS_i(
; CHECK-NOT: call {{.*}}@cudaLaunchKernel(
; CHECK: call i32 @__coalda_launch_grid(ptr @_Z27__device_stub__copy_guardedP5PixelPKS_i, ptr @__coalda_grid_handle, ptr @__coalda_kernel_name, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr %{{[0-9]+}}, i32 3, i64 %{{[0-9]+}}, ptr %{{[0-9]+}}, i32 1, i32 0)

; A kernel that is not listed launches as before.
; CHECK-LABEL: define dso_local void @_Z20__device_stub__otherPf(
; CHECK: call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__otherPf,

; The user's own cudaLaunchKernel(copy_guarded, ...) keeps launching the
; original.
; CHECK-LABEL: define dso_local void @_Z6launchP5PixelPKS_iPfP11CUstream_st(
; CHECK: call i32 @cudaLaunchKernel(ptr noundef @_Z27__device_stub__copy_guardedP5PixelPKS_i,

; The template's stub, in its COMDAT, is redirected as well; not listed
; as preferred, it launches the original until measured (0); listed in
; -coalda-launch-tiles, its variant is of the tile form (1).
; CHECK-LABEL: define linkonce_odr dso_local void @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i(
; CHECK: call i32 @__coalda_launch_grid(ptr @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i, ptr @__coalda_grid_handle.1,
; CHECK-SAME: i32 0, i32 1)

; CHECK-LABEL: define internal void @__cuda_register_globals(
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z27__device_stub__copy_guardedP5PixelPKS_i,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @__coalda_grid_handle, ptr @__coalda_grid_name, ptr @__coalda_grid_name, i32 -1,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__otherPf,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i,
; CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @__coalda_grid_handle.1,

; The runtime is linked in, internal to the unit.
; CHECK: define internal {{.*}}i32 @__coalda_launch_grid(

; With no kernel listed, the pass changes nothing.
; NONE-NOT: coalda

; A kernel listed in -coalda-launch-rewrites (the kernel is its rewrite,
; its variant the code as written: RewriteChoice.cpp) is launched through
; the choice with form 2, the launch's own grid and arguments, the kernel
; until measured (not preferred: 0); the others keep form 0.
; REWRITE-LABEL: define dso_local void @_Z27__device_stub__copy_guardedP5PixelPKS_i(
; REWRITE: call i32 @__coalda_launch_grid(
; REWRITE-SAME: i32 3, i64 %{{[0-9]+}}, ptr %{{[0-9]+}}, i32 0, i32 0)
; REWRITE-LABEL: define linkonce_odr dso_local void @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i(
; REWRITE: call i32 @__coalda_launch_grid(
; REWRITE-SAME: i32 0, i32 2)

; A kernel coalda cc limited in registers (.maxnreg 64, so that 1024
; threads launch; registers.py) launches through the choice's bounded form
; (3): its twin without the limit where a block of it fits; the other
; kernel's stub keeps its own launch.
; BOUNDED-LABEL: define dso_local void @_Z27__device_stub__copy_guardedP5PixelPKS_i(
; BOUNDED-NOT: @__coalda_launch_grid(
; BOUNDED-LABEL: define linkonce_odr dso_local void @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i(
; BOUNDED: call i32 @__coalda_launch_grid(
; BOUNDED-SAME: i32 0, i32 3)

; ModuleID = host.cu
source_filename = "host.cu"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.dim3 = type { i32, i32, i32 }

$_ZN4dim3C2Ejjj = comdat any

$_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i = comdat any

@0 = private unnamed_addr constant [29 x i8] c"_Z12copy_guardedP5PixelPKS_i\00", align 1
@1 = private unnamed_addr constant [11 x i8] c"_Z5otherPf\00", align 1
@2 = private unnamed_addr constant [28 x i8] c"_Z6copy_tI5PixelEvPT_PKS1_i\00", align 1
@3 = private constant [6 x i8] c"dummy\0A", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @3, ptr null }, section ".nvFatBinSegment", align 8
@__cuda_gpubin_handle = internal global ptr null, align 8
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @__cuda_module_ctor, ptr null }]

; Function Attrs: mustprogress norecurse uwtable
define dso_local void @_Z27__device_stub__copy_guardedP5PixelPKS_i(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca %struct.dim3, align 8
  %8 = alloca %struct.dim3, align 8
  %9 = alloca i64, align 8
  %10 = alloca ptr, align 8
  %11 = alloca { i64, i32 }, align 8
  %12 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %4, align 8, !tbaa !6
  store ptr %1, ptr %5, align 8, !tbaa !6
  store i32 %2, ptr %6, align 4, !tbaa !10
  %13 = alloca ptr, i64 3, align 16
  %14 = getelementptr ptr, ptr %13, i32 0
  store ptr %4, ptr %14, align 8
  %15 = getelementptr ptr, ptr %13, i32 1
  store ptr %5, ptr %15, align 8
  %16 = getelementptr ptr, ptr %13, i32 2
  store ptr %6, ptr %16, align 8
  %17 = call i32 @__cudaPopCallConfiguration(ptr %7, ptr %8, ptr %9, ptr %10)
  %18 = load i64, ptr %9, align 8
  %19 = load ptr, ptr %10, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %11, ptr align 8 %7, i64 12, i1 false)
  %20 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 0
  %21 = load i64, ptr %20, align 8
  %22 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 1
  %23 = load i32, ptr %22, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %12, ptr align 8 %8, i64 12, i1 false)
  %24 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  %25 = load i64, ptr %24, align 8
  %26 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  %27 = load i32, ptr %26, align 8
  %28 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z27__device_stub__copy_guardedP5PixelPKS_i, i64 %21, i32 %23, i64 %25, i32 %27, ptr noundef %13, i64 noundef %18, ptr noundef %19)
  br label %29

29:                                               ; preds = %3
  ret void
}

declare i32 @__cudaPopCallConfiguration(ptr, ptr, ptr, ptr)

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias nocapture writeonly, ptr noalias nocapture readonly, i64, i1 immarg) #1

; Function Attrs: mustprogress norecurse uwtable
define dso_local void @_Z20__device_stub__otherPf(ptr noundef %0) #0 {
  %2 = alloca ptr, align 8
  %3 = alloca %struct.dim3, align 8
  %4 = alloca %struct.dim3, align 8
  %5 = alloca i64, align 8
  %6 = alloca ptr, align 8
  %7 = alloca { i64, i32 }, align 8
  %8 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %2, align 8, !tbaa !6
  %9 = alloca ptr, i64 1, align 16
  %10 = getelementptr ptr, ptr %9, i32 0
  store ptr %2, ptr %10, align 8
  %11 = call i32 @__cudaPopCallConfiguration(ptr %3, ptr %4, ptr %5, ptr %6)
  %12 = load i64, ptr %5, align 8
  %13 = load ptr, ptr %6, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %7, ptr align 8 %3, i64 12, i1 false)
  %14 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 0
  %15 = load i64, ptr %14, align 8
  %16 = getelementptr inbounds { i64, i32 }, ptr %7, i32 0, i32 1
  %17 = load i32, ptr %16, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %8, ptr align 8 %4, i64 12, i1 false)
  %18 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 0
  %19 = load i64, ptr %18, align 8
  %20 = getelementptr inbounds { i64, i32 }, ptr %8, i32 0, i32 1
  %21 = load i32, ptr %20, align 8
  %22 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z20__device_stub__otherPf, i64 %15, i32 %17, i64 %19, i32 %21, ptr noundef %9, i64 noundef %12, ptr noundef %13)
  br label %23

23:                                               ; preds = %1
  ret void
}

; Function Attrs: mustprogress uwtable
define dso_local void @_Z6launchP5PixelPKS_iPfP11CUstream_st(ptr noundef %0, ptr noundef %1, i32 noundef %2, ptr noundef %3, ptr noundef %4) #2 {
  %6 = alloca ptr, align 8
  %7 = alloca ptr, align 8
  %8 = alloca i32, align 4
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca %struct.dim3, align 4
  %12 = alloca %struct.dim3, align 4
  %13 = alloca { i64, i32 }, align 4
  %14 = alloca { i64, i32 }, align 4
  %15 = alloca %struct.dim3, align 4
  %16 = alloca %struct.dim3, align 4
  %17 = alloca { i64, i32 }, align 4
  %18 = alloca { i64, i32 }, align 4
  %19 = alloca %struct.dim3, align 4
  %20 = alloca %struct.dim3, align 4
  %21 = alloca { i64, i32 }, align 4
  %22 = alloca { i64, i32 }, align 4
  %23 = alloca [3 x ptr], align 16
  %24 = alloca %struct.dim3, align 4
  %25 = alloca %struct.dim3, align 4
  %26 = alloca { i64, i32 }, align 4
  %27 = alloca { i64, i32 }, align 4
  store ptr %0, ptr %6, align 8, !tbaa !6
  store ptr %1, ptr %7, align 8, !tbaa !6
  store i32 %2, ptr %8, align 4, !tbaa !10
  store ptr %3, ptr %9, align 8, !tbaa !6
  store ptr %4, ptr %10, align 8, !tbaa !6
  %28 = load i32, ptr %8, align 4, !tbaa !10
  %29 = add nsw i32 %28, 255
  %30 = sdiv i32 %29, 256
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %11, i32 noundef %30, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %12, i32 noundef 256, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %13, ptr align 4 %11, i64 12, i1 false)
  %31 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 0
  %32 = load i64, ptr %31, align 4
  %33 = getelementptr inbounds { i64, i32 }, ptr %13, i32 0, i32 1
  %34 = load i32, ptr %33, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %14, ptr align 4 %12, i64 12, i1 false)
  %35 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 0
  %36 = load i64, ptr %35, align 4
  %37 = getelementptr inbounds { i64, i32 }, ptr %14, i32 0, i32 1
  %38 = load i32, ptr %37, align 4
  %39 = call i32 @__cudaPushCallConfiguration(i64 %32, i32 %34, i64 %36, i32 %38, i64 noundef 0, ptr noundef null)
  %40 = icmp ne i32 %39, 0
  br i1 %40, label %45, label %41

41:                                               ; preds = %5
  %42 = load ptr, ptr %6, align 8, !tbaa !6
  %43 = load ptr, ptr %7, align 8, !tbaa !6
  %44 = load i32, ptr %8, align 4, !tbaa !10
  call void @_Z27__device_stub__copy_guardedP5PixelPKS_i(ptr noundef %42, ptr noundef %43, i32 noundef %44) #6
  br label %45

45:                                               ; preds = %41, %5
  %46 = load i32, ptr %8, align 4, !tbaa !10
  %47 = add nsw i32 %46, 127
  %48 = sdiv i32 %47, 128
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %15, i32 noundef %48, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %16, i32 noundef 128, i32 noundef 1, i32 noundef 1)
  %49 = load ptr, ptr %10, align 8, !tbaa !6
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %17, ptr align 4 %15, i64 12, i1 false)
  %50 = getelementptr inbounds { i64, i32 }, ptr %17, i32 0, i32 0
  %51 = load i64, ptr %50, align 4
  %52 = getelementptr inbounds { i64, i32 }, ptr %17, i32 0, i32 1
  %53 = load i32, ptr %52, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %18, ptr align 4 %16, i64 12, i1 false)
  %54 = getelementptr inbounds { i64, i32 }, ptr %18, i32 0, i32 0
  %55 = load i64, ptr %54, align 4
  %56 = getelementptr inbounds { i64, i32 }, ptr %18, i32 0, i32 1
  %57 = load i32, ptr %56, align 4
  %58 = call i32 @__cudaPushCallConfiguration(i64 %51, i32 %53, i64 %55, i32 %57, i64 noundef 0, ptr noundef %49)
  %59 = icmp ne i32 %58, 0
  br i1 %59, label %64, label %60

60:                                               ; preds = %45
  %61 = load ptr, ptr %6, align 8, !tbaa !6
  %62 = load ptr, ptr %7, align 8, !tbaa !6
  %63 = load i32, ptr %8, align 4, !tbaa !10
  call void @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i(ptr noundef %61, ptr noundef %62, i32 noundef %63) #6
  br label %64

64:                                               ; preds = %60, %45
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %19, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %20, i32 noundef 32, i32 noundef 1, i32 noundef 1)
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %21, ptr align 4 %19, i64 12, i1 false)
  %65 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 0
  %66 = load i64, ptr %65, align 4
  %67 = getelementptr inbounds { i64, i32 }, ptr %21, i32 0, i32 1
  %68 = load i32, ptr %67, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %22, ptr align 4 %20, i64 12, i1 false)
  %69 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 0
  %70 = load i64, ptr %69, align 4
  %71 = getelementptr inbounds { i64, i32 }, ptr %22, i32 0, i32 1
  %72 = load i32, ptr %71, align 4
  %73 = call i32 @__cudaPushCallConfiguration(i64 %66, i32 %68, i64 %70, i32 %72, i64 noundef 0, ptr noundef null)
  %74 = icmp ne i32 %73, 0
  br i1 %74, label %77, label %75

75:                                               ; preds = %64
  %76 = load ptr, ptr %9, align 8, !tbaa !6
  call void @_Z20__device_stub__otherPf(ptr noundef %76) #6
  br label %77

77:                                               ; preds = %75, %64
  call void @llvm.lifetime.start.p0(i64 24, ptr %23) #7
  store ptr %6, ptr %23, align 8, !tbaa !6
  %78 = getelementptr inbounds ptr, ptr %23, i64 1
  store ptr %7, ptr %78, align 8, !tbaa !6
  %79 = getelementptr inbounds ptr, ptr %23, i64 2
  store ptr %8, ptr %79, align 8, !tbaa !6
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %24, i32 noundef 1, i32 noundef 1, i32 noundef 1)
  call void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %25, i32 noundef 32, i32 noundef 1, i32 noundef 1)
  %80 = getelementptr inbounds [3 x ptr], ptr %23, i64 0, i64 0
  %81 = load ptr, ptr %10, align 8, !tbaa !6
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %26, ptr align 4 %24, i64 12, i1 false)
  %82 = getelementptr inbounds { i64, i32 }, ptr %26, i32 0, i32 0
  %83 = load i64, ptr %82, align 4
  %84 = getelementptr inbounds { i64, i32 }, ptr %26, i32 0, i32 1
  %85 = load i32, ptr %84, align 4
  call void @llvm.memcpy.p0.p0.i64(ptr align 4 %27, ptr align 4 %25, i64 12, i1 false)
  %86 = getelementptr inbounds { i64, i32 }, ptr %27, i32 0, i32 0
  %87 = load i64, ptr %86, align 4
  %88 = getelementptr inbounds { i64, i32 }, ptr %27, i32 0, i32 1
  %89 = load i32, ptr %88, align 4
  %90 = call i32 @cudaLaunchKernel(ptr noundef @_Z27__device_stub__copy_guardedP5PixelPKS_i, i64 %83, i32 %85, i64 %87, i32 %89, ptr noundef %80, i64 noundef 0, ptr noundef %81)
  call void @llvm.lifetime.end.p0(i64 24, ptr %23) #7
  ret void
}

declare i32 @__cudaPushCallConfiguration(i64, i32, i64, i32, i64 noundef, ptr noundef) #3

; Function Attrs: mustprogress nounwind uwtable
define linkonce_odr dso_local void @_ZN4dim3C2Ejjj(ptr noundef nonnull align 4 dereferenceable(12) %0, i32 noundef %1, i32 noundef %2, i32 noundef %3) unnamed_addr #4 comdat align 2 {
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca i32, align 4
  %8 = alloca i32, align 4
  store ptr %0, ptr %5, align 8, !tbaa !6
  store i32 %1, ptr %6, align 4, !tbaa !10
  store i32 %2, ptr %7, align 4, !tbaa !10
  store i32 %3, ptr %8, align 4, !tbaa !10
  %9 = load ptr, ptr %5, align 8
  %10 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 0
  %11 = load i32, ptr %6, align 4, !tbaa !10
  store i32 %11, ptr %10, align 4, !tbaa !12
  %12 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 1
  %13 = load i32, ptr %7, align 4, !tbaa !10
  store i32 %13, ptr %12, align 4, !tbaa !14
  %14 = getelementptr inbounds %struct.dim3, ptr %9, i32 0, i32 2
  %15 = load i32, ptr %8, align 4, !tbaa !10
  store i32 %15, ptr %14, align 4, !tbaa !15
  ret void
}

; Function Attrs: mustprogress norecurse uwtable
define linkonce_odr dso_local void @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i(ptr noundef %0, ptr noundef %1, i32 noundef %2) #0 comdat {
  %4 = alloca ptr, align 8
  %5 = alloca ptr, align 8
  %6 = alloca i32, align 4
  %7 = alloca %struct.dim3, align 8
  %8 = alloca %struct.dim3, align 8
  %9 = alloca i64, align 8
  %10 = alloca ptr, align 8
  %11 = alloca { i64, i32 }, align 8
  %12 = alloca { i64, i32 }, align 8
  store ptr %0, ptr %4, align 8, !tbaa !6
  store ptr %1, ptr %5, align 8, !tbaa !6
  store i32 %2, ptr %6, align 4, !tbaa !10
  %13 = alloca ptr, i64 3, align 16
  %14 = getelementptr ptr, ptr %13, i32 0
  store ptr %4, ptr %14, align 8
  %15 = getelementptr ptr, ptr %13, i32 1
  store ptr %5, ptr %15, align 8
  %16 = getelementptr ptr, ptr %13, i32 2
  store ptr %6, ptr %16, align 8
  %17 = call i32 @__cudaPopCallConfiguration(ptr %7, ptr %8, ptr %9, ptr %10)
  %18 = load i64, ptr %9, align 8
  %19 = load ptr, ptr %10, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %11, ptr align 8 %7, i64 12, i1 false)
  %20 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 0
  %21 = load i64, ptr %20, align 8
  %22 = getelementptr inbounds { i64, i32 }, ptr %11, i32 0, i32 1
  %23 = load i32, ptr %22, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %12, ptr align 8 %8, i64 12, i1 false)
  %24 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 0
  %25 = load i64, ptr %24, align 8
  %26 = getelementptr inbounds { i64, i32 }, ptr %12, i32 0, i32 1
  %27 = load i32, ptr %26, align 8
  %28 = call noundef i32 @cudaLaunchKernel(ptr noundef @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i, i64 %21, i32 %23, i64 %25, i32 %27, ptr noundef %13, i64 noundef %18, ptr noundef %19)
  br label %29

29:                                               ; preds = %3
  ret void
}

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(i64 immarg, ptr nocapture) #5

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(i64 immarg, ptr nocapture) #5

define internal void @__cuda_register_globals(ptr %0) {
  %2 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z27__device_stub__copy_guardedP5PixelPKS_i, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %3 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z20__device_stub__otherPf, ptr @1, ptr @1, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %4 = call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z21__device_stub__copy_tI5PixelEvPT_PKS1_i, ptr @2, ptr @2, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)

declare void @__cudaRegisterVar(ptr, ptr, ptr, ptr, i32, i64, i32, i32)

declare void @__cudaRegisterManagedVar(ptr, ptr, ptr, ptr, i64, i32)

declare void @__cudaRegisterSurface(ptr, ptr, ptr, ptr, i32, i32)

declare void @__cudaRegisterTexture(ptr, ptr, ptr, ptr, i32, i32, i32)

declare ptr @__cudaRegisterFatBinary(ptr)

define internal void @__cuda_module_ctor() {
  %1 = call ptr @__cudaRegisterFatBinary(ptr @__cuda_fatbin_wrapper)
  store ptr %1, ptr @__cuda_gpubin_handle, align 8
  call void @__cuda_register_globals(ptr %1)
  call void @__cudaRegisterFatBinaryEnd(ptr %1)
  %2 = call i32 @atexit(ptr @__cuda_module_dtor)
  ret void
}

declare void @__cudaRegisterFatBinaryEnd(ptr)

declare void @__cudaUnregisterFatBinary(ptr)

define internal void @__cuda_module_dtor() {
  %1 = load ptr, ptr @__cuda_gpubin_handle, align 8
  call void @__cudaUnregisterFatBinary(ptr %1)
  ret void
}

declare i32 @atexit(ptr)

attributes #0 = { mustprogress norecurse uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { mustprogress uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #3 = { "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { mustprogress nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #5 = { nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #6 = { "uniform-work-group-size"="true" }
attributes #7 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 8, !"PIC Level", i32 2}
!3 = !{i32 7, !"PIE Level", i32 2}
!4 = !{i32 7, !"uwtable", i32 2}
!5 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"any pointer", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !8, i64 0}
!12 = !{!13, !11, i64 0}
!13 = !{!"_ZTS4dim3", !11, i64 0, !11, i64 4, !11, i64 8}
!14 = !{!13, !11, i64 4}
!15 = !{!13, !11, i64 8}
