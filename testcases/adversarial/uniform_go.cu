// Adversarial corpus: the vote-free go of a staging (StagingUniformGo.cpp).
// A staged block takes the staged path only when every thread is active and
// its other accesses miss its own staged elements. Where the guard is a set
// of lane bounds (`lane + uniform < uniform`, +1 on the low side or -1 on
// the high side) and block-uniform conditions, and each overlap check
// compares addresses with the same thread terms, every thread computes go
// alike ("go": "uniform", no barrier); anything else keeps the barrier vote
// ("go": "vote"). The kernels below try to make the uniform form say "full"
// for a block that is not: off-by-one bounds, lane-on-the-right forms,
// unsigned and 64-bit compares, lane sides that wrap inside a block whose
// size does not divide 2^32, overlap checks between views of one buffer,
// per-thread index differences, data-dependent and temporally divergent
// guards, lane sides whose first lane's value must be recomputed,
// transposes, and prologues that write the thread's own element before the
// region (the vote's barrier ordered them before the row load; without a
// vote the staging's leading barrier must).
//
// Most kernels STORE whole elements without reading them (fill): the tile of
// a written-only array is not loaded, so a partial block that wrongly takes
// the staged path writes the shared memory's poison (the emulator fills it
// with 0xA5 before each block) into its inactive threads' elements, which a
// byte-for-byte comparison sees. A read-modify-write would write back what
// it loaded and hide the mistake.
//
// Each kernel says what it attacks and the decision expected at -O3 and -O0
// ("uniform", "vote", or not staged). Launch specs: uniform_go.toml (sizes
// 287 / 288 / 289 over blocks of 96: a last block of 95 threads, only full
// blocks, a last block of one thread). Decisions pinned in
// tests/test_adversarial_uniform_go.py.
#include <cstdint>

struct F3 { float x, y, z; };
struct D4 { double v, x, y, z; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// Fill thread t's element with values of t and s (no other memory).
#define FILL(p, k, s)                                                          \
  {                                                                            \
    (p)[k].x = (float)(k) + (s);                                               \
    (p)[k].y = (float)(k) * (s);                                               \
    (p)[k].z = (s) - (float)(k);                                               \
  }

//===----------------------------------------------------------------------===//
// Bounds on the lane index
//===----------------------------------------------------------------------===//

// No guard, no checks (exact grid, __restrict__): only the block's shape is
// tested. "shape".
__global__ void shape_only(F3 *__restrict__ y, float s) {
  int i = G;
  FILL(y, i, s);
}

// The baseline `i < n`: the last block of 95 (n = 287) or of 1 (n = 289)
// threads must run the original. "uniform".
__global__ void lt(F3 *y, float s, int n) {
  int i = G;
  if (i < n)
    FILL(y, i, s);
}

// `i <= m`, m = n - 1 (inclusive: one more thread than `<`). "uniform".
__global__ void le_inclusive(F3 *y, float s, int m) {
  int i = G;
  if (i <= m)
    FILL(y, i, s);
}

// `i <= m` with m = n - 2: at n = 289 the full-looking grid has 287 active
// elements; at n = 288 thread 287 of the last block is inactive (an
// off-by-one in the inclusive +1 would take that block). "uniform".
__global__ void le_short(F3 *y, float s, int m) {
  int i = G;
  if (i <= m)
    FILL(y, i, s);
}

// `n - i > 0`: the lane on the high side with coefficient -1. "uniform".
__global__ void sub_gt_zero(F3 *y, float s, int n) {
  int i = G;
  if (n - i > 0)
    FILL(y, i, s);
}

// `n - i >= 1`. "uniform".
__global__ void sub_ge_one(F3 *y, float s, int n) {
  int i = G;
  if (n - i >= 1)
    FILL(y, i, s);
}

// The lane on the right: `n > i`. "uniform".
__global__ void gt_swapped(F3 *y, float s, int n) {
  int i = G;
  if (n > i)
    FILL(y, i, s);
}

// `m >= i`, m = n - 1. "uniform".
__global__ void ge_swapped(F3 *y, float s, int m) {
  int i = G;
  if (m >= i)
    FILL(y, i, s);
}

// `!(i >= n)` through an early return with a lane-on-the-right bound:
// `if (n <= i) return;`. "uniform".
__global__ void ret_le_swapped(F3 *y, float s, int n) {
  int i = G;
  if (n <= i)
    return;
  FILL(y, i, s);
}

// `if (n - i <= 0) return;`. "uniform".
__global__ void ret_sub_le_zero(F3 *y, float s, int n) {
  int i = G;
  if (n - i <= 0)
    return;
  FILL(y, i, s);
}

// Unsigned index and bound. "uniform".
__global__ void unsigned_lt(F3 *y, float s, unsigned n) {
  unsigned i = G;
  if (i < n)
    FILL(y, i, s);
}

// Unsigned, inclusive, bound n - 1 (`i <= n - 1` is `i < n` only while
// n > 0). "uniform".
__global__ void unsigned_le(F3 *y, float s, unsigned m) {
  unsigned i = G;
  if (i <= m)
    FILL(y, i, s);
}

// 64-bit signed index, each register widened first (the lane side is one
// i64 width). "uniform".
__global__ void i64_lt(F3 *y, float s, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    FILL(y, i, s);
}

// 64-bit unsigned `n - i > 0`: on size_t that is `n != i`, an equality, not
// a bound: only thread i == n is inactive, the threads past it are active
// again (the buffer holds the whole grid). At n = 289 the last block's
// lane 1 is the hole and its last lane passes. -O3 folds it to `n != i`:
// "vote". -O0 keeps the subtraction, a bound `0 < n - i` on the lane side
// n - i (coefficient -1), which wraps where i > n: "uniform", the wrap
// test sending that block to the original.
__global__ void u64_sub_ne(F3 *y, float s, unsigned long n) {
  unsigned long i = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
  if (n - i > 0)
    FILL(y, i, s);
}

// 64-bit unsigned `i < n`. "uniform".
__global__ void u64_lt(F3 *y, float s, unsigned long n) {
  unsigned long i = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    FILL(y, i, s);
}

// A 32-bit index compared as 64 bits: `(long)i < n`. The lane side is
// sext(i32): not one width. "vote" (or uniform if handled exactly).
__global__ void sext_compare(F3 *y, float s, long n) {
  int i = G;
  if ((long)i < n)
    FILL(y, i, s);
}

// An offset on the guard only: `i + k < n` (k = n % 96 + 1, a parameter:
// the last lane of a block is exactly the first inactive one). "uniform".
__global__ void plus_k(F3 *y, float s, int k, int n) {
  int i = G;
  if (i + k < n)
    FILL(y, i, s);
}

// The same with a constant 7 (-O3 may move it to the other side). "uniform".
__global__ void plus_const(F3 *y, float s, int n) {
  int i = G;
  if (i + 7 < n)
    FILL(y, i, s);
}

// `i - k < n` with the access at i - k (k = 5, signed int): threads 0..4 of
// block 0 have a negative index and pass the bound; they would write before
// y, so a second, lower bound keeps them out: `i - k >= 0` bounds the
// other way (a suffix of the block). "vote".
__global__ void minus_k_two_sided(F3 *y, float s, int k, int n) {
  int i = G;
  int j = i - k;
  if (j >= 0 && j < n)
    FILL(y, j, s);
}

// The same through an unsigned index: u = i - k wraps in block 0 (threads
// 0..k-1 get 2^32 - k + t, inactive), so block 0's lane side wraps and it
// must run the original; the others are full. "uniform".
__global__ void minus_k_unsigned(F3 *y, float s, unsigned k, unsigned n) {
  unsigned u = G - k;
  if (u < n)
    FILL(y, u, s);
}

// A bound on threadIdx.x alone (t < k; k = 96 at odd n: every block full;
// k = 64 at 288: none). "uniform".
__global__ void tid_only(F3 *y, float s, int k) {
  int t = threadIdx.x;
  if (t < k)
    FILL(y, blockIdx.x * blockDim.x + t, s);
}

//===----------------------------------------------------------------------===//
// Guards combined with block-uniform conditions
//===----------------------------------------------------------------------===//

// `i < n && flag`, flag = n % 2 (on at n = 287 and 289, off at 288).
// "uniform".
__global__ void flag_and(F3 *y, float s, int flag, int n) {
  int i = G;
  if (i < n && flag)
    FILL(y, i, s);
}

// `flag && i < n` (the flag first). "uniform".
__global__ void and_flag_first(F3 *y, float s, int flag, int n) {
  int i = G;
  if (flag != 0 && i < n)
    FILL(y, i, s);
}

// Early return on `i >= n || flag == 0`. "uniform" at -O3; not staged at
// -O0 (the `||` is a branch of its own).
__global__ void or_return(F3 *y, float s, int flag, int n) {
  int i = G;
  if (i >= n || flag == 0)
    return;
  FILL(y, i, s);
}

// Two early returns with two bounds: n and m = n - 7 (the tighter one is
// the second). "uniform" at -O3; not staged at -O0 (the returns are
// branches of their own).
__global__ void two_returns(F3 *y, float s, int m, int n) {
  int i = G;
  if (i >= n)
    return;
  if (i >= m)
    return;
  FILL(y, i, s);
}

// `i < n && i < m` in one condition, m = n - 100 (two blocks of 96: the
// second partial for every n). "uniform".
__global__ void two_bounds_and(F3 *y, float s, int m, int n) {
  int i = G;
  if (i < n && i < m)
    FILL(y, i, s);
}

// `i < n || flag` (n - 5 in the spec): flag = 0 at n = 288 only; with flag
// on every thread is active (the buffer holds the whole grid). A `||` taken
// when true is not a conjunction of parts. "vote" at -O3; not staged at -O0.
__global__ void or_guard(F3 *y, float s, int flag, int n) {
  int i = G;
  if (i < n || flag)
    FILL(y, i, s);
}

// A bound read from memory uniformly (np[0] = n - 3). "uniform".
__global__ void bound_in_memory(F3 *__restrict__ y, const int *__restrict__ np, float s) {
  int i = G;
  if (i < np[0])
    FILL(y, i, s);
}

// The bound per block from memory (lim[blockIdx.x] = n - 3). "uniform".
__global__ void bound_per_block(F3 *__restrict__ y, const int *__restrict__ lim, float s) {
  int i = G;
  if (i < lim[blockIdx.x])
    FILL(y, i, s);
}

// The bound per warp (lim[tid / 32] = n - 3): a load per thread. "vote".
__global__ void bound_per_warp(F3 *__restrict__ y, const int *__restrict__ lim, float s) {
  int i = G;
  if (i < lim[threadIdx.x / 32])
    FILL(y, i, s);
}

// A bound written to shared memory by thread 0, read after a barrier.
// "uniform".
__global__ void bound_in_shared(F3 *y, float s, int n) {
  __shared__ int lim;
  if (threadIdx.x == 0)
    lim = n - 3;
  __syncthreads();
  int i = G;
  if (i < lim)
    FILL(y, i, s);
}

// A data-dependent guard: `i < flags[i]`, a per-thread load (flags[i] =
// n - 3 everywhere, so it acts as a bound: the last block is partial).
// "vote".
__global__ void guard_on_data(F3 *__restrict__ y, const int *__restrict__ flags, float s) {
  int i = G;
  if (i < flags[i])
    FILL(y, i, s);
}

// A guard on the element's own index parity (half the threads): not a
// bound. "vote".
__global__ void guard_parity(F3 *y, float s, int n) {
  int i = G;
  if (i < n && (i & 1) == 0)
    FILL(y, i, s);
}

// A guard on threadIdx.x's order reversed: `blockDim.x - 1 - t < k` (a
// suffix of the block, k = 64). "vote".
__global__ void suffix_guard(F3 *y, float s, int k) {
  int t = threadIdx.x;
  if ((int)blockDim.x - 1 - t < k)
    FILL(y, blockIdx.x * blockDim.x + t, s);
}

// A 1-D guard that mentions threadIdx.y (always 0 in a 1-D block, which the
// staged path demands): `i + threadIdx.y < n`. "vote" (two lanes) or
// "uniform"; correct either way.
__global__ void tid_y_in_bound(F3 *y, float s, int n) {
  int i = G;
  if (i + (int)threadIdx.y < n)
    FILL(y, i, s);
}

//===----------------------------------------------------------------------===//
// Lane sides that wrap inside a block
//===----------------------------------------------------------------------===//

// u = off + G with off = 2^32 - 96 + (n - 95) % 96 over blocks of 96 (96
// does not divide 2^32): at n = 288, threads 0..94 of block 0 have
// u = 2^32 - 95 + t (inactive) and thread 95 has u = 0 (active). The LAST
// thread of block 0 passes `u < n`; the block is not full (the lane side
// wraps). "uniform": block 0 must run the original (staged, its row would
// start 2^32 - 95 elements past y).
__global__ void wrap_u32(F3 *y, float s, unsigned off, unsigned n) {
  unsigned u = off + G;
  if (u < n)
    FILL(y, u, s);
}

// The same with blocks of 192 and off = 2^32 - 100. "uniform".
__global__ void wrap_u32_b192(F3 *y, float s, unsigned off, unsigned n) {
  unsigned u = off + G;
  if (u < n)
    FILL(y, u, s);
}

// A signed wrap: i = G + off (unsigned arithmetic, converted to int),
// off = 2^31 - 48: threads 0..47 of block 0 are at INT_MAX - 47 + t
// (inactive: >= n), threads 48..95 at INT_MIN + (t - 48) (active: < n). The
// element is j = i + shift, shift = -2^31 (in unsigned arithmetic): 0..47
// for the active threads (y is passed 64 elements in: the inactive ones
// would be y[-48..-1]). The last thread passes; the signed lane side wraps.
// "uniform" (the no-wrap test in signed range).
__global__ void wrap_i32_signed(F3 *y, float s, int off, int shift, int n) {
  int i = (int)(G + (unsigned)off);
  int j = (int)((unsigned)i + (unsigned)shift);
  F3 *p = y + 64;
  if (i < n)
    FILL(p, j, s);
}

// A 64-bit unsigned lane side that wraps: j = off + i (i64), off = 2^64 - 5:
// threads 0..4 of block 0 are at 2^64 - 5 + t (inactive), 5..95 at 0..90.
// Exact only in 128 bits. "uniform".
__global__ void wrap_u64(F3 *y, float s, unsigned long off, unsigned long n) {
  unsigned long j = off + (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n)
    FILL(y, j, s);
}

// A 32-bit wrap widened to 64 bits before the compare: u = off + G (u32,
// wraps in block 0), `(unsigned long)u < n`. The lane side is zext(u32):
// "vote" (or a uniform form that tests the 32-bit wrap).
__global__ void wrap_zext_compare(F3 *y, float s, unsigned off, unsigned long n) {
  unsigned u = off + G;
  if ((unsigned long)u < n)
    FILL(y, u, s);
}

//===----------------------------------------------------------------------===//
// Overlap checks (read-modify-writes: the staged path reads the tile)
//===----------------------------------------------------------------------===//

// axpy on separate arguments: the overlap layouts put x 4 bytes from y (one
// thread: the check must fail). "uniform".
__global__ void axpy(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// x = y + off, off = 0: x[i] is y[i] (each thread reads its own element,
// no race). The checks fail in every block: the original. "uniform".
__global__ void axpy_view_same(F3 *y, float a, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].y + y[i].x;
    y[i].y = a * x[i].z + y[i].y;
    y[i].z = a * x[i].x + y[i].z;
  }
}

// x = y + off, off = n: disjoint halves. Staged. "uniform".
__global__ void axpy_view_far(F3 *y, float a, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].y + y[i].x;
    y[i].y = a * x[i].z + y[i].y;
    y[i].z = a * x[i].x + y[i].z;
  }
}

// x = (char *)y + boff, boff = -4: x[i].y is y[i].x and x[i].z is y[i].y
// exactly (the thread's own element; x[i].x, which would be the previous
// element's z, is not read). Read after the store to y[i].x: the original
// reads the new value. The check's argument term (boff, scale 1) makes the
// distance 0. "uniform" (falls back at run time).
__global__ void byte_view_hit(F3 *y, float a, long boff, int n) {
  const F3 *x = (const F3 *)((const char *)y + boff);
  int i = G;
  if (i < n) {
    y[i].x = a + y[i].z;
    y[i].y = x[i].y * 2.f;
    y[i].z = x[i].z + x[i].y;
  }
}

// The same with boff = 12 * n (disjoint). Staged. "uniform".
__global__ void byte_view_far(F3 *y, float a, long boff, int n) {
  const F3 *x = (const F3 *)((const char *)y + boff);
  int i = G;
  if (i < n) {
    y[i].x = a + y[i].z;
    y[i].y = x[i].y * 2.f;
    y[i].z = x[i].z + x[i].y;
  }
}

// The same with boff = 4: x[i].x is y[i].y and x[i].y is y[i].z (x[i].z,
// the next element's x, is not read). "uniform" (falls back).
__global__ void byte_view_hit4(F3 *y, float a, long boff, int n) {
  const F3 *x = (const F3 *)((const char *)y + boff);
  int i = G;
  if (i < n) {
    y[i].z = a + y[i].x;
    y[i].x = x[i].y * 2.f;
    y[i].y = x[i].x + y[i].x;
  }
}

// x[i + 1] against y[i]: the index differs by a constant, the distance is
// the same in every thread. x = y - 1 element (off = -1): x[i + 1] is y[i],
// the thread's own element. "uniform" (falls back).
__global__ void next_index_hit(F3 *y, float a, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = a * y[i].z;
    y[i].y = x[i + 1].x + 1.f;
    y[i].z = x[i + 1].y - y[i].x;
  }
}

// The same with off = n (y holds 2n + 1 elements): disjoint. "uniform".
__global__ void next_index_far(F3 *y, float a, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = a * y[i].z;
    y[i].y = x[i + 1].x + 1.f;
    y[i].z = x[i + 1].y - y[i].x;
  }
}

// x[2 * i] against y[i]: the distance differs per thread. Separate
// arguments (the overlap layouts make them overlap). "vote".
__global__ void double_index(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[2 * i].x + y[i].x;
    y[i].y = a * x[2 * i].y + y[i].y;
    y[i].z = a * x[2 * i].z + y[i].z;
  }
}

// x indexed by j, computed separately as the same number as i
// (threadIdx.x + blockDim.x * blockIdx.x, in another order, through int
// casts); x = y + off, off = 0: each thread reads its own
// element. -O3: "uniform" (CSE makes i and j one value); -O0: "vote".
__global__ void other_ssa_index(F3 *y, float a, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  int j = (int)threadIdx.x + (int)(blockDim.x * blockIdx.x);
  if (i < n) {
    y[i].x = a * x[j].y + y[i].x;
    y[i].y = a * x[j].z + y[i].y;
    y[i].z = a * x[j].x + y[i].z;
  }
}

// x indexed by the same number through a uniformly loaded offset
// (zero[0] = 0): j = i + z, x = y. The thread terms differ (i against
// i + z, z a load, not an argument). -O0: "vote"; -O3: not staged (the
// address is computed from memory inside the region).
__global__ void loaded_zero_index(F3 *y, const int *__restrict__ zero, float a, int n) {
  int z = zero[0];
  int i = G;
  if (i < n) {
    int j = i + z;
    y[i].x = a * y[j].y + y[i].x;
    y[i].y = a * y[j].z + y[i].y;
    y[i].z = a * y[j].x + y[i].z;
  }
}

// A second float view g of unknown relation, read at 3*i + 1 (the same
// thread terms at another scale than y's 12-byte element): g = y + 4 bytes
// in the overlap layouts. -O3: "uniform" (3*i + 1 folds to 12*i + 4 bytes,
// y's thread term); -O0: "vote".
__global__ void float_view(F3 *y, const float *g, int n) {
  int i = G;
  if (i < n) {
    y[i].x = g[3 * i + 1] + 1.f;
    y[i].y = y[i].x * 2.f;
    y[i].z = g[3 * i + 2] - y[i].y;
  }
}

// Two written arrays that may overlap (a, b = a + off elements, off = 0 and
// the overlap layouts): an array check. The second store wins in the
// original. 32-byte elements. "uniform" (falls back at off = 0).
__global__ void two_written(D4 *a, int off, int n) {
  D4 *b = a + off;
  int i = G;
  if (i < n) {
    a[i].v = 1.0; a[i].x = 2.0; a[i].y = 3.0; a[i].z = 4.0;
    b[i].v = b[i].v + 5.0; b[i].x = 6.0; b[i].y = 7.0; b[i].z = 8.0;
  }
}

// Overlap check plus a guard combined with a flag and an early return:
// every part uniform (-O3; not staged at -O0: the returns are branches of
// their own). x = y + off, off = 0 at n = 288 only (off = n
// otherwise); x's members read rotated (x[i].x after y[i].x is stored).
// "uniform".
__global__ void checks_and_flag(F3 *y, float a, int off, int flag, int n) {
  const F3 *x = y + off;
  int i = G;
  if (flag == 0)
    return;
  if (i >= n)
    return;
  y[i].x = a * x[i].y + y[i].x;
  y[i].y = a * x[i].z + y[i].y;
  y[i].z = a * x[i].x + y[i].z;
}

//===----------------------------------------------------------------------===//
// Transposes (2-D blocks; out is M x N as x-rows of N, in N rows of M)
//===----------------------------------------------------------------------===//

// Early returns on x and y. "uniform" at -O3; not staged at -O0.
__global__ void tr_returns(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= M)
    return;
  if (y >= N)
    return;
  out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
}

// `x < M && y < N`, rectangular (N = n - 272: 15 to 17 rows). "uniform".
__global__ void tr_and(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
}

// Inclusive bounds, Mi = M - 1, Ni = N - 1. "uniform".
__global__ void tr_le(float *out, const float *in, int Mi, int Ni) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x <= Mi && y <= Ni)
    out[(size_t)x * (Ni + 1) + y] = in[(size_t)y * (Mi + 1) + x];
}

// Lane on the right, unsigned: `M > x && N > y`. "uniform".
__global__ void tr_unsigned_swapped(float *out, const float *in, unsigned M, unsigned N) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (M > x && N > y)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// 64-bit indices. "uniform" at -O0; -O3's folded bounds keep the vote.
__global__ void tr_i64(float *out, const float *in, long M, long N) {
  long x = (long)blockIdx.x * blockDim.x + threadIdx.x, y = (long)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[x * N + y] = in[y * M + x];
}

// A bound on threadIdx.y alone beside the x and y bounds (ty < k; k = 8 at
// odd n, 6 of 8 at 288: no block full). "uniform".
__global__ void tr_tid_y_bound(float *out, const float *in, int k, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N && (int)threadIdx.y < k)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// tid.y mixed into the x bound: `x < M - threadIdx.y` (two lanes in one
// bound). "vote".
__global__ void tr_mixed_bound(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M - (int)threadIdx.y && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// A lower triangle: `y < x` (one lane on each side). "vote".
__global__ void tr_triangle(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N && y < x)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// A block-uniform flag beside the bounds (flag = n % 2). "uniform".
__global__ void tr_flag(float *out, const float *in, int flag, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N && flag)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// x bounded by N and y by M, swapped roles (the store is still transposed):
// the x bound's limit is the y extent's parameter. out and in are
// max(M, N)^2. "uniform".
__global__ void tr_swapped_limits(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (y < M && x < N)
    out[(size_t)x * M + y] = in[(size_t)y * N + x];
}

// A bound loaded from memory (lim[0] = M): in a transposed block only
// polynomials of the arguments and block registers are uniform. "vote"
// (or uniform); correct either way.
__global__ void tr_loaded_bound(float *out, const float *__restrict__ in, const int *__restrict__ lim, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int m = lim[0];
  if (x < m && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// An unsigned 2-D wrap: x = offx + bx*bdx + tx with offx = 2^32 - 16 (x
// blocks of 32: threads 0..15 of x block 0 are at 2^32 - 16 + tx, inactive;
// 16..31 at 0..15). The last lane passes `x < M`. "uniform" (x block 0
// must run the original).
__global__ void tr_wrap_x(float *out, const float *in, unsigned offx, unsigned M, unsigned N) {
  unsigned x = offx + blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

//===----------------------------------------------------------------------===//
// What the vote's barrier also did, and values uniform only in name
//===----------------------------------------------------------------------===//

// A prologue (another guard, `i < m`, m = n: not merged with the region's)
// writes a member of the thread's own element; then the guarded
// read-modify-write. Other threads load that element into the tile: the
// vote's barrier ordered the prologue before the row load; without a vote
// the staging's own leading barrier must. "uniform" (with 2 barriers plus
// the leading one).
__global__ void prologue_guarded(F3 *y, int m, int n) {
  int i = G;
  if (i < m)
    y[i].x = (float)threadIdx.x * 0.5f;
  if (i < n) {
    y[i].x += 1.f;
    y[i].y += y[i].x;
    y[i].z = y[i].z * 2.f + y[i].x;
  }
}

// The prologue through a float view of the element (3*i + 2: y[i].z).
// "uniform".
__global__ void prologue_float_view(F3 *y, int m, int n) {
  int i = G;
  if (i < m)
    ((float *)y)[3 * i + 2] = (float)threadIdx.x;
  if (i < n) {
    y[i].x = y[i].z + 1.f;
    y[i].y = y[i].x * y[i].z;
    y[i].z = y[i].y - 2.f;
  }
}

// A bound whose value is uniform in each loop iteration but differs between
// threads after the loop (temporal divergence: thread t leaves after
// 4 - (t & 3) iterations, so b = n - 10 * (3 - (t & 3))): the LAST thread
// (t & 3 = 3) has the largest bound and passes while threads before it may
// not. "vote" (or not staged), never "uniform".
__global__ void temporal_bound(F3 *y, float s, int n) {
  int i = G;
  int b = n + 10;
  for (int k = 0; k < 4 - (int)(threadIdx.x & 3); k++)
    b -= 10;
  if (i < b)
    FILL(y, i, s);
}

// A guard that is a select between two bounds on a uniform flag
// (flag = n % 2; m = n - 50): not a conjunction. Not staged (the accesses
// are not behind one branch).
__global__ void select_guard(F3 *y, float s, int flag, int m, int n) {
  int i = G;
  if (flag ? i < n : i < m)
    FILL(y, i, s);
}

// `threadIdx.x < blockDim.x - 1`: the last thread of every block is
// inactive. "uniform"; never staged at run time.
__global__ void all_but_last(F3 *y, float s) {
  int t = threadIdx.x;
  if (t < (int)blockDim.x - 1)
    FILL(y, blockIdx.x * blockDim.x + t, s);
}

// `i <= m` unsigned with m = 2^32 - 1: every thread passes (the inclusive
// +1 must be computed exactly, not in 32 bits). "uniform".
__global__ void ule_max(F3 *y, float s, unsigned m) {
  unsigned i = G;
  if (i <= m)
    FILL(y, i, s);
}

// `-i > -n`: the lane on the high side through a negation (-1). "uniform".
__global__ void neg_gt(F3 *y, float s, int n) {
  int i = G;
  if (-i > -n)
    FILL(y, i, s);
}

// A bound from __syncthreads_count (a barrier's result, the same in every
// thread of the block: the count of threads with i < n). "vote" (a call),
// or uniform.
__global__ void count_bound(F3 *y, float s, int n) {
  int i = G;
  int c = __syncthreads_count(i < n);
  if ((int)threadIdx.x < c)
    FILL(y, i, s);
}

// A transposed read-modify-write with a prologue on the same element under
// another bound (m = M). The prologue's transposed store is the staged one
// (one staging per kernel), its write-back ordered before the
// read-modify-write by the trailing barrier. "uniform".
__global__ void tr_rmw_prologue(float *a, int m, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < m && y < N)
    a[(size_t)x * N + y] = (float)(x - y);
  if (x < M && y < N)
    a[(size_t)x * N + y] = a[(size_t)x * N + y] * 2.f + 1.f;
}

//===----------------------------------------------------------------------===//
// Lane sides the first lane's value is recomputed from
//===----------------------------------------------------------------------===//

// The lane side reads memory: u = G + offs[0] (offs[0] = 2^32 - 40: block
// 0's threads 0..39 wrap, inactive). Not a function of the arguments and
// registers, so the first lane's value cannot be recomputed. "vote".
__global__ void loaded_offset_lane(F3 *__restrict__ y, const unsigned *__restrict__ offs, float s, unsigned n) {
  unsigned u = G + offs[0];
  if (u < n)
    FILL(y, u, s);
}

// The lane side's offset is a select on arguments (flag = n % 2, k = 3):
// a pure function, recomputed for lane 0. "uniform".
__global__ void select_offset_lane(F3 *y, float s, int flag, int k, int n) {
  int i = G + (flag ? k : 0);
  if (i < n)
    FILL(y, i, s);
}

// The lane side's offset is a phi of a uniform branch (a barrier in one arm
// keeps it a branch): not recomputable. "vote" (or not staged).
__global__ void phi_offset_lane(F3 *y, float s, int flag, int k, int n) {
  int off;
  if (flag) {
    off = k;
    __syncthreads();
  } else {
    off = 0;
  }
  int i = G + off;
  if (i < n)
    FILL(y, i, s);
}

// The prologue in the guard's own block: an unconditional store to the
// thread's own element just before `if (i < n)` (the buffer holds the
// whole grid). "uniform", with the leading barrier (-O3 forwards the
// stored z to the region's read, so only -O0 reads it from the tile).
__global__ void prologue_same_block(F3 *y, float s, int n) {
  int i = G;
  y[i].z = s * (float)threadIdx.x;
  if (i < n) {
    y[i].x = y[i].z + 1.f;
    y[i].y = y[i].y * y[i].z;
    y[i].z = y[i].x - y[i].y;
  }
}

// An atomic prologue on the thread's own element under another bound
// (m = n): not a staging candidate itself; the read-modify-write after it
// is. "uniform", with the leading barrier.
__global__ void atomic_prologue(F3 *y, int m, int n) {
  int i = G;
  if (i < m)
    atomicAdd(&y[i].y, 1.f);
  if (i < n) {
    y[i].x = y[i].y * 2.f;
    y[i].y = y[i].x + y[i].z;
    y[i].z = y[i].y - 1.f;
  }
}

// The same on a transposed read-modify-write (m = M). "uniform" or not
// staged.
__global__ void tr_atomic_prologue(float *a, int m, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < m && y < N)
    atomicAdd(&a[(size_t)x * N + y], 1.f);
  if (x < M && y < N)
    a[(size_t)x * N + y] = a[(size_t)x * N + y] * 2.f + 1.f;
}
