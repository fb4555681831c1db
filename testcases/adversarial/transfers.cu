// Adversarial corpus: copies written as memory transfers (struct assignment,
// which clang emits as llvm.memcpy, __builtin_memcpy, __builtin_memmove).
// Since 1bfe514 a transfer of a constant size is a copy member like a
// load/store pair. Launch specs: transfers.toml.
//
// Kernels whose transfer is a memcpy take __restrict__ pointers: a memcpy
// between partially overlapping objects is undefined, so the oracle's
// overlap layouts (dst = src +- 1, one thread) would compare two undefined
// results (the emulator's two JIT-compiled copies of the same memcpy do
// differ there). The memmove kernel keeps plain pointers: memmove is defined
// on overlap, and the rewrite must take its original code there.
struct Pixel { unsigned char r, g, b; };
struct __attribute__((packed)) P3 { int a, b, c; };
struct __attribute__((packed)) P7 { char c[7]; };
struct Two { Pixel p, q; };

// float3 assignment (12-byte memcpy, align 4). Rewritten.
__global__ void f3_assign(float3 *__restrict__ dst, const float3 *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; dst[i] = src[i];
}
// The same under a bounds guard (partial last block). Rewritten.
__global__ void f3_assign_guarded(float3 *__restrict__ dst, const float3 *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) dst[i] = src[i];
}
// Packed three ints (12-byte memcpy, align 1): 4-byte member units at
// alignment 1. Rewritten.
__global__ void p3_assign(P3 *__restrict__ dst, const P3 *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; dst[i] = src[i];
}
// Seven bytes (1-byte units). Rewritten.
__global__ void p7_assign(P7 *__restrict__ dst, const P7 *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; dst[i] = src[i];
}
// memmove of a pixel: defined on overlap; the overlap layouts run the
// original code. Rewritten behind the overlap check.
__global__ void px_memmove(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; __builtin_memmove(&dst[i], &src[i], 3);
}
// Two member assignments tiling a 6-byte element. Rewritten.
__global__ void two_halves(Two *__restrict__ dst, const Two *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; dst[i].p = src[i].p; dst[i].q = src[i].q;
}
// A 4-byte memcpy and two byte stores tiling the element. Rewritten.
__global__ void memcpy_plus_store(Two *__restrict__ dst, const Two *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __builtin_memcpy(&dst[i], &src[i], 4);
  dst[i].q.g = src[i].q.g; dst[i].q.b = src[i].q.b;
}
// One 6-byte memcpy per thread over two 3-byte pixels (stride 6). Rewritten.
__global__ void memcpy_two_elems(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; __builtin_memcpy(&dst[2 * i], &src[2 * i], 6);
}
// A 4-byte memcpy at a 3-byte stride: every thread writes one byte of its
// neighbour's element with the byte the neighbour writes there too (the same
// source byte: schedule-independent). Left alone (members reach past the
// stride at -O0; at -O3 it is a 4-byte load/store, "already coalesced").
__global__ void memcpy_past_stride(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; __builtin_memcpy(&dst[i], &src[i], 4);
}
// float3 assignment in a grid-stride loop. Rewritten, with the flat copy.
__global__ void f3_grid_stride(float3 *__restrict__ dst, const float3 *__restrict__ src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) dst[i] = src[i];
}
// A shared tile filled by struct assignment. Rewritten.
__global__ void tile_assign(Pixel *dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t] = src[i];
  __syncthreads();
  dst[i] = tile[blockDim.x - 1 - t];
}
// A 12-byte memcpy at a run-time stride s ints: one member. Left alone.
__global__ void rt_stride_memcpy(int *__restrict__ dst, const int *__restrict__ src, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __builtin_memcpy(&dst[s * i], &src[s * i], 12);
}
// A volatile-qualified struct assignment is a volatile memcpy... clang
// emits member-wise volatile accesses instead. Left alone (volatile).
__global__ void volatile_assign(volatile Pixel *dst, const volatile Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b;
}
