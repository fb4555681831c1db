#!/usr/bin/env bash
# On the GPU machine, for the staging rewrite (issue 12), transposed stores
# (issue 13) and the tools of
# issue 14, in one call: the staging benchmark (one `coalda bench` run), the
# staging testcases (testcases/staging.cu, transpose.cu, adversarial/staging.cu)
# plain and under compute-sanitizer memcheck, racecheck and synccheck, the
# Nsight Compute validation of the cost estimate, and the `coalda cc` check.
# Prepare here first (clang-19/opt-19 are not there):
#   COALDA_GPU_TESTCASES="staging transpose" scripts/gpu_runs.sh prepare
#   .venv/bin/coalda optimize testcases/adversarial/staging.cu -o .device/adversarial-staging \
#     --pass-arg=-coalda-stage-small-always   # (since 2026-11-26: small elements staged)
#   .venv/bin/python scripts/ncu_validate.py prepare
#   scripts/gpu_cc_check.sh build
# then run it there with OUT set, carrying .whl .device build/ncu build/cc-check:
#   scripts/gpu_staging.sh [all|bench|ncu|transpose|windows|uniform-go]   (bench: all but ncu;
#   transpose: issue 13's shapes, 8192 x 8192 and 4096 x 1000, benched at
#   32x8 and 16x16 and run under the sanitizers, Rodinia gaussian's Fan2
#   (testcases/gaussian.cu), and the hand-written probe
#   docs/probe/transpose_merge.cu, built with nvcc there; prepare with
#   COALDA_GPU_TESTCASES="transpose gaussian" scripts/gpu_runs.sh prepare)
# Writes at most 8 files into OUT (the device tool's limit).
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
# sanitize LIMIT TESTCASE FROM [RUN ARGS...]: testcases/TESTCASE.cu run with
# the IR/PTX in FROM plainly and under memcheck, racecheck and synccheck
# (LIMIT seconds each), outputs in /tmp/san/TESTCASE-{plain,TOOL}.txt ('/' as '-')
sanitize() {
  local limit=$1 t=$2 d=$3 n tool; shift 3
  n=$(echo "$t" | tr / -)
  step "plain $t" 90 python3 -m coalda.cli run "testcases/$t.cu" --from "$d" "$@" > "/tmp/san/$n-plain.txt" 2>&1
  for tool in memcheck racecheck synccheck; do
    step "$tool $t" "$limit" compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run "testcases/$t.cu" --from "$d" "$@" > "/tmp/san/$n-$tool.txt" 2>&1
  done
}
V=(); for p in .device/variants/*.ptx; do [ -f "$p" ] && V+=(--variant "$(basename "$p" .ptx)=$p"); done
mkdir -p /tmp/san
if [ "${1:-all}" = windows ]; then
  # chunk windows (issue 12's run-time chunks): the staging benchmark, whole
  # (one committed run: the element stagings and the windows side by side),
  # and the staging testcases and the window adversary under the sanitizers
  # (prepare: COALDA_GPU_TESTCASES="staging reductions" scripts/gpu_runs.sh prepare;
  #  .venv/bin/coalda optimize testcases/adversarial/windows.cu -o .device/adversarial-windows \
  #    --pass-arg=-coalda-window-read-only=runtime;
  #  .venv/bin/coalda optimize testcases/reductions.cu -o .device/reductions-runtime \
  #    --pass-arg=-coalda-window-read-only=runtime)
  step bench 300 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging "${V[@]}" \
    --blocks 128,256,512,1024 --json "$OUT/staging.json" --plot "$OUT/staging.png" > "$OUT/staging-bench.txt" 2>&1
  # the read-only chunk windows: the default and the run-time rule side by side
  if [ -d .device/reductions ]; then
    RV=(); [ -d .device/reductions-runtime ] && RV=(--variant runtime=.device/reductions-runtime/reductions.after.ptx)
    step reductions-bench 120 python3 -m coalda.cli bench testcases/reductions.cu --from .device/reductions "${RV[@]}" \
      --blocks 128,256,512,1024 --sizes 67108787 > "$OUT/reductions-bench.txt" 2>&1
    # both builds under the sanitizers, outputs renamed reductions-{default,runtime}-*
    for build in default runtime; do
      d=.device/reductions; [ $build = runtime ] && d=.device/reductions-runtime
      [ -d "$d" ] || continue
      sanitize 150 reductions "$d" --sizes 1000,4099
      for f in /tmp/san/reductions-{plain,memcheck,racecheck,synccheck}.txt; do
        mv "$f" "${f/reductions-/reductions-$build-}"; done
    done
  fi
  sanitize 150 staging .device/staging --sizes 1000,4099
  [ -d .device/adversarial-windows ] && sanitize 150 adversarial/windows .device/adversarial-windows
  # random chunk-window kernels (tests/window_kernels.py, 16 of them, written
  # with their spec and optimized into .device/window-fuzz/ here by
  # scripts/window_fuzz_prepare.py)
  if [ -d .device/window-fuzz ]; then
    for tool in plain memcheck racecheck synccheck; do
      pre=(); [ $tool != plain ] && pre=(compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no)
      step "$tool window-fuzz" 150 "${pre[@]}" python3 -m coalda.cli run .device/window-fuzz/window.cu \
        --from .device/window-fuzz/out > "/tmp/san/window-fuzz-$tool.txt" 2>&1
    done
  fi
  tar czf "$OUT/windows.tar.gz" -C /tmp san
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|comparisons\|error:" /tmp/san/*.txt | sort | uniq -c >> "$log"
  cat "$log"
  exit 0
fi
if [ "${1:-all}" = uniform-go ]; then
  # go without a vote (pass/lib/StagingUniformGo.cpp): the staging benchmark
  # and issue 13's transposes with the pass's default and, as the variant
  # `vote`, the same pass with -coalda-stage-always-vote, timed in one run;
  # then the stagings under the sanitizers. Prepare here:
  #   COALDA_GPU_TESTCASES="staging transpose" scripts/gpu_runs.sh prepare
  #   .venv/bin/coalda optimize testcases/adversarial/staging.cu -o .device/adversarial-staging --pass-arg=-coalda-stage-small-always
  #   .venv/bin/coalda optimize testcases/adversarial/uniform_go.cu -o .device/adversarial-uniform_go --pass-arg=-coalda-stage-small-always
  #   for t in staging transpose; do .venv/bin/coalda optimize testcases/$t.cu -o /tmp/vote-$t \
  #     --pass-arg=-coalda-stage-always-vote && mkdir -p .device/vote && \
  #     cp /tmp/vote-$t/$t.after.ptx .device/vote/$t.ptx; done
  step bench 300 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging "${V[@]}" \
    --variant vote=.device/vote/staging.ptx --blocks 128,256,512,1024 \
    --json "$OUT/staging.json" --plot "$OUT/staging.png" > "$OUT/staging-bench.txt" 2>&1
  for shape in square rect; do
    spec=testcases/bench/transpose_$shape.toml
    repeat=20; [ "$shape" = rect ] && repeat=200
    for b in 32x8 16x16; do
      step "transpose-$shape $b" 90 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
        --spec "$spec" --blocks $b --kernels transpose_naive,transpose_scale --variant vote=.device/vote/transpose.ptx \
        --repeat "$repeat" --json "/tmp/san/transpose-$shape-$b.json" > "/tmp/san/transpose-$shape-$b.txt" 2>&1
    done
  done
  for t in staging transpose adversarial/staging adversarial/uniform_go; do
    d=.device/$t sizes=(--sizes 1000,4099)
    [ "$t" = transpose ] && sizes=(--sizes 100)
    case $t in adversarial/*) d=.device/${t/\//-} sizes=() ;; esac
    [ -d "$d" ] && sanitize 150 "$t" "$d" "${sizes[@]}"
  done
  tar czf "$OUT/uniform-go.tar.gz" -C /tmp san
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|comparisons\|error:" /tmp/san/*.txt | sort | uniq -c >> "$log"
  cat "$log"
  exit 0
fi
if [ "${1:-all}" = transpose ]; then
  # variants built here: PTX of the pass with other switches (address-tile:
  # -coalda-transpose-address-tile, the form before the owner's address was
  # recomputed)
  TV=(); for p in .device/transpose-variants/*.ptx; do [ -f "$p" ] && TV+=(--variant "$(basename "$p" .ptx)=$p"); done
  for shape in square rect; do
    spec=testcases/bench/transpose_$shape.toml
    # the rectangle's kernels take about 20 microseconds: more launches for a
    # steadier median
    repeat=20; [ "$shape" = rect ] && repeat=200
    step "transpose-$shape 32x8" 90 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
      --spec "$spec" --blocks 32x8 "${TV[@]}" --repeat "$repeat" --json "/tmp/san/transpose-$shape-32x8.json" > "/tmp/san/transpose-$shape-32x8.txt" 2>&1
    step "transpose-$shape 16x16" 90 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
      --spec "$spec" --blocks 16x16 --kernels transpose_naive,transpose_scale "${TV[@]}" --repeat "$repeat" \
      --json "/tmp/san/transpose-$shape-16x16.json" > "/tmp/san/transpose-$shape-16x16.txt" 2>&1
    size=100; [ "$shape" = rect ] && size=300
    for tool in memcheck racecheck synccheck; do
      step "$tool transpose-$shape" 120 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
        python3 -m coalda.cli run testcases/transpose.cu --from .device/transpose --spec "$spec" --sizes $size \
        > "/tmp/san/transpose-$shape-$tool.txt" 2>&1
    done
  done
  step "transpose-8192x4099 32x8" 60 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
    --blocks 32x8 --sizes 8192 "${TV[@]}" --json /tmp/san/transpose-32x8.json > /tmp/san/transpose-bench-32x8.txt 2>&1
  step "transpose-8192x4099 16x16" 60 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
    --blocks 16x16 --sizes 8192 --kernels transpose_naive,transpose_scale "${TV[@]}" \
    --json /tmp/san/transpose-16x16.json > /tmp/san/transpose-bench-16x16.txt 2>&1
  # Rodinia gaussian's Fan2 (a read-modify-written column), at 4096 x 4096;
  # Rodinia launches it with 4x4 blocks (one warp: the original code runs)
  for b in 4x4 16x16 32x8; do
    step "gaussian $b" 60 python3 -m coalda.cli bench testcases/gaussian.cu --from .device/gaussian \
      --blocks $b --sizes 4096 --json "/tmp/san/gaussian-$b.json" > "/tmp/san/gaussian-bench-$b.txt" 2>&1
  done
  for t in transpose gaussian adversarial/staging; do
    d=.device/$t sizes=(--sizes 100)
    [ "$t" = gaussian ] && sizes=(--sizes 70,133)
    [ "$t" = adversarial/staging ] && d=.device/adversarial-staging sizes=()
    sanitize 150 "$t" "$d" "${sizes[@]}"
  done
  # COALDA against hand-written forms of its permutation, compiled with clang
  # here (docs/probe/transpose_permuted_clang.cu: no vote, a vote, a vote and
  # the overlap check), built into .device/transpose-hand/ by
  #   for v in perm: perm_vote:-DVOTE=1 "perm_vote_check:-DVOTE=1 -DCHECK=1"; do
  #     .venv/bin/coalda optimize docs/probe/transpose_permuted_clang.cu -o /tmp/h -- ${v#*:}
  #     cp /tmp/h/transpose_permuted_clang.before.ptx .device/transpose-hand/hand-${v%%:*}.ptx; done
  HV=(); for p in .device/transpose-hand/*.ptx; do [ -f "$p" ] && HV+=(--variant "$(basename "$p" .ptx)=$p"); done
  if [ ${#HV[@]} -gt 0 ]; then
    for shape in square rect; do
      repeat=20; [ "$shape" = rect ] && repeat=200
      for b in 32x8 16x16; do
        step "hand $shape $b" 60 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
          --spec "testcases/bench/transpose_$shape.toml" --blocks $b --kernels transpose_naive --no-nvcc \
          --repeat "$repeat" "${HV[@]}" > "/tmp/san/transpose-hand-$shape-$b.txt" 2>&1
      done
    done
  fi
  step probe 120 bash -c "nvcc -O3 -arch=sm_90 docs/probe/transpose_merge.cu -o /tmp/tm && /tmp/tm > /tmp/san/transpose_merge-h200.txt 2>&1"
  tar czf "$OUT/transpose.tar.gz" -C /tmp san
  grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|comparisons\|error:" /tmp/san/*.txt | sort | uniq -c >> "$log"
  cat "$log"
  exit 0
fi
if [ "${1:-all}" != ncu ]; then
step bench 260 python3 -m coalda.cli bench testcases/staging.cu --from .device/staging "${V[@]}" \
  --blocks 128,256,512,1024 --json "$OUT/staging.json" --plot "$OUT/staging.png" > "$OUT/staging-bench.txt" 2>&1
# the hand-tiled kernel is written for 32x8 threads: 16x16 only for the naive ones
step transpose-bench 60 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
  --blocks 32x8 --sizes 8192 --json /tmp/san/transpose-32x8.json > /tmp/san/transpose-bench-32x8.txt 2>&1
step transpose-bench 60 python3 -m coalda.cli bench testcases/transpose.cu --from .device/transpose \
  --blocks 16x16 --sizes 8192 --kernels transpose_naive,transpose_scale \
  --json /tmp/san/transpose-16x16.json > /tmp/san/transpose-bench-16x16.txt 2>&1
# the sanitizer slows kernels a lot: small sizes (the adversarial corpus at
# its spec's: a __device__ array in it holds 512 elements)
for t in staging transpose adversarial/staging; do
  d=.device/$t sizes=(--sizes 1000,4099)
  [ "$t" = transpose ] && sizes=(--sizes 100)
  [ "$t" = adversarial/staging ] && d=.device/adversarial-staging sizes=()
  sanitize 120 "$t" "$d" "${sizes[@]}"
done
tar czf "$OUT/sanitizer.tar.gz" -C /tmp san
step cc 60 bash scripts/gpu_cc_check.sh run build/cc-check > "$OUT/cc-check.txt" 2>&1
fi
if [ "${1:-all}" != bench ]; then
step ncu 400 python3 scripts/ncu_validate.py measure build/ncu /tmp/ncu > "$OUT/ncu.txt" 2>&1
tar czf "$OUT/ncu.tar.gz" -C /tmp ncu
fi
grep -h "ERROR SUMMARY\|comparisons\|error:" /tmp/san/*.txt | sort | uniq -c >> "$log"
cat "$log"
