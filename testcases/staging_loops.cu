// Element stagings inside grid-stride loops (issue 12: "bounds guards and
// grid-stride loops"): each iteration whose block row is full is staged
// through a shared tile; the partial last one runs the original code. Each
// loop kernel has its one-element form beside it (the same computation, one
// thread per element: testcases/staging.cu's), its reference in the launch
// spec and its baseline in docs/benchmarks.md, "Grid-stride loops".
#include <cstddef>

struct F3 {
  float x, y, z;
};

struct D4 {
  double v, x, y, z;
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

// The same shapes in grid-stride loops (a wave of resident blocks walks the
// array): staged on each iteration whose block row is full; the last,
// partial one runs the original code. d4's index is a size_t (unsigned,
// 64-bit: its wrap checks are 128-bit).
__global__ void soa_to_aos_grid_stride(F3 *out, const float *ix, const float *iy, const float *iz, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].x = ix[i];
    out[i].y = iy[i];
    out[i].z = iz[i];
  }
}

// Stores only, of values computed from the index: no run-time check, so no
// vote; a barrier ends each staged iteration before the next one writes the
// tile.
__global__ void d4_fill_grid_stride(D4 *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    a[i].v = i;
    a[i].x = 0.5 * i;
    a[i].y = -1.0;
    a[i].z = i * (double)i;
  }
}

__global__ void d4_update_grid_stride(D4 *a, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
    a[i].v += 1.0;
    a[i].x *= 2.0;
    a[i].y -= a[i].x;
    a[i].z = a[i].v * 0.5;
  }
}

__global__ void axpy3_grid_stride(F3 *y, const F3 *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

