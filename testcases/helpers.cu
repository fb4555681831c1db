// Copies written in __device__ helpers. At -O3 clang inlines them; at -O0
// (the design's flow) they stay calls, and COALDA analyses the kernel with
// its helpers inlined into a copy of it, which it keeps only when it
// rewrites a copy there: the same decisions at both levels, findings at the
// helper's lines.
struct Pixel {
  unsigned char r, g, b;
};

__device__ __noinline__ void copy_pixel(Pixel *dst, const Pixel *src, int i) {
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

__global__ void via_helper(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    copy_pixel(dst, src, i);
}

__device__ void assign(Pixel &to, const Pixel &from) { to = from; }

__global__ void via_reference(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    assign(dst[i], src[i]);
}

// Two levels of helpers, the index computed in one of them.
__device__ int global_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ void copy_at(Pixel *dst, const Pixel *src) {
  int i = global_index();
  copy_pixel(dst, src, i);
}
__global__ void nested_helpers(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  copy_at(dst, src);
}

// A helper that is not a copy: left as it is (the kernel is not rewritten,
// so the call stays).
__device__ int clamp_index(int i, int n) { return i < n ? i : n - 1; }
__global__ void helper_not_a_copy(int *dst, const int *src, int n) {
  int i = clamp_index(blockIdx.x * blockDim.x + threadIdx.x, n);
  dst[i] = src[i];   // threads past n all copy element n - 1: the same bytes
}
