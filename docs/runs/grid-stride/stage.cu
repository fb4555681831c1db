#pragma pack(push, 1)
struct S_stage100_0 { unsigned m0; int m1; };
#pragma pack(pop)
__global__ void stage100_0(S_stage100_0 *out, const S_stage100_0 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (unsigned)(powf(fabsf((float)(__fdividef((float)(x[i].m0 * 3 + out[i].m0), 3.0f))) + 0.5f, 0.75f));
    out[i].m1 = (int)(powf(fabsf((float)(__fdividef((float)(x[i].m1 * 3 + out[i].m1), 3.0f))) + 0.5f, 0.75f));
  }
}
struct S_stage100_1 { int m0; int m1; int m2; unsigned m3; };
__global__ void stage100_1(S_stage100_1 *out, const float *in0, const float *in1, const float *in2, const float *in3, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (int)(__expf(fminf((float)(in0[i] * 3.0f + 0), 10.0f)));
    out[i].m1 = (int)(__expf(fminf((float)(in1[i] * 3.0f + 1), 10.0f)));
    out[i].m2 = (int)(__expf(fminf((float)(in2[i] * 3.0f + 2), 10.0f)));
    out[i].m3 = (unsigned)(__expf(fminf((float)(in3[i] * 3.0f + 3), 10.0f)));
  }
}
struct S_stage100_2 { double m0; double m1; float m2; short m3; short m4; };
__global__ void stage100_2(S_stage100_2 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i <= n - 1) {
    out[i].m0 = (double)(fmaxf((float)(in0[i] * 3.0f + 0), -1e4f) + copysignf(1.0f, (float)(in0[i] * 3.0f + 0)));
    out[i].m2 = (float)(fmaxf((float)(in2[i] * 3.0f + 2), -1e4f) + copysignf(1.0f, (float)(in2[i] * 3.0f + 2)));
    out[i].m4 = (short)(fmaxf((float)(in4[i] * 3.0f + 4), -1e4f) + copysignf(1.0f, (float)(in4[i] * 3.0f + 4)));
  }
}
struct S_stage100_3 { float m0; short m1; short m2; };
__global__ void stage100_3(S_stage100_3 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < n - 37) {
    out[i].m0 = (float)(sinf(fminf(fabsf((float)(in0[i] * 3.0f + 0)), 100.0f)));
    out[i].m1 = (short)(sinf(fminf(fabsf((float)(in1[i] * 3.0f + 1)), 100.0f)));
    out[i].m2 = (short)(sinf(fminf(fabsf((float)(in2[i] * 3.0f + 2)), 100.0f)));
  }
}
struct S_stage100_4 { float m0; float m1; unsigned m2; int m3; };
__global__ void stage100_4(S_stage100_4 *out, float *sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i + 1].m0 = (float)(out[i + 1].m0 * 2 + 1);
    out[i + 1].m1 = (float)(out[i + 1].m1 * 2 + 2);
    out[i + 1].m2 = (unsigned)(out[i + 1].m2 * 2 + 3);
    out[i + 1].m3 = (int)(out[i + 1].m3 * 2 + 4);
    sink[i] = (float)out[i + 1].m3;
  }
}
struct S_stage100_5 { double m0; float m1; float m2; };
__global__ void stage100_5(S_stage100_5 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  out[i].m0 = (double)(__sinf((float)(out[i].m0 * 2 + 1)) * __logf(fabsf((float)(out[i].m0 * 2 + 1)) + 1.0f));
  out[i].m1 = (float)(__sinf((float)(out[i].m1 * 2 + 2)) * __logf(fabsf((float)(out[i].m1 * 2 + 2)) + 1.0f));
  out[i].m2 = (float)(__sinf((float)(out[i].m2 * 2 + 3)) * __logf(fabsf((float)(out[i].m2 * 2 + 3)) + 1.0f));
}
#pragma pack(push, 1)
struct S_stage100_6 { float m0; float m1; };
#pragma pack(pop)
__global__ void stage100_6(S_stage100_6 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (float)(powf(fabsf((float)(out[i].m0 * 2 + 1)) + 0.5f, 0.75f));
    out[i].m1 = (float)(powf(fabsf((float)(out[i].m1 * 2 + 2)) + 0.5f, 0.75f));
  }
}
#pragma pack(push, 1)
struct S_stage100_7 { double m0; float m1; short m2; short m3; };
#pragma pack(pop)
__global__ void stage100_7(S_stage100_7 *__restrict__ out, const S_stage100_7 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (double)(logf(fabsf((float)(fmaxf((float)(x[i].m0 * 3 + out[i].m0), -1e4f) + copysignf(1.0f, (float)(x[i].m0 * 3 + out[i].m0)))) + 1.0f));
    out[i].m1 = (float)(logf(fabsf((float)(fmaxf((float)(x[i].m1 * 3 + out[i].m1), -1e4f) + copysignf(1.0f, (float)(x[i].m1 * 3 + out[i].m1)))) + 1.0f));
    out[i].m2 = (short)(logf(fabsf((float)(fmaxf((float)(x[i].m2 * 3 + out[i].m2), -1e4f) + copysignf(1.0f, (float)(x[i].m2 * 3 + out[i].m2)))) + 1.0f));
    out[i].m3 = (short)(logf(fabsf((float)(fmaxf((float)(x[i].m3 * 3 + out[i].m3), -1e4f) + copysignf(1.0f, (float)(x[i].m3 * 3 + out[i].m3)))) + 1.0f));
  }
}
#pragma pack(push, 4)
struct S_stage100_8 { double m0; double m1; float m2; unsigned m3; };
#pragma pack(pop)
__global__ void stage100_8(S_stage100_8 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(logf(fabsf((float)(in0[i] * 3.0f + 0)) + 1.0f));
    out[i].m1 = (double)(logf(fabsf((float)(in1[i] * 3.0f + 1)) + 1.0f));
    out[i].m2 = (float)(logf(fabsf((float)(in2[i] * 3.0f + 2)) + 1.0f));
    out[i].m3 = (unsigned)(logf(fabsf((float)(in3[i] * 3.0f + 3)) + 1.0f));
  }
}
struct S_stage100_9 { int m0; float m1; unsigned m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage100_9(S_stage100_9 *out, const S_stage100_9 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (int)(flag + 7);
  if ((unsigned)i < (unsigned)n) {
    out[i].m0 = (int)(__fdividef((float)(x[i].m0 * 3 + out[i].m0), 3.0f));
    out[i].m1 = (float)(__fdividef((float)(x[i].m1 * 3 + out[i].m1), 3.0f));
    out[i].m2 = (unsigned)(__fdividef((float)(x[i].m2 * 3 + out[i].m2), 3.0f));
    out[i].m3 = (float)(__fdividef((float)(x[i].m3 * 3 + out[i].m3), 3.0f));
    out[i].m4 = (float)(__fdividef((float)(x[i].m4 * 3 + out[i].m4), 3.0f));
  }
}
#pragma pack(push, 4)
struct S_stage100_10 { double m0; double m1; double m2; unsigned m3; short m4; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
#pragma pack(pop)
__global__ void stage100_10(S_stage100_10 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i].m0 = (double)(wobble((float)(in0[i] * 3.0f + 0)));
    out[i].m1 = (double)(wobble((float)(in1[i] * 3.0f + 1)));
    out[i].m2 = (double)(wobble((float)(in2[i] * 3.0f + 2)));
    out[i].m3 = (unsigned)(wobble((float)(in3[i] * 3.0f + 3)));
    out[i].m4 = (short)(wobble((float)(in4[i] * 3.0f + 4)));
  }
}
#pragma pack(push, 1)
struct S_stage100_11 { double m0; unsigned m1; float m2; int m3; float m4; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
#pragma pack(pop)
__global__ void stage100_11(S_stage100_11 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (double)(flag + 7);
    out[i].m0 = (double)(wobble((float)(in0[i] * 3.0f + 0)));
    out[i].m2 = (float)(wobble((float)(in2[i] * 3.0f + 2)));
    out[i].m4 = (float)(wobble((float)(in4[i] * 3.0f + 4)));
  }
}
#pragma pack(push, 4)
struct S_stage100_12 { float m0; short m1; };
#pragma pack(pop)
__global__ void stage100_12(S_stage100_12 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (float)(logf(fabsf((float)(out[i].m0 * 2 + 1)) + 1.0f));
    out[i].m1 = (short)(logf(fabsf((float)(out[i].m1 * 2 + 2)) + 1.0f));
  }
}
struct S_stage100_13 { float m0; int m1; short m2; short m3; };
__global__ void __launch_bounds__(128) stage100_13(S_stage100_13 *__restrict__ out, const S_stage100_13 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  out[i].m0 = (float)(__fmul_rd((float)(x[i].m0 * 3 + out[i].m0), 1.5f));
  out[i].m1 = (int)(__fmul_rd((float)(x[i].m1 * 3 + out[i].m1), 1.5f));
  out[i].m2 = (short)(__fmul_rd((float)(x[i].m2 * 3 + out[i].m2), 1.5f));
  out[i].m3 = (short)(__fmul_rd((float)(x[i].m3 * 3 + out[i].m3), 1.5f));
}
#pragma pack(push, 4)
struct S_stage100_14 { float m0; int m1; unsigned m2; short m3; short m4; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage100_14(S_stage100_14 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(sqrtf(fabsf((float)(in0[i] * 3.0f + 0))));
    out[i].m2 = (unsigned)(sqrtf(fabsf((float)(in2[i] * 3.0f + 2))));
    out[i].m4 = (short)(sqrtf(fabsf((float)(in4[i] * 3.0f + 4))));
  }
}
#pragma pack(push, 1)
struct S_stage100_15 { float m0; short m1; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage100_15(S_stage100_15 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (float)(expf(fminf((float)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0))), 20.0f)));
    out[i].m1 = (short)(expf(fminf((float)(rsqrtf(1.0f + (float)(in1[i] * 3.0f + 1) * (float)(in1[i] * 3.0f + 1))), 20.0f)));
  }
  if (i < n) sink[i] = (float)out[i].m1;
}
struct S_stage101_0 { float m0; unsigned m1; float m2; short m3; };
__global__ void stage101_0(S_stage101_0 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i + 1].m0 = (float)(expf(fminf((float)(__expf(fminf((float)(in0[i] * 3.0f + 0), 10.0f))), 20.0f)));
    out[i + 1].m2 = (float)(expf(fminf((float)(__expf(fminf((float)(in2[i] * 3.0f + 2), 10.0f))), 20.0f)));
  }
}
struct S_stage101_1 { double m0; float m1; float m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage101_1(S_stage101_1 *out, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i + 1].m0 = (double)(flag + 7);
  if (n > i) {
    out[i + 1].m0 = (double)(__fdividef((float)(out[i + 1].m0 * 2 + 1), 3.0f));
    out[i + 1].m1 = (float)(__fdividef((float)(out[i + 1].m1 * 2 + 2), 3.0f));
    out[i + 1].m2 = (float)(__fdividef((float)(out[i + 1].m2 * 2 + 3), 3.0f));
    out[i + 1].m3 = (float)(__fdividef((float)(out[i + 1].m3 * 2 + 4), 3.0f));
    out[i + 1].m4 = (float)(__fdividef((float)(out[i + 1].m4 * 2 + 5), 3.0f));
  }
  if (i < n) sink[i] = (float)out[i + 1].m4;
}
#pragma pack(push, 4)
struct S_stage101_2 { unsigned m0; float m1; short m2; short m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage101_2(S_stage101_2 *__restrict__ out, const S_stage101_2 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (unsigned)(wobble((float)(__sinf((float)(x[i].m0 * 3 + out[i].m0)) * __logf(fabsf((float)(x[i].m0 * 3 + out[i].m0)) + 1.0f))));
    out[i].m1 = (float)(wobble((float)(__sinf((float)(x[i].m1 * 3 + out[i].m1)) * __logf(fabsf((float)(x[i].m1 * 3 + out[i].m1)) + 1.0f))));
    out[i].m2 = (short)(wobble((float)(__sinf((float)(x[i].m2 * 3 + out[i].m2)) * __logf(fabsf((float)(x[i].m2 * 3 + out[i].m2)) + 1.0f))));
    out[i].m3 = (short)(wobble((float)(__sinf((float)(x[i].m3 * 3 + out[i].m3)) * __logf(fabsf((float)(x[i].m3 * 3 + out[i].m3)) + 1.0f))));
  }
}
struct S_stage101_3 { float m0; int m1; float m2; int m3; };
__global__ void stage101_3(S_stage101_3 *__restrict__ out, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[2 * i].m0 = (float)(flag + 7);
  if (i >= n) return;
  out[2 * i].m0 = (float)(out[2 * i].m0 * 2 + 1);
  out[2 * i].m1 = (int)(out[2 * i].m1 * 2 + 2);
  out[2 * i].m2 = (float)(out[2 * i].m2 * 2 + 3);
  out[2 * i].m3 = (int)(out[2 * i].m3 * 2 + 4);
  if (i < n) sink[i] = (float)out[2 * i].m3;
}
struct S_stage101_4 { double m0; double m1; unsigned m2; int m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void stage101_4(S_stage101_4 *out, const float *in0, const float *in1, const float *in2, const float *in3, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i].m0 = (double)(wobble((float)(__fdividef((float)(in0[i] * 3.0f + 0), 3.0f))));
  out[i].m1 = (double)(wobble((float)(__fdividef((float)(in1[i] * 3.0f + 1), 3.0f))));
  out[i].m2 = (unsigned)(wobble((float)(__fdividef((float)(in2[i] * 3.0f + 2), 3.0f))));
  out[i].m3 = (int)(wobble((float)(__fdividef((float)(in3[i] * 3.0f + 3), 3.0f))));
}
#pragma pack(push, 1)
struct S_stage101_5 { float m0; float m1; float m2; unsigned m3; };
#pragma pack(pop)
__global__ void stage101_5(S_stage101_5 *out, const float *in0, const float *in1, const float *in2, const float *in3, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(__fdividef((float)(in0[i] * 3.0f + 0), 3.0f));
    out[i].m1 = (float)(__fdividef((float)(in1[i] * 3.0f + 1), 3.0f));
    out[i].m2 = (float)(__fdividef((float)(in2[i] * 3.0f + 2), 3.0f));
    out[i].m3 = (unsigned)(__fdividef((float)(in3[i] * 3.0f + 3), 3.0f));
  }
}
struct S_stage101_6 { double m0; int m1; float m2; unsigned m3; short m4; };
__global__ void stage101_6(S_stage101_6 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (double)(in0[i] * 3.0f + 0);
    out[i].m1 = (int)(in1[i] * 3.0f + 1);
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
    out[i].m3 = (unsigned)(in3[i] * 3.0f + 3);
    out[i].m4 = (short)(in4[i] * 3.0f + 4);
  }
}
struct S_stage101_7 { double m0; double m1; float m2; float m3; float m4; float m5; };
__global__ void stage101_7(S_stage101_7 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && flag) {
    out[i].m0 = (double)(fmaxf((float)(out[i].m0 * 2 + 1), -1e4f) + copysignf(1.0f, (float)(out[i].m0 * 2 + 1)));
    out[i].m1 = (double)(fmaxf((float)(out[i].m1 * 2 + 2), -1e4f) + copysignf(1.0f, (float)(out[i].m1 * 2 + 2)));
    out[i].m2 = (float)(fmaxf((float)(out[i].m2 * 2 + 3), -1e4f) + copysignf(1.0f, (float)(out[i].m2 * 2 + 3)));
    out[i].m3 = (float)(fmaxf((float)(out[i].m3 * 2 + 4), -1e4f) + copysignf(1.0f, (float)(out[i].m3 * 2 + 4)));
    out[i].m4 = (float)(fmaxf((float)(out[i].m4 * 2 + 5), -1e4f) + copysignf(1.0f, (float)(out[i].m4 * 2 + 5)));
    out[i].m5 = (float)(fmaxf((float)(out[i].m5 * 2 + 6), -1e4f) + copysignf(1.0f, (float)(out[i].m5 * 2 + 6)));
  }
}
#pragma pack(push, 1)
struct S_stage101_8 { double m0; unsigned m1; float m2; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage101_8(S_stage101_8 *__restrict__ out, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(__saturatef((float)(out[i].m0 * 2 + 1)) + floorf((float)(out[i].m0 * 2 + 1)));
    out[i].m1 = (unsigned)(__saturatef((float)(out[i].m1 * 2 + 2)) + floorf((float)(out[i].m1 * 2 + 2)));
    out[i].m2 = (float)(__saturatef((float)(out[i].m2 * 2 + 3)) + floorf((float)(out[i].m2 * 2 + 3)));
    sink[i] = (float)out[i].m2;
  }
}
#pragma pack(push, 4)
struct S_stage101_9 { int m0; float m1; };
#pragma pack(pop)
__global__ void stage101_9(S_stage101_9 *out, const S_stage101_9 *x, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (int)(fmaxf((float)(x[i].m0 * 3 + out[i].m0), -1e4f) + copysignf(1.0f, (float)(x[i].m0 * 3 + out[i].m0)));
    out[i].m1 = (float)(fmaxf((float)(x[i].m1 * 3 + out[i].m1), -1e4f) + copysignf(1.0f, (float)(x[i].m1 * 3 + out[i].m1)));
  }
}
#pragma pack(push, 4)
struct S_stage101_10 { double m0; float m1; float m2; };
#pragma pack(pop)
__global__ void stage101_10(S_stage101_10 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i].m0 = (double)(rsqrtf(1.0f + (float)(out[i].m0 * 2 + 1) * (float)(out[i].m0 * 2 + 1)));
  out[i].m1 = (float)(rsqrtf(1.0f + (float)(out[i].m1 * 2 + 2) * (float)(out[i].m1 * 2 + 2)));
  out[i].m2 = (float)(rsqrtf(1.0f + (float)(out[i].m2 * 2 + 3) * (float)(out[i].m2 * 2 + 3)));
}
#pragma pack(push, 4)
struct S_stage101_11 { double m0; float m1; float m2; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage101_11(S_stage101_11 *__restrict__ out, const S_stage101_11 *__restrict__ x, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (float)(x[i].m2 * 3 + out[i].m2);
  }
}
struct S_stage101_12 { unsigned m0; int m1; int m2; float m3; short m4; short m5; };
__global__ void stage101_12(S_stage101_12 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, const float *__restrict__ in5, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[2 * i].m0 = (unsigned)(in0[i] * 3.0f + 0);
    out[2 * i].m1 = (int)(in1[i] * 3.0f + 1);
    out[2 * i].m2 = (int)(in2[i] * 3.0f + 2);
    out[2 * i].m3 = (float)(in3[i] * 3.0f + 3);
    out[2 * i].m4 = (short)(in4[i] * 3.0f + 4);
    out[2 * i].m5 = (short)(in5[i] * 3.0f + 5);
  }
}
struct S_stage101_13 { double m0; double m1; float m2; float m3; short m4; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void __launch_bounds__(128) stage101_13(S_stage101_13 *out, const S_stage101_13 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && flag) {
    out[i].m0 = (double)(wobble((float)(x[i].m0 * 3 + out[i].m0)));
    out[i].m1 = (double)(wobble((float)(x[i].m1 * 3 + out[i].m1)));
    out[i].m2 = (float)(wobble((float)(x[i].m2 * 3 + out[i].m2)));
    out[i].m3 = (float)(wobble((float)(x[i].m3 * 3 + out[i].m3)));
    out[i].m4 = (short)(wobble((float)(x[i].m4 * 3 + out[i].m4)));
  }
}
#pragma pack(push, 4)
struct S_stage101_14 { int m0; float m1; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
#pragma pack(pop)
__global__ void stage101_14(S_stage101_14 *__restrict__ out, const S_stage101_14 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (int)(wobble((float)(x[i].m0 * 3 + out[i].m0)));
    out[i].m1 = (float)(wobble((float)(x[i].m1 * 3 + out[i].m1)));
  }
  if (i < n) sink[i] = (float)out[i].m1;
}
struct S_stage101_15 { double m0; float m1; float m2; float m3; short m4; short m5; };
__global__ void __launch_bounds__(128) stage101_15(S_stage101_15 *__restrict__ out, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[i].m0 = (double)(out[i].m0 * 2 + 1);
    out[i].m1 = (float)(out[i].m1 * 2 + 2);
    out[i].m2 = (float)(out[i].m2 * 2 + 3);
    out[i].m3 = (float)(out[i].m3 * 2 + 4);
    out[i].m4 = (short)(out[i].m4 * 2 + 5);
    out[i].m5 = (short)(out[i].m5 * 2 + 6);
  }
  if (i < n) sink[i] = (float)out[i].m5;
}
#pragma pack(push, 4)
struct S_stage102_0 { double m0; int m1; short m2; short m3; };
#pragma pack(pop)
__global__ void stage102_0(S_stage102_0 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i + 1].m0 = (double)(rintf((float)(in0[i] * 3.0f + 0) * 0.5f));
    out[i + 1].m1 = (int)(rintf((float)(in1[i] * 3.0f + 1) * 0.5f));
    out[i + 1].m2 = (short)(rintf((float)(in2[i] * 3.0f + 2) * 0.5f));
    out[i + 1].m3 = (short)(rintf((float)(in3[i] * 3.0f + 3) * 0.5f));
  }
  if (i < n) sink[i] = (float)out[i + 1].m3;
}
#pragma pack(push, 4)
struct S_stage102_1 { double m0; unsigned m1; unsigned m2; float m3; int m4; };
#pragma pack(pop)
__global__ void stage102_1(S_stage102_1 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && flag) {
    out[i].m0 = (double)(out[i].m0 * 2 + 1);
    out[i].m1 = (unsigned)(out[i].m1 * 2 + 2);
    out[i].m2 = (unsigned)(out[i].m2 * 2 + 3);
    out[i].m3 = (float)(out[i].m3 * 2 + 4);
    out[i].m4 = (int)(out[i].m4 * 2 + 5);
  }
}
struct S_stage102_2 { float m0; int m1; };
__global__ void stage102_2(S_stage102_2 *out, const float *in0, const float *in1, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[i].m0 = (float)(in0[i] * 3.0f + 0);
    out[i].m1 = (int)(in1[i] * 3.0f + 1);
  }
}
#pragma pack(push, 1)
struct S_stage102_3 { float m0; float m1; short m2; short m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
#pragma pack(pop)
__global__ void stage102_3(S_stage102_3 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(flag + 7);
    out[i].m0 = (float)(wobble((float)(in0[i] * 3.0f + 0)));
    out[i].m2 = (short)(wobble((float)(in2[i] * 3.0f + 2)));
    sink[i] = (float)out[i].m3;
  }
}
struct S_stage102_4 { double m0; double m1; unsigned m2; float m3; };
__global__ void __launch_bounds__(128) stage102_4(S_stage102_4 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (double)(powf(fabsf((float)(in0[i] * 3.0f + 0)) + 0.5f, 0.75f));
  out[i].m1 = (double)(powf(fabsf((float)(in1[i] * 3.0f + 1)) + 0.5f, 0.75f));
  out[i].m2 = (unsigned)(powf(fabsf((float)(in2[i] * 3.0f + 2)) + 0.5f, 0.75f));
  out[i].m3 = (float)(powf(fabsf((float)(in3[i] * 3.0f + 3)) + 0.5f, 0.75f));
}
struct S_stage102_5 { double m0; float m1; short m2; short m3; };
__global__ void __launch_bounds__(128) stage102_5(S_stage102_5 *out, const float *in0, const float *in1, const float *in2, const float *in3, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    out[i + 1].m0 = (double)(fmaxf((float)(in0[i] * 3.0f + 0), -1e4f) + copysignf(1.0f, (float)(in0[i] * 3.0f + 0)));
    out[i + 1].m2 = (short)(fmaxf((float)(in2[i] * 3.0f + 2), -1e4f) + copysignf(1.0f, (float)(in2[i] * 3.0f + 2)));
  }
  if (i < n) sink[i] = (float)out[i + 1].m3;
}
#pragma pack(push, 4)
struct S_stage102_6 { float m0; float m1; short m2; };
#pragma pack(pop)
__global__ void stage102_6(S_stage102_6 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (float)(in0[i] * 3.0f + 0);
    out[i].m1 = (float)(in1[i] * 3.0f + 1);
    out[i].m2 = (short)(in2[i] * 3.0f + 2);
  }
}
struct S_stage102_7 { double m0; int m1; short m2; short m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void __launch_bounds__(128) stage102_7(S_stage102_7 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i].m0 = (double)(wobble((float)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)))));
    out[i].m2 = (short)(wobble((float)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)))));
  }
  if (i < n) sink[i] = (float)out[i].m3;
}
struct S_stage102_8 { int m0; float m1; float m2; };
__global__ void stage102_8(S_stage102_8 *out, const float *in0, const float *in1, const float *in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (int)(((float)(in0[i] * 3.0f + 0) + (((int)fminf(fabsf((float)(in0[i] * 3.0f + 0)), 7.0f) & 1) ? (float)out[i].m2 : 0.0f)));
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
  }
}
struct S_stage102_9 { float m0; float m1; int m2; };
__global__ void stage102_9(S_stage102_9 *__restrict__ out, const S_stage102_9 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(flag + 7);
    out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (int)(x[i].m2 * 3 + out[i].m2);
    sink[i] = (float)out[i].m2;
  }
}
struct S_stage102_10 { int m0; unsigned m1; };
__global__ void stage102_10(S_stage102_10 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (int)(out[i].m0 * 2 + 1);
  out[i].m1 = (unsigned)(out[i].m1 * 2 + 2);
}
struct S_stage102_11 { double m0; int m1; float m2; float m3; float m4; };
__global__ void stage102_11(S_stage102_11 *__restrict__ out, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (double)(__saturatef((float)(out[i].m0 * 2 + 1)) + floorf((float)(out[i].m0 * 2 + 1)));
    out[i].m1 = (int)(__saturatef((float)(out[i].m1 * 2 + 2)) + floorf((float)(out[i].m1 * 2 + 2)));
    out[i].m2 = (float)(__saturatef((float)(out[i].m2 * 2 + 3)) + floorf((float)(out[i].m2 * 2 + 3)));
    out[i].m3 = (float)(__saturatef((float)(out[i].m3 * 2 + 4)) + floorf((float)(out[i].m3 * 2 + 4)));
    out[i].m4 = (float)(__saturatef((float)(out[i].m4 * 2 + 5)) + floorf((float)(out[i].m4 * 2 + 5)));
  }
}
struct S_stage102_12 { double m0; int m1; float m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage102_12(S_stage102_12 *__restrict__ out, const S_stage102_12 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i + 1].m0 = (double)(x[i + 1].m0 * 3 + out[i + 1].m0);
    out[i + 1].m1 = (int)(x[i + 1].m1 * 3 + out[i + 1].m1);
    out[i + 1].m2 = (float)(x[i + 1].m2 * 3 + out[i + 1].m2);
    out[i + 1].m3 = (float)(x[i + 1].m3 * 3 + out[i + 1].m3);
    out[i + 1].m4 = (float)(x[i + 1].m4 * 3 + out[i + 1].m4);
    sink[i] = (float)out[i + 1].m4;
  }
}
struct S_stage102_13 { double m0; float m1; int m2; float m3; float m4; };
__global__ void stage102_13(S_stage102_13 *out, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && i < n - 37) {
    out[i].m0 = (double)(sinf(fminf(fabsf((float)(__fdividef((float)(out[i].m0 * 2 + 1), 3.0f))), 100.0f)));
    out[i].m1 = (float)(sinf(fminf(fabsf((float)(__fdividef((float)(out[i].m1 * 2 + 2), 3.0f))), 100.0f)));
    out[i].m2 = (int)(sinf(fminf(fabsf((float)(__fdividef((float)(out[i].m2 * 2 + 3), 3.0f))), 100.0f)));
    out[i].m3 = (float)(sinf(fminf(fabsf((float)(__fdividef((float)(out[i].m3 * 2 + 4), 3.0f))), 100.0f)));
    out[i].m4 = (float)(sinf(fminf(fabsf((float)(__fdividef((float)(out[i].m4 * 2 + 5), 3.0f))), 100.0f)));
  }
  if (i < n) sink[i] = (float)out[i].m4;
}
#pragma pack(push, 1)
struct S_stage102_14 { float m0; short m1; short m2; };
#pragma pack(pop)
__global__ void stage102_14(S_stage102_14 *out, const float *in0, const float *in1, const float *in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    out[i + 1].m0 = (float)(logf(fabsf((float)(__expf(fminf((float)(in0[i] * 3.0f + 0), 10.0f)))) + 1.0f));
    out[i + 1].m1 = (short)(logf(fabsf((float)(__expf(fminf((float)(in1[i] * 3.0f + 1), 10.0f)))) + 1.0f));
    out[i + 1].m2 = (short)(logf(fabsf((float)(__expf(fminf((float)(in2[i] * 3.0f + 2), 10.0f)))) + 1.0f));
  }
}
struct S_stage102_15 { float m0; short m1; short m2; };
__global__ void __launch_bounds__(128) stage102_15(S_stage102_15 *out, const S_stage102_15 *x, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(__expf(fminf((float)(x[i].m0 * 3 + out[i].m0), 10.0f)));
    out[i].m1 = (short)(__expf(fminf((float)(x[i].m1 * 3 + out[i].m1), 10.0f)));
    out[i].m2 = (short)(__expf(fminf((float)(x[i].m2 * 3 + out[i].m2), 10.0f)));
  }
}
struct S_stage103_0 { double m0; double m1; float m2; float m3; float m4; short m5; short m6; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void stage103_0(S_stage103_0 *out, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(wobble((float)(__fmul_rd((float)(out[i].m0 * 2 + 1), 1.5f))));
    out[i].m1 = (double)(wobble((float)(__fmul_rd((float)(out[i].m1 * 2 + 2), 1.5f))));
    out[i].m2 = (float)(wobble((float)(__fmul_rd((float)(out[i].m2 * 2 + 3), 1.5f))));
    out[i].m3 = (float)(wobble((float)(__fmul_rd((float)(out[i].m3 * 2 + 4), 1.5f))));
    out[i].m4 = (float)(wobble((float)(__fmul_rd((float)(out[i].m4 * 2 + 5), 1.5f))));
    out[i].m5 = (short)(wobble((float)(__fmul_rd((float)(out[i].m5 * 2 + 6), 1.5f))));
    out[i].m6 = (short)(wobble((float)(__fmul_rd((float)(out[i].m6 * 2 + 7), 1.5f))));
  }
}
struct S_stage103_1 { double m0; float m1; unsigned m2; };
__global__ void __launch_bounds__(128) stage103_1(S_stage103_1 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && flag) {
    out[i].m0 = (double)(((float)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0))) + (((int)fminf(fabsf((float)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)))), 7.0f) & 1) ? (float)out[i].m2 : 0.0f)));
    out[i].m2 = (unsigned)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)));
  }
}
struct S_stage103_2 { float m0; float m1; };
__global__ void stage103_2(S_stage103_2 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (float)(rintf((float)(out[i].m0 * 2 + 1) * 0.5f));
    out[i].m1 = (float)(rintf((float)(out[i].m1 * 2 + 2) * 0.5f));
  }
}
#pragma pack(push, 4)
struct S_stage103_3 { double m0; float m1; float m2; };
#pragma pack(pop)
__global__ void stage103_3(S_stage103_3 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (double)(fmaxf((float)(in0[i] * 3.0f + 0), -1e4f) + copysignf(1.0f, (float)(in0[i] * 3.0f + 0)));
    out[i].m1 = (float)(fmaxf((float)(in1[i] * 3.0f + 1), -1e4f) + copysignf(1.0f, (float)(in1[i] * 3.0f + 1)));
    out[i].m2 = (float)(fmaxf((float)(in2[i] * 3.0f + 2), -1e4f) + copysignf(1.0f, (float)(in2[i] * 3.0f + 2)));
  }
}
#pragma pack(push, 1)
struct S_stage103_4 { double m0; int m1; float m2; float m3; float m4; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage103_4(S_stage103_4 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  out[i].m0 = (double)(__fmul_rd((float)(in0[i] * 3.0f + 0), 1.5f));
  out[i].m1 = (int)(__fmul_rd((float)(in1[i] * 3.0f + 1), 1.5f));
  out[i].m2 = (float)(__fmul_rd((float)(in2[i] * 3.0f + 2), 1.5f));
  out[i].m3 = (float)(__fmul_rd((float)(in3[i] * 3.0f + 3), 1.5f));
  out[i].m4 = (float)(__fmul_rd((float)(in4[i] * 3.0f + 4), 1.5f));
}
#pragma pack(push, 1)
struct S_stage103_5 { float m0; float m1; int m2; int m3; float m4; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage103_5(S_stage103_5 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    out[i].m0 = (float)(expf(fminf((float)(in0[i] * 3.0f + 0), 20.0f)));
    out[i].m1 = (float)(expf(fminf((float)(in1[i] * 3.0f + 1), 20.0f)));
    out[i].m2 = (int)(expf(fminf((float)(in2[i] * 3.0f + 2), 20.0f)));
    out[i].m3 = (int)(expf(fminf((float)(in3[i] * 3.0f + 3), 20.0f)));
    out[i].m4 = (float)(expf(fminf((float)(in4[i] * 3.0f + 4), 20.0f)));
  }
  if (i < n) sink[i] = (float)out[i].m4;
}
struct S_stage103_6 { double m0; int m1; float m2; float m3; short m4; short m5; };
__global__ void __launch_bounds__(128) stage103_6(S_stage103_6 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, const float *in5, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i >= n) return;
  out[i].m0 = (double)(((float)(in0[i] * 3.0f + 0) + (((int)fminf(fabsf((float)(in0[i] * 3.0f + 0)), 7.0f) & 1) ? (float)out[i].m5 : 0.0f)));
  out[i].m1 = (int)(in1[i] * 3.0f + 1);
  out[i].m2 = (float)(in2[i] * 3.0f + 2);
  out[i].m3 = (float)(in3[i] * 3.0f + 3);
  out[i].m4 = (short)(in4[i] * 3.0f + 4);
  out[i].m5 = (short)(in5[i] * 3.0f + 5);
}
#pragma pack(push, 4)
struct S_stage103_7 { double m0; float m1; short m2; short m3; };
#pragma pack(pop)
__global__ void stage103_7(S_stage103_7 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n - i > 0) {
    out[2 * i].m0 = (double)(in0[i] * 3.0f + 0);
    out[2 * i].m1 = (float)(in1[i] * 3.0f + 1);
    out[2 * i].m2 = (short)(in2[i] * 3.0f + 2);
    out[2 * i].m3 = (short)(in3[i] * 3.0f + 3);
  }
}
struct S_stage103_8 { double m0; int m1; float m2; int m3; short m4; short m5; };
__global__ void stage103_8(S_stage103_8 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, const float *__restrict__ in5, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i + 1].m0 = (double)(__fmul_rd((float)(in0[i] * 3.0f + 0), 1.5f));
  out[i + 1].m1 = (int)(__fmul_rd((float)(in1[i] * 3.0f + 1), 1.5f));
  out[i + 1].m2 = (float)(__fmul_rd((float)(in2[i] * 3.0f + 2), 1.5f));
  out[i + 1].m3 = (int)(__fmul_rd((float)(in3[i] * 3.0f + 3), 1.5f));
  out[i + 1].m4 = (short)(__fmul_rd((float)(in4[i] * 3.0f + 4), 1.5f));
  out[i + 1].m5 = (short)(__fmul_rd((float)(in5[i] * 3.0f + 5), 1.5f));
  if (i < n) sink[i] = (float)out[i + 1].m5;
}
struct S_stage103_9 { float m0; float m1; int m2; };
__global__ void stage103_9(S_stage103_9 *__restrict__ out, const S_stage103_9 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (int)(x[i].m2 * 3 + out[i].m2);
    sink[i] = (float)out[i].m2;
  }
}
#pragma pack(push, 1)
struct S_stage103_10 { double m0; double m1; double m2; unsigned m3; float m4; };
#pragma pack(pop)
__global__ void stage103_10(S_stage103_10 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((unsigned)i < (unsigned)n) {
    out[i].m0 = (double)(out[i].m0 * 2 + 1);
    out[i].m1 = (double)(out[i].m1 * 2 + 2);
    out[i].m2 = (double)(out[i].m2 * 2 + 3);
    out[i].m3 = (unsigned)(out[i].m3 * 2 + 4);
    out[i].m4 = (float)(out[i].m4 * 2 + 5);
  }
}
struct S_stage103_11 { double m0; double m1; unsigned m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage103_11(S_stage103_11 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, float *__restrict__ sink, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(in0[i] * 3.0f + 0);
    out[i].m1 = (double)(in1[i] * 3.0f + 1);
    out[i].m2 = (unsigned)(in2[i] * 3.0f + 2);
    out[i].m3 = (float)(in3[i] * 3.0f + 3);
    out[i].m4 = (float)(in4[i] * 3.0f + 4);
    sink[i] = (float)out[i].m4;
  }
}
#pragma pack(push, 1)
struct S_stage103_12 { float m0; int m1; };
#pragma pack(pop)
__global__ void stage103_12(S_stage103_12 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i].m0 = (float)(out[i].m0 * 2 + 1);
    out[i].m1 = (int)(out[i].m1 * 2 + 2);
  }
}
struct S_stage103_13 { double m0; float m1; short m2; short m3; };
__global__ void stage103_13(S_stage103_13 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (double)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)));
    out[i].m1 = (float)(rsqrtf(1.0f + (float)(in1[i] * 3.0f + 1) * (float)(in1[i] * 3.0f + 1)));
    out[i].m2 = (short)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)));
    out[i].m3 = (short)(rsqrtf(1.0f + (float)(in3[i] * 3.0f + 3) * (float)(in3[i] * 3.0f + 3)));
  }
}
struct S_stage103_14 { int m0; int m1; float m2; short m3; short m4; };
__global__ void stage103_14(S_stage103_14 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i].m0 = (int)(logf(fabsf((float)(in0[i] * 3.0f + 0)) + 1.0f));
    out[i].m1 = (int)(logf(fabsf((float)(in1[i] * 3.0f + 1)) + 1.0f));
    out[i].m2 = (float)(logf(fabsf((float)(in2[i] * 3.0f + 2)) + 1.0f));
    out[i].m3 = (short)(logf(fabsf((float)(in3[i] * 3.0f + 3)) + 1.0f));
    out[i].m4 = (short)(logf(fabsf((float)(in4[i] * 3.0f + 4)) + 1.0f));
  }
}
struct S_stage103_15 { double m0; float m1; float m2; float m3; short m4; short m5; };
__global__ void __launch_bounds__(128) stage103_15(S_stage103_15 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, const float *__restrict__ in5, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(__saturatef((float)(in0[i] * 3.0f + 0)) + floorf((float)(in0[i] * 3.0f + 0)));
    out[i].m2 = (float)(__saturatef((float)(in2[i] * 3.0f + 2)) + floorf((float)(in2[i] * 3.0f + 2)));
    out[i].m4 = (short)(__saturatef((float)(in4[i] * 3.0f + 4)) + floorf((float)(in4[i] * 3.0f + 4)));
    sink[i] = (float)out[i].m5;
  }
}
struct S_stage104_0 { double m0; float m1; float m2; };
__global__ void stage104_0(S_stage104_0 *out, const S_stage104_0 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (double)(expf(fminf((float)(x[i].m0 * 3 + out[i].m0), 20.0f)));
    out[i].m1 = (float)(expf(fminf((float)(x[i].m1 * 3 + out[i].m1), 20.0f)));
    out[i].m2 = (float)(expf(fminf((float)(x[i].m2 * 3 + out[i].m2), 20.0f)));
  }
}
struct S_stage104_1 { double m0; float m1; int m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage104_1(S_stage104_1 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i + 1].m0 = (double)(expf(fminf((float)(fmaxf((float)(in0[i] * 3.0f + 0), -1e4f) + copysignf(1.0f, (float)(in0[i] * 3.0f + 0))), 20.0f)));
    out[i + 1].m1 = (float)(expf(fminf((float)(fmaxf((float)(in1[i] * 3.0f + 1), -1e4f) + copysignf(1.0f, (float)(in1[i] * 3.0f + 1))), 20.0f)));
    out[i + 1].m2 = (int)(expf(fminf((float)(fmaxf((float)(in2[i] * 3.0f + 2), -1e4f) + copysignf(1.0f, (float)(in2[i] * 3.0f + 2))), 20.0f)));
    out[i + 1].m3 = (float)(expf(fminf((float)(fmaxf((float)(in3[i] * 3.0f + 3), -1e4f) + copysignf(1.0f, (float)(in3[i] * 3.0f + 3))), 20.0f)));
    out[i + 1].m4 = (float)(expf(fminf((float)(fmaxf((float)(in4[i] * 3.0f + 4), -1e4f) + copysignf(1.0f, (float)(in4[i] * 3.0f + 4))), 20.0f)));
  }
  if (i < n) sink[i] = (float)out[i + 1].m4;
}
#pragma pack(push, 1)
struct S_stage104_2 { double m0; float m1; int m2; short m3; };
#pragma pack(pop)
__global__ void stage104_2(S_stage104_2 *__restrict__ out, const S_stage104_2 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[2 * i].m0 = (double)(x[2 * i].m0 * 3 + out[2 * i].m0);
    out[2 * i].m1 = (float)(x[2 * i].m1 * 3 + out[2 * i].m1);
    out[2 * i].m2 = (int)(x[2 * i].m2 * 3 + out[2 * i].m2);
    out[2 * i].m3 = (short)(x[2 * i].m3 * 3 + out[2 * i].m3);
  }
  if (i < n) sink[i] = (float)out[2 * i].m3;
}
#pragma pack(push, 4)
struct S_stage104_3 { float m0; float m1; float m2; float m3; float m4; };
#pragma pack(pop)
__global__ void stage104_3(S_stage104_3 *out, const S_stage104_3 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (float)(__saturatef((float)(x[i].m0 * 3 + out[i].m0)) + floorf((float)(x[i].m0 * 3 + out[i].m0)));
    out[i].m1 = (float)(__saturatef((float)(x[i].m1 * 3 + out[i].m1)) + floorf((float)(x[i].m1 * 3 + out[i].m1)));
    out[i].m2 = (float)(__saturatef((float)(x[i].m2 * 3 + out[i].m2)) + floorf((float)(x[i].m2 * 3 + out[i].m2)));
    out[i].m3 = (float)(__saturatef((float)(x[i].m3 * 3 + out[i].m3)) + floorf((float)(x[i].m3 * 3 + out[i].m3)));
    out[i].m4 = (float)(__saturatef((float)(x[i].m4 * 3 + out[i].m4)) + floorf((float)(x[i].m4 * 3 + out[i].m4)));
  }
}
#pragma pack(push, 4)
struct S_stage104_4 { double m0; int m1; };
#pragma pack(pop)
__global__ void stage104_4(S_stage104_4 *out, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(powf(fabsf((float)(__sinf((float)(out[i].m0 * 2 + 1)) * __logf(fabsf((float)(out[i].m0 * 2 + 1)) + 1.0f))) + 0.5f, 0.75f));
    out[i].m1 = (int)(powf(fabsf((float)(__sinf((float)(out[i].m1 * 2 + 2)) * __logf(fabsf((float)(out[i].m1 * 2 + 2)) + 1.0f))) + 0.5f, 0.75f));
  }
}
struct S_stage104_5 { double m0; float m1; int m2; float m3; unsigned m4; };
__global__ void stage104_5(S_stage104_5 *__restrict__ out, const S_stage104_5 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n - i > 0) {
    out[i].m0 = (double)(__fmul_rd((float)(x[i].m0 * 3 + out[i].m0), 1.5f));
    out[i].m1 = (float)(__fmul_rd((float)(x[i].m1 * 3 + out[i].m1), 1.5f));
    out[i].m2 = (int)(__fmul_rd((float)(x[i].m2 * 3 + out[i].m2), 1.5f));
    out[i].m3 = (float)(__fmul_rd((float)(x[i].m3 * 3 + out[i].m3), 1.5f));
    out[i].m4 = (unsigned)(__fmul_rd((float)(x[i].m4 * 3 + out[i].m4), 1.5f));
  }
}
struct S_stage104_6 { double m0; float m1; float m2; float m3; float m4; };
__global__ void stage104_6(S_stage104_6 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i + 1].m0 = (double)(in0[i] * 3.0f + 0);
    out[i + 1].m2 = (float)(in2[i] * 3.0f + 2);
    out[i + 1].m4 = (float)(in4[i] * 3.0f + 4);
  }
}
struct S_stage104_7 { int m0; float m1; int m2; float m3; int m4; };
__global__ void __launch_bounds__(128) stage104_7(S_stage104_7 *__restrict__ out, const S_stage104_7 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[2 * i].m0 = (int)(sinf(fminf(fabsf((float)(x[2 * i].m0 * 3 + out[2 * i].m0)), 100.0f)));
    out[2 * i].m1 = (float)(sinf(fminf(fabsf((float)(x[2 * i].m1 * 3 + out[2 * i].m1)), 100.0f)));
    out[2 * i].m2 = (int)(sinf(fminf(fabsf((float)(x[2 * i].m2 * 3 + out[2 * i].m2)), 100.0f)));
    out[2 * i].m3 = (float)(sinf(fminf(fabsf((float)(x[2 * i].m3 * 3 + out[2 * i].m3)), 100.0f)));
    out[2 * i].m4 = (int)(sinf(fminf(fabsf((float)(x[2 * i].m4 * 3 + out[2 * i].m4)), 100.0f)));
  }
}
struct S_stage104_8 { int m0; int m1; };
__global__ void __launch_bounds__(128) stage104_8(S_stage104_8 *out, const float *in0, const float *in1, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (int)(in0[i] * 3.0f + 0);
    out[i].m1 = (int)(in1[i] * 3.0f + 1);
  }
}
struct S_stage104_9 { double m0; double m1; double m2; };
__global__ void stage104_9(S_stage104_9 *out, const float *in0, const float *in1, const float *in2, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i <= n - 1) {
    out[i].m0 = (double)(expf(fminf((float)(in0[i] * 3.0f + 0), 20.0f)));
    out[i].m2 = (double)(expf(fminf((float)(in2[i] * 3.0f + 2), 20.0f)));
  }
  if (i < n) sink[i] = (float)out[i].m2;
}
struct S_stage104_10 { double m0; unsigned m1; short m2; short m3; };
__global__ void stage104_10(S_stage104_10 *__restrict__ out, const S_stage104_10 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i].m0 = (double)(sinf(fminf(fabsf((float)(x[2 * i].m0 * 3 + out[2 * i].m0)), 100.0f)));
  out[2 * i].m1 = (unsigned)(sinf(fminf(fabsf((float)(x[2 * i].m1 * 3 + out[2 * i].m1)), 100.0f)));
  out[2 * i].m2 = (short)(sinf(fminf(fabsf((float)(x[2 * i].m2 * 3 + out[2 * i].m2)), 100.0f)));
  out[2 * i].m3 = (short)(sinf(fminf(fabsf((float)(x[2 * i].m3 * 3 + out[2 * i].m3)), 100.0f)));
}
struct S_stage104_11 { unsigned m0; int m1; };
__global__ void stage104_11(S_stage104_11 *__restrict__ out, const S_stage104_11 *__restrict__ x, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (unsigned)(flag + 7);
    out[i].m0 = (unsigned)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (int)(x[i].m1 * 3 + out[i].m1);
  }
}
#pragma pack(push, 1)
struct S_stage104_12 { int m0; int m1; float m2; short m3; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage104_12(S_stage104_12 *out, const float *in0, const float *in1, const float *in2, const float *in3, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (int)(flag + 7);
    out[i].m0 = (int)(in0[i] * 3.0f + 0);
    out[i].m1 = (int)(in1[i] * 3.0f + 1);
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
    out[i].m3 = (short)(in3[i] * 3.0f + 3);
  }
}
struct S_stage104_13 { double m0; double m1; float m2; unsigned m3; unsigned m4; float m5; };
__global__ void stage104_13(S_stage104_13 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, const float *__restrict__ in5, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (double)(__expf(fminf((float)(in0[i] * 3.0f + 0), 10.0f)));
  out[i].m1 = (double)(__expf(fminf((float)(in1[i] * 3.0f + 1), 10.0f)));
  out[i].m2 = (float)(__expf(fminf((float)(in2[i] * 3.0f + 2), 10.0f)));
  out[i].m3 = (unsigned)(__expf(fminf((float)(in3[i] * 3.0f + 3), 10.0f)));
  out[i].m4 = (unsigned)(__expf(fminf((float)(in4[i] * 3.0f + 4), 10.0f)));
  out[i].m5 = (float)(__expf(fminf((float)(in5[i] * 3.0f + 5), 10.0f)));
}
#pragma pack(push, 1)
struct S_stage104_14 { float m0; short m1; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage104_14(S_stage104_14 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < n - 37) {
    out[i + 1].m0 = (float)(out[i + 1].m0 * 2 + 1);
    out[i + 1].m1 = (short)(out[i + 1].m1 * 2 + 2);
  }
}
struct S_stage104_15 { float m0; float m1; short m2; short m3; };
__global__ void stage104_15(S_stage104_15 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(flag + 7);
    out[i].m0 = (float)(in0[i] * 3.0f + 0);
    out[i].m2 = (short)(in2[i] * 3.0f + 2);
    sink[i] = (float)out[i].m3;
  }
}
struct S_stage105_0 { float m0; float m1; int m2; short m3; short m4; };
__global__ void stage105_0(S_stage105_0 *out, const S_stage105_0 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
  out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
  out[i].m2 = (int)(x[i].m2 * 3 + out[i].m2);
  out[i].m3 = (short)(x[i].m3 * 3 + out[i].m3);
  out[i].m4 = (short)(x[i].m4 * 3 + out[i].m4);
}
#pragma pack(push, 1)
struct S_stage105_1 { double m0; double m1; int m2; int m3; };
#pragma pack(pop)
__global__ void stage105_1(S_stage105_1 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (double)(in0[i] * 3.0f + 0);
  out[i].m1 = (double)(in1[i] * 3.0f + 1);
  out[i].m2 = (int)(in2[i] * 3.0f + 2);
  out[i].m3 = (int)(in3[i] * 3.0f + 3);
}
struct S_stage105_2 { double m0; float m1; float m2; float m3; float m4; };
__global__ void __launch_bounds__(128) stage105_2(S_stage105_2 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    out[i].m0 = (double)(((float)(out[i].m0 * 2 + 1) + (((int)fminf(fabsf((float)(out[i].m0 * 2 + 1)), 7.0f) & 1) ? (float)out[i].m4 : 0.0f)));
    out[i].m1 = (float)(out[i].m1 * 2 + 2);
    out[i].m2 = (float)(out[i].m2 * 2 + 3);
    out[i].m3 = (float)(out[i].m3 * 2 + 4);
    out[i].m4 = (float)(out[i].m4 * 2 + 5);
  }
}
struct S_stage105_3 { float m0; int m1; };
__global__ void stage105_3(S_stage105_3 *__restrict__ out, const S_stage105_3 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (int)(x[i].m1 * 3 + out[i].m1);
  }
}
#pragma pack(push, 1)
struct S_stage105_4 { double m0; int m1; int m2; };
#pragma pack(pop)
__global__ void stage105_4(S_stage105_4 *out, const float *in0, const float *in1, const float *in2, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(flag + 7);
    out[i].m0 = (double)(powf(fabsf((float)(in0[i] * 3.0f + 0)) + 0.5f, 0.75f));
    out[i].m2 = (int)(powf(fabsf((float)(in2[i] * 3.0f + 2)) + 0.5f, 0.75f));
  }
}
struct S_stage105_5 { double m0; unsigned m1; short m2; short m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void stage105_5(S_stage105_5 *out, float *sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(wobble((float)(out[i].m0 * 2 + 1)));
    out[i].m1 = (unsigned)(wobble((float)(out[i].m1 * 2 + 2)));
    out[i].m2 = (short)(wobble((float)(out[i].m2 * 2 + 3)));
    out[i].m3 = (short)(wobble((float)(out[i].m3 * 2 + 4)));
    sink[i] = (float)out[i].m3;
  }
}
struct S_stage105_6 { float m0; float m1; short m2; short m3; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void stage105_6(S_stage105_6 *__restrict__ out, const S_stage105_6 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[i].m0 = (float)(wobble((float)(x[i].m0 * 3 + out[i].m0)));
    out[i].m1 = (float)(wobble((float)(x[i].m1 * 3 + out[i].m1)));
    out[i].m2 = (short)(wobble((float)(x[i].m2 * 3 + out[i].m2)));
    out[i].m3 = (short)(wobble((float)(x[i].m3 * 3 + out[i].m3)));
  }
}
struct S_stage105_7 { double m0; float m1; float m2; unsigned m3; unsigned m4; };
__global__ void stage105_7(S_stage105_7 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, float *sink, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (double)(in0[i] * 3.0f + 0);
    out[i].m1 = (float)(in1[i] * 3.0f + 1);
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
    out[i].m3 = (unsigned)(in3[i] * 3.0f + 3);
    out[i].m4 = (unsigned)(in4[i] * 3.0f + 4);
    sink[i] = (float)out[i].m4;
  }
}
#pragma pack(push, 4)
struct S_stage105_8 { float m0; float m1; unsigned m2; int m3; short m4; short m5; };
#pragma pack(pop)
__global__ void stage105_8(S_stage105_8 *out, const S_stage105_8 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((unsigned)i < (unsigned)n) {
    out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (unsigned)(x[i].m2 * 3 + out[i].m2);
    out[i].m3 = (int)(x[i].m3 * 3 + out[i].m3);
    out[i].m4 = (short)(x[i].m4 * 3 + out[i].m4);
    out[i].m5 = (short)(x[i].m5 * 3 + out[i].m5);
  }
}
struct S_stage105_9 { double m0; unsigned m1; int m2; float m3; short m4; short m5; };
__global__ void stage105_9(S_stage105_9 *__restrict__ out, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((unsigned)i < (unsigned)n) {
    out[i + 1].m0 = (double)(((float)(out[i + 1].m0 * 2 + 1) + (((int)fminf(fabsf((float)(out[i + 1].m0 * 2 + 1)), 7.0f) & 1) ? (float)out[i + 1].m5 : 0.0f)));
    out[i + 1].m1 = (unsigned)(out[i + 1].m1 * 2 + 2);
    out[i + 1].m2 = (int)(out[i + 1].m2 * 2 + 3);
    out[i + 1].m3 = (float)(out[i + 1].m3 * 2 + 4);
    out[i + 1].m4 = (short)(out[i + 1].m4 * 2 + 5);
    out[i + 1].m5 = (short)(out[i + 1].m5 * 2 + 6);
  }
  if (i < n) sink[i] = (float)out[i + 1].m5;
}
struct S_stage105_10 { double m0; double m1; float m2; float m3; };
__global__ void stage105_10(S_stage105_10 *out, const S_stage105_10 *x, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(__fmul_rd((float)(x[i].m0 * 3 + out[i].m0), 1.5f));
    out[i].m1 = (double)(__fmul_rd((float)(x[i].m1 * 3 + out[i].m1), 1.5f));
    out[i].m2 = (float)(__fmul_rd((float)(x[i].m2 * 3 + out[i].m2), 1.5f));
    out[i].m3 = (float)(__fmul_rd((float)(x[i].m3 * 3 + out[i].m3), 1.5f));
  }
}
struct S_stage105_11 { double m0; float m1; float m2; int m3; float m4; };
__global__ void __launch_bounds__(128) stage105_11(S_stage105_11 *__restrict__ out, const S_stage105_11 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * i].m0 = (double)(x[2 * i].m0 * 3 + out[2 * i].m0);
    out[2 * i].m1 = (float)(x[2 * i].m1 * 3 + out[2 * i].m1);
    out[2 * i].m2 = (float)(x[2 * i].m2 * 3 + out[2 * i].m2);
    out[2 * i].m3 = (int)(x[2 * i].m3 * 3 + out[2 * i].m3);
    out[2 * i].m4 = (float)(x[2 * i].m4 * 3 + out[2 * i].m4);
    sink[i] = (float)out[2 * i].m4;
  }
}
struct S_stage105_12 { unsigned m0; unsigned m1; float m2; };
__global__ void __launch_bounds__(128) stage105_12(S_stage105_12 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i + 1].m0 = (unsigned)(powf(fabsf((float)(in0[i] * 3.0f + 0)) + 0.5f, 0.75f));
    out[i + 1].m2 = (float)(powf(fabsf((float)(in2[i] * 3.0f + 2)) + 0.5f, 0.75f));
  }
}
struct S_stage105_13 { int m0; unsigned m1; };
__global__ void stage105_13(S_stage105_13 *out, const float *in0, const float *in1, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (int)(flag + 7);
  out[i].m0 = (int)(in0[i] * 3.0f + 0);
  out[i].m1 = (unsigned)(in1[i] * 3.0f + 1);
}
struct S_stage105_14 { double m0; int m1; float m2; };
__global__ void stage105_14(S_stage105_14 *out, const float *in0, const float *in1, const float *in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (double)(__fmul_rd((float)(in0[i] * 3.0f + 0), 1.5f));
  out[i].m1 = (int)(__fmul_rd((float)(in1[i] * 3.0f + 1), 1.5f));
  out[i].m2 = (float)(__fmul_rd((float)(in2[i] * 3.0f + 2), 1.5f));
}
struct S_stage105_15 { float m0; float m1; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void __launch_bounds__(128) stage105_15(S_stage105_15 *out, const S_stage105_15 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (float)(wobble((float)(fmaxf((float)(x[i].m0 * 3 + out[i].m0), -1e4f) + copysignf(1.0f, (float)(x[i].m0 * 3 + out[i].m0)))));
    out[i].m1 = (float)(wobble((float)(fmaxf((float)(x[i].m1 * 3 + out[i].m1), -1e4f) + copysignf(1.0f, (float)(x[i].m1 * 3 + out[i].m1)))));
  }
}
struct S_stage106_0 { unsigned m0; float m1; float m2; };
__global__ void __launch_bounds__(128) stage106_0(S_stage106_0 *out, const float *in0, const float *in1, const float *in2, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n - 1) {
    out[i].m0 = (unsigned)(in0[i] * 3.0f + 0);
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
  }
  if (i < n) sink[i] = (float)out[i].m2;
}
#pragma pack(push, 1)
struct S_stage106_1 { float m0; float m1; };
#pragma pack(pop)
__global__ void stage106_1(S_stage106_1 *__restrict__ out, const S_stage106_1 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[2 * i].m0 = (float)(fmaxf((float)(x[2 * i].m0 * 3 + out[2 * i].m0), -1e4f) + copysignf(1.0f, (float)(x[2 * i].m0 * 3 + out[2 * i].m0)));
  out[2 * i].m1 = (float)(fmaxf((float)(x[2 * i].m1 * 3 + out[2 * i].m1), -1e4f) + copysignf(1.0f, (float)(x[2 * i].m1 * 3 + out[2 * i].m1)));
}
#pragma pack(push, 1)
struct S_stage106_2 { float m0; float m1; float m2; };
#pragma pack(pop)
__global__ void stage106_2(S_stage106_2 *out, const S_stage106_2 *x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
  out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
  out[i].m2 = (float)(x[i].m2 * 3 + out[i].m2);
}
#pragma pack(push, 4)
struct S_stage106_3 { float m0; unsigned m1; };
#pragma pack(pop)
__global__ void stage106_3(S_stage106_3 *out, const float *in0, const float *in1, float *sink, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    out[2 * i].m0 = (float)(__fmul_rd((float)(in0[i] * 3.0f + 0), 1.5f));
    out[2 * i].m1 = (unsigned)(__fmul_rd((float)(in1[i] * 3.0f + 1), 1.5f));
    sink[i] = (float)out[2 * i].m1;
  }
}
#pragma pack(push, 1)
struct S_stage106_4 { double m0; float m1; float m2; float m3; short m4; short m5; };
#pragma pack(pop)
__global__ void stage106_4(S_stage106_4 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, const float *in5, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i < n && flag) {
    out[i].m0 = (double)(((float)(in0[i] * 3.0f + 0) + (((int)fminf(fabsf((float)(in0[i] * 3.0f + 0)), 7.0f) & 1) ? (float)out[i].m5 : 0.0f)));
    out[i].m2 = (float)(in2[i] * 3.0f + 2);
    out[i].m4 = (short)(in4[i] * 3.0f + 4);
  }
}
struct S_stage106_5 { unsigned m0; float m1; unsigned m2; float m3; int m4; };
__global__ void stage106_5(S_stage106_5 *out, float *sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n || !flag) return;
  out[i].m0 = (unsigned)(logf(fabsf((float)(out[i].m0 * 2 + 1)) + 1.0f));
  out[i].m1 = (float)(logf(fabsf((float)(out[i].m1 * 2 + 2)) + 1.0f));
  out[i].m2 = (unsigned)(logf(fabsf((float)(out[i].m2 * 2 + 3)) + 1.0f));
  out[i].m3 = (float)(logf(fabsf((float)(out[i].m3 * 2 + 4)) + 1.0f));
  out[i].m4 = (int)(logf(fabsf((float)(out[i].m4 * 2 + 5)) + 1.0f));
  if (i < n) sink[i] = (float)out[i].m4;
}
#pragma pack(push, 1)
struct S_stage106_6 { double m0; float m1; int m2; unsigned m3; unsigned m4; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage106_6(S_stage106_6 *__restrict__ out, const S_stage106_6 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i < n - 37) {
    out[i].m0 = (double)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (float)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (int)(x[i].m2 * 3 + out[i].m2);
    out[i].m3 = (unsigned)(x[i].m3 * 3 + out[i].m3);
    out[i].m4 = (unsigned)(x[i].m4 * 3 + out[i].m4);
  }
}
struct S_stage106_7 { double m0; int m1; unsigned m2; };
__global__ void stage106_7(S_stage106_7 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (double)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)));
  out[i].m1 = (int)(rsqrtf(1.0f + (float)(in1[i] * 3.0f + 1) * (float)(in1[i] * 3.0f + 1)));
  out[i].m2 = (unsigned)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)));
}
#pragma pack(push, 4)
struct S_stage106_8 { float m0; int m1; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage106_8(S_stage106_8 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i].m0 = (float)(logf(fabsf((float)(__fmul_rd((float)(out[i].m0 * 2 + 1), 1.5f))) + 1.0f));
    out[i].m1 = (int)(logf(fabsf((float)(__fmul_rd((float)(out[i].m1 * 2 + 2), 1.5f))) + 1.0f));
  }
}
#pragma pack(push, 4)
struct S_stage106_9 { float m0; unsigned m1; float m2; float m3; };
#pragma pack(pop)
__global__ void stage106_9(S_stage106_9 *__restrict__ out, const S_stage106_9 *__restrict__ x, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(x[i].m0 * 3 + out[i].m0);
    out[i].m1 = (unsigned)(x[i].m1 * 3 + out[i].m1);
    out[i].m2 = (float)(x[i].m2 * 3 + out[i].m2);
    out[i].m3 = (float)(x[i].m3 * 3 + out[i].m3);
  }
}
#pragma pack(push, 1)
struct S_stage106_10 { double m0; float m1; float m2; };
#pragma pack(pop)
__global__ void stage106_10(S_stage106_10 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i].m0 = (double)(__saturatef((float)(out[i].m0 * 2 + 1)) + floorf((float)(out[i].m0 * 2 + 1)));
  out[i].m1 = (float)(__saturatef((float)(out[i].m1 * 2 + 2)) + floorf((float)(out[i].m1 * 2 + 2)));
  out[i].m2 = (float)(__saturatef((float)(out[i].m2 * 2 + 3)) + floorf((float)(out[i].m2 * 2 + 3)));
}
#pragma pack(push, 4)
struct S_stage106_11 { double m0; unsigned m1; int m2; float m3; float m4; };
#pragma pack(pop)
__global__ void stage106_11(S_stage106_11 *__restrict__ out, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (double)(sqrtf(fabsf((float)(out[i].m0 * 2 + 1))));
    out[i].m1 = (unsigned)(sqrtf(fabsf((float)(out[i].m1 * 2 + 2))));
    out[i].m2 = (int)(sqrtf(fabsf((float)(out[i].m2 * 2 + 3))));
    out[i].m3 = (float)(sqrtf(fabsf((float)(out[i].m3 * 2 + 4))));
    out[i].m4 = (float)(sqrtf(fabsf((float)(out[i].m4 * 2 + 5))));
  }
}
#pragma pack(push, 1)
struct S_stage106_12 { double m0; double m1; float m2; int m3; float m4; float m5; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage106_12(S_stage106_12 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, const float *__restrict__ in3, const float *__restrict__ in4, const float *__restrict__ in5, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].m0 = (double)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)));
    out[i].m1 = (double)(rsqrtf(1.0f + (float)(in1[i] * 3.0f + 1) * (float)(in1[i] * 3.0f + 1)));
    out[i].m2 = (float)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)));
    out[i].m3 = (int)(rsqrtf(1.0f + (float)(in3[i] * 3.0f + 3) * (float)(in3[i] * 3.0f + 3)));
    out[i].m4 = (float)(rsqrtf(1.0f + (float)(in4[i] * 3.0f + 4) * (float)(in4[i] * 3.0f + 4)));
    out[i].m5 = (float)(rsqrtf(1.0f + (float)(in5[i] * 3.0f + 5) * (float)(in5[i] * 3.0f + 5)));
  }
  if (i < n) sink[i] = (float)out[i].m5;
}
struct S_stage106_13 { double m0; unsigned m1; int m2; };
__global__ void __launch_bounds__(128) stage106_13(S_stage106_13 *out, const S_stage106_13 *x, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (double)(flag + 7);
    out[i].m0 = (double)(expf(fminf((float)(x[i].m0 * 3 + out[i].m0), 20.0f)));
    out[i].m1 = (unsigned)(expf(fminf((float)(x[i].m1 * 3 + out[i].m1), 20.0f)));
    out[i].m2 = (int)(expf(fminf((float)(x[i].m2 * 3 + out[i].m2), 20.0f)));
  }
}
struct S_stage106_14 { int m0; float m1; float m2; };
__global__ void stage106_14(S_stage106_14 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n > i) {
    out[i + 1].m0 = (int)(powf(fabsf((float)(__fdividef((float)(in0[i] * 3.0f + 0), 3.0f))) + 0.5f, 0.75f));
    out[i + 1].m1 = (float)(powf(fabsf((float)(__fdividef((float)(in1[i] * 3.0f + 1), 3.0f))) + 0.5f, 0.75f));
    out[i + 1].m2 = (float)(powf(fabsf((float)(__fdividef((float)(in2[i] * 3.0f + 2), 3.0f))) + 0.5f, 0.75f));
  }
  if (i < n) sink[i] = (float)out[i + 1].m2;
}
#pragma pack(push, 4)
struct S_stage106_15 { double m0; float m1; float m2; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage106_15(S_stage106_15 *__restrict__ out, const S_stage106_15 *__restrict__ x, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if (i >= n || !flag) return;
  out[i].m0 = (double)(__saturatef((float)(x[i].m0 * 3 + out[i].m0)) + floorf((float)(x[i].m0 * 3 + out[i].m0)));
  out[i].m1 = (float)(__saturatef((float)(x[i].m1 * 3 + out[i].m1)) + floorf((float)(x[i].m1 * 3 + out[i].m1)));
  out[i].m2 = (float)(__saturatef((float)(x[i].m2 * 3 + out[i].m2)) + floorf((float)(x[i].m2 * 3 + out[i].m2)));
}
struct S_stage107_0 { int m0; float m1; int m2; unsigned m3; };
__global__ void stage107_0(S_stage107_0 *__restrict__ out, const S_stage107_0 *__restrict__ x, float *__restrict__ sink, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (int)(sinf(fminf(fabsf((float)(x[i].m0 * 3 + out[i].m0)), 100.0f)));
    out[i].m1 = (float)(sinf(fminf(fabsf((float)(x[i].m1 * 3 + out[i].m1)), 100.0f)));
    out[i].m2 = (int)(sinf(fminf(fabsf((float)(x[i].m2 * 3 + out[i].m2)), 100.0f)));
    out[i].m3 = (unsigned)(sinf(fminf(fabsf((float)(x[i].m3 * 3 + out[i].m3)), 100.0f)));
  }
  if (i < n) sink[i] = (float)out[i].m3;
}
#pragma pack(push, 4)
struct S_stage107_1 { unsigned m0; float m1; float m2; float m3; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage107_1(S_stage107_1 *out, const float *in0, const float *in1, const float *in2, const float *in3, int n, int flag) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n - 1; i += blockDim.x * gridDim.x) {
    out[i].m0 = (unsigned)(rintf((float)(in0[i] * 3.0f + 0) * 0.5f));
    out[i].m1 = (float)(rintf((float)(in1[i] * 3.0f + 1) * 0.5f));
    out[i].m2 = (float)(rintf((float)(in2[i] * 3.0f + 2) * 0.5f));
    out[i].m3 = (float)(rintf((float)(in3[i] * 3.0f + 3) * 0.5f));
  }
}
struct S_stage107_2 { float m0; float m1; int m2; float m3; short m4; short m5; };
__global__ void __launch_bounds__(128) stage107_2(S_stage107_2 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (float)(flag + 7);
  if (i <= n - 1) {
    out[i].m0 = (float)(out[i].m0 * 2 + 1);
    out[i].m1 = (float)(out[i].m1 * 2 + 2);
    out[i].m2 = (int)(out[i].m2 * 2 + 3);
    out[i].m3 = (float)(out[i].m3 * 2 + 4);
    out[i].m4 = (short)(out[i].m4 * 2 + 5);
    out[i].m5 = (short)(out[i].m5 * 2 + 6);
  }
}
struct S_stage107_3 { double m0; float m1; float m2; };
__global__ void __launch_bounds__(128) stage107_3(S_stage107_3 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 3 != 1) {
    out[i].m0 = (double)(__sinf((float)(out[i].m0 * 2 + 1)) * __logf(fabsf((float)(out[i].m0 * 2 + 1)) + 1.0f));
    out[i].m1 = (float)(__sinf((float)(out[i].m1 * 2 + 2)) * __logf(fabsf((float)(out[i].m1 * 2 + 2)) + 1.0f));
    out[i].m2 = (float)(__sinf((float)(out[i].m2 * 2 + 3)) * __logf(fabsf((float)(out[i].m2 * 2 + 3)) + 1.0f));
  }
}
#pragma pack(push, 4)
struct S_stage107_4 { float m0; int m1; float m2; float m3; };
#pragma pack(pop)
__global__ void stage107_4(S_stage107_4 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (float)(flag + 7);
  if (i <= n - 1) {
    out[i].m0 = (float)((float)__float2int_rn((float)(out[i].m0 * 2 + 1)) + __fadd_rz((float)(out[i].m0 * 2 + 1), 0.25f));
    out[i].m1 = (int)((float)__float2int_rn((float)(out[i].m1 * 2 + 2)) + __fadd_rz((float)(out[i].m1 * 2 + 2), 0.25f));
    out[i].m2 = (float)((float)__float2int_rn((float)(out[i].m2 * 2 + 3)) + __fadd_rz((float)(out[i].m2 * 2 + 3), 0.25f));
    out[i].m3 = (float)((float)__float2int_rn((float)(out[i].m3 * 2 + 4)) + __fadd_rz((float)(out[i].m3 * 2 + 4), 0.25f));
  }
}
struct S_stage107_5 { double m0; float m1; int m2; int m3; float m4; };
__global__ void stage107_5(S_stage107_5 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i].m0 = (double)(expf(fminf((float)(__saturatef((float)(out[2 * i].m0 * 2 + 1)) + floorf((float)(out[2 * i].m0 * 2 + 1))), 20.0f)));
  out[2 * i].m1 = (float)(expf(fminf((float)(__saturatef((float)(out[2 * i].m1 * 2 + 2)) + floorf((float)(out[2 * i].m1 * 2 + 2))), 20.0f)));
  out[2 * i].m2 = (int)(expf(fminf((float)(__saturatef((float)(out[2 * i].m2 * 2 + 3)) + floorf((float)(out[2 * i].m2 * 2 + 3))), 20.0f)));
  out[2 * i].m3 = (int)(expf(fminf((float)(__saturatef((float)(out[2 * i].m3 * 2 + 4)) + floorf((float)(out[2 * i].m3 * 2 + 4))), 20.0f)));
  out[2 * i].m4 = (float)(expf(fminf((float)(__saturatef((float)(out[2 * i].m4 * 2 + 5)) + floorf((float)(out[2 * i].m4 * 2 + 5))), 20.0f)));
}
struct S_stage107_6 { float m0; float m1; };
__global__ void __launch_bounds__(128) stage107_6(S_stage107_6 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (float)(__expf(fminf((float)(in0[i] * 3.0f + 0), 10.0f)));
    out[i].m1 = (float)(__expf(fminf((float)(in1[i] * 3.0f + 1), 10.0f)));
  }
}
struct S_stage107_7 { int m0; short m1; short m2; };
__global__ void __launch_bounds__(128) stage107_7(S_stage107_7 *__restrict__ out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i].m0 = (int)(atan2f((float)((float)__float2int_rn((float)(out[i].m0 * 2 + 1)) + __fadd_rz((float)(out[i].m0 * 2 + 1), 0.25f)), 1.5f));
  out[i].m1 = (short)(atan2f((float)((float)__float2int_rn((float)(out[i].m1 * 2 + 2)) + __fadd_rz((float)(out[i].m1 * 2 + 2), 0.25f)), 1.5f));
  out[i].m2 = (short)(atan2f((float)((float)__float2int_rn((float)(out[i].m2 * 2 + 3)) + __fadd_rz((float)(out[i].m2 * 2 + 3), 0.25f)), 1.5f));
}
struct S_stage107_8 { double m0; double m1; float m2; short m3; short m4; };
#ifndef WOBBLE
#define WOBBLE
__device__ __forceinline__ float wobble(float t) {
  for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
    t = t * 0.5f + 1.0f;
  return t;
}
#endif
__global__ void __launch_bounds__(128) stage107_8(S_stage107_8 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, float *sink, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i + 1].m0 = (double)(wobble((float)(rsqrtf(1.0f + (float)(in0[i] * 3.0f + 0) * (float)(in0[i] * 3.0f + 0)))));
    out[i + 1].m1 = (double)(wobble((float)(rsqrtf(1.0f + (float)(in1[i] * 3.0f + 1) * (float)(in1[i] * 3.0f + 1)))));
    out[i + 1].m2 = (float)(wobble((float)(rsqrtf(1.0f + (float)(in2[i] * 3.0f + 2) * (float)(in2[i] * 3.0f + 2)))));
    out[i + 1].m3 = (short)(wobble((float)(rsqrtf(1.0f + (float)(in3[i] * 3.0f + 3) * (float)(in3[i] * 3.0f + 3)))));
    out[i + 1].m4 = (short)(wobble((float)(rsqrtf(1.0f + (float)(in4[i] * 3.0f + 4) * (float)(in4[i] * 3.0f + 4)))));
    sink[i] = (float)out[i + 1].m4;
  }
}
#pragma pack(push, 4)
struct S_stage107_9 { double m0; int m1; float m2; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage107_9(S_stage107_9 *out, const S_stage107_9 *x, int n, int flag) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < (size_t)n; i += (size_t)blockDim.x * gridDim.x) {
    out[i].m0 = (double)(flag + 7);
    out[i].m0 = (double)(atan2f((float)(x[i].m0 * 3 + out[i].m0), 1.5f));
    out[i].m1 = (int)(atan2f((float)(x[i].m1 * 3 + out[i].m1), 1.5f));
    out[i].m2 = (float)(atan2f((float)(x[i].m2 * 3 + out[i].m2), 1.5f));
  }
}
#pragma pack(push, 4)
struct S_stage107_10 { double m0; int m1; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage107_10(S_stage107_10 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i].m0 = (double)(flag + 7);
  if ((unsigned)i < (unsigned)n) {
    out[i].m0 = (double)(out[i].m0 * 2 + 1);
    out[i].m1 = (int)(out[i].m1 * 2 + 2);
  }
}
struct S_stage107_11 { float m0; float m1; };
__global__ void stage107_11(S_stage107_11 *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && flag) {
    out[i].m0 = (float)(out[i].m0 * 2 + 1);
    out[i].m1 = (float)(out[i].m1 * 2 + 2);
  }
}
struct S_stage107_12 { int m0; float m1; short m2; short m3; };
__global__ void __launch_bounds__(128) stage107_12(S_stage107_12 *out, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (int)(((float)(out[i].m0 * 2 + 1) + (((int)fminf(fabsf((float)(out[i].m0 * 2 + 1)), 7.0f) & 1) ? (float)out[i].m3 : 0.0f)));
    out[i].m1 = (float)(out[i].m1 * 2 + 2);
    out[i].m2 = (short)(out[i].m2 * 2 + 3);
    out[i].m3 = (short)(out[i].m3 * 2 + 4);
  }
}
struct S_stage107_13 { unsigned m0; unsigned m1; int m2; short m3; short m4; };
__global__ void __launch_bounds__(128) stage107_13(S_stage107_13 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, float *sink, int n, int flag) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < (unsigned)n; i += blockDim.x * gridDim.x) {
    out[i].m0 = (unsigned)(in0[i] * 3.0f + 0);
    out[i].m1 = (unsigned)(in1[i] * 3.0f + 1);
    out[i].m2 = (int)(in2[i] * 3.0f + 2);
    out[i].m3 = (short)(in3[i] * 3.0f + 3);
    out[i].m4 = (short)(in4[i] * 3.0f + 4);
    sink[i] = (float)out[i].m4;
  }
}
struct S_stage107_14 { float m0; float m1; int m2; short m3; short m4; };
__global__ void __launch_bounds__(128) stage107_14(S_stage107_14 *out, const float *in0, const float *in1, const float *in2, const float *in3, const float *in4, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n - i > 0) {
    out[i].m0 = (float)(atan2f((float)(fmaxf((float)(in0[i] * 3.0f + 0), -1e4f) + copysignf(1.0f, (float)(in0[i] * 3.0f + 0))), 1.5f));
    out[i].m2 = (int)(atan2f((float)(fmaxf((float)(in2[i] * 3.0f + 2), -1e4f) + copysignf(1.0f, (float)(in2[i] * 3.0f + 2))), 1.5f));
    out[i].m4 = (short)(atan2f((float)(fmaxf((float)(in4[i] * 3.0f + 4), -1e4f) + copysignf(1.0f, (float)(in4[i] * 3.0f + 4))), 1.5f));
  }
}
#pragma pack(push, 4)
struct S_stage107_15 { float m0; short m1; short m2; };
#pragma pack(pop)
__global__ void __launch_bounds__(128) stage107_15(S_stage107_15 *__restrict__ out, const float *__restrict__ in0, const float *__restrict__ in1, const float *__restrict__ in2, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[2 * i].m0 = (float)(flag + 7);
  if (i < n && flag) {
    out[2 * i].m0 = (float)(in0[i] * 3.0f + 0);
    out[2 * i].m2 = (short)(in2[i] * 3.0f + 2);
  }
}
