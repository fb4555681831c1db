# Sourced by the GPU-machine scripts (scripts/gpu_staging.sh,
# gpu_reductions.sh, docs/runs/*/*.sh), from the repository root with OUT set:
# installs the carried wheels (.whl: click, rich and their dependencies),
# puts them and the repo on PYTHONPATH, starts $OUT/log.txt with the GPU's
# name, memory and driver, and defines
#   step NAME SECONDS COMMAND...   run COMMAND with a time limit; log rc and time
#   san NAME RUN-ARGS...           `coalda run RUN-ARGS` plainly and under
#                                  compute-sanitizer memcheck, racecheck and
#                                  synccheck (or the tools in SAN_TOOLS), into
#                                  /tmp/san/NAME-*.txt; time limits SAN_PLAIN
#                                  and SAN_TOOL seconds (60 and 90)
#   summarize PART                 each /tmp/san output's differing rows and
#                                  verdict lines into $OUT/summary-PART.txt,
#                                  the outputs into $OUT/sanitizer-PART.tgz
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/coalda-site .whl/*.whl
export PYTHONPATH=/tmp/coalda-site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
log=$OUT/log.txt
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$log"
step() {
  local name=$1 limit=$2 s; shift 2; s=$(date +%s)
  timeout "$limit" "$@"; echo "$name rc=$? $(( $(date +%s) - s ))s" >> "$log"
}
mkdir -p /tmp/san
san() {  # NAME, then run's arguments; limits: SAN_PLAIN (60 s), SAN_TOOL (90 s), SAN_TOOLS
  local name=$1; shift
  step "plain $name" "${SAN_PLAIN:-60}" python3 -m coalda.cli run "$@" > /tmp/san/$name-plain.txt 2>&1
  for tool in ${SAN_TOOLS:-memcheck racecheck synccheck}; do
    step "$tool $name" "${SAN_TOOL:-90}" compute-sanitizer --tool $tool --error-exitcode 9 --report-api-errors no \
      python3 -m coalda.cli run "$@" > /tmp/san/$name-$tool.txt 2>&1
  done
}
summarize() {  # PART
  for f in /tmp/san/*.txt; do
    echo "== $(basename $f)"; grep -E "MISMATCH|RACE|FAULT" "$f" | head -10; grep -E "comparisons|SUMMARY|rror" "$f" | tail -3
  done > "$OUT/summary-$1.txt"
  tar czf "$OUT/sanitizer-$1.tgz" -C /tmp san
}
