; RUN: not %opt -passes=coalda-launch-host -coalda-launch-variants=_Z1kPf -coalda-launch-runtime=%launch_runtime -S %s -o %t.ll 2>&1 | FileCheck %s

; The launch runtime's bitcode passes dim3 by value the way clang's x86-64
; stubs do. A host unit of another architecture (an aarch64 stub, in
; clang 19's form) is refused in one line, and the compile fails.
; CHECK: error: coalda: the launch runtime '{{.*}}coalda-launch-runtime.bc' was built for x86_64-{{.*}}, not aarch64-unknown-linux-gnu

target datalayout = "e-m:e-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
target triple = "aarch64-unknown-linux-gnu"

@0 = private constant [7 x i8] c"_Z1kPf\00"

define void @_Z16__device_stub__kPf(ptr %p) {
  %args = alloca [1 x ptr], align 8
  %slot = alloca ptr, align 8
  store ptr %p, ptr %slot, align 8
  store ptr %slot, ptr %args, align 8
  %r = call i32 @cudaLaunchKernel(ptr @_Z16__device_stub__kPf, i64 4294967297, i32 1, i64 4294967328, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define internal void @__cuda_register_globals(ptr %h) {
  %r = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z16__device_stub__kPf, ptr @0, ptr @0, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
