// Adversarial corpus: staging through shared memory (pass/lib/Staging.h).
// A block whose strided member accesses cover each thread's array-of-structs
// element votes (barrier0.and: every thread active, the thread's other
// accesses miss its own elements), loads the loaded rows into a __shared__
// tile, redirects the member accesses to the thread's slot, writes the rows
// back after a barrier; a clone of the region is the fallback. The kernels
// below attack each step: aliasing the vote must catch, accesses before and
// after the region the barriers must order, regions the pass must not take,
// launches the tile does not fit. Each says what the pass does with it
// ("Staged" = transformed at -O3 and -O0 unless said). Launch specs:
// staging.toml; decisions pinned in tests/test_adversarial_staging.py.
#include <cstdint>

struct F3 { float x, y, z; };
struct I3 { int a, b, c; };
struct D3 { double x, y, z; };
struct FD { float f; double d; };                       // 16 bytes, 4 of padding
struct Vec { float4 a; float2 b; float c; int d; };      // 32 bytes, vector members
union U { float f; int i; };
struct __attribute__((packed)) P3 { float x, y, z; };  // 12 bytes, align 1
typedef float f4u __attribute__((ext_vector_type(4), aligned(4)));
struct Q2 { f4u a, b; };                               // 32 bytes, align 4
struct U3 { U a, b, c; };
struct Big { float4 v[12]; };                           // 192 bytes per thread

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// The baseline: a guarded float3 read-modify-write. Staged.
__global__ void rmw_basic(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 2.f + 1.f;
    y[i].y = y[i].y - y[i].x;
    y[i].z = y[i].z + y[i].y;
  }
}

// The same buffer read through x = y + off, off = 0 at run time: x's
// elements are y's. x is read where it is (read-only arrays are not staged),
// its loads interleaved with y's staged stores: the checks against the
// thread's own y element must send every thread to the original. Staged
// (falls back at run time).
__global__ void same_buffer_offset(F3 *y, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = x[i].y + 1.f;
    y[i].y = x[i].z + 2.f;
    y[i].z = x[i].x + 3.f;
  }
}

// The same with off = n: x's rows are the upper half of the buffer, disjoint
// from y's; the checks pass. Staged.
__global__ void same_buffer_far(F3 *y, int off, int n) {
  const F3 *x = y + off;
  int i = G;
  if (i < n) {
    y[i].x = x[i].y + 1.f;
    y[i].y = x[i].z + 2.f;
    y[i].z = x[i].x + 3.f;
  }
}

// The thread's own element read back through a float* 4 bytes into the
// element (y[i].y) and an int* (y[i].x), interleaved with the member stores:
// one array (same base, stride, window), so the reads come from the tile
// after the stores. Staged.
__global__ void reinterpret_own(F3 *y, int n) {
  const float *f = (const float *)((const char *)y + 4);
  const int *w = (const int *)y;
  int i = G;
  if (i < n) {
    y[i].x = f[3 * i] * 0.5f;
    y[i].y = (float)(w[3 * i] & 0xff);
    y[i].z = f[3 * i] + y[i].x;
  }
}

// Another parameter g that may alias y (the overlap layouts put g 4 bytes
// after y): a write and a read of g between the member stores must be
// checked against the thread's own element. Staged (vote with checks).
__global__ void alias_param(F3 *y, float *g, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 1.f + i;
    g[3 * i + 1] = 5.f;
    y[i].y = g[3 * i] * 2.f;
    y[i].z = 3.f;
  }
}

// A pointer chosen by a select among two parameters: p = y when flag. The
// access through p is not a staged access (its base is unknown) but its
// address is computable before the region: checked, overlap, original.
// Staged (falls back at run time when flag).
__global__ void select_alias(F3 *y, F3 *z, int flag, int n) {
  F3 *p = flag ? y : z;
  int i = G;
  if (i < n) {
    y[i].x = 1.f;
    y[i].y = 2.f;
    y[i].z = 3.f;
    p[i].y = p[i].y + 10.f;
  }
}

// The same choice made by a branch (a phi of pointers before the guard).
__global__ void phi_alias(F3 *y, F3 *z, int flag, int n) {
  F3 *p;
  if (flag)
    p = y;
  else
    p = z;
  int i = G;
  if (i < n) {
    y[i].x = 4.f;
    p[i].x = p[i].x * 3.f;
    y[i].y = 5.f;
    y[i].z = p[i].x;
  }
}

// A second view of the staged buffer through an offset loaded from memory
// (ks[0] = 0: the same element), read before y's stores: the view's loads
// are checked against the thread's own element. Staged at -O0 (falls back at
// run time); at -O3 a member copy (a swizzle the copy rewrite refuses), not
// a staging candidate.
__global__ void loaded_offset_alias(F3 *y, const int *ks, int n) {
  int k = ks[0];
  const F3 *q = y + k;
  int i = G;
  if (i < n) {
    float a = q[i].x, b = q[i].y, c = q[i].z;
    y[i].x = b;
    y[i].y = c;
    y[i].z = a;
  }
}

// Prologue (each thread writes a member of its own element, then of its
// right neighbour in the block, after a barrier), the staged update, then a
// barrier and an epilogue that reads the left neighbour's element: the tile
// must be loaded after the prologue and written back before the epilogue.
// Staged.
__global__ void prologue_epilogue(F3 *y, float *r, int n) {
  int t = threadIdx.x, i = G;
  int right = blockIdx.x * blockDim.x + (t + 1) % blockDim.x;
  if (i < n)
    y[i].z = 7.f;
  __syncthreads();
  if (right < n)
    y[right].x = (float)t;
  __syncthreads();
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * y[i].z;
    y[i].z = y[i].x - 1.f;
  }
  __syncthreads();
  int left = blockIdx.x * blockDim.x + (t + blockDim.x - 1) % blockDim.x;
  if (i < n && left < n)
    r[i] = y[left].x + y[left].y + y[left].z;
}

// Epilogue without a barrier of the user's: the thread reads and rewrites a
// member of its own element right after the region (another block), and
// thread 0 reads element 0 of the row after a __syncthreads. Staged.
__global__ void epilogue_own(F3 *y, float *r, int flag, int n) {
  int i = G;
  if (i < n) {
    y[i].x += 1.f;
    y[i].y += 2.f;
    y[i].z += 3.f;
  }
  if (i < n && flag)
    y[i].x = y[i].x * y[i].z;
  __syncthreads();
  if (threadIdx.x == 0)
    r[blockIdx.x] = y[blockIdx.x * blockDim.x].y;
}

// Early return, then the update and a read of the updated element through
// another parameter's index into a second buffer, then more code up to the
// single exit (all of it in the region). Staged.
__global__ void early_return(F3 *y, float *r, int n) {
  int i = G;
  if (i >= n)
    return;
  y[i].x *= 2.f;
  y[i].y *= 3.f;
  y[i].z = y[i].x + y[i].y;
  r[i] = y[i].z;
  if (r[i] > 0.f)
    r[i] = -r[i];
}

// Nested guards: the bound, then a uniform flag. At -O3 one branch; at -O0
// the accesses' block has the flag's branch as its only predecessor, which
// not every thread reaches: left alone at -O0.
__global__ void nested_guard(F3 *y, int flag, int n) {
  int i = G;
  if (i < n) {
    if (flag) {
      y[i].x = -y[i].x;
      y[i].y = -y[i].y;
      y[i].z = -y[i].z;
    }
  }
}

// A guard on a value loaded from another buffer (c[i] == 1 everywhere, so
// every full block votes yes; exact grid). Staged.
__global__ void guard_on_load(F3 *y, const int *c) {
  int i = G;
  if (c[i] == 1) {
    y[i].x = 1.f;
    y[i].y = y[i].x + 2.f;
    y[i].z = 3.f;
  }
}

// A guard on the staged element itself: the load of y[i].a precedes the
// region (in the guard's block). Exact grid. Staged.
__global__ void guard_on_staged(I3 *y) {
  int i = G;
  if (y[i].a != 0x7fffffff) {
    y[i].a = y[i].a + 1;
    y[i].b = y[i].b ^ y[i].a;
    y[i].c = y[i].c - y[i].b;
  }
}

// The kernel's own shared memory and barriers: a block reduction, then the
// update with the block's sum. Staged (tile beside the kernel's 512 bytes).
__global__ void own_shared(F3 *y, const float *v, int n) {
  __shared__ float s[128];
  int t = threadIdx.x, i = G;
  s[t] = i < n ? v[i] : 0.f;
  __syncthreads();
  // (t + w < blockDim.x: the overlap layouts' one-thread launch must not
  // read slots it never wrote; the GPU's leftovers differ between kernels)
  for (int w = 64; w > 0; w >>= 1) {
    if (t < w && t + w < blockDim.x)
      s[t] += s[t + w];
    __syncthreads();
  }
  float sum = s[0];
  if (i < n) {
    y[i].x += sum;
    y[i].y -= sum;
    y[i].z = sum;
  }
  __syncthreads();
  s[t] = -1.f;
}

// __launch_bounds__(64), launched with 64: tiles for 64 threads. Staged.
__global__ void __launch_bounds__(64) bounded(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].z;
    y[i].y = y[i].x;
    y[i].z = y[i].y + 1.f;
  }
}

// 192-byte elements: tiles for 256 threads. Launched with 512 threads (one
// block) the tile does not fit: the original must run; with 256 it is
// staged. Staged.
__global__ void big_elements(Big *y) {
  int i = G;
#pragma unroll
  for (int k = 0; k < 12; k++) {
    float4 a = y[i].v[k];
    y[i].v[k] = make_float4(a.w, a.z + 1.f, a.y, a.x * 2.f);
  }
}
__global__ void big_elements_fit(Big *y) {
  int i = G;
#pragma unroll
  for (int k = 0; k < 12; k++) {
    float4 a = y[i].v[k];
    y[i].v[k] = make_float4(a.w, a.z + 1.f, a.y, a.x * 2.f);
  }
}

// A 2-D block (ntid.y = 4): the row is one tid.y; staging must fall back
// (ntid.y != 1). Staged (falls back at run time).
__global__ void block_2d(F3 *y, int n) {
  int i = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].x += 1.f;
    y[i].y += y[i].x;
    y[i].z += y[i].y;
  }
}

// Blocks of 100 threads (not a multiple of 32), 64-bit index. Staged.
__global__ void block_100(D3 *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].x = y[i].x + y[i].y;
    y[i].y = y[i].y * 2.0;
    y[i].z = y[i].x - y[i].z;
  }
}

// Padding: the stores leave 4 bytes of each element unwritten. Staged; the
// store phase writes back f and d only.
__global__ void padded(FD *y, int n) {
  int i = G;
  if (i < n) {
    y[i].f = y[i].f + 1.f;
    y[i].d = y[i].d * 2.0;
  }
}

// Vector members (float4, float2) beside scalars. Staged.
__global__ void vec_members(Vec *y, int n) {
  int i = G;
  if (i < n) {
    float4 a = y[i].a;
    float2 b = y[i].b;
    y[i].a = make_float4(b.x, b.y, a.x, a.y);
    y[i].b = make_float2(a.z, a.w);
    y[i].c = y[i].c + (float)y[i].d;
    y[i].d = y[i].d + 1;
  }
}

// int3 member-wise, written only (no loads of y). Staged.
__global__ void int3_fill(int3 *y, const int *a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a[i];
    y[i].y = a[i] * 2;
    y[i].z = a[i] + i;
  }
}

// Unions: members written as float and read back as int. Staged.
__global__ void union_members(U3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].a.f = 1.5f;
    y[i].b.i = y[i].a.i + 1;
    y[i].c.f = (float)y[i].b.i + y[i].c.f;
  }
}

// volatile elements. Left alone.
__global__ void volatile_elems(volatile F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = 2.f;
    y[i].z = 3.f;
  }
}

// An atomic between the member stores. Left alone.
__global__ void atomic_inside(F3 *y, int *cnt, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 1.f;
    y[i].y = (float)atomicAdd(cnt, 1) * 0.f;
    y[i].z = 3.f;
  }
}

// An atomic on the staged element after the region (no barrier of the
// user's): the write-back must come first. Staged.
__global__ void atomic_after(I3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].a = 1;
    y[i].b = 2;
    y[i].c = y[i].c + 3;
  }
  if (i < n)
    atomicAdd(&y[i].b, 5);
}

// The same element through two index expressions (j == i). Staged.
__global__ void two_indices(F3 *y, int n) {
  int i = G;
  int j = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < n) {
    y[i].x = 1.f;
    y[j].y = y[i].x + y[j].z;
    y[i].z = y[j].y;
  }
}

// A grid-stride loop: staged on each full iteration (the partial last one
// runs the original code).
__global__ void grid_stride(F3 *y, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    y[i].x += 1.f;
    y[i].y += 1.f;
    y[i].z += 1.f;
  }
}

// A product used on both sides of the region's start (the region begins at
// y.x's load): its add into w before the region, its add into y.x inside.
// The add inside becomes the fma llc fuses it into in the original (split
// off, it would round twice on the GPU; a copy of the multiply would be
// merged back by llc's GVN). Staged.
__global__ void contract_both_sides(F3 *y, const F3 *x, float *w, float a, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    float t = a * x[i].x;
    w[i] = t + 1.0f;
    y[i].x = t + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// Two candidate blocks (two arrays): one staged, the other left alone (one
// staging per kernel). z's update reads y after it. Staged.
__global__ void two_blocks(F3 *y, F3 *z, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 1.f;
    y[i].y = 2.f;
    y[i].z = 3.f;
  }
  __syncthreads();
  if (i < n) {
    z[i].x = y[i].x + z[i].x;
    z[i].y = y[i].y + z[i].y;
    z[i].z = y[i].z + z[i].z;
  }
}

// A __device__ helper writes the members (inlined by the pass at -O0).
__device__ void set3(F3 &e, float a) {
  e.x = a;
  e.y = a + e.z;
  e.z = a * 2.f;
}
__global__ void helper_writes(F3 *y, const float *a, int n) {
  int i = G;
  if (i < n)
    set3(y[i], a[i]);
}

// An unsigned index shifted by one: u = i - 1 wraps for thread 0 of block 0
// (inactive: u >= n), so block 0 runs the original; the others stage rows
// starting at element 128*b - 1 (misaligned for 16-byte units). Staged.
__global__ void shifted_unsigned(F3 *y, unsigned n) {
  unsigned u = blockIdx.x * blockDim.x + threadIdx.x - 1u;
  if (u < n) {
    y[u].x = y[u].y;
    y[u].y = y[u].z;
    y[u].z = y[u].x + 1.f;
  }
}

// i - 1 behind two conditions (i >= 1 and i <= n). At -O3 one branch.
__global__ void shifted_two_conds(F3 *y, int n) {
  int i = G;
  if (i >= 1 && i <= n) {
    y[i - 1].x = y[i - 1].z;
    y[i - 1].y = 2.f;
    y[i - 1].z = y[i - 1].x * 2.f;
  }
}

// A uniform offset that is negative at run time (off = -3, y passed 3
// elements in: the rows start 3 elements before). Staged.
__global__ void negative_offset(F3 *y, int off, int n) {
  int i = G;
  if (i < n) {
    F3 *p = y + 3;
    p[i + off].x += 1.f;
    p[i + off].y += 2.f;
    p[i + off].z += 3.f;
  }
}

// A uniform element of a read-only staged array (x[row0], no lane) read in
// the region beside x[i]. Staged.
__global__ void uniform_read(F3 *y, const F3 *x, int n) {
  int i = G;
  int row0 = blockIdx.x * blockDim.x;
  if (i < n) {
    y[i].x = x[i].x + x[row0].y;
    y[i].y = x[i].y;
    y[i].z = x[i].z;
  }
}

// The read-only array is written (own element, through a float*) after its
// members are read: x is then partly written, so it is not staged; its
// accesses are checked against y. Staged (y only).
__global__ void readonly_written(F3 *y, F3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = x[i].x;
    y[i].y = x[i].y;
    y[i].z = x[i].z;
    ((float *)x)[3 * i + 1] = -1.f;
  }
}

// A loop over another buffer after the stores, inside the guarded region;
// the loop's accesses go through a __restrict__ pointer. -O3 drops the dead
// first store to y[i].x: the element is written whole only with the store
// after the loop, which every thread that ran the others runs (the control
// class steps over the loop). Staged, the loop inside the region.
__global__ void loop_after(F3 *__restrict__ y, const float *__restrict__ w, int m, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 0.f;
    y[i].y = 1.f;
    y[i].z = 2.f;
    float acc = 0.f;
    for (int k = 0; k < m; k++)
      acc += w[k];
    y[i].x = acc;
  }
}

// A loop writing another (possibly aliasing) buffer inside the region: its
// address changes per iteration, so it cannot be checked first. Left alone
// at -O3 (at -O0 the loop's block is not between the accesses: see report).
__global__ void loop_alias(F3 *y, float *w, int m, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 0.f;
    y[i].y = 1.f;
    y[i].z = 2.f;
    for (int k = 0; k < m; k++)
      w[i * m + k] = y[i].y;
  }
}

// A __syncthreads between the member stores (all threads reach it: no
// guard). Left alone (a call between the accesses).
__global__ void sync_inside(F3 *y, float *r) {
  int i = G;
  y[i].x = 1.f;
  y[i].y = 2.f;
  __syncthreads();
  r[i] = y[(i ^ 1)].y;
  y[i].z = 3.f;
}

// A copy (struct assignment) and an update in one kernel: the copy rewrite
// takes the copy, staging is not combined with it. Left alone.
__global__ void copy_and_update(F3 *dst, const F3 *src, F3 *y, int n) {
  int i = G;
  if (i < n) {
    dst[i] = src[i];
    y[i].x += 1.f;
    y[i].y += 1.f;
    y[i].z += 1.f;
  }
}

// Written elements stored twice, the first store of z via another (char)
// pointer into the same element (one array: same base and window).
__global__ void overwrite_bytes(I3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].a = 1;
    y[i].b = 2;
    y[i].c = 3;
    y[i].b = y[i].a + y[i].c;
  }
}

// A __device__ global array staged (no parameter can alias it).
__device__ F3 gbuf[512];
__global__ void device_global(float *r, int n) {
  int i = G;
  if (i < n) {
    gbuf[i].x = (float)i;
    gbuf[i].y = gbuf[i].x * 2.f;
    gbuf[i].z = gbuf[i].y + 1.f;
  }
  __syncthreads();
  if (i < n)
    r[i] = gbuf[i].x + gbuf[i].y + gbuf[i].z;
}

// Some threads leave before the guard (tid >= 100 returns): the guard's
// branch is not reached by every thread at -O0; at -O3 the two conditions
// become one branch that every thread reaches (the returned threads vote no).
__global__ void exit_before(F3 *y, int n) {
  int i = G;
  if (threadIdx.x >= 100)
    return;
  if (i < n) {
    y[i].x += 1.f;
    y[i].y += 2.f;
    y[i].z += 3.f;
  }
}

// The element through a local struct: load, modify a member, store back.
// -O3 does not store z back: staged, x and y written back only; -O0: left
// alone (a memcpy through the local).
__global__ void local_struct(F3 *y, int n) {
  int i = G;
  if (i < n) {
    F3 t = y[i];
    t.x += t.z;
    t.y *= 2.f;
    y[i] = t;
  }
}

// A switch on a uniform flag around the update. Left alone (the accesses
// are not behind one conditional branch).
__global__ void switch_guard(F3 *y, int mode, int n) {
  int i = G;
  if (i < n) {
    switch (mode) {
    case 1:
      y[i].x = 1.f; y[i].y = 2.f; y[i].z = 3.f;
      break;
    case 2:
      y[i].x = 4.f; y[i].y = 5.f; y[i].z = 6.f;
      break;
    default:
      break;
    }
  }
}

// Was a MISCOMPILE (-O3 and -O0; fixed in 1ad4a75: memberWidth() is
// capped by the accesses' declared alignment, so these
// align-1 members are 1-byte members, left alone). Packed records (align 1)
// of 4-byte members at byte offset off = 1 in a byte buffer (a record stream
// after a 1-byte header): the original's member accesses are align 1. The
// member width was 4 (from offsets and widths alone), and emitRowCopy moved
// the row's tail in member-width units with `align 4` unconditionally (only
// the 16- and 8-byte units test the row start): with the row at an odd
// address every `load i32 ... align 4` of the row copy was misaligned
// (emulator: FAULT in every layout and schedule; GPU:
// CUDA_ERROR_MISALIGNED_ADDRESS). Left alone.
__global__ void packed_misaligned(unsigned char *buf, int off, int n) {
  P3 *y = (P3 *)(buf + off);
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
  }
}

// The same packed records at an aligned start (off = 0). Left alone (align-1
// members).
__global__ void packed_aligned(unsigned char *buf, int off, int n) {
  P3 *y = (P3 *)(buf + off);
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
  }
}

// Was a MISCOMPILE (-O3 and -O0; fixed with the one above: the member width
// is now 4). Two 16-byte vector members of a struct aligned to 4 (a vector
// type declared aligned(4)): the original loads and stores `<4 x float> ...
// align 4`. The member width was 16, so emitRowCopy had no narrower unit to
// fall back to and copied the row in `<4 x i32> ... align 16` units without
// testing the row start: rows at a 4-byte aligned address (legal:
// alignof(Q2) = 4) were misaligned (GPU: misaligned address; the emulator
// process itself crashed, SIGSEGV, instead of a FAULT verdict: fixed in
// c47f881). Staged.
__global__ void vec_align4(Q2 *y, int n) {
  int i = G;
  if (i < n) {
    f4u a = y[i].a;
    y[i].a = y[i].b * 2.f;
    y[i].b = a + 1.f;
  }
}

// The kernel's own 43 KB of shared memory: tiles for 256 threads fit beside
// it, 512 do not. Launched with a block of 512 (one full block): the
// original must run; with 256, staged. Staged.
__global__ void big_own_shared(F3 *y, int n) {
  __shared__ float scratch[11008];
  int t = threadIdx.x, i = G;
  for (int k = t; k < 11008; k += blockDim.x)
    scratch[k] = (float)k;
  __syncthreads();
  if (i < n) {
    y[i].x += scratch[t];
    y[i].y += scratch[11007 - t];
    y[i].z = y[i].x - y[i].y;
  }
}
__global__ void big_own_shared_fit(F3 *y, int n) {
  __shared__ float scratch[11008];
  int t = threadIdx.x, i = G;
  for (int k = t; k < 11008; k += blockDim.x)
    scratch[k] = (float)k;
  __syncthreads();
  if (i < n) {
    y[i].x += scratch[t];
    y[i].y += scratch[11007 - t];
    y[i].z = y[i].x - y[i].y;
  }
}

// Blocks of one thread: rows of one element. Staged.
__global__ void one_thread_blocks(D3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].z;
    y[i].y = y[i].y + 1.0;
    y[i].z = y[i].x * 3.0;
  }
}

// A 2-D grid (blockIdx.y in the row's start). Staged.
__global__ void grid_2d_rows(F3 *y, int n) {
  int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i].x = y[i].y;
    y[i].y = y[i].z;
    y[i].z = (float)i;
  }
}

// Two written views of one buffer: y[i] and y[i + off]; off = 0 makes them
// the same element (the second store wins in the original). Staged (falls
// back at run time).
__global__ void two_written_views(F3 *y, int off, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 1.f; y[i].y = 2.f; y[i].z = 3.f;
    y[i + off].x = 4.f; y[i + off].y = 5.f; y[i + off].z = 6.f;
  }
}

// A member-wise copy with one member computed: not a copy for the copy
// rewrite (a computed value), staged instead, beside a read-only source.
__global__ void copy_computed(F3 *dst, const F3 *src, int n) {
  int i = G;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z * 2.f;
  }
}

// Three arrays of three strides in one block: a written float3 row, a
// read-only double3 row and a float chunk of 3 (index 3*i + k); the
// read-only ones are read where they are, checked against y. Staged.
__global__ void mixed_strides(F3 *y, const D3 *d, const float *c, int n) {
  int i = G;
  if (i < n) {
    y[i].x = (float)d[i].x + c[3 * i];
    y[i].y = (float)d[i].y + c[3 * i + 1];
    y[i].z = (float)d[i].z + c[3 * i + 2];
  }
}

// A member read back through a second view y + off after the stores
// (off = 0 at run time: the thread's own element, just written); the view
// reads one member only, so it is an other access, checked. Staged (falls
// back at run time).
__global__ void view_read_after_write(F3 *y, float *r, int off, int n) {
  int i = G;
  if (i < n) {
    y[i].x = 1.f + i;
    y[i].y = 2.f;
    y[i].z = 3.f;
    r[i] = y[i + off].x;
  }
}

// No guard and only __restrict__ pointers: no vote (go = the tile fits). A
// prologue in its own block writes the thread's own member before the
// region, an epilogue reads the element after it: the staging's own leading
// barrier (there is no vote to serve as one) must order the prologue before
// other threads load the row, its trailing barrier the write-back before
// the epilogue. Exact grid. Staged (without a vote).
__global__ void noguard_prologue(F3 *__restrict__ y, const int *__restrict__ c) {
  int i = G;
  if (c[0] == 1)
    y[i].x = (float)threadIdx.x;
  y[i].x += 1.f;
  y[i].y += y[i].x;
  y[i].z += 1.f;
  if (c[1] == 1)
    y[i].z = y[i].z * 2.f + y[i].y;
}

// A __noinline__ helper with 40 KB of shared memory of its own: the tiles
// must fit beside it (48 KB of static shared memory in all), for 512
// threads, not 1024. Staged.
__device__ __noinline__ float helper_shared(int t) {
  __shared__ float big[10240];
  big[t] = (float)t;
  __syncthreads();
  return big[(t + 1) % blockDim.x];
}
__global__ void noinline_shared(F3 *y, int n) {
  int i = G;
  float h = helper_shared(threadIdx.x);
  if (i < n) {
    y[i].x += h;
    y[i].y += 1.f;
    y[i].z = y[i].x;
  }
}

// Transposed stores whose address the storing thread cannot recompute: the
// column offset is loaded from memory (before the guard, which reads it
// too), so each thread's address goes through the address tile. Staged.
__global__ void transpose_loaded_shift(float *out, const float *in, const int *shift, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int s = shift[0];
  if (x < M && y < N - s)
    out[(size_t)x * N + y + s] = in[(size_t)y * M + x];
}

// ... and one it can: the offset is a select on the arguments, a pure
// function the owner's address is recomputed from. Staged.
__global__ void transpose_select_shift(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int s = M > N ? 1 : 0;
  if (x < M && y < N - 1)
    out[(size_t)x * N + y + s] = in[(size_t)y * M + x] * 2.f;
}

// A load and a store after the transposed store, through pointers that may
// alias `out`: the deferred store must not overtake them, so both are
// checked at run time (the load before it is not). Staged.
__global__ void transpose_then_read(float *out, const float *in, float *r, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    out[(size_t)x * N + y] = in[(size_t)y * M + x];
    r[(size_t)y * M + x] = in[(size_t)y * M + x + 1];
  }
}

// Read-modify-written transposed elements (Rodinia gaussian's Fan2 shape).
// The element is read back after its update: the thread reads its own slot,
// which holds what it stored. Staged.
__global__ void transpose_rmw_readback(float *a, float *r, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= M) return;
  if (y >= N) return;
  a[(size_t)x * N + y] = a[(size_t)x * N + y] * 2.f + 1.f;
  r[(size_t)y * M + x] = a[(size_t)x * N + y];
}

// A store through another pointer before the element is read may write the
// element, which the block loads before the region: left alone.
__global__ void transpose_rmw_store_before(float *a, float *w, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    w[(size_t)y * M + x] = 7.f;
    a[(size_t)x * N + y] += 1.f;
  }
}

// The element's column offset is loaded from memory: the block cannot load
// the pieces for the owners. Left alone.
__global__ void transpose_rmw_loaded_offset(float *a, const int *shift, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  int s = shift[0];
  if (x < M && y < N - s)
    a[(size_t)x * N + y + s] += 1.f;
}

// Three early returns, the middle one reading memory (a flag): the chain
// stops there, so the accesses are not behind branches every thread
// reaches. Left alone.
__global__ void transpose_chain_reads(float *out, const float *in, const int *flag, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= M) return;
  if (flag[x] == 0) return;
  if (y >= N) return;
  out[(size_t)x * N + y] = in[(size_t)y * M + x];
}
