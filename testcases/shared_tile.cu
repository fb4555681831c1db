// Shared-memory staging (the design seed's "shared memory loading"): each
// thread loads its RGB pixel into a __shared__ tile member by member, the block
// synchronizes, and each thread then writes out the pixel of its mirror thread
// (so every output byte depends on another thread's part of the fill).
struct Pixel {
  unsigned char r, g, b;
};

#define TILE 256

__global__ void mirror_tile(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[TILE];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t].r = src[i].r;
  tile[t].g = src[i].g;
  tile[t].b = src[i].b;
  __syncthreads();
  Pixel p = tile[blockDim.x - 1 - t];
  dst[i] = p;
}

// The same without the barrier: COALDA must leave the fill alone.
__global__ void mirror_tile_racy(Pixel *__restrict__ dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[TILE];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t].r = src[i].r;
  tile[t].g = src[i].g;
  tile[t].b = src[i].b;
  Pixel p = tile[t];
  dst[i] = p;
}

// The same fill without __restrict__: dst may alias src, but it is written
// only after the barrier that ends the fill, so the fill is still rewritten.
__global__ void mirror_tile_aliased(Pixel *dst, const Pixel *src) {
  __shared__ Pixel tile[TILE];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t].r = src[i].r;
  tile[t].g = src[i].g;
  tile[t].b = src[i].b;
  __syncthreads();
  Pixel p = tile[blockDim.x - 1 - t];
  dst[i] = p;
}
