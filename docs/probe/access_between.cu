// Probe for issue 39 item 6 (guards inside the region): would staging pay
// for the element accesses that COALDA refuses with StagingAccessBetween?
// In these kernels each thread reads its own array-of-structs element (at a
// stride of the element's size), then loops over all N elements (a load of
// the same array whose address changes every iteration: the access between),
// then writes part of its own element. The census's command names them
// (`.venv/bin/coalda analyze FILE --format text -q -O 3 -- -std=c++17`, the
// recipes' flags; the reason is in each access's note):
//   sph (corpus/hecbench/sph-cuda/fluid.cu, 112-byte fluid_particle), 20:
//     updatePressures        loads pos, v, density (130:21, 131:21, 132:41;
//                            64 B), stores density, pressure (139:32,
//                            140:33; 16 B)
//     updateAccelerationsFP  loads pos, v, density, pressure (218:25,
//                            219:25, 220:47, 221:48; 64 B), stores a.x, a.y,
//                            a.z (239:32, 240:32, 241:32; 24 B)
//   nbody (corpus/hecbench/nbody-cuda/GSimulationKernels.hpp, 40-byte
//     Particle), 9:
//     accelerate_particles   loads pos[0..2], acc[0..2] (7:13; 24 B), stores
//                            acc[0..2] (34:8; 12 B: -O3 drops the stores of
//                            pos, vel and mass in `p[i] = pi`, which store
//                            back what is already there)
// The item's belief: once the access between is taken, the kernel-work rule
// (a loop of run-time length beside the staged accesses) would refuse them
// anyway. This measures it. Staging is legal here because the loop only
// reads, the loop reads none of the stored bytes, and every write-back comes
// after the barrier that follows all the tile's threads' loops.
//
// Launches as the programs': 256 threads a block, ceil(N/256) blocks. Sizes:
// sph N = 2048 (fixed in its source; 8 blocks), from the state after 250 of
// its 500 steps, computed here by its own four kernels in its own order;
// nbody n = 8000 (the recipe's args, 32 blocks) and 16000 (its Makefile's
// and default, 63 blocks), from its initial state (GSimulation::Start's).
// The kernels, device functions and sph's host set-up are the corpus's own,
// included below (licenses: corpus/hecbench/LICENSE, nbody's License.txt).
//
// Variants of each kernel:
//   orig    the corpus's kernel, as written
//   twin    the same work written as the staged kernels' fallback path
//           (the thread's work in a device function; the loop's length an
//           argument, here N): the staged kernels' baseline
//   warp    what COALDA would emit: warp tiles (its choice for elements of
//           24 bytes or more), static shared memory for 256 threads; go =
//           __activemask() == full (a full warp, all lanes past the guard),
//           else the fallback; the warp's 32 elements from global into its
//           tile in 16-byte units (the row start's alignment tested at run
//           time, else member-wide), consecutive lanes moving consecutive
//           units, all of a lane's loads before its stores; __syncwarp; the
//           thread reads and writes its element in the tile around the
//           loop, which still reads global memory; __syncwarp; the tile's
//           stored units back, in the widest unit that keeps the stored
//           bytes whole (sph updatePressures 16 B, updateAccelerationsFP
//           8 B, nbody 4 B), the other units skipped
//   warp4   warp, with 4-byte units both ways
//   block   warp, with one block tile: go = __syncthreads_and(blockDim.x ==
//           256 && i < N) before the guard's return, __syncthreads for the
//           barriers
// and the same four with the loop run once (`/1`, against `orig/1`, the
// twin with m = 1): what staging the own-element accesses gains when no
// O(N) loop hides them.
// Check: the whole particle array after one launch from the same state,
// memcmp'd against orig's (against orig/1's for /1). The kernels work in
// place, so instead of a 0xff output the written-only members start as
// 0xff (sph: pressure for updatePressures, a for updateAccelerationsFP):
// a staged thread that skipped its write-back leaves them so; nbody's acc
// is read first, and starts as the program's 0.
// Timing: CUDA events, the median of 30 launches after one warm-up, from
// the state restored before each variant (updatePressures and
// accelerate_particles accumulate into what they read). Rate: pair
// interactions (N * loop length) per ns; memcpy: the particle array device
// to device, for scale.
// Small (argument `small`, for compute-sanitizer): sph with 500 particles
// after 2 steps, nbody with 1000 (partial warps and blocks: the fallback
// runs), one timed launch.
// Cross-checked on COALDA's CPU emulator (coalda.emulator, on this file's
// device IR) before any GPU run: every variant's bytes equal orig's at sph
// n = 77, 300, 512 and nbody n = 64, 300, 1000 under the forward, shuffled
// and strided schedules, and a write-back that skips density or acc[2] is
// caught.
// Build: .venv/bin/coalda cc -arch sm_90 -std=c++17 -O3 -fno-coalda
//   docs/probe/access_between.cu -o access_between (run_access_between.sh)
// Run: access_between [sph|nbody|all] [small]
//
// What the pass says when it builds this file (-Wcoalda, without
// -fno-coalda): see the end of this file.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>
#include <cuda_runtime.h>

// sph as the corpus holds it: the kernels and device functions of fluid.cu,
// its initParams, initParticles and eulerStart, geometry.cu's boundary box;
// fileio.cu for the writeFile its main() calls; that main() renamed out of
// the way.
#define main hecbench_sph_main
#include "../../corpus/hecbench/sph-cuda/fluid.cu"
#undef main
#include "../../corpus/hecbench/sph-cuda/geometry.cu"
#include "../../corpus/hecbench/sph-cuda/fileio.cu"

// nbody's particle and its three kernels, as the corpus holds them.
#include "../../corpus/hecbench/nbody-cuda/Particle.hpp"
#include "../../corpus/hecbench/nbody-cuda/GSimulationKernels.hpp"

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

// ---- staging, as COALDA's element staging does it ------------------------

constexpr int kBlock = 256;  // the programs' block: the tiles are sized for it
enum Tile { WARP, BLOCK };

// Units as vector types: one ld/st.v4.u32 (v2) each, where copying a uint4
// struct is a 16-byte memcpy that clang splits and may leave on the stack.
typedef uint32_t u32x4 __attribute__((ext_vector_type(4)));
typedef uint32_t u32x2 __attribute__((ext_vector_type(2)));
template <int U> using unit_t =
    std::conditional_t<U == 16, u32x4, std::conditional_t<U == 8, u32x2, uint32_t>>;

// Whether byte b of a row of S-byte elements is one the stores write.
constexpr bool stored(int S, int LO, int HI, int b) { return b % S >= LO && b % S < HI; }

// Whether every U-byte unit of a row lies wholly inside or wholly outside the
// stored bytes (the pass's unitKeepsMask): only such units can be written
// back whole without writing bytes the kernel does not.
constexpr bool keeps_mask(int S, int U, int LO, int HI) {
  for (int k = 0; k < S; k++)  // S units cover a period, lcm(S, U) / U
    for (int b = 1; b < U; b++)
      if (stored(S, LO, HI, k * U + b) != stored(S, LO, HI, k * U)) return false;
  return true;
}

// The pass's write-back unit: 16 or 8 bytes when wider than a member and the
// mask allows, else the member's width.
constexpr int store_unit(int S, int MW, int LO, int HI) {
  return MW < 16 && keeps_mask(S, 16, LO, HI) ? 16 : MW < 8 && keeps_mask(S, 8, LO, HI) ? 8 : MW;
}

// Moves a row of T elements of S bytes between global memory (g) and the
// tile (t): thread `lane` of the T moves units lane, lane + T, ... of U
// bytes, all its loads before its stores so they are in flight together.
// Into global memory (IN false) only the units of stored bytes [LO, HI).
template <int S, int T, int U, bool IN, int LO = 0, int HI = S>
__device__ __forceinline__ void move_row(unsigned char *g, unsigned char *t, int lane) {
  using V = unit_t<U>;
  constexpr int N = S * T / U, R = (N + T - 1) / T;
  static_assert(S * T % U == 0, "a row is whole units");
  static_assert(IN || keeps_mask(S, U, LO, HI), "a unit straddles stored and other bytes");
  const V *from = reinterpret_cast<const V *>(IN ? g : t);
  V *to = reinterpret_cast<V *>(IN ? t : g);
  V v[R];
#pragma unroll
  for (int r = 0; r < R; r++) {
    const int k = lane + r * T;
    if (k < N && (IN || stored(S, LO, HI, k * U))) v[r] = from[k];
  }
#pragma unroll
  for (int r = 0; r < R; r++) {
    const int k = lane + r * T;
    if (k < N && (IN || stored(S, LO, HI, k * U))) to[k] = v[r];
  }
}

template <Tile TL> __device__ __forceinline__ void tile_barrier() {
  if constexpr (TL == WARP) __syncwarp(); else __syncthreads();
}

// The staged form of a kernel whose thread i (i < n) runs body(in, out) on
// its element E arr[i], reading it through `in` before writing it through
// `out`. MW: the width of E's members; [LO, HI): the bytes of E the body
// stores; UL, US: the units of the load and store phases (0: the pass's).
// Threads that do not go run body on global memory, as the original does.
template <class E, Tile TL, int UL, int US, int MW, int LO, int HI, class Body>
__device__ __forceinline__ void staged(E *arr, int i, int n, Body body) {
  constexpr int S = sizeof(E), T = TL == WARP ? 32 : kBlock;
  constexpr int L = UL ? UL : 16, St = US ? US : store_unit(S, MW, LO, HI);
  __shared__ __align__(16) unsigned char tile[kBlock * S];
  bool go = false;
  // A block tile needs every thread at its barriers: the vote comes before
  // the guard's return, and a block with any thread past n runs the fallback.
  if constexpr (TL == BLOCK) go = __syncthreads_and(blockDim.x == kBlock && i < n);
  if (i >= n) return;
  if constexpr (TL == WARP) go = blockDim.x <= kBlock && __activemask() == 0xffffffffu;
  if (!go) {
    body(arr + i, arr + i);
    return;
  }
  const int t = TL == WARP ? threadIdx.x & 31 : threadIdx.x;  // the thread's place in its row
  unsigned char *g = reinterpret_cast<unsigned char *>(arr + (i - t));
  unsigned char *rows = tile + (threadIdx.x - t) * S;  // the warp's slice, or the whole tile
  if (L == MW || reinterpret_cast<uintptr_t>(g) % L == 0)
    move_row<S, T, L, true>(g, rows, t);
  else
    move_row<S, T, MW, true>(g, rows, t);
  tile_barrier<TL>();
  E *slot = reinterpret_cast<E *>(rows) + t;
  body(slot, slot);
  tile_barrier<TL>();
  if (St == MW || reinterpret_cast<uintptr_t>(g) % St == 0)
    move_row<S, T, St, false, LO, HI>(g, rows, t);
  else
    move_row<S, T, MW, false, LO, HI>(g, rows, t);
}

// ---- sph ------------------------------------------------------------------

// updatePressures' work for its particle, m iterations (the program's: n).
__device__ __forceinline__ void pressures_thread(const fluid_particle *fluid_particles, const param *params,
                                                 int m, const fluid_particle *in, fluid_particle *out) {
  double3 p_pos = in->pos;
  double3 p_v = in->v;
  double density = in->density;
  for (int j = 0; j < m; j++) {
    double3 q_pos = fluid_particles[j].pos;
    double3 q_v = fluid_particles[j].v;
    density += computeDensity(p_pos, p_v, q_pos, q_v, params);
  }
  out->density = density;
  out->pressure = computePressure(density, params);
}

// updateAccelerationsFP's work for its particle i, m iterations.
__device__ __forceinline__ void accelerations_thread(const fluid_particle *fluid_particles, const param *params,
                                                     int m, int i, const fluid_particle *in, fluid_particle *out) {
  double ax = 0.0;
  double ay = 0.0;
  double az = -9.8;
  double3 p_pos = in->pos;
  double3 p_v = in->v;
  double p_density = in->density;
  double p_pressure = in->pressure;
  for (int j = 0; j < m; j++) {
    if (i != j) {
      double3 q_pos = fluid_particles[j].pos;
      double3 q_v = fluid_particles[j].v;
      double q_density = fluid_particles[j].density;
      double q_pressure = fluid_particles[j].pressure;
      double3 tmp_a = computeAcceleration(p_pos, p_v, p_density, p_pressure, q_pos, q_v, q_density,
                                          q_pressure, params);
      ax += tmp_a.x;
      ay += tmp_a.y;
      az += tmp_a.z;
    }
  }
  out->a.x = ax;
  out->a.y = ay;
  out->a.z = az;
}

__global__ void pressures_twin(fluid_particle *__restrict__ fluid_particles, const param *__restrict__ params, int m) {
  int n = params->number_fluid_particles;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  pressures_thread(fluid_particles, params, m, fluid_particles + i, fluid_particles + i);
}

template <Tile TL, int U>
__global__ void pressures_staged(fluid_particle *__restrict__ fluid_particles, const param *__restrict__ params, int m) {
  int n = params->number_fluid_particles;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  staged<fluid_particle, TL, U, U, 8, 0, 16>(fluid_particles, i, n, [&](const fluid_particle *in, fluid_particle *out) {
    pressures_thread(fluid_particles, params, m, in, out);
  });
}

__global__ void accelerations_twin(fluid_particle *__restrict__ fluid_particles, const param *__restrict__ params, int m) {
  int n = params->number_fluid_particles;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i >= n) return;
  accelerations_thread(fluid_particles, params, m, i, fluid_particles + i, fluid_particles + i);
}

template <Tile TL, int U>
__global__ void accelerations_staged(fluid_particle *__restrict__ fluid_particles, const param *__restrict__ params, int m) {
  int n = params->number_fluid_particles;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  staged<fluid_particle, TL, U, U, 8, 88, 112>(fluid_particles, i, n, [&](const fluid_particle *in, fluid_particle *out) {
    accelerations_thread(fluid_particles, params, m, i, in, out);
  });
}

// ---- nbody ----------------------------------------------------------------

// accelerate_particles' work for its particle, m iterations (the program's: n).
__device__ __forceinline__ void accelerate_thread(const Particle *p, int m, const float kSofteningSquared,
                                                  const float kG, const Particle *in, Particle *out) {
  auto pi = *in;
  RealType acc0 = pi.acc[0];
  RealType acc1 = pi.acc[1];
  RealType acc2 = pi.acc[2];
  for (int j = 0; j < m; j++) {
    RealType dx, dy, dz;
    RealType distance_sqr = 0.0f;
    RealType distance_inv = 0.0f;

    auto pj = p[j];
    dx = pj.pos[0] - pi.pos[0];
    dy = pj.pos[1] - pi.pos[1];
    dz = pj.pos[2] - pi.pos[2];

    distance_sqr = dx * dx + dy * dy + dz * dz + kSofteningSquared;
    distance_inv = rsqrtf(distance_sqr);

    auto strength = kG * pj.mass * distance_inv * distance_inv * distance_inv;

    acc0 += dx * strength;
    acc1 += dy * strength;
    acc2 += dz * strength;
  }
  pi.acc[0] = acc0;
  pi.acc[1] = acc1;
  pi.acc[2] = acc2;
  *out = pi;
}

__global__ void accelerate_twin(Particle *p, const int n, const float kSofteningSquared, const float kG, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  accelerate_thread(p, m, kSofteningSquared, kG, p + i, p + i);
}

// acc is bytes 24-35 of the 40-byte Particle: all the stores write (above).
template <Tile TL, int U>
__global__ void accelerate_staged(Particle *p, const int n, const float kSofteningSquared, const float kG, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  staged<Particle, TL, U, U, 4, 24, 36>(p, i, n, [&](const Particle *in, Particle *out) {
    accelerate_thread(p, m, kSofteningSquared, kG, in, out);
  });
}

// ---- the runs -------------------------------------------------------------

static cudaEvent_t e0, e1;
static int reps = 30;
template <class F> static float timeit(F launch) {
  launch(); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

struct Var {
  const char *name;
  const void *kernel;               // for its registers and shared memory
  std::function<void(int m)> launch;  // m: the loop's length, where it has one
  bool full;                        // the loop as the program runs it (else once)
};

// Each variant: timed from `state` (restored first), then checked from
// `check` (one launch), its bytes against the first variant of its kind
// (orig for the full loop, orig/1 for the loop run once). Returns whether
// all agreed; `out` gets orig's bytes.
static bool run_variants(const char *prog, const char *kern, int n, int grid, const std::vector<Var> &vars,
                         void *dev, const void *state, const void *check, size_t bytes, double pairs_full,
                         std::vector<unsigned char> &out) {
  bool ok = true;
  std::vector<unsigned char> want[2], got(bytes);
  float tref[2] = {0, 0};
  for (const Var &v : vars) {
    const int k = v.full ? 0 : 1;
    const int m = v.full ? n : 1;
    CK(cudaMemcpy(dev, state, bytes, cudaMemcpyDeviceToDevice));
    const float t = timeit([&] { v.launch(m); });
    CK(cudaMemcpy(dev, check, bytes, cudaMemcpyDeviceToDevice));
    v.launch(m);
    CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
    CK(cudaMemcpy(got.data(), dev, bytes, cudaMemcpyDeviceToHost));
    if (want[k].empty()) { want[k] = got; tref[k] = t; }
    const bool same = !memcmp(got.data(), want[k].data(), bytes);
    ok &= same;
    cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, v.kernel));
    const double pairs = v.full ? pairs_full : (double)n;
    printf("%s n=%d grid %d block %d %-21s %-8s %9.4f ms %8.3f Gpairs/s %5.2fx %3d regs %6zu B smem %s\n", prog, n,
           grid, kBlock, kern, v.name, t, pairs / t / 1e6, tref[k] / t, fa.numRegs, fa.sharedSizeBytes,
           same ? "same" : "DIFFERENT");
  }
  out = want[0];
  return ok;
}

static void memcpy_line(const char *prog, int n, size_t bytes) {
  void *a, *b;
  CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 0, bytes));
  const float t = timeit([&] { CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice)); });
  printf("%s n=%d memcpy %zu B (the particle array) %.4f ms %.0f GB/s\n", prog, n, bytes, t, 2.0 * bytes / t / 1e6);
  CK(cudaFree(a)); CK(cudaFree(b));
}

static bool sph(bool small) {
  // the program's set-up, as its main() does it (initParams prints a line)
  param params;
  AABB water_volume, boundary_volume;
  fluid_particle *fluid_particles = NULL;
  boundary_particle *boundary_particles = NULL;
  initParams(&water_volume, &boundary_volume, &params);
  initParticles(&fluid_particles, &boundary_particles, &water_volume, &boundary_volume, &params);
  eulerStart(fluid_particles, boundary_particles, &params);
  const int nall = params.number_fluid_particles, nb = params.number_boundary_particles;
  if (small) params.number_fluid_particles = std::min(nall, 500);  // every kernel reads n from params
  const int n = params.number_fluid_particles, steps = small ? 2 : 250;
  const size_t bytes = nall * sizeof(fluid_particle);

  fluid_particle *d_fluid_particles, *state, *check;
  boundary_particle *d_boundary_particles;
  param *d_params;
  CK(cudaMalloc(&d_fluid_particles, bytes)); CK(cudaMalloc(&state, bytes)); CK(cudaMalloc(&check, bytes));
  CK(cudaMalloc(&d_boundary_particles, nb * sizeof(boundary_particle)));
  CK(cudaMalloc(&d_params, sizeof(param)));
  CK(cudaMemcpy(d_fluid_particles, fluid_particles, bytes, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_boundary_particles, boundary_particles, nb * sizeof(boundary_particle), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d_params, &params, sizeof(param), cudaMemcpyHostToDevice));

  // the program's steps, to a state from the middle of its run
  dim3 block1D(256);
  dim3 grid1D_FP((n + 255) / 256);
  dim3 grid1D_BP((nb + 255) / 256);
  for (int s = 0; s < steps; s++) {
    updatePressures<<<grid1D_FP, block1D>>>(d_fluid_particles, d_params);
    updateAccelerationsFP<<<grid1D_FP, block1D>>>(d_fluid_particles, d_params);
    updateAccelerationsBP<<<grid1D_BP, block1D>>>(d_fluid_particles, d_boundary_particles, d_params);
    updatePositions<<<grid1D_FP, block1D>>>(d_fluid_particles, d_params);
  }
  CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  CK(cudaMemcpy(state, d_fluid_particles, bytes, cudaMemcpyDeviceToDevice));
  std::vector<fluid_particle> h(nall);
  CK(cudaMemcpy(h.data(), state, bytes, cudaMemcpyDeviceToHost));
  printf("sph n=%d after %d steps: %d blocks of %d, %d boundary particles\n", n, steps, grid1D_FP.x, block1D.x, nb);
  memcpy_line("sph", n, bytes);

  fluid_particle *fp = d_fluid_particles;
  const param *pp = d_params;
  const dim3 g = grid1D_FP, b = block1D;
  using K = void (*)(fluid_particle *, const param *, int);
  // orig, then twin, warp, warp4 and block with the loop as written and run once
  auto sph_vars = [&](const void *orig, std::function<void()> launch_orig, K twin, K warp, K warp4, K block) {
    std::vector<Var> vars;
    vars.push_back({"orig", orig, [=](int) { launch_orig(); }, true});
    struct { const char *name, *bound; K k; } ks[] = {
        {"twin", "orig/1", twin}, {"warp", "warp/1", warp}, {"warp4", "warp4/1", warp4}, {"block", "block/1", block}};
    for (auto &k : ks) vars.push_back({k.name, (const void *)k.k, [=](int m) { k.k<<<g, b>>>(fp, pp, m); }, true});
    for (auto &k : ks) vars.push_back({k.bound, (const void *)k.k, [=](int m) { k.k<<<g, b>>>(fp, pp, m); }, false});
    return vars;
  };

  bool ok = true;
  std::vector<unsigned char> out;
  // updatePressures: pressure is written only, so it starts as 0xff
  std::vector<fluid_particle> c = h;
  for (auto &q : c) memset(&q.pressure, 0xff, sizeof q.pressure);
  CK(cudaMemcpy(check, c.data(), bytes, cudaMemcpyHostToDevice));
  ok &= run_variants("sph", "updatePressures", n, g.x,
                     sph_vars((const void *)updatePressures, [=] { updatePressures<<<g, b>>>(fp, pp); },
                              pressures_twin, pressures_staged<WARP, 0>,
                              pressures_staged<WARP, 4>, pressures_staged<BLOCK, 0>),
                     fp, state, check, bytes, (double)n * n, out);
  const fluid_particle *o = reinterpret_cast<const fluid_particle *>(out.data());
  printf("sph n=%d updatePressures out[%d]: density %.6f pressure %.6f\n", n, n / 2, o[n / 2].density, o[n / 2].pressure);
  // updateAccelerationsFP: a is written only
  c = h;
  for (auto &q : c) memset(&q.a, 0xff, sizeof q.a);
  CK(cudaMemcpy(check, c.data(), bytes, cudaMemcpyHostToDevice));
  ok &= run_variants("sph", "updateAccelerationsFP", n, g.x,
                     sph_vars((const void *)updateAccelerationsFP, [=] { updateAccelerationsFP<<<g, b>>>(fp, pp); },
                              accelerations_twin, accelerations_staged<WARP, 0>,
                              accelerations_staged<WARP, 4>, accelerations_staged<BLOCK, 0>),
                     fp, state, check, bytes, (double)n * n, out);
  o = reinterpret_cast<const fluid_particle *>(out.data());
  printf("sph n=%d updateAccelerationsFP out[%d]: a %.6f %.6f %.6f\n", n, n / 2, o[n / 2].a.x, o[n / 2].a.y, o[n / 2].a.z);

  CK(cudaFree(d_fluid_particles)); CK(cudaFree(state)); CK(cudaFree(check));
  CK(cudaFree(d_boundary_particles)); CK(cudaFree(d_params));
  finalizeParticles(fluid_particles, boundary_particles);
  return ok;
}

static bool nbody(int n) {
  // GSimulation::Start's initial state (InitPos, InitVel, InitAcc, InitMass)
  std::vector<Particle> h(n);
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(0, 1.0);
    for (int i = 0; i < n; ++i) {
      h[i].pos[0] = unif_d(gen);
      h[i].pos[1] = unif_d(gen);
      h[i].pos[2] = unif_d(gen);
    }
  }
  {
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(-1.0, 1.0);
    for (int i = 0; i < n; ++i) {
      h[i].vel[0] = unif_d(gen) * 1.0e-3f;
      h[i].vel[1] = unif_d(gen) * 1.0e-3f;
      h[i].vel[2] = unif_d(gen) * 1.0e-3f;
    }
  }
  for (int i = 0; i < n; ++i) h[i].acc[0] = h[i].acc[1] = h[i].acc[2] = 0.f;
  {
    RealType nn = static_cast<RealType>(n);
    std::mt19937 gen(42);
    std::uniform_real_distribution<RealType> unif_d(0.0, 1.0);
    for (int i = 0; i < n; ++i) h[i].mass = nn * unif_d(gen);
  }
  constexpr float kSofteningSquared = 1e-3f;
  constexpr float kG = 6.67259e-11f;
  const size_t bytes = n * sizeof(Particle);
  Particle *p, *state;
  CK(cudaMalloc(&p, bytes)); CK(cudaMalloc(&state, bytes));
  CK(cudaMemcpy(state, h.data(), bytes, cudaMemcpyHostToDevice));
  memcpy_line("nbody", n, bytes);

  const dim3 grids((n + 255) / 256), threads(256);
  std::vector<Var> vars;
  vars.push_back({"orig", (const void *)accelerate_particles,
                  [=](int) { accelerate_particles<<<grids, threads>>>(p, n, kSofteningSquared, kG); }, true});
  struct { const char *name, *bound; void (*k)(Particle *, int, float, float, int); } ks[] = {
      {"twin", "orig/1", accelerate_twin},
      {"warp", "warp/1", accelerate_staged<WARP, 0>},
      {"warp4", "warp4/1", accelerate_staged<WARP, 4>},
      {"block", "block/1", accelerate_staged<BLOCK, 0>}};
  for (auto &k : ks)
    vars.push_back({k.name, (const void *)k.k, [=](int m) { k.k<<<grids, threads>>>(p, n, kSofteningSquared, kG, m); }, true});
  for (auto &k : ks)
    vars.push_back({k.bound, (const void *)k.k, [=](int m) { k.k<<<grids, threads>>>(p, n, kSofteningSquared, kG, m); }, false});
  std::vector<unsigned char> out;
  const bool ok = run_variants("nbody", "accelerate_particles", n, grids.x, vars, p, state, state, bytes, (double)n * n, out);
  const Particle *o = reinterpret_cast<const Particle *>(out.data());
  printf("nbody n=%d out[%d]: acc %.6g %.6g %.6g\n", n, n / 2, o[n / 2].acc[0], o[n / 2].acc[1], o[n / 2].acc[2]);
  CK(cudaFree(p)); CK(cudaFree(state));
  return ok;
}

int main(int argc, char **argv) {
  const std::string which = argc > 1 ? argv[1] : "all";
  const bool small = argc > 2 && std::string(argv[2]) == "small";
  if (which != "sph" && which != "nbody" && which != "all") {
    fprintf(stderr, "usage: %s [sph|nbody|all] [small]\n", argv[0]);
    return 2;
  }
  if (small) reps = 1;
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  printf("# %s\n", prop.name);
  bool ok = true;
  if (which != "nbody") ok &= sph(small);
  if (which != "sph")
    for (int n : small ? std::vector<int>{1000} : std::vector<int>{8000, 16000}) ok &= nbody(n);
  printf(ok ? "all same\n" : "SOME DIFFERENT\n");
  return ok ? 0 : 1;
}

// What the pass says about this file: `.venv/bin/coalda cc -arch sm_90
// -std=c++17 -O3 -Wcoalda docs/probe/access_between.cu` (LLVM 19, 2026-12-04):
// "2 rewritten, 112 left alone, in 19 kernels". Its notes name the included
// corpus files' lines under this file's name (fluid.cu:130 reads
// "access_between.cu:130"); in the corpus's own names:
//   updatePressures (fluid.cu:130), updateAccelerationsFP (fluid.cu:218),
//   accelerate_particles (GSimulationKernels.hpp:7): left alone, "the address
//     of a load of fluid_particles at line 135:25 [225:33; of p at 16:15]
//     changes from one iteration of a loop between the accesses to the next,
//     so its overlap with the staged elements cannot be checked first"
//     (StagingAccessBetween); their stores also as copy groups: "not a pure
//     copy"
//   pressures_twin, accelerations_twin, accelerate_twin and the staged
//     kernels' fallback paths: the same refusal; the staged kernels' row
//     copies: "already coalesced"
//   updateAccelerationsBP (fluid.cu:254): left alone by the kernel-work rule
//     ("each thread also runs a loop of run-time length (line 259) beside
//     the staged accesses ...")
//   rewritten, neither timed here: updatePositions (fluid.cu:288, warp tiles,
//     28672 B; it only makes sph's state) and update_particles
//     (GSimulationKernels.hpp:45, warp tiles). The probe's build has
//     -fno-coalda: every variant above is as written here.
