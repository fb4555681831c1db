// REQUIRES: cuda
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fno-discard-value-names -O3 -fpass-plugin=%plugin \
// RUN:   -emit-llvm -S %s -o - | FileCheck %s
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -fno-discard-value-names -O2 -fpass-plugin=%plugin -Rpass=coalda \
// RUN:   -Rpass-missed=coalda -emit-llvm -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

struct Pixel {
  unsigned char r, g, b;
};

// Inside clang's own -O3 pipeline the naive copy is rewritten into 16-byte
// units behind the overlap check.
// CHECK-LABEL: define {{.*}} @_Z10copy_naiveP5PixelPKS_(
// CHECK: br i1 %coalda.nooverlap
// CHECK: load <4 x i32>
// CHECK: store <4 x i32>
__global__ void copy_naive(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

// -Rpass reports the rewrite at the last member's line and the partial copy
// below as missed, with its reason.
// REMARK: rgb-fpass-plugin.cu:[[@LINE-5]]:{{[0-9]+}}: remark: coalesced copy of 3 members from src to dst
// REMARK: rgb-fpass-plugin.cu:[[@LINE+3]]:{{[0-9]+}}: remark: copy into dst left alone: partial copy
__global__ void copy_rg(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
}
