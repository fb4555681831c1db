// Kernels that compute on array-of-structs elements: COALDA stages their
// strided stores and read-modify-writes through a shared-memory tile (issue
// 12). Each staged shape has a hand-staged reference where one is natural to
// write; the last three are shapes the cost rule leaves alone (read-only AoS
// and 1-byte members, measured 0.89-1.00x when staged).
#include <cstdint>

struct F3 {
  float x, y, z;
};

struct D4 {
  double v, x, y, z;
};

struct Pixel {
  unsigned char r, g, b;
};

// SoA -> AoS float3: three strided 4-byte stores per thread.
__global__ void soa_to_aos(F3 *out, const float *ix, const float *iy, const float *iz, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i];
    out[i].z = iz[i];
  }
}

// The same, staged by hand through a block tile (the shape COALDA emits).
__global__ void soa_to_aos_hand(F3 *out, const float *ix, const float *iy, const float *iz, int n) {
  __shared__ F3 tile[1024];
  int B = blockDim.x, t = threadIdx.x, i = blockIdx.x * B + t;
  if (i < n) {
    tile[t].x = ix[i];
    tile[t].y = iy[i];
    tile[t].z = iz[i];
  }
  __syncthreads();
  int first = blockIdx.x * B, count = min(B, n - first);
  float *g = (float *)(out + first);
  const float *s = (const float *)tile;
  for (int k = t; k < 3 * count; k += B)
    g[k] = s[k];
}

// A 32-byte record updated member by member: loads and stores of the same
// elements (read-modify-write).
__global__ void d4_update(D4 *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i].v += 1.0;
    a[i].x *= 2.0;
    a[i].y -= a[i].x;
    a[i].z = a[i].v * 0.5;
  }
}

// float3 axpy in place: x is read, y read and written, at the same stride.
__global__ void axpy3(F3 *y, const F3 *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// A per-thread contiguous chunk of 8 floats (unrolled at -O3: a 32-byte
// element per thread).
__global__ void chunk8(float *out, const float *in) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  for (int k = 0; k < 8; k++)
    out[i * 8 + k] = 2.f * in[i * 8 + k] + 1.f;
}

// The chunk guarded, with an early return.
__global__ void chunk8_guarded(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  for (int k = 0; k < 8; k++)
    out[i * 8 + k] = 2.f * in[i * 8 + k] + 1.f;
}

// kmeans' invert_mapping (Rodinia): each thread walks its own chunk of
// nfeatures floats, a length known at run time (-O3 unrolls the loop by 4
// with a remainder loop). Staged through a window that moves along the
// chunks.
__global__ void invert_mapping(const float *input, float *output, int npoints, int nfeatures) {
  int point = blockIdx.x * blockDim.x + threadIdx.x;
  if (point < npoints)
    for (int i = 0; i < nfeatures; i++)
      output[point + npoints * i] = input[point * nfeatures + i];
}

// Left alone: a run-time chunk only read (a reduction; the loop stores
// nothing): L1 serves it, a window measured 0.35-1.02x for 32-136-byte
// chunks.
__global__ void chunk_sum(float *out, const float *in, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.f;
  for (int k = 0; k < len; k++)
    s += in[(size_t)i * len + k] * (float)(k + 1);
  out[i] = s;
}

// A running sum over each chunk, in place: the stores write the windowed
// array (written through to the thread's window). Integers: a float sum of
// two NaNs (random input bytes) keeps the payload of whichever operand the
// emulator's JIT puts first.
__global__ void chunk_prefix(unsigned *a, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int k = 1; k < len; k++)
      a[i * len + k] += a[i * len + k - 1];
}

// Left alone: read-only AoS with 1-byte members (staging measured 0.89x).
__global__ void rgb_to_gray(unsigned char *gray, const Pixel *rgb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    gray[i] = (unsigned char)((rgb[i].r * 77 + rgb[i].g * 150 + rgb[i].b * 29) >> 8);
}

// Left alone: 1-byte members, read and written (staging measured 0.90-1.00x).
__global__ void rgb_brighten(Pixel *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].r = min(255, p[i].r + 20);
    p[i].g = min(255, p[i].g + 20);
    p[i].b = min(255, p[i].b + 20);
  }
}

// Left alone: read-only float3 AoS (staging measured 0.91-0.99x).
__global__ void aos_to_soa(float *ox, float *oy, float *oz, const F3 *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    ox[i] = in[i].x;
    oy[i] = in[i].y;
    oz[i] = in[i].z;
  }
}
