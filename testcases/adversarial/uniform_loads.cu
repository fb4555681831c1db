// Adversarial corpus: conditions and bounds loaded from memory. Since
// 1bfe514 a load from a row-uniform address is row-uniform ("in a race-free
// kernel no thread writes what all of them read without a barrier
// between"). Launch specs: uniform_loads.toml. Inputs are random bytes, so
// loaded bounds are masked.
struct Pixel { unsigned char r, g, b; };

#define COPY(d, s, i) { (d)[i].r = (s)[i].r; (d)[i].g = (s)[i].g; (d)[i].b = (s)[i].b; }

// A flag in memory, the same address in every thread. Rewritten (all or none).
__global__ void flag_in_memory(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                               const int *__restrict__ flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flags[0] & 1) COPY(dst, src, i);
}

// A flag per block. Rewritten.
__global__ void flag_per_block(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                               const int *__restrict__ flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flags[blockIdx.x] & 1) COPY(dst, src, i);
}

// A flag per warp, rows of 64 threads: not row-uniform. Left alone.
__global__ void flag_per_warp(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                              const int *__restrict__ flags) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (flags[threadIdx.x / 32] & 1) COPY(dst, src, i);
}

// A bound in memory (masked to 0..127). Rewritten (bounds guard).
__global__ void bound_in_memory(Pixel *__restrict__ dst, const Pixel *__restrict__ src,
                                const int *__restrict__ np) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (*np & 127)) COPY(dst, src, i);
}

// A bound written to shared memory by thread 0 and read by all after a
// barrier. Rewritten.
__global__ void bound_in_shared(Pixel *__restrict__ dst, const Pixel *__restrict__ src, int n) {
  __shared__ int s_n;
  if (threadIdx.x == 0) s_n = n - 3;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < s_n) COPY(dst, src, i);
}

// The bound is loaded through a pointer that may point into dst: left
// alone (the destination may be read elsewhere).
__global__ void bound_may_alias_dst(Pixel *dst, const Pixel *src, const int *np) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < (*np & 127)) COPY(dst, src, i);
}

// A run-time stride computed from a load ((x & 0) + 3): rewritten behind
// the stride check at -O0; -O3 folds it to the constant 3.
__global__ void stride_in_memory(unsigned char *__restrict__ dst, const unsigned char *__restrict__ src,
                                 const int *__restrict__ sp) {
  int s = (*sp & 0) + 3;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[s * i] = src[s * i]; dst[s * i + 1] = src[s * i + 1]; dst[s * i + 2] = src[s * i + 2];
}
