#!/usr/bin/env bash
# On the GPU machine: testcases/reductions.cu (read-only chunk windows and
# read-only elements) benched as the default pass writes it, with
# -coalda-window-read-only=runtime (variant `runtime`) and with
# -coalda-stage-read-only-rows=0 (variant `no-elements`: the read-only
# elements left alone), and the first two builds run plainly and under
# compute-sanitizer memcheck, racecheck and synccheck. Prepare here first:
#   .venv/bin/coalda optimize testcases/reductions.cu -o .device/reductions
#   .venv/bin/coalda optimize testcases/reductions.cu -o .device/reductions-runtime \
#     --pass-arg=-coalda-window-read-only=runtime
#   .venv/bin/coalda optimize testcases/reductions.cu -o .device/reductions-off \
#     --pass-arg=-coalda-stage-read-only-rows=0
#   .venv/bin/coalda optimize docs/probe/read_only_elements.cu -o .device/ro_elem/default
#   .venv/bin/coalda optimize docs/probe/read_only_elements.cu -o .device/ro_elem/off \
#     --pass-arg=-coalda-stage-read-only-rows=0
# (the probe: read-only elements of 64-256 bytes, benched the same way and run
# under the sanitizers)
# then run it there with OUT set, carrying .whl .device.
# (scripts/gpu_staging.sh windows runs the same among the staging runs.)
. scripts/gpu_prelude.sh  # wheels, PYTHONPATH, $log, step
timeout 180 python3 -m coalda.cli bench testcases/reductions.cu --from .device/reductions \
  --variant runtime=.device/reductions-runtime/reductions.after.ptx \
  --variant no-elements=.device/reductions-off/reductions.after.ptx \
  --blocks 128,256,512,1024 --sizes 67108787 > "$OUT/reductions-bench.txt" 2>&1
echo "bench rc=$?" >> "$log"
mkdir -p /tmp/san
if [ -d .device/ro_elem ]; then
  timeout 180 python3 -m coalda.cli bench docs/probe/read_only_elements.cu --from .device/ro_elem/default \
    --variant no-elements=.device/ro_elem/off/read_only_elements.after.ptx \
    --blocks 128,256,512,1024 --no-nvcc > "$OUT/read-only-elements.txt" 2>&1
  echo "probe bench rc=$?" >> "$log"
  for tool in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run docs/probe/read_only_elements.cu --from .device/ro_elem/default --sizes 1000,4099 \
      > "/tmp/san/read-only-elements-$tool.txt" 2>&1
    echo "$tool probe rc=$?" >> "$log"
  done
fi
for build in default runtime; do
  d=.device/reductions; [ $build = runtime ] && d=.device/reductions-runtime
  timeout 90 python3 -m coalda.cli run testcases/reductions.cu --from "$d" --sizes 1000,4099 \
    > "/tmp/san/reductions-$build-plain.txt" 2>&1
  echo "plain $build rc=$?" >> "$log"
  for tool in memcheck racecheck synccheck; do
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run testcases/reductions.cu --from "$d" --sizes 1000,4099 \
      > "/tmp/san/reductions-$build-$tool.txt" 2>&1
    echo "$tool $build rc=$?" >> "$log"
  done
done
tar czf "$OUT/reductions-sanitizer.tar.gz" -C /tmp san
grep -h "ERROR SUMMARY\|RACECHECK SUMMARY\|comparisons\|error:" /tmp/san/*.txt | sort | uniq -c >> "$log"
cat "$log"
