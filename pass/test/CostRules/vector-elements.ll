; RUN: %opt -passes=coalda,verify -S %s | FileCheck %s
; RUN: %opt -passes=coalda -pass-remarks=coalda -pass-remarks-missed=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %opt -passes=coalda -coalda-stage-small-always -pass-remarks=coalda -disable-output %s 2>&1 | FileCheck %s --check-prefix=ALWAYS

; Source (clang -O3, as `coalda optimize` compiles it):
;   struct Pix8 { float4 c, n; };  struct Rec8 { float v[8]; };
;   pairs:   cells[i].c and .n read and written as float4s
;   scalars: recs[i] = r after r.v[k] = r.v[k] * 2 + k, float by float

; A 32-byte element whose 16-byte halves are 16-byte aligned and read and
; written whole: the backend moves it in two 16-byte vectors a thread, and
; staging such elements measured 0.91-0.98x (geglu's 8-float rows,
; docs/probe/geglu_read_only-h200.txt). It is left alone, and the remark
; says why in the source's terms.
; CHECK-LABEL: define {{.*}}@_Z5pairsP4Pix8i(
; CHECK-NOT: coalda.stage
; CHECK: ret void
; REMARK: remark: {{.*}}ve.cu:7:14: elements of cells not staged through shared memory: cells's 32-byte elements are moved in 16-byte vectors by the backend: staging them measured 0.91-0.98x

; The same 32 bytes as eight floats at 4-byte alignment (no vector the
; backend may form) are staged, as measured faster for 32-byte records
; (docs/benchmarks.md, d4_update and bodies).
; CHECK-LABEL: define {{.*}}@_Z7scalarsP4Rec8i(
; CHECK: coalda.stage
; REMARK: remark: {{.*}}ve.cu:15:12: staged recs (32-byte elements, read and written)

; -coalda-stage-small-always (the adversarial corpora's setting, which
; attack the staged code) stages both.
; ALWAYS: remark: {{.*}}ve.cu:7:14: staged cells (32-byte elements, read and written)
; ALWAYS: remark: {{.*}}ve.cu:15:12: staged recs (32-byte elements, read and written)

; ModuleID = '/tmp/ve.cu'
source_filename = "/tmp/ve.cu"
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.Pix8 = type { %struct.float4, %struct.float4 }
%struct.float4 = type { float, float, float, float }
%struct.Rec8 = type { [8 x float] }

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z5pairsP4Pix8i(ptr nocapture noundef %cells, i32 noundef %n) local_unnamed_addr #0 !dbg !14 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !18
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !22
  %mul = mul i32 %0, %1, !dbg !25
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !26
  %add = add i32 %mul, %2, !dbg !29
  %cmp.not = icmp slt i32 %add, %n, !dbg !30
  br i1 %cmp.not, label %if.end, label %cleanup, !dbg !31

if.end:                                           ; preds = %entry
  %idxprom = sext i32 %add to i64, !dbg !32
  %arrayidx = getelementptr inbounds %struct.Pix8, ptr %cells, i64 %idxprom, !dbg !32
  %a.sroa.0.0.copyload = load float, ptr %arrayidx, align 16, !dbg !32, !tbaa !33
  %a.sroa.4.0.c.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 4, !dbg !32
  %a.sroa.4.0.copyload = load float, ptr %a.sroa.4.0.c.sroa_idx, align 4, !dbg !32, !tbaa !33
  %a.sroa.5.0.c.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 8, !dbg !32
  %a.sroa.5.0.copyload = load float, ptr %a.sroa.5.0.c.sroa_idx, align 8, !dbg !32, !tbaa !33
  %a.sroa.6.0.c.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 12, !dbg !32
  %a.sroa.6.0.copyload = load float, ptr %a.sroa.6.0.c.sroa_idx, align 4, !dbg !32, !tbaa !33
  %n5 = getelementptr inbounds i8, ptr %arrayidx, i64 16, !dbg !37
  %b.sroa.0.0.copyload = load float, ptr %n5, align 16, !dbg !38, !tbaa !33
  %b.sroa.4.0.n5.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 20, !dbg !38
  %b.sroa.4.0.copyload = load float, ptr %b.sroa.4.0.n5.sroa_idx, align 4, !dbg !38, !tbaa !33
  %b.sroa.5.0.n5.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 24, !dbg !38
  %b.sroa.5.0.copyload = load float, ptr %b.sroa.5.0.n5.sroa_idx, align 8, !dbg !38, !tbaa !33
  %b.sroa.6.0.n5.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 28, !dbg !38
  %b.sroa.6.0.copyload = load float, ptr %b.sroa.6.0.n5.sroa_idx, align 4, !dbg !38, !tbaa !33
  %add6 = fadd contract float %a.sroa.5.0.copyload, 1.000000e+00, !dbg !39
  %mul7 = fmul contract float %a.sroa.6.0.copyload, 2.000000e+00, !dbg !40
  store float %b.sroa.0.0.copyload, ptr %arrayidx, align 16, !dbg !41, !tbaa !33
  store float %b.sroa.4.0.copyload, ptr %a.sroa.4.0.c.sroa_idx, align 4, !dbg !41, !tbaa !33
  store float %add6, ptr %a.sroa.5.0.c.sroa_idx, align 8, !dbg !41, !tbaa !33
  store float %mul7, ptr %a.sroa.6.0.c.sroa_idx, align 4, !dbg !41, !tbaa !33
  %sub = fadd contract float %b.sroa.5.0.copyload, -1.000000e+00, !dbg !42
  %mul17 = fmul contract float %b.sroa.6.0.copyload, 5.000000e-01, !dbg !43
  store float %a.sroa.0.0.copyload, ptr %n5, align 16, !dbg !44, !tbaa !33
  store float %a.sroa.4.0.copyload, ptr %b.sroa.4.0.n5.sroa_idx, align 4, !dbg !44, !tbaa !33
  store float %sub, ptr %b.sroa.5.0.n5.sroa_idx, align 8, !dbg !44, !tbaa !33
  store float %mul17, ptr %b.sroa.6.0.n5.sroa_idx, align 4, !dbg !44, !tbaa !33
  br label %cleanup, !dbg !45

cleanup:                                          ; preds = %if.end, %entry
  ret void, !dbg !45
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define dso_local void @_Z7scalarsP4Rec8i(ptr nocapture noundef %recs, i32 noundef %n) local_unnamed_addr #0 !dbg !46 {
entry:
  %0 = tail call noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x(), !dbg !47
  %1 = tail call noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x(), !dbg !49
  %mul = mul i32 %0, %1, !dbg !51
  %2 = tail call noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !52
  %add = add i32 %mul, %2, !dbg !54
  %cmp.not = icmp slt i32 %add, %n, !dbg !55
  br i1 %cmp.not, label %if.end, label %cleanup, !dbg !56

if.end:                                           ; preds = %entry
  %idxprom = sext i32 %add to i64, !dbg !57
  %arrayidx = getelementptr inbounds %struct.Rec8, ptr %recs, i64 %idxprom, !dbg !57
  %r.sroa.0.0.copyload = load float, ptr %arrayidx, align 4, !dbg !57
  %r.sroa.6.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 4, !dbg !57
  %r.sroa.6.0.copyload = load float, ptr %r.sroa.6.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.8.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 8, !dbg !57
  %r.sroa.8.0.copyload = load float, ptr %r.sroa.8.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.10.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 12, !dbg !57
  %r.sroa.10.0.copyload = load float, ptr %r.sroa.10.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.12.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 16, !dbg !57
  %r.sroa.12.0.copyload = load float, ptr %r.sroa.12.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.14.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 20, !dbg !57
  %r.sroa.14.0.copyload = load float, ptr %r.sroa.14.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.16.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 24, !dbg !57
  %r.sroa.16.0.copyload = load float, ptr %r.sroa.16.0.arrayidx.sroa_idx, align 4, !dbg !57
  %r.sroa.18.0.arrayidx.sroa_idx = getelementptr inbounds i8, ptr %arrayidx, i64 28, !dbg !57
  %r.sroa.18.0.copyload = load float, ptr %r.sroa.18.0.arrayidx.sroa_idx, align 4, !dbg !57, !tbaa !58
  %mul6 = fmul contract float %r.sroa.0.0.copyload, 2.000000e+00, !dbg !59
  %add7 = fadd contract float %mul6, 0.000000e+00, !dbg !60
  %mul6.1 = fmul contract float %r.sroa.6.0.copyload, 2.000000e+00, !dbg !59
  %add7.1 = fadd contract float %mul6.1, 1.000000e+00, !dbg !60
  %mul6.2 = fmul contract float %r.sroa.8.0.copyload, 2.000000e+00, !dbg !59
  %add7.2 = fadd contract float %mul6.2, 2.000000e+00, !dbg !60
  %mul6.3 = fmul contract float %r.sroa.10.0.copyload, 2.000000e+00, !dbg !59
  %add7.3 = fadd contract float %mul6.3, 3.000000e+00, !dbg !60
  %mul6.4 = fmul contract float %r.sroa.12.0.copyload, 2.000000e+00, !dbg !59
  %add7.4 = fadd contract float %mul6.4, 4.000000e+00, !dbg !60
  %mul6.5 = fmul contract float %r.sroa.14.0.copyload, 2.000000e+00, !dbg !59
  %add7.5 = fadd contract float %mul6.5, 5.000000e+00, !dbg !60
  %mul6.6 = fmul contract float %r.sroa.16.0.copyload, 2.000000e+00, !dbg !59
  %add7.6 = fadd contract float %mul6.6, 6.000000e+00, !dbg !60
  %mul6.7 = fmul contract float %r.sroa.18.0.copyload, 2.000000e+00, !dbg !59
  %add7.7 = fadd contract float %mul6.7, 7.000000e+00, !dbg !60
  store float %add7, ptr %arrayidx, align 4, !dbg !61
  store float %add7.1, ptr %r.sroa.6.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.2, ptr %r.sroa.8.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.3, ptr %r.sroa.10.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.4, ptr %r.sroa.12.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.5, ptr %r.sroa.14.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.6, ptr %r.sroa.16.0.arrayidx.sroa_idx, align 4, !dbg !61
  store float %add7.7, ptr %r.sroa.18.0.arrayidx.sroa_idx, align 4, !dbg !61, !tbaa !58
  br label %cleanup, !dbg !62

cleanup:                                          ; preds = %if.end, %entry
  ret void, !dbg !62
}

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="sm_90" "target-features"="+ptx85,+sm_90" "uniform-work-group-size"="true" }
attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.module.flags = !{!0, !1, !2, !3, !4, !5, !6}
!llvm.dbg.cu = !{!7}
!nvvm.annotations = !{!9, !10}
!llvm.ident = !{!11, !12}
!nvvmir.version = !{!13}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 5]}
!1 = !{i32 7, !"Dwarf Version", i32 2}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 1, !"wchar_size", i32 4}
!4 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!5 = !{i32 7, !"frame-pointer", i32 2}
!6 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!7 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !8, producer: "Debian clang version 19.1.7 (3~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: DebugDirectivesOnly, splitDebugInlining: false, nameTableKind: None)
!8 = !DIFile(filename: "/tmp/ve.cu", directory: "/tmp")
!9 = !{ptr @_Z5pairsP4Pix8i, !"kernel", i32 1}
!10 = !{ptr @_Z7scalarsP4Rec8i, !"kernel", i32 1}
!11 = !{!"Debian clang version 19.1.7 (3~deb12u1)"}
!12 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!13 = !{i32 2, i32 0}
!14 = distinct !DISubprogram(name: "pairs", scope: !15, file: !15, line: 4, type: !16, scopeLine: 4, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!15 = !DIFile(filename: "/tmp/ve.cu", directory: "")
!16 = !DISubroutineType(types: !17)
!17 = !{}
!18 = !DILocation(line: 66, column: 3, scope: !19, inlinedAt: !21)
!19 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 66, type: !16, scopeLine: 66, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!20 = !DIFile(filename: "/usr/lib/llvm-19/lib/clang/19/include/__clang_cuda_builtin_vars.h", directory: "")
!21 = distinct !DILocation(line: 5, column: 11, scope: !14)
!22 = !DILocation(line: 79, column: 3, scope: !23, inlinedAt: !24)
!23 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 79, type: !16, scopeLine: 79, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!24 = distinct !DILocation(line: 5, column: 24, scope: !14)
!25 = !DILocation(line: 5, column: 22, scope: !14)
!26 = !DILocation(line: 53, column: 3, scope: !27, inlinedAt: !28)
!27 = distinct !DISubprogram(name: "__fetch_builtin_x", scope: !20, file: !20, line: 53, type: !16, scopeLine: 53, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!28 = distinct !DILocation(line: 5, column: 37, scope: !14)
!29 = !DILocation(line: 5, column: 35, scope: !14)
!30 = !DILocation(line: 6, column: 9, scope: !14)
!31 = !DILocation(line: 6, column: 7, scope: !14)
!32 = !DILocation(line: 7, column: 14, scope: !14)
!33 = !{!34, !34, i64 0}
!34 = !{!"float", !35, i64 0}
!35 = !{!"omnipotent char", !36, i64 0}
!36 = !{!"Simple C++ TBAA"}
!37 = !DILocation(line: 7, column: 39, scope: !14)
!38 = !DILocation(line: 7, column: 30, scope: !14)
!39 = !DILocation(line: 8, column: 42, scope: !14)
!40 = !DILocation(line: 8, column: 54, scope: !14)
!41 = !DILocation(line: 8, column: 14, scope: !14)
!42 = !DILocation(line: 9, column: 42, scope: !14)
!43 = !DILocation(line: 9, column: 54, scope: !14)
!44 = !DILocation(line: 9, column: 14, scope: !14)
!45 = !DILocation(line: 10, column: 1, scope: !14)
!46 = distinct !DISubprogram(name: "scalars", scope: !15, file: !15, line: 12, type: !16, scopeLine: 12, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !7)
!47 = !DILocation(line: 66, column: 3, scope: !19, inlinedAt: !48)
!48 = distinct !DILocation(line: 13, column: 11, scope: !46)
!49 = !DILocation(line: 79, column: 3, scope: !23, inlinedAt: !50)
!50 = distinct !DILocation(line: 13, column: 24, scope: !46)
!51 = !DILocation(line: 13, column: 22, scope: !46)
!52 = !DILocation(line: 53, column: 3, scope: !27, inlinedAt: !53)
!53 = distinct !DILocation(line: 13, column: 37, scope: !46)
!54 = !DILocation(line: 13, column: 35, scope: !46)
!55 = !DILocation(line: 14, column: 9, scope: !46)
!56 = !DILocation(line: 14, column: 7, scope: !46)
!57 = !DILocation(line: 15, column: 12, scope: !46)
!58 = !{!35, !35, i64 0}
!59 = !DILocation(line: 16, column: 47, scope: !46)
!60 = !DILocation(line: 16, column: 54, scope: !46)
!61 = !DILocation(line: 17, column: 11, scope: !46)
!62 = !DILocation(line: 18, column: 1, scope: !46)
