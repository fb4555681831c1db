#!/usr/bin/env bash
# Builds here what run.sh runs on the GPU machine (carry .whl, .device and
# build/corpus.tar.gz):
#   prepare.sh 1  (parts 1 and 2) the records adversary at -O3 and -O0 as the
#       pass emits it by default; a copy of the -O3 build whose PTX lacks
#       each record refill's closing __syncwarp (a planted race that only
#       the GPU can show: the emulator runs a warp's lanes in step); the
#       record fuzz family (tests/record_kernels.py: batches 0-7 of 6, as
#       tests/test_record_fuzz.py draws them); dslash from the corpus recipe
#   prepare.sh 3  (part 3, after d3c5931: int record indexes in a branch's
#       arms) the helper's adversary records_break.cu at -O3 and -O0, and
#       the record fuzz family's batches 8-15 of 6 at -O3 and 0-3 at -O0,
#       which now draw int indexes in arms
set -eu
family() {  # DIR LEVEL FIRST-BATCH LAST-BATCH
  mkdir -p "$1"
  .venv/bin/python - "$1" "$3" "$4" <<'PY'
import sys
sys.path.insert(0, "tests")
from record_kernels import random_kernels
out, first, last = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ks = [k for b in range(first, last + 1) for k in random_kernels(b, 6)]
open(f"{out}/records.cu", "w").write("".join(k.source() for k in ks))
open(f"{out}/records.toml", "w").write("sizes = [330]\ngpu_sizes = [330, 1000]\n\n" + "\n".join(k.spec() for k in ks))
PY
  .venv/bin/coalda optimize -O"$2" "$1/records.cu" -o "$1/O$2" -q
}
case "${1:-1}" in
  1)
    for L in 3 0; do
      .venv/bin/coalda optimize -O$L testcases/adversarial/records.cu -o .device/records-O$L -q
    done
    rm -rf .device/records-nosync && cp -r .device/records-O3 .device/records-nosync
    # the closing barrier is the first bar.warp.sync after a refill's st.shared
    python3 - <<'PY'
import re
from pathlib import Path
p = Path(".device/records-nosync/records.after.ptx")
text = p.read_text()
new, count = re.subn(r"(\tst\.shared\.u32[^\n]*\n)\tbar\.warp\.sync \t-1;\n", r"\1", text)
assert count, "no closing __syncwarp found"
p.write_text(new)
print(f"planted: {count} closing __syncwarps removed")
PY
    family .device/record-fuzz 3 0 7
    make corpus-build ONLY=dslash ;;
  3)
    for L in 3 0; do
      .venv/bin/coalda optimize -O$L testcases/adversarial/records_break.cu -o .device/records-break-O$L -q
    done
    family .device/record-fuzz-3 3 8 15
    family .device/record-fuzz-3-O0 0 0 3 ;;
esac
