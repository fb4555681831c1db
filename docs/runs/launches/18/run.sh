#!/usr/bin/env bash
# Run 18 on the GPU machine (OUT set; carry .whl and build/corpus-twin.tar.gz,
# `scripts/corpus.py build --only dslash,softmax --out build/corpus-twin`: the
# default coalda cc build, in which a kernel limited to 64 registers keeps a
# twin without the limit, launched where its block fits): each program's
# plain and coalda builds alternating, three runs each, their own timing in
# stdout and the choice printed; the coalda builds again pinned to the
# limited kernel (COALDA_LAUNCH=original), two runs each; the coalda builds
# under memcheck and racecheck.
source scripts/gpu_prelude.sh
mkdir -p /tmp/r && tar xzf build/corpus-twin.tar.gz -C /tmp/r
c=/tmp/r/corpus-twin
COALDA_LAUNCH_REPORT=1 step "time" 90 python3 scripts/corpus_gpu.py $c --repeat 3 --phase time --no-ncu \
  --out "$OUT/corpus-twin-time.json" > "$OUT/time-stdout.txt" 2>&1
COALDA_LAUNCH=original COALDA_LAUNCH_REPORT=1 step "time-limited" 60 python3 scripts/corpus_gpu.py $c --repeat 2 \
  --phase time --no-ncu --out "$OUT/corpus-twin-limited.json" > "$OUT/limited-stdout.txt" 2>&1
step "sanitize" 110 python3 scripts/corpus_gpu.py $c --phase sanitize --tools memcheck,racecheck --run-timeout 100 \
  --out "$OUT/corpus-twin-sanitize.json" > "$OUT/sanitize-stdout.txt" 2>&1
cp docs/runs/launches/18/run.sh "$OUT/"
cd "$OUT" && tar czf /tmp/run18.tgz . && rm -rf "$OUT"/* && mv /tmp/run18.tgz "$OUT/"
