// Per-thread contiguous chunks: thread t owns data[8t .. 8t+7] and walks it in
// a loop, so each iteration's warp access strides by 32 bytes.
#define CHUNK 8

__global__ void scale_chunks(float *data, float s, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * CHUNK;
  for (int k = 0; k < CHUNK; k++)
    if (base + k < n)
      data[base + k] *= s;
}
