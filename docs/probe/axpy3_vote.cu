// Probe for issue 12's axpy3 target (>= 1.25x at 256 threads): what the
// staged form costs beyond the hand-written one. float3 axpy in place,
// y[i] = a*x[i] + y[i], guarded (n = 2^26 - 77: a partial last block), y and
// x not __restrict__. Variants, timed with CUDA events (median of 20):
//   naive       the kernel as written
//   vote        what COALDA emits, by hand: __syncthreads_and(i < n && the
//               thread's y element does not overlap its x element), y's row
//               -> tile (16-byte units), barrier, compute, barrier, row -> y
//   uniform     the same with the vote replaced by a block-uniform test (the
//               block is full and its y and x rows do not overlap): no
//               barrier before the load phase
//   both        uniform, and x's row staged too
// Build: nvcc -O3 -arch=sm_90 axpy3_vote.cu -o axpy3_vote
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

struct F3 { float x, y, z; };

__global__ void naive(F3 *y, const F3 *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

__device__ __forceinline__ void rows(float *dst, const float *src, int floats, int t, int B) {
  // 16-byte units when both are 16-byte aligned (they are here: the row of
  // a block of a multiple of 4 threads starts at 12*B*blockIdx bytes)
  const float4 *s = (const float4 *)src;
  float4 *d = (float4 *)dst;
  for (int k = t; k < floats / 4; k += B)
    d[k] = s[k];
}

__device__ __forceinline__ void body(F3 *y, const F3 *x, float a, F3 *sy, const F3 *sx, int t) {
  sy[t].x = a * sx[t].x + sy[t].x;
  sy[t].y = a * sx[t].y + sy[t].y;
  sy[t].z = a * sx[t].z + sy[t].z;
}

__global__ void vote(F3 *y, const F3 *x, float a, int n) {
  __shared__ float4 tile4[3 * 1024 / 4];
  F3 *sy = (F3 *)tile4;
  int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
  bool mine = i < n && ((uintptr_t)(y + i + 1) <= (uintptr_t)(x + i) || (uintptr_t)(x + i + 1) <= (uintptr_t)(y + i));
  if (!__syncthreads_and(mine) || B % 4) {
    if (i < n) {
      y[i].x = a * x[i].x + y[i].x;
      y[i].y = a * x[i].y + y[i].y;
      y[i].z = a * x[i].z + y[i].z;
    }
    return;
  }
  F3 *row = y + blockIdx.x * B;
  rows((float *)sy, (const float *)row, 3 * B, t, B);
  __syncthreads();
  sy[t].x = a * x[i].x + sy[t].x;
  sy[t].y = a * x[i].y + sy[t].y;
  sy[t].z = a * x[i].z + sy[t].z;
  __syncthreads();
  rows((float *)row, (const float *)sy, 3 * B, t, B);
}

__global__ void uniform(F3 *y, const F3 *x, float a, int n) {
  __shared__ float4 tile4[3 * 1024 / 4];
  F3 *sy = (F3 *)tile4;
  int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
  F3 *row = y + blockIdx.x * B;
  const F3 *xrow = x + blockIdx.x * B;
  bool full = (blockIdx.x + 1) * B <= n;
  bool apart = (uintptr_t)(row + B) <= (uintptr_t)xrow || (uintptr_t)(xrow + B) <= (uintptr_t)row;
  if (!full || !apart || B % 4) {
    if (i < n) {
      y[i].x = a * x[i].x + y[i].x;
      y[i].y = a * x[i].y + y[i].y;
      y[i].z = a * x[i].z + y[i].z;
    }
    return;
  }
  rows((float *)sy, (const float *)row, 3 * B, t, B);
  __syncthreads();
  sy[t].x = a * x[i].x + sy[t].x;
  sy[t].y = a * x[i].y + sy[t].y;
  sy[t].z = a * x[i].z + sy[t].z;
  __syncthreads();
  rows((float *)row, (const float *)sy, 3 * B, t, B);
}

__global__ void both(F3 *y, const F3 *x, float a, int n) {
  __shared__ float4 tile4[2 * 3 * 512 / 4];
  F3 *sy = (F3 *)tile4, *sx = sy + blockDim.x;
  int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
  F3 *row = y + blockIdx.x * B;
  const F3 *xrow = x + blockIdx.x * B;
  bool full = (blockIdx.x + 1) * B <= n;
  bool apart = (uintptr_t)(row + B) <= (uintptr_t)xrow || (uintptr_t)(xrow + B) <= (uintptr_t)row;
  if (!full || !apart || B % 4 || B > 512) {
    if (i < n) {
      y[i].x = a * x[i].x + y[i].x;
      y[i].y = a * x[i].y + y[i].y;
      y[i].z = a * x[i].z + y[i].z;
    }
    return;
  }
  rows((float *)sy, (const float *)row, 3 * B, t, B);
  rows((float *)sx, (const float *)xrow, 3 * B, t, B);
  __syncthreads();
  body(y, x, a, sy, sx, t);
  __syncthreads();
  rows((float *)row, (const float *)sy, 3 * B, t, B);
}

typedef void (*Kernel)(F3 *, const F3 *, float, int);

static float timeKernel(Kernel k, int block, F3 *y, const F3 *x, int n) {
  cudaEvent_t s, f;
  CK(cudaEventCreate(&s));
  CK(cudaEventCreate(&f));
  std::vector<float> ms;
  int grid = (n + block - 1) / block;
  for (int r = 0; r < 22; r++) {
    CK(cudaEventRecord(s));
    k<<<grid, block>>>(y, x, 0.5f, n);
    CK(cudaEventRecord(f));
    CK(cudaEventSynchronize(f));
    float m;
    CK(cudaEventElapsedTime(&m, s, f));
    if (r >= 2) ms.push_back(m);
  }
  CK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main() {
  const int n = (1 << 26) - 77;
  size_t bytes = (size_t)n * 12;
  F3 *x, *y, *ref;
  CK(cudaMalloc(&x, bytes));
  CK(cudaMalloc(&y, bytes));
  CK(cudaMalloc(&ref, bytes));
  std::vector<float> h(3 * (size_t)n);
  for (size_t k = 0; k < h.size(); k++) h[k] = (float)(k % 1013) * 0.25f;
  CK(cudaMemcpy(x, h.data(), bytes, cudaMemcpyHostToDevice));
  struct V { const char *name; Kernel k; int most; };
  V vs[] = {{"naive", naive, 1024}, {"vote", vote, 1024}, {"uniform", uniform, 1024}, {"both", both, 512}};
  printf("%-8s %6s %10s %8s\n", "variant", "block", "ms", "speedup");
  for (int block : {128, 256, 512}) {
    float tn = 0;
    std::vector<float> expect(3 * (size_t)n), got(3 * (size_t)n);
    for (V &v : vs) {
      if (block > v.most) continue;
      CK(cudaMemcpy(y, h.data(), bytes, cudaMemcpyHostToDevice));
      // one launch for the check, from the same y
      int grid = (n + block - 1) / block;
      v.k<<<grid, block>>>(y, x, 0.5f, n);
      CK(cudaDeviceSynchronize());
      CK(cudaMemcpy(got.data(), y, bytes, cudaMemcpyDeviceToHost));
      if (v.k == naive) expect = got;
      bool same = memcmp(got.data(), expect.data(), bytes) == 0;
      float t = timeKernel(v.k, block, y, x, n);
      if (v.k == naive) tn = t;
      printf("%-8s %6d %10.4f %8.2f%s\n", v.name, block, t, tn / t, same ? "" : "  MISMATCH");
    }
  }
  return 0;
}
