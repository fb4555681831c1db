// Copy kernels for `coalda bench`: the shapes COALDA rewrites, one element
// per thread (with and without a bounds guard), a grid-stride loop, and
// structs of 1-, 2- and 4-byte members. Each has a hand-coalesced reference
// where one is natural to write.
#include <cstdint>

struct Pixel {
  unsigned char r, g, b;
};

struct RGBA {
  unsigned char r, g, b, a;
};

__global__ void rgb(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

// The same with __restrict__: COALDA needs no run-time overlap check.
__global__ void rgb_restrict(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

__global__ void rgb_guarded(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

__global__ void rgb_grid_stride(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

__global__ void float3_copy(float3 *dst, const float3 *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

__global__ void int2_copy(int2 *dst, const int2 *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
  }
}

__global__ void ushort3_copy(ushort3 *dst, const ushort3 *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

__global__ void rgba_copy(RGBA *dst, const RGBA *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
    dst[i].a = src[i].a;
  }
}

// Hand-coalesced reference for the 3-byte copies: the block's region in
// 16-byte units (when aligned), else bytes, by consecutive threads.
__global__ void rgb_hand(Pixel *dst, const Pixel *src, int n) {
  size_t first = (size_t)blockIdx.x * blockDim.x;
  size_t count = n - first < blockDim.x ? n - first : blockDim.x;
  unsigned char *d = (unsigned char *)(dst + first);
  const unsigned char *s = (const unsigned char *)(src + first);
  size_t bytes = 3 * count;
  if ((((uintptr_t)d | (uintptr_t)s | bytes) & 15) == 0) {
    for (size_t u = threadIdx.x; u < bytes / 16; u += blockDim.x)
      ((uint4 *)d)[u] = ((const uint4 *)s)[u];
  } else {
    for (size_t u = threadIdx.x; u < bytes; u += blockDim.x)
      d[u] = s[u];
  }
}
