// Adversarial corpus: the spellings of a grid-stride loop's bound (inclusive,
// unsigned, difference form, negated, conjunctions), including bounds for
// which nothing or one element is copied. All compute the original bytes;
// the comments give the decisions at the time of writing (pinned in
// tests/test_adversarial.py). Launch specs: loop_bounds.toml.
struct Pixel { unsigned char r, g, b; };
#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }
// i <= m. Rewritten with a flat copy of m + 1 elements.
__global__ void loop_le(Pixel *dst, const Pixel *src, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= m; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// Unsigned i <= m. Rewritten with a flat copy.
__global__ void loop_ule(Pixel *dst, const Pixel *src, unsigned m) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= m; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// n - i > 0. Left alone at -O0 (the test is not on the phi); -O3 rewrites
// it as i < n, with a flat copy.
__global__ void loop_diff(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; n - i > 0; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// i <= n - 1 (the bound computed in the loop header at -O0). Rewritten
// with a flat copy.
__global__ void loop_le_minus1(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// !(i >= n). Left alone at -O0; -O3 rewrites it with a flat copy.
__global__ void loop_ge_rev(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; !(i >= n); i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// i < n && flag: two exits at -O0, a select at -O3. Left alone.
__global__ void loop_and_flag(Pixel *dst, const Pixel *src, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n && flag; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// i < n && i < m. Left alone at -O0 (two exits); -O3 merges them into
// i < min(n, m) and rewrites it per iteration.
__global__ void loop_two_bounds(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n && i < m; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// i <= m with m = -5: nothing is copied. Rewritten with a flat copy.
__global__ void loop_le_neg(Pixel *dst, const Pixel *src, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= m; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// Unsigned i <= 0: only element 0 is copied. Rewritten with a flat copy.
__global__ void loop_ule_zero(Pixel *dst, const Pixel *src, unsigned m) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i <= m; i += blockDim.x * gridDim.x) COPY(dst, src, i);
}
// A bound that changes between iterations: n - 50 on every second test
// (one block of 32 threads: at n = 100 the second row's upper threads leave),
// n on the others. At -O0 the
// header tests it, and the copy rewrite took the threads below the current
// bound for those in the loop: the threads that had left copied anyway.
// Left alone (the bound is not loop-invariant; -O3 tests it at the latch
// and before the loop, with different values: left alone too).
__global__ void loop_varying_bound(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x, r = 0; i < ((r++ & 1) ? n - 50 : n); i += blockDim.x * gridDim.x)
    COPY(dst, src, i);
}
