// Probe: would staging bezier-surface's per-thread chunk stores pay?
// BezierGPU (corpus/hecbench/bezier-surface-cuda/main.cu): thread i writes
// its own output row, outp[i*RES + j] = out for j = 0..RES-1 (a 12-byte XYZ
// of floats a step): each warp store touches 32 rows RES*12 bytes apart.
// Launch as the program's: 256 threads a block (-g default), grid
// ceil(RES/256) blocks, 4x4 control points (-m default 3) from
// input/control.txt (copied below), RES = -n.
// Variants:
//   orig       the kernel as written
//   window     each warp owns a shared window float[32][3*32 + 1] (a row per
//              lane, padded: conflict-free step writes); a lane computes 32
//              steps of its row into it, __syncwarp, then the warp flushes
//              the 32 row segments one after another, consecutive lanes
//              writing consecutive 4-byte floats (96 floats = 384 B a row,
//              three full 128-B lines when RES % 32 == 0), __syncwarp; the
//              last window of a row holds RES % 32 steps. 99 KiB dynamic
//              shared memory a block (opted in).
//   window16   window, flushed in 16-byte float4 units (24 lanes a row) when
//              the row segment is 16-B aligned (RES % 4 == 0), else as window
// and the same three with the Bezier arithmetic replaced by a cheap value
// ({i, j, i^j}): /store rows, checked against orig/store; they bound what
// the store rewrite can gain when the stores are all the kernel does.
// The guard: orig returns when i > RES (as written; i == RES would write row
// RES, past the end); the windows store rows i < RES. All sizes are
// multiples of 256, so no thread has i >= RES and the two agree.
// Check: the output buffer (set to 0xff first) memcmp'd against orig's.
// Sizes: RES 2048 (recipe args -n 2048: 8 blocks) and 8192 (the Makefile's
// run -n 8192: 32 blocks). Useful bytes: the output (RES^2 * 12) and the
// 16 control points; memcpy copies the output's bytes (GB/s: read + write).
// Build: nvcc -O3 -arch=sm_90 bezier_chunk_stores.cu -o bezier_chunk_stores
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

#define FLOAT float
typedef struct {
  FLOAT x;
  FLOAT y;
  FLOAT z;
} XYZ;

// BezierBlend (http://paulbourke.net/geometry/bezier/), as in main.cu
__host__ __device__
inline FLOAT BezierBlend(int k, FLOAT mu, int n) {
  int nn, kn, nkn;
  FLOAT   blend = 1;
  nn        = n;
  kn        = k;
  nkn       = n - k;
  while(nn >= 1) {
    blend *= nn;
    nn--;
    if(kn > 1) {
      blend /= (FLOAT)kn;
      kn--;
    }
    if(nkn > 1) {
      blend /= (FLOAT)nkn;
      nkn--;
    }
  }
  if(k > 0)
    blend *= pow(mu, (FLOAT)k);
  if(n - k > 0)
    blend *= pow(1 - mu, (FLOAT)(n - k));
  return (blend);
}

// one step of the loop body of BezierGPU, as written (CHEAP: a stand-in value)
template <bool CHEAP>
__device__ __forceinline__ XYZ step(const XYZ *inp, int NI, int NJ, FLOAT mui, int i, int j, int RESOLUTIONJ) {
  if (CHEAP) return XYZ{(FLOAT)i, (FLOAT)j, (FLOAT)(i ^ j)};
  FLOAT muj, bi, bj;
  int ki, kj;
  muj     = j / (FLOAT)(RESOLUTIONJ - 1);
  XYZ out = {0, 0, 0};
  for(ki = 0; ki <= NI; ki++) {
    bi = BezierBlend(ki, mui, NI);
    for(kj = 0; kj <= NJ; kj++) {
      bj = BezierBlend(kj, muj, NJ);
      out.x += (inp[ki * (NJ + 1) + kj].x * bi * bj);
      out.y += (inp[ki * (NJ + 1) + kj].y * bi * bj);
      out.z += (inp[ki * (NJ + 1) + kj].z * bi * bj);
    }
  }
  return out;
}

template <bool CHEAP>
__global__ void orig(const XYZ *inp, XYZ *outp, const int NI, const int NJ, const int RESOLUTIONI, const int RESOLUTIONJ) {
  int i, j;
  FLOAT mui;

  i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i > RESOLUTIONI) return;

  mui = i / (FLOAT)(RESOLUTIONI - 1);
  for(j = 0; j < RESOLUTIONJ; j++) {
    XYZ out = step<CHEAP>(inp, NI, NJ, mui, i, j, RESOLUTIONJ);
    outp[i * RESOLUTIONJ + j] = out;
  }
}

constexpr int W = 32;              // steps a window
constexpr int WROW = 3 * W + 1;    // floats a lane's row in the window (padded)
constexpr size_t window_smem(int threads) { return (size_t)threads * WROW * sizeof(float); }

template <bool CHEAP, bool V16>
__global__ void window(const XYZ *inp, XYZ *outp, const int NI, const int NJ, const int RESOLUTIONI, const int RESOLUTIONJ) {
  extern __shared__ float win[];
  const int lane = threadIdx.x & 31;
  float *w = win + (threadIdx.x >> 5) * 32 * WROW;  // this warp's window
  const int i = blockDim.x * blockIdx.x + threadIdx.x, i0 = i - lane;
  const bool live = i < RESOLUTIONI;
  const FLOAT mui = i / (FLOAT)(RESOLUTIONI - 1);
  float *o = reinterpret_cast<float *>(outp);
  for (int j0 = 0; j0 < RESOLUTIONJ; j0 += W) {  // warp-uniform
    const int n = min(W, RESOLUTIONJ - j0);
    if (live)
      for (int k = 0; k < n; k++) {
        XYZ out = step<CHEAP>(inp, NI, NJ, mui, i, j0 + k, RESOLUTIONJ);
        w[lane * WROW + 3 * k] = out.x;
        w[lane * WROW + 3 * k + 1] = out.y;
        w[lane * WROW + 3 * k + 2] = out.z;
      }
    __syncwarp();
    const int nf = 3 * n;
    for (int r = 0; r < 32 && i0 + r < RESOLUTIONI; r++) {  // warp-uniform
      float *dst = o + ((size_t)(i0 + r) * RESOLUTIONJ + j0) * 3;
      const float *src = w + r * WROW;
      if (V16 && ((uintptr_t)dst & 15) == 0 && nf % 4 == 0) {
        for (int u = lane; u < nf / 4; u += 32)
          reinterpret_cast<float4 *>(dst)[u] = make_float4(src[4 * u], src[4 * u + 1], src[4 * u + 2], src[4 * u + 3]);
      } else {
        for (int u = lane; u < nf; u += 32) dst[u] = src[u];
      }
    }
    __syncwarp();
  }
}

static cudaEvent_t e0, e1;
template <class F> static float timeit(F launch, int reps = 20) {
  launch(); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

// input/control.txt; read_input with -m 3 takes the first 16 points in order
static const XYZ control[16] = {
  {-0.508359f, -0.280288f, -0.160131f}, {-0.199345f, -0.515802f, -0.0100263f},
  {0.133988f, -0.515802f, -0.0100263f}, {0.418629f, -0.382526f, -0.407321f},
  {-0.532679f, -0.182468f, -0.0100263f}, {0.0505979f, -0.195094f, 1.08832f},
  {0.383931f, -0.195094f, 1.08832f}, {0.467321f, -0.182468f, -0.0100263f},
  {-0.532679f, 0.150865f, -0.0100263f}, {0.0505979f, 0.13824f, 1.08832f},
  {0.383931f, 0.13824f, 1.08832f}, {0.467321f, 0.150865f, -0.0100263f},
  {-0.483195f, 0.349859f, -0.0568787f}, {-0.199345f, 0.484198f, -0.0100263f},
  {0.133988f, 0.484198f, -0.0100263f}, {0.30311f, 0.389596f, -0.0811675f},
};

int main() {
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("# %s\n", p.name);
  const int NI = 3, NJ = 3, threads = 256;
  const int sizes[] = {2048, 8192};
  struct Var { const char *name; void (*k)(const XYZ *, XYZ *, int, int, int, int); bool win; int ref; };
  const Var vars[] = {
    {"orig", orig<false>, false, 0},
    {"window", window<false, false>, true, 0},
    {"window16", window<false, true>, true, 0},
    {"orig/store", orig<true>, false, 3},
    {"window/store", window<true, false>, true, 3},
    {"window16/store", window<true, true>, true, 3},
  };
  const size_t smem = window_smem(threads);
  for (const Var &v : vars)
    if (v.win) CK(cudaFuncSetAttribute(v.k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  bool bad = false;
  for (int RES : sizes) {
    const size_t npts = (size_t)RES * RES, bytes = npts * sizeof(XYZ);
    const double useful = (double)bytes + sizeof(control);
    XYZ *in, *out, *cp;
    CK(cudaMalloc(&in, sizeof(control))); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&cp, bytes));
    CK(cudaMemcpy(in, control, sizeof(control), cudaMemcpyHostToDevice));
    CK(cudaMemset(out, 0, bytes));
    float tm = timeit([&] { CK(cudaMemcpy(cp, out, bytes, cudaMemcpyDeviceToDevice)); });
    printf("n=%d memcpy %.4f ms %.0f GB/s\n", RES, tm, 2.0 * bytes / tm / 1e6);
    const dim3 block(threads), grid((RES + threads - 1) / threads);
    std::vector<unsigned char> want[2], got(bytes);
    float tref[2] = {0, 0};
    for (int q = 0; q < 6; q++) {
      const Var &v = vars[q];
      const size_t sm = v.win ? smem : 0;
      auto launch = [&] { v.k<<<grid, block, sm>>>(in, out, NI, NJ, RES, RES); };
      float t = timeit(launch);
      CK(cudaMemset(out, 0xff, bytes));
      launch();
      CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
      CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
      const int rb = v.ref / 3;  // 0: Bezier rows, 1: /store rows
      if (q == v.ref) { want[rb] = got; tref[rb] = t; }
      const bool same = !memcmp(got.data(), want[rb].data(), bytes);
      bad |= !same;
      printf("n=%d grid %d block %d %-14s %9.4f ms %6.0f GB/s %5.2fx %5.1f%% of memcpy %s\n", RES, grid.x, block.x,
             v.name, t, useful / t / 1e6, tref[rb] / t, 100.0 * tm / t, same ? "same" : "DIFFERENT");
    }
    // a spot value, to see the Bezier output is not trivially 0 or NaN
    XYZ mid = reinterpret_cast<const XYZ *>(want[0].data())[npts / 2 + RES / 2];
    printf("n=%d out[mid] = %.6f %.6f %.6f\n", RES, mid.x, mid.y, mid.z);
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(cp));
  }
  return bad ? 1 : 0;
}
