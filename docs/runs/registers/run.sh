#!/usr/bin/env bash
# The register limit (coalda/driver/registers.py) on an H200, 2026-12-02.
# A rewritten kernel that ptxas gives more than 64 registers, where its
# original took at most 64, gets `.maxnreg 64` from `coalda optimize` and
# `coalda cc`, so that it still launches with 1024 threads.
#
# Here:
#   for spec in "windows 0" "read_only_windows 3" "real_shapes 3"; do set -- $spec
#     .venv/bin/coalda optimize -O$2 testcases/adversarial/$1.cu -o .device/$1-O$2 -q \
#       --pass-arg=-coalda-stage-small-always; done
#   for spec in "read_only_windows 3" "real_shapes 3"; do set -- $spec
#     COALDA_REGISTER_LIMIT=off .venv/bin/coalda optimize -O$2 testcases/adversarial/$1.cu \
#       -o .device/unlimited/$1-O$2 -q --pass-arg=-coalda-stage-small-always; done
#   .venv/bin/python scripts/corpus.py build --only softmax --out build/corpus-lim
#   COALDA_REGISTER_LIMIT=off .venv/bin/python scripts/corpus.py build --only softmax --out build/corpus-unlim
# There (OUT set, carrying .whl, .device and the two tarballs):
#   bash docs/runs/registers/run.sh 1   (then 1b and 2; outputs in 1/ and 2/;
#   3/: part 1's san lines again with SAN_TOOLS="racecheck synccheck")
source scripts/gpu_prelude.sh
case "${1:-1}" in
  1)
    # windows.cu at -O0 stopped here before the limit (block_1024 could not launch)
    SAN_TOOLS=memcheck san windows-O0 testcases/adversarial/windows.cu -O 0 --from .device/windows-O0 --sizes 300
    for t in read_only_windows real_shapes; do
      SAN_TOOLS=memcheck san $t-O3 testcases/adversarial/$t.cu -O 3 --from .device/$t-O3 --sizes 300
    done
    # what the limit costs where it applies: limited (coalda) against unlimited
    step "bench read_only_windows" 150 python3 -m coalda.cli bench testcases/adversarial/read_only_windows.cu -O 3 \
      --from .device/read_only_windows-O3 --kernels two_const_strides,float_math_const --no-nvcc -q \
      --variant unlimited=.device/unlimited/read_only_windows-O3/read_only_windows.after.ptx \
      --json "$OUT/bench-read_only_windows.json" > "$OUT/bench-read_only_windows.txt" 2>&1
    step "bench real_shapes" 150 python3 -m coalda.cli bench testcases/adversarial/real_shapes.cu -O 3 \
      --from .device/real_shapes-O3 --kernels row_softmax --no-nvcc -q \
      --variant unlimited=.device/unlimited/real_shapes-O3/real_shapes.after.ptx \
      --json "$OUT/bench-real_shapes.json" > "$OUT/bench-real_shapes.txt" 2>&1
    summarize registers-1 ;;
  1b)
    # the benches again at the blocks both variants launch at (the
    # unlimited one cannot launch at 1024 threads, which stopped part 1's)
    for t in "read_only_windows two_const_strides,float_math_const" "real_shapes row_softmax"; do set -- $t
      python3 -m coalda.cli bench testcases/adversarial/$1.cu -O 3 --from .device/$1-O3 --kernels $2 --no-nvcc -q \
        --blocks 128,256,512 --variant unlimited=.device/unlimited/$1-O3/$1.after.ptx \
        --json "$OUT/bench-$1.json" > "$OUT/bench-$1.txt" 2>&1
    done ;;
  2)
    for v in lim unlim; do
      tar xzf build/corpus-$v.tar.gz -C /tmp
      step "softmax $v" 280 python3 scripts/corpus_gpu.py /tmp/corpus-$v --repeat 3 --phase time \
        --out "$OUT/softmax-$v.json"
    done ;;
esac
cp docs/runs/registers/run.sh "$OUT/"
