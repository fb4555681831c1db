// Probe: would staging ccsd-trpdrv's column reads through a shared tile pay?
// ccsd_kernel (corpus/hecbench/ccsd-trpdrv-cuda/ccsd_tengy.cu), 16x16 blocks
// (BLOCK_SIZE 16), grid ceil(nvir/16)^2, b = x index, c = y index. Each
// thread reads f1n..f4t at bc = b + c*nvir (threadIdx.x contiguous) and at
// cb = c + b*nvir (threadIdx.x steps nvir*8 bytes: 8 column reads). The
// 4 sums go through cub::BlockReduce (kept) and one atomicAdd each a block.
// Variants, all at the program's launch, the arithmetic shared (one template):
//   orig         the kernel as written (atomicAdd of the 4 block sums)
//   orig/part    the same, but each block stores its 4 sums to part[4][blocks]
//                (no atomics): the reference the others are checked against
//   tiled/part   the 8 [cb] reads go through padded tiles double[8][16][17]:
//                thread (x,y) loads f[(by*16+x) + (bx*16+y)*nvir] (x steps the
//                contiguous index, 128 B a row) into tile[y][x], guarded by
//                row < nvir && col < nvir, __syncthreads (all threads, also
//                those of a partial edge block), then reads f[cb] as
//                tile[threadIdx.x][threadIdx.y]: the element the original
//                reads, under the same b < nvir && c < nvir guard
//   tiled        tiled with the atomics, as a pass would emit it
//   coalesced    bound, not a rewrite: the [cb] reads take the value the
//                tile load fetched (wrong element, coalesced, no shared
//                memory, no barrier); not checked
// Checks: the /part variants' partials are compared with memcmp against
// orig/part (same per-thread arithmetic, same cub reduction order: must be
// bit-identical). The atomic variants' 4 sums are compared with the host sum
// of orig/part's partials with relative tolerance 1e-9 of the sum of the
// partials' magnitudes (atomicAdd order varies run to run).
// No tiled32: at BLOCK_SIZE 16 a tile row is 16 doubles = 128 B, one full
// line, so the 16x16 tile already loads whole lines; a 32-wide tile needs
// another launch (or 4 elements a thread) and another reduction order.
// Sizes: nvir 400 (recipe args 160 400 100: nocc 160, nvir 400; 400 = 25*16,
// no partial block), 1000 (partial edge blocks, 1000 = 62*16 + 8), 2048 and
// 4096 (scale), 4099 (scale, rows not 128-B aligned, partial edge).
// Useful bytes: the 8 f arrays once (8*nvir^2 doubles) plus the vectors;
// memcpy copies the 8 f arrays' bytes in one call (GB/s counts read + write).
// The f arrays share one allocation, each slice 256-B aligned.
// Build: nvcc -O3 -arch=sm_90 ccsd_transposed.cu -o ccsd_transposed
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)
#define BLOCK_SIZE 16
enum { ORIG = 0, TILED = 1, COALESCED = 2 };

template <int MODE, bool ATOMIC>
__global__ void ccsd_kernel(const double * __restrict__ f1n,    const double * __restrict__ f1t,
                            const double * __restrict__ f2n,    const double * __restrict__ f2t,
                            const double * __restrict__ f3n,    const double * __restrict__ f3t,
                            const double * __restrict__ f4n,    const double * __restrict__ f4t,
                            const double * __restrict__ dintc1, const double * __restrict__ dintx1, const double * __restrict__ t1v1,
                            const double * __restrict__ dintc2, const double * __restrict__ dintx2, const double * __restrict__ t1v2,
                            const double * __restrict__ eorb,   const double eaijk,
                            double * __restrict__ emp,  // emp4i, emp4k, emp5i, emp5k (atomics)
                            double * __restrict__ part, // [4][blocks] (no atomics)
                            const int ncor, const int nocc, const int nvir)
{
  typedef cub::BlockReduce<double, BLOCK_SIZE, cub::BLOCK_REDUCE_WARP_REDUCTIONS, BLOCK_SIZE> BlockReduce;
  __shared__ typename BlockReduce::TempStorage t1, t2, t3, t4;
  __shared__ double tile[MODE == TILED ? 8 : 1][BLOCK_SIZE][BLOCK_SIZE + 1];

  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  const int c = blockIdx.y * blockDim.y + threadIdx.y;
  // the transposed block: row lb (a b index), column lc (a c index)
  const int lb = blockIdx.x * blockDim.x + threadIdx.y;
  const int lc = blockIdx.y * blockDim.y + threadIdx.x;
  const bool lok = lb < nvir && lc < nvir;
  const int li = lc + lb * nvir;
  const double *fs[8] = {f1n, f1t, f2n, f2t, f3n, f3t, f4n, f4t};
  double lv[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  if (MODE != ORIG && lok)
    for (int k = 0; k < 8; k++) lv[k] = fs[k][li];
  if (MODE == TILED) {
    for (int k = 0; k < 8; k++) tile[MODE == TILED ? k : 0][threadIdx.y][threadIdx.x] = lv[k];
    __syncthreads();
  }
#define CB(k, arr) (MODE == ORIG ? arr[cb] : MODE == TILED ? tile[MODE == TILED ? k : 0][threadIdx.x][threadIdx.y] : lv[k])

  double s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0;

  if (b < nvir && c < nvir) {

    const double denom = -1.0 / (eorb[ncor+nocc+b] + eorb[ncor+nocc+c] + eaijk);

    // nvir < 10000 so this should never overflow
    const int bc = b+c*nvir;
    const int cb = c+b*nvir;
    (void)cb;

    const double f1nbc = f1n[bc];
    const double f1tbc = f1t[bc];
    const double f1ncb = CB(0, f1n);
    const double f1tcb = CB(1, f1t);

    const double f2nbc = f2n[bc];
    const double f2tbc = f2t[bc];
    const double f2ncb = CB(2, f2n);
    const double f2tcb = CB(3, f2t);

    const double f3nbc = f3n[bc];
    const double f3tbc = f3t[bc];
    const double f3ncb = CB(4, f3n);
    const double f3tcb = CB(5, f3t);

    const double f4nbc = f4n[bc];
    const double f4tbc = f4t[bc];
    const double f4ncb = CB(6, f4n);
    const double f4tcb = CB(7, f4t);

    s1 = denom * (f1tbc+f1ncb+f2tcb+f3nbc+f4ncb) * (f1tbc-f2tbc*2-f3tbc*2+f4tbc)
                      - denom * (f1nbc+f1tcb+f2ncb+f3ncb) * (f1tbc*2-f2tbc-f3tbc+f4tbc*2)
                      + denom * 3 * (f1nbc*(f1nbc+f3ncb+f4tcb*2) +f2nbc*f2tcb+f3nbc*f4tbc);

    s2 =  denom * (f1nbc+f1tcb+f2ncb+f3tbc+f4tcb) * (f1nbc-f2nbc*2-f3nbc*2+f4nbc)
                      - denom * (f1tbc+f1ncb+f2tcb+f3tcb) * (f1nbc*2-f2nbc-f3nbc+f4nbc*2)
                      + denom * 3 * (f1tbc*(f1tbc+f3tcb+f4ncb*2) +f2tbc*f2ncb+f3tbc*f4nbc);

    const double t1v1b = t1v1[b];
    const double t1v2b = t1v2[b];

    const double dintx1c = dintx1[c];
    const double dintx2c = dintx2[c];
    const double dintc1c = dintc1[c];
    const double dintc2c = dintc2[c];

    s3 = denom * t1v1b * dintx1c * (f1tbc+f2nbc+f4ncb-(f3tbc+f4nbc+f2ncb+f1nbc+f2tbc+f3ncb)*2
                     +(f3nbc+f4tbc+f1ncb)*4)
                     + denom * t1v1b * dintc1c * (f1nbc+f4nbc+f1tcb -(f2nbc+f3nbc+f2tcb)*2);

    s4 = denom * t1v2b * dintx2c * (f1nbc+f2tbc+f4tcb -(f3nbc+f4tbc+f2tcb +f1tbc+f2nbc+f3tcb)*2
                     +(f3tbc+f4nbc+f1tcb)*4)
                     + denom * t1v2b * dintc2c * (f1tbc+f4tbc+f1ncb -(f2tbc+f3tbc+f2ncb)*2);
  }
#undef CB
  s1 = BlockReduce(t1).Sum(s1);
  s2 = BlockReduce(t2).Sum(s2);
  s3 = BlockReduce(t3).Sum(s3);
  s4 = BlockReduce(t4).Sum(s4);

  if (threadIdx.x == 0 && threadIdx.y == 0) {
    if (ATOMIC) {
      atomicAdd(&emp[0], s1);
      atomicAdd(&emp[1], s2);
      atomicAdd(&emp[2], s3);
      atomicAdd(&emp[3], s4);
    } else {
      const int nb = gridDim.x * gridDim.y, blk = blockIdx.y * gridDim.x + blockIdx.x;
      part[blk] = s1; part[nb + blk] = s2; part[2 * nb + blk] = s3; part[3 * nb + blk] = s4;
    }
  }
}

// splitmix64 of the index -> [lo, lo + scale)
__global__ void fill(double *p, size_t n, uint64_t seed, double lo, double scale) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
    uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31;
    p[i] = lo + scale * ((z >> 11) * 0x1.0p-53);
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

int main() {
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("# %s\n", p.name);
  const int ncor = 0, nocc = 160;
  const int sizes[] = {400, 1000, 2048, 4096, 4099};
  bool bad = false;
  for (int nvir : sizes) {
    const size_t nn = (size_t)nvir * nvir;
    // the 8 f arrays in one allocation (one memcpy for the reference), each starting 256-B aligned
    const size_t fstride = (nn + 31) / 32 * 32;
    double *f[8], *v[6], *fall, *eorb, *emp, *part, *cp;
    CK(cudaMalloc(&fall, 8 * fstride * 8)); CK(cudaMalloc(&cp, 8 * fstride * 8));
    for (int k = 0; k < 8; k++) { f[k] = fall + k * fstride; fill<<<1024, 256>>>(f[k], nn, k + 1, 0.0, 1.0); }
    for (int k = 0; k < 6; k++) { CK(cudaMalloc(&v[k], nvir * 8)); fill<<<64, 256>>>(v[k], nvir, k + 11, 0.0, 1.0); }
    // orbital energies: occupied in [-1, -0.5), virtual in [0.5, 1.5): denominators stay away from 0
    CK(cudaMalloc(&eorb, (ncor + nocc + nvir) * 8));
    fill<<<64, 256>>>(eorb, ncor + nocc, 21, -1.0, 0.5);
    fill<<<64, 256>>>(eorb + ncor + nocc, nvir, 22, 0.5, 1.0);
    std::vector<double> he(ncor + nocc + nvir);
    CK(cudaMemcpy(he.data(), eorb, he.size() * 8, cudaMemcpyDeviceToHost));
    // as ccsd_trpdrv with a=1, i=1, j=2, k=1 (Fortran numbering)
    const double eaijk = he[0] - (he[ncor + 0] + he[ncor + 1] + he[ncor + 0]);
    const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid((nvir + BLOCK_SIZE - 1) / BLOCK_SIZE, (nvir + BLOCK_SIZE - 1) / BLOCK_SIZE);
    const int nb = grid.x * grid.y;
    CK(cudaMalloc(&emp, 4 * 8)); CK(cudaMalloc(&part, 4ull * nb * 8));
    CK(cudaDeviceSynchronize());
    const double fbytes = 8.0 * nn * 8, useful = fbytes + 8.0 * (6 * nvir + nocc + nvir);
    float tm = timeit([&] { CK(cudaMemcpy(cp, fall, 8 * fstride * 8, cudaMemcpyDeviceToDevice)); });
    printf("nvir=%d memcpy %.4f ms %.0f GB/s\n", nvir, tm, 2.0 * fbytes / tm / 1e6);

    auto launch = [&](auto kern) {
      kern<<<grid, block>>>(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], v[0], v[1], v[2], v[3], v[4], v[5],
                            eorb, eaijk, emp, part, ncor, nocc, nvir);
    };
    struct Row { const char *name; decltype(&ccsd_kernel<ORIG, true>) k; bool atomic, check; };
    const Row rows[] = {
      {"orig", ccsd_kernel<ORIG, true>, true, true},
      {"orig/part", ccsd_kernel<ORIG, false>, false, true},
      {"tiled/part", ccsd_kernel<TILED, false>, false, true},
      {"tiled", ccsd_kernel<TILED, true>, true, true},
      {"coalesced", ccsd_kernel<COALESCED, false>, false, false},
    };
    // reference: orig/part's partials, and their sums in block order
    std::vector<double> ref(4ull * nb), got(4ull * nb);
    CK(cudaMemset(part, 0xff, 4ull * nb * 8));
    launch(ccsd_kernel<ORIG, false>);
    CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(ref.data(), part, ref.size() * 8, cudaMemcpyDeviceToHost));
    double rsum[4] = {0, 0, 0, 0}, rabs[4] = {0, 0, 0, 0};
    for (int s = 0; s < 4; s++)
      for (int q = 0; q < nb; q++) { rsum[s] += ref[(size_t)s * nb + q]; rabs[s] += fabs(ref[(size_t)s * nb + q]); }
    float torig = 0;
    for (const Row &r : rows) {
      float t = timeit([&] { launch(r.k); });
      if (!strcmp(r.name, "orig")) torig = t;
      const char *check = "";
      if (r.check) {
        CK(cudaMemset(emp, 0, 4 * 8)); CK(cudaMemset(part, 0xff, 4ull * nb * 8));
        launch(r.k);
        CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
        bool same = true;
        if (r.atomic) {
          double em[4];
          CK(cudaMemcpy(em, emp, 4 * 8, cudaMemcpyDeviceToHost));
          for (int s = 0; s < 4; s++) same &= fabs(em[s] - rsum[s]) <= 1e-9 * rabs[s];
        } else {
          CK(cudaMemcpy(got.data(), part, got.size() * 8, cudaMemcpyDeviceToHost));
          same = !memcmp(got.data(), ref.data(), got.size() * 8);
        }
        check = same ? "same" : "DIFFERENT";
        bad |= !same;
      }
      printf("nvir=%d grid %dx%d block %dx%d %-11s %.4f ms %5.0f GB/s %5.2fx %3.0f%% of memcpy %s\n", nvir, grid.x,
             grid.y, block.x, block.y, r.name, t, useful / t / 1e6, torig / t, 100.0 * tm / t, check);
    }
    printf("nvir=%d sums emp4i %.12e emp4k %.12e emp5i %.12e emp5k %.12e\n", nvir, rsum[0], rsum[1], rsum[2], rsum[3]);
    CK(cudaFree(fall));
    for (int k = 0; k < 6; k++) CK(cudaFree(v[k]));
    CK(cudaFree(eorb)); CK(cudaFree(emp)); CK(cudaFree(part)); CK(cudaFree(cp));
  }
  return bad ? 1 : 0;
}
