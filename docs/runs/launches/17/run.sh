#!/usr/bin/env bash
# Run 17 on the GPU machine (OUT set; carry .device and .whl): the probe's
# plain and reshape builds (docs/runs/launches/prepare.sh's two, rebuilt with
# the runtime that does not ask for the device where the process sees one),
# alternating, three runs each: the choice's cost per launch (launch_cost)
# and what cudaGetDevice costs (cuda_get_device_ns), against run 16's.
source scripts/gpu_prelude.sh
d=.device/launches
export LD_LIBRARY_PATH=$PWD/$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
for run in 1 2 3; do
  for build in plain reshape; do
    step "$build-$run" 60 "$d/launch_reshape_$build" 20 > "$OUT/$build-$run.txt" 2>&1
  done
done
cp docs/runs/launches/17/run.sh "$OUT/"
cd "$OUT" && tar czf /tmp/run17.tgz . && rm -rf "$OUT"/* && mv /tmp/run17.tgz "$OUT/"
