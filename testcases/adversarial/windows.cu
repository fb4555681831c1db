// Adversarial corpus: chunk windows (pass/lib/ChunkWindow.cpp, emitter in
// ChunkWindowEmitter.cpp). A loop in which each thread walks its own chunk
// `in[p*len + k]` (len a kernel argument) is read through a 32-byte-per-row
// __shared__ window that the block refills at block-uniform points, after a
// vote (barrier0.and) before the loops; a clone of the code after the vote is
// the fallback for blocks that are not all active, not 1-D, larger than the
// tile, or whose rows are shorter than the cost rule's 80 bytes. The kernels
// below attack each step: where the loop starts and how it steps, which
// chunk elements it reads, the element type, the chunk length against the
// cost rule, guards, stores that write the chunk (write-through), the launch
// shape, loop shapes the pass must refuse. Each says what the pass must do
// with it ("Windowed" = transformed at -O3 and -O0 unless said). Launch
// specs: windows.toml (n = 300: two full blocks of 128 and a partial one,
// unless said); decisions pinned in tests/test_adversarial_windows.py.
//
// Integer elements where the values are combined, so that NaN payloads of
// random float bytes cannot make the comparison depend on operand order.

#define P (blockIdx.x * blockDim.x + threadIdx.x)

struct I3 { int a, b, c; };

// ---------------------------------------------------------------- windowed

// The baseline: int index, coalesced column store. Windowed.
__global__ void basic(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * 3 + 1;
}

// size_t index, float chunk (one operand per value). Windowed.
__global__ void sizet_float(float *out, const float *in, int n, int len) {
  size_t p = P;
  if (p >= (size_t)n) return;
  for (size_t k = 0; k < (size_t)len; k++) out[k * n + p] = in[p * len + k] * 0.5f;
}

// k from 1: in[k] and in[k-1] share the window (the k-1 load leaves it
// backwards by one element at every refill). Windowed.
__global__ void from_one(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 1; k < len; k++) out[(k - 1) * n + p] = in[p * len + k] - 7 * in[p * len + k - 1];
}

// only a negative offset: in[k-1], k from 1 to len. Windowed.
__global__ void negative_offset(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 1; k <= len; k++) out[(k - 1) * n + p] = in[p * len + k - 1] ^ k;
}

// a run-time start (uniform argument). Windowed.
__global__ void from_arg(int *out, const int *in, int n, int len, int start) {
  int p = P;
  if (p >= n) return;
  for (int k = start; k < len; k++) out[k * n + p] = in[(size_t)p * len + k] + in[(size_t)p * len + k - start];
}

// step 2, two loads per iteration (k, k+1). Windowed.
__global__ void step_two(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k += 2) out[(k / 2) * n + p] = in[p * len + k] * 5 + in[p * len + k + 1];
}

// step 2, only even elements, odd length (the last k is len-1): the window
// holds odd elements the owner never reads. Windowed.
__global__ void step_two_even(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k += 2) out[(k / 2) * n + p] = in[p * len + k] + 1;
}

// k advances by 1, the index by 2 elements. Windowed.
__global__ void index_times_two(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; 2 * k < len; k++) out[k * n + p] = in[p * len + 2 * k] * 9;
}

// two chunk arrays of different widths (int, long long). Windowed.
__global__ void two_chunks(long long *out, const int *a, const long long *b, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = b[(size_t)p * len + k] * 3 - a[(size_t)p * len + k];
}

// 8-byte elements. Windowed.
__global__ void longs(long long *out, const long long *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = in[(size_t)p * len + k] + k;
}

// doubles, one operand per value. Windowed.
__global__ void doubles(double *out, const double *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = in[(size_t)p * len + k] * 2.0;
}

// 16-byte elements (a vector type: one 16-byte load, two to a window row).
// Windowed.
typedef int v4i __attribute__((ext_vector_type(4)));
__global__ void vec16(v4i *out, const v4i *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = in[(size_t)p * len + k] * 3 + k;
}

// int4 elements (a struct: -O3 reads its members as 4-byte loads, -O0
// through a memcpy). Windowed at -O3.
__global__ void int4_members(int4 *out, const int4 *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    int4 v = in[(size_t)p * len + k];
    out[(size_t)k * n + p] = make_int4(v.x + 1, v.y ^ v.z, v.z, v.w * 3);
  }
}

// members of a 12-byte struct: only .a and .c are read (.b lies in the
// window, never read by its owner). Windowed.
__global__ void struct_members(int *out, const I3 *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = in[(size_t)p * len + k].a - in[(size_t)p * len + k].c;
}

// The same body at several chunk lengths (windows.toml): 5 and 19 ints (20
// and 76 bytes: the cost rule sends every block to the original loop), 20
// (80 bytes, the smallest windowed row), 33 (not a multiple of -O3's
// unroll by 4: the remainder loop's sites) and 200. Windowed (statically;
// at run time per the length).
#define LENGTH_KERNEL(name)                                                      \
  __global__ void name(int *out, const int *in, int n, int len) {                \
    int p = P;                                                                   \
    if (p >= n) return;                                                          \
    for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * 7 - k;      \
  }
LENGTH_KERNEL(len_5)
LENGTH_KERNEL(len_19)
LENGTH_KERNEL(len_20)
LENGTH_KERNEL(len_33)
LENGTH_KERNEL(len_200)

// The same body under several launch shapes (windows.toml, no guard, exact
// grid): 32, 100 (not a power of two) and 512 threads (the tile's capacity)
// are windowed; 1024 threads and a 2-D block (its rows are threadIdx.y)
// must run the original loop at run time; blocks of one thread are
// windowed too. Windowed (statically).
#define SHAPE_KERNEL(name)                                                              \
  __global__ void name(int *out, const int *in, int len) {                              \
    int p = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;         \
    int n = gridDim.x * blockDim.x * blockDim.y;                                        \
    for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 11;                \
  }
SHAPE_KERNEL(block_1)
SHAPE_KERNEL(block_32)
SHAPE_KERNEL(block_100)
SHAPE_KERNEL(block_512)
SHAPE_KERNEL(block_1024)
SHAPE_KERNEL(block_2d)

// __launch_bounds__(64): a tile for 64 threads, launched with 64. Windowed.
__global__ void __launch_bounds__(64) bounded_64(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 2;
}

// __launch_bounds__(128) and 36 KB of the kernel's own shared memory: a
// tile for 128 threads (4.5 KB) fits beside it, one for 512 does not.
// Windowed, with a 128-thread tile.
__global__ void __launch_bounds__(128) bounded_big_shared(int *out, int *last, const int *in, int n, int len) {
  __shared__ int mine[128 * 72];
  int p = P;
  if (p >= n) return;
  for (int j = 0; j < 72; j++) mine[threadIdx.x * 72 + j] = j;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    mine[threadIdx.x * 72 + (v & 63)] = k;
    out[k * n + p] = v + 1;
  }
  last[p] = mine[threadIdx.x * 72 + 5];
}

// __restrict__ everywhere (no write-through, no overlap layouts). Windowed.
__global__ void restricted(int *__restrict__ out, const int *__restrict__ in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * in[p * len + k];
}

// The chunk's length and a uniform flag loaded from memory before the loop
// (block-uniform loads). Windowed.
__global__ void loaded_length(int *out, const int *in, const int *cfg, int n) {
  int p = P;
  int len = cfg[0];
  if (p >= n || cfg[1] == 0) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] - 1;
}

// In place, a prefix sum: each store writes the element the next iteration
// reads (write-through into the thread's own window row). Windowed.
__global__ void prefix_sum(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 1; k < len; k++) a[p * len + k] += a[p * len + k - 1];
}

// In place, the store one element ahead of the load (inside the window).
// Windowed.
__global__ void write_ahead(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k++) a[p * len + k + 1] = a[p * len + k] * 3 + 1;
}

// In place, the store 9 elements ahead (past the 8-element window: read
// back by a later refill). Windowed.
__global__ void write_far_ahead(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 9 < len; k++) a[p * len + k + 9] ^= a[p * len + k] + k;
}

// In place, a store in a divergent branch (on the loaded value); the
// threads meet again before the next load. Windowed.
__global__ void divergent_store(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k++) {
    int v = a[p * len + k];
    if (v & 1) a[p * len + k + 1] = v >> 1;
    a[p * len + k] = v + 1;
  }
}

// The chunk written through another pointer that may alias it (the overlap
// layouts pass out = in +/- 4 bytes: every store writes the window).
// Windowed.
__global__ void alias_store(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k++) out[p * len + k] = in[p * len + k] * 2 + in[p * len + k + 1];
}

// An 8-byte store that may straddle the window's edges (aliasing an int
// chunk through a long long pointer; overlap layouts). Windowed.
__global__ void alias_wide_store(long long *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)p * len + k] = (long long)in[(size_t)p * len + k] * 3;
}

// The chunk read by two consecutive loops (a sum, then a normalisation):
// the second loop starts at the chunk again. Windowed.
__global__ void two_loops(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[p * len + k];
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * len - s;
}

// Two alternative loops on a uniform argument. Windowed.
__global__ void alternatives(int *out, const int *in, int n, int len, int mode) {
  int p = P;
  if (p >= n) return;
  if (mode)
    for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 100;
  else
    for (int k = 1; k < len; k++) out[k * n + p] = in[p * len + k] - in[p * len + k - 1];
}

// dslash's shape (issue 39, item 5): the thread's row holds len/6 records
// of six ints, and iteration k reads the k-th record in either arm of a
// uniform branch, in another order in each (so that no load is hoisted out
// of the arms). Every record is read whichever way an iteration goes, so
// the last iteration bounds the arms' loads too. Windowed (the corpus runs
// with -coalda-window-arms: by default the cost rule leaves such arrays
// alone, tests/test_adversarial_windows.py).
__global__ void arms_cover(int *out, const int *in, int n, int len, int first) {
  int p = P;
  if (p >= n) return;
  int records = len / 6;
  int s = 0;
  for (int k = 0; k < records; k++) {
    const int *a = in + p * len + 6 * k;
    if (k == first)
      s = a[0] * 3 + a[1] * 5 + a[2] * 7 + a[3] * 11 + a[4] * 13 + a[5] * 17;
    else
      s += a[5] - 2 * a[4] + 3 * a[3] - 4 * a[2] + 5 * a[1] - 6 * a[0];
    out[k * n + p] = s;
  }
}

// The arms read different elements: the `first` arm reads a[0..3] of the
// record and a[18..20] (the row's last record at k = 0, past the row on
// later iterations), the other arm a[3..5]. Only a[3] is read on every
// iteration; bounding the others by the last iteration would refill past
// the row (past the array for the last thread). So only the a[3] loads are
// windowed, and the others stay where they are.
__global__ void arms_differ(int *out, const int *in, int n, int len, int first) {
  int p = P;
  if (p >= n) return;
  int records = len / 6;
  int s = 0;
  for (int k = 0; k < records; k++) {
    const int *a = in + p * len + 6 * k;
    if (k == first)
      s = a[0] * 3 + a[1] * 5 + a[2] * 7 + a[3] * 11 + a[18] * 13 + a[19] * 17 + a[20];
    else
      s += a[5] - 2 * a[4] + 3 * a[3];
    out[k * n + p] = s;
  }
}

// Rows of len ints beside an index row of four ints (16 bytes, under the
// cost rule's 80): the index array is left out on its own and read where it
// is; the long rows keep their window. Windowed.
__global__ void short_and_long(int *out, const int *in, const int *idx, int n, int len) {
  int p = P;
  if (p >= n) return;
  int records = len / 6;
  for (int k = 0; k < records; k++)
    out[k * n + p] = in[p * len + 6 * k] * 7 + idx[p * 4 + k];
}

// The thread's own chunk and the next thread's (the window ping-pongs
// between the two rows). in holds n+1 chunks. Windowed.
__global__ void neighbour_too(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * 2 - in[(p + 1) * len + k];
}

// Two loads 8 elements (one window) apart. Windowed.
__global__ void window_apart(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 8 < len; k++) out[k * n + p] = in[p * len + k] + 3 * in[p * len + k + 8];
}

// The chunk of a 32-bit unsigned index (ScalarEvolution cannot see through
// its zext: the automaton's reading by the induction). Windowed.
__global__ void unsigned_index(int *out, const int *in, unsigned n, unsigned len) {
  unsigned p = P;
  if (p >= n) return;
  for (unsigned k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 5;
}

// The load in the loop's header, before the exit test: it runs once more
// than the body (k = len reads the next chunk's first element, which
// `last` keeps). in holds one more element. Windowed.
__global__ void header_load(int *out, int *last, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int v, k;
  for (k = 0; (v = in[(size_t)p * len + k], k < len); k++) out[(size_t)k * n + p] = v + 1;
  last[p] = v;
}

// The same with a header too big for -O3's loop rotation (the load's value
// mixed into a long hash before the exit test).
__global__ void header_load_big(int *out, int *last, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int v, h = 0, k;
  for (k = 0; (v = in[(size_t)p * len + k],
               h = ((h ^ v) * 16777619 + (h >> 3)) ^ ((h << 7) * 31 + (v >> 2)) ^ ((h * 5) >> 11) ^ (v * 13 + (h << 2)),
               k < len);
       k++)
    out[(size_t)k * n + p] = h;
  last[p] = v + h;
}

// The header's load stepping two elements (len even: k = len is the extra
// load). A bound one step short falls 8 bytes short, more than the load's
// width: its length must not wrap. Windowed.
__global__ void header_load_step_two(int *out, int *last, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int v, k;
  for (k = 0; (v = in[(size_t)p * len + k], k < len); k += 2) out[(size_t)k * n + p] = v * 3;
  last[p] = v;
}

// A load in the header (len + 1 times) and one in the body (len times) of
// the same chunk, one element apart: the body's bound is not the header's.
// Windowed.
__global__ void header_and_body(int *out, int *last, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int v, k;
  for (k = 0; (v = in[(size_t)p * len + k], k < len); k++)
    out[(size_t)k * n + p] = v - in[(size_t)p * len + k + 1];
  last[p] = v;
}

// a do-while (the exit at the latch): the body runs len times. Windowed.
__global__ void do_while(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int k = 0;
  do {
    out[k * n + p] = in[p * len + k] * 4;
    k++;
  } while (k < len);
}

// A `continue` on a uniform condition after the load. Windowed.
__global__ void uniform_continue(int *out, const int *in, int n, int len, int skip) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    if (k == skip) continue;
    out[k * n + p] = v + 9;
  }
}

// The kernel's own static shared memory beside the window (written in the
// loop by the thread, read back by itself). Windowed.
__global__ void own_shared(int *out, const int *in, int n, int len) {
  __shared__ int mine[128 * 4];
  int p = P;
  if (p >= n) return;
  for (int j = 0; j < 4; j++) mine[threadIdx.x * 4 + j] = j;
  for (int k = 0; k < len; k++) {
    mine[threadIdx.x * 4 + (k & 3)] = in[p * len + k];
    out[k * n + p] = mine[threadIdx.x * 4 + ((k + 1) & 3)] + mine[threadIdx.x * 4 + (k & 3)];
  }
}

// Chunks interleaved by block: p = threadIdx.x * gridDim.x + blockIdx.x
// (the lane stride is gridDim.x * len elements). Windowed.
__global__ void interleaved(int *out, const int *in, int n, int len) {
  int p = threadIdx.x * gridDim.x + blockIdx.x;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] * 13;
}

// Each thread reads len + 8 elements: its chunk and the next one's first 8
// (overlapping rows, read only). in holds n+1 chunks. Windowed.
__global__ void overlapping_chunks(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len + 8; k++) out[k * n + p] = in[p * len + k] + k;
}

// The lane stride differs per block: threadIdx.x * (len + blockIdx.x), so
// with len = 19 block 0's rows are 76 bytes (the original loop) and the
// others' 80 and 84 (windowed): the cost rule is decided per block. The
// blocks' chunks overlap (read only). Windowed.
__global__ void per_block_stride(int *out, const int *in, int len) {
  int t = threadIdx.x;
  for (int k = 0; k < len; k++)
    out[(blockIdx.x * len + k) * blockDim.x + t] = in[blockIdx.x * 7 + t * (len + blockIdx.x) + k] * 3;
}

// In place: a store into the chunk after the vote, before the loop (the
// refill's barrier makes it seen), and one between two loops into the
// window the first loop left (written through). Windowed.
__global__ void stores_around(int *a, int *out, int n, int len) {
  int p = P;
  if (p >= n) return;
  a[p * len + 3] = 12345;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] + 1;
  a[p * len + len - 2] = -777;
  for (int k = len - 8; k < len; k++) out[k * n + p] += a[p * len + k] * 2;
}

// Another thread's chunk written before a barrier that precedes the loop
// (pairs of threads p, p^1 in one block): the vote comes after the barrier.
// Windowed.
__global__ void barrier_before(int *a, int *out, int n, int len) {
  int p = P;
  a[(p ^ 1) * len + (p & 7)] = p * 1000;
  __syncthreads();
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = a[p * len + k] - k;
}

// A pointer that walks the chunk (-O3: a pointer induction).
__global__ void pointer_walk(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  const int *q = in + (size_t)p * len;
  for (int k = 0; k < len; k++) out[k * n + p] = *q++ + 3;
}

// The loop's sum used after the guard's join (-O0: a value of the versioned
// region used outside it). Windowed.
__global__ void sum_after(int *out, int *last, const int *in, int n, int len) {
  int p = P;
  int s = 1;
  if (p < n)
    for (int k = 0; k < len; k++) {
      s = s * 3 + in[p * len + k];
      out[k * n + p] = s;
    }
  if (p < n) last[p] = s;
}

// A do-while without a guard (exact grid): the loop's preheader is the
// vote's block. Windowed.
__global__ void do_while_noguard(int *out, const int *in, int n, int len) {
  int p = P;
  int k = 0;
  do {
    out[k * n + p] = in[p * len + k] ^ 0x55;
    k++;
  } while (k < len);
}

// A short loop counter. Windowed.
__global__ void short_counter(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (short k = 0; k < len; k++) out[k * n + p] = in[p * len + k] - 2;
}

// Two inductions: k by 1, j by 2 (two sites advancing at different rates;
// j reaches twice as far). Windowed.
__global__ void two_rates(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0, j = 0; k < len; k++, j += 2) out[k * n + p] = in[p * 2 * len + k] + in[p * 2 * len + j];
}

// A member copy the copy rewrite takes (3-byte pixels) beside a chunk loop.
struct Px { unsigned char r, g, b; };
__global__ void copy_and_window(Px *__restrict__ dst, const Px *__restrict__ src, int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  dst[p].r = src[p].r;
  dst[p].g = src[p].g;
  dst[p].b = src[p].b;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 4;
}

// Two views of one buffer (a and b may alias: the overlap layouts pass
// b = a +/- 4 bytes) at different lane strides: the in-place store must
// reach both windows. Windowed.
__global__ void two_views(int *a, const int *b, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k++) a[p * len + k + 1] = a[p * len + k] * 5 + b[p * 2 * len + k];
}

// In place, one byte of the next element (a 1-byte store into the int
// window: mirrored byte by byte). Windowed.
__global__ void byte_store(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k + 1 < len; k++) {
    int v = a[p * len + k];
    ((char *)a)[(p * len + k + 1) * 4 + 1] = (char)(v >> 3);
    a[p * len + k] = v * 7;
  }
}

// In place, 16 bytes ahead (an int4 assignment: a 16-byte vector store at
// -O3, a memcpy from a local at -O0) that the next iteration reads.
// Windowed.
__global__ void int4_ahead(int *a, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; 4 * k + 4 < len; k++) {
    int x = a[p * len + 4 * k];
    int4 v = make_int4(x, x + 1, x * 2, x ^ 9);
    *(int4 *)&a[p * len + 4 * k + 4] = v;
  }
}

// A local array written in the loop (-O0: an alloca the thread writes).
// Windowed.
__global__ void local_array(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int t[4] = {1, 2, 3, 4};
  for (int k = 0; k < len; k++) {
    t[k & 3] += in[p * len + k];
    out[k * n + p] = t[(k + 1) & 3];
  }
}

// A barrier after the guarded loop, then a neighbour's value through shared
// memory (the versioned region holds the barrier). Windowed.
__global__ void barrier_after(int *out, int *last, const int *in, int n, int len) {
  __shared__ int s[128];
  int p = P;
  int acc = 0;
  if (p < n)
    for (int k = 0; k < len; k++) {
      acc += in[p * len + k];
      out[k * n + p] = acc;
    }
  s[threadIdx.x] = acc;
  __syncthreads();
  if (p < n) last[p] = s[(threadIdx.x + 1) % blockDim.x];
}

// A per-block chunk length, loaded by thread 0 into shared memory before a
// barrier (len[] = 19, 24, 19 ...: 76-byte rows run the original loop).
// Windowed.
__global__ void shared_length(int *out, const int *in, const int *lens, int n) {
  __shared__ int s_len;
  if (threadIdx.x == 0) s_len = lens[blockIdx.x] - 5 * (blockIdx.x & 1);
  __syncthreads();
  int len = s_len;
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + len;
}

// Two 16-byte chunk arrays: two 24 KB tiles, the whole 48 KB of static
// shared memory. Windowed.
typedef long long v2l __attribute__((ext_vector_type(2)));
__global__ void two_vec16(v4i *out, const v4i *a, const v2l *b, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    v2l y = b[(size_t)p * len + k];
    out[(size_t)k * n + p] = a[(size_t)p * len + k] + (v4i){(int)y.x, (int)y.y, (int)(y.x >> 32), 1};
  }
}

// 8-byte elements aligned to 4 (a struct of two ints read whole): the
// window's 8-byte units at 4-byte alignment (the layouts misalign by 4).
struct Pair { int lo, hi; };
__global__ void pair_align4(Pair *out, const Pair *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    Pair v = in[(size_t)p * len + k];
    out[(size_t)k * n + p] = Pair{v.hi, v.lo + 1};
  }
}

// In place, the store before the load of the same element in the same
// iteration (-O0 keeps the load: a refill after the store, or a hit on the
// mirrored bytes). Windowed at -O0.
__global__ void store_then_load(int *a, int *out, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    a[p * len + k] = a[p * len + k] * 3 + k;
    out[k * n + p] = a[p * len + k] - 1;
  }
}

// ---------------------------------------------------------------- refused

// a break on loaded data (a per-thread trip count). Refused.
__global__ void data_break(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    if (v == 0x7f) break;
    out[k * n + p] = v;
  }
}

// a break on a uniform condition (a second exit). Refused.
__global__ void uniform_break(int *out, const int *in, int n, int len, int stop) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) {
    if (k == stop) break;
    out[k * n + p] = in[p * len + k] + 1;
  }
}

// a trip count that differs per thread. Refused.
__global__ void per_thread_trip(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len - (p % 3); k++) out[k * n + p] = in[p * len + k] + 1;
}

// the chunk loop nested in another (walked twice). Refused.
__global__ void nested(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int j = 0; j < 2; j++)
    for (int k = 0; k < len; k++) out[(j * len + k) * n + p] = in[p * len + k] + j;
}

// a grid-stride loop around the chunk loop (nested). Refused.
__global__ void grid_stride(int *out, const int *in, int n, int len) {
  for (int p = P; p < n; p += gridDim.x * blockDim.x)
    for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] ^ 3;
}

// a barrier in the loop (no guard: an exact grid). Refused.
__global__ void barrier_inside(int *out, const int *in, int n, int len) {
  int p = P;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    __syncthreads();
    out[k * n + p] = v + 1;
  }
}

// the chunk read backwards (the address falls with the loop). Refused.
__global__ void backwards(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = len - 1; k >= 0; k--) out[k * n + p] = in[p * len + k] * 3;
}

// a run-time step (not a constant). Refused.
__global__ void step_arg(int *out, const int *in, int n, int len, int step) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k += step) out[k * n + p] = in[p * len + k] + 1;
}

// a guard on loaded per-thread data before the loop. Refused.
__global__ void guard_on_data(int *out, const int *in, const int *flag, int n, int len) {
  int p = P;
  if (p >= n) return;
  if (flag[p] & 1) return;
  for (int k = 0; k < len; k++) out[k * n + p] = in[p * len + k] + 1;
}

// A loop that only reads its chunk (a reduction: L1 serves it unless the
// rows are a multiple of 128 bytes apart). Its row length is an argument:
// refused by default, windowed with -coalda-window-read-only=runtime (the
// corpus runs so); launched with 32-int (128-byte) rows: the blocks take
// the window.
__global__ void reduction(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[p * len + k] * (k + 1);
  out[p] = s;
}

// The same with 24-int (96-byte) rows: every block branches past the vote
// to the original loop (no barrier). Windowed as `reduction`.
__global__ void reduction_96(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[p * len + k] * (k + 1);
  out[p] = s;
}

// 128-byte rows in 2-D blocks (64 x 2): the shape fails the block-uniform
// test in every thread, so no thread reaches the vote's barrier. Windowed
// as `reduction`.
__global__ void reduction_2d(int *out, const int *in, int n, int len) {
  int p = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[p * len + k] ^ k;
  out[p] = s;
}

// Rows of a compile-time length, 64 ints (256 bytes) apart: windowed in
// every mode but never; the row test folds and only the launch shape is
// tested before the vote. A guarded loop with an early partial block.
__global__ void reduction_const(int *out, const int *in, int n) {
  int p = P;
  if (p < n) {
    int s = 0;
    for (int k = 0; k < 64; k++) s += in[p * 64 + k] * (k + 3);
    out[p] = s;
  }
}

// 100 floats (400 bytes) apart, a compile-time length that is not a
// multiple of 128: refused (L1 serves it), the kernel gets no tile.
__global__ void reduction_const_400(float *out, const float *in, int n) {
  int p = P;
  if (p >= n) return;
  float s = 0.f;
  for (int k = 0; k < 100; k++) s = s * 0.5f + in[(size_t)p * 100 + k];
  out[p] = s;
}

// an atomic on the chunk's buffer in the loop. Refused.
__global__ void atomic_inside(int *out, int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[k * n + p] = atomicAdd(&in[p * len + k], 1) + in[p * len + k];
}

// 40 KB of the kernel's own shared memory: no room for the window. Refused.
__global__ void big_shared(int *out, int *last, const int *in, int n, int len) {
  __shared__ int mine[10240];
  int p = P;
  if (p >= n) return;
  for (int j = 0; j < 80; j++) mine[threadIdx.x * 80 + j] = j;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    mine[threadIdx.x * 80 + (v & 63)] = k;
    out[k * n + p] = v + 1;
  }
  last[p] = mine[threadIdx.x * 80 + 5];
}

// dynamic shared memory (extern __shared__). Refused.
__global__ void dynamic_shared(int *out, const int *in, int n, int len) {
  extern __shared__ int dyn[];
  int p = P;
  if (p >= n) return;
  dyn[threadIdx.x] = 0;
  for (int k = 0; k < len; k++) {
    int v = in[p * len + k];
    dyn[threadIdx.x] += v;
    out[k * n + p] = dyn[threadIdx.x];
  }
}
