// The small-element rule counts a load behind a store even where every
// thread reads the same address (a scalar read through a pointer): is
// staging paid there? float3 and double3 stores of a value read first, and
// a lone float3 read-modify-write, each with one uniform load after the
// first store.
#define G (blockIdx.x * blockDim.x + threadIdx.x)
struct D3 { double x, y, z; };
struct F3 { float x, y, z; };

__global__ void f3_store_uniform(F3 *p, const float *s, const float *scale, int n) {
  int i = G;
  if (i < n) {
    float v = s[i];
    p[i].x = v;
    p[i].y = v * *scale;
    p[i].z = v + 1.0f;
  }
}

__global__ void d3_store_uniform(D3 *p, const double *s, const double *scale, int n) {
  int i = G;
  if (i < n) {
    double v = s[i];
    p[i].x = v;
    p[i].y = v * *scale;
    p[i].z = v + 1.0;
  }
}

__global__ void f3_scale_uniform(F3 *p, const float *scale, int n) {
  int i = G;
  if (i < n) {
    p[i].x = 2.0f * p[i].x;
    p[i].y = *scale * p[i].y;
    p[i].z = p[i].z + 1.0f;
  }
}
