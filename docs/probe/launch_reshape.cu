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
// the original; 2^22, reshaped), and last "# env COALDA_LAUNCH=<value or
// unset>" (documents the run only).
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
  CK(cudaFree(d_src));
  const char *env = getenv("COALDA_LAUNCH");
  printf("# env COALDA_LAUNCH=%s\n", env ? env : "unset");
  return g_failed ? 1 : 0;
}
