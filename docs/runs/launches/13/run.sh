#!/usr/bin/env bash
# Run 13 on the GPU machine (OUT set; carry .whl and build/order-probe2.tar.gz
# from prepare.sh): each build's programs three times, alternating, with the
# choice reported (no ncu).
source scripts/gpu_prelude.sh
mkdir -p /tmp/o && tar xzf build/order-probe2.tar.gz -C /tmp/o
for order in kernel-first variant-first; do
  COALDA_LAUNCH_REPORT=1 step "$order" 200 python3 scripts/corpus_gpu.py /tmp/o/order-probe2/$order \
    --repeat 3 --phase time --no-ncu --out "$OUT/$order.json" > "$OUT/$order.txt" 2>&1
done
cp docs/runs/launches/13/run.sh "$OUT/"
