// Exploration for the cost rule of stagings whose region holds libdevice's
// branchy math (docs/benchmarks.md, "Math between the accesses"): the same
// light math (one sinf) or heavy math (sinf, cosf, expf, logf) on elements
// of 12 to 64 bytes, read-modify-written member by member. Members are
// clamped so that the math takes its fast paths.
#define G (blockIdx.x * blockDim.x + threadIdx.x)
__device__ __forceinline__ float tame(float v) { return fminf(fabsf(v), 64.0f); }

struct R12 { float m[3]; };
struct R16 { float m[4]; };
struct R24 { float m[6]; };
struct R32 { float m[8]; };
struct R64 { float m[16]; };

#define ONE_SIN(T, N)                                                        \
  __global__ void one_sin_##N(T *p, int n) {                                 \
    int i = G;                                                               \
    if (i < n) {                                                             \
      float s = sinf(tame(p[i].m[0]));                                       \
      _Pragma("unroll") for (int k = 0; k < N / 4; ++k)                      \
        p[i].m[k] = tame(p[i].m[k]) * 0.5f + s;                              \
    }                                                                        \
  }
ONE_SIN(R12, 12)
ONE_SIN(R16, 16)
ONE_SIN(R24, 24)
ONE_SIN(R32, 32)
ONE_SIN(R64, 64)

#define HEAVY(T, N)                                                          \
  __global__ void heavy_##N(T *p, int n) {                                   \
    int i = G;                                                               \
    if (i < n) {                                                             \
      float a = tame(p[i].m[0]), b = tame(p[i].m[1]);                        \
      float s = sinf(a) + cosf(b), e = expf(-a) + logf(b + 1.0f);            \
      _Pragma("unroll") for (int k = 0; k < N / 4; ++k)                      \
        p[i].m[k] = tame(p[i].m[k]) * s + e;                                 \
    }                                                                        \
  }
HEAVY(R12, 12)
HEAVY(R16, 16)
HEAVY(R32, 32)
HEAVY(R64, 64)

// The branch-free counterparts (__sinf, __expf, __logf: no branches, one
// block): the rule must keep staging these.
#define FAST(T, N)                                                           \
  __global__ void fast_##N(T *p, int n) {                                    \
    int i = G;                                                               \
    if (i < n) {                                                             \
      float a = tame(p[i].m[0]), b = tame(p[i].m[1]);                        \
      float s = __sinf(a) + __cosf(b), e = __expf(-a) + __logf(b + 1.0f);    \
      _Pragma("unroll") for (int k = 0; k < N / 4; ++k)                      \
        p[i].m[k] = tame(p[i].m[k]) * s + e;                                 \
    }                                                                        \
  }
FAST(R12, 12)
FAST(R32, 32)
