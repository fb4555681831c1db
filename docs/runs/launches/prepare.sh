#!/usr/bin/env bash
# Builds what docs/runs/launches/run.sh runs, into .device/launches (carry
# .device and .whl): the probe docs/probe/launch_reshape.cu three ways
# (plain: -fno-coalda; coalda: the default build; reshape: -fcoalda-reshape).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=.device/launches
mkdir -p "$out"
for build in plain coalda reshape; do
  case $build in
    plain) flags=(-fno-coalda) ;;
    coalda) flags=() ;;
    reshape) flags=(-fcoalda-reshape -Wcoalda) ;;
  esac
  .venv/bin/coalda cc "${flags[@]}" -O3 -arch sm_90 docs/probe/launch_reshape.cu -o "$out/launch_reshape_$build"
done
