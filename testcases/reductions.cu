// Per-thread chunk loops and records that are only read (reductions): issue
// 12's cost rules for read-only chunk windows and read-only elements. A window pays only when the
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
// 4-byte members of one 128-byte read-only element, staged whole (a block
// that only reads stages elements a multiple of 64 bytes apart read in
// 4-byte loads: L1 does not serve them).
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

// The same in a grid-stride loop: the element staged on each full
// iteration. The pointers cannot overlap, so no barrier comes before the
// loads: one after the reads keeps the next fill from overwriting the tile
// while other threads still read it.
__global__ void row_max32_grid_stride(int *__restrict__ out, const int *__restrict__ in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
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

// A 64-byte record of float4s read whole: its 16-byte alignment lets the
// backend read it in four 16-byte loads, which L1 serves well (3.9 TB/s;
// staged it measured 0.58-0.76x), so it is left alone. (-O0 copies the
// record with a memcpy, which no rewrite reads.)
struct Particle {
  float4 pos, vel, force, extra;
};
__global__ void particle_energy(float *out, const Particle *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Particle q = p[i];
  float4 a = q.pos, b = q.vel, c = q.force, d = q.extra;
  out[i] = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w +
           (c.x + c.y + c.z + c.w) * (d.x - d.y + d.z - d.w);
}

// A 192-byte record: its tile for 256 threads (48 KB) would take the L1 of
// the blocks that run the original code (0.61x measured at 512 threads), so
// a block that only reads gets at most 32 KB: left alone.
struct Wide {
  int v[48];
};
__global__ void wide_sums(int *out, const Wide *w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  int s = 0;
#pragma unroll
  for (int k = 0; k < 48; k++)
    s += w[i].v[k] ^ k;
  out[i] = s;
}
