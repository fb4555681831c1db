#!/usr/bin/env bash
# The pass's outputs for every lit input (under five option sets), every
# testcase (-O0 and -O3) and every adversary (testcases/adversarial: -O0 and
# -O3, as emitted and with the adversarial tests' -coalda-stage-small-always),
# into DIR: run it before and after a refactoring of
# the pass and compare, e.g.
#   scripts/snapshot_outputs.sh /tmp/before; (change, rebuild);
#   scripts/snapshot_outputs.sh /tmp/after
#   diff -r -I ModuleID -I source_filename /tmp/before /tmp/after
set -uo pipefail
out=${1:?usage: scripts/snapshot_outputs.sh DIR}
cd "$(dirname "$0")/.."
mkdir -p "$out"
opt=/usr/lib/llvm-19/bin/opt
# COALDA_PLUGIN: another build of the plugin (e.g. a git worktree's), for
# the opt runs and the `coalda optimize` runs alike
plugin=${COALDA_PLUGIN:-build/libCoalda.so}
export COALDA_PLUGIN=$(realpath "$plugin")
coalda=${COALDA:-.venv/bin/coalda}
for f in $(find pass/test -name '*.ll' | sort); do
  n=$(echo "$f" | tr / _)
  "$opt" -load-pass-plugin="$plugin" -passes=coalda -coalda-report="$out/$n.json" -S "$f" -o "$out/$n" 2>/dev/null \
    || echo "FAIL $f"
  for extra in -coalda-analyze-only -coalda-max-unit=4 -coalda-runtime-checks=false -coalda-flat-loops=false; do
    "$opt" -load-pass-plugin="$plugin" -passes=coalda "$extra" -S "$f" -o "$out/$n$extra" 2>/dev/null
  done
done
for cu in testcases/*.cu testcases/analysis/*.cu; do
  n=$(echo "$cu" | tr / _)
  for level in 0 3; do
    "$coalda" optimize "$cu" -O "$level" -o "$out/$n-O$level" >/dev/null 2>&1 || echo "FAIL $cu -O$level"
  done
done
for cu in testcases/adversarial/*.cu; do
  n=$(echo "$cu" | tr / _)
  for level in 0 3; do
    "$coalda" optimize "$cu" -O "$level" -o "$out/$n-O$level" >/dev/null 2>&1 || echo "FAIL $cu -O$level"
    "$coalda" optimize "$cu" -O "$level" --pass-arg=-coalda-stage-small-always \
      -o "$out/$n-O$level-small-always" >/dev/null 2>&1 || echo "FAIL $cu -O$level small-always"
  done
done
