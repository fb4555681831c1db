// Adversarial corpus: copies and other accesses inside __device__ helpers.
// Since bae0e9a a kernel is analysed with its helpers inlined into a copy of
// it (kept only when a copy there is rewritten), so at -O0 a helper's
// accesses are seen as at -O3. Launch specs: helpers.toml.
struct Pixel { unsigned char r, g, b; };
__device__ void copy_px(Pixel *d, const Pixel *s) { d->r = s->r; d->g = s->g; d->b = s->b; }
__device__ unsigned char peek(const Pixel *p) { return p->r; }
__device__ void copy_px_then_bar(Pixel *d, const Pixel *s) { d->r = s->r; d->g = s->g; d->b = s->b; __syncthreads(); }
__device__ int fact(int k) { return k <= 1 ? 1 : k * fact(k - 1); }
__device__ void touch(Pixel *p, int v) { p->g = (unsigned char)v; }

// The copy in a helper under a bounds guard. Rewritten.
__global__ void helper_copy(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) copy_px(&dst[i], &src[i]);
}
// A helper reads back the copied element (own bytes): left alone
// (destination read elsewhere).
__global__ void helper_readback(Pixel *__restrict__ dst, const Pixel *__restrict__ src, unsigned char *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  copy_px(&dst[i], &src[i]);
  out[i] = peek(&dst[i]);
}
// A helper overwrites a member after the copy: left alone (a computed
// member of the same element).
__global__ void helper_touch_after(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  copy_px(&dst[i], &src[i]);
  touch(&dst[i], 9);
}
// A helper writes the source element before the copy: left alone.
__global__ void helper_touch_src_before(Pixel *__restrict__ dst, Pixel *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  touch(&src[i], i);
  copy_px(&dst[i], &src[i]);
}
// The shared fill and its __syncthreads() inside one helper. Rewritten.
__global__ void helper_fill_barrier(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  copy_px_then_bar(&tile[t], &src[i]);
  copy_px(&dst[i], &tile[blockDim.x - 1 - t]);
}
// A recursive helper (not inlinable at -O0: the kernel calls it, left
// alone; -O3 turns it into a loop and rewrites the copy).
__global__ void helper_recursive(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  copy_px(&dst[i], &src[i]);
  out[i] = fact(threadIdx.x & 3);
}
// One helper used for two copies. Both rewritten.
__global__ void helper_twice(Pixel *__restrict__ a, const Pixel *__restrict__ b, Pixel *__restrict__ c, const Pixel *__restrict__ d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  copy_px(&a[i], &b[i]);
  copy_px(&c[i], &d[i]);
}
