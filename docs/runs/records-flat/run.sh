#!/usr/bin/env bash
# Per-iteration record windows with flat moves, on the GPU machine (OUT set;
# carry .whl, .device and build/corpus.tar.gz, built by prepare.sh):
#   bash docs/runs/records-flat/run.sh 1   the records adversary at -O3 and
#       -O0, plainly and under memcheck, racecheck and synccheck; the planted
#       missing __syncwarp under racecheck; dslash (the corpus recipe, records
#       on by default), 3 runs of each build alternating, ncu's kernel time,
#       then memcheck of dslash's own run
#   bash docs/runs/records-flat/run.sh 2   the record fuzz family at -O3
#       under all three tools; the windowed programs rebuilt after the
#       narrow-atom fix (build/corpus.tar.gz of `make corpus-build
#       ONLY=dslash,layout,page-rank,softmax`): time (two runs
#       of each build), dslash's memcheck (60 s at most)
#   bash docs/runs/records-flat/run.sh 3   what d3c5931 let in (int record
#       indexes in a branch's arms): the helper's adversary records_break.cu
#       at -O3 and -O0 and the record fuzz family's batches 8-15 at -O3 and
#       0-3 at -O0 (prepare.sh 3), plainly and under all three tools
source scripts/gpu_prelude.sh
case "${1:-1}" in
  1)
    san records-O3 testcases/adversarial/records.cu -O 3 --from .device/records-O3
    san records-O0 testcases/adversarial/records.cu -O 0 --from .device/records-O0
    SAN_TOOLS=racecheck san records-nosync testcases/adversarial/records.cu -O 3 --from .device/records-nosync
    summarize records-1
    mkdir -p /tmp/c && tar xzf build/corpus.tar.gz -C /tmp/c
    step "dslash time" 200 python3 scripts/corpus_gpu.py /tmp/c/corpus --repeat 3 --phase time --only dslash \
      --out "$OUT/dslash-time.json"
    ( cd /tmp/c/corpus/dslash && step "dslash memcheck" 150 compute-sanitizer --tool memcheck --error-exitcode 9 \
        ./coalda 128 > "$OUT/dslash-memcheck.txt" 2>&1 ) ;;
  2)
    SAN_PLAIN=45 SAN_TOOL=45 san record-fuzz .device/record-fuzz/records.cu -O 3 --from .device/record-fuzz/O3 \
      --spec .device/record-fuzz/records.toml --sizes 330
    summarize records-2
    mkdir -p /tmp/c && tar xzf build/corpus.tar.gz -C /tmp/c
    step "windowed time" 150 python3 scripts/corpus_gpu.py /tmp/c/corpus --repeat 2 --phase time \
      --only layout,page-rank,softmax --out "$OUT/windowed-time.json"
    ( cd /tmp/c/corpus/dslash && LD_LIBRARY_PATH=/tmp/c/corpus/lib step "dslash memcheck" 60 \
        compute-sanitizer --tool memcheck --error-exitcode 9 ./coalda 128 > "$OUT/dslash-memcheck.txt" 2>&1 ) ;;
  3)
    export SAN_TOOL=150
    san records-break-O3 testcases/adversarial/records_break.cu -O 3 --from .device/records-break-O3
    san records-break-O0 testcases/adversarial/records_break.cu -O 0 --from .device/records-break-O0
    san record-fuzz-3 .device/record-fuzz-3/records.cu -O 3 --from .device/record-fuzz-3/O3 \
      --spec .device/record-fuzz-3/records.toml --sizes 330
    san record-fuzz-3-O0 .device/record-fuzz-3-O0/records.cu -O 0 --from .device/record-fuzz-3-O0/O0 \
      --spec .device/record-fuzz-3-O0/records.toml --sizes 330
    summarize records-3 ;;
esac
cp docs/runs/records-flat/run.sh "$OUT/"
