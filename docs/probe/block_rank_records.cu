// Probe for issue 39 item 4 (rows that are whole 2-D blocks): would staging
// pay where a 2-D block walks a 1-D array of records by its linear thread
// number? The kernels' index is cooperative groups' thread_rank():
//   r = threadIdx.y * blockDim.x + threadIdx.x
//   i = blockIdx.x * (blockDim.x * blockDim.y) + r,   if (i < n) ...
// over arrays of n records of 12 bytes (struct of 3 floats) and 20 bytes
// (5 floats). COALDA's element staging keys on tid.x, so such a block's
// tiles stage one row (blockDim.x records) and the item says the kernel
// always runs the original code; the item proposes staging the region of
// the linear thread number instead. This measures what that would gain.
// Note: a warp is 32 consecutive linear thread numbers whatever the block's
// shape, so the original's accesses are the same per warp as a 1-D block's;
// the 1-D rows below show that.
//
// Variants, at 2-D blocks 32x4, 32x8 and 16x16 (1-D grid of ceil(n / T)
// blocks, T = blockDim.x * blockDim.y):
//   orig      out[i] = f(in[i]), f scaling each member by its own constant
//             (x2, x3, x0.5 for Rec12; x2, x3, x0.5, x-1.5, x4 for Rec20:
//             one rounded multiply a member, the same in every variant);
//             no __restrict__, the record loaded whole before the stores
//   staged    what COALDA's block staging would emit keyed on r: the
//             block's contiguous region, min(T, n - blockIdx.x*T) records,
//             from `in` into a shared input tile, consecutive threads
//             loading consecutive 4-byte words (W = sizeof(Rec)/4 words a
//             thread, each guarded at the region's end); __syncthreads; the
//             thread (r < count) reads its record from the input tile and
//             writes f of it into a shared output tile; __syncthreads; the
//             block stores the output tile's region to `out` in consecutive
//             4-byte words. Dynamic shared memory 2*T*sizeof(Rec) (3 KB at
//             32x4 12 B, 10 KB at 256 threads 20 B); W is odd (3, 5), so the
//             record reads and writes at a stride of W words are free of
//             bank conflicts.
//   staged16  staged, with 16-byte units where both regions' starts are
//             16-byte aligned (tested per block at run time; always here:
//             T is a multiple of 16 and cudaMalloc's base is 256-aligned),
//             the region's last bytes % 16 in 4-byte words; else as staged
//   warp      (not in the item; for comparison) each warp stages its own 32
//             records the same way, __syncwarp instead of __syncthreads:
//             valid for any block shape since a warp is 32 consecutive r
//             (T a multiple of 32); 2*T*sizeof(Rec) of shared memory too
// and the 1-D-block reference at the same thread count (128, 256):
//   orig_1d   the original written for a 1-D block (i = blockIdx.x *
//             blockDim.x + threadIdx.x), launched with T x 1 threads
//   staged, staged16, warp launched with T x 1 threads (r = threadIdx.x)
// Check: `out` (n records and a 64-byte guard zone past them) is filled with
// 0xAB before each variant; after its launches every byte, guard zone
// included, is memcmp'd against the reference: orig at 32x4, launched once
// before the series of its record size, its bytes (guard zone included)
// memcmp'd against f computed on the host (IEEE float multiplies, the same
// on both sides; the inputs are finite, none subnormal) on a line of its own.
// Timing: each series 2 warm-up launches, then R timed launches (R =
// argument reps, 20 by default, 2 at `small`), each between its own
// cudaEventRecord pair; median and min in ms; GB/s = (bytes read + bytes
// written) / median = 2 * n * sizeof(Rec) / median; x_orig = the same
// block's orig median / this median (orig_1d for the 1-D rows); x_orig1d =
// orig_1d's median at the same thread count / this median. memcpy_d2d:
// cudaMemcpy device to device of n * sizeof(Rec) bytes (the same bytes read
// and written), timed the same way, first for each record size.
// Sizes: n = 2^24 (192 MiB and 320 MiB an array: beyond the 50 MB L2);
// `small`: n = 100003, for compute-sanitizer (partial last blocks and warps:
// 100003 % 128 = 35, % 256 = 163; the 16-byte variant's tail words run).
// Output: "# device <name> sms <count>", "# n <n> reps <R>", then for each
// record size the reference's host check, memcpy_d2d, and one line a series
// (the 1-D rows first at each thread count):
//   rec block variant median_ms min_ms GBps x_orig x_orig1d regs smem check
// and last "all same" (exit 0) or "SOME DIFFERENT" (exit 1).
// Cross-checked on COALDA's CPU emulator (coalda.emulator, on this file's
// device IR built with -fno-coalda) before any GPU run: every variant at
// every block shape gives orig's bytes and an untouched guard zone at n =
// 77, 300, 1000 and 1027, with 64-byte-aligned buffers and with both
// buffers 4 bytes off (staged16 then moves words), under the forward,
// reverse, shuffled and strided schedules; a staged16 that drops its tail
// words and a warp without its first __syncwarp are caught.
// Build (the variants are hand-written: the pass stays out):
//   .venv/bin/coalda cc -fno-coalda -O3 -arch sm_90 \
//     docs/probe/block_rank_records.cu -o block_rank_records
// Run: block_rank_records [reps] [small]; on the GPU machine
//   docs/probe/run_block_rank_records.sh BINARY OUTDIR (full size twice,
//   then memcheck and racecheck at small).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

struct Rec12 { float x, y, z; };
struct Rec20 { float a, b, c, d, e; };
static_assert(sizeof(Rec12) == 12 && sizeof(Rec20) == 20, "record sizes");

__host__ __device__ inline Rec12 f(Rec12 r) { return {2.0f * r.x, 3.0f * r.y, 0.5f * r.z}; }
__host__ __device__ inline Rec20 f(Rec20 r) {
  return {2.0f * r.a, 3.0f * r.b, 0.5f * r.c, -1.5f * r.d, 4.0f * r.e};
}

__device__ inline int rank2d() { return threadIdx.y * blockDim.x + threadIdx.x; }

// (a) the original, 2-D block, linear thread number
template <class Rec>
__global__ void orig(const Rec *in, Rec *out, int n) {
  int i = blockIdx.x * (blockDim.x * blockDim.y) + rank2d();
  if (i < n) out[i] = f(in[i]);
}

// (d) the original written for a 1-D block
template <class Rec>
__global__ void orig_1d(const Rec *in, Rec *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = f(in[i]);
}

// The shared tiles: input tile at 0, output tile at T*sizeof(Rec) rounded up
// to 16 bytes (both 16-byte aligned for staged16).
__device__ inline size_t out_tile_offset(int T, size_t size) { return (T * size + 15) / 16 * 16; }
static size_t tile_bytes(int T, size_t size) { return (T * size + 15) / 16 * 16 * 2; }

// (b) the block stages its region of records in 4-byte words
template <class Rec>
__global__ void staged(const Rec *in, Rec *out, int n) {
  constexpr int W = sizeof(Rec) / 4;
  extern __shared__ float4 smem[];
  const int T = blockDim.x * blockDim.y, r = rank2d();
  const int base = blockIdx.x * T;  // < n: the grid is ceil(n / T)
  const int count = min(T, n - base), words = count * W;
  uint32_t *tin = reinterpret_cast<uint32_t *>(smem);
  uint32_t *tout = reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(smem) + out_tile_offset(T, sizeof(Rec)));
  const uint32_t *src = reinterpret_cast<const uint32_t *>(in) + (size_t)base * W;
  uint32_t *dst = reinterpret_cast<uint32_t *>(out) + (size_t)base * W;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    int k = j * T + r;
    if (k < words) tin[k] = src[k];
  }
  __syncthreads();
  if (r < count) reinterpret_cast<Rec *>(tout)[r] = f(reinterpret_cast<const Rec *>(tin)[r]);
  __syncthreads();
#pragma unroll
  for (int j = 0; j < W; ++j) {
    int k = j * T + r;
    if (k < words) dst[k] = tout[k];
  }
}

// (c) staged, in 16-byte units where both regions start 16-byte aligned.
// Units as a vector type: one ld/st.v4.u32 each (a float4 struct copy is a
// 16-byte memcpy that clang splits into two 8-byte moves).
typedef uint32_t u32x4 __attribute__((ext_vector_type(4)));
template <class Rec>
__global__ void staged16(const Rec *in, Rec *out, int n) {
  constexpr int W = sizeof(Rec) / 4;
  constexpr int U = (sizeof(Rec) + 15) / 16;  // 16-byte units a thread, at most
  extern __shared__ float4 smem[];
  const int T = blockDim.x * blockDim.y, r = rank2d();
  const int base = blockIdx.x * T;
  const int count = min(T, n - base), words = count * W;
  uint32_t *tin = reinterpret_cast<uint32_t *>(smem);
  uint32_t *tout = reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(smem) + out_tile_offset(T, sizeof(Rec)));
  const uint32_t *src = reinterpret_cast<const uint32_t *>(in) + (size_t)base * W;
  uint32_t *dst = reinterpret_cast<uint32_t *>(out) + (size_t)base * W;
  // block-uniform: both regions' starts 16-byte aligned
  const bool wide = ((reinterpret_cast<uintptr_t>(src) | reinterpret_cast<uintptr_t>(dst)) & 15) == 0;
  const int units = words / 4, tail = units * 4;  // whole 16-byte units, then < 4 words
  if (wide) {
#pragma unroll
    for (int j = 0; j < U; ++j) {
      int k = j * T + r;
      if (k < units) reinterpret_cast<u32x4 *>(tin)[k] = reinterpret_cast<const u32x4 *>(src)[k];
    }
    if (tail + r < words) tin[tail + r] = src[tail + r];
  } else {
#pragma unroll
    for (int j = 0; j < W; ++j) {
      int k = j * T + r;
      if (k < words) tin[k] = src[k];
    }
  }
  __syncthreads();
  if (r < count) reinterpret_cast<Rec *>(tout)[r] = f(reinterpret_cast<const Rec *>(tin)[r]);
  __syncthreads();
  if (wide) {
#pragma unroll
    for (int j = 0; j < U; ++j) {
      int k = j * T + r;
      if (k < units) reinterpret_cast<u32x4 *>(dst)[k] = reinterpret_cast<const u32x4 *>(tout)[k];
    }
    if (tail + r < words) dst[tail + r] = tout[tail + r];
  } else {
#pragma unroll
    for (int j = 0; j < W; ++j) {
      int k = j * T + r;
      if (k < words) dst[k] = tout[k];
    }
  }
}

// each warp stages its own 32 records (32 consecutive r), __syncwarp
template <class Rec>
__global__ void warp(const Rec *in, Rec *out, int n) {
  constexpr int W = sizeof(Rec) / 4;
  extern __shared__ float4 smem[];
  const int T = blockDim.x * blockDim.y, r = rank2d(), lane = r & 31;
  const int wbase = blockIdx.x * T + (r & ~31);
  if (wbase >= n) return;  // warp-uniform
  const int count = min(32, n - wbase), words = count * W;
  uint32_t *tin = reinterpret_cast<uint32_t *>(smem) + (r & ~31) * W;
  uint32_t *tout = reinterpret_cast<uint32_t *>(reinterpret_cast<char *>(smem) + out_tile_offset(T, sizeof(Rec))) + (r & ~31) * W;
  const uint32_t *src = reinterpret_cast<const uint32_t *>(in) + (size_t)wbase * W;
  uint32_t *dst = reinterpret_cast<uint32_t *>(out) + (size_t)wbase * W;
#pragma unroll
  for (int j = 0; j < W; ++j) {
    int k = j * 32 + lane;
    if (k < words) tin[k] = src[k];
  }
  __syncwarp();
  if (lane < count) reinterpret_cast<Rec *>(tout)[lane] = f(reinterpret_cast<const Rec *>(tin)[lane]);
  __syncwarp();
#pragma unroll
  for (int j = 0; j < W; ++j) {
    int k = j * 32 + lane;
    if (k < words) dst[k] = tout[k];
  }
}

static int g_reps = 20;
static bool g_failed = false;
static const size_t kGuard = 64;

struct Timing { float med, min; };

static Timing time_series(const std::function<void()> &launch) {
  for (int w = 0; w < 2; ++w) launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> ev(2 * g_reps);
  for (auto &e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < g_reps; ++r) {
    CK(cudaEventRecord(ev[2 * r]));
    launch();
    CK(cudaEventRecord(ev[2 * r + 1]));
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ms(g_reps);
  for (int r = 0; r < g_reps; ++r) CK(cudaEventElapsedTime(&ms[r], ev[2 * r], ev[2 * r + 1]));
  for (auto &e : ev) CK(cudaEventDestroy(e));
  std::sort(ms.begin(), ms.end());
  float med = (g_reps % 2) ? ms[g_reps / 2] : 0.5f * (ms[g_reps / 2 - 1] + ms[g_reps / 2]);
  return {med, ms.front()};
}

template <class Rec>
static void run_record(int n) {
  typedef void (*Kernel)(const Rec *, Rec *, int);
  const size_t bytes = (size_t)n * sizeof(Rec);
  const double moved = 2.0 * (double)bytes;  // read + written
  const char *rec = sizeof(Rec) == 12 ? "12B" : "20B";

  // finite inputs: k/2^24 - 1/2 over a 32-bit LCG's top 24 bits
  std::vector<Rec> h_in(n);
  float *hf = reinterpret_cast<float *>(h_in.data());
  uint32_t state = 12345u + (uint32_t)sizeof(Rec);
  for (size_t k = 0; k < bytes / 4; ++k) {
    state = state * 1664525u + 1013904223u;
    hf[k] = (float)(state >> 8) / 16777216.0f - 0.5f;
  }
  std::vector<unsigned char> expect(bytes + kGuard, 0xAB);
  for (int i = 0; i < n; ++i) {
    Rec v = f(h_in[i]);
    memcpy(expect.data() + (size_t)i * sizeof(Rec), &v, sizeof(Rec));
  }

  Rec *d_in = nullptr, *d_out = nullptr;
  CK(cudaMalloc(&d_in, bytes));
  CK(cudaMalloc(&d_out, bytes + kGuard));
  CK(cudaMemcpy(d_in, h_in.data(), bytes, cudaMemcpyHostToDevice));

  Timing mc = time_series([&] { CK(cudaMemcpy(d_out, d_in, bytes, cudaMemcpyDeviceToDevice)); });
  printf("%-4s %-6s %-10s %9.4f %9.4f %8.1f %7s %8s %4s %6s %s\n", rec, "-", "memcpy_d2d", mc.med, mc.min,
         moved / (mc.med * 1e-3) / 1e9, "-", "-", "-", "-", "-");

  // the reference: orig at 32x4, once, checked against the host's f
  std::vector<unsigned char> reference(bytes + kGuard), got(bytes + kGuard);
  CK(cudaMemset(d_out, 0xAB, bytes + kGuard));
  orig<Rec><<<dim3((n + 127) / 128), dim3(32, 4)>>>(d_in, d_out, n);
  CK(cudaGetLastError());
  CK(cudaMemcpy(reference.data(), d_out, bytes + kGuard, cudaMemcpyDeviceToHost));
  const bool hostSame = memcmp(reference.data(), expect.data(), bytes + kGuard) == 0;
  if (!hostSame) g_failed = true;
  printf("%-4s %-6s %-10s %s\n", rec, "32x4", "orig", hostSame ? "same as f on the host" : "DIFFERENT from f on the host");
  struct Shape { int bx, by; };
  const Shape shapes[] = {{128, 1}, {32, 4}, {256, 1}, {32, 8}, {16, 16}};
  float orig1d_ms = 0;
  for (const Shape &s : shapes) {
    const int T = s.bx * s.by;
    const bool oneD = s.by == 1;
    char block[16];
    if (oneD) snprintf(block, sizeof block, "%d", T);
    else snprintf(block, sizeof block, "%dx%d", s.bx, s.by);
    struct Variant { const char *name; Kernel kernel; size_t smem; };
    const size_t tiles = tile_bytes(T, sizeof(Rec));
    const Variant variants[] = {{oneD ? "orig_1d" : "orig", oneD ? orig_1d<Rec> : orig<Rec>, 0},
                                {"staged", staged<Rec>, tiles},
                                {"staged16", staged16<Rec>, tiles},
                                {"warp", warp<Rec>, tiles}};
    float orig_ms = 0;
    for (const Variant &v : variants) {
      dim3 grid((n + T - 1) / T), blk(s.bx, s.by);
      CK(cudaMemset(d_out, 0xAB, bytes + kGuard));
      CK(cudaDeviceSynchronize());
      Timing t = time_series([&] { v.kernel<<<grid, blk, v.smem>>>(d_in, d_out, n); });
      CK(cudaMemcpy(got.data(), d_out, bytes + kGuard, cudaMemcpyDeviceToHost));
      const bool same = memcmp(got.data(), reference.data(), bytes + kGuard) == 0;
      if (!same) g_failed = true;
      if (v.kernel == (Kernel)orig<Rec> || v.kernel == (Kernel)orig_1d<Rec>) orig_ms = t.med;
      if (v.kernel == (Kernel)orig_1d<Rec>) orig1d_ms = t.med;
      cudaFuncAttributes attr;
      CK(cudaFuncGetAttributes(&attr, v.kernel));
      printf("%-4s %-6s %-10s %9.4f %9.4f %8.1f %6.2fx %7.2fx %4d %6zu %s\n", rec, block, v.name, t.med, t.min,
             moved / (t.med * 1e-3) / 1e9, orig_ms / t.med, orig1d_ms / t.med, attr.numRegs,
             (size_t)attr.sharedSizeBytes + v.smem, same ? "same" : "DIFFERENT");
      fflush(stdout);
    }
  }
  CK(cudaFree(d_in));
  CK(cudaFree(d_out));
}

int main(int argc, char **argv) {
  int n = 1 << 24;
  bool repsGiven = false;
  for (int a = 1; a < argc; ++a) {
    if (strcmp(argv[a], "small") == 0) {
      n = 100003;
    } else if (atoi(argv[a]) >= 1) {
      g_reps = atoi(argv[a]);
      repsGiven = true;
    } else {
      fprintf(stderr, "usage: %s [repeats >= 1] [small]\n", argv[0]);
      return 2;
    }
  }
  if (n != (1 << 24) && !repsGiven) g_reps = 2;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# device %s sms %d\n", prop.name, prop.multiProcessorCount);
  printf("# n %d reps %d\n", n, g_reps);
  printf("%-4s %-6s %-10s %9s %9s %8s %7s %8s %4s %6s %s\n", "rec", "block", "variant", "median_ms", "min_ms",
         "GBps", "x_orig", "x_orig1d", "regs", "smem", "check");
  run_record<Rec12>(n);
  run_record<Rec20>(n);
  printf(g_failed ? "SOME DIFFERENT\n" : "all same\n");
  return g_failed ? 1 : 0;
}
