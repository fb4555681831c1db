// Adversarial transposes: the naive 2-D transpose `out[x*N + y] = f(in[y*M
// + x])` that COALDA permutes through a padded __shared__ tile ("transposed"
// stagings: each thread puts its value in slot y*(ntid.x+1) + x, and after a
// barrier thread q stores slot (q / ntid.y, q % ntid.y), its address
// recomputed for that owner or read from an address tile).
//
// The kernels attack what that rewrite assumes: the block's shape (tall,
// 1-D, one warp, 3-D, 1024 threads, one column), grids larger than the
// matrix, guards written every other way (min, a lower bound, a parity
// test, a reversed lane, a wrapping unsigned y), index arithmetic (size_t,
// pitches, per-block and per-row loaded offsets, swapped thread roles,
// interleaved rows), element types from char to 16-byte integers, views of
// one buffer (interleaved halves, read-backs of the stored element through
// another pointer, negative offsets, in-place transposes), read-modify-
// writes around stores and barriers, the kernel's own shared memory and
// __launch_bounds__, loops, collectives, exits and divergent code around the
// store, two transposed arrays in one block. Not repeated here: the kernels
// of transpose.cu, staging.cu (transpose_*) and uniform_go.cu (tr_*).
//
// A store of a plain load (`out[...] = in[...]`) is also a copy group, and
// under a branch or in a loop the copy's claim keeps it from being a
// transposed candidate at all: the kernels here compute something on the
// way, so that what they attack is the transposed staging.
//
// Unless a comment says otherwise, x = blockIdx.x*blockDim.x + threadIdx.x,
// y = blockIdx.y*blockDim.y + threadIdx.y, `in` holds N rows of M and `out`
// M rows of N. Each kernel says what the pass does with it at -O3 and -O0:
// "transposed" (the store permuted through the tile) with the way the block
// decides to take it (go: "uniform", every thread computes it alike; "vote",
// a __syncthreads_and; "shape", nothing but the block's shape to decide), or
// left alone and why (the report's reason). Launches: transposes.toml (n =
// 1, 33 and 70: no full block, one full block per dimension, several; M = n
// and N = n // 2 + 3 unless it says otherwise). Decisions pinned in
// tests/test_adversarial_transposes.py.
#include <cstddef>
#include <cstdint>

#define TX (blockIdx.x * blockDim.x + threadIdx.x)
#define TY (blockIdx.y * blockDim.y + threadIdx.y)

//===----------------------------------------------------------------------===//
// Block shapes: launches whose blocks are not the 32x8 tile
//===----------------------------------------------------------------------===//

// 8x32 blocks (tall: four 8-thread pieces of rows per warp, 32 rows). The
// owner mapping (q / 32, q % 32) walks whole columns of the block.
// Transposed, "uniform".
__global__ void shape_tall(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
}

// 256x1 blocks: a 1-D launch of a 2-D kernel (ntid.y = 1, nothing to
// permute). The rewrite is made, and the block-shape test (ntid.y > 1)
// sends every block to the original code. Transposed, "uniform".
__global__ void shape_flat(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] - 2.f;
}

// 8x4 blocks: 32 threads, one warp, which the permutation would not help;
// the shape test (more than 32 threads) runs the original. Transposed,
// "uniform".
__global__ void shape_one_warp(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 5.f;
}

// 32x32 blocks: 1024 threads, the largest tile (2048 slots; the last
// padded slot is 31*33 + 31 = 1054). Transposed, "uniform".
__global__ void shape_1024(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 0.5f;
}

// 1x64 blocks: one column of threads (ntid.x = 1, x = blockIdx.x), whose
// stores are already consecutive; the permutation is the identity
// (M = n // 2 + 3 columns, N = n rows). Transposed, "uniform".
__global__ void shape_column(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 7.f;
}

// 16x8x2 blocks: threadIdx.z picks one of two matrices. The address has a
// tid.z term that the owner's clone keeps as the storing thread's own,
// which is right only because the staged path needs ntid.z = 1: here every
// block runs the original. Transposed, "uniform".
__global__ void shape_3d(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < M && y < N)
    out[(size_t)z * M * N + (size_t)x * N + y] = in[(size_t)z * M * N + (size_t)y * M + x] * 2.f;
}

// Three blockIdx.z batches of 32x8x1 blocks: the batch offset is
// block-uniform, part of the address the storing thread recomputes.
// Transposed, "uniform".
__global__ void shape_batch_z(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  const float *src = in + (size_t)blockIdx.z * M * N;
  float *dst = out + (size_t)blockIdx.z * M * N;
  if (x < M && y < N)
    dst[(size_t)x * N + y] = src[(size_t)y * M + x] + (float)blockIdx.z;
}

// A grid two blocks wider and one block taller than the matrix: whole
// blocks with no active thread, which must not take the staged path (its
// store phase would write the tile's poison past the matrix). Transposed,
// "uniform".
__global__ void shape_extra_blocks(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 0.25f;
}

//===----------------------------------------------------------------------===//
// Guards
//===----------------------------------------------------------------------===//

// The x bound is min(M, lim) (lim = n - 5: the last five columns are not
// transposed, and x blocks that reach into them run the original).
// Transposed, "vote" (the select keeps it).
__global__ void guard_min(float *out, const float *in, int lim, int M, int N) {
  int x = TX, y = TY;
  if (x < min(M, lim) && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 3.f;
}

// The load before the guard, unguarded (`in` holds the whole grid's rows,
// of pitch P = the grid's width), the store behind it. Transposed,
// "uniform".
__global__ void guard_after_load(float *out, const float *in, int P, int M, int N) {
  int x = TX, y = TY;
  float v = in[(size_t)y * P + x];
  if (x < M && y < N)
    out[(size_t)x * N + y] = v * 3.f;
}

// A lower bound on the lane, x = blockIdx.x*blockDim.x + threadIdx.x - off
// (off = 5: x block 0's first five threads are negative and inactive):
// `x >= 0` bounds a suffix of the block. Transposed, "vote".
__global__ void guard_lower_bound(float *out, const float *in, int off, int M, int N) {
  int x = TX - off, y = TY;
  if (x >= 0 && x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] - 1.f;
}

// A condition on the thread index that is not a bound: odd lanes fail when
// the flag is set (flag = n % 2: set at n = 1 and 33, so a full block has
// inactive threads and must run the original; clear at 70, where every
// thread of a full block passes). Transposed at -O3, "vote". -O0: left
// alone (the && chain's third branch makes the accesses "not behind one
// branch").
__global__ void guard_parity(float *out, const float *in, int flag, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N && !(flag && (threadIdx.x & 1)))
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
}

// The lane reversed in the block: x = blockIdx.x*blockDim.x + blockDim.x-1
// - threadIdx.x, so the block's last thread has its smallest x and its
// first the largest (a "last lane passes" test would look at the wrong
// end). -O3: left alone (the reversal is an xor the automaton does not
// read: no transposed store). -O0: transposed, "vote" (the bound's lane
// coefficient is -1 on the low side).
__global__ void guard_reversed_lane(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + (blockDim.x - 1 - threadIdx.x), y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 2.f;
}

// A window of a wider matrix: cols x rows with pitches (ldi, ldo) wider
// than the bounds. Transposed, "uniform".
__global__ void guard_submatrix(float *out, const float *in, int cols, int rows, int ldi, int ldo) {
  int x = TX, y = TY;
  if (x < cols && y < rows)
    out[(size_t)x * ldo + y] = in[(size_t)y * ldi + x] * 4.f;
}

// An unsigned y that wraps: y = blockIdx.y*blockDim.y + threadIdx.y - offy
// (offy = 3: y block 0's first three rows are near 2^32, inactive; the
// grid has one more row of blocks). The last row's y passes `y < N`, but
// the first rows' wrapped: the no-wrap test of the uniform go must see it.
// Transposed, "uniform".
__global__ void guard_wrap_y(float *out, const float *in, unsigned offy, unsigned M, unsigned N) {
  unsigned x = TX;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y - offy;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
}

//===----------------------------------------------------------------------===//
// Index arithmetic
//===----------------------------------------------------------------------===//

// size_t indices throughout. Transposed, "vote" at -O3 (its folded 64-bit
// bounds), "uniform" at -O0.
__global__ void idx_size_t(float *out, const float *in, size_t M, size_t N) {
  size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N)
    out[x * N + y] = in[y * M + x] * 6.f;
}

// A per-block column offset loaded from memory (b = offs[blockIdx.x] & 3,
// offs random; out rows of N + 4): each block stores with its own shift,
// which the storing thread cannot recompute. -O0: transposed, "uniform",
// the owners' addresses through the address tile ((4 + 8) * 2 bytes a
// thread). -O3: left alone (the load sinks into the guarded block: "the
// address of out's element is computed from memory the guard reads").
__global__ void idx_block_offset(float *out, const float *in, const int *offs, int M, int N) {
  int x = TX, y = TY;
  int b = offs[blockIdx.x] & 3;
  if (x < M && y < N)
    out[(size_t)x * (N + 4) + y + b] = in[(size_t)y * M + x] + 9.f;
}

// A per-row offset loaded from memory: row ty of the block stores into the
// first or the second half of out's rows (h = ro[threadIdx.y] & 1, ro
// random; out rows of 2N): different in each row of the block, so neither
// uniform nor a thread function. -O0: transposed, "uniform", through the
// address tile. -O3: left alone (the load sinks into the guarded block).
__global__ void idx_row_loaded_half(float *out, const float *in, const int *ro, int M, int N) {
  int x = TX, y = TY;
  int h = ro[threadIdx.y] & 1;
  if (x < M && y < N)
    out[(size_t)x * 2 * N + y + (size_t)h * N] = in[(size_t)y * M + x] - 4.f;
}

// The thread roles swapped: x steps with threadIdx.y and y with
// threadIdx.x (x = blockIdx.x*blockDim.y + threadIdx.y, y =
// blockIdx.y*blockDim.x + threadIdx.x); out[y*M + x] is then the column
// store (in M rows of N, out N rows of M). Transposed, "uniform".
__global__ void idx_swapped_tid(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.y + threadIdx.y;
  int y = blockIdx.y * blockDim.x + threadIdx.x;
  if (x < M && y < N)
    out[(size_t)y * M + x] = in[(size_t)x * N + y] * 0.5f;
}

// Two rows interleaved: out[2*x + y] for y < 2 (a lane stride of two
// elements, 32x2 blocks, one row of blocks). Transposed, "uniform".
__global__ void idx_interleave(float *out, const float *in, int M) {
  int x = TX, y = TY;
  if (x < M && y < 2)
    out[2 * x + y] = in[(size_t)y * M + x] + 8.f;
}

//===----------------------------------------------------------------------===//
// Element types
//===----------------------------------------------------------------------===//

// Bytes: a 1-byte column. Transposed, "uniform".
__global__ void ty_char(unsigned char *out, const unsigned char *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = (unsigned char)(in[(size_t)y * M + x] + 1);
}

// float2 values. Left alone: at -O3 the two members are two 4-byte stores
// to one base in the block (not a store made once per thread); at -O0 the
// value goes through a local copy (a memcpy, a transfer).
__global__ void ty_float2(float2 *out, const float2 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float2 v = in[(size_t)y * M + x];
    out[(size_t)x * N + y] = make_float2(v.y, v.x);
  }
}

// 16-byte integers in 16x16 blocks (an i128 tile of 16-byte slots).
// Transposed, "uniform".
__global__ void ty_u128(unsigned __int128 *out, const unsigned __int128 *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1;
}

// 16-byte integers with a loaded shift (k = 1; out rows of N + 1): 16-byte
// values and 8-byte addresses, 48 bytes a thread with the padding: the
// 1024-thread tiles take the whole 48 KB (32x32 blocks). -O0: transposed,
// "uniform", 49152 bytes of tiles. -O3: left alone (the shift's load sinks
// into the guarded block).
__global__ void ty_u128_shift(unsigned __int128 *out, const unsigned __int128 *in, const int *k, int M, int N) {
  int x = TX, y = TY;
  int s = k[0];
  if (x < M && y < N)
    out[(size_t)x * (N + 1) + y + s] = in[(size_t)y * M + x] ^ 5;
}

//===----------------------------------------------------------------------===//
// Views of one buffer
//===----------------------------------------------------------------------===//

// One buffer, two interleaved halves: rows of pitch 2m, the matrix read
// from the left halves (buf[y*2m + x]) and its transpose stored into the
// right halves (buf[x*2m + m + y]); the same base, disjoint bytes, the
// load before the store (no check). Transposed, "uniform".
__global__ void view_halves(float *buf, int m) {
  int x = TX, y = TY;
  if (x < m && y < m)
    buf[(size_t)x * 2 * m + m + y] = buf[(size_t)y * 2 * m + x] + 1.f;
}

// After the store, the thread reads its own stored element back through
// another view of the buffer (view = out + off, off = 0) into r: the read
// may follow the deferred store, so it is checked at run time against the
// thread's element, which it overlaps: every block runs the original.
// Transposed, "vote" (two checks: the read, and r's store).
__global__ void view_readback_own(float *out, const float *in, float *r, int off, int M, int N) {
  int x = TX, y = TY;
  const float *view = out + off;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
    r[(size_t)y * M + x] = view[(size_t)x * N + y];
  }
}

// The same, reading the other half of a buffer of two matrices (off =
// M*N): the check passes and full blocks are staged. Transposed, "vote".
__global__ void view_readback_other(float *out, const float *in, float *r, int off, int M, int N) {
  int x = TX, y = TY;
  const float *view = out + off;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
    r[(size_t)y * M + x] = view[(size_t)x * N + y];
  }
}

// The read-back's pointer has a negative offset (view = out + off, off =
// -5) and its index a positive one (k = 5): it reads the thread's own
// element. With in and r __restrict__, the one check compares addresses
// with the same thread terms, computed once from the arguments (signed
// extensions of off and k): overlapping, so the original runs.
// Transposed, "uniform" at -O3, "vote" at -O0.
__global__ void view_negative_offset(float *out, const float *__restrict__ in, float *__restrict__ r, int off, int k,
                                     int M, int N) {
  int x = TX, y = TY;
  const float *view = out + off;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
    r[(size_t)y * M + x] = view[(size_t)x * N + y + k];
  }
}

// An in-place transpose of a square matrix by pairs: the thread with x < y
// swaps a[y*n + x] and a[x*n + y] (each pair owned by one thread alone),
// nudging the values. Two stores to one base in the block. Left alone (no
// candidate).
__global__ void view_inplace_pairs(float *a, int n) {
  int x = TX, y = TY;
  if (x < n && y < n && x < y) {
    float lo = a[(size_t)y * n + x], hi = a[(size_t)x * n + y];
    a[(size_t)x * n + y] = lo + 1.f;
    a[(size_t)y * n + x] = hi - 1.f;
  }
}

// An in-place transpose by one block (n = min(n, 16), a 16x16 block, one
// block in the grid): every thread reads, a barrier, every thread stores
// its transposed element. Transposed, "uniform".
__global__ void view_inplace_block(float *a, int n) {
  int x = threadIdx.x, y = threadIdx.y;
  float v = 0.f;
  if (x < n && y < n)
    v = a[(size_t)y * n + x];
  __syncthreads();
  if (x < n && y < n)
    a[(size_t)x * n + y] = v * 2.f;
}

//===----------------------------------------------------------------------===//
// Read-modify-writes
//===----------------------------------------------------------------------===//

// `a[x*N + y] += b[y*M + x]`: the block loads the column pieces first.
// Transposed, "uniform".
__global__ void rmw_add(float *a, const float *b, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    a[(size_t)x * N + y] += b[(size_t)y * M + x];
}

// The element read, then a store through another pointer (w may be a),
// then the element written: the load moves before w's store, which cannot
// write the element first, and w's store cannot follow the deferred one
// (no check). Transposed, "uniform".
__global__ void rmw_store_between(float *a, float *w, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float old = a[(size_t)x * N + y];
    w[(size_t)y * M + x] = old;
    a[(size_t)x * N + y] = old + 1.f;
  }
}

// An atomic transposed update. Left alone (no candidate: not a store).
__global__ void rmw_atomic(float *a, const float *b, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    atomicAdd(&a[(size_t)x * N + y], b[(size_t)y * M + x]);
}

// A plain transposed store of the element, then (under its own guard) its
// read-modify-write: the block loads the owners' elements, which they
// stored just before (a leading barrier must order them). -O0: the
// read-modify-write is staged (the most accesses), "uniform". -O3: the
// guards merge into one block with both stores to a (not a store made once
// per thread): left alone.
__global__ void rmw_after_store(float *a, const float *b, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    a[(size_t)x * N + y] = b[(size_t)y * M + x];
  if (x < M && y < N)
    a[(size_t)x * N + y] = a[(size_t)x * N + y] * 2.f + 1.f;
}

// One 16x16 block (n = min(n, 16)): every thread stores a[y*n + x], a
// barrier, then each updates a[x*n + y], which another thread stored.
// Transposed, "uniform".
__global__ void rmw_after_barrier(float *a, const float *b, int n) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < n && y < n)
    a[y * n + x] = b[y * n + x];
  __syncthreads();
  if (x < n && y < n)
    a[x * n + y] = a[x * n + y] * 2.f + 1.f;
}

// A __syncthreads between the read and the write of the element (an exact
// grid, no guard). Left alone (a barrier between the accesses).
__global__ void rmw_barrier_inside(float *a, int M, int N) {
  int x = TX, y = TY;
  float o = a[(size_t)x * N + y];
  __syncthreads();
  a[(size_t)x * N + y] = o + 1.f;
}

//===----------------------------------------------------------------------===//
// Control flow, barriers and shared memory around the store
//===----------------------------------------------------------------------===//

// 44 KB of the kernel's own shared memory and a barrier before the
// transpose: the tiles fit beside it for 512 threads only (16x32 blocks
// here). Transposed, "uniform", 512 threads.
__global__ void ctl_shared_budget(float *out, const float *in, int M, int N) {
  __shared__ float own[11264];
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int x = TX, y = TY;
  own[t] = (float)(t * 3);
  __syncthreads();
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + own[blockDim.x * blockDim.y - 1 - t];
}

// __launch_bounds__(128) with 16x8 blocks: tiles sized for 128 threads.
// Transposed, "uniform", 128 threads.
__global__ void __launch_bounds__(128) ctl_launch_bounds(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] + 4.f;
}

// The store under a data-dependent condition inside the guard (out is
// read-write: elements whose input is not positive keep their value): a
// thread of the block may skip the store, so its slot would hold poison.
// Left alone (the inner branch is not reached once by every thread).
__global__ void ctl_data_dependent(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    if (v > 0.f)
      out[(size_t)x * N + y] = v * 2.f;
  }
}

// Two stores of the element on the two sides of a data-dependent branch.
// -O3: one store of a select, transposed, "uniform". -O0: two candidates,
// each in a block only some threads reach: left alone.
__global__ void ctl_if_else(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    if (v > 0.f)
      out[(size_t)x * N + y] = v * 2.f;
    else
      out[(size_t)x * N + y] = v * 3.f;
  }
}

// After the store, a data-dependent return, then another store (r may be
// out, checked): the deferred store must still be made for the threads
// that returned. Transposed, "vote".
__global__ void ctl_return_after(float *out, const float *in, float *r, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    out[(size_t)x * N + y] = v * 2.f;
    if (v < 0.f)
      return;
    r[(size_t)y * M + x] = v;
  }
}

// The thread reads its own element back after the guard's merge, under a
// second guard (and a flag's store in between, flag = 0): the element is
// stored by another thread in the store phase, which a trailing barrier
// must order before the read. Transposed, "uniform".
__global__ void ctl_read_after_merge(float *out, const float *in, float *r, int flag, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
  if (flag)
    r[(size_t)y * M + x] = 1.f;
  if (x < M && y < N)
    r[(size_t)y * M + x] = out[(size_t)x * N + y] + 1.f;
}

// Row 3 of every block returns first, then a store to r (memory) before
// the transposed store (an exact grid, no bound guard): the return joins
// the region's guard, and no block is ever full. Transposed, "vote" (every
// block runs the original).
__global__ void ctl_exit_noguard(float *out, const float *in, float *r, int M, int N) {
  int x = TX, y = TY;
  if (threadIdx.y == 3)
    return;
  r[(size_t)y * M + x] = 1.f;
  out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
}

// After the transposed store, warp-divergent stores to another buffer
// (odd and even lanes store different values; r may be out, checked).
// Transposed, "vote".
__global__ void ctl_divergent_after(float *out, const float *in, float *r, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    out[(size_t)x * N + y] = v * 2.f;
    if (threadIdx.x & 1)
      r[(size_t)y * M + x] = v + 1.f;
    else
      r[(size_t)y * M + x] = v - 1.f;
  }
}

// A per-thread loop before the store (a sum over K = 3 planes): the store
// is made once, after the loop. -O0: transposed, "uniform". -O3: left
// alone (the unrolled loop leaves the store's address behind a phi the
// automaton does not read).
__global__ void ctl_loop_before(float *out, const float *in, int K, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float s = 0.f;
    for (int k = 0; k < K; ++k)
      s += in[((size_t)k * N + y) * M + x];
    out[(size_t)x * N + y] = s;
  }
}

// 2-D grid-stride loops (a 1x2 grid of blocks over the whole matrix).
// Left alone (the transposed store is in a loop).
__global__ void ctl_grid_stride(float *out, const float *in, int M, int N) {
  for (int y = TY; y < N; y += blockDim.y * gridDim.y)
    for (int x = TX; x < M; x += blockDim.x * gridDim.x)
      out[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
}

// The value combined across the warp by a shuffle before the store, and
// no guard (an exact grid: M a multiple of 32, N of 8). Transposed,
// "shape".
__global__ void ctl_shuffle(float *out, const float *in, int M, int N) {
  int x = TX, y = TY;
  float v = in[(size_t)y * M + x];
  v += __shfl_xor_sync(0xffffffffu, v, 1);
  out[(size_t)x * N + y] = v;
}

// Two transposed stores in one block, to two outputs of different row
// lengths (out1 M rows of N, out2 M rows of N + 1), checked against each
// other. Transposed (both arrays, 16 KB of tiles), "vote".
__global__ void ctl_two_outputs(float *out1, float *out2, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    out1[(size_t)x * N + y] = v + 1.f;
    out2[(size_t)x * (N + 1) + y] = v * 2.f;
  }
}

// Two transposed stores under different guards (two blocks): one staging
// per kernel, the first; the second store runs after its store phase.
// Transposed (out1), "uniform"; out2's left alone (one staging per kernel).
__global__ void ctl_two_guards(float *out1, float *out2, const float *in, int M, int N) {
  int x = TX, y = TY;
  if (x < M && y < N)
    out1[(size_t)x * N + y] = in[(size_t)y * M + x] * 2.f;
  if (x < M && y < N - 1)
    out2[(size_t)x * N + y] = in[(size_t)y * M + x] + 1.f;
}

// Two transposed arrays in one block, one whose address the storing thread
// recomputes (out2) and one through the address tile (out1, shifted by a
// loaded k = 1; rows of N + 1): the tiles are paired by array. -O0:
// transposed, "vote". -O3: left alone (out1's address reads memory the
// guard's block computes).
__global__ void ctl_two_tiles(float *out1, float *out2, const float *in, const int *k, int M, int N) {
  int x = TX, y = TY;
  int s = k[0];
  if (x < M && y < N) {
    float v = in[(size_t)y * M + x];
    out1[(size_t)x * (N + 1) + y + s] = v;
    out2[(size_t)x * N + y] = v + 1.f;
  }
}
