// Probe (issue 39, item 5): why COALDA's per-iteration record refill of
// dslash's matrices (-coalda-window-iteration-bytes=32 with warp scope)
// measured 0.79x where the hand-written warp_records gained 1.48x
// (dslash_records.cu). Each variant stages the k-th 72-byte matrix of the
// warp's 32 sites into a per-warp tile and the thread's mat-vec reads its own
// row; they differ in one thing at a time:
//   UNIT    4 or 8 bytes a move
//   FLAT    rows: lane l moves unit l % P of row l / P + G*r on request r
//           (G = 32 / P rows a request; the pass's moveRecords: 32 requests
//           of 18 lanes for 4-byte units); flat: lane l moves unit 32*i + l
//           of the warp's 32*P units on request i (P requests, every lane)
//   EARLY   the loads issued before the opening __syncwarp (they do not
//           touch the tile), or after it (the pass's order)
//   PITCH   the tile's row pitch in 4-byte words (19: the pass's 76 bytes;
//           18: the probe's 72)
//   TILE    threads the static tile is sized for (512: the pass's 38,912
//           bytes; 256: the launch's)
// Timing: CUDA events, median of 20 launches after 3 warm-ups. Outputs are
// compared byte for byte with orig's.
// Build: nvcc -O3 -arch=sm_90 dslash_units.cu -o dslash_units
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
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


template <int UNIT, bool FLAT, bool EARLY, int PITCH, int TILE>
__device__ inline const su3_matrix *
stage_units(float *tiles, const su3_matrix *arr, size_t warpSite, int lane,
            size_t k) {
  typedef typename std::conditional<UNIT == 8, float2, float>::type Unit;
  constexpr int P = 72 / UNIT, G = 32 / P, R = FLAT ? P : (32 + G - 1) / G;
  constexpr int PU = PITCH * 4 / UNIT; // pitch in units
  Unit *tile = reinterpret_cast<Unit *>(tiles + (threadIdx.x - lane) * PITCH);
  const Unit *src = reinterpret_cast<const Unit *>(arr + warpSite * 4 + k);
  constexpr int SU = 288 / UNIT; // site stride in units
  Unit v[R];
  int row[R], col[R];
  bool on[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    if (FLAT) {
      int u = r * 32 + lane;
      row[r] = u / P; col[r] = u % P; on[r] = true;
    } else {
      row[r] = r * G + lane / P; col[r] = lane % P;
      on[r] = lane < G * P && row[r] < 32;
    }
  }
  if (!EARLY) __syncwarp();
#pragma unroll
  for (int r = 0; r < R; ++r)
    v[r] = src[(on[r] ? row[r] : 0) * SU + (on[r] ? col[r] : 0)];
  if (EARLY) __syncwarp();
#pragma unroll
  for (int r = 0; r < R; ++r)
    if (on[r]) tile[row[r] * PU + col[r]] = v[r];
  __syncwarp();
  return reinterpret_cast<const su3_matrix *>(tiles + threadIdx.x * PITCH);
}

template <int UNIT, bool FLAT, bool EARLY, int PITCH, int TILE>
__global__ void staged(DSLASH_PARAMS) {
  __shared__ __align__(16) float tiles[TILE * PITCH];
  size_t mySite = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  size_t warpSite = mySite - lane;
  // The probe's sites are a multiple of 32 and of the block (checked).
  if (mySite < total_even_sites) {
#define UNITS_MAT(arr, k) stage_units<UNIT, FLAT, EARLY, PITCH, TILE>(tiles, arr, warpSite, lane, k)
    DSLASH_BODY(UNITS_MAT, NOTHING)
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
  if (even % 256) { printf("sites not a multiple of 32\n"); return 1; }
  const int threads = 256;
  const int blocks = (int)((even + threads - 1) / threads);

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
  Variant variants[] = {
      {"orig", orig, 0},
      {"pass:rows4,late,p19,t512", staged<4, false, false, 19, 512>, 0},
      {"rows4,late,p19,t256", staged<4, false, false, 19, 256>, 0},
      {"rows4,early,p19,t512", staged<4, false, true, 19, 512>, 0},
      {"flat4,late,p19,t512", staged<4, true, false, 19, 512>, 0},
      {"flat4,early,p19,t512", staged<4, true, true, 19, 512>, 0},
      {"flat4,early,p19,t256", staged<4, true, true, 19, 256>, 0},
      {"rows8,late,p18,t512", staged<8, false, false, 18, 512>, 0},
      {"flat8,late,p18,t256", staged<8, true, false, 18, 256>, 0},
      {"flat8,early,p18,t256", staged<8, true, true, 18, 256>, 0},
      {"flat8,early,p18,t512", staged<8, true, true, 18, 512>, 0},
      {"flat8,early,p20,t512", staged<8, true, true, 20, 512>, 0}};
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
    printf("%-26s %8.4f ms %6.0f GB/s %5.2fx %3d regs %6d B smem  %s (max diff %.1e)\n", v.name, ms,
           bytes / ms / 1e6, origMs / ms, attr.numRegs, (int)attr.sharedSizeBytes + v.smem,
           same ? "same" : "DIFFERENT", maxDiff);
  }
  return failures ? 1 : 0;
}
