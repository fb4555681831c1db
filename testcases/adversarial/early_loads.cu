// Adversarial corpus: early loads of a staged region
// (-coalda-stage-early-loads, pass/lib/StagingEmitter.cpp earlyLoads). A
// staged block copies its row of elements into a __shared__ tile, waits at
// a barrier, runs the region on the tile, waits again and writes the row
// back. The loads of OTHER memory that the region's first block makes before
// it writes anything but the tile are cloned in front of the row copies
// (under the guard's condition), so that they are in flight with them: they
// cross the rewrite's own barrier and the tile stores before them. The
// kernels below try to make such a load read something else than it read in
// its place: views of the staged array (own element, neighbours, bytes,
// floats), loads after writes of other memory, atomics, volatile accesses,
// fences and user barriers, user __shared__ memory (through __shared__ and
// generic pointers), addresses computed from staged values, loads behind a
// condition, guards with the active edge on false, grid-stride loops whose
// iterations read what the previous iteration's write-back (another
// thread's) wrote, warp tiles, more loads than the limit, narrow and wide
// members. Each says what it attacks and what the pass does with it
// ("Early" = staged, with early loads, at -O3 and -O0 unless said). Launch
// specs: early_loads.toml; decisions pinned in
// tests/test_adversarial_early_loads.py. One kernel, grid_stride_prev, found
// a miscompile older than the early loads (fixed; see there).
#include <cstdint>

struct F3 { float x, y, z; };
struct I3 { int a, b, c; };
struct D3 { double x, y, z; };
struct D4 { double v, x, y, z; };
struct M4 { double d; float f; short s; char c, k; };   // 16 bytes, mixed widths

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// The update of the kernels that read their element one iteration back
// (or at another distance) through the view x: the element, plus two
// members read through x.
#define UPDATE_FROM_VIEW(i)                                                    \
  y[i].x = y[i].x + 1.f;                                                       \
  y[i].y = y[i].y + x[i].x;                                                    \
  y[i].z = y[i].z + x[i].z

// The baseline: y = a*x + y on float3s; x's three loads are made after y's
// first tile load and go in front of the row copies. Early.
__global__ void axpy(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// The same with __restrict__ pointers (no overlap check). Early.
__global__ void axpy_restrict(F3 *__restrict__ y, const F3 *__restrict__ x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// An early return: the guard's active edge is its false edge (the clone's
// test is the negated condition). Early.
__global__ void axpy_return(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i >= n)
    return;
  y[i].z = a * x[i].z + y[i].z;
  y[i].x = a * x[i].x + y[i].x;
  y[i].y = a * x[i].y + y[i].y;
}

// An else branch holds the update: active edge on false again. Early.
__global__ void axpy_else(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i >= n) {
  } else {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// x = y + off with off = 0 at run time: x's loads read the thread's own
// element, after the tile stores of the same members. Hoisted, they would
// read the row's old bytes in front of the copies; the go's check against
// the thread's own element sends every block to the original. Early (falls
// back at run time).
__global__ void view_own(F3 *y, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = x[i].x * 2.f;
    y[i].z = x[i].y + x[i].z;
  }
}

// x is y at a constant 4 bytes on (x[i].x is y[i].y): same base, so its
// accesses are the staged array's own, redirected to the tile; no other memory
// is loaded. Staged, not early.
__global__ void view_own_shifted(F3 *y, int n) {
  const F3 *x = (const F3 *)((const char *)y + 4);
  int i = G;
  if (i < n) {
    y[i].y = y[i].y * 3.f;
    y[i].x = x[i].x + 1.f;
    y[i].z = x[i].y - y[i].x;
  }
}

// A byte view of the thread's own element (byte 5: inside y[i].y), read after
// y[i].y's store. Not staged (y then has 1-byte members: the cost rule).
__global__ void view_own_byte(F3 *y, int n) {
  const unsigned char *b = (const unsigned char *)y;
  int i = G;
  if (i < n) {
    y[i].y = y[i].y + 2.f;
    y[i].x = (float)b[12 * i + 5];
    y[i].z = y[i].z * y[i].x;
  }
}

// The right neighbour's z through a view one element on (one = 1 at run
// time): every thread writes only x and y and reads its own z, which nobody
// writes, so the original is race-free; the early load reads the
// neighbour's z where the row copy reads it too. The go checks the view
// against the own element (it misses it). Early.
__global__ void view_neighbour_z(F3 *y, int one, int n) {
  const F3 *x = y + one;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    float z = x[i].z;
    y[i].y = y[i].y * z + y[i].z;
  }
}

// x is another parameter read after y's tile stores, at x[i + 1]: the
// overlap layouts put x 4 bytes after y (x[i + 1] then is inside y's next
// element: one thread, so no race) or before it.
__global__ void param_next(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 0.5f;
    y[i].y = x[i + 1].y + y[i].x;
    y[i].z = x[i + 1].z - x[i].x;
  }
}

// A store to w (a coalesced float array) between two loads of its slot,
// the second through w2 = w + off (off = 0: the same slot, which -O3 cannot
// forward): the first load goes early, the second, after the store, must
// stay and read the stored value. Early (the first load).
__global__ void load_after_store(F3 *y, float *w, int off, int n) {
  const float *w2 = w + off;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    float a = w[i];
    w[i] = a + y[i].x;
    float b = w2[i];
    y[i].y = y[i].y + b;
    y[i].z = a - b;
  }
}

// The first store of the region's first block is to another array, before
// any load of other memory: nothing goes early. Not early.
__global__ void store_first(F3 *y, float *w, const float *v, int n) {
  int i = G;
  if (i < n) {
    w[i] = 1.f;
    y[i].x = y[i].x + v[i];
    y[i].y = y[i].y + w[i];
    y[i].z = y[i].z + v[i] * w[i];
  }
}

// A load, then a store to the same address of a non-staged array, then a
// read back: the early load reads the value before the store; the read back
// (after it) stays in place. Early (the first load).
__global__ void same_address_store(F3 *y, float *w, int n) {
  int i = G;
  if (i < n) {
    float a = w[i];
    y[i].x = y[i].x + a;
    w[i] = a * 2.f + y[i].x;
    y[i].y = y[i].y + w[i];
    y[i].z = y[i].z - a;
  }
}

// After the last member access (the region's first block still): an atomic
// exchange on the thread's own slot of c, then a plain load of the slot, which
// must see the exchanged value. Not staged: an atomic anywhere in the region
// is refused (the early scan would stop at it too); pinned so that a change
// there shows.
__global__ void load_after_atomic(F3 *y, float *c, float *r, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    float old = atomicExch(&c[i], 7.f);
    r[i] = old + c[i];
  }
}

// The same with a volatile store to the slot, then a plain load of it. Not
// staged (a volatile access in the region).
__global__ void load_after_volatile(F3 *y, float *c, float *r, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    ((volatile float *)c)[i] = y[i].y;
    r[i] = c[i] * 3.f;
  }
}

// A volatile load of other memory after the member accesses, then a plain one.
// Not staged (a volatile access in the region).
__global__ void volatile_load(F3 *y, const float *c, float *r, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    float a = ((const volatile float *)c)[i];
    r[i] = a + c[i + 1];
  }
}

// A __threadfence after the member accesses, then a load. Not staged (the
// fence is a call that may touch the elements).
__global__ void load_after_fence(F3 *y, const float *c, float *r, int n) {
  int i = G;
  if (i < n) {
    float a = c[i];
    y[i].x = y[i].x + a;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    __threadfence();
    r[i] = a + c[i + 1];
  }
}

// The kernel's own __shared__ array, written by every thread before a
// __syncthreads, read at another thread's slot in the region. The pass sees
// the shared loads through generic pointers (clang's addrspacecasts) and moves
// them early with v's: after the user's barrier, before the row copies. Early
// (three loads). Every slot is written whatever the block's size (the
// overlap layouts launch one thread: a slot left unwritten would be read
// uninitialized, which the GPU's two runs see as a difference).
__global__ void shared_before(F3 *y, const float *v, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G, first = i - t;
  for (int k = t; k < 128; k += blockDim.x)
    s[k] = first + k < n ? v[first + k] : 0.f;
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + s[(t + 1) % 128];
    y[i].y = y[i].y + v[i];
    y[i].z = y[i].z + s[127 - t];
  }
}

// The same through a generic pointer chosen at run time (flag = 1: the
// shared array): the loads are not in the shared address space and go early.
// Every slot was written before the user's __syncthreads. Early.
__global__ void shared_generic(F3 *y, float *g, int flag, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  for (int k = t; k < 128; k += blockDim.x) // every slot (see shared_before)
    s[k] = (float)(k * 3 + 1);
  __syncthreads();
  float *p = flag ? s : g;
  if (i < n) {
    y[i].x = y[i].x * 0.5f;
    y[i].y = y[i].y + p[(t + 5) & 127];
    y[i].z = y[i].z - p[t ^ 1];
  }
}

// A generic pointer into the kernel's __shared__ array (flag = 1), the
// thread's own slot written in the region and read back through it: the store
// (not to the tile) ends the scan before any load of other memory. Staged, not
// early.
__global__ void shared_written_in_region(F3 *y, float *g, int flag, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  float *p = flag ? s : g;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    p[t] = y[i].x;
    y[i].y = y[i].y + p[t];
    y[i].z = y[i].z + p[t] * 2.f;
  }
}

// A __noinline__ helper that reads through a generic pointer into shared
// memory: inlined by the time the pass stages, its loads go early like the
// others (the slots were written before the user's __syncthreads). Early
// (three loads).
__device__ __noinline__ float read_slot(const float *p, int k) { return p[k]; }
__global__ void shared_helper(F3 *y, const float *v, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G, first = i - t;
  for (int k = t; k < 128; k += blockDim.x) // every slot (see shared_before)
    s[k] = first + k < n ? v[first + k] : 0.f;
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + read_slot(s, 127 - t);
    y[i].y = y[i].y + v[i];
    y[i].z = y[i].z + read_slot(s, t);
  }
}

// An index read from the staged element (c & 127) selects the loads of w
// (__restrict__: no overlap check needed): their addresses depend on a tile
// load and cannot go in front of the copies; v's load can. Early (v's load
// only).
__global__ void index_from_staged(I3 *__restrict__ y, const int *__restrict__ w, const int *__restrict__ v, int n) {
  int i = G;
  if (i < n) {
    int k = y[i].c & 127;
    int e = v[i];
    y[i].a = y[i].a + w[k] + e;
    y[i].b = y[i].b ^ w[(k + 1) & 127];
    y[i].c = k + e;
  }
}

// An index read from other memory, then loads at it: the index load goes
// early, the dependent loads (their address is the index load's value, not
// computable before the copies) stay. Early (idx's load only).
__global__ void index_from_other(F3 *__restrict__ y, const int *__restrict__ idx, const float *__restrict__ w, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 0.5f;
    int k = idx[i] & 255;
    y[i].y = y[i].y + w[k];
    y[i].z = y[i].z * w[k + 1] - (float)k;
  }
}

// Loads behind a condition inside the region (another block than the region's
// first) stay where they are. Early at -O3 (x's load); not staged at -O0 (each
// branch's store to y[i].y is made by only some threads).
__global__ void conditional_load(F3 *y, const float *x, const float *w, int n) {
  int i = G;
  if (i < n) {
    float a = x[i];
    y[i].x = y[i].x + a;
    if (a > 0.f)
      y[i].y = y[i].y + w[i];
    else
      y[i].y = y[i].y - w[i + 1];
    y[i].z = y[i].z * 2.f;
  }
}

// Twelve loads of other memory in the first block: eight go early (the limit),
// the others stay; every value must arrive. Early (eight loads).
__global__ void many_loads(F3 *y, const float *w, int n) {
  int i = G;
  if (i < n) {
    const float *p = w + 12 * i;
    float a0 = p[0], a1 = p[1], a2 = p[2], a3 = p[3], a4 = p[4], a5 = p[5];
    float a6 = p[6], a7 = p[7], a8 = p[8], a9 = p[9], a10 = p[10], a11 = p[11];
    y[i].x = y[i].x + a0 * a1 - a2 + a3;
    y[i].y = y[i].y + a4 * a5 - a6 + a7;
    y[i].z = y[i].z + a8 * a9 - a10 + a11;
  }
}

// Mixed widths: loads of a double, a float, a short and chars of another array
// of 16-byte structs, the staged y a float3. Early (five loads).
__global__ void narrow_members(F3 *y, const M4 *m, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + (float)m[i].d;
    y[i].y = y[i].y + (float)m[i].s + (float)m[i].c;
    y[i].z = y[i].z + m[i].f - (float)m[i].k;
  }
}

// 24-byte elements written: warp tiles (__syncwarp). x read after each
// member's tile load. Early.
__global__ void warp_axpy(D3 *y, const D3 *x, double a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// Warp tiles, x = y at a constant 8 bytes on (x[i].x is y[i].y): the staged
// array's own accesses, nothing early. Staged (warp tiles), not early.
__global__ void warp_view_own(D3 *y, int n) {
  const D3 *x = (const D3 *)((const char *)y + 8);
  int i = G;
  if (i < n) {
    y[i].y = y[i].y + 1.0;
    y[i].x = x[i].x * 2.0;
    y[i].z = x[i].y - y[i].x;
  }
}

// 32-byte elements, four doubles (warp tiles), with a load of the
// neighbour's v through a view one element on (one = 1): v is never written
// (every thread writes x, y, z only). Early.
__global__ void wide_neighbour(D4 *y, const double *w, int one, int n) {
  const D4 *x = y + one;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + w[i];
    double v = x[i].v;
    y[i].y = y[i].y * v;
    y[i].z = y[i].z + y[i].v;
  }
}

// A grid-stride loop: each full iteration staged, the load of x after y's
// first tile store. Early.
__global__ void grid_stride(F3 *y, const F3 *x, float a, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    y[i].x = y[i].x + 1.f;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// A grid-stride loop whose iteration reads, through x = y - s (one grid
// back), the element the thread updated in the previous iteration; in a
// staged iteration another thread wrote those bytes back. The go votes (the
// view's check against the own element), so the refill barrier after the
// write-back is left out: the next iteration's vote barrier is to order it.
// A partial iteration does not vote: it branches to the original code
// before the vote's barrier and reads x[i] while other threads may still be
// writing it back (n = 1000: block 1's third iteration is partial).
// Was a MISCOMPILE at -O3 and -O0 (MISMATCH in the offset layouts under
// every schedule, RACE in the aligned and mixed ones), the same with
// -coalda-stage-early-loads=0: an older staging bug, not the early loads'.
// Fixed: every staged iteration of a grid-stride loop that writes rows back
// ends with a barrier (StagingPlan::endBarrierAfterStores). Early.
__global__ void grid_stride_prev(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// The same with a prologue that writes y before the loop: code outside the
// region writes y, so the staging adds its leading and trailing barriers, and
// the trailing one orders the write-back before the partial iteration. Early.
__global__ void grid_stride_prev_prologue(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  if (G < n)
    y[G].z = 1.f;
  for (int i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// The same with the view's offset a parameter (off = -s at run time): the go
// is uniform (its check is the same for every thread), so the refill barrier
// follows each write-back. Early.
__global__ void grid_stride_prev_param(F3 *y, int off, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y + off;
  for (int i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// Warp tiles in a grid-stride loop with the previous iteration's element read
// back through a view (the refill barrier is a __syncwarp; a warp's row is its
// own threads' elements). Early.
__global__ void warp_grid_stride_prev(D3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const D3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    y[i].x = y[i].x + 1.0;
    y[i].y = y[i].y + x[i].x;
    y[i].z = y[i].z + x[i].z;
  }
}

// A __device__ array written by each thread before a __syncthreads, read at
// the neighbour's slot of the block in the region. Early at -O3; not staged at
// -O0 (the select's load: its address is computed from memory between the
// accesses).
__device__ float early_dev[1024];
__global__ void device_array(F3 *y, const float *v, int n) {
  int i = G;
  if (i < n)
    early_dev[i] = v[i] * 2.f;
  __syncthreads();
  if (i < n) {
    int j = (i & ~127) + ((i + 1) & 127);
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + early_dev[j < n ? j : i];
    y[i].z = y[i].z + early_dev[i];
  }
}

// A prologue writes the thread's own y element and another array w before the
// region (the staging's leading barrier); the region reads w back. At -O3 the
// two guarded blocks are one: the store to w is then the region's first write
// of other memory, before w's loads: staged, not early. At -O0 the loads of w
// go early and read the thread's own prologue store.
__global__ void prologue_other(F3 *y, float *w, int n) {
  int i = G;
  if (i < n) {
    y[i].z = 5.f;
    w[i] = (float)i;
  }
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + w[i];
    y[i].z = y[i].z * w[i];
  }
}

// The region's first block is after a user __syncthreads that every thread
// reaches (no guard): the load of the neighbour's w slot, written before the
// barrier, goes early (after the barrier, before the row copies). Early.
__global__ void after_user_barrier(F3 *y, float *w) {
  int i = G, t = threadIdx.x;
  w[i] = (float)(i * 7);
  __syncthreads();
  y[i].x = y[i].x + 1.f;
  y[i].y = y[i].y + w[(i & ~127) + ((t + 1) & 127)];
  y[i].z = y[i].z * 2.f;
}

// A local recomputed in the region (registers at both levels: -O0 is clang's
// -O0 with mem2reg). Early.
__global__ void local_written(F3 *y, const float *v, int n) {
  int i = G;
  if (i < n) {
    float t = v[i];
    t = t * 2.f;
    y[i].x = y[i].x + t;
    y[i].y = y[i].y + v[i] * t;
    y[i].z = t;
  }
}

// Uniform flag and bound (&&): one branch at -O3 (early); at -O0 the bound's
// branch, then the flag's (an inner guard): early behind both.
__global__ void two_conditions(F3 *y, const F3 *x, int flag, int n) {
  int i = G;
  if (flag && i < n) {
    y[i].x = x[i].x + y[i].x;
    y[i].y = x[i].y + y[i].y;
    y[i].z = x[i].z + y[i].z;
  }
}

// A data-dependent guard: the loaded flag splits warps (warp tiles, each full
// warp by its ballot). Early.
__global__ void data_guard(F3 *y, const F3 *x, const int *c, int n) {
  int i = G;
  if (i < n && c[i]) {
    y[i].x = x[i].x + y[i].x;
    y[i].y = x[i].y + y[i].y;
    y[i].z = x[i].z + y[i].z;
  }
}

// A byte view of the right neighbour's z (one = 1): bytes nobody writes,
// read after the tile stores. Early.
__global__ void neighbour_bytes(F3 *y, int one, int n) {
  const unsigned char *b = (const unsigned char *)(y + one);
  int i = G;
  if (i < n) {
    y[i].x = y[i].x - 1.f;
    float z = (float)b[12 * i + 9];
    y[i].y = y[i].y + z + y[i].z;
  }
}

// The thread writes the right neighbour's z through a view (one = 1) while the
// neighbour updates its x and y only and nobody reads z: race-free. The view
// is staged as a second array (its own tile; its rows overlap y's by one
// element, so the pair's check sends every block to the original at run time):
// its store is a tile store, and w's second load goes early past it. Early
// (two loads).
__global__ void neighbour_z_store(F3 *y, const float *w, int one, int n) {
  F3 *x = y + one;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + w[i];
    x[i].z = (float)i;
    y[i].y = y[i].y * w[i + 1];
  }
}

// Two early returns, the second on a uniform flag (flag = 1: none taken): one
// guard at -O3 (uniform); at -O0 warp tiles. Early.
__global__ void two_returns(F3 *y, const F3 *x, int flag, int n) {
  int i = G;
  if (i >= n)
    return;
  if (!flag)
    return;
  y[i].x = x[i].x + y[i].x;
  y[i].y = x[i].y * y[i].y;
  y[i].z = x[i].z - y[i].z;
}

// A local array indexed at run time (kept in memory at both levels), written
// before the region and read in it, then written and read again: the loads
// before the local store go early, the one after it stays. Early (two loads).
__global__ void local_array(F3 *y, const float *v, int n) {
  float tmp[4];
  int i = G;
  for (int k = 0; k < 4; k++)
    tmp[k] = v[(4 * i + k) % (4 * n)];
  if (i < n) {
    int k = i & 3;
    y[i].x = y[i].x + tmp[k];
    y[i].y = y[i].y + tmp[k ^ 1];
    tmp[k ^ 2] = y[i].x;
    y[i].z = y[i].z + tmp[(i >> 1) & 3];
  }
}

// A store to the thread's own element through a view (zero = 0: the same
// element): the view is staged as a second array, so the store is a tile store
// and x's loads go early past it; the two arrays overlap, and the block goes
// to the original at run time. Early.
__global__ void view_store_then_load(F3 *y, const F3 *x, int zero, int n) {
  float *f = (float *)(y + zero);
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    f[3 * i + 2] = 9.f;
    y[i].y = y[i].y + x[i].y;
    y[i].z = y[i].z + x[i].z;
  }
}

// A whole struct of another array copied to a local in the first block, then
// used: its members' loads go early at -O3; at -O0 the copy is a memcpy, a
// call in the region: not staged.
__global__ void struct_load(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 2.f;
    F3 t = x[i];
    y[i].y = y[i].y + t.x * t.y;
    y[i].z = y[i].z + t.z;
  }
}

// The partner's z (element i ^ 1) read through y itself after the tile
// stores: another element of the staged array, loaded where it is (checked
// against the own element) and early. Every thread's prologue wrote its own
// z before a __syncthreads (the staging's leading barrier orders the row
// loads after it; the early load comes after that barrier too); the region
// writes x and y only. Early.
__global__ void partner_z_prologue(F3 *y, int n) {
  int i = G;
  if (i < n)
    y[i].z = (float)(i * 3);
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    float z = y[i ^ 1].z;
    y[i].y = y[i].y * z + y[i].z;
  }
}

// The partner's z read early in the region, then written by its own thread
// after a __syncthreads (the staging's trailing barrier): the early load
// must read the z from before the epilogue. Early.
__global__ void partner_z_epilogue(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    float z = y[i ^ 1].z;
    y[i].y = y[i].y * z + y[i].z;
  }
  __syncthreads();
  if (i < n)
    y[i].z = y[i].x + y[i].y;
}
