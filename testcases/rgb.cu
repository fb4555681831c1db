// The design seed's RGB copy: 32 random pixels copied on the device twice,
// (a) member by member — intuitive, but each thread touches 3 bytes at a
//     3-byte lane stride, so a warp's accesses are uncoalesced;
// (b) by the hand-written coalesced copy — consecutive threads move consecutive
//     bytes of the block's region through byte pointers.
// The host checks that both produce exactly the source bytes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

struct Pixel {
  unsigned char r, g, b;
};

__global__ void copy_naive(Pixel *dst, const Pixel *src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

// (a') the same copy for any n: the last block is partial.
__global__ void copy_naive_guarded(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

__global__ void copy_coalesced(Pixel *dst, const Pixel *src) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  int bd = blockDim.x;
  int base = blockIdx.x * bd * 3;
  for (int k = 0; k < 3; k++)
    d[base + k * bd + threadIdx.x] = s[base + k * bd + threadIdx.x];
}

#ifndef __CUDA_ARCH__
static int check(const char *what, cudaError_t err) {
  if (err != cudaSuccess) {
    fprintf(stderr, "rgb: %s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
  return 0;
}

int main() {
  const int n = 32, block = 32;
  Pixel host[n], out[n];
  srand(2024);
  for (int i = 0; i < n; i++)
    host[i] = Pixel{(unsigned char)rand(), (unsigned char)rand(), (unsigned char)rand()};
  Pixel *src, *dst;
  check("cudaMalloc", cudaMalloc(&src, sizeof host));
  check("cudaMalloc", cudaMalloc(&dst, sizeof host));
  check("copy in", cudaMemcpy(src, host, sizeof host, cudaMemcpyHostToDevice));
  const char *names[] = {"copy_naive", "copy_naive_guarded", "copy_coalesced"};
  int failures = 0;
  for (int variant = 0; variant < 3; variant++) {
    check("clear", cudaMemset(dst, 0, sizeof host));
    if (variant == 0)
      copy_naive<<<n / block, block>>>(dst, src);
    else if (variant == 1)
      copy_naive_guarded<<<(n + block - 1) / block, block>>>(dst, src, n);
    else
      copy_coalesced<<<n / block, block>>>(dst, src);
    check("launch", cudaGetLastError());
    check("copy out", cudaMemcpy(out, dst, sizeof out, cudaMemcpyDeviceToHost));
    bool same = memcmp(out, host, sizeof host) == 0;
    printf("%-19s %s\n", names[variant], same ? "ok" : "MISMATCH");
    failures += !same;
  }
  return failures != 0;
}
#endif
