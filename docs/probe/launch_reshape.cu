// Probe for issue 40 (launch reshaping): times naive kernels whose launch
// COALDA may reshape, with CUDA events, and verifies every result byte for
// byte on the host:
//   copy_naive          3-byte Pixel copy, n = 1<<26, blocks 128..1024
//   copy_naive_guarded  the same with an i < n guard, n = (1<<26) - 3
//   transpose_naive     8192x8192 floats at 32x8 and 16x16 threads
//   copy_float          reference float copy of 8192*8192 floats, 256 threads
//   memcpy_pixels/floats  cudaMemcpy device-to-device of the same bytes
// Each series: 1 warm-up launch, then R timed launches (R = argv[1] or 20),
// each between its own cudaEventRecord pair; median/min/max in ms and
// GB/s = (bytes read + bytes written) / median. dst is poisoned with 0xAB and
// has a 64-byte guard zone past its end that must stay 0xAB.
// Built twice, and the two runs compared:
//   coalda cc -O3 -arch sm_90 launch_reshape.cu -o launch_reshape_coalda
//   coalda cc -fno-coalda -O3 -arch sm_90 launch_reshape.cu -o launch_reshape_plain
// Output: "# device <name> sms <count>", then one line per measurement
//   kernel block median_ms min_ms max_ms GBps verdict
// then "launch_overhead <pixels> <us per launch>": copy_naive at 256 threads
// launched 10,000 times back to back, host wall time per launch (the cost
// of the run-time choice: 2^16 pixels, a grid the device holds at once, so
// the original; 2^22, reshaped); then "launch_cost <kernel> <form>
// stub_us <a> direct_us <b> extra_us <a - b> wall_us <c> <d>" per kernel of
// each form of the choice (below, launchCost), with "cuda_get_device_ns
// <ns>" before them (what cudaGetDevice costs), and last "# env
// COALDA_LAUNCH=<value or unset>" (documents the run only).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

#define CK(call)                                                                  \
  do {                                                                            \
    cudaError_t e_ = (call);                                                      \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "CUDA error: %s -> %s (line %d)\n", #call,                 \
              cudaGetErrorString(e_), __LINE__);                                  \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

struct Pixel { unsigned char r, g, b; };
__global__ void copy_naive(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b;
}
__global__ void copy_naive_guarded(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b; }
}
__global__ void transpose_naive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}
__global__ void copy_float(float *out, const float *in, int n) {   // the reference copy kernel
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}
// A kernel of the rewrite form (staged through warp tiles, kept as written
// beside its rewrite in a reshape build): records updated in place, 12 of
// their 24 bytes written.
struct Particle { float x, y, z, vx, vy, vz; };
__global__ void advance(Particle *p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    p[i].z += p[i].vz * dt;
  }
}

// argv[2] = "small": 2^20 pixels and a 1024x1024 transpose, for the
// sanitizers (still more blocks than the device holds at once), without the
// float copy (not rewritten).
static int kPixels = 1 << 26;
static int kSide = 8192;
static const size_t kGuard = 64;
static size_t kSrcBytes = (size_t)kSide * kSide * sizeof(float);  // >= 3 * kPixels

static int g_reps = 20;
static bool g_failed = false;
static unsigned char *d_src = nullptr;  // kSrcBytes of LCG bytes, uploaded once
static std::vector<unsigned char> h_src;

enum Op { OP_COPY_NAIVE, OP_COPY_GUARDED, OP_TRANSPOSE, OP_COPY_FLOAT, OP_MEMCPY };

// One launch (or memcpy) of the series; plain <<<grid, block>>> sites.
static void launch(Op op, unsigned char *dst, size_t bytes, int n, int bx, int by) {
  switch (op) {
  case OP_COPY_NAIVE: {
    dim3 block(bx), grid(n / bx);
    copy_naive<<<grid, block>>>((Pixel *)dst, (const Pixel *)d_src);
    break;
  }
  case OP_COPY_GUARDED: {
    dim3 block(bx), grid((n + bx - 1) / bx);
    copy_naive_guarded<<<grid, block>>>((Pixel *)dst, (const Pixel *)d_src, n);
    break;
  }
  case OP_TRANSPOSE: {
    dim3 block(bx, by), grid((kSide + bx - 1) / bx, (kSide + by - 1) / by);
    transpose_naive<<<grid, block>>>((float *)dst, (const float *)d_src, kSide, kSide);
    break;
  }
  case OP_COPY_FLOAT: {
    dim3 block(bx), grid((n + bx - 1) / bx);
    copy_float<<<grid, block>>>((float *)dst, (const float *)d_src, n);
    break;
  }
  case OP_MEMCPY:
    CK(cudaMemcpy(dst, d_src, bytes, cudaMemcpyDeviceToDevice));
    break;
  }
  CK(cudaGetLastError());
}

// Expected dst contents (bytes long) for the op.
static bool verify(Op op, const std::vector<unsigned char> &got, size_t bytes) {
  if (op == OP_TRANSPOSE) {
    const uint32_t *in = (const uint32_t *)h_src.data();
    const uint32_t *out = (const uint32_t *)got.data();
    for (size_t y = 0; y < (size_t)kSide; ++y)
      for (size_t x = 0; x < (size_t)kSide; ++x)
        if (out[x * kSide + y] != in[y * kSide + x]) return false;
  } else if (memcmp(got.data(), h_src.data(), bytes) != 0) {
    return false;
  }
  for (size_t k = bytes; k < bytes + kGuard; ++k)
    if (got[k] != 0xAB) return false;
  return true;
}

static void series(const char *name, const char *block, Op op, size_t bytes, int n, int bx, int by) {
  unsigned char *dst = nullptr;
  CK(cudaMalloc(&dst, bytes + kGuard));
  CK(cudaMemset(dst, 0xAB, bytes + kGuard));
  CK(cudaDeviceSynchronize());

  launch(op, dst, bytes, n, bx, by);  // warm-up
  CK(cudaDeviceSynchronize());

  std::vector<cudaEvent_t> ev(2 * g_reps);
  for (auto &e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < g_reps; ++r) {
    CK(cudaEventRecord(ev[2 * r]));
    launch(op, dst, bytes, n, bx, by);
    CK(cudaEventRecord(ev[2 * r + 1]));
  }
  CK(cudaDeviceSynchronize());
  std::vector<float> ms(g_reps);
  for (int r = 0; r < g_reps; ++r) CK(cudaEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
  for (auto &e : ev) CK(cudaEventDestroy(e));

  std::vector<unsigned char> got(bytes + kGuard);
  CK(cudaMemcpy(got.data(), dst, bytes + kGuard, cudaMemcpyDeviceToHost));
  CK(cudaFree(dst));
  bool ok = verify(op, got, bytes);
  if (!ok) g_failed = true;

  std::vector<float> s = ms;
  std::sort(s.begin(), s.end());
  float med = (g_reps % 2) ? s[g_reps / 2] : 0.5f * (s[g_reps / 2 - 1] + s[g_reps / 2]);
  double gbps = med > 0 ? 2.0 * (double)bytes / (med * 1e-3) / 1e9 : 0.0;
  printf("%-20s %6s %9.4f %9.4f %9.4f %8.1f %s\n", name, block, med, s.front(), s.back(), gbps,
         ok ? "ok" : "MISMATCH");
  fflush(stdout);
}

// The run-time choice's cost on the host, per form of the choice, in one
// process: one kernel on one block (the GPU runs it faster than the host
// launches it) launched 10,000 times back to back through its stub
// (<<<>>>: the choice, in a reshape build) and as many times through
// cudaLaunchKernel (no choice: the kernel itself), alternating, 7 times each
// (after 100 launches, so that the choice has decided). stub_us and
// direct_us: the host's time to issue one launch, the median of the 7
// (before the synchronization, so not the GPU's); wall_us: the same with the
// synchronization. In a plain build both paths are clang's: extra_us there
// is the measurement's noise.
template <typename Stub, typename Direct>
static void launchCost(const char *name, const char *form, Stub stub, Direct direct) {
  const int kLaunches = 10000, kRounds = 7;
  for (int k = 0; k < 100; ++k) stub();
  CK(cudaDeviceSynchronize());
  std::vector<double> issue[2], wall[2];
  for (int round = 0; round < kRounds; ++round)
    for (int path = 0; path < 2; ++path) {
      auto start = std::chrono::steady_clock::now();
      for (int k = 0; k < kLaunches; ++k) {
        if (path == 0) stub();
        else direct();
      }
      auto issued = std::chrono::steady_clock::now();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      auto done = std::chrono::steady_clock::now();
      issue[path].push_back(std::chrono::duration<double, std::micro>(issued - start).count() / kLaunches);
      wall[path].push_back(std::chrono::duration<double, std::micro>(done - start).count() / kLaunches);
    }
  auto median = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; };
  double stub_us = median(issue[0]), direct_us = median(issue[1]);
  printf("launch_cost %-16s %-7s stub_us %.3f direct_us %.3f extra_us %.3f wall_us %.3f %.3f\n", name, form,
         stub_us, direct_us, stub_us - direct_us, median(wall[0]), median(wall[1]));
  fflush(stdout);
}

static void launchCosts() {
  // What the choice asks on every launch where the process sees several
  // devices: the current device (cudaGetDevice), 1,000,000 times.
  int device = 0;
  auto start = std::chrono::steady_clock::now();
  for (int k = 0; k < 1000000; ++k) CK(cudaGetDevice(&device));
  printf("cuda_get_device_ns %.1f\n",
         std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / 1e6);
  // flat form: 256 pixels, one block (a grid the device holds: the
  // original through the choice)
  unsigned char *dst = nullptr;
  CK(cudaMalloc(&dst, 3 * 256 + kGuard));
  CK(cudaMemset(dst, 0xAB, 3 * 256 + kGuard));
  Pixel *pd = (Pixel *)dst;
  const Pixel *ps = (const Pixel *)d_src;
  launchCost("copy_naive", "flat", [&] { copy_naive<<<1, 256>>>(pd, ps); }, [&] {
    void *args[] = {&pd, &ps};
    cudaLaunchKernel((const void *)copy_naive, dim3(1), dim3(256), args, 0, 0);
  });
  std::vector<unsigned char> got(3 * 256 + kGuard);
  CK(cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDeviceToHost));
  bool ok = memcmp(got.data(), h_src.data(), 3 * 256) == 0;
  for (size_t k = 3 * 256; k < got.size(); ++k) ok = ok && got[k] == 0xAB;
  CK(cudaFree(dst));
  // tile form: a 32x32 transpose on 32x8 blocks (4 blocks, or 1 tile)
  float *out = nullptr;
  CK(cudaMalloc(&out, 32 * 32 * sizeof(float)));
  const float *in = (const float *)d_src;
  int side = 32;
  launchCost("transpose_naive", "tile", [&] { transpose_naive<<<dim3(1, 4), dim3(32, 8)>>>(out, in, side, side); },
             [&] {
               void *args[] = {&out, &in, &side, &side};
               cudaLaunchKernel((const void *)transpose_naive, dim3(1, 4), dim3(32, 8), args, 0, 0);
             });
  std::vector<float> t(32 * 32);
  CK(cudaMemcpy(t.data(), out, t.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const float *h_in = (const float *)h_src.data();
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) ok = ok && memcmp(&t[x * 32 + y], &h_in[y * 32 + x], sizeof(float)) == 0;
  CK(cudaFree(out));
  // rewrite form: 256 particles updated in place, one block; dt = 0.5 makes
  // each product exact, so the host repeats the launches bit for bit
  const int n = 256;
  std::vector<Particle> host(n);
  for (int k = 0; k < n; ++k)
    host[k] = {float(k), float(2 * k), float(3 * k), 0.25f * (k % 7), -0.5f * (k % 5), 0.125f * (k % 3)};
  Particle *p = nullptr;
  CK(cudaMalloc(&p, n * sizeof(Particle)));
  CK(cudaMemcpy(p, host.data(), n * sizeof(Particle), cudaMemcpyHostToDevice));
  float dt = 0.5f;
  int count = n;
  long launched = 0;
  launchCost("advance", "rewrite", [&] { advance<<<1, 256>>>(p, count, dt); ++launched; }, [&] {
    void *args[] = {&p, &count, &dt};
    cudaLaunchKernel((const void *)advance, dim3(1), dim3(256), args, 0, 0);
    ++launched;
  });
  std::vector<Particle> back(n);
  CK(cudaMemcpy(back.data(), p, n * sizeof(Particle), cudaMemcpyDeviceToHost));
  for (long l = 0; l < launched; ++l)
    for (auto &q : host) {
      q.x += q.vx * dt;
      q.y += q.vy * dt;
      q.z += q.vz * dt;
    }
  ok = ok && memcmp(back.data(), host.data(), n * sizeof(Particle)) == 0;
  CK(cudaFree(p));
  printf("launch_cost_verdict %s\n", ok ? "ok" : "MISMATCH");
  if (!ok) g_failed = true;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    g_reps = atoi(argv[1]);
    if (g_reps < 1) {
      fprintf(stderr, "usage: %s [repeats >= 1] [small]\n", argv[0]);
      return 1;
    }
  }
  if (argc > 2 && strcmp(argv[2], "small") == 0) {
    kPixels = 1 << 20;
    kSide = 1024;
    kSrcBytes = (size_t)kSide * kSide * sizeof(float) * 3;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# device %s sms %d\n", prop.name, prop.multiProcessorCount);

  h_src.resize(kSrcBytes);
  uint32_t state = 12345u;
  for (size_t k = 0; k < kSrcBytes; ++k) {
    state = state * 1664525u + 1013904223u;
    h_src[k] = (unsigned char)(state >> 24);
  }
  CK(cudaMalloc(&d_src, kSrcBytes));
  CK(cudaMemcpy(d_src, h_src.data(), kSrcBytes, cudaMemcpyHostToDevice));

  const int blocks[] = {128, 256, 512, 1024};
  char label[16];
  for (int b : blocks) {
    snprintf(label, sizeof label, "%d", b);
    series("copy_naive", label, OP_COPY_NAIVE, (size_t)3 * kPixels, kPixels, b, 1);
  }
  const int ng = kPixels - 3;
  for (int b : blocks) {
    snprintf(label, sizeof label, "%d", b);
    series("copy_naive_guarded", label, OP_COPY_GUARDED, (size_t)3 * ng, ng, b, 1);
  }
  const size_t floats = (size_t)kSide * kSide * sizeof(float);
  series("transpose_naive", "32x8", OP_TRANSPOSE, floats, kSide * kSide, 32, 8);
  series("transpose_naive", "16x16", OP_TRANSPOSE, floats, kSide * kSide, 16, 16);
  if (kPixels == (1 << 26))  // not at "small"
    series("copy_float", "256", OP_COPY_FLOAT, floats, kSide * kSide, 256, 1);
  series("memcpy_pixels", "-", OP_MEMCPY, (size_t)3 * kPixels, 0, 0, 0);
  series("memcpy_floats", "-", OP_MEMCPY, floats, 0, 0, 0);

  // The run-time choice's cost: 10,000 launches back to back.
  for (int pixels : {1 << 16, 1 << 22}) {
    if (kPixels < (1 << 26))  // "small": for the sanitizers
      break;
    unsigned char *dst = nullptr;
    CK(cudaMalloc(&dst, (size_t)3 * pixels));
    copy_naive<<<pixels / 256, 256>>>((Pixel *)dst, (const Pixel *)d_src);
    CK(cudaDeviceSynchronize());
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < 10000; ++k)
      copy_naive<<<pixels / 256, 256>>>((Pixel *)dst, (const Pixel *)d_src);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    printf("launch_overhead %d %.3f\n", pixels, us / 10000);
    CK(cudaFree(dst));
  }
  if (kPixels == (1 << 26))
    launchCosts();
  CK(cudaFree(d_src));
  const char *env = getenv("COALDA_LAUNCH");
  printf("# env COALDA_LAUNCH=%s\n", env ? env : "unset");
  return g_failed ? 1 : 0;
}
