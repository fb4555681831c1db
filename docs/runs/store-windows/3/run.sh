#!/usr/bin/env bash
# Store windows on the GPU machine (OUT set; carry .whl, .device and
# build/corpus-final.tar.gz, built by prepare.sh):
#   bash docs/runs/store-windows/run.sh 2   softmax and page-rank as the
#       committed pass builds them (two runs of each build alternating);
#       the adversary at -O3 and -O0 and the random family at -O3, plainly
#       and under memcheck, racecheck and synccheck
#   bash docs/runs/store-windows/run.sh 3   what run 2 left: the random
#       family under racecheck and synccheck, and page-rank's store-window
#       build under memcheck and racecheck (corpus_gpu.py's sanitize phase)
source scripts/gpu_prelude.sh
if [ "${1:-2}" = 3 ]; then
  mkdir -p /tmp/f && tar xzf build/corpus-final.tar.gz -C /tmp/f
  SAN_TOOLS="racecheck synccheck" SAN_TOOL=120 san store-fuzz .device/store-fuzz/stores.cu -O 3 \
    --from .device/store-fuzz/O3 --spec .device/store-fuzz/stores.toml
  step "page-rank-sanitize" 300 python3 scripts/corpus_gpu.py /tmp/f/corpus-final --phase sanitize \
    --only page-rank --run-timeout 140 --out "$OUT/page-rank-sanitize.json"
  summarize stores-3
  cp docs/runs/store-windows/run.sh "$OUT/"
  exit 0
fi
mkdir -p /tmp/f && tar xzf build/corpus-final.tar.gz -C /tmp/f
step "time" 120 python3 scripts/corpus_gpu.py /tmp/f/corpus-final --repeat 2 --phase time \
  --only softmax,page-rank --out "$OUT/final-time.json"
export SAN_TOOL=60
san store-windows-O3 testcases/adversarial/store_windows.cu -O 3 --from .device/store-windows-O3
san store-windows-O0 testcases/adversarial/store_windows.cu -O 0 --from .device/store-windows-O0
san store-fuzz .device/store-fuzz/stores.cu -O 3 --from .device/store-fuzz/O3 --spec .device/store-fuzz/stores.toml
summarize stores-2
cp docs/runs/store-windows/run.sh "$OUT/"
