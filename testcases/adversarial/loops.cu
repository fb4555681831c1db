// Adversarial corpus: copies inside loops. findActiveThreads accepts a loop
// whose single exit tests `i < n` on an induction i = tid.x + row-uniform, and
// then assumes the copy of an iteration runs exactly in the threads whose i
// passes that test. Since 0718775 a copy in a loop whose buffers may overlap
// keeps its per-iteration code (a later iteration of one thread may read what
// an earlier one wrote, and the rewrite hands those bytes to other threads),
// so the kernels meant to reach the rewrite take __restrict__ pointers.
// Launch specs: loops.toml.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// Was a MISCOMPILE at -O0 and -O3 (fixed in 5f0774f; now left alone: the
// copy must follow the exit test). The exit test on i comes AFTER the copy in
// the iteration: every thread copies its first element even when it is >= n, and
// iteration k runs in the threads whose PREVIOUS index was < n. The pass takes
// `Tested == phi` to mean "tested on entry to every iteration" without
// checking that the test precedes the copy: it rewrites the copy for the
// threads with i < n only (and at -O3 adds a flat copy of exactly n
// elements), so the elements in [n, n + step) that the original copies are
// left unwritten.
__global__ void test_after_copy(Pixel *dst, const Pixel *src, int n) {
  int step = blockDim.x * gridDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x;; i += step) {
    COPY(dst, src, i);
    if (i >= n) break;
  }
}

// Was a MISCOMPILE at -O0 (fixed in 5f0774f; now left alone: a rotated
// loop's test must be its latch; at -O3 the address is not read). A guarded
// loop whose exit tests the NEXT index BEFORE the copy: the element i with i < n <= i + step
// is never copied. The pass takes `Tested == next` to mean "rotated: tested
// after each iteration" and rewrites the copy for every thread with i < n,
// writing the elements the original skips.
__global__ void next_test_before_copy(Pixel *dst, const Pixel *src, int n) {
  int step = blockDim.x * gridDim.x;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    while (true) {
      int nx = i + step;
      if (nx >= n) break;
      COPY(dst, src, i);
      i = nx;
    }
  }
}

// Held: the textbook grid-stride loop (header test at -O0, rotated at -O3).
// Rewritten (loop guard; flat copy).
__global__ void grid_stride(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}

// Held: a hand-rotated guarded do-while. Rewritten (loop guard; flat copy at -O3).
__global__ void guarded_do_while(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    do {
      COPY(dst, src, i);
      i += blockDim.x * gridDim.x;
    } while (i < n);
  }
}

// Held: an unguarded do-while: the first iteration runs in every thread, the
// test comes after the copy on the NEXT index. Left alone (no `start < n`
// test in front of the loop).
__global__ void unguarded_do_while(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  do {
    COPY(dst, src, i);
    i += blockDim.x * gridDim.x;
  } while (i < n);
}

// Held: step is the block width only (one block sweeps everything, launched
// with one block), start tid.x. Rewritten (loop guard), no flat copy.
__global__ void block_stride(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    COPY(dst, src, i);
}

// Held: start gid + 5 and a step of twice the grid: elements 5.. of every
// other grid-sized chunk. Rewritten (loop guard), no flat copy.
__global__ void odd_start_step(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x + 5; i < n; i += 2 * blockDim.x * gridDim.x)
    COPY(dst, src, i);
}

// Held: the loop body has another side effect (a counter per thread).
// Rewritten per iteration; no flat copy (the body is not only the copy).
__global__ void body_side_effect(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                 int *__restrict__ count, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = g; i < n; i += blockDim.x * gridDim.x) {
    COPY(dst, src, i);
    count[g] += 1;
  }
}

// Held: the body reads back what it copied (dst[i].r into sum). Left alone
// (the destination is read elsewhere).
__global__ void body_reads_copy(Pixel *dst, const Pixel *src, int *sum, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int i = g; i < n; i += blockDim.x * gridDim.x) {
    COPY(dst, src, i);
    s += dst[i].r;
  }
  sum[g] = s;
}

// Held: the next iteration reads the element copied by another thread in the
// previous one (a chain through dst). Racy as written? No: thread g reads
// dst[i - step], which it copied itself one iteration before. Left alone
// (destination read elsewhere).
__global__ void reads_previous_iteration(Pixel *dst, const Pixel *src, int *out, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x, step = blockDim.x * gridDim.x;
  for (int i = g; i < n; i += step) {
    COPY(dst, src, i);
    if (i >= step) out[i] = dst[i - step].g;
  }
}

// Held: a uniform loop (k < m) around a copy indexed by tid + k*ntid.
// Rewritten (every thread of a row runs every iteration).
__global__ void uniform_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int m) {
  int base = blockIdx.x * blockDim.x * m;
  for (int k = 0; k < m; ++k)
    COPY(dst, src, base + k * (int)blockDim.x + (int)threadIdx.x);
}

// Held: a uniform loop whose trip count is loaded from memory (the same in
// every thread, but the pass cannot know; masked to 0..3 as inputs are
// random). Left alone.
__global__ void loaded_trip_count(Pixel *dst, const Pixel *src, const int *mp) {
  int m = *mp & 3;
  int base = blockIdx.x * blockDim.x * 4;
  for (int k = 0; k < m; ++k)
    COPY(dst, src, base + k * (int)blockDim.x + (int)threadIdx.x);
}

// Held: grid-stride loop with a `continue` on odd elements: the copy does
// not run in every iteration. Left alone.
__global__ void continue_odd(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (i & 1) continue;
    COPY(dst, src, i);
  }
}

// Held: grid-stride loop with a data-dependent break. Left alone (two exits).
__global__ void data_break(Pixel *dst, const Pixel *src, const int *stop, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    if (stop[i]) break;
    COPY(dst, src, i);
  }
}

// Held: a copy after a loop whose exit is divergent (every thread reaches
// the copy, at different times). Rewritten (the copy's block post-dominates
// the entry; left alone by earlier versions).
__global__ void after_divergent_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                     int *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int k = 0;
  while (k < (int)(threadIdx.x & 7)) ++k;
  out[i] = k;
  COPY(dst, src, i);
}

// Held: the copy's index is an induction used AFTER its divergent loop (the
// value differs per thread). Left alone (induction used after its loop).
__global__ void induction_after_loop(Pixel *dst, const Pixel *src, const int *lim) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int j = g;
  while (j < (lim[g] & 0xffff)) j += 1000;
  COPY(dst, src, j - 1000 * (j / 1000) + (g / 1000) * 1000);
}

// Was a MISCOMPILE at -O0 and -O3 (fixed after 5eaa1fc: the index must step
// up by a positive multiple of the grid's dimensions; now left alone).
// __restrict__ so that 0718775's overlap rule does not hide it. A loop whose
// index goes DOWN by the row-uniform
// step ntid.x and is tested `u < n` (unsigned: the loop ends when u wraps
// below 0). With F = 80, n = 100 and rows of 32, threads 0..19 start below n
// and iterate, threads 20..31 fail the first test and never enter. In
// iteration 1 every thread's u is 32 lower (48 + t), so `u < n` "holds" for
// threads 20..31 too and the rewrite takes the whole row as active. The
// active threads of iteration k are those that passed the test in every
// iteration so far: `u_k < n` only when the step is not negative (and u
// does not wrap between iterations: narrowing.cu loop_wrap).
__global__ void down_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src, unsigned F, unsigned n) {
  int base = blockIdx.x * blockDim.x * 5;
  int k = 0;
  for (unsigned u = threadIdx.x + F; u < n; u -= blockDim.x, ++k)
    COPY(dst, src, base + k * (int)blockDim.x + (int)threadIdx.x);
}

// Held: the same downward loop with its step spelled as a positive product
// that wraps: ntid.x * 65535u * 65537u == -ntid.x (mod 2^32). The polynomial
// step is positive, so -O0 rewrites it; the run-time check of ca91baf
// (bound + step must fit the index's type) sends every row to the original
// code. -O3 folds the constant and leaves it alone.
__global__ void down_wrapped_step(Pixel *__restrict__ dst, const Pixel *__restrict__ src, unsigned F,
                                  unsigned n) {
  int base = blockIdx.x * blockDim.x * 5;
  int k = 0;
  for (unsigned u = threadIdx.x + F; u < n; u += blockDim.x * 65535u * 65537u, ++k)
    COPY(dst, src, base + k * (int)blockDim.x + (int)threadIdx.x);
}
