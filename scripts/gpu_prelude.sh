# Sourced by the GPU-machine scripts (scripts/gpu_staging.sh,
# gpu_reductions.sh, docs/runs/*/*.sh), from the repository root with OUT set:
# installs the carried wheels (.whl: click, rich and their dependencies),
# puts them and the repo on PYTHONPATH, starts $OUT/log.txt with the GPU's
# name, memory and driver, and defines
#   step NAME SECONDS COMMAND...   run COMMAND with a time limit; log rc and time
set -u
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/coalda-site .whl/*.whl
export PYTHONPATH=/tmp/coalda-site:$PWD PYTHONUNBUFFERED=1 COLUMNS=200
log=$OUT/log.txt
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader > "$log"
step() {
  local name=$1 limit=$2 s; shift 2; s=$(date +%s)
  timeout "$limit" "$@"; echo "$name rc=$? $(( $(date +%s) - s ))s" >> "$log"
}
