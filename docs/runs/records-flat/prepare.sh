#!/usr/bin/env bash
# Builds here what run.sh runs on the GPU machine (carry .whl, .device and
# build/corpus.tar.gz): the records adversary at -O3 and -O0 as the pass
# emits it by default; a copy of the -O3 build whose PTX lacks each record
# refill's closing __syncwarp (a planted race that only the GPU can show:
# the emulator runs a warp's lanes in step); the record fuzz family
# (tests/record_kernels.py: batches 0-7 of 6, as tests/test_record_fuzz.py draws them); dslash from the corpus recipe.
set -eu
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
mkdir -p .device/record-fuzz
.venv/bin/python - <<'PY'
import sys
sys.path.insert(0, "tests")
from record_kernels import random_kernels
ks = [k for b in range(8) for k in random_kernels(b, 6)]
open(".device/record-fuzz/records.cu", "w").write("".join(k.source() for k in ks))
open(".device/record-fuzz/records.toml", "w").write("sizes = [330]\ngpu_sizes = [330, 1000]\n\n" + "\n".join(k.spec() for k in ks))
PY
.venv/bin/coalda optimize -O3 .device/record-fuzz/records.cu -o .device/record-fuzz/O3 -q
make corpus-build ONLY=dslash
