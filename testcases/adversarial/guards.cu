// Adversarial corpus: bounds guards that look like prefix guards but are not
// (or are, in unusual spellings). Each kernel says what it attacks and what
// the pass does with it. Launch specs: guards.toml.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// Two-sided range lo <= i < hi: the passing threads of a row are a middle
// slice. Left alone (the lower bound keeps a suffix).
__global__ void two_sided(Pixel *dst, const Pixel *src, int lo, int hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= lo && i < hi) COPY(dst, src, i);
}

// i != n is not a prefix test. Left alone.
__global__ void not_equal(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i != n) COPY(dst, src, i);
}

// i <= n: a prefix of n + 1 - first threads. Rewritten (inclusive bound).
__global__ void less_equal(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) COPY(dst, src, i);
}

// n > i, the operands swapped. Rewritten (bounds guard).
__global__ void swapped(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) COPY(dst, src, i);
}

// Unsigned guard on gid - 5: threads 0..4 of block 0 wrap and fail, a suffix
// of the row passes. Left alone until the run-time no-wrap check (after
// fe5ac07); now rewritten: block 0's row sees its start wrap and runs the
// original code, the other rows the region copy.
__global__ void unsigned_minus(Pixel *dst, const Pixel *src, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x - 5u;
  if (i < n) COPY(dst, src, i + 5u);
}

// Signed guard on gid - 5: a prefix (all of block 0's first threads pass as
// negative values). The copy index is gid. Rewritten.
__global__ void signed_minus(Pixel *dst, const Pixel *src, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = g - 5;
  if (i < n) COPY(dst, src, g);
}

// The guard's index is gid plus a value that differs per row (blockIdx.x
// squared): still tid + row-uniform. Rewritten (bounds guard).
__global__ void per_row_offset(Pixel *dst, const Pixel *src, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = threadIdx.x + blockIdx.x * blockIdx.x;
  if (i < n) COPY(dst, src, g);
}

// The guard's index adds a value loaded from one address (row-uniform: a
// load from a row-uniform address is uniform since 1bfe514), compared
// unsigned. Left alone (the first index may be negative).
__global__ void loaded_offset(Pixel *dst, const Pixel *src, const int *off, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x + off[0] < n) COPY(dst, src, g);
}

// The bound is loaded from memory (row-uniform). Left alone: np may point
// into dst (the destination may be read elsewhere).
__global__ void loaded_bound(Pixel *dst, const Pixel *src, const int *np) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < *np) COPY(dst, src, i);
}

// 64-bit index, 32-bit bound, signed. Rewritten (bounds guard).
__global__ void wide_index(Pixel *dst, const Pixel *src, int n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}

// Unsigned index against a signed bound that may be negative: C converts the
// bound, so n = -1 lets every thread through; a second bound m follows.
// Rewritten (two unsigned bounds).
__global__ void unsigned_vs_negative(Pixel *dst, const Pixel *src, int n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (unsigned)n && i < m) COPY(dst, src, i);
}

// Early returns in several places: uniform ones and one bounds return.
// Rewritten (bounds guard `i >= n return` below uniform conditions).
__global__ void early_returns(Pixel *dst, const Pixel *src, int n, int flag) {
  if (flag == 1) return;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 1 && flag == 2) return;
  if (i >= n) return;
  COPY(dst, src, i);
}

// A divergent early return before a uniform condition: the copy's block is
// reached only by the threads that did not return. Left alone.
__global__ void divergent_return_then_uniform(Pixel *dst, const Pixel *src, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i & 3) == 1) return;
  if (flag) COPY(dst, src, i);
}

// Guard on threadIdx.y in a 2-D block: uniform across a row. Rewritten
// (every thread of a row that reaches it runs it).
__global__ void guard_on_y(Pixel *dst, const Pixel *src, int rows) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (threadIdx.y < rows) COPY(dst, src, i);
}

// 2-D block, guard on the flattened index: tid.x + row-uniform. Rewritten.
__global__ void guard_flat_2d(Pixel *dst, const Pixel *src, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n) COPY(dst, src, i);
}

// Guard on a phi joining a divergent branch: i is gid or gid + 1 per thread.
// Left alone.
__global__ void phi_index_guard(Pixel *dst, const Pixel *src, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int i = g;
  if (g & 1) i = g + 1;
  if (i < n) COPY(dst, src, g);
}

// The bound is a phi joining a UNIFORM branch: row-uniform. Rewritten.
__global__ void uniform_phi_bound(Pixel *dst, const Pixel *src, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int m = n;
  if (flag) m = n - 7;
  if (i < m) COPY(dst, src, i);
}

// The guard's index is the copy's index shifted: the copy index differs
// from the guard index by a row-uniform amount. Rewritten.
__global__ void shifted_copy(Pixel *dst, const Pixel *src, int n, int shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + shift < n) COPY(dst, src, i);
}

// Guard combinations (rewritten, bounds guards): && with an inclusive
// bound, the difference form, nested guards under a uniform flag, an early
// return followed by an unsigned bound, a negated >=, an || of returns,
// inclusive bounds at INT_MAX / UINT_MAX (every thread passes). The last one
// has tid.x on both sides of the compare (2*i < n + tid): it was rewritten
// (correctly) until the no-wrap check, now left alone.
__global__ void and_le(Pixel *dst, const Pixel *src, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i <= m) COPY(dst, src, i);
}
__global__ void diff_and_lt(Pixel *dst, const Pixel *src, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n - i > 0 && i < m) COPY(dst, src, i);
}
__global__ void nested(Pixel *dst, const Pixel *src, int n, int m, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { if (flag) { if (i + 3 < m) COPY(dst, src, i); } }
}
__global__ void ret_then_lt(Pixel *dst, const Pixel *src, int n, unsigned m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if ((unsigned)i < m) COPY(dst, src, i);
}
__global__ void not_ge(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (!(i >= n)) COPY(dst, src, i);
}
__global__ void or_false(Pixel *dst, const Pixel *src, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || i >= m) return;
  COPY(dst, src, i);
}
__global__ void le_max(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) COPY(dst, src, i);
}
__global__ void ule_max(Pixel *dst, const Pixel *src, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) COPY(dst, src, i);
}
__global__ void tid_both_sides(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (2 * i < n + (int)threadIdx.x) COPY(dst, src, i);
}
