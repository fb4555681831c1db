// Adversarial corpus: early loads behind a CHAIN of early returns
// (pass/lib/StagingEmitter.cpp earlyLoads/emitEarlyLoads, legality's
// InnerGuards). A staged region's first block may load other memory (not
// the staged array) before it writes anything but the tile; those loads are
// cloned in front of the row copies, under every test of the chain (`if (c
// >= w) return; if (r >= h) return;`), each later test only where the ones
// before it hold (a select). The kernels below try to make such a load read
// other bytes, fault, or read an address that is only valid when the whole
// chain holds: chains of two to four returns, negated tests, nested ifs,
// `else` forms and `&&` (the form that chains at -O0, where each `return`
// is a block of its own and no chain forms), tests that are poison or out
// of range where an earlier one stops the thread (an index past the end, a
// shift by 32 or more, a pointer past the end, a wrapped unsigned
// difference), 64-bit and mixed-signedness indices, partial blocks, 2-D
// grids of one-row blocks (blocks of two rows run the original code),
// loads of other arrays that may alias the staged one, loads through
// pointers loaded from memory, __shared__, __constant__ and __device__
// loads, a store to other memory that ends the early loads, an address the
// pass cannot compute early (a division), grid-stride loops and warp tiles
// behind a chain. Launch specs: guard_chains.toml; decisions and early-load
// counts pinned in tests/test_adversarial_guard_chains.py ("chained" = the
// early loads run under the chain's tests at -O3).
#include <cstddef>

struct F3 { float x, y, z; };
struct D3 { double x, y, z; };

#define CX (threadIdx.x + blockIdx.x * blockDim.x)
#define RY (threadIdx.y + blockIdx.y * blockDim.y)

// The baseline of pass/test/Staging/early-loads-chain.ll: one return per
// coordinate (two branches at -O3), x's three loads made before anything is
// written. Chained.
__global__ void chain2(F3 *y, const F3 *x, int w, int h, float a) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float xx = x[i].x, xy = x[i].y, xz = x[i].z;
  y[i].x = a * xx + y[i].x;
  y[i].y = a * xy + y[i].y;
  y[i].z = a * xz + y[i].z;
}

// The same body launched with blocks of two rows: the index reads
// threadIdx.y, so every block runs the original code (the fallback), also
// the early loads' clones must not run.
__global__ void chain2_rows(F3 *y, const F3 *x, int w, int h, float a) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float xx = x[i].x, xy = x[i].y, xz = x[i].z;
  y[i].x = a * xx + y[i].x;
  y[i].y = a * xy + y[i].y;
  y[i].z = a * xz + y[i].z;
}

// The row test first, the column test second: the poison-prone one (the
// column past w) last.
__global__ void chain2_swapped(F3 *y, const F3 *x, int w, int h) {
  if (RY >= h) return;
  if (CX >= w) return;
  int i = RY * w + CX;
  y[i].x = x[i].z - y[i].x;
  y[i].y = x[i].y - y[i].y;
  y[i].z = x[i].x - y[i].z;
}

// Three returns (x, y, z of the grid); the z test stops whole blocks.
__global__ void chain3_z(F3 *y, const F3 *x, int w, int h, int d) {
  if (CX >= w) return;
  if (RY >= h) return;
  if (blockIdx.z >= d) return;
  int i = (blockIdx.z * h + RY) * w + CX;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y + y[i].y;
  y[i].z = x[i].z + y[i].z;
}

// Four returns: the last one a bound on the flat index, which is past the
// end of both arrays where the first two stop the thread (x and y have lim
// elements, fewer than w*h).
__global__ void chain4(F3 *y, const F3 *x, int w, int h, int d, int lim) {
  if (CX >= w) return;
  if (RY >= h) return;
  if (blockIdx.z >= d) return;
  int i = RY * w + CX;
  if (i >= lim) return;
  y[i].x = x[i].x * y[i].x;
  y[i].y = x[i].y * y[i].y;
  y[i].z = x[i].z * y[i].z;
}

// Nested ifs instead of returns: the same CFG.
__global__ void nested_ifs(F3 *y, const F3 *x, int w, int h) {
  if (CX < w) {
    if (RY < h) {
      int i = RY * w + CX;
      y[i].x = x[i].y + y[i].x;
      y[i].y = x[i].z + y[i].y;
      y[i].z = x[i].x + y[i].z;
    }
  }
}

// Negated tests: the active edges of the branches on false and true.
__global__ void negated(F3 *y, const F3 *x, int w, int h) {
  if (!(CX < w)) return;
  if (!(RY < h)) return;
  int i = RY * w + CX;
  y[i].x = x[i].y * y[i].x;
  y[i].y = x[i].z * y[i].y;
  y[i].z = x[i].x * y[i].z;
}

// A return, then an if around the body: the two branches go on on
// different edges.
__global__ void mixed_polarity(F3 *y, const F3 *x, int w, int h) {
  if (CX >= w) return;
  if (RY < h) {
    int i = RY * w + CX;
    y[i].x = x[i].x + 2.f * y[i].x;
    y[i].y = x[i].y + 2.f * y[i].y;
    y[i].z = x[i].z + 2.f * y[i].z;
  }
}

// `else` after a return.
__global__ void else_chain(F3 *y, const F3 *x, int w, int h) {
  if (CX >= w)
    return;
  else if (RY >= h)
    return;
  else {
    int i = RY * w + CX;
    y[i].x = x[i].x - 2.f * y[i].x;
    y[i].y = x[i].y - 2.f * y[i].y;
    y[i].z = x[i].z - 2.f * y[i].z;
  }
}

// `&&` of the two coordinates: two branches at -O0 (the second an inner
// guard: the form that chains there), one select at -O3.
__global__ void and_chain(F3 *y, const F3 *x, int w, int h) {
  if (CX < w && RY < h) {
    int i = RY * w + CX;
    y[i].x = x[i].x + y[i].z;
    y[i].y = x[i].y + y[i].y;
    y[i].z = x[i].z + y[i].x;
  }
}

// `&&` of three, the last the flat index bound (past the end where the
// first two fail).
__global__ void and3_chain(F3 *y, const F3 *x, int w, int h, int lim) {
  if (CX < w && RY < h && RY * w + CX < lim) {
    int i = RY * w + CX;
    y[i].x = x[i].x * 0.5f + y[i].x;
    y[i].y = x[i].y * 0.5f + y[i].y;
    y[i].z = x[i].z * 0.5f + y[i].z;
  }
}

// A later test that shifts by an amount that is 32 or more where the
// earlier one stops the thread (poison in LLVM; s is a row of the grid
// plus a parameter, so some blocks take each side).
__global__ void shift_chain(F3 *y, const F3 *x, int w, unsigned sh, unsigned mask) {
  if (CX >= w) return;
  unsigned s = RY + sh;
  if (s >= 32) return;
  if ((mask >> s) & 1) return;
  int i = RY * w + CX;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y + y[i].y;
  y[i].z = x[i].z + y[i].z;
}

// 64-bit indices and bounds (size_t).
__global__ void size_t_chain(F3 *y, const F3 *x, size_t w, size_t h) {
  size_t c = threadIdx.x + (size_t)blockIdx.x * blockDim.x;
  if (c >= w) return;
  size_t r = threadIdx.y + (size_t)blockIdx.y * blockDim.y;
  if (r >= h) return;
  size_t i = r * w + c;
  y[i].x = x[i].x - y[i].x;
  y[i].y = x[i].y - y[i].y;
  y[i].z = x[i].z - y[i].z;
}

// Signed column test, then an unsigned range test of the row (r - lo wraps
// to a huge value for the rows before lo).
__global__ void signed_unsigned(F3 *y, const F3 *x, int w, int lo, int hi) {
  int c = CX;
  if (c >= w) return;
  unsigned r = RY;
  if (r - (unsigned)lo >= (unsigned)(hi - lo)) return;
  int i = (int)r * w + c;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y * y[i].y;
  y[i].z = x[i].z - y[i].z;
}

// A pointer comparison as the later test: the element's address against
// the end of x, a pointer past the end where the column test stops the
// thread.
__global__ void pointer_chain(F3 *y, const F3 *x, int w, int lim) {
  if (CX >= w) return;
  const F3 *e = x + (RY * w + CX);
  if (e >= x + lim) return;
  int i = RY * w + CX;
  y[i].x = e->x + y[i].x;
  y[i].y = e->y + y[i].y;
  y[i].z = e->z + y[i].z;
}

// x is exactly w*h elements: its early loads are in bounds only where the
// whole chain holds (partial blocks, rows past h).
__global__ void tight_other(F3 *y, const float *x, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float v = x[i];
  y[i].x = v + y[i].x;
  y[i].y = v * y[i].y;
  y[i].z = v - y[i].z;
}

// No __restrict__: the oracle runs x == y and overlapping layouts. The
// region writes the tile, then reads x (its loads go early, across the tile
// store): where x is y the run-time overlap checks must keep the original.
__global__ void alias_store_first(F3 *y, const F3 *x, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  y[i].x = y[i].x + 1.f;
  y[i].y = y[i].y + x[i].x;
  y[i].z = y[i].z + x[i].z;
}

// The other array is a view of the staged one's next row (x = y + w):
// read-only there, written by the row below in the original too, so the
// grid has one row of blocks per row of y and only the first h rows are
// written (rows h.. are read).
__global__ void view_next_row(F3 *y, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  const F3 *x = y + (size_t)h * w;
  int i = RY * w + CX;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y + y[i].y;
  y[i].z = x[i].z + y[i].z;
}

__device__ float d_data[1024];
__device__ float *d_rows[2] = {d_data, d_data + 512};

// A pointer loaded from memory (a __device__ table of pointers): the
// table's load would go early, the load through it (its address an early
// load's value) not. Not staged at -O3 (an address computed from memory in
// the region); at -O0 warp tiles after the returns, nothing early.
__global__ void pointer_from_memory(F3 *y, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  const float *p = d_rows[blockIdx.y & 1];
  int i = RY * w + CX;
  float v = p[CX];
  y[i].x = v + y[i].x;
  y[i].y = v + y[i].y;
  y[i].z = v + y[i].z;
}

// A user __shared__ array written before the chain (every thread) and read
// behind it: shared loads do not go early; x's does.
__global__ void shared_behind(F3 *y, const float *x, int w, int h) {
  __shared__ float s[128];
  s[threadIdx.x] = (float)threadIdx.x;
  __syncthreads();
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float a = s[127 - threadIdx.x];
  float b = x[i];
  y[i].x = a + y[i].x;
  y[i].y = b + y[i].y;
  y[i].z = a * b + y[i].z;
}

__constant__ float k_scale[4] = {1.f, 2.f, 3.f, 4.f};
__device__ float d_bias[4] = {0.5f, 0.25f, 0.125f, 0.0625f};

// __constant__ and __device__ globals read behind the chain.
__global__ void globals_behind(F3 *y, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float k = k_scale[blockIdx.y & 3], b = d_bias[threadIdx.x & 3];
  y[i].x = k * y[i].x + b;
  y[i].y = k * y[i].y + b;
  y[i].z = k * y[i].z + b;
}

// A store to other memory after the first load: the load before it goes
// early, the one after it stays (it may read what the store wrote: o may
// be x).
__global__ void store_stops(F3 *y, const float *x, float *o, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float a = x[i];
  o[i] = a * 2.f;
  float b = x[i];
  y[i].x = a + y[i].x;
  y[i].y = b + y[i].y;
  y[i].z = a * b + y[i].z;
}

// An address with a division by a parameter the first test says is not
// zero: the division cannot be computed before the chain (it may trap).
// Not staged at -O3 (the address is computed from memory in the region: d's
// test); at -O0 warp tiles, nothing early.
__global__ void division_address(F3 *y, const float *x, const float *t, int d, int w, int h) {
  if (d == 0) return;
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float a = x[i];
  float b = t[CX / d];
  y[i].x = a + y[i].x;
  y[i].y = b + y[i].y;
  y[i].z = a * b + y[i].z;
}

// The chain's blocks compute values the region uses (a scale from the
// row), which the early addresses need too (cloned in front of the row
// copies).
__global__ void chain_values(F3 *y, const F3 *x, int w, int h) {
  int c = CX;
  if (c >= w) return;
  int r = RY;
  if (r >= h) return;
  int j = (r + 1) * w - 1 - c; // x's element mirrored in the row
  int i = r * w + c;
  y[i].x = x[j].x + y[i].x;
  y[i].y = x[j].y + y[i].y;
  y[i].z = x[j].z + y[i].z;
}

// A loop in the region after the first block. Not staged at -O3 (the
// loop's addresses are computed from memory in the region); at -O0 warp
// tiles, nothing early.
__global__ void loop_after(F3 *y, const float *x, int w, int h, int k) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  float a = x[i];
  float s = 0.f;
  for (int j = 0; j < k; ++j)
    s += x[(i + j) % (w * h)];
  y[i].x = a + y[i].x;
  y[i].y = s + y[i].y;
  y[i].z = a * s + y[i].z;
}

// A grid-stride loop behind a return on the grid's row.
__global__ void grid_stride_chain(F3 *y, const F3 *x, int n, int h) {
  if (blockIdx.y >= h) return;
  for (int i = CX; i < n; i += blockDim.x * gridDim.x) {
    int j = blockIdx.y * n + i;
    y[j].x = x[j].x + y[j].x;
    y[j].y = x[j].y + y[j].y;
    y[j].z = x[j].z + y[j].z;
  }
}

// 24-byte elements behind the chain: warp tiles (each full warp on its own).
__global__ void warp_chain(D3 *y, const D3 *x, int w, int h) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y + y[i].y;
  y[i].z = x[i].z + y[i].z;
}

// Warp tiles with a flat-index bound last, in blocks of 96 (three warps)
// and widths that split warps.
__global__ void warp_chain_lim(D3 *y, const D3 *x, int w, int h, int lim) {
  if (CX >= w) return;
  if (RY >= h) return;
  int i = RY * w + CX;
  if (i >= lim) return;
  y[i].x = x[i].z * y[i].x;
  y[i].y = x[i].y * y[i].y;
  y[i].z = x[i].x * y[i].z;
}
