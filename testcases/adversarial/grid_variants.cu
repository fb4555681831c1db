// Adversarial corpus: reshaped launches' grid variants (issue 40,
// -coalda-reshape-launches; pass/lib/GridVariant.cpp). A rewritten kernel K
// that does one piece of work per thread gets K__coalda_grid(args..., G):
//
//   for (vb = blockIdx.x; vb < G; vb += gridDim.x)
//     K's body, blockIdx.x read as vb and gridDim.x as G, its returns going
//     to the next vb (a __syncthreads() before it where K uses shared memory)
//
// launched on a one-dimensional grid of g < G blocks. The claim: at any
// 1 <= g <= G it computes the bytes K's original computes at (G, 1, 1).
// The kernels below attack that: gridDim.x in the values and in the index,
// blockIdx.x read several times, the other grid registers (blockIdx.y/z,
// gridDim.y), early returns before a rewritten copy and before a staging,
// 2-D and 3-D blocks on the 1-D grid, __shared__ memory (static, dynamic,
// one word written by thread 0, 2-D) that the next virtual block would
// overwrite before a slow warp has read it, the staging's own tile,
// __syncthreads_count, atomics (order-free results: per-block counters, a
// shared total), a struct taken by value (G after it), and returns after
// the last barrier; and, to be refused, threads that leave before their
// block's barrier (by threadIdx.x and by threadIdx.y), loops, spin-waits,
// calls, and shared memory with no barrier. (Inline assembly, which could
// read %nctaid.x behind the variant's back, is refused as a call is, by
// oneStepPerThread; it has no kernel here: the emulator refuses a module
// with inline PTX whole, which tests/test_adversarial.py runs.)
//
// Each kernel says what it attacks and what the pass does with it at -O3
// and -O0 (Variant: K__coalda_grid is made; Refused: "reshaped": false,
// and why; Not rewritten: no launch decision at all), as pinned in
// tests/test_grid_variants.py, which runs every variant against its
// original at g in {1, 2, 3, G-1, G} (coalda/check/variants.py). Launch
// spec: grid_variants.toml (n = 1000 over blocks of 128 threads: G = 8, a
// last block of 104 threads; n // block = 7 full blocks for the kernels
// without a bounds guard).
//
// Found by this corpus (the plugin of 2026-12-04, when the option landed):
// exit_after_syncwarp and exit_after_shuffle get a variant at -O3 that
// faults (barrier divergence: the threads that left wait at the variant's
// trailing barrier while the others wait at the kernel's own): the
// refusal's walk from a divergent branch to a return stops at any "sync"
// operation, warp-level ones (__syncwarp, shuffles, votes) included, which
// do not wait for the rest of the block. exit_before_sync, the same kernel
// without the __syncwarp, is refused.
//
// Integer data only: float arithmetic on random bytes (NaN payloads) could
// make a comparison depend on operand order.

struct I3 {
  int x, y, z;
};

struct Args {
  I3 *dst;
  const I3 *src;
  int n;
};

#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define COPY3(d, s)                                                            \
  do {                                                                         \
    (d).x = (s).x;                                                             \
    (d).y = (s).y;                                                             \
    (d).z = (s).z;                                                             \
  } while (0)

// ---------------------------------------------------------------- the grid

// control: the classic guarded record copy (a region copy, no barrier).
// Variant at both levels.
__global__ void control(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// gridDim.x in the stored values: the variant must read G, not its own
// grid. Staged (computed values). Variant at both levels.
__global__ void grid_in_value(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n) {
    dst[i].x = src[i].x + gridDim.x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z * (int)gridDim.x;
  }
}

// The blocks in reverse order through gridDim.x: block b copies the
// elements of block G-1-b (the partial block's are the first ones). Variant
// at both levels.
__global__ void grid_in_index(I3 *dst, const I3 *src, int n) {
  int i = (gridDim.x - 1 - blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// The first and the second half of the grid compute differently
// (blockIdx.x against gridDim.x / 2). Variant at -O3; -O0 does not rewrite
// it (its select of two loads is not a member copy there).
__global__ void grid_half(I3 *dst, const I3 *src, int n) {
  int i = GID;
  int second = blockIdx.x >= gridDim.x / 2;
  if (i < n) {
    dst[i].x = src[i].x + second;
    dst[i].y = second ? src[i].z : src[i].y;
    dst[i].z = src[i].z - 7 * second;
  }
}

// The linear block index of a 2-D grid and the other grid registers
// (blockIdx.y, blockIdx.z, gridDim.y: 0, 0 and 1 in both launches).
// Variant at both levels.
__global__ void grid_y_linear(I3 *dst, const I3 *src, int n) {
  int b = blockIdx.y * gridDim.x + blockIdx.x;
  int i = b * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x + gridDim.y;
    dst[i].y = src[i].y + blockIdx.z;
    dst[i].z = src[i].z;
  }
}

// blockIdx.x read four times (index, two values, a per-block tag written
// by thread 0 with gridDim.x). Variant at both levels.
__global__ void block_index_thrice(I3 *dst, const I3 *src, int *tag, int n) {
  int i = GID;
  if (i < n) {
    dst[i].x = src[i].x + blockIdx.x;
    dst[i].y = src[i].y ^ (blockIdx.x << 3);
    dst[i].z = src[i].z;
  }
  if (threadIdx.x == 0)
    tag[blockIdx.x] = blockIdx.x * 7 + gridDim.x;
}

// The last block (blockIdx.x == gridDim.x - 1) writes how many elements it
// has. Variant at both levels.
__global__ void last_block(I3 *__restrict__ dst, const I3 *__restrict__ src, int *__restrict__ count, int n) {
  int i = GID;
  if (threadIdx.x == 0 && blockIdx.x == gridDim.x - 1)
    count[0] = n - blockIdx.x * blockDim.x;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A struct taken by value: G follows it in the variant's parameters.
// Variant at -O3; -O0 does not rewrite it.
__global__ void byval_args(Args a) {
  int i = GID;
  if (i < a.n) {
    a.dst[i].x = a.src[i].x;
    a.dst[i].y = a.src[i].y + gridDim.x;
    a.dst[i].z = a.src[i].z;
  }
}

// --------------------------------------------------------- early returns

// Threads past n return before the rewritten copy (the return goes to the
// next virtual block). Variant at both levels.
__global__ void early_return(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i >= n)
    return;
  COPY3(dst[i], src[i]);
}

// The same before a staging (its barriers after the return). Variant at
// both levels.
__global__ void early_return_math(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i >= n)
    return;
  dst[i].x = src[i].x * 3 + 1;
  dst[i].y = src[i].y - src[i].x;
  dst[i].z = src[i].z ^ 0x55;
}

// A divergent return after the kernel's last barrier: the threads that
// leave wait at the trailing barrier for the others. Variant at both
// levels.
__global__ void return_after_sync(I3 *dst, const I3 *src, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  s[t] = i < n ? src[i].x : 0;
  __syncthreads();
  if (i >= n)
    return;
  dst[i].x = s[t ^ 3];
  dst[i].y = src[i].y;
  dst[i].z = src[i].z;
}

// A block-uniform return (every third block) before a barrier: the whole
// block goes to the next virtual block together. No bounds guard. Variant
// at both levels.
__global__ void uniform_return(I3 *__restrict__ dst, const I3 *__restrict__ src, const int *__restrict__ w,
                               int *__restrict__ out) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  if (blockIdx.x % 3 == 1)
    return;
  COPY3(dst[i], src[i]);
  s[t] = w[i];
  __syncthreads();
  out[i] = s[127 - t];
}

// ------------------------------------------------------------ block shapes

// 32x4 blocks on the 1-D grid. Variant at both levels.
__global__ void block_2d(I3 *dst, const I3 *src, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// 32x2x2 blocks; threadIdx.z in a value. Variant at both levels.
__global__ void block_3d(I3 *dst, const I3 *src, int n) {
  int i = ((blockIdx.x * blockDim.z + threadIdx.z) * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x + 1;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z + threadIdx.z;
  }
}

// ----------------------------------------------------------- shared memory

// SoA -> AoS, staged through the pass's tile (a barrier vote, then the
// tile's barrier). Variant at both levels.
__global__ void soa_to_aos(I3 *out, const int *ix, const int *iy, const int *iz, int n) {
  int i = GID;
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + 1;
    out[i].z = iz[i] * 2;
  }
}

// The same on 32x4 blocks. Variant at both levels.
__global__ void soa_to_aos_2d(I3 *out, const int *ix, const int *iy, const int *iz, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + 1;
    out[i].z = iz[i] * 2;
  }
}

// The kernel's own tile, written before its first barrier and read at the
// neighbour's slot after it: the next virtual block's writes must wait for
// the slowest reader (the trailing barrier; planted away in the test).
// Variant at both levels.
__global__ void shared_neighbour(I3 *dst, const I3 *src, const int *w, int n) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  s[t] = i < n ? w[i] : 0;
  __syncthreads();
  int v = s[t ^ 1];
  if (i < n) {
    dst[i].x = src[i].x + v;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z - v;
  }
}

// A 2-D tile on 32x4 blocks, read mirrored. Variant at both levels.
__global__ void shared_2d(I3 *dst, const I3 *src, int n) {
  __shared__ int s[4][32];
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  s[threadIdx.y][threadIdx.x] = i < n ? src[i].y : 0;
  __syncthreads();
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = s[3 - threadIdx.y][31 - threadIdx.x];
    dst[i].z = src[i].z;
  }
}

// One shared word per block, written by thread 0 from blockIdx.x. Variant
// at both levels.
__global__ void shared_broadcast(I3 *dst, const I3 *src, const int *w, int n) {
  __shared__ int base;
  int i = GID;
  if (threadIdx.x == 0)
    base = w[blockIdx.x] + blockIdx.x;
  __syncthreads();
  if (i < n) {
    dst[i].x = src[i].x + base;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

// Dynamic shared memory (extern __shared__, 4*block bytes) beside a
// rewritten copy. Variant at both levels.
__global__ void dynamic_shared(I3 *__restrict__ dst, const I3 *__restrict__ src, const int *__restrict__ w,
                               int *__restrict__ out, int n) {
  extern __shared__ int dyn[];
  int t = threadIdx.x, i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
  dyn[t] = i < n ? w[i] : 0;
  __syncthreads();
  if (i < n)
    out[i] = dyn[(t + 5) % blockDim.x];
}

// A block vote (__syncthreads_count) stored in the records. Variant at
// both levels.
__global__ void sync_count(I3 *dst, const I3 *src, int n) {
  int i = GID;
  int c = __syncthreads_count(i < n && (src[i].x & 1));
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = c;
    dst[i].z = src[i].z;
  }
}

// ----------------------------------------------------------------- atomics

// Every thread counts itself into its block's counter (order-free) before
// a staging. Variant at both levels.
__global__ void atomic_per_block(I3 *out, const int *ix, const int *iy, const int *iz, int *count, int n) {
  int i = GID;
  atomicAdd(&count[blockIdx.x % 4], 1);
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + 1;
    out[i].z = iz[i] * 2;
  }
}

// Thread 0 of each block counts the block before the staged write: a
// divergent branch that meets again before the staging, with no
// synchronization on either side. No thread passes a barrier the others
// skip, so the variant is allowed (it was refused before the exit check
// looked for the ways' meeting point). Variant at -O3.
__global__ void leader_counts(I3 *out, const int *ix, const int *iy, const int *iz, int *count, int n) {
  int i = GID;
  if (threadIdx.x == 0)
    atomicAdd(&count[blockIdx.x % 4], 1);
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + 1;
    out[i].z = iz[i] * 2;
  }
}

// A block's total in shared memory by atomics, zeroed by thread 0: the
// next virtual block's zeroing must wait for this one's readers. Variant at
// both levels.
__global__ void shared_atomic(I3 *out, const int *ix, const int *iy, const int *iz, int *sums, int n) {
  __shared__ int total;
  int i = GID;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  if (i < n)
    atomicAdd(&total, ix[i] & 255);
  __syncthreads();
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + total;
    out[i].z = iz[i] * 2;
  }
  if (threadIdx.x == 0)
    sums[blockIdx.x] = total;
}

// ------------------------------------------- leaving before the barrier

// Every thread writes its slot; the upper two warps leave after a
// __syncwarp, and the lower two meet at a __syncthreads (a GPU does not
// wait for threads that exited; nor does the emulator) and read the upper
// warps' slots. In the variant the leavers wait at the trailing barrier
// instead (barrier divergence: the emulator faults) and go on to the next
// virtual block, whose slots they write while the lower warps still read
// this one's. No bounds guard. Variant at -O3 (the bug: the refusal takes
// the __syncwarp for the block's synchronization); refused at -O0, where
// __syncwarp is a call.
__global__ void exit_after_syncwarp(I3 *dst, const I3 *src, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  COPY3(dst[i], src[i]);
  s[t] = src[i].x;
  if (t >= 64) {
    __syncwarp();
    return;
  }
  __syncthreads();
  out[i] = s[t + 64];
}

// The same with a shuffle on the way out. Variant at -O3 (the bug);
// refused at -O0.
__global__ void exit_after_shuffle(I3 *dst, const I3 *src, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  int v = src[i].x;
  COPY3(dst[i], src[i]);
  s[t] = v;
  if (t >= 64) {
    out[i] = __shfl_xor_sync(0xffffffff, v, 1);
    return;
  }
  __syncthreads();
  out[i] = s[t + 64];
}

// The same with nothing on the way out. Refused at both levels (a thread
// may return while others of its block still synchronize).
__global__ void exit_before_sync(I3 *dst, const I3 *src, int *out) {
  __shared__ int s[128];
  int t = threadIdx.x, i = GID;
  COPY3(dst[i], src[i]);
  s[t] = src[i].x;
  if (t >= 64)
    return;
  __syncthreads();
  out[i] = s[t + 64];
}

// Rows 2 and 3 of a 32x4 block leave (threadIdx.y: uniform in a row, not
// in the block). Refused at both levels (a thread may return ...).
__global__ void exit_rows_2d(I3 *dst, const I3 *src, int *out) {
  __shared__ int s[4][32];
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  COPY3(dst[i], src[i]);
  s[threadIdx.y][threadIdx.x] = src[i].y;
  if (threadIdx.y >= 2)
    return;
  __syncthreads();
  out[i] = s[threadIdx.y + 2][threadIdx.x];
}

// ------------------------------------------------------------------ refused

// A loop of a run-time trip count. Refused at both levels (each thread
// loops over its own work).
__global__ void runtime_loop(I3 *dst, const I3 *src, int n, int reps) {
  int i = GID;
  if (i < n)
    for (int r = 0; r < reps; r++) {
      dst[i].x = src[i].x + r;
      dst[i].y = src[i].y;
      dst[i].z = src[i].z;
    }
}

// A grid-stride loop. Refused at both levels (each thread loops ...).
__global__ void grid_stride(I3 *dst, const I3 *src, int n) {
  for (int i = GID; i < n; i += blockDim.x * gridDim.x)
    COPY3(dst[i], src[i]);
}

// Thread 0 takes a lock by an atomic spin loop before a staging. Refused at
// both levels, as a loop (the spin-wait refusal needs a kernel with no loop
// before the rewrite, so it never speaks for a source's spin loop).
__global__ void spin_lock(I3 *out, const int *ix, const int *iy, const int *iz, int *lock, int n) {
  int i = GID;
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    atomicExch(lock, 0);
  }
  if (i < n) {
    out[i].x = ix[i];
    out[i].y = iy[i] + 1;
    out[i].z = iz[i] * 2;
  }
}

// Each block waits (volatile spin) for the previous block's flag: a block
// looping over blocks would wait for itself. Refused at both levels, as a
// loop.
__global__ void wait_previous(I3 *__restrict__ dst, const I3 *__restrict__ src, int *__restrict__ flags, int n) {
  int i = GID;
  if (threadIdx.x == 0 && blockIdx.x > 0)
    while (((volatile int *)flags)[blockIdx.x - 1] == 0) {
    }
  if (i < n)
    COPY3(dst[i], src[i]);
  if (threadIdx.x == 0)
    flags[blockIdx.x] = 1;
}

// A call (it reads blockIdx.x). Refused at both levels, with the loop
// reason: oneStepPerThread refuses calls (and inline assembly) before the
// call refusal is asked.
__device__ __noinline__ int helper(int v) { return v * 5 + blockIdx.x; }

__global__ void calls_helper(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n) {
    dst[i].x = helper(src[i].x);
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

// Shared memory with no barrier (each thread its own volatile slot).
// Refused at both levels (shares memory without __syncthreads()).
__global__ void shared_no_barrier(I3 *__restrict__ dst, const I3 *__restrict__ src, const int *__restrict__ w,
                                  int *__restrict__ out, int n) {
  __shared__ int s[128];
  volatile int *vs = s;
  int t = threadIdx.x, i = GID;
  if (i < n) {
    COPY3(dst[i], src[i]);
    vs[t] = w[i] * 2;
    out[i] = vs[t] + 1;
  }
}
