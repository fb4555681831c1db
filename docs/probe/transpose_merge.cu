// Probe for issue 13: can a rewrite that keeps the launch (grid and block
// from the host) reach the 32x32 tiled transpose? Variants of
// out[x*N + y] = in[y*M + x] (in: N rows of M floats), guarded, timed with
// CUDA events (median of 20) against cudaMemcpy of the same bytes:
//   naive        the kernel as written (32x8 or 16x16 threads)
//   permuted     what COALDA 0fed20c emits, by hand: the block's values go
//                through a padded tile, thread q stores slot (q%by, q/by)
//   tiled        the hand-written 32x32 tile at 32x8 threads (own grid)
//   merged       the naive launch; the block at blockIdx.y % (32/ntid.y) == 0
//                (and .x % (32/ntid.x) == 0) does the 32x32 tile of the
//                blocks it merges with (threads renumbered as 32x8), the
//                others return at once
//   remapped     the naive launch; linear block b < tiles does tile b, the
//                others return (the empty blocks at the end of the launch)
// Build: nvcc -O3 -arch=sm_90 transpose_merge.cu -o transpose_merge
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void naive(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

__global__ void permuted(float *out, const float *in, int M, int N) {
  __shared__ float tile[32 * 33];
  int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * bx + tx, y = blockIdx.y * by + ty;
  bool full = (blockIdx.x + 1) * bx <= M && (blockIdx.y + 1) * by <= N;
  if (!full) {
    if (x < M && y < N) out[(size_t)x * N + y] = in[(size_t)y * M + x];
    return;
  }
  tile[ty * (bx + 1) + tx] = in[(size_t)y * M + x];
  __syncthreads();
  int q = ty * bx + tx, sy = q % by, sx = q / by;
  out[(size_t)(blockIdx.x * bx + sx) * N + blockIdx.y * by + sy] = tile[sy * (bx + 1) + sx];
}

__device__ __forceinline__ void tile32(float *out, const float *in, int M, int N, int x0, int y0, int ylimit,
                                       int tx, int ty) {
  __shared__ float tile[32][33];
  for (int j = ty; j < 32; j += 8)
    if (x0 + tx < M && y0 + j < ylimit) tile[j][tx] = in[(size_t)(y0 + j) * M + x0 + tx];
  __syncthreads();
  for (int j = ty; j < 32; j += 8)
    if (y0 + tx < ylimit && x0 + j < M) out[(size_t)(x0 + j) * N + y0 + tx] = tile[tx][j];
}

__global__ void tiled(float *out, const float *in, int M, int N) {
  tile32(out, in, M, N, blockIdx.x * 32, blockIdx.y * 32, N, threadIdx.x, threadIdx.y);
}

__global__ void merged(float *out, const float *in, int M, int N) {
  int fx = 32 / blockDim.x, fy = 32 / blockDim.y;
  if (blockIdx.x % fx || blockIdx.y % fy) return;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int ylimit = min(N, (int)(gridDim.y * blockDim.y));  // rows the launch covers
  tile32(out, in, M, N, blockIdx.x * blockDim.x, blockIdx.y * blockDim.y, ylimit, t % 32, t / 32);
}

__global__ void remapped(float *out, const float *in, int M, int N) {
  int tilesx = (M + 31) / 32, tilesy = (N + 31) / 32;
  int b = blockIdx.y * gridDim.x + blockIdx.x;
  if (b >= tilesx * tilesy) return;
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  tile32(out, in, M, N, (b % tilesx) * 32, (b / tilesx) * 32, N, t % 32, t / 32);
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

__global__ void empty_kernel() {}

int main() {
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("# %s\n", p.name);
  const int shapes[][2] = {{8192, 8192}, {8192, 4099}, {4096, 1000}};
  for (auto &s : shapes) {
    int M = s[0], N = s[1];
    size_t bytes = 4ull * M * N;
    float *in, *out, *ref, *cp;
    CK(cudaMalloc(&in, bytes)); CK(cudaMalloc(&out, bytes)); CK(cudaMalloc(&ref, bytes)); CK(cudaMalloc(&cp, bytes));
    std::vector<float> h(M * (size_t)N);
    for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i * 2654435761u % 1000003);
    CK(cudaMemcpy(in, h.data(), bytes, cudaMemcpyHostToDevice));
    float tm = timeit([&] { CK(cudaMemcpy(cp, in, bytes, cudaMemcpyDeviceToDevice)); });
    printf("%dx%d memcpy %.4f ms %.0f GB/s\n", M, N, tm, 2.0 * bytes / tm / 1e6);
    dim3 t32(32, 8), t16(16, 16);
    naive<<<dim3((M + 31) / 32, (N + 7) / 8), t32>>>(ref, in, M, N);
    CK(cudaDeviceSynchronize());
    std::vector<float> want(h.size()), got(h.size());
    CK(cudaMemcpy(want.data(), ref, bytes, cudaMemcpyDeviceToHost));
    for (dim3 b : {t32, t16}) {
      dim3 g((M + b.x - 1) / b.x, (N + b.y - 1) / b.y);
      dim3 gt((M + 31) / 32, (N + 31) / 32);
      float tn = timeit([&] { naive<<<g, b>>>(out, in, M, N); });
      struct { const char *name; float ms; } rows[] = {
        {"naive", tn},
        {"permuted", timeit([&] { permuted<<<g, b>>>(out, in, M, N); })},
        {"tiled", b.x == 32 ? timeit([&] { tiled<<<gt, b>>>(out, in, M, N); }) : -1.f},
        {"merged", timeit([&] { merged<<<g, b>>>(out, in, M, N); })},
        {"remapped", timeit([&] { remapped<<<g, b>>>(out, in, M, N); })},
        {"empty blocks", timeit([&] { empty_kernel<<<g, b>>>(); })},
      };
      for (auto &r : rows) {
        if (r.ms < 0) continue;
        const char *check = "";
        if (strcmp(r.name, "empty blocks")) {
          CK(cudaMemset(out, 0xff, bytes));
          if (!strcmp(r.name, "naive")) naive<<<g, b>>>(out, in, M, N);
          if (!strcmp(r.name, "permuted")) permuted<<<g, b>>>(out, in, M, N);
          if (!strcmp(r.name, "tiled")) tiled<<<gt, b>>>(out, in, M, N);
          if (!strcmp(r.name, "merged")) merged<<<g, b>>>(out, in, M, N);
          if (!strcmp(r.name, "remapped")) remapped<<<g, b>>>(out, in, M, N);
          CK(cudaMemcpy(got.data(), out, bytes, cudaMemcpyDeviceToHost));
          check = memcmp(got.data(), want.data(), bytes) ? "MISMATCH" : "same";
        }
        printf("%dx%d %2dx%-2d %-12s %.4f ms %5.0f GB/s %5.2fx %3.0f%% of memcpy %s\n", M, N, b.x, b.y, r.name, r.ms,
               2.0 * bytes / r.ms / 1e6, tn / r.ms, 100.0 * tm / r.ms, check);
      }
    }
    CK(cudaFree(in)); CK(cudaFree(out)); CK(cudaFree(ref)); CK(cudaFree(cp));
  }
  return 0;
}
