// Probe for issue 39 item 2: would windowing softmax's per-thread chunk
// stores pay? softMax (corpus/hecbench/softmax-cuda/main.cu, implementation
// 0, the one the recipe times) gives each thread a slice: three passes over
// src[i*sliceSize + j] (max, sum of exps, then the output), the last one
// storing dest[i*sliceSize + j] = expf(src[...] - max_) / sum for j <
// sliceSize (main.cu:44): each warp store touches 32 rows sliceSize*4 bytes
// apart. clang unrolls that loop by 2: the census's 2 "no candidate: chunk"
// stores are its two stores (+0, +4); the remainder iteration's store is one
// of the 4 "column" findings (not this probe's), gone with the loop here.
// Launch as the program's: BLOCK_SIZE = 256 threads a block,
// ceil(numSlice/256) blocks, src = rand() % 13 after srand(2).
// Variants:
//   orig       softMax as written (its PTX is main.cu's)
//   window     each warp owns a shared window float[32][W + 1] (a row per
//              lane, padded: conflict-free); its lanes compute W = 32 outputs
//              of their slices into it, __syncwarp, then flush it: unit u is
//              row u / n, element u % n, so consecutive lanes write
//              consecutive floats (32 floats = 128 B: a row a store
//              instruction), __syncwarp; the last window holds
//              sliceSize % 32. The warp's lanes past numSlice leave as in
//              orig; the others sync on their __ballot_sync mask. 33 KiB
//              static shared memory a block.
//   window16   window, flushed in 16-byte float4 units (8 lanes a row, 4 rows
//              a store instruction) when the window's row segments are 16-B
//              aligned (sliceSize % 4 == 0: every window at 784); else as
//              window
//   softMax2   the program's implementation 1 (a warp a slice, coalesced), for
//              reference: it sums in another order, so its bytes are not
//              compared ("ref")
// and orig/window/window16 storing a cheap value (i ^ j: no max or sum pass,
// no loads): /store rows, checked against orig/store; they bound what the
// store rewrite can gain when the stores are all the kernel does.
// Check: dest (set to 0xff first) memcmp'd against orig's.
// Sizes: numSlice 100000, sliceSize 784 (recipe args 100000 784 0 100, also
// the Makefile's first run): 391 blocks, all resident at once. Useful bytes:
// src read once and dest written (2 x 313.6 MB); memcpy copies dest's bytes
// (GB/s: read + write). `small` (for compute-sanitizer): 1000 x 784 (the
// recipe's sanitize args: a warp of 8 lanes, windows of 32 and a last one of
// 16) and 300 x 785 (odd rows: the 16-byte flush falls back; a warp of 12
// lanes), one timed launch.
// Times: the median of 20 launches (after one).
// Build: run_chunk_stores.sh build OUT (coalda cc -fno-coalda, clang 19),
// and once with the pass (softmax_coalda): there orig's src loads are
// windowed, as in main.cu's COALDA build (the program as COALDA builds it
// today, 1.05x in performance.md); the window variants' loads are not (with
// the stores out of the loop, its loads are read only, which the pass's
// read-only rule leaves alone at run-time row lengths; with
// -coalda-window-read-only=runtime, the two windows' 51 KB exceed the 48 KB of
// static shared memory, and at W = 16 the read-only window would run only
// for rows a multiple of 128 B, which 3136 B is not). So the two stay apart.
//
// The pass (coalda cc -Wcoalda, as run_chunk_stores.sh builds it) leaves
// the dest stores alone, here as in main.cu:
//   softmax_chunk_stores.cu:95: coalda: orig<false>: left alone: not a pure copy: the value stored at offset 0 is computed, not loaded
//   softmax_chunk_stores.cu:95: coalda: orig<false>: left alone: not a pure copy: the value stored at offset 0 is computed, not loaded
//   softmax_chunk_stores.cu:88: coalda: orig<false>: rewrote: staged the chunk of src through a shared-memory window of 32 bytes per thread (block tile, 18432 bytes for 512 threads), refilled by the block when 13 loads leave it; 1-D blocks of up to 512 threads whose rows are at least 80 bytes, in grids of at least 1 block per SM take it, others run the original loads; 2 stores that may write it also update the thread's window
//   softmax_chunk_stores.cu:184: coalda: window<false, false>: left alone: the loop only reads its chunks, and src's row length is known only at run time: the tile's shared memory would cost the original loop L1 at lengths not a multiple of 128 bytes (0.74-0.97x; -coalda-window-read-only=runtime takes it)
//   softmax_chunk_stores.cu: coalda: 1 rewritten, 6 left alone, in 7 kernels
//   softmax_chunk_stores.cu: coalda: kernel _Z4origILb0EEviiPKfPf: limited to 64 registers (.maxnreg): it took 72 after the rewrite and 26 before, and would no longer launch with 1024 threads
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

#define BLOCK_SIZE 256

// softMax as written; CHEAP stores i ^ j instead, for the /store rows
template <bool CHEAP>
__global__
void orig (const int numSlice, const int sliceSize,
           const float* src, float* dest)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numSlice) return;
  if (CHEAP) {
    for (int j = 0; j < sliceSize; j++) dest[i * sliceSize + j] = (float)(i ^ j);
    return;
  }
  float max_ = src[i * sliceSize];
  for (int j = 0; j < sliceSize; j++) {
    max_ = max(max_, src[i * sliceSize + j]);
  }
  float sum = 0;
  for (int j = 0; j < sliceSize; j++) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  for (int j = 0; j < sliceSize; j++) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}

// softMax2 (implementation 1) as written
__global__
void softMax2 (const int numSlice, const int sliceSize,
              const float* src, float* dest)
{
  namespace cg = cooperative_groups;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  int i = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (i >= numSlice) return;
  float max_ = src[i * sliceSize];
  for (int j = warp.thread_rank(); j < sliceSize; j += warp.size()) {
    max_ = max(max_, src[i * sliceSize + j]);
  }
  max_ = cg::reduce(warp, max_, cg::greater<float>{});
  float sum = 0;
  for (int j = warp.thread_rank(); j < sliceSize; j += warp.size()) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  sum = cg::reduce(warp, sum, cg::plus<float>{});
  for (int j = warp.thread_rank(); j < sliceSize; j += warp.size()) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}

constexpr int W = 32;         // outputs a window: 32 floats, a 128-B line a row
constexpr int ROW = W + 1;    // floats a lane's row in the window (padded)

// Writes a warp's window to dst[r*stride + j0 + k], rows r < rows, elements
// k < n: unit u is row u / n, element u % n, so consecutive lanes write
// consecutive elements of a row and on into the next row. The warp's live
// lanes 0 .. rows-1 write it, rows at a time. V16: float4 units when every
// row segment is 16-B aligned.
template <bool V16>
__forceinline__ __device__ void flush_n(float *dst, int stride, int j0, int n, const float *w, int rows, int lane) {
  if (V16 && n % 4 == 0 && stride % 4 == 0 && ((uintptr_t)(dst + j0) & 15) == 0) {
    const int q = n / 4;
    for (int u = lane; u < rows * q; u += rows) {
      const int r = u / q, c = u - r * q;
      const float *s = w + r * ROW + 4 * c;  // the padded row is not 16-B aligned: four scalar reads
      *reinterpret_cast<float4 *>(dst + (size_t)r * stride + j0 + 4 * c) = make_float4(s[0], s[1], s[2], s[3]);
    }
  } else {
    for (int u = lane; u < rows * n; u += rows) {
      const int r = u / n, k = u - r * n;
      dst[(size_t)r * stride + j0 + k] = w[r * ROW + k];
    }
  }
}

// flush_n; a full window (n == W) divides by a constant: shifts
template <bool V16>
__forceinline__ __device__ void flush(float *dst, int stride, int j0, int n, const float *w, int rows, int lane) {
  if (n == W) flush_n<V16>(dst, stride, j0, W, w, rows, lane);
  else flush_n<V16>(dst, stride, j0, n, w, rows, lane);
}

// softMax with dest written through the warp's window (the lines marked
// "window"); the rest is orig's
template <bool CHEAP, bool V16>
__global__
void window (const int numSlice, const int sliceSize,
             const float* src, float* dest)
{
  __shared__ float win[BLOCK_SIZE / 32][32 * ROW];  // window; launched with BLOCK_SIZE threads
  const int lane = threadIdx.x & 31;                // window
  float *w = win[threadIdx.x >> 5];                 // window: the warp's
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  // window: the warp's live lanes, 0 .. rows-1 (i grows with the lane), sync
  // and flush; the others leave as in orig
  const unsigned live = __ballot_sync(~0u, i < numSlice);
  if (i >= numSlice) return;
  const int rows = __popc(live), i0 = i - lane;     // window: rows i0 .. i0 + rows - 1
  if (CHEAP) {
    for (int j0 = 0; j0 < sliceSize; j0 += W) {     // window
      const int n = min(W, sliceSize - j0);
      for (int k = 0; k < n; k++) w[lane * ROW + k] = (float)(i ^ (j0 + k));
      __syncwarp(live);
      flush<V16>(dest + (size_t)i0 * sliceSize, sliceSize, j0, n, w, rows, lane);
      __syncwarp(live);
    }
    return;
  }
  float max_ = src[i * sliceSize];
  for (int j = 0; j < sliceSize; j++) {
    max_ = max(max_, src[i * sliceSize + j]);
  }
  float sum = 0;
  for (int j = 0; j < sliceSize; j++) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  for (int j0 = 0; j0 < sliceSize; j0 += W) {       // window: warp-uniform
    const int n = min(W, sliceSize - j0);
    for (int k = 0; k < n; k++) {
      const int j = j0 + k;
      w[lane * ROW + k] = expf(src[i * sliceSize + j] - max_) / sum;  // window
    }
    __syncwarp(live);  // window: flush, then free the window for the next outputs
    flush<V16>(dest + (size_t)i0 * sliceSize, sliceSize, j0, n, w, rows, lane);
    __syncwarp(live);
  }
}

static cudaEvent_t e0, e1;
template <class F> static float timeit(F launch, int reps) {
  launch(); CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
  std::vector<float> ms;
  for (int r = 0; r < reps; r++) {
    CK(cudaEventRecord(e0)); launch(); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1));
    float m; CK(cudaEventElapsedTime(&m, e0, e1)); ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char **argv) {
  const bool small = argc > 1 && !strcmp(argv[1], "small");
  CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
  printf("# %s\n", p.name);
  struct Size { int numSlice, sliceSize; };
  std::vector<Size> sizes;
  if (small) sizes = {{1000, 784}, {300, 785}};
  else sizes = {{100000, 784}};
  const int reps = small ? 1 : 20;

  typedef void (*Kernel)(const int, const int, const float *, float *);
  // ref: the variant whose bytes this one must equal; -1: not compared
  struct Var { const char *name; Kernel k; bool warps; int ref; };
  const Var vars[] = {
    {"orig", orig<false>, false, 0},
    {"window", window<false, false>, false, 0},
    {"window16", window<false, true>, false, 0},
    {"softMax2", softMax2, true, -1},
    {"orig/store", orig<true>, false, 4},
    {"window/store", window<true, false>, false, 4},
    {"window16/store", window<true, true>, false, 4},
  };
  bool bad = false;
  for (const Size &z : sizes) {
    const int numSlice = z.numSlice, sliceSize = z.sliceSize, numElem = numSlice * sliceSize;
    const size_t bytes = sizeof(float) * (size_t)numElem;
    std::vector<float> input(numElem);
    srand(2);
    for (int i = 0; i < numSlice; i++)
      for (int j = 0; j < sliceSize; j++)
        input[i*sliceSize+j] = rand() % 13;
    float *d_input, *d_output, *cp;
    CK(cudaMalloc(&d_input, bytes)); CK(cudaMalloc(&d_output, bytes)); CK(cudaMalloc(&cp, bytes));
    CK(cudaMemcpy(d_input, input.data(), bytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_output, 0, bytes));
    float tm = timeit([&] { CK(cudaMemcpy(cp, d_output, bytes, cudaMemcpyDeviceToDevice)); }, reps);
    printf("n=%d x %d memcpy %.4f ms %.0f GB/s\n", numSlice, sliceSize, tm, 2.0 * bytes / tm / 1e6);
    std::vector<unsigned char> want[2], got(bytes);
    float tref[2] = {0, 0};
    for (const Var &v : vars) {
      const int q = &v - vars;
      const dim3 block(BLOCK_SIZE),
          grid(v.warps ? (numSlice + BLOCK_SIZE / 32 - 1) / (BLOCK_SIZE / 32) : (numSlice + BLOCK_SIZE - 1) / BLOCK_SIZE);
      auto launch = [&] { v.k<<<grid, block>>>(numSlice, sliceSize, d_input, d_output); };
      float t = timeit(launch, reps);
      CK(cudaMemset(d_output, 0xff, bytes));
      launch();
      CK(cudaDeviceSynchronize()); CK(cudaGetLastError());
      CK(cudaMemcpy(got.data(), d_output, bytes, cudaMemcpyDeviceToHost));
      const int rb = v.ref == 4;  // 0: softmax rows, 1: /store rows
      if (q == v.ref) { want[rb] = got; tref[rb] = t; }
      const char *check = "ref";
      if (v.ref >= 0) {
        const bool same = !memcmp(got.data(), want[rb].data(), bytes);
        bad |= !same;
        check = same ? "same" : "DIFF";
      }
      printf("n=%d x %d grid %d block %d %-14s %9.4f ms %6.0f GB/s %5.2fx %5.1f%% of memcpy %s\n", numSlice, sliceSize,
             grid.x, block.x, v.name, t, 2.0 * bytes / t / 1e6, tref[rb] / t, 100.0 * tm / t, check);
    }
    // a spot value, to see the output is not trivially 0 or NaN
    const float *o = reinterpret_cast<const float *>(want[0].data());
    printf("n=%d x %d dest[mid] = %.8g\n", numSlice, sliceSize, o[(size_t)numSlice / 2 * sliceSize + sliceSize / 2]);
    CK(cudaFree(d_input)); CK(cudaFree(d_output)); CK(cudaFree(cp));
  }
  return bad ? 1 : 0;
}
