// Exploration for the small-element cost rule (docs/benchmarks.md, "The
// cases the small-element rule had not measured"): the shapes the rule of
// 2026-11-26 decides without a measurement of their own, no math between
// the accesses, every access in one block.
#define G (blockIdx.x * blockDim.x + threadIdx.x)
struct D3 { double x, y, z; };
struct F3 { float x, y, z; };

// A double3 read-modify-write on its own: 24 bytes, 3 members (refused).
__global__ void d3_scale(D3 *p, double a, int n) {
  int i = G;
  if (i < n) {
    p[i].x = a * p[i].x;
    p[i].y = a * p[i].y;
    p[i].z = a * p[i].z + 1.0;
  }
}

// double3 axpy in place: y written, x read beside it (staged, y only).
__global__ void d3_axpy(D3 *y, const D3 *x, double a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// double3 stores only (staged: stores).
__global__ void d3_store(D3 *p, const double *s, int n) {
  int i = G;
  if (i < n) {
    double v = s[i];
    p[i].x = v;
    p[i].y = 2.0 * v;
    p[i].z = v + 1.0;
  }
}

// Two float3 arrays both read-modify-written (each staged beside the other).
__global__ void f3_pair(F3 *a, F3 *b, int n) {
  int i = G;
  if (i < n) {
    float ax = a[i].x, ay = a[i].y, az = a[i].z;
    float bx = b[i].x, by = b[i].y, bz = b[i].z;
    a[i].x = ax + bx; a[i].y = ay + by; a[i].z = az + bz;
    b[i].x = ax - bx; b[i].y = ay - by; b[i].z = az - bz;
  }
}

// Three float3 arrays: two written, one read.
__global__ void f3_triple(F3 *a, F3 *b, const F3 *c, int n) {
  int i = G;
  if (i < n) {
    a[i].x += c[i].x; a[i].y += c[i].y; a[i].z += c[i].z;
    b[i].x -= c[i].x; b[i].y -= c[i].y; b[i].z -= c[i].z;
  }
}

// A float3 read-modify-write on its own (refused; measured before at
// 0.72-0.88x staged), for reference in the same run.
__global__ void f3_scale(F3 *p, float a, int n) {
  int i = G;
  if (i < n) {
    p[i].x = a * p[i].x;
    p[i].y = a * p[i].y;
    p[i].z = a * p[i].z + 1.0f;
  }
}
