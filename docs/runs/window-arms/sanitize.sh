#!/usr/bin/env bash
# GPU: the arms kernels of testcases/adversarial/windows.cu (and a few
# neighbours), -O3 and -O0, plainly and under memcheck, racecheck and
# synccheck. Prepared here (docs/runs/window-arms/README.md):
#   for O in 3 0; do .venv/bin/coalda optimize testcases/adversarial/windows.cu -O $O \
#     -o .device/arms-O$O --pass-arg=-coalda-window-read-only=runtime --pass-arg=-coalda-window-arms; done
#   cp docs/runs/window-arms/arms.toml .device/arms.toml
# and run there with OUT set, carrying .whl and .device:
#   bash docs/runs/window-arms/sanitize.sh
source scripts/gpu_prelude.sh
for O in 3 0; do
  SAN_PLAIN=120 SAN_TOOL=150 san arms-O$O testcases/adversarial/windows.cu -O $O --from .device/arms-O$O --spec .device/arms.toml --sizes 300,1000
done
summarize arms
cp /tmp/san/*.txt $OUT/ 2>/dev/null
tar czf $OUT/san.tgz -C /tmp san
