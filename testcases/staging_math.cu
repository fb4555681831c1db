// Staging with CUDA's full-precision math between the member accesses
// (issue 12's reach beyond one basic block): libdevice's sinf, cosf,
// sincosf, atan2f, powf, expf, logf, exp, pow and fmod branch (fast path,
// special cases, sinf's Payne-Hanek reduction loop), so the accesses of one
// element lie in several blocks that every thread passing the guard runs.
// COALDA stages the whole guarded region. Inputs are random bytes: angles
// and rates are taken from 16 bits of an unsigned word, element members are
// clamped (NaN to the bound), so the math mostly takes its fast paths as it
// would on real data. Launch spec: staging_math.toml; `coalda bench
// testcases/staging_math.cu` measures them (docs/benchmarks.md).
struct F3 { float x, y, z; };
struct D3 { double x, y, z; };
struct Body { float px, py, pz, m; float vx, vy, vz, e; };  // 32 bytes

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// [0, 16): an angle or a rate from random bits.
__device__ __forceinline__ float angle(unsigned u) { return (float)(u & 0xffffu) * (1.0f / 4096.0f); }
// [0, 64], NaN to 64.
__device__ __forceinline__ float tame(float v) { return fminf(fabsf(v), 64.0f); }
__device__ __forceinline__ double tame(double v) { return fmin(fabs(v), 64.0); }

// SoA -> AoS, polar to cartesian: float3 stores after cosf, sinf, atan2f.
__global__ void polar(F3 *out, const unsigned *__restrict__ r, const unsigned *__restrict__ t, int n) {
  int i = G;
  if (i < n) {
    float rr = angle(r[i]), tt = angle(t[i]);
    float x = rr * cosf(tt), y = rr * sinf(tt);
    out[i].x = x;
    out[i].y = y;
    out[i].z = atan2f(y, x);
  }
}

// Rotate each point in place by its own angle (sincosf).
__global__ void rotate(F3 *p, const unsigned *__restrict__ t, int n) {
  int i = G;
  if (i < n) {
    float s, c;
    sincosf(angle(t[i]), &s, &c);
    float x = tame(p[i].x), y = tame(p[i].y);
    p[i].x = c * x - s * y;
    p[i].y = s * x + c * y;
    p[i].z = tame(p[i].z) + 1.0f;
  }
}

// A 32-byte particle record updated member by member through sinf, powf,
// expf and logf.
__global__ void bodies(Body *b, int n) {
  int i = G;
  if (i < n) {
    float py = tame(b[i].py), e = tame(b[i].e), vx = tame(b[i].vx), m = tame(b[i].m) + 1.0f;
    b[i].vy = tame(b[i].vy) + sinf(py);
    b[i].vz = tame(b[i].vz) * powf(e, 0.75f);
    b[i].px = tame(b[i].px) + expf(-vx);
    b[i].py = py + b[i].vy;
    b[i].pz = tame(b[i].pz) + b[i].vz;
    b[i].vx = m;
    b[i].m = logf(m);
    b[i].e = e * 2.0f;
  }
}

// A double3 read-modify-write after exp, pow and fmod of a coalesced rate.
__global__ void decay(D3 *p, const unsigned *__restrict__ rate, int n) {
  int i = G;
  if (i < n) {
    double r = (double)angle(rate[i]);
    double f = exp(-r), g = pow(r, 1.5), h = fmod(r, 0.75);
    double x = tame(p[i].x);
    p[i].x = x * f;
    p[i].y = tame(p[i].y) * g + x;
    p[i].z = tame(p[i].z) - h;
  }
}
