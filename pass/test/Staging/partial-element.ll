; RUN: %opt -passes=coalda,verify -S %s | FileCheck %s
; RUN: %opt -passes=coalda -pass-remarks=coalda -pass-remarks-missed=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes=coalda -coalda-stage-small-always -pass-remarks-missed=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=SMALL
; RUN: %opt -passes=coalda -coalda-stage-partial-gap=32 -pass-remarks-missed=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=GAP
; RUN: %opt -passes=coalda,verify -coalda-stage-unroll=0 -S %s | FileCheck %s --check-prefix=LOOP

; Elements the stores write in part are staged: the rows are loaded whole
; where some member is read, and the store phase writes back only the
; member-wide units of each element that every thread's stores write
; (StoredUnits: bit j for bytes [4j, 4j + 4) here), so the bytes the kernel
; never writes stay as they are in global memory: another thread may write
; them.

; n-body: pos.xyz and vel.xyz of a 32-byte {float4 pos, vel} (both .w left
; alone). No 16- or 8-byte unit lies wholly in stored bytes or wholly out of
; them, so the store phase copies 4-byte units only, each when bit
; ((k*4) mod 32) / 4 of 0b01110111 is set.
; CHECK-LABEL: define {{.*}}@_Z12nbody_updateP4Bodyfi(
; CHECK: coalda.stage.store:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK-NOT: coalda.copy16
; CHECK-NOT: coalda.copy8
; Its eight units per thread are moved without a loop (units lane + 32k,
; k < 8, in 32 bits): each is tested (the mask in 64 bits, which holds up
; to 64 units: adversarial/arrays_in_turn.cu's wide_partial, 48 of them,
; shifts past bit 31), then the eight loads from the tile, then the eight
; stores, each under its unit's test.
; CHECK: coalda.copy4{{[0-9]*}}:
; CHECK-NEXT: [[OFF:%[0-9]+]] = mul i32 %coalda.unit.lane, 4
; CHECK-NEXT: %coalda.in.element = urem i32 [[OFF]], 32
; CHECK-NEXT: [[UNIT32:%[0-9]+]] = udiv i32 %coalda.in.element, 4
; CHECK-NEXT: [[UNIT:%[0-9]+]] = zext i32 [[UNIT32]] to i64
; CHECK-NEXT: [[BITS:%[0-9]+]] = lshr i64 119, [[UNIT]]
; CHECK-NEXT: [[BIT:%[0-9]+]] = and i64 [[BITS]], 1
; CHECK-NEXT: %coalda.stored = icmp ne i64 [[BIT]], 0
; CHECK: %coalda.u{{[0-9]+}} = add nuw nsw i32 224, %coalda.unit.lane
; CHECK-NOT: add nuw nsw i32 256, %coalda.unit.lane
; CHECK: br i1 %coalda.stored, label %coalda.u.ld, label %coalda.u.ld.cont
; CHECK: coalda.u.ld:
; CHECK-NEXT: load i32, ptr addrspace(3)
; CHECK: br i1 %coalda.stored, label %coalda.u.st, label %coalda.u.st.cont
; CHECK: coalda.u.st:
; CHECK-NEXT: store i32 %coalda.u.v, ptr addrspace(1)
; CHECK: ret void
; REMARK: staged b (32-byte elements, read and written, 24 of its bytes written back) through shared memory (warp tiles

; With -coalda-stage-unroll=0 (the form before; still the one for rows of
; more than eight units a thread) the store phase is a loop over the units,
; each copied when bit ((k*4) mod 32) / 4 of 0b01110111 is set.
; LOOP-LABEL: define {{.*}}@_Z12nbody_updateP4Bodyfi(
; LOOP: coalda.stage.store:
; LOOP: coalda.unit.test:
; LOOP-NEXT: [[OFF:%[0-9]+]] = mul i32 %coalda.k{{[0-9]*}}, 4
; LOOP-NEXT: %coalda.in.element = urem i32 [[OFF]], 32
; LOOP-NEXT: [[UNIT32:%[0-9]+]] = udiv i32 %coalda.in.element, 4
; LOOP-NEXT: [[UNIT:%[0-9]+]] = zext i32 [[UNIT32]] to i64
; LOOP-NEXT: [[BITS:%[0-9]+]] = lshr i64 119, [[UNIT]]
; LOOP-NEXT: [[BIT:%[0-9]+]] = and i64 [[BITS]], 1
; LOOP-NEXT: %coalda.stored = icmp ne i64 [[BIT]], 0
; LOOP-NEXT: br i1 %coalda.stored, label %[[COPY:coalda.unit[0-9]*]], label %coalda.unit.next
; LOOP: [[COPY]]:
; LOOP: store i32 {{.*}}, ptr addrspace(1)
; LOOP-NEXT: br label %coalda.unit.next
; LOOP: coalda.unit.next:
; LOOP-NEXT: add i32 %coalda.k{{[0-9]*}}, 32
; LOOP: ret void

; SoA to AoS into 16-byte records whose fourth member is padding: nothing
; is read, so no row is loaded; x, y and z (mask 7) are written back.
; CHECK-LABEL: define {{.*}}@_Z9xyz_writeP2F4PKfS2_S2_i(
; CHECK: coalda.stage.load:
; CHECK-NOT: load <4 x i32>
; CHECK: coalda.stage.store:
; CHECK: lshr i64 7,
; CHECK: ret void
; REMARK: staged out (16-byte elements, written, 12 of its bytes written back) through shared memory (block tile

; The first half of a 64-byte record written (from the second half): a
; 16-byte unit lies wholly in stored bytes or wholly out of them, so the
; store phase keeps its 16-byte version, masked (0xff: units 0-7).
; CHECK-LABEL: define {{.*}}@_Z8e64_halfP3E64i(
; CHECK: coalda.stage.store:
; CHECK: coalda.copy16
; CHECK: lshr i64 255,
; CHECK: store <4 x i32> {{.*}}, ptr addrspace(1)
; CHECK: ret void
; REMARK: staged e (64-byte elements, read and written, 32 of its bytes written back) through shared memory (warp tiles

; A quarter of a 64-byte record: a run of 48 bytes of each row that no
; access touches, whose sectors the rows move for nothing. Staged by default
; (measured 1.35-1.53x); -coalda-stage-partial-gap=32 leaves it alone.
; CHECK-LABEL: define {{.*}}@_Z11e64_quarterP3E64i(
; CHECK: @coalda.tile.e
; CHECK: ret void
; REMARK: staged e (64-byte elements, read and written, 16 of its bytes written back)
; GAP: elements of e not staged through shared memory: e's accesses leave 48 bytes of its 64-byte elements in a row untouched

; z is stored under a branch between the others: not by every thread, and
; the store phase writes back one set of units for the whole row.
; CHECK-LABEL: define {{.*}}@_Z9z_on_someP2D4i(
; CHECK-NOT: coalda.tile
; CHECK: ret void
; SMALL: elements of a not staged through shared memory: a store to a under a branch writes bytes of its 32-byte element that not every thread writes

; A 320-byte record, 312 bytes written: 80 units are more than the 64-bit
; mask holds.
; CHECK-LABEL: define {{.*}}@_Z8big_partP3Bigi(
; CHECK-NOT: coalda.tile
; CHECK: ret void
; REMARK: elements of b not staged through shared memory: the stores to b write part of its 320-byte element, which has more than 64 4-byte units

; Generated by scripts/lit_input.py -O3 from:
;   struct Body { float4 pos; float4 vel; };
;   __global__ void nbody_update(Body *b, float dt, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i >= n) return;
;     b[i].vel.x *= dt; b[i].vel.y *= dt; b[i].vel.z *= dt;
;     b[i].pos.x += b[i].vel.x; b[i].pos.y += b[i].vel.y; b[i].pos.z += b[i].vel.z;
;   }
;   struct F4 { float x, y, z, w; };
;   __global__ void xyz_write(F4 *out, const float *x, const float *y, const float *z, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) { out[i].x = x[i]; out[i].y = y[i]; out[i].z = z[i]; }
;   }
;   struct E64 { float f[16]; };
;   __global__ void e64_half(E64 *e, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) {
;   #pragma unroll
;       for (int k = 0; k < 8; ++k) e[i].f[k] = e[i].f[k] * 2.0f + e[i].f[k + 8];
;     }
;   }
;   __global__ void e64_quarter(E64 *e, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) {
;   #pragma unroll
;       for (int k = 0; k < 4; ++k) e[i].f[k] = e[i].f[k] * 2.0f + 1.0f;
;     }
;   }
;   struct D4 { double v, x, y, z; };
;   __global__ void z_on_some(D4 *a, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) {
;       double v = a[i].v;
;       a[i].v = v * 2.0;
;       if (v > 0.0) a[i].z = v;
;       a[i].x = v + 1.0; a[i].y = v - 1.0;
;     }
;   }
;   struct Big { float f[80]; };
;   __global__ void big_part(Big *b, int n) {
;     int i = blockIdx.x * blockDim.x + threadIdx.x;
;     if (i < n) {
;   #pragma unroll
;       for (int k = 0; k < 78; ++k) b[i].f[k] += 1.0f;
;     }
;   }

target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Body = type { %struct.float4, %struct.float4 }
%struct.float4 = type { float, float, float, float }
%struct.F4 = type { float, float, float, float }
%struct.E64 = type { [16 x float] }
%struct.D4 = type { double, double, double, double }
%struct.Big = type { [80 x float] }

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z12nbody_updateP4Bodyfi(ptr nocapture noundef %b, float noundef %dt, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp.not = icmp slt i32 %add, %n
  br i1 %cmp.not, label %if.end, label %cleanup

if.end:                                           ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds %struct.Body, ptr %b, i64 %idxprom
  %vel = getelementptr inbounds i8, ptr %arrayidx, i64 16
  %3 = load float, ptr %vel, align 16, !tbaa !13
  %mul3 = fmul contract float %3, %dt
  store float %mul3, ptr %vel, align 16, !tbaa !13
  %y = getelementptr inbounds i8, ptr %arrayidx, i64 20
  %4 = load float, ptr %y, align 4, !tbaa !19
  %mul7 = fmul contract float %4, %dt
  store float %mul7, ptr %y, align 4, !tbaa !19
  %z = getelementptr inbounds i8, ptr %arrayidx, i64 24
  %5 = load float, ptr %z, align 8, !tbaa !20
  %mul11 = fmul contract float %5, %dt
  store float %mul11, ptr %z, align 8, !tbaa !20
  %6 = load float, ptr %arrayidx, align 16, !tbaa !21
  %add19 = fadd contract float %mul3, %6
  store float %add19, ptr %arrayidx, align 16, !tbaa !21
  %y27 = getelementptr inbounds i8, ptr %arrayidx, i64 4
  %7 = load float, ptr %y27, align 4, !tbaa !22
  %add28 = fadd contract float %mul7, %7
  store float %add28, ptr %y27, align 4, !tbaa !22
  %z36 = getelementptr inbounds i8, ptr %arrayidx, i64 8
  %8 = load float, ptr %z36, align 8, !tbaa !23
  %add37 = fadd contract float %mul11, %8
  store float %add37, ptr %z36, align 8, !tbaa !23
  br label %cleanup

cleanup:                                          ; preds = %entry, %if.end
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z9xyz_writeP2F4PKfS2_S2_i(ptr nocapture noundef writeonly %out, ptr nocapture noundef readonly %x, ptr nocapture noundef readonly %y, ptr nocapture noundef readonly %z, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp = icmp slt i32 %add, %n
  br i1 %cmp, label %if.then, label %if.end

if.then:                                          ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds float, ptr %x, i64 %idxprom
  %3 = load float, ptr %arrayidx, align 4, !tbaa !24
  %arrayidx4 = getelementptr inbounds %struct.F4, ptr %out, i64 %idxprom
  store float %3, ptr %arrayidx4, align 4, !tbaa !25
  %arrayidx7 = getelementptr inbounds float, ptr %y, i64 %idxprom
  %4 = load float, ptr %arrayidx7, align 4, !tbaa !24
  %y10 = getelementptr inbounds i8, ptr %arrayidx4, i64 4
  store float %4, ptr %y10, align 4, !tbaa !27
  %arrayidx12 = getelementptr inbounds float, ptr %z, i64 %idxprom
  %5 = load float, ptr %arrayidx12, align 4, !tbaa !24
  %z15 = getelementptr inbounds i8, ptr %arrayidx4, i64 8
  store float %5, ptr %z15, align 4, !tbaa !28
  br label %if.end

if.end:                                           ; preds = %if.then, %entry
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z8e64_halfP3E64i(ptr nocapture noundef %e, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp = icmp slt i32 %add, %n
  br i1 %cmp, label %for.cond.preheader, label %if.end

for.cond.preheader:                               ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds %struct.E64, ptr %e, i64 %idxprom
  %3 = load float, ptr %arrayidx, align 4, !tbaa !24
  %mul6 = fmul contract float %3, 2.000000e+00
  %arrayidx12 = getelementptr inbounds i8, ptr %arrayidx, i64 32
  %4 = load float, ptr %arrayidx12, align 4, !tbaa !24
  %add13 = fadd contract float %mul6, %4
  store float %add13, ptr %arrayidx, align 4, !tbaa !24
  %arrayidx5.1 = getelementptr inbounds i8, ptr %arrayidx, i64 4
  %5 = load float, ptr %arrayidx5.1, align 4, !tbaa !24
  %mul6.1 = fmul contract float %5, 2.000000e+00
  %arrayidx12.1 = getelementptr inbounds i8, ptr %arrayidx, i64 36
  %6 = load float, ptr %arrayidx12.1, align 4, !tbaa !24
  %add13.1 = fadd contract float %mul6.1, %6
  store float %add13.1, ptr %arrayidx5.1, align 4, !tbaa !24
  %arrayidx5.2 = getelementptr inbounds i8, ptr %arrayidx, i64 8
  %7 = load float, ptr %arrayidx5.2, align 4, !tbaa !24
  %mul6.2 = fmul contract float %7, 2.000000e+00
  %arrayidx12.2 = getelementptr inbounds i8, ptr %arrayidx, i64 40
  %8 = load float, ptr %arrayidx12.2, align 4, !tbaa !24
  %add13.2 = fadd contract float %mul6.2, %8
  store float %add13.2, ptr %arrayidx5.2, align 4, !tbaa !24
  %arrayidx5.3 = getelementptr inbounds i8, ptr %arrayidx, i64 12
  %9 = load float, ptr %arrayidx5.3, align 4, !tbaa !24
  %mul6.3 = fmul contract float %9, 2.000000e+00
  %arrayidx12.3 = getelementptr inbounds i8, ptr %arrayidx, i64 44
  %10 = load float, ptr %arrayidx12.3, align 4, !tbaa !24
  %add13.3 = fadd contract float %mul6.3, %10
  store float %add13.3, ptr %arrayidx5.3, align 4, !tbaa !24
  %arrayidx5.4 = getelementptr inbounds i8, ptr %arrayidx, i64 16
  %11 = load float, ptr %arrayidx5.4, align 4, !tbaa !24
  %mul6.4 = fmul contract float %11, 2.000000e+00
  %arrayidx12.4 = getelementptr inbounds i8, ptr %arrayidx, i64 48
  %12 = load float, ptr %arrayidx12.4, align 4, !tbaa !24
  %add13.4 = fadd contract float %mul6.4, %12
  store float %add13.4, ptr %arrayidx5.4, align 4, !tbaa !24
  %arrayidx5.5 = getelementptr inbounds i8, ptr %arrayidx, i64 20
  %13 = load float, ptr %arrayidx5.5, align 4, !tbaa !24
  %mul6.5 = fmul contract float %13, 2.000000e+00
  %arrayidx12.5 = getelementptr inbounds i8, ptr %arrayidx, i64 52
  %14 = load float, ptr %arrayidx12.5, align 4, !tbaa !24
  %add13.5 = fadd contract float %mul6.5, %14
  store float %add13.5, ptr %arrayidx5.5, align 4, !tbaa !24
  %arrayidx5.6 = getelementptr inbounds i8, ptr %arrayidx, i64 24
  %15 = load float, ptr %arrayidx5.6, align 4, !tbaa !24
  %mul6.6 = fmul contract float %15, 2.000000e+00
  %arrayidx12.6 = getelementptr inbounds i8, ptr %arrayidx, i64 56
  %16 = load float, ptr %arrayidx12.6, align 4, !tbaa !24
  %add13.6 = fadd contract float %mul6.6, %16
  store float %add13.6, ptr %arrayidx5.6, align 4, !tbaa !24
  %arrayidx5.7 = getelementptr inbounds i8, ptr %arrayidx, i64 28
  %17 = load float, ptr %arrayidx5.7, align 4, !tbaa !24
  %mul6.7 = fmul contract float %17, 2.000000e+00
  %arrayidx12.7 = getelementptr inbounds i8, ptr %arrayidx, i64 60
  %18 = load float, ptr %arrayidx12.7, align 4, !tbaa !24
  %add13.7 = fadd contract float %mul6.7, %18
  store float %add13.7, ptr %arrayidx5.7, align 4, !tbaa !24
  br label %if.end

if.end:                                           ; preds = %for.cond.preheader, %entry
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z11e64_quarterP3E64i(ptr nocapture noundef %e, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp = icmp slt i32 %add, %n
  br i1 %cmp, label %for.cond.preheader, label %if.end

for.cond.preheader:                               ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds %struct.E64, ptr %e, i64 %idxprom
  %3 = load float, ptr %arrayidx, align 4, !tbaa !24
  %mul6 = fmul contract float %3, 2.000000e+00
  %add7 = fadd contract float %mul6, 1.000000e+00
  store float %add7, ptr %arrayidx, align 4, !tbaa !24
  %arrayidx5.1 = getelementptr inbounds i8, ptr %arrayidx, i64 4
  %4 = load float, ptr %arrayidx5.1, align 4, !tbaa !24
  %mul6.1 = fmul contract float %4, 2.000000e+00
  %add7.1 = fadd contract float %mul6.1, 1.000000e+00
  store float %add7.1, ptr %arrayidx5.1, align 4, !tbaa !24
  %arrayidx5.2 = getelementptr inbounds i8, ptr %arrayidx, i64 8
  %5 = load float, ptr %arrayidx5.2, align 4, !tbaa !24
  %mul6.2 = fmul contract float %5, 2.000000e+00
  %add7.2 = fadd contract float %mul6.2, 1.000000e+00
  store float %add7.2, ptr %arrayidx5.2, align 4, !tbaa !24
  %arrayidx5.3 = getelementptr inbounds i8, ptr %arrayidx, i64 12
  %6 = load float, ptr %arrayidx5.3, align 4, !tbaa !24
  %mul6.3 = fmul contract float %6, 2.000000e+00
  %add7.3 = fadd contract float %mul6.3, 1.000000e+00
  store float %add7.3, ptr %arrayidx5.3, align 4, !tbaa !24
  br label %if.end

if.end:                                           ; preds = %for.cond.preheader, %entry
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z9z_on_someP2D4i(ptr nocapture noundef %a, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp = icmp slt i32 %add, %n
  br i1 %cmp, label %if.then, label %if.end17

if.then:                                          ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds %struct.D4, ptr %a, i64 %idxprom
  %3 = load double, ptr %arrayidx, align 8, !tbaa !29
  %mul4 = fmul contract double %3, 2.000000e+00
  store double %mul4, ptr %arrayidx, align 8, !tbaa !29
  %cmp8 = fcmp contract ogt double %3, 0.000000e+00
  br i1 %cmp8, label %if.then9, label %if.end

if.then9:                                         ; preds = %if.then
  %z = getelementptr inbounds i8, ptr %arrayidx, i64 24
  store double %3, ptr %z, align 8, !tbaa !32
  br label %if.end

if.end:                                           ; preds = %if.then9, %if.then
  %add12 = fadd contract double %3, 1.000000e+00
  %x = getelementptr inbounds i8, ptr %arrayidx, i64 8
  store double %add12, ptr %x, align 8, !tbaa !33
  %sub = fadd contract double %3, -1.000000e+00
  %y = getelementptr inbounds i8, ptr %arrayidx, i64 16
  store double %sub, ptr %y, align 8, !tbaa !34
  br label %if.end17

if.end17:                                         ; preds = %if.end, %entry
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z8big_partP3Bigi(ptr nocapture noundef %b, i32 noundef %n) local_unnamed_addr #0 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %0, %1
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %add = add i32 %mul, %2
  %cmp = icmp slt i32 %add, %n
  br i1 %cmp, label %for.cond.preheader, label %if.end

for.cond.preheader:                               ; preds = %entry
  %idxprom = sext i32 %add to i64
  %arrayidx = getelementptr inbounds %struct.Big, ptr %b, i64 %idxprom
  %3 = load float, ptr %arrayidx, align 4, !tbaa !24
  %add6 = fadd contract float %3, 1.000000e+00
  store float %add6, ptr %arrayidx, align 4, !tbaa !24
  %arrayidx5.1 = getelementptr inbounds i8, ptr %arrayidx, i64 4
  %4 = load float, ptr %arrayidx5.1, align 4, !tbaa !24
  %add6.1 = fadd contract float %4, 1.000000e+00
  store float %add6.1, ptr %arrayidx5.1, align 4, !tbaa !24
  %arrayidx5.2 = getelementptr inbounds i8, ptr %arrayidx, i64 8
  %5 = load float, ptr %arrayidx5.2, align 4, !tbaa !24
  %add6.2 = fadd contract float %5, 1.000000e+00
  store float %add6.2, ptr %arrayidx5.2, align 4, !tbaa !24
  %arrayidx5.3 = getelementptr inbounds i8, ptr %arrayidx, i64 12
  %6 = load float, ptr %arrayidx5.3, align 4, !tbaa !24
  %add6.3 = fadd contract float %6, 1.000000e+00
  store float %add6.3, ptr %arrayidx5.3, align 4, !tbaa !24
  %arrayidx5.4 = getelementptr inbounds i8, ptr %arrayidx, i64 16
  %7 = load float, ptr %arrayidx5.4, align 4, !tbaa !24
  %add6.4 = fadd contract float %7, 1.000000e+00
  store float %add6.4, ptr %arrayidx5.4, align 4, !tbaa !24
  %arrayidx5.5 = getelementptr inbounds i8, ptr %arrayidx, i64 20
  %8 = load float, ptr %arrayidx5.5, align 4, !tbaa !24
  %add6.5 = fadd contract float %8, 1.000000e+00
  store float %add6.5, ptr %arrayidx5.5, align 4, !tbaa !24
  %arrayidx5.6 = getelementptr inbounds i8, ptr %arrayidx, i64 24
  %9 = load float, ptr %arrayidx5.6, align 4, !tbaa !24
  %add6.6 = fadd contract float %9, 1.000000e+00
  store float %add6.6, ptr %arrayidx5.6, align 4, !tbaa !24
  %arrayidx5.7 = getelementptr inbounds i8, ptr %arrayidx, i64 28
  %10 = load float, ptr %arrayidx5.7, align 4, !tbaa !24
  %add6.7 = fadd contract float %10, 1.000000e+00
  store float %add6.7, ptr %arrayidx5.7, align 4, !tbaa !24
  %arrayidx5.8 = getelementptr inbounds i8, ptr %arrayidx, i64 32
  %11 = load float, ptr %arrayidx5.8, align 4, !tbaa !24
  %add6.8 = fadd contract float %11, 1.000000e+00
  store float %add6.8, ptr %arrayidx5.8, align 4, !tbaa !24
  %arrayidx5.9 = getelementptr inbounds i8, ptr %arrayidx, i64 36
  %12 = load float, ptr %arrayidx5.9, align 4, !tbaa !24
  %add6.9 = fadd contract float %12, 1.000000e+00
  store float %add6.9, ptr %arrayidx5.9, align 4, !tbaa !24
  %arrayidx5.10 = getelementptr inbounds i8, ptr %arrayidx, i64 40
  %13 = load float, ptr %arrayidx5.10, align 4, !tbaa !24
  %add6.10 = fadd contract float %13, 1.000000e+00
  store float %add6.10, ptr %arrayidx5.10, align 4, !tbaa !24
  %arrayidx5.11 = getelementptr inbounds i8, ptr %arrayidx, i64 44
  %14 = load float, ptr %arrayidx5.11, align 4, !tbaa !24
  %add6.11 = fadd contract float %14, 1.000000e+00
  store float %add6.11, ptr %arrayidx5.11, align 4, !tbaa !24
  %arrayidx5.12 = getelementptr inbounds i8, ptr %arrayidx, i64 48
  %15 = load float, ptr %arrayidx5.12, align 4, !tbaa !24
  %add6.12 = fadd contract float %15, 1.000000e+00
  store float %add6.12, ptr %arrayidx5.12, align 4, !tbaa !24
  %arrayidx5.13 = getelementptr inbounds i8, ptr %arrayidx, i64 52
  %16 = load float, ptr %arrayidx5.13, align 4, !tbaa !24
  %add6.13 = fadd contract float %16, 1.000000e+00
  store float %add6.13, ptr %arrayidx5.13, align 4, !tbaa !24
  %arrayidx5.14 = getelementptr inbounds i8, ptr %arrayidx, i64 56
  %17 = load float, ptr %arrayidx5.14, align 4, !tbaa !24
  %add6.14 = fadd contract float %17, 1.000000e+00
  store float %add6.14, ptr %arrayidx5.14, align 4, !tbaa !24
  %arrayidx5.15 = getelementptr inbounds i8, ptr %arrayidx, i64 60
  %18 = load float, ptr %arrayidx5.15, align 4, !tbaa !24
  %add6.15 = fadd contract float %18, 1.000000e+00
  store float %add6.15, ptr %arrayidx5.15, align 4, !tbaa !24
  %arrayidx5.16 = getelementptr inbounds i8, ptr %arrayidx, i64 64
  %19 = load float, ptr %arrayidx5.16, align 4, !tbaa !24
  %add6.16 = fadd contract float %19, 1.000000e+00
  store float %add6.16, ptr %arrayidx5.16, align 4, !tbaa !24
  %arrayidx5.17 = getelementptr inbounds i8, ptr %arrayidx, i64 68
  %20 = load float, ptr %arrayidx5.17, align 4, !tbaa !24
  %add6.17 = fadd contract float %20, 1.000000e+00
  store float %add6.17, ptr %arrayidx5.17, align 4, !tbaa !24
  %arrayidx5.18 = getelementptr inbounds i8, ptr %arrayidx, i64 72
  %21 = load float, ptr %arrayidx5.18, align 4, !tbaa !24
  %add6.18 = fadd contract float %21, 1.000000e+00
  store float %add6.18, ptr %arrayidx5.18, align 4, !tbaa !24
  %arrayidx5.19 = getelementptr inbounds i8, ptr %arrayidx, i64 76
  %22 = load float, ptr %arrayidx5.19, align 4, !tbaa !24
  %add6.19 = fadd contract float %22, 1.000000e+00
  store float %add6.19, ptr %arrayidx5.19, align 4, !tbaa !24
  %arrayidx5.20 = getelementptr inbounds i8, ptr %arrayidx, i64 80
  %23 = load float, ptr %arrayidx5.20, align 4, !tbaa !24
  %add6.20 = fadd contract float %23, 1.000000e+00
  store float %add6.20, ptr %arrayidx5.20, align 4, !tbaa !24
  %arrayidx5.21 = getelementptr inbounds i8, ptr %arrayidx, i64 84
  %24 = load float, ptr %arrayidx5.21, align 4, !tbaa !24
  %add6.21 = fadd contract float %24, 1.000000e+00
  store float %add6.21, ptr %arrayidx5.21, align 4, !tbaa !24
  %arrayidx5.22 = getelementptr inbounds i8, ptr %arrayidx, i64 88
  %25 = load float, ptr %arrayidx5.22, align 4, !tbaa !24
  %add6.22 = fadd contract float %25, 1.000000e+00
  store float %add6.22, ptr %arrayidx5.22, align 4, !tbaa !24
  %arrayidx5.23 = getelementptr inbounds i8, ptr %arrayidx, i64 92
  %26 = load float, ptr %arrayidx5.23, align 4, !tbaa !24
  %add6.23 = fadd contract float %26, 1.000000e+00
  store float %add6.23, ptr %arrayidx5.23, align 4, !tbaa !24
  %arrayidx5.24 = getelementptr inbounds i8, ptr %arrayidx, i64 96
  %27 = load float, ptr %arrayidx5.24, align 4, !tbaa !24
  %add6.24 = fadd contract float %27, 1.000000e+00
  store float %add6.24, ptr %arrayidx5.24, align 4, !tbaa !24
  %arrayidx5.25 = getelementptr inbounds i8, ptr %arrayidx, i64 100
  %28 = load float, ptr %arrayidx5.25, align 4, !tbaa !24
  %add6.25 = fadd contract float %28, 1.000000e+00
  store float %add6.25, ptr %arrayidx5.25, align 4, !tbaa !24
  %arrayidx5.26 = getelementptr inbounds i8, ptr %arrayidx, i64 104
  %29 = load float, ptr %arrayidx5.26, align 4, !tbaa !24
  %add6.26 = fadd contract float %29, 1.000000e+00
  store float %add6.26, ptr %arrayidx5.26, align 4, !tbaa !24
  %arrayidx5.27 = getelementptr inbounds i8, ptr %arrayidx, i64 108
  %30 = load float, ptr %arrayidx5.27, align 4, !tbaa !24
  %add6.27 = fadd contract float %30, 1.000000e+00
  store float %add6.27, ptr %arrayidx5.27, align 4, !tbaa !24
  %arrayidx5.28 = getelementptr inbounds i8, ptr %arrayidx, i64 112
  %31 = load float, ptr %arrayidx5.28, align 4, !tbaa !24
  %add6.28 = fadd contract float %31, 1.000000e+00
  store float %add6.28, ptr %arrayidx5.28, align 4, !tbaa !24
  %arrayidx5.29 = getelementptr inbounds i8, ptr %arrayidx, i64 116
  %32 = load float, ptr %arrayidx5.29, align 4, !tbaa !24
  %add6.29 = fadd contract float %32, 1.000000e+00
  store float %add6.29, ptr %arrayidx5.29, align 4, !tbaa !24
  %arrayidx5.30 = getelementptr inbounds i8, ptr %arrayidx, i64 120
  %33 = load float, ptr %arrayidx5.30, align 4, !tbaa !24
  %add6.30 = fadd contract float %33, 1.000000e+00
  store float %add6.30, ptr %arrayidx5.30, align 4, !tbaa !24
  %arrayidx5.31 = getelementptr inbounds i8, ptr %arrayidx, i64 124
  %34 = load float, ptr %arrayidx5.31, align 4, !tbaa !24
  %add6.31 = fadd contract float %34, 1.000000e+00
  store float %add6.31, ptr %arrayidx5.31, align 4, !tbaa !24
  %arrayidx5.32 = getelementptr inbounds i8, ptr %arrayidx, i64 128
  %35 = load float, ptr %arrayidx5.32, align 4, !tbaa !24
  %add6.32 = fadd contract float %35, 1.000000e+00
  store float %add6.32, ptr %arrayidx5.32, align 4, !tbaa !24
  %arrayidx5.33 = getelementptr inbounds i8, ptr %arrayidx, i64 132
  %36 = load float, ptr %arrayidx5.33, align 4, !tbaa !24
  %add6.33 = fadd contract float %36, 1.000000e+00
  store float %add6.33, ptr %arrayidx5.33, align 4, !tbaa !24
  %arrayidx5.34 = getelementptr inbounds i8, ptr %arrayidx, i64 136
  %37 = load float, ptr %arrayidx5.34, align 4, !tbaa !24
  %add6.34 = fadd contract float %37, 1.000000e+00
  store float %add6.34, ptr %arrayidx5.34, align 4, !tbaa !24
  %arrayidx5.35 = getelementptr inbounds i8, ptr %arrayidx, i64 140
  %38 = load float, ptr %arrayidx5.35, align 4, !tbaa !24
  %add6.35 = fadd contract float %38, 1.000000e+00
  store float %add6.35, ptr %arrayidx5.35, align 4, !tbaa !24
  %arrayidx5.36 = getelementptr inbounds i8, ptr %arrayidx, i64 144
  %39 = load float, ptr %arrayidx5.36, align 4, !tbaa !24
  %add6.36 = fadd contract float %39, 1.000000e+00
  store float %add6.36, ptr %arrayidx5.36, align 4, !tbaa !24
  %arrayidx5.37 = getelementptr inbounds i8, ptr %arrayidx, i64 148
  %40 = load float, ptr %arrayidx5.37, align 4, !tbaa !24
  %add6.37 = fadd contract float %40, 1.000000e+00
  store float %add6.37, ptr %arrayidx5.37, align 4, !tbaa !24
  %arrayidx5.38 = getelementptr inbounds i8, ptr %arrayidx, i64 152
  %41 = load float, ptr %arrayidx5.38, align 4, !tbaa !24
  %add6.38 = fadd contract float %41, 1.000000e+00
  store float %add6.38, ptr %arrayidx5.38, align 4, !tbaa !24
  %arrayidx5.39 = getelementptr inbounds i8, ptr %arrayidx, i64 156
  %42 = load float, ptr %arrayidx5.39, align 4, !tbaa !24
  %add6.39 = fadd contract float %42, 1.000000e+00
  store float %add6.39, ptr %arrayidx5.39, align 4, !tbaa !24
  %arrayidx5.40 = getelementptr inbounds i8, ptr %arrayidx, i64 160
  %43 = load float, ptr %arrayidx5.40, align 4, !tbaa !24
  %add6.40 = fadd contract float %43, 1.000000e+00
  store float %add6.40, ptr %arrayidx5.40, align 4, !tbaa !24
  %arrayidx5.41 = getelementptr inbounds i8, ptr %arrayidx, i64 164
  %44 = load float, ptr %arrayidx5.41, align 4, !tbaa !24
  %add6.41 = fadd contract float %44, 1.000000e+00
  store float %add6.41, ptr %arrayidx5.41, align 4, !tbaa !24
  %arrayidx5.42 = getelementptr inbounds i8, ptr %arrayidx, i64 168
  %45 = load float, ptr %arrayidx5.42, align 4, !tbaa !24
  %add6.42 = fadd contract float %45, 1.000000e+00
  store float %add6.42, ptr %arrayidx5.42, align 4, !tbaa !24
  %arrayidx5.43 = getelementptr inbounds i8, ptr %arrayidx, i64 172
  %46 = load float, ptr %arrayidx5.43, align 4, !tbaa !24
  %add6.43 = fadd contract float %46, 1.000000e+00
  store float %add6.43, ptr %arrayidx5.43, align 4, !tbaa !24
  %arrayidx5.44 = getelementptr inbounds i8, ptr %arrayidx, i64 176
  %47 = load float, ptr %arrayidx5.44, align 4, !tbaa !24
  %add6.44 = fadd contract float %47, 1.000000e+00
  store float %add6.44, ptr %arrayidx5.44, align 4, !tbaa !24
  %arrayidx5.45 = getelementptr inbounds i8, ptr %arrayidx, i64 180
  %48 = load float, ptr %arrayidx5.45, align 4, !tbaa !24
  %add6.45 = fadd contract float %48, 1.000000e+00
  store float %add6.45, ptr %arrayidx5.45, align 4, !tbaa !24
  %arrayidx5.46 = getelementptr inbounds i8, ptr %arrayidx, i64 184
  %49 = load float, ptr %arrayidx5.46, align 4, !tbaa !24
  %add6.46 = fadd contract float %49, 1.000000e+00
  store float %add6.46, ptr %arrayidx5.46, align 4, !tbaa !24
  %arrayidx5.47 = getelementptr inbounds i8, ptr %arrayidx, i64 188
  %50 = load float, ptr %arrayidx5.47, align 4, !tbaa !24
  %add6.47 = fadd contract float %50, 1.000000e+00
  store float %add6.47, ptr %arrayidx5.47, align 4, !tbaa !24
  %arrayidx5.48 = getelementptr inbounds i8, ptr %arrayidx, i64 192
  %51 = load float, ptr %arrayidx5.48, align 4, !tbaa !24
  %add6.48 = fadd contract float %51, 1.000000e+00
  store float %add6.48, ptr %arrayidx5.48, align 4, !tbaa !24
  %arrayidx5.49 = getelementptr inbounds i8, ptr %arrayidx, i64 196
  %52 = load float, ptr %arrayidx5.49, align 4, !tbaa !24
  %add6.49 = fadd contract float %52, 1.000000e+00
  store float %add6.49, ptr %arrayidx5.49, align 4, !tbaa !24
  %arrayidx5.50 = getelementptr inbounds i8, ptr %arrayidx, i64 200
  %53 = load float, ptr %arrayidx5.50, align 4, !tbaa !24
  %add6.50 = fadd contract float %53, 1.000000e+00
  store float %add6.50, ptr %arrayidx5.50, align 4, !tbaa !24
  %arrayidx5.51 = getelementptr inbounds i8, ptr %arrayidx, i64 204
  %54 = load float, ptr %arrayidx5.51, align 4, !tbaa !24
  %add6.51 = fadd contract float %54, 1.000000e+00
  store float %add6.51, ptr %arrayidx5.51, align 4, !tbaa !24
  %arrayidx5.52 = getelementptr inbounds i8, ptr %arrayidx, i64 208
  %55 = load float, ptr %arrayidx5.52, align 4, !tbaa !24
  %add6.52 = fadd contract float %55, 1.000000e+00
  store float %add6.52, ptr %arrayidx5.52, align 4, !tbaa !24
  %arrayidx5.53 = getelementptr inbounds i8, ptr %arrayidx, i64 212
  %56 = load float, ptr %arrayidx5.53, align 4, !tbaa !24
  %add6.53 = fadd contract float %56, 1.000000e+00
  store float %add6.53, ptr %arrayidx5.53, align 4, !tbaa !24
  %arrayidx5.54 = getelementptr inbounds i8, ptr %arrayidx, i64 216
  %57 = load float, ptr %arrayidx5.54, align 4, !tbaa !24
  %add6.54 = fadd contract float %57, 1.000000e+00
  store float %add6.54, ptr %arrayidx5.54, align 4, !tbaa !24
  %arrayidx5.55 = getelementptr inbounds i8, ptr %arrayidx, i64 220
  %58 = load float, ptr %arrayidx5.55, align 4, !tbaa !24
  %add6.55 = fadd contract float %58, 1.000000e+00
  store float %add6.55, ptr %arrayidx5.55, align 4, !tbaa !24
  %arrayidx5.56 = getelementptr inbounds i8, ptr %arrayidx, i64 224
  %59 = load float, ptr %arrayidx5.56, align 4, !tbaa !24
  %add6.56 = fadd contract float %59, 1.000000e+00
  store float %add6.56, ptr %arrayidx5.56, align 4, !tbaa !24
  %arrayidx5.57 = getelementptr inbounds i8, ptr %arrayidx, i64 228
  %60 = load float, ptr %arrayidx5.57, align 4, !tbaa !24
  %add6.57 = fadd contract float %60, 1.000000e+00
  store float %add6.57, ptr %arrayidx5.57, align 4, !tbaa !24
  %arrayidx5.58 = getelementptr inbounds i8, ptr %arrayidx, i64 232
  %61 = load float, ptr %arrayidx5.58, align 4, !tbaa !24
  %add6.58 = fadd contract float %61, 1.000000e+00
  store float %add6.58, ptr %arrayidx5.58, align 4, !tbaa !24
  %arrayidx5.59 = getelementptr inbounds i8, ptr %arrayidx, i64 236
  %62 = load float, ptr %arrayidx5.59, align 4, !tbaa !24
  %add6.59 = fadd contract float %62, 1.000000e+00
  store float %add6.59, ptr %arrayidx5.59, align 4, !tbaa !24
  %arrayidx5.60 = getelementptr inbounds i8, ptr %arrayidx, i64 240
  %63 = load float, ptr %arrayidx5.60, align 4, !tbaa !24
  %add6.60 = fadd contract float %63, 1.000000e+00
  store float %add6.60, ptr %arrayidx5.60, align 4, !tbaa !24
  %arrayidx5.61 = getelementptr inbounds i8, ptr %arrayidx, i64 244
  %64 = load float, ptr %arrayidx5.61, align 4, !tbaa !24
  %add6.61 = fadd contract float %64, 1.000000e+00
  store float %add6.61, ptr %arrayidx5.61, align 4, !tbaa !24
  %arrayidx5.62 = getelementptr inbounds i8, ptr %arrayidx, i64 248
  %65 = load float, ptr %arrayidx5.62, align 4, !tbaa !24
  %add6.62 = fadd contract float %65, 1.000000e+00
  store float %add6.62, ptr %arrayidx5.62, align 4, !tbaa !24
  %arrayidx5.63 = getelementptr inbounds i8, ptr %arrayidx, i64 252
  %66 = load float, ptr %arrayidx5.63, align 4, !tbaa !24
  %add6.63 = fadd contract float %66, 1.000000e+00
  store float %add6.63, ptr %arrayidx5.63, align 4, !tbaa !24
  %arrayidx5.64 = getelementptr inbounds i8, ptr %arrayidx, i64 256
  %67 = load float, ptr %arrayidx5.64, align 4, !tbaa !24
  %add6.64 = fadd contract float %67, 1.000000e+00
  store float %add6.64, ptr %arrayidx5.64, align 4, !tbaa !24
  %arrayidx5.65 = getelementptr inbounds i8, ptr %arrayidx, i64 260
  %68 = load float, ptr %arrayidx5.65, align 4, !tbaa !24
  %add6.65 = fadd contract float %68, 1.000000e+00
  store float %add6.65, ptr %arrayidx5.65, align 4, !tbaa !24
  %arrayidx5.66 = getelementptr inbounds i8, ptr %arrayidx, i64 264
  %69 = load float, ptr %arrayidx5.66, align 4, !tbaa !24
  %add6.66 = fadd contract float %69, 1.000000e+00
  store float %add6.66, ptr %arrayidx5.66, align 4, !tbaa !24
  %arrayidx5.67 = getelementptr inbounds i8, ptr %arrayidx, i64 268
  %70 = load float, ptr %arrayidx5.67, align 4, !tbaa !24
  %add6.67 = fadd contract float %70, 1.000000e+00
  store float %add6.67, ptr %arrayidx5.67, align 4, !tbaa !24
  %arrayidx5.68 = getelementptr inbounds i8, ptr %arrayidx, i64 272
  %71 = load float, ptr %arrayidx5.68, align 4, !tbaa !24
  %add6.68 = fadd contract float %71, 1.000000e+00
  store float %add6.68, ptr %arrayidx5.68, align 4, !tbaa !24
  %arrayidx5.69 = getelementptr inbounds i8, ptr %arrayidx, i64 276
  %72 = load float, ptr %arrayidx5.69, align 4, !tbaa !24
  %add6.69 = fadd contract float %72, 1.000000e+00
  store float %add6.69, ptr %arrayidx5.69, align 4, !tbaa !24
  %arrayidx5.70 = getelementptr inbounds i8, ptr %arrayidx, i64 280
  %73 = load float, ptr %arrayidx5.70, align 4, !tbaa !24
  %add6.70 = fadd contract float %73, 1.000000e+00
  store float %add6.70, ptr %arrayidx5.70, align 4, !tbaa !24
  %arrayidx5.71 = getelementptr inbounds i8, ptr %arrayidx, i64 284
  %74 = load float, ptr %arrayidx5.71, align 4, !tbaa !24
  %add6.71 = fadd contract float %74, 1.000000e+00
  store float %add6.71, ptr %arrayidx5.71, align 4, !tbaa !24
  %arrayidx5.72 = getelementptr inbounds i8, ptr %arrayidx, i64 288
  %75 = load float, ptr %arrayidx5.72, align 4, !tbaa !24
  %add6.72 = fadd contract float %75, 1.000000e+00
  store float %add6.72, ptr %arrayidx5.72, align 4, !tbaa !24
  %arrayidx5.73 = getelementptr inbounds i8, ptr %arrayidx, i64 292
  %76 = load float, ptr %arrayidx5.73, align 4, !tbaa !24
  %add6.73 = fadd contract float %76, 1.000000e+00
  store float %add6.73, ptr %arrayidx5.73, align 4, !tbaa !24
  %arrayidx5.74 = getelementptr inbounds i8, ptr %arrayidx, i64 296
  %77 = load float, ptr %arrayidx5.74, align 4, !tbaa !24
  %add6.74 = fadd contract float %77, 1.000000e+00
  store float %add6.74, ptr %arrayidx5.74, align 4, !tbaa !24
  %arrayidx5.75 = getelementptr inbounds i8, ptr %arrayidx, i64 300
  %78 = load float, ptr %arrayidx5.75, align 4, !tbaa !24
  %add6.75 = fadd contract float %78, 1.000000e+00
  store float %add6.75, ptr %arrayidx5.75, align 4, !tbaa !24
  %arrayidx5.76 = getelementptr inbounds i8, ptr %arrayidx, i64 304
  %79 = load float, ptr %arrayidx5.76, align 4, !tbaa !24
  %add6.76 = fadd contract float %79, 1.000000e+00
  store float %add6.76, ptr %arrayidx5.76, align 4, !tbaa !24
  %arrayidx5.77 = getelementptr inbounds i8, ptr %arrayidx, i64 308
  %80 = load float, ptr %arrayidx5.77, align 4, !tbaa !24
  %add6.77 = fadd contract float %80, 1.000000e+00
  store float %add6.77, ptr %arrayidx5.77, align 4, !tbaa !24
  br label %if.end

if.end:                                           ; preds = %for.cond.preheader, %entry
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { memory(argmem: readwrite) }
attributes #1 = { memory(none) }

!nvvm.annotations = !{!4, !5, !6, !7, !8, !9}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{ptr @_Z12nbody_updateP4Bodyfi, !"kernel", i32 1}
!5 = !{ptr @_Z9xyz_writeP2F4PKfS2_S2_i, !"kernel", i32 1}
!6 = !{ptr @_Z8e64_halfP3E64i, !"kernel", i32 1}
!7 = !{ptr @_Z11e64_quarterP3E64i, !"kernel", i32 1}
!8 = !{ptr @_Z9z_on_someP2D4i, !"kernel", i32 1}
!9 = !{ptr @_Z8big_partP3Bigi, !"kernel", i32 1}
!10 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!12 = !{i32 2, i32 0}
!13 = !{!14, !16, i64 16}
!14 = !{!"_ZTS4Body", !15, i64 0, !15, i64 16}
!15 = !{!"_ZTS6float4", !16, i64 0, !16, i64 4, !16, i64 8, !16, i64 12}
!16 = !{!"float", !17, i64 0}
!17 = !{!"omnipotent char", !18, i64 0}
!18 = !{!"Simple C++ TBAA"}
!19 = !{!14, !16, i64 20}
!20 = !{!14, !16, i64 24}
!21 = !{!14, !16, i64 0}
!22 = !{!14, !16, i64 4}
!23 = !{!14, !16, i64 8}
!24 = !{!16, !16, i64 0}
!25 = !{!26, !16, i64 0}
!26 = !{!"_ZTS2F4", !16, i64 0, !16, i64 4, !16, i64 8, !16, i64 12}
!27 = !{!26, !16, i64 4}
!28 = !{!26, !16, i64 8}
!29 = !{!30, !31, i64 0}
!30 = !{!"_ZTS2D4", !31, i64 0, !31, i64 8, !31, i64 16, !31, i64 24}
!31 = !{!"double", !17, i64 0}
!32 = !{!30, !31, i64 24}
!33 = !{!30, !31, i64 8}
!34 = !{!30, !31, i64 16}
