// A whole program for `coalda cc`: the RGB copies of ../rgb.cu at a size that
// is not a multiple of the block (the last block is partial), plus a
// grid-stride copy and a float3 copy. It prints one line per kernel: whether
// the copy equals the source, and an FNV-1a checksum of the output bytes. A
// build with the COALDA plugin must print exactly what a plain build prints
// (scripts/gpu_cc_check.sh diffs the two on a GPU). Exit code 0 when every
// copy matches, 1 otherwise, 2 on a CUDA error.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

struct Pixel {
  unsigned char r, g, b;
};

struct Vec3 {
  float x, y, z;
};

// One pixel per thread, guarded: COALDA rewrites it into a coalesced copy of
// the block's 3*blockDim.x-byte region.
__global__ void copy_pixels(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// A grid-stride loop over the pixels.
__global__ void copy_pixels_grid(Pixel *dst, const Pixel *src, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// A 12-byte element copied member by member.
__global__ void copy_vec3(Vec3 *__restrict__ dst, const Vec3 *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

static void check(const char *what, cudaError_t err) {
  if (err != cudaSuccess) {
    fprintf(stderr, "rgb_main: %s: %s\n", what, cudaGetErrorString(err));
    exit(2);
  }
}

static uint64_t fnv1a(const unsigned char *bytes, size_t size) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < size; i++) {
    h ^= bytes[i];
    h *= 1099511628211ull;
  }
  return h;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : (1 << 20) + 37;
  const int block = 256;
  if (n <= 0) {
    fprintf(stderr, "rgb_main: the size must be positive\n");
    return 2;
  }
  std::vector<Pixel> pixels(n), pixels_out(n);
  std::vector<Vec3> vecs(n), vecs_out(n);
  uint32_t state = 2024u;  // a fixed LCG: the same input in every build
  for (int i = 0; i < n; i++) {
    state = state * 1664525u + 1013904223u;
    pixels[i] = Pixel{(unsigned char)(state >> 8), (unsigned char)(state >> 16), (unsigned char)(state >> 24)};
    vecs[i] = Vec3{(float)(state & 0xffff), (float)i, (float)(state >> 16) * 0.5f};
  }
  const size_t pixel_bytes = sizeof(Pixel) * n, vec_bytes = sizeof(Vec3) * n;
  Pixel *src, *dst;
  Vec3 *vsrc, *vdst;
  check("cudaMalloc", cudaMalloc(&src, pixel_bytes));
  check("cudaMalloc", cudaMalloc(&dst, pixel_bytes));
  check("cudaMalloc", cudaMalloc(&vsrc, vec_bytes));
  check("cudaMalloc", cudaMalloc(&vdst, vec_bytes));
  check("copy in", cudaMemcpy(src, pixels.data(), pixel_bytes, cudaMemcpyHostToDevice));
  check("copy in", cudaMemcpy(vsrc, vecs.data(), vec_bytes, cudaMemcpyHostToDevice));

  int failures = 0;
  const int blocks = (n + block - 1) / block;
  for (int variant = 0; variant < 2; variant++) {
    check("clear", cudaMemset(dst, 0, pixel_bytes));
    if (variant == 0)
      copy_pixels<<<blocks, block>>>(dst, src, n);
    else
      copy_pixels_grid<<<blocks < 120 ? blocks : 120, block>>>(dst, src, n);
    check("launch", cudaGetLastError());
    check("copy out", cudaMemcpy(pixels_out.data(), dst, pixel_bytes, cudaMemcpyDeviceToHost));
    bool same = memcmp(pixels_out.data(), pixels.data(), pixel_bytes) == 0;
    printf("%-17s n=%d %s checksum=%016llx\n", variant == 0 ? "copy_pixels" : "copy_pixels_grid", n,
           same ? "ok" : "MISMATCH", (unsigned long long)fnv1a((const unsigned char *)pixels_out.data(), pixel_bytes));
    failures += !same;
  }
  check("clear", cudaMemset(vdst, 0, vec_bytes));
  copy_vec3<<<blocks, block>>>(vdst, vsrc, n);
  check("launch", cudaGetLastError());
  check("copy out", cudaMemcpy(vecs_out.data(), vdst, vec_bytes, cudaMemcpyDeviceToHost));
  bool same = memcmp(vecs_out.data(), vecs.data(), vec_bytes) == 0;
  printf("%-17s n=%d %s checksum=%016llx\n", "copy_vec3", n, same ? "ok" : "MISMATCH",
         (unsigned long long)fnv1a((const unsigned char *)vecs_out.data(), vec_bytes));
  failures += !same;
  check("cudaFree", cudaFree(src));
  check("cudaFree", cudaFree(dst));
  check("cudaFree", cudaFree(vsrc));
  check("cudaFree", cudaFree(vdst));
  return failures != 0;
}
