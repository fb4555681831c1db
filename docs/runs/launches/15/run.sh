#!/usr/bin/env bash
# Run 15 on the GPU machine (OUT set; carry .whl and build/corpus-reshape.tar.gz,
# `scripts/corpus.py build --reshape --only aligned-types,dslash,interleave,
# layout,lulesh,matrixT,nbody,page-rank,pso,rodinia-gaussian16,
# rodinia-gaussian32,scan2,softmax,sph --out build/corpus-reshape` of the
# tree with the choice's balanced order and medians): run 11's corpus-choice
# again, two runs of each build instead of three (the session's device time).
source scripts/gpu_prelude.sh
mkdir -p /tmp/r && tar xzf build/corpus-reshape.tar.gz -C /tmp/r
COALDA_LAUNCH_REPORT=1 step "corpus-choice" 280 python3 scripts/corpus_gpu.py /tmp/r/corpus-reshape \
  --repeat 2 --phase time --no-ncu --budget 220 --out "$OUT/corpus-reshape-choice.json" > "$OUT/stdout.txt" 2>&1
cp docs/runs/launches/15/run.sh "$OUT/"
