// Bounds-guard forms: each kernel copies whole pixels (a 3-byte struct) of
// the threads its guard lets through. COALDA rewrites the copy when the
// threads that pass are a prefix of every block row, whatever form the guard
// takes (checking at run time that the guard's index does not wrap inside
// the row), and leaves it alone, saying why, when they are not (a suffix, a
// hole). docs/guard-forms.md
// lists the decision for every kernel at -O0 and -O3 (they must agree).
struct Pixel {
  unsigned char r, g, b;
};

#define COPY(i)                                                                \
  do {                                                                         \
    dst[i].r = src[i].r;                                                       \
    dst[i].g = src[i].g;                                                       \
    dst[i].b = src[i].b;                                                       \
  } while (0)
#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define ARGS Pixel *__restrict__ dst, const Pixel *__restrict__ src

// Prefix guards: rewritten.
__global__ void less_than(ARGS, int n) { int i = GID; if (i < n) COPY(i); }
__global__ void early_return(ARGS, int n) { int i = GID; if (i >= n) return; COPY(i); }
__global__ void greater_than(ARGS, int n) { int i = GID; if (n > i) COPY(i); }
__global__ void at_most_n_minus_1(ARGS, int n) { int i = GID; if (i <= n - 1) COPY(i); }
__global__ void difference_positive(ARGS, int n) { int i = GID; if (n - i > 0) COPY(i); }
__global__ void unsigned_less(ARGS, unsigned n) { unsigned i = GID; if (i < n) COPY(i); }
__global__ void with_flag(ARGS, int n, int flag) { int i = GID; if (i < n && flag) COPY(i); }
__global__ void nested(ARGS, int n, int m) { int i = GID; if (i < n) { if (i < m) COPY(i); } }
__global__ void both_bounds(ARGS, int n, int m) { int i = GID; if (i < n && i < m) COPY(i); }
__global__ void below_min(ARGS, int n, int m) { int i = GID; if (i < min(n, m)) COPY(i); }
__global__ void bound_in_memory(ARGS, const int *__restrict__ np) { int i = GID; if (i < *np) COPY(i); }
__global__ void bound_per_block(ARGS, const int *__restrict__ len) { int i = GID; if (i < len[blockIdx.x]) COPY(i); }
__global__ void grid_stride_at_most(ARGS, int n) {
  for (int i = GID; i <= n - 1; i += blockDim.x * gridDim.x)
    COPY(i);
}

// Not prefixes: left alone.
__global__ void suffix(ARGS, int n, int lo) { int i = GID; if (i >= lo && i < n) COPY(i); }
__global__ void hole(ARGS, int n, int skip) { int i = GID; if (i < n && i != skip) COPY(i); }
// A prefix in every row but block 0's, where (unsigned)(gid - 5) wraps:
// rewritten behind a run-time check that sends a row whose index wraps to the
// original code.
__global__ void negative_start(ARGS, int n) {
  int i = (int)GID - 5;
  if ((unsigned)i < (unsigned)n)
    COPY(i + 5);
}
