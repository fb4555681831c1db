// Adversarial corpus: the flat copy of grid-stride loops. findFlatLoop
// replaces the terminator of the block every thread passes right before the
// loop (the `i < n` test of a rotated loop, or the block before a plain
// preheader) by "flat copy of S*n bytes, then jump to the exit". Launch
// specs: flat.toml.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// Was a MISCOMPILE at -O3 (fixed in 5f0774f; now rewritten per iteration
// without the flat copy; -O0 keeps a separate exit block and never had one).
// A guarded do-while with a side effect in the preheader (after the
// `i < n` test, before the loop): the flat path jumps from the test
// straight to the exit, so `seen` is never written when the buffers are
// 16-byte aligned. findFlatLoop checks the loop's blocks for side effects,
// not the preheader it skips.
__global__ void preheader_side_effect(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                      int *__restrict__ seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    seen[i] = 1;
    do {
      COPY(dst, src, i);
      i += blockDim.x * gridDim.x;
    } while (i < n);
  }
}

// Held: the loop is entered only when a uniform flag says so. Rewritten per
// iteration; no flat copy (the block before the loop does not post-dominate
// the entry).
__global__ void flag_before_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n, int flag) {
  if (flag) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
      COPY(dst, src, i);
  }
}

// Held: the same with a goto around the loop. Rewritten at -O0 (no flat
// copy); left alone at -O3.
__global__ void flag_goto_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int step = blockDim.x * gridDim.x;
  if (!flag) goto done;
  while (i < n) {
    COPY(dst, src, i);
    i += step;
  }
done:;
}

// Held: side effect BEFORE the guard (runs in every thread either way).
// Rewritten with a flat copy at -O3.
__global__ void side_effect_before_guard(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                         int *__restrict__ seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  seen[i] = 1;
  for (; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}

// Held: code after the loop uses nothing from it but stores a marker.
// Rewritten with a flat copy.
__global__ void side_effect_after_loop(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                       int *__restrict__ done, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = g; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
  done[g] = 1;
}

// Held: the copy writes element i + 1 (the flat copy starts one element in).
// Rewritten with a flat copy.
__global__ void shifted_elements(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i + 1);
}

// Held: unsigned loop bound and index. Rewritten with a flat copy.
__global__ void unsigned_loop(Pixel *dst, const Pixel *src, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}

// Held: the bound is n - 1 (computed in the header at -O0). Rewritten with a
// flat copy.
__global__ void bound_minus_one(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n - 1; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}

// Held: a negative bound: nothing is copied. Rewritten with a flat copy of
// max(n, 0) elements.
__global__ void negative_bound(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}
