// Probe for issue 39 item 5 (big records): would staging dslash's matrices
// pay? HeCBench dslash (corpus/hecbench/dslash-cuda, built as the recipe
// builds it: -DPRECISION=1 -DLDIM=32, 256 threads, 2048 blocks) reads, per
// even site, 4 su3 matrices (72 B each, 288 B per site) from each of d_fat,
// d_lng, d_fatbck and d_lngbck: thread t reads the 72-byte record
// base + 288*t + 72*k as 18 floats, so each warp request touches 32 sectors
// for 128 useful bytes. The analysis calls these "not windowed" (96 census
// accesses, the largest group of issue 39's refusals). Variants, all at the
// program's launch, all computing the same d_dst bytes:
//   orig         the kernel as written (kernels.cu)
//   warp_records each warp stages the k-th matrix of its 32 threads
//                (32 x 72 B) with 9 coalesced 8-byte requests per lane into a
//                per-warp tile (2.3 KB; 18 KB per block), __syncwarp, and the
//                thread's mat-vec reads the tile; the sub-tile of a record
//                that issue 39 item 5 names
//   warp_window  each warp stages the whole 288-byte site chunk of its 32
//                threads (9 KB) with 16-byte coalesced requests before each
//                of the four k loops; 72 KB of dynamic shared memory per block
//                (cudaFuncSetAttribute): the "dynamic shared memory" option
//   vector_loads no shared memory: each thread reads its record as float2
//                pairs (the widest its 8-byte alignment allows), to separate
//                the request count from coalescing
// Timing: CUDA events, median of 20 launches after 3 warm-ups; bytes are
// those the program's own "GByte/s" counts per launch. Outputs are compared
// byte for byte with orig's (same float operations in the same order).
// Build: nvcc -O3 -arch=sm_90 dslash_records.cu -o dslash_records
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

#define LDIM 32
typedef struct { float real, imag; } fcomplex;
typedef struct { fcomplex e[3][3]; } su3_matrix;
typedef struct { fcomplex c[3]; } su3_vector;

#define CADD(a,b,c) { (c).real = (a).real + (b).real; (c).imag = (a).imag + (b).imag; }
#define CSUB(a,b,c) { (c).real = (a).real - (b).real; (c).imag = (a).imag - (b).imag; }
#define CMULSUM(a,b,c) { (c).real += (a).real*(b).real - (a).imag*(b).imag; \
                         (c).imag += (a).real*(b).imag + (a).imag*(b).real; }

__device__ inline void mult_su3_mat_vec(const su3_matrix *a, const su3_vector *b, su3_vector *c) {
  for (int i = 0; i < 3; i++) {
    fcomplex x = {0.0f, 0.0f};
    for (int j = 0; j < 3; j++) CMULSUM(a->e[i][j], b->c[j], x);
    c->c[i] = x;
  }
}
__device__ inline void mult_su3_mat_vec_sum(const su3_matrix *a, const su3_vector *b, su3_vector *c) {
  for (int i = 0; i < 3; i++) {
    fcomplex x = {0.0f, 0.0f};
    for (int j = 0; j < 3; j++) CMULSUM(a->e[i][j], b->c[j], x);
    c->c[i].real += x.real;
    c->c[i].imag += x.imag;
  }
}
__device__ inline void add_su3_vector(const su3_vector *a, const su3_vector *b, su3_vector *c) {
  for (int i = 0; i < 3; i++) CADD(a->c[i], b->c[i], c->c[i]);
}
__device__ inline void sub_su3_vector(const su3_vector *a, const su3_vector *b, su3_vector *c) {
  for (int i = 0; i < 3; i++) CSUB(a->c[i], b->c[i], c->c[i]);
}

#define DSLASH_PARAMS                                                          \
  const su3_matrix *__restrict__ d_fat, const su3_matrix *__restrict__ d_lng,  \
      const su3_matrix *__restrict__ d_fatbck,                                 \
      const su3_matrix *__restrict__ d_lngbck,                                 \
      const su3_vector *__restrict__ d_src, su3_vector *__restrict__ d_dst,    \
      const size_t *__restrict__ d_fwd, const size_t *__restrict__ d_bck,      \
      const size_t *__restrict__ d_fwd3, const size_t *__restrict__ d_bck3,    \
      const int total_even_sites

// The four k loops of kernels.cu's dslash, with MAT(array, k) the matrix the
// k-th step multiplies by (global memory in orig, a tile in the others).
#define DSLASH_BODY(MAT, BEFORE)                                               \
  su3_vector v;                                                                \
  BEFORE(d_fat);                                                               \
  for (size_t k = 0; k < 4; ++k) {                                             \
    auto a = MAT(d_fat, k);                                                    \
    auto b = d_src + d_fwd[4 * mySite + k];                                    \
    if (k == 0) mult_su3_mat_vec(a, b, &d_dst[mySite]);                        \
    else mult_su3_mat_vec_sum(a, b, &d_dst[mySite]);                           \
  }                                                                            \
  BEFORE(d_lng);                                                               \
  for (size_t k = 0; k < 4; ++k) {                                             \
    auto a = MAT(d_lng, k);                                                    \
    auto b = d_src + d_fwd3[4 * mySite + k];                                   \
    if (k == 0) mult_su3_mat_vec(a, b, &v);                                    \
    else mult_su3_mat_vec_sum(a, b, &v);                                       \
  }                                                                            \
  add_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);                          \
  BEFORE(d_fatbck);                                                            \
  for (size_t k = 0; k < 4; ++k) {                                             \
    auto a = MAT(d_fatbck, k);                                                 \
    auto b = d_src + d_bck[4 * mySite + k];                                    \
    if (k == 0) mult_su3_mat_vec(a, b, &v);                                    \
    else mult_su3_mat_vec_sum(a, b, &v);                                       \
  }                                                                            \
  sub_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);                          \
  BEFORE(d_lngbck);                                                            \
  for (size_t k = 0; k < 4; ++k) {                                             \
    auto a = MAT(d_lngbck, k);                                                 \
    auto b = d_src + d_bck3[4 * mySite + k];                                   \
    if (k == 0) mult_su3_mat_vec(a, b, &v);                                    \
    else mult_su3_mat_vec_sum(a, b, &v);                                       \
  }                                                                            \
  sub_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);

#define GLOBAL_MAT(arr, k) (arr + mySite * 4 + k)
#define NOTHING(arr)

__global__ void orig(DSLASH_PARAMS) {
  size_t mySite = blockIdx.x * blockDim.x + threadIdx.x;
  if (mySite < total_even_sites) {
    DSLASH_BODY(GLOBAL_MAT, NOTHING)
  }
}

// warp_records: the k-th matrix of the warp's 32 sites, 9 float2 units each,
// flattened so that lane l of request i loads unit i*32+l (site u/9, word
// u%9): consecutive lanes read consecutive 8-byte words of each record.
// Tile rows of 9 float2: 9 is odd, so the mat-vec's reads at that stride are
// free of bank conflicts.
__device__ inline const su3_matrix *
stage_record(float2 *tile, const su3_matrix *arr, size_t warpSite, int lane,
             size_t k, size_t total) {
  __syncwarp();
  for (int i = 0; i < 9; ++i) {
    int u = i * 32 + lane, t = u / 9, w = u % 9;
    if (warpSite + t < total)
      tile[t * 9 + w] =
          reinterpret_cast<const float2 *>(arr + (warpSite + t) * 4 + k)[w];
  }
  __syncwarp();
  return reinterpret_cast<const su3_matrix *>(tile + lane * 9);
}

#define RECORD_MAT(arr, k) stage_record(tile, arr, warpSite, lane, k, total_even_sites)

__global__ void warp_records(DSLASH_PARAMS) {
  __shared__ float2 tiles[8][32 * 9];
  size_t mySite = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  size_t warpSite = mySite - lane;
  float2 *tile = tiles[threadIdx.x / 32];
  // Every lane of a warp with a live site takes part in the staging: the
  // guard moves inside (per unit), so whole warps reach the __syncwarp.
  if (warpSite < total_even_sites) {
    bool live = mySite < total_even_sites;
    su3_vector v;
    su3_vector dst;
    for (size_t k = 0; k < 4; ++k) {
      auto a = RECORD_MAT(d_fat, k);
      if (live) {
        auto b = d_src + d_fwd[4 * mySite + k];
        if (k == 0) mult_su3_mat_vec(a, b, &d_dst[mySite]);
        else mult_su3_mat_vec_sum(a, b, &d_dst[mySite]);
      }
    }
    for (size_t k = 0; k < 4; ++k) {
      auto a = RECORD_MAT(d_lng, k);
      if (live) {
        auto b = d_src + d_fwd3[4 * mySite + k];
        if (k == 0) mult_su3_mat_vec(a, b, &v);
        else mult_su3_mat_vec_sum(a, b, &v);
      }
    }
    if (live) add_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);
    for (size_t k = 0; k < 4; ++k) {
      auto a = RECORD_MAT(d_fatbck, k);
      if (live) {
        auto b = d_src + d_bck[4 * mySite + k];
        if (k == 0) mult_su3_mat_vec(a, b, &v);
        else mult_su3_mat_vec_sum(a, b, &v);
      }
    }
    if (live) sub_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);
    for (size_t k = 0; k < 4; ++k) {
      auto a = RECORD_MAT(d_lngbck, k);
      if (live) {
        auto b = d_src + d_bck3[4 * mySite + k];
        if (k == 0) mult_su3_mat_vec(a, b, &v);
        else mult_su3_mat_vec_sum(a, b, &v);
      }
    }
    if (live) sub_su3_vector(&d_dst[mySite], &v, &d_dst[mySite]);
    (void)dst;
  }
}

// warp_window: the warp's 32 sites x 288 B of one array, as 576 float4 units
// (the chunk is 16-byte aligned: 288 = 18 * 16 and cudaMalloc's base is).
__device__ inline void stage_chunk(float4 *tile, const su3_matrix *arr,
                                   size_t warpSite, int lane, size_t total) {
  __syncwarp();
  const float4 *src = reinterpret_cast<const float4 *>(arr + warpSite * 4);
  size_t left = total - warpSite, units = (left < 32 ? left : 32) * 18;
  for (int i = 0; i < 18; ++i) {
    size_t u = i * 32 + lane;
    if (u < units) tile[u] = src[u];
  }
  __syncwarp();
}
#define WINDOW_MAT(arr, k) (reinterpret_cast<const su3_matrix *>(tile) + lane * 4 + k)
#define WINDOW_STAGE(arr) stage_chunk(tile, arr, warpSite, lane, total_even_sites)

__global__ void warp_window(DSLASH_PARAMS) {
  extern __shared__ float4 window[];
  size_t mySite = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  size_t warpSite = mySite - lane;
  float4 *tile = window + (threadIdx.x / 32) * 32 * 18;
  // total_even_sites is a multiple of 32 in this probe (checked on the host),
  // so a warp is all live or all dead and the per-warp guard is exact.
  if (mySite < total_even_sites) {
    DSLASH_BODY(WINDOW_MAT, WINDOW_STAGE)
  }
}

__global__ void vector_loads(DSLASH_PARAMS) {
  size_t mySite = blockIdx.x * blockDim.x + threadIdx.x;
  if (mySite < total_even_sites) {
#define VECTOR_MAT(arr, k) load_matrix(arr + mySite * 4 + k, &m)
    su3_matrix m;
    auto load_matrix = [](const su3_matrix *p, su3_matrix *out) {
      const float2 *q = reinterpret_cast<const float2 *>(p);
      float2 *o = reinterpret_cast<float2 *>(out);
      for (int w = 0; w < 9; ++w) o[w] = __ldg(q + w);
      return (const su3_matrix *)out;
    };
    DSLASH_BODY(VECTOR_MAT, NOTHING)
  }
}

// The lattice's neighbour tables, as dslash.h's set_neighbors builds them.
static size_t node_index(int x, int y, int z, int t, size_t sites) {
  int xr = (x + LDIM) % LDIM, yr = (y + LDIM) % LDIM, zr = (z + LDIM) % LDIM,
      tr = (t + LDIM) % LDIM;
  size_t i = xr + LDIM * (yr + LDIM * (zr + LDIM * (size_t)tr));
  return (x + y + z + t) % 2 == 0 ? i / 2 : (i + sites) / 2;
}

typedef void (*Kernel)(DSLASH_PARAMS);

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# %s\n", prop.name);
  const size_t sites = (size_t)LDIM * LDIM * LDIM * LDIM, even = sites / 2;
  std::vector<size_t> fwd(4 * sites), bck(4 * sites), fwd3(4 * sites), bck3(4 * sites);
  for (int x = 0; x < LDIM; x++)
    for (int y = 0; y < LDIM; y++)
      for (int z = 0; z < LDIM; z++)
        for (int t = 0; t < LDIM; t++) {
          size_t i = node_index(x, y, z, t, sites);
          fwd[4 * i + 0] = node_index(x + 1, y, z, t, sites);
          bck[4 * i + 0] = node_index(x - 1, y, z, t, sites);
          fwd[4 * i + 1] = node_index(x, y + 1, z, t, sites);
          bck[4 * i + 1] = node_index(x, y - 1, z, t, sites);
          fwd[4 * i + 2] = node_index(x, y, z + 1, t, sites);
          bck[4 * i + 2] = node_index(x, y, z - 1, t, sites);
          fwd[4 * i + 3] = node_index(x, y, z, t + 1, sites);
          bck[4 * i + 3] = node_index(x, y, z, t - 1, sites);
          fwd3[4 * i + 0] = node_index(x + 3, y, z, t, sites);
          bck3[4 * i + 0] = node_index(x - 3, y, z, t, sites);
          fwd3[4 * i + 1] = node_index(x, y + 3, z, t, sites);
          bck3[4 * i + 1] = node_index(x, y - 3, z, t, sites);
          fwd3[4 * i + 2] = node_index(x, y, z + 3, t, sites);
          bck3[4 * i + 2] = node_index(x, y, z - 3, t, sites);
          fwd3[4 * i + 3] = node_index(x, y, z, t + 3, sites);
          bck3[4 * i + 3] = node_index(x, y, z, t - 3, sites);
        }
  std::mt19937 gen(12345);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  auto random_floats = [&](size_t n) {
    std::vector<float> v(n);
    for (auto &f : v) f = dist(gen);
    return v;
  };
  const size_t matFloats = sites * 4 * 18, vecFloats = sites * 6;
  su3_matrix *d_mat[4];
  for (auto &m : d_mat) {
    auto h = random_floats(matFloats);
    CK(cudaMalloc(&m, matFloats * 4));
    CK(cudaMemcpy(m, h.data(), matFloats * 4, cudaMemcpyHostToDevice));
  }
  su3_vector *d_src, *d_dst;
  auto hsrc = random_floats(vecFloats);
  CK(cudaMalloc(&d_src, vecFloats * 4));
  CK(cudaMalloc(&d_dst, vecFloats * 4));
  CK(cudaMemcpy(d_src, hsrc.data(), vecFloats * 4, cudaMemcpyHostToDevice));
  size_t *d_idx[4];
  std::vector<size_t> *tables[4] = {&fwd, &bck, &fwd3, &bck3};
  for (int i = 0; i < 4; ++i) {
    CK(cudaMalloc(&d_idx[i], 4 * sites * sizeof(size_t)));
    CK(cudaMemcpy(d_idx[i], tables[i]->data(), 4 * sites * sizeof(size_t), cudaMemcpyHostToDevice));
  }
  // The program's own byte count per launch (main.cu's memory_usage / iterations).
  const double bytes = (double)even * (16 * sizeof(su3_matrix) + 8 * sizeof(su3_vector) +
                                       16 * sizeof(size_t) + sizeof(su3_vector));
  if (even % 32) { printf("sites not a multiple of 32\n"); return 1; }
  const int threads = 256;
  const int blocks = (int)((even + threads - 1) / threads);
  const int windowBytes = threads / 32 * 32 * 18 * 16;
  CK(cudaFuncSetAttribute(warp_window, cudaFuncAttributeMaxDynamicSharedMemorySize, windowBytes));

  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto time_ms = [&](auto launch) {
    for (int i = 0; i < 3; ++i) launch();
    CK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int i = 0; i < 20; ++i) {
      CK(cudaEventRecord(e0));
      launch();
      CK(cudaEventRecord(e1));
      CK(cudaEventSynchronize(e1));
      float t;
      CK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  // cudaMemcpy that moves the same bytes: half read, half written.
  void *scratch[2];
  for (auto &p : scratch) CK(cudaMalloc(&p, (size_t)bytes / 2));
  float memcpyMs = time_ms([&] { CK(cudaMemcpyAsync(scratch[0], scratch[1], (size_t)bytes / 2, cudaMemcpyDeviceToDevice)); });
  printf("dslash LDIM=%d %zu even sites, %d x %d threads\n", LDIM, even, blocks, threads);
  printf("%-13s %8.4f ms %6.0f GB/s\n", "memcpy", memcpyMs, bytes / memcpyMs / 1e6);

  struct Variant { const char *name; Kernel kernel; int smem; };
  Variant variants[] = {{"orig", orig, 0},
                        {"warp_records", warp_records, 0},
                        {"warp_window", warp_window, windowBytes},
                        {"vector_loads", vector_loads, 0}};
  std::vector<float> reference(vecFloats), out(vecFloats);
  float origMs = 0;
  int failures = 0;
  for (auto &v : variants) {
    auto launch = [&] {
      v.kernel<<<blocks, threads, v.smem>>>(d_mat[0], d_mat[1], d_mat[2], d_mat[3], d_src, d_dst,
                                           d_idx[0], d_idx[1], d_idx[2], d_idx[3], (int)even);
    };
    CK(cudaMemset(d_dst, 0xff, vecFloats * 4));
    launch();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_dst, vecFloats * 4, cudaMemcpyDeviceToHost));
    if (v.kernel == orig) reference = out;
    bool same = memcmp(out.data(), reference.data(), vecFloats * 4) == 0;
    double maxDiff = 0;
    for (size_t i = 0; i < vecFloats; ++i)
      maxDiff = std::max(maxDiff, (double)std::abs(out[i] - reference[i]));
    failures += maxDiff > 1e-4;
    float ms = time_ms(launch);
    if (v.kernel == orig) origMs = ms;
    cudaFuncAttributes attr;
    CK(cudaFuncGetAttributes(&attr, v.kernel));
    printf("%-13s %8.4f ms %6.0f GB/s %5.2fx %3d regs %6d B smem  %s (max diff %.1e)\n", v.name, ms,
           bytes / ms / 1e6, origMs / ms, attr.numRegs, (int)attr.sharedSizeBytes + v.smem,
           same ? "same" : "DIFFERENT", maxDiff);
  }
  return failures ? 1 : 0;
}
