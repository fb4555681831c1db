#!/usr/bin/env bash
# Builds what docs/runs/launches/run.sh runs, into .device/launches (carry
# .device and .whl): the probes docs/probe/launch_reshape.cu and
# launch_concurrency.cu three ways (plain: -fno-coalda; coalda: the default
# build; reshape: -fcoalda-reshape), the CUDA 12 runtime they link, the
# adversaries' variants, and the corpus programs with rewritten kernels, built
# with -fcoalda-reshape (build/corpus-reshape.tar.gz; carry it too).
# (launch_concurrency's std::thread needs no -pthread: glibc 2.34 on has
# pthread_create in libc; coalda cc would pass -pthread to each step.)
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
  for probe in launch_reshape launch_concurrency; do
    .venv/bin/coalda cc "${flags[@]}" -O3 -arch sm_90 docs/probe/$probe.cu -o "$out/${probe}_$build"
  done
done
# Each reshaped probe's variants must be kernels of its device code: one the
# NVPTX backend emits as a .func (its stale annotation cache, before
# annotateLike gave variants the PTX_Kernel convention) never launches (its
# occupancy query fails, and the original launches).
.venv/bin/python - "$out"/launch_*_reshape <<'EOF'
import re, sys
from pathlib import Path
from coalda.driver.cc import embedded_images
for path in sys.argv[1:]:
    images = embedded_images(Path(path))
    variants = {n for i in images if i.kind == "ptx" for n in re.findall(rb"\.(?:entry|func) (\w+__coalda_grid)\(", i.data)}
    kernels = {n for i in images if i.kind == "elf" for n in re.findall(rb"\.nv\.info\.(\w+)", i.data)}
    if not variants or variants - kernels:
        sys.exit(f"{path}: variants not kernels: {sorted(n.decode() for n in variants - kernels) or 'none made'}")
EOF
# the CUDA 12 runtime the builds link (the GPU machine has CUDA 13's)
cp -L "$(.venv/bin/python -c 'from coalda.driver.cc import find_cudart; from coalda.driver.toolchain import cuda_path; print(find_cudart(cuda_path()))')" "$out/libcudart.so.12"
# the adversaries' variants (prepare_variants.py), and every corpus program
# with a rewritten kernel (the census's), built with -fcoalda-reshape: five
# kernels take a grid variant (aligned-types' flat copies, matrixT's tile),
# the others the rewrite form (run 10 on)
.venv/bin/python docs/runs/launches/prepare_variants.py grid_variants flat_variants tile_variants
.venv/bin/python scripts/corpus.py build --reshape --only aligned-types,dslash,interleave,layout,lulesh,matrixT,\
nbody,page-rank,pso,rodinia-gaussian16,rodinia-gaussian32,scan2,softmax,sph --out build/corpus-reshape
