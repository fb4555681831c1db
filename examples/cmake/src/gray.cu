// A second CUDA file of the example project: RGB to gray. Each thread reads
// its pixel's three bytes (a load at stride 3: uncoalesced, which COALDA
// reports but leaves alone, since staging 1-byte members does not pay) and
// writes one byte (coalesced).
#include <cstdio>
#include <cuda_runtime.h>

#include "pixels.h"

__global__ void to_gray(unsigned char *gray, const Pixel *rgb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    gray[i] = (unsigned char)((77 * rgb[i].r + 150 * rgb[i].g + 29 * rgb[i].b) >> 8);
}

int gray_on_gpu(const Pixel *in, unsigned char *out, int n, char *error, std::size_t size) {
  Pixel *src = nullptr;
  unsigned char *dst = nullptr;
  cudaError_t err = cudaMalloc(&src, sizeof(Pixel) * n);
  if (err == cudaSuccess) err = cudaMalloc(&dst, n);
  if (err == cudaSuccess) err = cudaMemcpy(src, in, sizeof(Pixel) * n, cudaMemcpyHostToDevice);
  if (err == cudaSuccess) {
    to_gray<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(dst, src, n);
    err = cudaGetLastError();
  }
  if (err == cudaSuccess) err = cudaMemcpy(out, dst, n, cudaMemcpyDeviceToHost);
  cudaFree(src);
  cudaFree(dst);
  if (err != cudaSuccess) {
    std::snprintf(error, size, "%s", cudaGetErrorString(err));
    return 1;
  }
  return 0;
}
