// Per-thread chunk loops that only read their chunks (reductions): issue
// 12's cost rule for read-only chunk windows. A window pays only when the
// rows are a multiple of 128 bytes apart (docs/benchmarks.md, "Chunk
// windows"); the pass decides that itself when the row length is a
// compile-time constant, and leaves run-time lengths alone by default.

// 64 ints (256 bytes) per row: windowed.
__global__ void row_sums64(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int s = 0;
  for (int k = 0; k < 64; k++)
    s += in[(size_t)i * 64 + k] * (k + 1);
  out[i] = s;
}

// 64 floats (256 bytes) per row, a float sum: windowed. Random input bytes
// make NaNs; the emulator gives float arithmetic's NaN results the GPU's
// canonical NaN (before it did, this kernel's sum of two NaNs kept whichever
// payload the host JIT put first, and the window "differed").
__global__ void row_fsum64(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.f;
  for (int k = 0; k < 64; k++)
    s += in[(size_t)i * 64 + k];
  out[i] = s;
}

// 32 ints (128 bytes) per row, a weighted maximum: windowed at -O0. -O3
// unrolls the 32 iterations whole: no loop is left, and the 32 loads are
// members of one 128-byte read-only element, which element staging leaves
// alone (its read-only rule, measured for 12- to 32-byte elements).
__global__ void row_max32(int *out, const int *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int m = -2147483647;
    for (int k = 0; k < 32; k++) {
      int v = in[(size_t)i * 32 + k] >> (k & 3);
      m = v > m ? v : m;
    }
    out[i] = m;
  }
}

// 100 floats (400 bytes) per row: not a multiple of 128, left alone.
__global__ void row_sums100(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float s = 0.f;
  for (int k = 0; k < 100; k++)
    s = s * 0.5f + in[(size_t)i * 100 + k];
  out[i] = s;
}

// A run-time row length (launched at 64 ints): left alone by default; with
// --pass-arg=-coalda-window-read-only=runtime each block tests its rows.
__global__ void row_sums_len(int *out, const int *in, int n, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int s = 0;
  for (int k = 0; k < len; k++)
    s += in[(size_t)i * len + k] ^ k;
  out[i] = s;
}
