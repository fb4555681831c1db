// Lane-exact accesses (issue 37) for scripts/corpus_sectors.py: addresses
// that are not linear in the thread index (`t & 31`, `t >> 2`, `t ^ 1`,
// `t % 4`, `t & 63`, min, a pointer from a parameter struct), which COALDA reads lane
// by lane, run once each on the GPU so that Nsight Compute can measure the
// sectors per request the pass counts. The corpus programs have none in
// global memory. Every kernel runs full warps of one row (blocks of 256).
#include <cstdio>
#include <cuda_runtime.h>

#define N (1 << 16)  // threads
#define T (blockIdx.x * blockDim.x + threadIdx.x)

struct Planes {
  const float *a;
  const float *b;
  float *out;
};

__global__ void lane_and(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[t & 31u];  // every warp reads the same 128 bytes
}

__global__ void lane_shr(float *out, const float *in) {
  unsigned t = T;
  out[t >> 2] = in[t >> 2];  // four lanes per element
}

__global__ void lane_xor(float *out, const float *in) {
  unsigned t = T;
  out[t ^ 1u] = in[t ^ 3u];  // neighbours swapped
}

__global__ void lane_shl(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[(t & 31u) << 3];  // lanes 32 bytes apart
}

__global__ void lane_rem(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[(t % 4u) * 64u + (t >> 5)];  // four rows of a warp
}

__global__ void lane_div(double *out, const double *in) {
  unsigned t = T;
  out[t] = in[t / 3u];  // three lanes per element
}

__global__ void lane_min(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[min(t & 63u, 40u)];  // lanes past 40 read element 40
}

__global__ void lane_bytes(unsigned char *out, const unsigned char *in) {
  unsigned t = T;
  out[t ^ 7u] = in[(t >> 1) * 3u];  // bytes, three apart per lane pair
}

__global__ void lane_struct(Planes p) {
  unsigned t = T;
  p.out[t ^ 1u] = p.a[t] + p.b[t >> 1];  // pointers from a by-value parameter struct
}

__global__ void lane_columns(float *out, const float *in) {
  unsigned t = T;
  unsigned lane = t & 31u, warp = t >> 5;
  out[lane * 32u + (warp & 31u)] = in[t];  // each lane its own 128-byte row
}

__global__ void lane_vec(float4 *out, const float4 *in) {
  unsigned t = T;
  out[t] = in[t ^ 1u];  // 16 bytes a lane
}

__global__ void lane_or(float *out, const float *in) {
  unsigned t = T;
  out[t | 1u] = in[t & ~1u];  // two lanes per element
}

__global__ void lane_half(short *out, const short *in) {
  unsigned t = T;
  out[t] = in[(t & 15u) * 16u];  // half a warp, 32 bytes apart, twice
}

__global__ void lane_tid(float *out, const float *in) {
  out[blockIdx.x * 8u + (threadIdx.x & 7u)] = in[blockIdx.x * blockDim.x + (threadIdx.x ^ 31u)];
}

__global__ void lane_pairs(double *out, const double *in) {
  unsigned t = T;
  out[t] = in[(t >> 1) ^ 1u];  // lane pairs, swapped
}

__global__ void lane_rotate(float *out, const float *in) {
  unsigned t = T;
  out[(t & ~31u) | ((t + 1u) & 31u)] = in[(t & ~31u) | ((t + 5u) & 31u)];  // a warp rotated
}

__global__ void lane_select(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[(t & 1u) ? t : (t ^ 1u)];  // both halves of a pair read the odd one
}

__global__ void lane_mod8(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[(t % 8u) * 8u];  // eight elements 32 bytes apart
}

// Masks wider than a warp: the lane's bits and the warp's never meet, so
// the warp-uniform part is unknown (warp & 1, warp & 3) but a multiple of 32.
__global__ void lane_and63(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[t & 63u];  // 32 consecutive floats per warp: 4 sectors
}

__global__ void lane_merge(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[2 * t - (t & 127u)];  // a bitonic merge's pos: consecutive per warp
}

__global__ void lane_orhigh(float *out, const float *in) {
  unsigned t = T;
  out[t] = in[(t | 64u) * 2];  // every other float: 8 sectors where 4 would do
}

int main() {
  const size_t bytes = 64u << 20;  // every index above stays inside
  void *in = nullptr, *b = nullptr, *out = nullptr;
  if (cudaMalloc(&in, bytes) || cudaMalloc(&b, bytes) || cudaMalloc(&out, bytes)) {
    printf("FAIL: cudaMalloc\n");
    return 1;
  }
  cudaMemset(in, 1, bytes);
  cudaMemset(b, 2, bytes);
  dim3 grid(N / 256), block(256);
  lane_and<<<grid, block>>>((float *)out, (const float *)in);
  lane_shr<<<grid, block>>>((float *)out, (const float *)in);
  lane_xor<<<grid, block>>>((float *)out, (const float *)in);
  lane_shl<<<grid, block>>>((float *)out, (const float *)in);
  lane_rem<<<grid, block>>>((float *)out, (const float *)in);
  lane_div<<<grid, block>>>((double *)out, (const double *)in);
  lane_min<<<grid, block>>>((float *)out, (const float *)in);
  lane_bytes<<<grid, block>>>((unsigned char *)out, (const unsigned char *)in);
  lane_struct<<<grid, block>>>(Planes{(const float *)in, (const float *)b, (float *)out});
  lane_columns<<<grid, block>>>((float *)out, (const float *)in);
  lane_vec<<<grid, block>>>((float4 *)out, (const float4 *)in);
  lane_or<<<grid, block>>>((float *)out, (const float *)in);
  lane_half<<<grid, block>>>((short *)out, (const short *)in);
  lane_tid<<<grid, block>>>((float *)out, (const float *)in);
  lane_pairs<<<grid, block>>>((double *)out, (const double *)in);
  lane_rotate<<<grid, block>>>((float *)out, (const float *)in);
  lane_select<<<grid, block>>>((float *)out, (const float *)in);
  lane_mod8<<<grid, block>>>((float *)out, (const float *)in);
  lane_and63<<<grid, block>>>((float *)out, (const float *)in);
  lane_merge<<<grid, block>>>((float *)out, (const float *)in);
  lane_orhigh<<<grid, block>>>((float *)out, (const float *)in);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(err));
    return 1;
  }
  printf("PASS\n");
  return 0;
}
