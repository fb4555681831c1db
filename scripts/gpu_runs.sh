#!/usr/bin/env bash
# Differential runs of the testcases on a real GPU, plain and under
# compute-sanitizer (memcheck, racecheck, synccheck). The GPU machine has no
# clang/opt: the IR and PTX are built here, the runs reuse them with --from.
#
#   scripts/gpu_runs.sh prepare            # here: .device/<testcase>/ for each
#   (COALDA_GPU_TESTCASES=... COALDA_PASS_ARGS="-coalda-stage-small-always" for
#   the adversarial corpora)
#   scripts/gpu_runs.sh run OUTDIR         # there: logs into OUTDIR
#
# `run` expects click and rich (and their needs) as wheels in .whl/ when the
# machine lacks them (see docs/gpu-runs.md). The sanitizer does not report
# CUDA API errors: cuda-core probes for a current context with
# cuCtxGetDevice, which fails harmlessly before it makes one. Exit status: 1
# if any run reports a difference or the sanitizer an error.
set -uo pipefail
cd "$(dirname "$0")/.."

# testcases/<name>.cu with a launch spec; COALDA_GPU_TESTCASES overrides
read -r -a TESTCASES <<<"${COALDA_GPU_TESTCASES:-rgb shared_tile guards assign helpers copies}"
SMALL=1000,4099           # sizes under the sanitizer (it slows kernels a lot)

prepare() {
  # COALDA_PASS_ARGS: pass options (the adversarial corpora's
  # -coalda-stage-small-always), each given as --pass-arg
  local args=()
  for a in ${COALDA_PASS_ARGS:-}; do args+=("--pass-arg=$a"); done
  for t in "${TESTCASES[@]}"; do
    mkdir -p "$(dirname ".device/$t")"
    .venv/bin/coalda optimize "testcases/$t.cu" -o ".device/$t" "${args[@]}" >/dev/null || exit 1
  done
  echo "prepared .device/ for: ${TESTCASES[*]}"
}

run() {
  local out=$1 status=0
  mkdir -p "$out"
  if [ -d .whl ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir \
      --upgrade --target /tmp/coalda-site .whl/*.whl || exit 1
    export PYTHONPATH=/tmp/coalda-site:$PWD
  else
    export PYTHONPATH=$PWD
  fi
  export PYTHONUNBUFFERED=1 COLUMNS=200
  local sizes=()   # the specs' gpu_sizes, unless COALDA_GPU_SIZES says
  [ -n "${COALDA_GPU_SIZES:-}" ] && sizes=(--sizes "$COALDA_GPU_SIZES")
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader >"$out/runs.txt"
  for t in "${TESTCASES[@]}"; do
    echo "== coalda run testcases/$t.cu (GPU)" >>"$out/runs.txt"
    python3 -m coalda.cli run "testcases/$t.cu" --from ".device/$t" "${sizes[@]}" \
      >>"$out/runs.txt" 2>&1 || status=1
  done
  for tool in memcheck racecheck synccheck; do
    for t in "${TESTCASES[@]}"; do
      echo "== compute-sanitizer --tool $tool: coalda run testcases/$t.cu --sizes $SMALL" >>"$out/$tool.txt"
      compute-sanitizer --tool "$tool" --error-exitcode 9 --report-api-errors no \
        python3 -m coalda.cli run "testcases/$t.cu" --from ".device/$t" --sizes "$SMALL" \
        >>"$out/$tool.txt" 2>&1 || status=1
    done
  done
  grep -h "ERROR SUMMARY\|comparisons\|error:" "$out"/*.txt >"$out/summary.txt"
  return $status
}

case "${1:-}" in
  prepare) prepare ;;
  run) run "${2:?usage: scripts/gpu_runs.sh run OUTDIR}" ;;
  *) echo "usage: scripts/gpu_runs.sh prepare | run OUTDIR" >&2; exit 2 ;;
esac
