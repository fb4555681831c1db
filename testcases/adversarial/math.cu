// Adversarial corpus: rewritten kernels that compute with CUDA's math
// library. Until the emulator modelled libdevice (coalda/emulator/nvvm.py) none of
// these could be checked before and after: sqrtf, expf, sinf, powf, rintf,
// __ldg and the directed-rounding intrinsics end in NVVM intrinsics and
// inline PTX. Each kernel stages or copies its strided elements around the
// math, so a rewrite that moved a value to the wrong thread, or read a tile
// slot before it was written, changes a result that went through a
// transcendental function; NaN-producing inputs (sqrt of a negative, log of
// zero, 0/0) go through the same paths. Launch spec: math.toml; decisions
// pinned in tests/test_adversarial_math.py.
struct F3 { float x, y, z; };
struct D3 { double x, y, z; };
struct Body { float px, py, pz, m; float vx, vy, vz, e; };  // 32 bytes

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// Normalize in place: sqrt, division, and a NaN for the zero vector and for
// negative squares of NaN inputs. Staged (read-modify-write of 12 bytes).
__global__ void normalize(F3 *p, int n) {
  int i = G;
  if (i < n) {
    float r = sqrtf(p[i].x * p[i].x + p[i].y * p[i].y + p[i].z * p[i].z);
    p[i].x = p[i].x / r;
    p[i].y = p[i].y / r;
    p[i].z = p[i].z / r;
  }
}

// A 32-byte record updated member by member through the fast intrinsics
// (ex2, lg2, sin approximations) and rsqrt: no branches, one region. Staged.
__global__ void bodies(Body *b, int n) {
  const float dt = 0.01f;
  int i = G;
  if (i < n) {
    float d = rsqrtf(b[i].px * b[i].px + b[i].py * b[i].py + 1.0f);
    b[i].vx = b[i].vx + dt * __expf(-b[i].m) * d;
    b[i].vy = b[i].vy + dt * __sinf(b[i].py * 1e4f);
    b[i].vz = b[i].vz * __powf(fabsf(b[i].e), 0.75f);
    b[i].px = b[i].px + dt * b[i].vx;
    b[i].py = b[i].py + dt * b[i].vy;
    b[i].pz = b[i].pz + dt * b[i].vz;
    b[i].m = __fdividef(b[i].m, 1.0f + d);
    b[i].e = __logf(b[i].e);
  }
}

// The same record through libdevice's full-precision functions, whose
// branches (sinf's slow argument reduction, a loop over a local array and a
// table; powf's special cases) split the accesses over several blocks that
// every thread passing the guard runs once. Staged: the region spans them,
// slow paths included.
__global__ void bodies_precise(Body *b, int n) {
  int i = G;
  if (i < n) {
    b[i].vy = b[i].vy + sinf(b[i].py * 1e4f);
    b[i].vz = b[i].vz * powf(fabsf(b[i].e), 0.75f);
    b[i].px = b[i].px + expf(b[i].vx);
    b[i].py = b[i].py + b[i].vy;
    b[i].pz = b[i].pz + b[i].vz;
    b[i].vx = b[i].m;
    b[i].m = logf(b[i].m);
    b[i].e = b[i].e * 2.0f;
  }
}

// Rounding and conversions on the staged members: rintf, roundf (which
// libdevice computes with a round-toward-zero add), __float2int_rn and a
// saturating conversion of out-of-range values. Staged.
__global__ void quantize(F3 *p, int n) {
  int i = G;
  if (i < n) {
    p[i].x = rintf(p[i].x * 8.0f) / 8.0f;
    p[i].y = roundf(p[i].y);
    p[i].z = (float)__float2int_rn(p[i].z * 1e6f) + __fadd_rz(p[i].x, p[i].y);
  }
}

// SoA -> AoS with computed members: libdevice's branchy cosf, sinf and
// atan2f run on coalesced inputs read through __ldg before the element's
// stores, which follow the functions' branches, not the guard's. Staged
// (__ldg reads a __restrict__ input only).
__global__ void polar(F3 *out, const float *__restrict__ r, const float *__restrict__ t, int n) {
  int i = G;
  if (i < n) {
    float rr = __ldg(r + i), tt = __ldg(t + i);
    float x = rr * cosf(tt), y = rr * sinf(tt), z = atan2f(y, x);
    out[i].x = x;
    out[i].y = y;
    out[i].z = z;
  }
}

// Double precision: exp, pow and fmod of a coalesced rate before a double3
// read-modify-write, each behind branches of its own. Staged, as polar.
__global__ void decay(D3 *p, const double *__restrict__ rate, int n) {
  int i = G;
  if (i < n) {
    double f = exp(-rate[i]), g = pow(fabs(rate[i]), 1.5), h = fmod(rate[i], 7.25);
    p[i].x = p[i].x * f;
    p[i].y = p[i].y * g + p[i].x;
    p[i].z = p[i].z - h;
  }
}

// A per-thread chunk of 8 floats through sqrt and max. Staged (chunk).
__global__ void chunk_sqrt(float *a, int n) {
  int i = G;
  if (i < n) {
    for (int k = 0; k < 8; ++k)
      a[8 * i + k] = sqrtf(fmaxf(a[8 * i + k], 0.0f)) + __frcp_rd(1.0f + a[8 * i + k] * a[8 * i + k]);
  }
}

// A naive transpose that applies a function on the way: the column store
// is permuted through a tile. Transposed.
__global__ void transpose_exp(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[x * h + y] = __expf(in[y * w + x]) * 0.5f + sqrtf(fabsf(in[y * w + x]));
}

// A member-wise copy (the copy rewrite), then a correctly rounded reciprocal
// square root (libdevice's, with branches) of a coalesced input: the copy is
// widened, the math stays per thread.
__global__ void copy_and_length(F3 *dst, const F3 *src, const float *__restrict__ w, float *__restrict__ len, int n) {
  int i = G;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
    len[i] = sqrtf(w[i]) + __frsqrt_rn(w[i]);
  }
}
