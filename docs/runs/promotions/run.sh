#!/usr/bin/env bash
# The loop promotion (issue 39, item 1) on the GPU: the adversary
# testcases/adversarial/promotions.cu checked plainly and under
# compute-sanitizer memcheck, racecheck and synccheck, its promoted kernels
# timed against the unoptimized build and cudaMemcpy, and the corpus program
# it rewrites (interleave) run end to end, both builds, timed and under the
# sanitizers (scripts/corpus_gpu.py).
#
# Here:  .venv/bin/coalda optimize testcases/adversarial/promotions.cu -o .device/promotions
#        .venv/bin/coalda optimize testcases/adversarial/promotion_attacks.cu -o .device/promotion_attacks
#        .venv/bin/python scripts/corpus.py build --only interleave --out build/corpus-int
# There (OUT set, carrying .whl, .device and build/corpus-int.tar.gz):
#        bash docs/runs/promotions/run.sh all    (or: kernels, then corpus)
source scripts/gpu_prelude.sh
part=${1:-all}
if [ "$part" = kernels ] || [ "$part" = all ]; then
san promotions testcases/adversarial/promotions.cu --from .device/promotions --sizes 256,300,4099
san promotion_attacks testcases/adversarial/promotion_attacks.cu --from .device/promotion_attacks --sizes 256,300
step bench 240 python3 -m coalda.cli bench testcases/adversarial/promotions.cu --from .device/promotions \
  --sizes 16777216 --blocks 128,256,512 --kernels accumulate,maybe_empty,shifted_view,with_table,two_loops \
  > "$OUT/bench.txt" 2>&1
summarize promotions
fi
if [ "$part" = corpus ] || [ "$part" = all ]; then
mkdir -p /tmp/corpus-int && tar xzf build/corpus-int.tar.gz -C /tmp
step corpus 300 python3 scripts/corpus_gpu.py /tmp/corpus-int --repeat 3 --phase all --out "$OUT/interleave.json" \
  --keep-logs "$OUT/corpus-logs"
fi
cp docs/runs/promotions/run.sh "$OUT/"
