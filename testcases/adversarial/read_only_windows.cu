// Adversarial corpus: read-only chunk windows (loops that only read their
// chunks: pass/lib/ChunkWindow.cpp readOnlyRule, ChunkWindowEmitter.cpp
// version()). Compile-time rows are windowed when a multiple of 128 bytes
// apart; run-time rows only with -coalda-window-read-only=runtime, where each
// block tests "Fits" (1-D, <= capacity threads, rows >= 80 bytes and a
// multiple of 128) before the vote. The kernels attack Fits' uniformity, the
// launch shape, guards, element types, loop shapes and the emulator's NaN
// canonicalization. Each comment says the expected decision; pinned in
// tests/test_adversarial_read_only.py. Launch specs: read_only_windows.toml.

#define P (blockIdx.x * blockDim.x + threadIdx.x)

// ------------------------------------------------ Fits must be block-uniform

// Row length per warp from data: 32 or 64 ints (both 128-multiples, so Fits
// holds in every warp but the stride differs). Expect refused (the stride is
// not block-uniform).
__global__ void warp_len_table(int *out, const int *in, const int *sel, int n) {
  int p = P;
  if (p >= n) return;
  int len = 32 + 32 * (sel[threadIdx.x >> 5] & 1);
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k + 1);
  out[p] = s;
}

// Per-warp 24 or 32 ints (96 / 128 bytes): Fits would differ between warps of
// one block (a barrier some threads skip). Expect refused.
__global__ void warp_len_split(int *out, const int *in, const int *sel, int n) {
  int p = P;
  if (p >= n) return;
  int len = 24 + 8 * (sel[threadIdx.x >> 5] & 1);
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] ^ k;
  out[p] = s;
}

// Row length chosen by a thread-dependent condition between two arguments
// (32 and 24 ints). Expect refused.
__global__ void thread_select_len(int *out, const int *in, int n, int a, int b) {
  int p = P;
  if (p >= n) return;
  int len = (threadIdx.x & 64) ? a : b;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k + 1);
  out[p] = s;
}

// Row length read at a per-thread address (values all 32 at run time). Expect
// refused: the pass cannot know the loads agree.
__global__ void thread_loaded_len(int *out, const int *in, const int *lens, int n) {
  int p = P;
  if (p >= n) return;
  int len = lens[p & 7];
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] - k;
  out[p] = s;
}

// Row length from an atomic's per-thread result (an atomicAdd of 0 on the
// thread's own random word: 32 or 64 ints). Expect refused.
__global__ void atomic_len(int *out, const int *in, int *ctr, int n) {
  int p = P;
  if (p >= n) return;
  int len = 32 << (atomicAdd(&ctr[p], 0) & 1);
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k];
  out[p] = s;
}

// Row length per block (32 ints in even blocks, 24 in odd ones): uniform in a
// block; odd blocks fail Fits and run the original. Expect windowed (runtime).
__global__ void block_len(int *out, const int *in, int n, int len) {
  int l = len - 8 * (blockIdx.x & 1);
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < l; k++) s += in[(size_t)p * l + k] * 3;
  out[p] = s;
}

// Row length from a per-block table entry (32 ints). Expect windowed (runtime).
__global__ void block_table_len(int *out, const int *in, const int *lens, int n) {
  int len = lens[blockIdx.x];
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] + k;
  out[p] = s;
}

// Row length scaled by threadIdx.y (launched 1-D: y = 0, 32 ints). Expect
// windowed (runtime) or refused; must match either way.
__global__ void tid_y_len(int *out, const int *in, int n, int len) {
  int l = len * (threadIdx.y + 1);
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < l; k++) s += in[(size_t)p * l + k] ^ (k * 7);
  out[p] = s;
}

// ------------------------------------------------------------ launch shapes

// 1024 threads, 128-byte rows: Fits fails (tile for 512). Expect windowed
// (runtime), runs the original.
__global__ void len_block_1024(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k & 5);
  out[p] = s;
}

// __launch_bounds__(64), launched at 64, 256-byte rows. Expect windowed
// (runtime), a 64-thread tile.
__global__ void __launch_bounds__(64) bounded64_len(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k + 2);
  out[p] = s;
}

// __launch_bounds__(1024), launched at 1024 threads, compile-time 256-byte
// rows. Expect windowed (tile for 512), runs the original.
__global__ void __launch_bounds__(1024) bounded1024_const(int *out, const int *in, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 64; k++) s += in[(size_t)p * 64 + k] * (k ^ 3);
  out[p] = s;
}

// __launch_bounds__(128) at 128, compile-time 512-byte rows. Expect windowed.
__global__ void __launch_bounds__(128) bounded128_const(int *out, const int *in, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 128; k++) s += in[(size_t)p * 128 + k] - (k << 1);
  out[p] = s;
}

// A 2-D block (32 x 4) with compile-time 128-int rows: Fits fails. Expect
// windowed (the shape is tested at run time), runs the original.
__global__ void block_2d_const(int *out, const int *in, int n) {
  int p = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 128; k++) s += in[(size_t)p * 128 + k] * k;
  out[p] = s;
}

// ------------------------------------------------------------------ guards

// `if (p < n) {...}` around the loop, run-time 64-int rows, partial last
// block. Expect windowed (runtime).
__global__ void guard_if_len(int *out, const int *in, int n, int len) {
  int p = P;
  if (p < n) {
    int s = 0;
    for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k | 1);
    out[p] = s;
  }
}

// A guard on data (threads of a block may split). Expect refused.
__global__ void guard_data_const(int *out, const int *in, const int *flag, int n) {
  int p = P;
  if (p >= n || (flag[p] & 1)) return;
  int s = 0;
  for (int k = 0; k < 64; k++) s += in[(size_t)p * 64 + k];
  out[p] = s;
}

// ------------------------------------------------ compile-time row lengths

// 31 ints (124 bytes): not a multiple of 128. Expect refused.
__global__ void const_124(int *out, const int *in, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 31; k++) s += in[(size_t)p * 31 + k] * (k + 1);
  out[p] = s;
}

// 33 ints (132 bytes). Expect refused.
__global__ void const_132(int *out, const int *in, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 33; k++) s += in[(size_t)p * 33 + k] * (k + 1);
  out[p] = s;
}

// 64 shorts (128 bytes), 2-byte loads (below the 4-byte minimum). Expect refused.
__global__ void short_128(int *out, const short *in, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 64; k++) s += in[(size_t)p * 64 + k] * (k + 1);
  out[p] = s;
}

// 32 doubles (256 bytes), a double sum and product (NaN canonicalization).
// Expect windowed.
__global__ void double_256(double *out, const double *in, int n) {
  int p = P;
  if (p >= n) return;
  double s = 0.0, q = 1.0;
  for (int k = 0; k < 32; k++) {
    double v = in[(size_t)p * 32 + k];
    s += v;
    q *= v * 0.5;
  }
  out[2 * p] = s;
  out[2 * p + 1] = q;
}

// 16 float4 (256 bytes), 16-byte loads summed per lane. Expect windowed at -O3
// (-O0's float4 copy is a memcpy).
__global__ void float4_256(float4 *out, const float4 *in, int n) {
  int p = P;
  if (p >= n) return;
  float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
  for (int k = 0; k < 16; k++) {
    float4 v = in[(size_t)p * 16 + k];
    s.x += v.x; s.y += v.y; s.z -= v.z; s.w *= v.w;
  }
  out[p] = s;
}

// Two arrays in one loop, 32 and 64 ints per row (both 128-multiples).
// Expect windowed.
__global__ void two_const_strides(int *out, const int *a, const int *b, int n) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 32; k++) s += a[(size_t)p * 32 + k] * b[(size_t)p * 64 + 2 * k];
  out[p] = s;
}

// Two arrays, one of a run-time length (24 ints, 96 bytes: Fits fails for the
// whole block) and one of 32 ints. Expect windowed only with the switch.
__global__ void two_mixed_strides(int *out, const int *a, const int *b, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < 24; k++) s += a[(size_t)p * 32 + k] + b[(size_t)p * len + k] * 5;
  out[p] = s;
}

// ------------------------------------------------------------- loop shapes

// A store loop before a reduction loop over the same chunk, 24-int rows (the
// store loop makes the 80-byte rule apply to both). Expect windowed at
// run time in every mode.
__global__ void store_then_reduce(int *out, int *sum, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  for (int k = 0; k < len; k++) out[(size_t)k * n + p] = in[(size_t)p * len + k] + 1;
  int s = 0;
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * k;
  sum[p] = s;
}

// `#pragma unroll 4`, run-time 32-int rows. Expect windowed (runtime).
__global__ void unroll4_len(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0;
#pragma unroll 4
  for (int k = 0; k < len; k++) s += in[(size_t)p * len + k] * (k + 1);
  out[p] = s;
}

// `#pragma unroll 1`, compile-time 32 floats from 1 stepping by 2, a float
// product (NaN). Expect windowed.
__global__ void step2_from1_const(float *out, const float *in, int n) {
  int p = P;
  if (p >= n) return;
  float s = 1.f;
#pragma unroll 1
  for (int k = 1; k < 32; k += 2) s *= in[(size_t)p * 32 + k];
  out[p] = s;
}

// A do-while over a run-time 32-int row. Expect windowed (runtime).
__global__ void do_while_len(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int s = 0, k = 0;
  do { s = s * 3 + in[(size_t)p * len + k]; k++; } while (k < len);
  out[p] = s;
}

// The load in the loop header (runs once more than the body: in has one more
// element), read-only, run-time 32-int rows. Expect windowed (runtime).
__global__ void header_load_ro(int *out, const int *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  int v, k, s = 0;
  for (k = 0; (v = in[(size_t)p * len + k], k < len); k++) s += v * k;
  out[p] = s + v;
}

// ------------------------------------------------------------- float math

// __builtin_ fmaf, sqrtf, fminf/fmaxf, division (llvm.* intrinsics, not libdevice) over 64 floats (256 bytes). Expect
// windowed; the emulator canonicalizes NaNs of every op.
__global__ void float_math_const(float *out, const float *in, int n) {
  int p = P;
  if (p >= n) return;
  float s = 0.f, m = 3.0e38f, x = -3.0e38f, r = 0.f;
  for (int k = 0; k < 64; k++) {
    float v = in[(size_t)p * 64 + k];
    s = __builtin_fmaf(v, 0.5f, s);
    m = __builtin_fminf(m, v);
    x = __builtin_fmaxf(x, -v);
    r += __builtin_sqrtf(__builtin_fabsf(v)) / (1.f + __builtin_fabsf(v));
  }
  out[4 * p] = s;
  out[4 * p + 1] = m;
  out[4 * p + 2] = x;
  out[4 * p + 3] = r;
}

// Double __builtin_ fma / sqrt / fmin over a run-time 16-double row (128 bytes). Expect
// windowed (runtime).
__global__ void double_math_len(double *out, const double *in, int n, int len) {
  int p = P;
  if (p >= n) return;
  double s = 0.0, r = 0.0;
  for (int k = 0; k < len; k++) {
    double v = in[(size_t)p * len + k];
    s = __builtin_fma(v, v, s);
    r = __builtin_fmin(r - __builtin_sqrt(__builtin_fabs(v)), 7.0) * 0.25;
  }
  out[2 * p] = s;
  out[2 * p + 1] = -r;
}
