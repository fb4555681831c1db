// The run-time choice between a kernel and its reshaped variant
// (pass/runtime/LaunchGrid.cpp) on a GPU, with host threads, streams, CUDA
// graphs and the legacy default stream (before, only against the mock
// tests/launch_runtime/mock_cudart.cpp). Naive kernels COALDA reshapes:
// transpose_naive (one float a thread, 2-D grid: the tile form) at 32x8 and
// 16x16 threads, and copy_naive_guarded (3-byte pixels: the rows form).
// Each phase's launch configurations (block, grid size class) are new to it,
// so each starts with their six timed trials:
//   threads  4 std::threads, each with its own non-blocking stream and
//            buffers: 40 transposes (threads 0,1: 2048x2048 at 32x8; 2,3:
//            2048x1536 at 16x16) interleaved with 40 pixel copies (one
//            configuration for all four); inputs refilled by a kernel every
//            third launch; each launch into its slot of a ring of 8, synced
//            and verified when full (after that, the choice is measured)
//   streams  3 non-blocking streams, 30 launches each, round-robin, chained
//            by cudaEventRecord/cudaStreamWaitEvent: s0 transposes A -> B[i]
//            (32x8), s1 B[i] -> C[i] back (16x16: C[i] = A), s2 copies C[i]
//            as pixels -> D[i]; the host waits once, halfway
//   graph    on a blocking stream, a Global then a ThreadLocal capture of a
//            transpose and a pixel copy, each right after launches of the
//            same configurations outside the graph, not waited for (trials
//            pending during the capture; round 2's pixel copy configuration
//            is first met in the capture); cudaGraphInstantiate(&exec, graph,
//            0) (CUDA 12); 20 graph launches, each after a cudaMemcpy of new
//            inputs into the captured buffers and followed by the same
//            kernels outside the graph
//   default  the legacy default stream: 50 launches alternating 4096x1024 at
//            32x8 (A -> B) and back at 16x16 (B -> C = A), A refilled every
//            third pair, synced and verified every 5 pairs
// Each output is compared byte for byte with the host's reference (inputs
// are a hash of seed and index), and its 64-byte guard must keep its 0xAB.
// Prints one line a phase, "PHASE ok (N outputs checked)" or "PHASE
// MISMATCH <first failure>", then "# env COALDA_LAUNCH=<value|unset>
// injected=<yes|no>" (a tool in CUDA_INJECTION64_PATH, as ncu: nothing timed,
// the static decision; compute-sanitizer sets none). Exit 0: all pass; 1: a
// mismatch; 2: a CUDA error (at once; in a capture round, after the others).
// argv[1] = "small": sides halved, pixel counts quartered, a quarter of the
// launches, for compute-sanitizer (the pixel grids still exceed what an H200
// holds at once). Built by docs/runs/launches/prepare.sh, run by run.sh's
// part `concurrency`:
//   coalda cc -fno-coalda -O3 -arch sm_90 launch_concurrency.cu -o launch_concurrency_plain
//   coalda cc -O3 -arch sm_90 launch_concurrency.cu -o launch_concurrency_coalda
//   coalda cc -fcoalda-reshape -Wcoalda -O3 -arch sm_90 launch_concurrency.cu -o launch_concurrency_reshape
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>
#include <cuda_runtime.h>

static void checked(cudaError_t e, const char *call, int line) {
  if (e == cudaSuccess) return;
  fprintf(stderr, "CUDA error: %s -> %s (line %d)\n", call, cudaGetErrorString(e), line);
  fflush(stdout), fflush(stderr), _Exit(2);  // from any thread
}
#define CK(call) checked((call), #call, __LINE__)

// Word k of the input made from seed (bit 30 clear: a finite float).
__host__ __device__ inline unsigned gen(unsigned seed, unsigned k) {
  unsigned v = k * 0x9E3779B1u ^ seed * 0x85EBCA77u;
  v ^= v >> 15; v *= 0x2C1B3C6Du; v ^= v >> 12; v *= 0x297A2D39u; v ^= v >> 15;
  return v & 0xBFFFFFFFu;
}
__global__ void fill(unsigned *p, unsigned words, unsigned seed) {
  for (unsigned k = blockIdx.x * blockDim.x + threadIdx.x; k < words; k += gridDim.x * blockDim.x)
    p[k] = gen(seed, k);
}

struct Pixel { unsigned char r, g, b; };
__global__ void copy_naive_guarded(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { dst[i].r = src[i].r; dst[i].g = src[i].g; dst[i].b = src[i].b; }
}
__global__ void transpose_naive(float *out, const float *in, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}

static bool g_small = false;
static int g_div = 1;  // sides are divided by it, pixel counts by its square
static const size_t kGuard = 64;
static std::atomic<bool> g_api_error{false};

// Each helper returns cudaGetLastError() after its launch: also an error the
// run-time choice would leave behind.
static cudaError_t transpose(void *out, const void *in, int w, int h, dim3 block, cudaStream_t s) {
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  transpose_naive<<<grid, block, 0, s>>>((float *)out, (const float *)in, w, h);
  return cudaGetLastError();
}
static cudaError_t copy_pixels(void *dst, const void *src, int n, int threads, cudaStream_t s) {
  copy_naive_guarded<<<(n + threads - 1) / threads, threads, 0, s>>>((Pixel *)dst, (const Pixel *)src, n);
  return cudaGetLastError();
}
static cudaError_t refill(void *p, size_t words, unsigned seed, cudaStream_t s) {
  unsigned blocks = (unsigned)std::min<size_t>((words + 255) / 256, 4096);
  fill<<<blocks, 256, 0, s>>>((unsigned *)p, (unsigned)words, seed);
  return cudaGetLastError();
}
// Device memory of `bytes` and the guard, all 0xAB (synchronous).
static void *dalloc(size_t bytes) {
  void *p = nullptr;
  CK(cudaMalloc(&p, bytes + kGuard));
  CK(cudaMemset(p, 0xAB, bytes + kGuard));
  CK(cudaDeviceSynchronize());
  return p;
}

// What an output must hold: w > 0: the w x h input of seed transposed (h x w
// words); else the first `bytes` bytes of the input of seed.
struct Expect { const void *dev; size_t bytes; unsigned seed; int w, h; };
static Expect transposed(const void *dev, int w, int h, unsigned seed) { return {dev, (size_t)w * h * 4, seed, w, h}; }
static Expect same(const void *dev, size_t bytes, unsigned seed) { return {dev, bytes, seed, 0, 0}; }

// "" or the first difference; the output's work must be done.
static std::string verify(const Expect &e) {
  std::vector<unsigned char> got(e.bytes + kGuard);
  CK(cudaMemcpy(got.data(), e.dev, got.size(), cudaMemcpyDeviceToHost));
  char why[200] = "";
  size_t bad = 0;
  if (e.w > 0) {
    const uint32_t *out = (const uint32_t *)got.data();
    for (size_t x = 0; x < (size_t)e.w; ++x)
      for (size_t y = 0; y < (size_t)e.h; ++y) {
        uint32_t want = gen(e.seed, (unsigned)(y * e.w + x)), have = out[x * e.h + y];
        if (have != want && !bad++)
          snprintf(why, sizeof why, "transpose %dx%d at x=%zu y=%zu: 0x%08x, want 0x%08x", e.w, e.h, x, y, have, want);
      }
  } else {
    for (size_t j = 0; j < e.bytes; ++j) {
      unsigned char want = (unsigned char)(gen(e.seed, (unsigned)(j / 4)) >> (8 * (j % 4)));
      if (got[j] != want && !bad++)
        snprintf(why, sizeof why, "copy of %zu bytes at byte %zu: 0x%02x, want 0x%02x", e.bytes, j, got[j], want);
    }
  }
  for (size_t j = e.bytes; j < e.bytes + kGuard; ++j)
    if (got[j] != 0xAB && !bad++)
      snprintf(why, sizeof why, "guard byte %zu past %zu bytes: 0x%02x", j - e.bytes, e.bytes, got[j]);
  if (!bad) return "";
  return std::string(why) + " (" + std::to_string(bad) + " differ)";
}

// A phase's verdict, from any thread.
struct Phase {
  const char *name;
  std::mutex m;
  size_t checks = 0, failures = 0;
  std::string first;
  void check(const Expect &e, const std::string &where) { record(verify(e), where); }
  void record(const std::string &why, const std::string &where) {
    std::lock_guard<std::mutex> g(m);
    ++checks;
    if (!why.empty() && !failures++) first = where + ": " + why;
  }
  bool report() {
    if (failures) printf("%s MISMATCH %zu of %zu checks failed; first: %s\n", name, failures, checks, first.c_str());
    else printf("%s ok (%zu outputs checked)\n", name, checks);
    return fflush(stdout), failures == 0;
  }
};

static void phase_threads(Phase &ph) {
  const int N = g_small ? 10 : 40, R = 8, threads = 4;
  const int n = ((1 << 22) - 3) / (g_div * g_div);  // pixels
  const size_t pbytes = (size_t)3 * n, pwords = (pbytes + 3) / 4;
  struct Work {
    int w, h; dim3 block; cudaStream_t s; void *in, *pin;
    std::vector<void *> out, pout;
  } work[threads];
  for (int t = 0; t < threads; ++t) {
    Work &k = work[t];
    k.w = 2048 / g_div, k.h = (t < 2 ? 2048 : 1536) / g_div;
    k.block = t < 2 ? dim3(32, 8) : dim3(16, 16);
    CK(cudaStreamCreateWithFlags(&k.s, cudaStreamNonBlocking));
    k.in = dalloc((size_t)k.w * k.h * 4), k.pin = dalloc(pwords * 4);
    for (int r = 0; r < R; ++r)
      k.out.push_back(dalloc((size_t)k.w * k.h * 4)), k.pout.push_back(dalloc(pbytes));
  }
  std::atomic<int> ready{0};
  auto body = [&](int t) {
    Work &k = work[t];
    unsigned seed = 0, seeds[R];
    ready.fetch_add(1);
    while (ready.load() < threads) std::this_thread::yield();  // start together
    for (int i = 0; i < N; ++i) {
      if (i % 3 == 0) {
        seed = 100000 + 1000 * t + i;
        CK(refill(k.in, (size_t)k.w * k.h, seed, k.s));
        CK(refill(k.pin, pwords, seed ^ 0x5A5A5A5Au, k.s));
      }
      int r = i % R;
      seeds[r] = seed;
      CK(transpose(k.out[r], k.in, k.w, k.h, k.block, k.s));
      CK(copy_pixels(k.pout[r], k.pin, n, 256, k.s));
      if (r == R - 1 || i == N - 1) {
        CK(cudaStreamSynchronize(k.s));
        for (int q = 0; q <= r; ++q) {
          std::string where = "thread " + std::to_string(t) + " launch " + std::to_string(i - r + q);
          ph.check(transposed(k.out[q], k.w, k.h, seeds[q]), where);
          ph.check(same(k.pout[q], pbytes, seeds[q] ^ 0x5A5A5A5Au), where + " pixels");
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back(body, t);
  for (auto &th : pool) th.join();
  for (Work &k : work) {
    CK(cudaStreamDestroy(k.s)), CK(cudaFree(k.in)), CK(cudaFree(k.pin));
    for (int r = 0; r < R; ++r) CK(cudaFree(k.out[r])), CK(cudaFree(k.pout[r]));
  }
}

static void phase_streams(Phase &ph) {
  const int W = 1024 / g_div, H = 1536 / g_div, N = g_small ? 8 : 30;
  const size_t words = (size_t)W * H;
  const int n = (int)(words * 4 / 3);  // C's bytes as pixels
  cudaStream_t s[3];
  for (auto &st : s) CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t done0, done1;
  CK(cudaEventCreateWithFlags(&done0, cudaEventDisableTiming));
  CK(cudaEventCreateWithFlags(&done1, cudaEventDisableTiming));
  void *A = dalloc(words * 4);
  std::vector<void *> B(N), C(N), D(N);
  std::vector<unsigned> seeds(N);
  for (int i = 0; i < N; ++i) B[i] = dalloc(words * 4), C[i] = dalloc(words * 4), D[i] = dalloc((size_t)3 * n);
  unsigned seed = 0;
  for (int i = 0; i < N; ++i) {
    if (i % 5 == 0) CK(refill(A, words, seed = 200000 + i, s[0]));
    seeds[i] = seed;
    CK(transpose(B[i], A, W, H, dim3(32, 8), s[0]));
    CK(cudaEventRecord(done0, s[0]));
    CK(cudaStreamWaitEvent(s[1], done0, 0));
    CK(transpose(C[i], B[i], H, W, dim3(16, 16), s[1]));
    CK(cudaEventRecord(done1, s[1]));
    CK(cudaStreamWaitEvent(s[2], done1, 0));
    CK(copy_pixels(D[i], C[i], n, 512, s[2]));
    if (i == N / 2) CK(cudaDeviceSynchronize());  // the trials done: the rest is measured
  }
  CK(cudaDeviceSynchronize());
  for (int i = 0; i < N; ++i) {
    std::string where = "round " + std::to_string(i);
    ph.check(transposed(B[i], W, H, seeds[i]), where + " s0");
    ph.check(same(C[i], words * 4, seeds[i]), where + " s1");
    ph.check(same(D[i], (size_t)3 * n, seeds[i]), where + " s2 pixels");
    CK(cudaFree(B[i])), CK(cudaFree(C[i])), CK(cudaFree(D[i]));
  }
  for (auto &st : s) CK(cudaStreamDestroy(st));
  CK(cudaFree(A)), CK(cudaEventDestroy(done0)), CK(cudaEventDestroy(done1));
}

static void phase_graph(Phase &ph) {
  const int W = 1024 / g_div, H = 1024 / g_div, N = g_small ? 5 : 20;
  const int n = ((1 << 21) - 3) / (g_div * g_div);
  const size_t words = (size_t)W * H, pbytes = (size_t)3 * n, pwords = (pbytes + 3) / 4;
  cudaStream_t s;
  CK(cudaStreamCreate(&s));  // blocking: ordered after the cudaMemcpy refills (legacy stream)
  void *in = dalloc(words * 4), *pin = dalloc(pwords * 4);
  void *out = dalloc(words * 4), *pout = dalloc(pbytes), *outX = dalloc(words * 4), *poutX = dalloc(pbytes);
  std::vector<unsigned> host(std::max(words, pwords));
  auto upload = [&](void *dev, size_t count, unsigned seed) {
    for (size_t k = 0; k < count; ++k) host[k] = gen(seed, (unsigned)k);
    CK(cudaMemcpy(dev, host.data(), count * 4, cudaMemcpyHostToDevice));
  };
  for (int round = 0; round < 2; ++round) {
    const bool global = round == 0;
    const char *mode = global ? "Global" : "ThreadLocal";
    const dim3 block = global ? dim3(32, 8) : dim3(16, 16);
    const int threads = global ? 1024 : 128;
    const unsigned base = 300000 + 1000 * round;
    upload(in, words, base), upload(pin, pwords, base ^ 0x5A5A5A5Au);
    // Launches outside the graph, not waited for: the capture meets their
    // configurations' trials pending (ThreadLocal: not the pixel copy's).
    CK(transpose(outX, in, W, H, block, s));
    if (global) CK(copy_pixels(poutX, pin, n, threads, s));
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
    std::string failed;
#define CAPTURE(call)                                                                                 \
  if (failed.empty()) {                                                                               \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) failed = std::string(#call) + " -> " + cudaGetErrorString(e_);             \
  }
    CAPTURE(cudaStreamBeginCapture(s, global ? cudaStreamCaptureModeGlobal : cudaStreamCaptureModeThreadLocal));
    CAPTURE(transpose(out, in, W, H, block, s));
    CAPTURE(copy_pixels(pout, pin, n, threads, s));
    cudaError_t ended = cudaStreamEndCapture(s, &graph);  // ends an invalidated capture too
    CAPTURE(ended);
    CAPTURE(cudaGraphInstantiate(&exec, graph, 0));  // CUDA 12: (exec, graph, flags)
#undef CAPTURE
    CK(cudaStreamSynchronize(s));
    ph.check(transposed(outX, W, H, base), std::string(mode) + " before capture");
    if (global) ph.check(same(poutX, pbytes, base ^ 0x5A5A5A5Au), std::string(mode) + " before capture pixels");
    if (!failed.empty()) {
      fprintf(stderr, "CUDA error in the %s capture round: %s\n", mode, failed.c_str());
      g_api_error = true;
      ph.record(failed, std::string(mode) + " capture");
      cudaGetLastError();
      if (graph) CK(cudaGraphDestroy(graph));
      continue;
    }
    for (int i = 0; i < N; ++i) {
      unsigned seed = base + 1 + i;
      upload(in, words, seed), upload(pin, pwords, seed ^ 0x5A5A5A5Au);
      CK(cudaGraphLaunch(exec, s));
      CK(transpose(outX, in, W, H, block, s));  // the same configurations, outside the graph
      CK(copy_pixels(poutX, pin, n, threads, s));
      CK(cudaStreamSynchronize(s));
      std::string where = std::string(mode) + " graph launch " + std::to_string(i);
      ph.check(transposed(out, W, H, seed), where);
      ph.check(same(pout, pbytes, seed ^ 0x5A5A5A5Au), where + " pixels");
      ph.check(transposed(outX, W, H, seed), where + " outside");
      ph.check(same(poutX, pbytes, seed ^ 0x5A5A5A5Au), where + " outside pixels");
    }
    CK(cudaGraphExecDestroy(exec)), CK(cudaGraphDestroy(graph));
  }
  for (void *p : {in, pin, out, pout, outX, poutX}) CK(cudaFree(p));
  CK(cudaStreamDestroy(s));
}

static void phase_default(Phase &ph) {
  const int W = 4096 / g_div, H = 1024 / g_div, pairs = (g_small ? 12 : 50) / 2, R = 5;
  const size_t words = (size_t)W * H;
  void *A = dalloc(words * 4), *B[R], *C[R];
  unsigned seed = 0, seeds[R];
  for (int r = 0; r < R; ++r) B[r] = dalloc(words * 4), C[r] = dalloc(words * 4);
  for (int p = 0; p < pairs; ++p) {
    if (p % 3 == 0) CK(refill(A, words, seed = 400000 + p, 0));
    int r = p % R;
    seeds[r] = seed;
    CK(transpose(B[r], A, W, H, dim3(32, 8), 0));      // stream 0: the legacy default stream
    CK(transpose(C[r], B[r], H, W, dim3(16, 16), 0));  // back: C = A
    if (r == R - 1 || p == pairs - 1) {
      CK(cudaDeviceSynchronize());
      for (int q = 0; q <= r; ++q) {
        std::string where = "pair " + std::to_string(p - r + q);
        ph.check(transposed(B[q], W, H, seeds[q]), where + " 32x8");
        ph.check(same(C[q], words * 4, seeds[q]), where + " 16x16");
      }
    }
  }
  CK(cudaFree(A));
  for (int r = 0; r < R; ++r) CK(cudaFree(B[r])), CK(cudaFree(C[r]));
}

int main(int argc, char **argv) {
  if (argc > 2 || (argc == 2 && strcmp(argv[1], "small") != 0)) {
    fprintf(stderr, "usage: %s [small]\n", argv[0]);
    return 2;
  }
  g_small = argc == 2, g_div = g_small ? 2 : 1;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("# device %s sms %d size %s\n", prop.name, prop.multiProcessorCount, g_small ? "small" : "full");
  Phase phases[] = {{"threads"}, {"streams"}, {"graph"}, {"default"}};
  void (*run[])(Phase &) = {phase_threads, phase_streams, phase_graph, phase_default};
  bool ok = true;
  for (int k = 0; k < 4; ++k) {
    run[k](phases[k]);
    ok = phases[k].report() && ok;
  }
  CK(cudaGetLastError());
  const char *pin = getenv("COALDA_LAUNCH"), *tool = getenv("CUDA_INJECTION64_PATH");
  printf("# env COALDA_LAUNCH=%s injected=%s\n", pin ? pin : "unset", tool && *tool ? "yes" : "no");
  return g_api_error ? 2 : ok ? 0 : 1;
}
