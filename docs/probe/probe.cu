// Probe behind docs/benchmarks.md's explanation of the one-pixel-per-thread
// gap at 512 threads/block: the notes' 16-byte kernel with and without
// __restrict__, with COALDA-style checks, and with one block moving four
// blocks' regions. Built with clang-19 to PTX, run by probe.py (CuPy).
#include <cstdint>
struct Pixel { unsigned char r, g, b; };
extern "C" __global__ void naive(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b; }
}
// the notes' v16 exactly
extern "C" __global__ void v16(uint4 *__restrict__ d, const uint4 *__restrict__ s) {
  unsigned nv = blockDim.x * 3 / 16;
  size_t base = (size_t)blockIdx.x * nv;
  if (threadIdx.x < nv) d[base + threadIdx.x] = s[base + threadIdx.x];
}
extern "C" __global__ void v16_alias(uint4 *d, const uint4 *s) {
  unsigned nv = blockDim.x * 3 / 16;
  size_t base = (size_t)blockIdx.x * nv;
  if (threadIdx.x < nv) d[base + threadIdx.x] = s[base + threadIdx.x];
}
// start from the pixel address like COALDA, checks combined in one branch
extern "C" __global__ void v16_checks(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  char *d0 = (char *)&dst[i] - 3 * (size_t)threadIdx.x;
  const char *s0 = (const char *)&src[i] - 3 * (size_t)threadIdx.x;
  size_t R = 3 * (size_t)blockDim.x;
  uintptr_t a = (uintptr_t)d0, b = (uintptr_t)s0;
  bool ok = (a + R <= b || b + R <= a) && ((a | b | R) & 15) == 0;
  if (ok) {
    if (threadIdx.x < R / 16) ((uint4 *)d0)[threadIdx.x] = ((const uint4 *)s0)[threadIdx.x];
  } else {
    dst[i] = src[i];
  }
}
// one block moves K blocks' regions (all its threads busy with 16-byte units)
extern "C" __global__ void v16_k4(uint4 *__restrict__ d, const uint4 *__restrict__ s) {
  unsigned nv = blockDim.x * 3 / 16 * 4;
  size_t base = (size_t)blockIdx.x * nv;
  for (unsigned u = threadIdx.x; u < nv; u += blockDim.x) d[base + u] = s[base + u];
}
// 4-byte units by 3/4 of the threads
extern "C" __global__ void w4(uint32_t *__restrict__ d, const uint32_t *__restrict__ s) {
  unsigned nw = blockDim.x * 3 / 4;
  size_t base = (size_t)blockIdx.x * nw;
  if (threadIdx.x < nw) d[base + threadIdx.x] = s[base + threadIdx.x];
}
