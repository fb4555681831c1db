// REQUIRES: cuda
// RUN: %clang -x cuda --cuda-device-only --cuda-gpu-arch=sm_90 --cuda-path=%cuda_path \
// RUN:   -Wno-unknown-cuda-version -O0 -fpass-plugin=%plugin -emit-llvm -S %s -o - | FileCheck %s

// At -O0 clang's pipeline has no optimizer: the plugin adds nothing there
// (`coalda optimize -O0` runs mem2reg and the pass through opt instead).
// CHECK-LABEL: define {{.*}} @_Z4copyPhPKh(
// CHECK-NOT: coalda.
// CHECK: ret void
__global__ void copy(unsigned char *dst, const unsigned char *src) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  dst[3 * t] = src[3 * t];
  dst[3 * t + 1] = src[3 * t + 1];
  dst[3 * t + 2] = src[3 * t + 2];
}
