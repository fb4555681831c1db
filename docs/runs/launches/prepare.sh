#!/usr/bin/env bash
# Builds what docs/runs/launches/run.sh runs, into .device/launches (carry
# .device and .whl): the probe docs/probe/launch_reshape.cu three ways
# (plain: -fno-coalda; coalda: the default build; reshape: -fcoalda-reshape),
# the CUDA 12 runtime they link, and (run 3 on) the corpus programs whose
# rewritten kernels take a variant, built with -fcoalda-reshape
# (build/corpus-reshape.tar.gz; carry it too).
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
# the CUDA 12 runtime the builds link (the GPU machine has CUDA 13's)
cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/libcudart.so.12"
# the corpus programs whose kernels take a variant (`coalda analyze
# --pass-arg=-coalda-reshape-launches` over the corpus, with the census's
# flags): run 3a also had matrixT and both Rodinia gaussians, whose block-loop
# variants the cost rule refuses since
.venv/bin/python scripts/corpus.py build --reshape --only aligned-types,matrixT --out build/corpus-reshape
