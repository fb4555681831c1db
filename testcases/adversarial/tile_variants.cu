// Adversarial corpus: grid variants of the tile form (issue 40,
// -coalda-reshape-launches; pass/lib/GridVariantTile.cpp). A rewritten
// kernel K whose whole effect is ONE transposed store per thread,
//
//   out[x*N + y] = f(in[y*M + x]),  x = blockIdx.x*blockDim.x + threadIdx.x,
//                                   y = blockIdx.y*blockDim.y + threadIdx.y
//
// (the store the default rewrite stages as a transposed staging; nothing
// else written but the thread's private variables, no global load after the
// store, no barrier, warp operation, atomic, volatile access, call, shared
// memory or loop) gets K__coalda_grid(args..., unsigned Gx, unsigned Gy),
// marked by a global K__coalda_tile. It is launched on the grid
// (ceil(Gx / (32/blockDim.x)), ceil(Gy / (32/blockDim.y)), gridDim.z) with
// the same block; each block runs the 32x32 tile's original ("virtual")
// blocks in turn, blockIdx.x/y read as the virtual block's and gridDim.x/y
// as Gx/Gy, each virtual thread's store kept in a shared tile of values
// and one of addresses (0: stored nothing), and after __syncthreads() the
// tile is written back 32 threads down a column. The run time launches it
// only for the blocks coalda/check/variants.py's tile_grid accepts (since
// 64d02cf: 256 threads, x and y powers of two, z = 1: 32x8, 16x16 and 8x32,
// four virtual blocks unrolled; 51ff14a looped over them for every such
// block of at most 512 threads), else the original kernel.
//
// The claim: at any grid, the variant launched as the run time launches it
// computes the bytes K's original computes, guard zones included, in every
// layout and schedule. The kernels below attack it: the element (float,
// double, char, short, 8- and 16-byte vectors of ints, floats and doubles,
// long long with size_t indices, a constant), a value computed between
// load and store, guards (`<`, `<=`, unsigned, early returns, one bound,
// none, a thread-dependent hole pattern), sizes that leave partial tiles at
// both edges, a 3-D grid (blockIdx.z in the address), gridDim.x/y read in
// the index and the value (the variant must read Gx/Gy), blockIdx.x/y in
// the value, __restrict__ and not, threadIdx.z in the address, one buffer
// read in one half and written in the other, two threads storing to one
// address (the same value: benign; different values: a racy original),
// blocks that do not fit the tiles (the original runs); and kernels that
// must NOT get a tile variant: a second store, an atomic, a global load
// after the store, a loop, a __syncthreads, shared memory, a warp shuffle,
// a volatile load, a 12-byte struct store, a __noinline__ call, and a row
// (coalesced) store.
//
// Each kernel says what it attacks and what the pass does with it at -O3
// and -O0 ("Tile": "form": "tile transpose"; "Kept: <reason>": a launch
// decision with "reshaped": false; "Not rewritten": no launch decision), as
// pinned in tests/test_tile_variants.py, which runs every tile variant
// against its original (coalda/check/variants.py, TileLaunch). Unless said,
// `in` holds N rows of M, `out` M rows of N, M = n and N = n // 2 + 3, and
// the grid covers the matrix (tile_variants.toml: n = 70 and 100).
#include <cstddef>
#include <cstdint>

#define TX (blockIdx.x * blockDim.x + threadIdx.x)
#define TY (blockIdx.y * blockDim.y + threadIdx.y)

// Clang's vector types: one <2 x i32>, <4 x float>, <2 x double> store
// (CUDA's int2/float4/double2 are structs that SROA splits into 2 or 4
// scalar stores, which no tile form takes).
typedef int vint2 __attribute__((ext_vector_type(2)));
typedef float vfloat4 __attribute__((ext_vector_type(4)));
typedef double vdouble2 __attribute__((ext_vector_type(2)));

//===----------------------------------------------------------------------===//
// Elements
//===----------------------------------------------------------------------===//

// The naive float transpose, a plain copy of the element (32x8 blocks: 4
// virtual blocks in a column of the tile). Tile at both levels.
__global__ void naive_float(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
}

// 8-byte doubles, a value computed from a scalar parameter (16x16: 2x2
// virtual blocks). Tile at both levels.
__global__ void scale_double(double *out, const double *in, double a, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = a * in[(size_t)y * M + x] + 1.0;
}

// 1-byte elements: a tile of i8 values beside the i64 addresses (8x32: 4
// virtual blocks in a row of the tile). Tile at both levels.
__global__ void elem_char(char *out, const char *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = (char)(in[(size_t)y * M + x] * 3 + 1);
}

// 2-byte elements, on 32x32 blocks, which do not fit the tiles: the
// original runs there (the test also runs it at 32x8, 16x16, 8x32). Tile
// at both levels.
__global__ void elem_short(short *out, const short *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = (short)(in[(size_t)y * M + x] ^ 0x5a5a);
}

// One 8-byte vector store (<2 x i32>), lanes swapped and bumped. Tile at
// both levels.
__global__ void vec_int2(vint2 *out, const vint2 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x].yx + 1;
}

// One 16-byte vector store (<4 x float>), lanes reversed (bits moved, no
// float arithmetic on random bytes). Tile at both levels.
__global__ void vec_float4(vfloat4 *out, const vfloat4 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x].wzyx;
}

// One 16-byte vector store (<2 x double>): the largest slot, a 16.5 KB tile
// of values (8x32 blocks). Tile at both levels.
__global__ void vec_double2(vdouble2 *out, const vdouble2 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x].yx;
}

// 8-byte integers with size_t bounds and indices (32x4 blocks: the
// original runs; the test also runs it at the tiles' blocks). Tile at both
// levels.
__global__ void index_64(long long *out, const long long *in, size_t M, size_t N) {
  size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[x * N + y] = in[y * M + x] - 1;
}

// A constant stored: no load at all before the store (8x32). Tile at both
// levels.
__global__ void const_value(int *out, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = 0x1234567;
}

// A value computed between load and store from a second, read-only array
// and a branch on data (a select at -O3); 16x8 blocks (the original runs;
// the test also runs it at the tiles' blocks). Tile at both levels.
__global__ void computed_int(int *out, const int *in, const int *bias, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    int v = in[(size_t)y * M + x];
    int b = bias[x % 7];
    out[(size_t)x * N + y] = v > b ? v * 3 - b : (v ^ b) + y;
  }
}

//===----------------------------------------------------------------------===//
// Guards
//===----------------------------------------------------------------------===//

// `<=` bounds (M - 1, N - 1). Tile at both levels.
__global__ void guard_inclusive(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x <= M - 1 && y <= N - 1)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 7;
}

// Unsigned indices and bounds, 32-bit index arithmetic. Tile at both
// levels.
__global__ void guard_unsigned(unsigned *out, const unsigned *in, unsigned M, unsigned N) {
  unsigned x = TX, y = TY;
  if (x < M && y < N)
    out[x * N + y] = in[y * M + x] * 5u;
}

// Two early returns (the variant's returns go to the next virtual block);
// 8x4 blocks (the original runs; the test also runs it at the tiles'
// blocks). Tile at both levels.
__global__ void guard_early_return(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x >= M)
    return;
  if (y >= N)
    return;
  out[(size_t)x * N + y] = in[(size_t)y * M + x] - 3;
}

// Only the x bound: the grid covers N (a multiple of 32) exactly; 64x4
// blocks, which do not fit the tiles (the original runs; the test also runs
// it at the tiles' blocks). Tile at both levels.
__global__ void guard_x_only(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2;
}

// No bound: the grid covers the matrix exactly, but not the tile grid (5x3
// blocks of 16x16 at n = 70: the tiles' last column and row of virtual
// blocks lie outside it, `tile.inside`). Tile at both levels.
__global__ void guard_none(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  out[(size_t)x * N + y] = in[(size_t)y * M + x] + 11;
}

// A thread-dependent hole pattern: a third of the threads store nothing,
// their address slots must stay 0 while their neighbours' are written.
// Tile at both levels.
__global__ void guard_parity(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N && (x + 2 * y) % 3 != 0)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 13;
}

//===----------------------------------------------------------------------===//
// The grid and the block's registers
//===----------------------------------------------------------------------===//

// A grid of two layers, blockIdx.z in both addresses and the value (the
// variant's grid keeps gridDim.z). Tile at both levels.
__global__ void grid_z(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  size_t z = blockIdx.z;
  if (x < M && y < N)
    out[z * M * N + (size_t)x * N + y] = in[z * M * N + (size_t)y * M + x] + (int)z;
}

// gridDim.x and gridDim.y read for the matrix's sizes and in the value: the
// variant's own grid is smaller, it must read Gx and Gy. No bound: the grid
// is the matrix. Tile at both levels.
__global__ void reads_grid_dims(int *out, const int *in) {
  int x = TX, y = TY;
  int M = gridDim.x * blockDim.x, N = gridDim.y * blockDim.y;
  out[(size_t)x * N + y] = in[(size_t)y * M + x] ^ (int)(gridDim.x * 131 + gridDim.y);
}

// blockIdx.x and blockIdx.y (and threadIdx.x) in the value: the virtual
// block's, not the variant's. Tile at both levels.
__global__ void block_in_value(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + (int)(blockIdx.x * 1000 + blockIdx.y * 7 + threadIdx.x);
}

// threadIdx.z in both addresses, on 16x8x2 blocks (z of 2: the original
// runs; the test also runs it on 16x16x1 blocks, where threadIdx.z = 0).
// Tile at both levels.
__global__ void tid_z(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  size_t z = threadIdx.z;
  if (x < M && y < N)
    out[z * M * N + (size_t)x * N + y] = in[z * M * N + (size_t)y * M + x] + 1;
}

//===----------------------------------------------------------------------===//
// Pointers: aliasing, one buffer, one address for two threads
//===----------------------------------------------------------------------===//

// __restrict__: the original's noalias goes from the variant, which keeps
// addresses as integers (and no overlap or alias layout runs). Tile at both
// levels.
__global__ void restricted(int *__restrict__ out, const int *__restrict__ in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 9;
}

// One buffer, read in its first half and written in its second: the loads
// of all four virtual blocks before any store are still the original's
// values. Tile at both levels.
__global__ void inplace_halves(int *buf, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    buf[(size_t)M * N + (size_t)x * N + y] = buf[(size_t)y * M + x] + 1;
}

// Stride S = 0 at run time: every thread of a row y stores to out[y], all
// the same value (in[y] * 3), so the original is not racy; the variant's
// tile holds the address many times and writes it in another order. Tile
// at both levels. With in == out it is racy (each thread reads and writes
// out[y]), in a way the emulator's schedules cannot tell (every order of
// whole threads multiplies by 3 as often): the spec leaves the overlap and
// alias layouts out (`overlap = false`), the test pins that blind spot.
__global__ void stride_zero_same(int *out, const int *in, int S, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * S + y] = in[y] * 3;
}

// Stride S = 0 with values that differ by x: a write-write race in the
// original (its result depends on the schedule); not in the must-match
// set, its verdicts are MATCH or RACY_ORIGINAL. Tile at both levels.
__global__ void stride_zero_racy(int *out, const int *in, int S, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * S + y] = in[(size_t)y * M + x] * 3;
}

//===----------------------------------------------------------------------===//
// Must not get a tile variant
//===----------------------------------------------------------------------===//

// A second store, coalesced, to another array: the store is staged, but the
// whole effect is not one store. Kept: not profitable (the block loop's
// cost rule, since no tile form is offered), at both levels.
__global__ void no_second_store(int *out, int *out2, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    int v = in[(size_t)y * M + x] + 1;
    out[(size_t)x * N + y] = v;
    out2[(size_t)y * M + x] = v;
  }
}

// An atomic beside the store. Not rewritten (the staging refuses an atomic
// between the accesses), at both levels.
__global__ void no_atomic(int *out, const int *in, int *count, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1;
    atomicAdd(count, 1);
  }
}

// A global load after the store (it feeds an assumption, so -O3 keeps it):
// in the variant it would run before the store. Kept: not profitable, at
// both levels.
__global__ void no_read_after(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1;
    __builtin_assume(in[0] != 0x7fffffff || x >= 0);
  }
}

// A loop (kept a loop at -O3 by `unroll 1`) before the store. Kept: each
// thread loops over its own work, at both levels.
__global__ void no_loop(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    int v = in[(size_t)y * M + x], acc = 0;
#pragma unroll 1
    for (int k = 0; k < 4; ++k)
      acc = acc * 3 + (v >> k);
    out[(size_t)x * N + y] = acc;
  }
}

// A __syncthreads between load and store (no shared memory). Kept: not
// profitable, at both levels.
__global__ void no_syncthreads(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  int v = x < M && y < N ? in[(size_t)y * M + x] + 1 : 0;
  __syncthreads();
  if (x < M && y < N)
    out[(size_t)x * N + y] = v;
}

// The kernel's own shared memory, a neighbour's slot read after a barrier.
// Kept: not profitable, at both levels.
__global__ void no_shared(int *out, const int *in, int M, int N) {
  __shared__ int s[32][33];
  int x = TX, y = TY;
  s[threadIdx.y][threadIdx.x] = x < M && y < N ? in[(size_t)y * M + x] : 0;
  __syncthreads();
  if (x < M && y < N)
    out[(size_t)x * N + y] = s[threadIdx.y][threadIdx.x ^ 1] + 1;
}

// A warp shuffle (convergent) in the value. Kept: not profitable at -O3;
// at -O0 the CUDA header's wrapper is a call (Kept: the kernel calls a
// function).
__global__ void no_shuffle(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  int v = x < M && y < N ? in[(size_t)y * M + x] : 0;
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  if (x < M && y < N)
    out[(size_t)x * N + y] = v;
}

// A volatile load. Not rewritten (the staging refuses a volatile access),
// at both levels.
__global__ void no_volatile(int *out, const volatile int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1;
}

// A 12-byte struct stored (three i32 stores, or a struct copy at -O0): no
// power-of-two slot. Not rewritten (no transposed candidate), at both
// levels.
struct I3 {
  int a, b, c;
};
__global__ void no_struct12(I3 *out, const I3 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    I3 v = in[(size_t)y * M + x];
    out[(size_t)x * N + y] = I3{v.c, v.b + 1, v.a};
  }
}

// A __noinline__ device function computes the value. Kept: the kernel
// calls a function, at both levels.
__device__ __noinline__ int helper(int v) { return v * 7 + 1; }
__global__ void no_call(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = helper(in[(size_t)y * M + x]);
}

// A row store (already coalesced): nothing to stage. Not rewritten, at
// both levels.
__global__ void no_row_store(int *out, const int *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)y * M + x] = in[(size_t)y * M + x] + 1;
}
