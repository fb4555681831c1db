#!/usr/bin/env bash
# Arrays staged in turn (StagingPlan::ArraysInTurn) on an H200, 2026-12-02:
# written records whose warp tiles do not fit together go through one tile
# one array at a time (lulesh's hgc: six 64-byte records per thread).
#
# Here:
#   for L in 3 0; do .venv/bin/coalda optimize -O$L testcases/adversarial/arrays_in_turn.cu -o .device/ait-O$L -q; done
#   # the random family, batches 0-3 (48 kernels), as tests/test_turn_fuzz.py makes them:
#   .venv/bin/python -c "import sys; sys.path.insert(0, 'tests'); from turn_kernels import random_kernels; \
#     ks = [k for b in range(4) for k in random_kernels(b, 12)]; \
#     open('.device/turn-fuzz/turn.cu', 'w').write(''.join(k.source() for k in ks)); \
#     open('.device/turn-fuzz/turn.toml', 'w').write('sizes = [290]\ngpu_sizes = [290, 1000]\n\n' + '\n'.join(k.spec() for k in ks))"
#   .venv/bin/coalda optimize -O3 .device/turn-fuzz/turn.cu -o .device/turn-fuzz/O3 -q
#   .venv/bin/python scripts/corpus.py build --only lulesh --out build/corpus-lulesh
# There (OUT set, carrying .whl, .device and build/corpus-lulesh.tar.gz):
#   bash docs/runs/arrays-in-turn/run.sh 1   (sanitizers; outputs in 1/)
#   bash docs/runs/arrays-in-turn/run.sh 2   (bench and lulesh; outputs in 2/; the
#   bench again alone, `run.sh 2 bench`, without bounded128, which its
#   __launch_bounds__(128) keeps from 256 threads: 2/bench-*)
source scripts/gpu_prelude.sh
case "${1:-1}" in
  1)
    san ait-O3 testcases/adversarial/arrays_in_turn.cu -O 3 --from .device/ait-O3 --sizes 300,1000
    san ait-O0 testcases/adversarial/arrays_in_turn.cu -O 0 --from .device/ait-O0 --sizes 300,1000
    san turn-fuzz .device/turn-fuzz/turn.cu -O 3 --from .device/turn-fuzz/O3 --sizes 290,1000
    summarize arrays-in-turn-1 ;;
  2)
    step "bench arrays_in_turn" 200 python3 -m coalda.cli bench testcases/adversarial/arrays_in_turn.cu -O 3 \
      --from .device/ait-O3 --kernels six_records,data_exit,partial_units,mixed_strides,stored_twice \
      --sizes 1048576 --blocks 128,256,512 --no-nvcc -q \
      --json "$OUT/bench-arrays_in_turn.json" > "$OUT/bench-arrays_in_turn.txt" 2>&1
    [ "${2:-}" = bench ] && exit 0
    tar xzf build/corpus-lulesh.tar.gz -C /tmp
    step "lulesh time" 200 python3 scripts/corpus_gpu.py /tmp/corpus-lulesh --repeat 3 --phase time \
      --out "$OUT/lulesh-time.json"
    step "lulesh sanitize" 150 python3 scripts/corpus_gpu.py /tmp/corpus-lulesh --phase sanitize \
      --run-timeout 60 --out "$OUT/lulesh-sanitize.json" ;;
esac
cp docs/runs/arrays-in-turn/run.sh "$OUT/"
