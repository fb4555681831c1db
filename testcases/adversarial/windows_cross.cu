// Adversarial corpus: chunk windows against writes by OTHER threads that
// the original orders before the owner's read (pass/lib/ChunkWindow.cpp's
// banner: "a refill reads earlier than the owner would: another thread's
// write would race with the owner's read in the original" -- not so when a
// __syncthreads() orders it). Rows of 24 ints (96 bytes, over the 80-byte
// cost rule; 32 ints for the reduction), blocks of 128, n = 256 (every
// block votes in); the loops also store to global memory. The neighbour q
// is the next thread of the SAME block, so every original is race-free: each
// cross-thread write is separated from the owner's read by a block barrier.
//
// Outcome (opt plugin of 2026-12-04, -O3 and -O0, default options and with
// -coalda-window-read-only=runtime -coalda-window-arms, and
// -coalda-window-scope=warp): checkWrites refuses every kernel whose
// barrier (direct, __syncthreads_count/_or, in a helper the pass inlines,
// in a `pure` helper up to four calls deep) lies between the vote and a
// chunk load ("a call before a chunk load may write its chunk").
// Windowed and matching: cross_control, barrier_then_unrolled_tail (the
// tail loop is unrolled: no site after the barrier).
// deep_pure_between_loops -- the barrier five calls deep under
// __attribute__((pure)) (a lie: the call is memory(read), the pass's
// inliner stops at four levels) -- was windowed and computed other bytes;
// checkWrites now refuses any convergent call that is not an intrinsic
// between the vote and a chunk load, whatever its memory attributes.
// deep_plain_between_loops, the same without `pure`, was refused already.
// Decisions pinned in tests/test_adversarial_windows_cross.py.

#define P (blockIdx.x * blockDim.x + threadIdx.x)
#define Q (blockIdx.x * blockDim.x + (threadIdx.x + 1) % blockDim.x)

// control: the baseline shape, windowed at both levels.
__global__ void cross_control(int *out, const int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
}

// (1) barrier in the loop: at iteration k every thread writes element k+1 of
// its neighbour's chunk, __syncthreads(), and the neighbour reads it at
// iteration k+1. A window filled at k = 0 holds the old k+1..7.
__global__ void barrier_in_loop(int *out, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) {
    int v = a[p * len + k];
    out[k * n + p] = v * 3 + 1;
    if (k + 1 < len) a[q * len + k + 1] = v + 1000 * p;
    __syncthreads();
  }
}

// (1b) the same with the write before the load in the iteration:
// write neighbour's k, barrier, read own k.
__global__ void barrier_in_loop_before(int *out, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) {
    a[q * len + k] = k * 7 + p;
    __syncthreads();
    out[k * n + p] = a[p * len + k] * 3 + 1;
    __syncthreads();
  }
}

// (2) two loops: the first reads the own chunk (its last refill leaves the
// chunk's tail in the window), then every thread writes the tail of its
// neighbour's chunk between two barriers, and the second loop reads the
// own tail again (a window hit, stale if the tile is reused).
__global__ void barrier_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  __syncthreads();
  a[q * len + len - 1] = -p;
  a[q * len + len - 3] = 5 * p;
  __syncthreads();
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = a[p * len + k] ^ k;
}


// (2c) the ordering through __syncthreads_count / __syncthreads_or.
__global__ void count_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  int c = __syncthreads_count(p & 1);
  a[q * len + len - 1] = -p + c;
  int o = __syncthreads_or(p == 3);
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = (a[p * len + k] ^ k) + o;
}

// (2d) the barrier in a device function the kernel calls (not inlined).
__device__ __noinline__ void block_sync() { __syncthreads(); }
__global__ void helper_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  block_sync();
  a[q * len + len - 1] = -p;
  block_sync();
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = a[p * len + k] ^ k;
}

// (2e) the barrier in a function declared pure (a lie: it synchronizes;
// clang marks its call readonly, so it "writes no memory").
__device__ __noinline__ __attribute__((pure)) int pure_sync(int x) {
  __syncthreads();
  return x + 1;
}
__global__ void pure_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int s = 0;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  s += pure_sync(p);
  a[q * len + len - 1] = -p;
  s += pure_sync(q);
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = (a[p * len + k] ^ k) + s;
}

// (2f) a barrier-in-the-loop through the pure function.
__global__ void pure_in_loop(int *out, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int s = 0;
  for (int k = 0; k < len; k++) {
    int v = a[p * len + k];
    out[k * n + p] = v * 3 + 1 + s;
    if (k + 1 < len) a[q * len + k + 1] = v + 1000 * p;
    s += pure_sync(k);
  }
}

// (3) the neighbour's chunk written through another parameter (w, which
// the alias/overlap layouts make the same buffer as a): the pass cannot
// prove w disjoint from a.
__global__ void other_pointer(int *out, int *w, const int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) {
    int v = a[p * len + k];
    out[k * n + p] = v * 3 + 1;
    if (k + 1 < len) w[q * len + k + 1] = v + 1000 * p;
    __syncthreads();
  }
}

// (3b) through a pointer chosen by a value loaded from memory (sel[0] = 1:
// w is a; the pass sees a select of a and out).
__global__ void loaded_pointer(int *out, int *a, const int *sel, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int *w = sel[0] ? a : out;
  for (int k = 0; k < len; k++) {
    int v = a[p * len + k];
    out[k * n + p] = v * 3 + 1;
    if (k + 1 < len) w[q * len + k + 1] = v + 1000 * p;
    __syncthreads();
  }
}

// (4) the ordering by atomics on a __shared__ counter + __threadfence_block
// and a second loop (no block barrier between the loops besides a
// shared-memory fence).
__global__ void fence_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  __syncthreads();
  a[q * len + len - 1] = -p;
  __threadfence_block();
  __syncthreads();
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = a[p * len + k] ^ k;
}


// (6) the first shape of barrier_between_loops: the second loop's trip count
// is a constant 4, fully unrolled at both levels, so its loads are no loop's
// sites and read global memory after the barrier. Windowed (the first loop
// alone); the neighbour's writes after the last site must be seen.
__global__ void barrier_then_unrolled_tail(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  __syncthreads();
  a[q * len + len - 1] = -p;
  a[q * len + len - 3] = 5 * p;
  __syncthreads();
  for (int k = len - 4; k < len; k++) out2[(k - len + 4) * n + p] = a[p * len + k] ^ k;
}

// (7) a barrier five calls deep, under a function declared pure (a lie: the
// pass inlines helpers four levels deep; the fifth call stays a call, and a
// pure one "writes no memory").
__device__ __noinline__ __attribute__((pure)) int deep5(int x) { __syncthreads(); return x + 1; }
__device__ __noinline__ int deep4(int x) { return deep5(x) + 1; }
__device__ __noinline__ int deep3(int x) { return deep4(x) + 1; }
__device__ __noinline__ int deep2(int x) { return deep3(x) + 1; }
__device__ __noinline__ int deep1(int x) { return deep2(x) + 1; }
__global__ void deep_pure_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int s = 0;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  s += deep1(p);
  a[q * len + len - 1] = -p;
  a[q * len + len - 3] = 5 * p;
  s += deep1(q);
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = (a[p * len + k] ^ k) + s;
}

// (7b) the same without the pure lie: the fifth call may write memory.
__device__ __noinline__ int plain5(int x) { __syncthreads(); return x + 1; }
__device__ __noinline__ int plain4(int x) { return plain5(x) + 1; }
__device__ __noinline__ int plain3(int x) { return plain4(x) + 1; }
__device__ __noinline__ int plain2(int x) { return plain3(x) + 1; }
__device__ __noinline__ int plain1(int x) { return plain2(x) + 1; }
__global__ void deep_plain_between_loops(int *out, int *out2, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int s = 0;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] * 3 + 1;
  s += plain1(p);
  a[q * len + len - 1] = -p;
  a[q * len + len - 3] = 5 * p;
  s += plain1(q);
  for (int k = len - len / 4; k < len; k++) out2[(k - len + len / 4) * n + p] = (a[p * len + k] ^ k) + s;
}

// (8) loops that only read (rows of 32 ints, 128 bytes: the window under
// -coalda-window-read-only=runtime): a sum, the neighbour's tail written
// between barriers, the tail summed again.
__global__ void reduce_barrier_between(int *out, int *a, int n, int len) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  int s = 0;
  for (int k = 0; k < len; k++) s += a[p * len + k];
  __syncthreads();
  a[q * len + len - 1] = -p;
  __syncthreads();
  for (int k = len - len / 4; k < len; k++) s = s * 3 + a[p * len + k];
  out[p] = s;
}

// (9) the chunk read in both arms of a uniform branch (-coalda-window-arms),
// the neighbour's next element written and a barrier in the loop.
__global__ void arms_barrier(int *out, int *a, int n, int len, int first) {
  int p = P, q = Q;
  if (p >= n) return; // n is a multiple of the block: no thread leaves
  for (int k = 0; k < len; k++) {
    int v = k == first ? a[p * len + k] * 2 : a[p * len + k] + 7;
    out[k * n + p] = v;
    if (k + 1 < len) a[q * len + k + 1] = v + 1000 * p;
    __syncthreads();
  }
}
