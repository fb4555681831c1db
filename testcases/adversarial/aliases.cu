// Adversarial corpus: the alias layout (coalda/check/oracle.py, ALIAS_LAYOUT).
// On the emulator, kernels whose pointers are not all __restrict__ also run
// with EVERY buffer at ONE address, the whole grid, under every schedule.
// Each kernel below is race-free there: a thread reads and writes only bytes
// no other thread writes (its own element, through every pointer, or bytes
// nobody writes), so the original's result does not depend on the schedule
// and the rewrite must produce the same bytes. The rewrites' fast paths
// (block and warp tiles, grid-stride iterations, chunk windows, transposes,
// region copies) are guarded by run-time overlap checks; here they face a
// real overlap, and a check that is missing, too narrow, or a read of one
// pointer moved past a write through another would change the bytes.
// Launch specs: aliases.toml; decisions (and which kernels the alias layout
// checks) pinned in tests/test_adversarial_aliases.py.
#include <cstdint>

struct F3 { float x, y, z; };
struct I3 { int a, b, c; };
struct F4 { float a, b, c, d; };
struct FD { float f; double d; };            // 16 bytes, 4 of padding at 4
struct D3 { double x, y, z; };               // 24 bytes: warp tiles
struct F6 { float a, b, c, d, e, f; };       // 24 bytes of floats
struct D4 { double a, b, c, d; };            // 32 bytes
struct P2 { float u, v; };                   // 8 bytes, align 4

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// ---------------------------------------------------------------- block tiles

// The plain axpy: y[i] += a * x[i], x read before y's member stores. Where
// x is y (alias layout) the staged path must not run: checks x[i] vs y[i].
// Pass: block tile, go uniform, 3 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void axpy(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// x[i].x read AFTER y[i].x was written: where x is y it must see the new
// value, which the staged path keeps in the tile until the store phase.
// Pass: -O3 block tile, go uniform, 2 overlap checks; -O0 block tile, go
//   uniform, 3 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void read_after_write(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 2.f + 1.f;
    y[i].y = x[i].x + y[i].y;
    y[i].z = x[i].y - x[i].x;
  }
}

// x is y's members as a float array: x[3*i+k] is y[i]'s k-th member when x
// is y. Reads interleaved with y's stores, in another order.
// Pass: -O3 block tile, go uniform, 4 overlap checks; -O0 block tile, go
//   vote, 4 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void float_view(F3 *y, const float *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = x[3 * i + 1] + 1.f;
    y[i].y = x[3 * i + 0] + y[i].y;
    y[i].z = x[3 * i + 2] * x[3 * i + 1];
  }
}

// x[3*i+3] is the next element's x member when x is y: another thread's
// element, but a member nobody writes (y.x is never stored here) - race-free
// where x is y, and apart from the thread's own element: staged with the
// check passing, the read must still see the neighbour's unchanged x. The
// last thread reads one float past its element (x holds one more element).
// Pass: -O3 block tile, go uniform, 2 overlap checks; -O0 block tile, go
//   vote, 2 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void float_view_shifted(F3 *y, const float *x, int n) {
  int i = G;
  if (i < n) {
    float nx = x[3 * i + 3];
    y[i].y = y[i].x + nx;
    y[i].z = y[i].z * 2.f + x[3 * i + 3];
  }
}

// An axpy that also writes a third pointer z at the thread's own element
// (another member than y's last store): where all three are one buffer, z's
// store lands in y[i].y after y[i].y was written, and must win.
// Pass: block tile, go uniform, 4 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void axpy_z_third(F3 *y, const F3 *x, F3 *z, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    z[i].y = y[i].x - 1.f;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// Two written arrays of the same type at the same index (w[i] all members,
// y[i] all members, interleaved): two tiles whose store phases write the
// same bytes where w is y; the original's last store of each member wins.
// Pass: block tile, go uniform, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void two_written_arrays(F3 *y, F3 *w, int n) {
  int i = G;
  if (i < n) {
    float a = y[i].x, b = w[i].y;
    y[i].x = a + b;
    w[i].x = a - b;
    w[i].y = y[i].y * 3.f;
    y[i].y = w[i].z + 1.f;
    y[i].z = b;
    w[i].z = a;
  }
}

// A float* z store into the thread's own element (its y member) between y's
// staged stores: where z is y, the later y store of another member and the
// write-back of the tile must not undo it.
// Pass: -O3 block tile, go uniform, 1 overlap check; -O0 block tile, go
//   vote, 1 overlap check.
// Alias layout: checked (matches under all 4 schedules).
__global__ void view_store_own(F3 *y, float *z, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + y[i].z;
    y[i].z = y[i].z * 2.f;
    z[3 * i + 1] = 7.f;
    y[i].x = y[i].x + 1.f;
  }
}

// FD has 4 bytes of padding after f. Each thread writes the NEXT element's
// padding through a char* z (no thread touches its own padding): race-free
// where z is y. The staged write-back must not rewrite the padding from the
// tile (loaded before z's store).
// Pass: block tile, go vote, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void padding_neighbour(FD *y, unsigned char *z, int n) {
  int i = G;
  if (i < n) {
    y[i].f = y[i].f * 2.f;
    z[16 * (i + 1) + 5] = (unsigned char)(i * 7 + 1);
    y[i].d = y[i].d + 1.0;
    y[i].f = y[i].f + (float)y[i].d;
  }
}

// F4's d member is never written by y's stores: each thread writes the next
// element's d through float* z. The write-back must write a, b, c only.
// Pass: block tile, go vote, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void skipped_member_neighbour(F4 *y, float *z, int n) {
  int i = G;
  if (i < n) {
    y[i].a = y[i].a + y[i].b;
    z[4 * (i + 1) + 3] = (float)i;
    y[i].b = y[i].b * 3.f;
    y[i].c = y[i].c - y[i].a;
  }
}

// The bound is loaded from nb[0], which the alias layout puts at y[0]'s
// bytes: y's element 0 is never touched (y is indexed at i+1), so nb[0] is
// read-only there. The loaded bound is masked (random bytes there) and
// clamped to n. x is read at i+1 too.
// Pass: block tile, go uniform, 3 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void bound_from_alias(F3 *y, const F3 *x, const int *nb, int n) {
  int m = min(nb[0] & 511, n);
  int i = G;
  if (i < m) {
    y[i + 1].x = x[i + 1].y + y[i + 1].x;
    y[i + 1].y = x[i + 1].z * y[i + 1].y;
    y[i + 1].z = x[i + 1].x - y[i + 1].z;
  }
}

// An early return before the accesses on a flag read from the thread's own
// element through f (f[i*3] is y[i].x when f is y): reads memory first, so
// warp tiles; x aliases too.
// Pass: warp tile, go warp, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void early_return_alias(F3 *y, const F3 *x, const int *f, int n) {
  int i = G;
  if (i >= n) return;
  if (f[3 * i] & 1) return;
  y[i].y = x[i].z + y[i].y;
  y[i].z = x[i].y * 2.f;
  y[i].x = y[i].x + 2.f;
}

// An 8-byte load through x (P2 at float 4*i+3) that straddles the thread's
// own d (written) and the next element's a (never written: race-free where
// x is y): the check must use the load's 8 bytes. x holds one element more.
// Pass: -O3 block tile, go uniform, 2 overlap checks; -O0 left alone (a call
//   between the accesses may touch the staged elements).
// Alias layout: checked (matches under all 4 schedules).
__global__ void wide_straddle(F4 *y, const float *x, int n) {
  int i = G;
  if (i < n) {
    y[i].d = y[i].a * 2.f;
    P2 p = *(const P2 *)(x + 4 * i + 3);
    y[i].b = y[i].b + p.u;
    y[i].c = y[i].c + p.v;
  }
}

// Even threads read their own c (written) through x, odd threads the
// neighbour's d (never written): only even threads' checks see the
// overlap where x is y, so the block must vote, not take one thread's
// answer.
// Pass: -O3 block tile, go vote, 1 overlap check; -O0 block tile, go vote, 2
//   overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void vote_mixed(F4 *y, const F4 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].c = y[i].c + 1.f;
    float v = (i & 1) ? x[i ^ 1].d : x[i].c;
    y[i].a = y[i].a + v;
    y[i].b = y[i].b * v;
  }
}

// A store through z into the thread's own element after the staged region
// and a read back through x after it: the write-back must come first.
// Pass: -O3 block tile, go uniform, 3 overlap checks; -O0 block tile, go
//   vote, 3 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void z_after_region(F3 *y, float *z, const float *x, float *o, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    if (y[i].z > 0.f) z[3 * i + 1] = 4.f;
    o[3 * i + 2] = x[3 * i] + 1.f;
  }
}

// Stores through z into the thread's own element before the staged region
// (under a branch of its own): the row's load must see them.
// Pass: -O3 block tile, go uniform, 1 overlap check; -O0 block tile, go
//   vote, 1 overlap check.
// Alias layout: checked (matches under all 4 schedules).
__global__ void z_before_region(F3 *y, float *z, int n) {
  int i = G;
  if (i < n) {
    if (i & 1) z[3 * i + 2] = -3.f;
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f + y[i].z;
    y[i].z = y[i].z + 1.f;
  }
}

// ---------------------------------------------------------------- warp tiles

// A 24-byte axpy: warp tiles; x is y in the alias layout.
// Pass: warp tile, go warp, 2 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void warp_axpy(D3 *y, const D3 *x, double a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// Six floats, x read after y's stores to the same members.
// Pass: warp tile, go warp, 5 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void warp_read_after_write(F6 *y, const F6 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].a = y[i].a + 1.f;
    y[i].b = y[i].b * 2.f;
    y[i].c = x[i].a + x[i].b;
    y[i].d = y[i].d - x[i].c;
    y[i].e = x[i].d;
    y[i].f = y[i].f + x[i].e;
  }
}

// A 32-byte update with a third pointer z writing the thread's own b member
// in the middle (z is y in the alias layout).
// Pass: warp tile, go warp, 5 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void warp_z_third(D4 *y, const D4 *x, double *z, int n) {
  int i = G;
  if (i < n) {
    y[i].a = y[i].a + x[i].a;
    y[i].b = y[i].b + x[i].b;
    z[4 * i + 1] = y[i].a * 2.0;
    y[i].c = y[i].c + x[i].b;
    y[i].d = y[i].d + x[i].d;
  }
}

// D4's d is never written: each thread writes the next element's d through
// a double* z in the middle of the update (warp tiles must write back a, b,
// c only).
// Pass: warp tile, go warp, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void warp_neighbour_member(D4 *y, double *z, int n) {
  int i = G;
  if (i < n) {
    y[i].a = y[i].a + 1.0;
    y[i].b = y[i].b * y[i].a;
    z[4 * (i + 1) + 3] = (double)i;
    y[i].c = y[i].c - y[i].b;
  }
}

// ---------------------------------------------------------------- grid-stride

// A grid-stride axpy: each iteration's full row staged; x is y there.
// Pass: block tile, go uniform, 2 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_axpy(F3 *y, const F3 *x, float a, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}

// Each iteration reads x at the element the SAME thread updated on the
// previous iteration (i - s): where x is y, that element was written back by
// another thread of the block in the previous iteration's store phase.
// The read must come after that store phase.
// Pass: block tile, go shape, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_prev_iteration(F3 *y, const F3 *x, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    int j = i >= s ? i - s : i;
    float p = x[j].x;
    y[i].x = y[i].x + p;
    y[i].y = y[i].y * 0.5f + p;
    y[i].z = y[i].z - y[i].x;
  }
}

// Each iteration reads x at the element the same thread updates on the NEXT
// iteration (i + s, when there is one): where x is y, it must read it before
// that iteration's store phase (it does: it is the same thread, later).
// Pass: block tile, go shape, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_next_iteration(F3 *y, const F3 *x, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    float q = i + s < n ? x[i + s].z : 1.f;
    y[i].x = y[i].x + q;
    y[i].y = y[i].y - q;
    y[i].z = y[i].z * 2.f;
  }
}

// Warp tiles per iteration, reading the previous iteration's element of the
// same thread through x after y's first store.
// Pass: warp tile, go warp, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_warp_prev(D3 *y, const D3 *x, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    int j = i >= s ? i - s : i;
    y[i].x = y[i].x + 1.0;
    double p = x[j].y;
    y[i].y = y[i].y + p;
    y[i].z = y[i].z * p;
  }
}

// A grid-stride loop whose threads skip some iterations (alive given by the
// spec, apart), warp tiles only; x is y.
// Pass: warp tile, go warp, 4 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_skip(D4 *y, const D4 *x, const int *alive, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    if (!alive[i]) continue;
    y[i].a = y[i].a + x[i].d;
    y[i].b = y[i].b + x[i].c;
    y[i].c = y[i].c + x[i].b;
    y[i].d = y[i].d + x[i].a;
  }
}

// A grid-stride loop whose x read is the thread's own element on odd
// iterations (overlap where x is y) and its next iteration's element on
// even ones (apart): each iteration must check for itself.
// Pass: block tile, go vote, 1 overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_alternating(F3 *y, const F3 *x, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    int j = ((i / s) & 1) || i + s >= n ? i : i + s;
    y[i].x = y[i].x + 1.f;
    float p = x[j].x;
    y[i].y = y[i].y + p;
    y[i].z = y[i].z * p;
  }
}

// A store through z into the element the same thread updates on the NEXT
// iteration, after the region in its own block of the loop body: another
// thread loads that row on the next iteration.
// Pass: block tile, go shape, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_z_next_after(F3 *y, float *z, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + y[i].y;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - 1.f;
    if (y[i].z > 0.f && i + s < n) z[3 * (i + s) + 1] = (float)i;
  }
}

// Warp tiles per iteration, the store through z into the same thread's
// next element in the region (another lane of the warp loads it next).
// Pass: warp tile, go warp, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void gs_warp_z_next(D3 *y, double *z, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + y[i].y;
    if (i + s < n) z[3 * (i + s) + 2] = (double)i;
    y[i].y = y[i].y * 2.0;
    y[i].z = y[i].z - 1.0;
  }
}

// ---------------------------------------------------------------- copies

// dst[i] = src[i], a struct assignment: the region copy behind its overlap
// check; where dst is src every thread copies its element onto itself.
// Pass: region copy behind its overlap check at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void copy_self(F3 *dst, const F3 *src, int n) {
  int i = G;
  if (i < n) dst[i] = src[i];
}

// dst[i].x = src[i].y, dst[i].y = src[i].x, dst[i].z = src[i].z: a swizzle
// (not a copy); where dst is src the second store reads what the first
// wrote. Stores of values loaded from src.
// Pass: block tile, go uniform, 3 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void copy_swizzle(F3 *dst, const F3 *src, int n) {
  int i = G;
  if (i < n) {
    dst[i].x = src[i].y;
    dst[i].y = src[i].x;
    dst[i].z = src[i].z;
  }
}

// A member-wise copy, then a store through z into the thread's own element
// (float view): where all are one buffer, z's value must survive the copy.
// Pass: -O3 block tile, go uniform, 4 overlap checks; -O0 block tile, go
//   vote, 4 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void copy_then_z(F3 *dst, const F3 *src, float *z, int n) {
  int i = G;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
    z[3 * i + 2] = 5.f;
  }
}

// dst[i] = src[i] with a store to another member through z in between
// (z[3*i+1] is dst[i].y where all are one buffer).
// Pass: -O3 block tile, go uniform, 4 overlap checks; -O0 block tile, go
//   vote, 4 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void copy_z_between(F3 *dst, const F3 *src, float *z, int n) {
  int i = G;
  if (i < n) {
    dst[i].x = src[i].x;
    z[3 * i] = 9.f;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}

// ---------------------------------------------------------------- windows

#define C 24

// out[C*i+k] = f(in[C*i+k], out[C*i+k]): where in is out, each load of in
// is the element about to be overwritten (already read).
// Pass: -O3 warp tile, go warp, 23 overlap checks; -O0 chunk window, go vote,
//   0 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void chunk_inplace(float *out, const float *in, int n) {
  int i = G;
  if (i < n)
    for (int k = 0; k < C; k++)
      out[C * i + k] = in[C * i + k] * 2.f + out[C * i + k];
}

// A prefix sum in place: out[C*i+k+1] written ahead of the read of in at
// k+1 (the next load reads what this iteration stored).
// Pass: -O3 warp tile, go warp, 44 overlap checks; -O0 chunk window, go vote,
//   0 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void chunk_store_ahead(float *out, const float *in, int n) {
  int i = G;
  if (i < n)
    for (int k = 0; k < C - 1; k++)
      out[C * i + k + 1] = in[C * i + k] + in[C * i + k + 1];
}

// An 8-byte struct store (P2, align 4) that straddles the window's edge
// (k+7, k+8) ahead of the loads.
// Pass: -O3 warp tile, go warp, 15 overlap checks; -O0 chunk window, go vote,
//   0 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void chunk_pair_store(float *out, const float *in, int n) {
  int i = G;
  if (i < n)
    for (int k = 0; k < C - 8; k++) {
      P2 p = {in[C * i + k], in[C * i + k] + 1.f};
      *(P2 *)&out[C * i + k + 7] = p;
    }
}

// A byte store into a float of the chunk ahead of the loads (one byte of the
// next float through a char* view).
// Pass: chunk window, go vote, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void chunk_byte_store(float *out, const float *in, unsigned char *b, int n) {
  int i = G;
  if (i < n)
    for (int k = 0; k < C - 1; k++) {
      out[C * i + k] = in[C * i + k] + 1.f;
      b[4 * (C * i + k + 1) + 3] = (unsigned char)k;
    }
}

// A reduction over 128-byte rows (read-only window), its result written to
// the first float of the thread's own row through out (out is in).
// Pass: warp tile, go warp, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void rowsum_into_input(float *out, const float *in, int n) {
  int i = G;
  if (i < n) {
    float s = 0.f;
    for (int k = 0; k < 32; k++) s += in[32 * i + k];
    out[32 * i] = s;
  }
}

// The same reduction after the thread wrote its own row's float 5 through
// out (the window must see it).
// Pass: -O3 warp tile, go warp, 32 overlap checks; -O0 chunk window, go vote,
//   0 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void rowsum_written_before(float *out, const float *in, int n) {
  int i = G;
  if (i < n) {
    out[32 * i + 5] = 1.f;
    float s = 0.f;
    for (int k = 0; k < 32; k++) s += in[32 * i + k];
    out[32 * i + 31] = s;
  }
}

// The same in place update with a run-time chunk length (a window at -O3
// too): in is out there.
// Pass: chunk window, go vote, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void len_inplace(float *out, const float *in, int n, int len) {
  int i = G;
  if (i < n)
    for (int k = 0; k < len; k++)
      out[len * i + k] = in[len * i + k] * 2.f + out[len * i + k];
}

// A run-time-length in place prefix sum: each store is read by the next
// iteration's load of in.
// Pass: chunk window, go vote, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void len_store_ahead(float *out, const float *in, int n, int len) {
  int i = G;
  if (i < n)
    for (int k = 0; k + 1 < len; k++)
      out[len * i + k + 1] = in[len * i + k] + in[len * i + k + 1];
}

// A run-time-length in place reversal through two pointers.
// Pass: chunk window, go vote, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void len_reverse(float *out, const float *in, int n, int len) {
  int i = G;
  if (i < n)
    for (int k = 0; k < len; k++)
      out[len * i + len - 1 - k] = in[len * i + k];
}

// A 128-byte-row reduction that stores a partial sum into its own row
// ahead of the reads (float 20, after summing 16): the later reads see it.
// Pass: warp tile, go warp, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void rowsum_store_midway(float *out, const float *in, int n) {
  int i = G;
  if (i < n) {
    float s = 0.f;
    for (int k = 0; k < 32; k++) {
      s += in[32 * i + k];
      if (k == 15) out[32 * i + 20] = s;
    }
    out[32 * i] = s;
  }
}

// ---------------------------------------------------------------- transposes

// A column store that is a read-modify-write of the thread's own element,
// also read through in at the same address (in is out): race-free there.
// Pass: transposed store, go uniform, 0 overlap checks at -O3 and -O0.
// Alias layout: checked (matches under all 4 schedules).
__global__ void transpose_rmw_own(float *out, const float *in, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) out[x * N + y] = out[x * N + y] * 2.f + in[x * N + y];
}

// A column store, then a read of the same element through in after it (in is
// out): the deferred store must not be read around.
// Pass: -O3 transposed store, go uniform, 2 overlap checks; -O0 transposed
//   store, go vote, 2 overlap checks.
// Alias layout: checked (matches under all 4 schedules).
__global__ void transpose_readback(float *out, const float *in, float *w, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    out[x * N + y] = (float)(x + y);
    w[x * N + y] = in[x * N + y] + 1.f;
  }
}

// A store through w into the thread's own element, then the column
// read-modify-write of it through out: the tile's load of the column
// pieces must see w's value.
// Pass: -O3 transposed store, go uniform, 1 overlap check; -O0 transposed
//   store, go vote, 1 overlap check.
// Alias layout: checked (matches under all 4 schedules).
__global__ void transpose_store_then_rmw(float *out, float *w, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    w[x * N + y] = (float)(x - y);
    out[x * N + y] = out[x * N + y] * 2.f + 1.f;
  }
}

// The read-modify-write with a store through w to the same element between
// the load and the deferred store: out's store must win.
// Pass: -O3 transposed store, go uniform, 1 overlap check; -O0 transposed
//   store, go vote, 1 overlap check.
// Alias layout: checked (matches under all 4 schedules).
__global__ void transpose_rmw_store_between(float *out, float *w, int M, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) {
    float v = out[x * N + y];
    w[x * N + y] = 8.f;
    out[x * N + y] = v + 1.f;
  }
}
