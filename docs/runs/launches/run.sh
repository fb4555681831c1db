#!/usr/bin/env bash
# Reshaped launches on the GPU machine (OUT set; carry .device, .whl and
# build/corpus-reshape.tar.gz, built by prepare.sh): the probe's three builds,
# alternating, twice; the reshaped build with its choices printed
# (COALDA_LAUNCH_REPORT=1) and pinned to each kernel (COALDA_LAUNCH); the
# reshaped build at the small size under memcheck, racecheck and synccheck;
# the same for docs/probe/launch_concurrency.cu (the choice under host
# threads, streams, graphs and the default stream; each build once); the
# adversaries' grid, flat and tile variants against their originals on the
# GPU; matrixT's own timing of its kernels; every corpus program with a
# rewritten kernel, built with -fcoalda-reshape, timed against its plain
# build with the choice free and printed (corpus-choice; corpus-time: under
# ncu, pinned to the variants), and under memcheck, racecheck and synccheck
# with the choice free (four processes at once: the sanitizers' time is the
# host's).
#   bash docs/runs/launches/run.sh [PART...]   PART: probe, concurrency,
#       variants, variants-sanitize, matrixT, corpus-time, corpus-choice,
#       corpus-sanitize (default: all, in that order); CORPUS_ONLY=NAME,...
#       limits corpus-sanitize to those programs
source scripts/gpu_prelude.sh
parts=" ${*:-probe concurrency variants variants-sanitize matrixT corpus-time corpus-choice corpus-sanitize} "
want() { [[ $parts == *" $1 "* ]]; }
d=.device/launches
export LD_LIBRARY_PATH=$PWD/$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
if want probe; then
for run in 1 2; do
  for build in plain coalda reshape; do
    step "$build-$run" 120 "$d/launch_reshape_$build" 20 > "$OUT/$build-$run.txt" 2>&1
  done
done
COALDA_LAUNCH_REPORT=1 step "reshape-report" 120 "$d/launch_reshape_reshape" 20 > "$OUT/reshape-report.txt" 2>&1
for pin in original reshaped; do
  COALDA_LAUNCH=$pin step "reshape-$pin" 120 "$d/launch_reshape_reshape" 20 > "$OUT/reshape-$pin.txt" 2>&1
done
for tool in memcheck racecheck synccheck; do
  step "$tool" 100 compute-sanitizer --tool "$tool" --error-exitcode 9 "$d/launch_reshape_reshape" 8 small \
    > "$OUT/reshape-$tool.txt" 2>&1
done
fi
# the concurrency probe: phases threads, streams, graph, default (one line
# each, "ok" or "MISMATCH"; exit 1 on a mismatch, 2 on a CUDA error)
if want concurrency; then
  c=$d/launch_concurrency
  for build in plain coalda reshape; do
    step "concurrency-$build" 120 ${c}_$build > "$OUT/concurrency-$build.txt" 2>&1
  done
  COALDA_LAUNCH_REPORT=1 step "concurrency-report" 120 ${c}_reshape > "$OUT/concurrency-report.txt" 2>&1
  for pin in original reshaped; do
    COALDA_LAUNCH=$pin step "concurrency-$pin" 120 ${c}_reshape > "$OUT/concurrency-$pin.txt" 2>&1
  done
  for tool in memcheck racecheck synccheck; do
    step "concurrency-$tool" 150 compute-sanitizer --tool "$tool" --error-exitcode 9 ${c}_reshape small \
      > "$OUT/concurrency-$tool.txt" 2>&1
  done
fi
# (flat_variants at its spec's size only: from_global reads a 1000-record
# __device__ table, past which n = 100000 reads, in both kernels, run 3b)
for stem_sizes in grid_variants:1000,100000 flat_variants:1000 tile_variants:70,100,1000; do
  stem=${stem_sizes%%:*}
  want variants && [ -f "$d/variants/$stem.sigs.json" ] || continue
  step "variants-$stem" 150 python3 docs/runs/launches/check_variants_gpu.py 2 ${stem_sizes#*:} $stem \
    > "$OUT/variants-$stem.txt" 2>&1
done
# the same comparisons (one seed, the spec's size) under each sanitizer, in
# the background (waited for at the end): their time is the host's
for stem_size in grid_variants:1000 flat_variants:1000 tile_variants:100; do
  stem=${stem_size%%:*}
  want variants-sanitize && [ -f "$d/variants/$stem.sigs.json" ] || continue
  for tool in memcheck racecheck synccheck; do
    step "$tool-$stem" 200 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 docs/runs/launches/check_variants_gpu.py 1 ${stem_size#*:} $stem > "$OUT/variants-$stem-$tool.txt" 2>&1
  done
done &
mkdir -p /tmp/r && tar xzf build/corpus-reshape.tar.gz -C /tmp/r
# Under ncu the choice's events time ncu's serialized launches (run 3a):
# the kernels are timed with the choice pinned to the variants, and the
# choice itself is read from runs without ncu.
# matrixT's own timing of its kernels (the copy, the naive transpose, ...),
# plain and reshaped alternating, the choice free and reported, then pinned
if want matrixT; then
  m=/tmp/r/corpus-reshape/matrixT
  for run in 1 2; do
    for build in plain coalda; do
      (cd $m/src && COALDA_LAUNCH_REPORT=1 step "matrixT-$build-$run" 60 ../$build 8192 8192 200) \
        > "$OUT/matrixT-$build-$run.txt" 2>&1
    done
  done
  for pin in original reshaped; do
    (cd $m/src && COALDA_LAUNCH=$pin step "matrixT-$pin" 60 ../coalda 8192 8192 200) > "$OUT/matrixT-$pin.txt" 2>&1
  done
fi
want corpus-time && COALDA_LAUNCH=reshaped step "corpus-time" 240 python3 scripts/corpus_gpu.py \
  /tmp/r/corpus-reshape --repeat 3 --phase time --out "$OUT/corpus-reshape-time.json"
want corpus-choice && COALDA_LAUNCH_REPORT=1 step "corpus-choice" 300 python3 scripts/corpus_gpu.py \
  /tmp/r/corpus-reshape --repeat 2 --phase time --no-ncu --budget 240 --out "$OUT/corpus-reshape-choice.json" \
  > "$OUT/corpus-choice-stdout.txt" 2>&1
# the sanitizers, the choice free (compute-sanitizer injects nothing the
# runtime reads as a profiler, so its trials run both codes under the tool)
if want corpus-sanitize; then
  groups=${CORPUS_ONLY:-aligned-types sph,dslash interleave,layout,lulesh,matrixT,nbody
    page-rank,pso,rodinia-gaussian16,rodinia-gaussian32,scan2,softmax}
  k=0
  for only in $groups; do
    k=$((k + 1))
    COALDA_LAUNCH_REPORT=1 step "corpus-sanitize-$k" 480 python3 scripts/corpus_gpu.py /tmp/r/corpus-reshape \
      --phase sanitize --tools memcheck,racecheck,synccheck --run-timeout 420 --only "$only" \
      --out "$OUT/corpus-reshape-sanitize-$k.json" > "$OUT/corpus-sanitize-$k-stdout.txt" 2>&1 &
  done
fi
wait
cp docs/runs/launches/run.sh "$OUT/"
