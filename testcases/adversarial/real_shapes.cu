// Adversarial corpus: real program shapes. Kernels written the way CUDA
// samples, Rodinia, n-body/SPH particle codes, image filters on struct
// pixels and AoS physics updates are written (float4/double2 members,
// helpers taking the element by reference, templates, struct assignment and
// swaps, __restrict__ / __ldg, unions, packed structs, bit fields, fixed
// arrays inside a record, atomics on a side counter, warp-shuffle
// reductions and user __shared__ memory with __syncthreads beside the staged
// accesses, 2-D grids and 2-D blocks over 1-D record arrays, blocks with
// partial warps), attacking the staging rewrite's claims at their edges:
// elements of 24-64 bytes (warp tiles by the cost rule), the element read
// through another pointer into the same buffer, members updated on some
// paths only, loops and early returns around the region, dynamic shared
// memory, per-thread rows (chunk windows) walked in every order and edited
// in place, grid-stride loops looking back at the thread's last element.
// Every original is deterministic under every schedule (atomics only on
// integer side counters, permuted scatters through a multiplier coprime
// with the sizes, rare data exits so that most warps stay full). Launch
// spec: real_shapes.toml; decisions pinned in
// tests/test_adversarial_real_shapes.py (no miscompile found; the emulator
// crash it found, assert() beside shared memory, is an xfail there, so no
// kernel here calls assert).
#include <cuda_runtime.h>

#define GID (blockIdx.x * blockDim.x + threadIdx.x)

// ---------------------------------------------------------------- n-body
struct Body { float4 pos; float4 vel; };              // 32 B

// nbody sample's integrate step: pos.w is the mass, vel.w unused but kept
__global__ void nbody_integrate(Body *b, float dt, float damping, int n) {
  int i = GID;
  if (i >= n) return;
  float4 p = b[i].pos;
  float4 v = b[i].vel;
  v.x *= damping; v.y *= damping; v.z *= damping;
  p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
  b[i].pos = p;
  b[i].vel = v;
}

// separate pos/vel arrays of float4, the new position written to another
// array (double buffering), the velocity updated in place
__global__ void nbody_double_buffer(float4 *__restrict__ newPos, const float4 *__restrict__ oldPos,
                                    float4 *__restrict__ vel, const float3 *__restrict__ acc, float dt, int n) {
  int i = GID;
  if (i < n) {
    float4 p = oldPos[i];
    float4 v = vel[i];
    float3 a = acc[i];
    v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
    p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
    newPos[i] = p;
    vel[i] = v;
  }
}

// ---------------------------------------------------------------- SPH
struct Particle {            // 40 B
  float3 pos;
  float3 vel;
  float density;
  float pressure;
  float mass;
  int cell;
};

// density and pressure from a fixed neighbour count, reading the other
// particles' positions (never written) through the same array
__global__ void sph_density(Particle *p, float h2, float k, int n) {
  int i = GID;
  if (i >= n) return;
  float3 pi = p[i].pos;
  float rho = 0.0f;
  for (int d = -2; d <= 2; ++d) {
    int j = i + d;
    if (j < 0 || j >= n) continue;
    float3 pj = p[j].pos;
    float dx = pi.x - pj.x, dy = pi.y - pj.y, dz = pi.z - pj.z;
    float r2 = dx * dx + dy * dy + dz * dz;
    if (r2 < h2) rho += p[j].mass * (h2 - r2);
  }
  p[i].density = rho;
  p[i].pressure = k * rho;
}

// full particle update: every member written, the cell id recomputed
__global__ void sph_integrate(Particle *p, float dt, float cellSize, int n) {
  int i = GID;
  if (i >= n) return;
  Particle q = p[i];
  float inv = q.density != 0.0f ? 1.0f / q.density : 0.0f;
  q.vel.x -= q.pressure * inv * dt;
  q.vel.y -= 9.8f * dt;
  q.vel.z *= 0.99f;
  q.pos.x += q.vel.x * dt; q.pos.y += q.vel.y * dt; q.pos.z += q.vel.z * dt;
  q.cell = (int)(q.pos.x / cellSize);
  q.density = 0.0f;
  q.pressure = 0.0f;
  p[i] = q;
}

// boundary handling: members written only on the paths that hit a wall
__global__ void sph_boundary(Particle *p, float lo, float hi, int n) {
  int i = GID;
  if (i >= n) return;
  if (p[i].pos.x < lo) { p[i].pos.x = lo; p[i].vel.x = -0.5f * p[i].vel.x; }
  if (p[i].pos.x > hi) { p[i].pos.x = hi; p[i].vel.x = -0.5f * p[i].vel.x; }
  if (p[i].pos.y < lo) { p[i].pos.y = lo; p[i].vel.y = -0.5f * p[i].vel.y; }
}

// ---------------------------------------------------------------- pixels
struct RGBA { float r, g, b, a; };                    // 16 B
struct RGBf { float r, g, b; };                       // 12 B

// 2-D grid of 2-D blocks over a 1-D pixel array: brightness/contrast
__global__ void image_contrast(RGBA *img, float c, float bright, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int idx = y * width + x;
  RGBA px = img[idx];
  px.r = (px.r - 0.5f) * c + 0.5f + bright;
  px.g = (px.g - 0.5f) * c + 0.5f + bright;
  px.b = (px.b - 0.5f) * c + 0.5f + bright;
  img[idx] = px;
}

// 2-D grid of 1-D blocks (Rodinia style): row = blockIdx.y
__global__ void image_gray_rows(RGBf *out, const RGBf *in, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= width) return;
  int idx = blockIdx.y * width + x;
  float l = 0.299f * in[idx].r + 0.587f * in[idx].g + 0.114f * in[idx].b;
  out[idx].r = l; out[idx].g = l; out[idx].b = l;
}

// alpha blend of two images into the first; pixels whose alpha is not a
// number skipped (rare on random bits: most warps stay full)
__global__ void image_blend(RGBA *dst, const RGBA *__restrict__ src, int n) {
  int i = GID;
  if (i >= n) return;
  float a = __ldg(&src[i].a);
  if (a != a) return;
  dst[i].r = dst[i].r * (1.0f - a) + __ldg(&src[i].r) * a;
  dst[i].g = dst[i].g * (1.0f - a) + __ldg(&src[i].g) * a;
  dst[i].b = dst[i].b * (1.0f - a) + __ldg(&src[i].b) * a;
  dst[i].a = 1.0f;
}

// 2-D block (32 x 4) indexing a 1-D pixel array linearly by the block's
// thread number: each warp owns 32 consecutive pixels
__global__ void image_linear_2d_block(RGBA *img, float gain, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (i >= n) return;
  img[i].r *= gain; img[i].g *= gain; img[i].b *= gain; img[i].a = 1.0f;
}

// same, with 16-wide rows: a warp spans two threadIdx.y rows
__global__ void image_linear_16wide(RGBA *img, float gain, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (i >= n) return;
  img[i].r *= gain; img[i].g *= gain; img[i].b += img[i].r; img[i].a = 0.5f;
}

// ---------------------------------------------------------------- helpers
struct Rec { float x, y, z, w; int id, flags; };      // 24 B

__device__ __forceinline__ void integrate(Rec &r, float dt) {
  r.x += r.w * dt;
  r.y += r.x * dt;
  r.z = r.x + r.y;
  r.flags |= 1;
}

__device__ __noinline__ void integrate_noinline(Rec &r, float dt) {
  r.x += r.w * dt;
  r.y += r.x * dt;
  r.z = r.x + r.y;
  r.flags |= 1;
}

__device__ Rec make_rec(float x, float y, int id) {
  Rec r; r.x = x; r.y = y; r.z = x * y; r.w = 0.0f; r.id = id; r.flags = 0; return r;
}

__global__ void rec_helper_ref(Rec *recs, float dt, int n) {
  int i = GID;
  if (i < n) integrate(recs[i], dt);
}

__global__ void rec_helper_noinline(Rec *recs, float dt, int n) {
  int i = GID;
  if (i < n) integrate_noinline(recs[i], dt);
}

__global__ void rec_make(Rec *out, const float2 *xy, int n) {
  int i = GID;
  if (i >= n) return;
  float2 v = xy[i];
  out[i] = make_rec(v.x, v.y, i);
}

// struct copy of a record from one array to another, then a member patched
__global__ void rec_copy_patch(Rec *out, const Rec *in, int n) {
  int i = GID;
  if (i >= n) return;
  out[i] = in[i];
  out[i].id = i;
}

// whole-struct swap between two arrays
__global__ void rec_swap(Rec *a, Rec *b, int n) {
  int i = GID;
  if (i >= n) return;
  Rec t = a[i];
  a[i] = b[i];
  b[i] = t;
}

// the record updated, then an early return on its new value, then a side
// array written
__global__ void rec_exit_after(Rec *recs, float *out, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  integrate(recs[i], dt);
  if (recs[i].z > 0.0f) return;
  out[i] = recs[i].z;
}

// guard `if (i < n && flag[i])`
__global__ void rec_flag_guard(Rec *recs, const int *flag, float dt, int n) {
  int i = GID;
  if (i < n && flag[i] & 1) integrate(recs[i], dt);
}

// ---------------------------------------------------------------- templates
template <typename T> struct Vec3 { T x, y, z; };

template <typename T>
__global__ void axpy3(Vec3<T> *y, const Vec3<T> *x, T a, int n) {
  int i = GID;
  if (i < n) {
    y[i].x = a * x[i].x + y[i].x;
    y[i].y = a * x[i].y + y[i].y;
    y[i].z = a * x[i].z + y[i].z;
  }
}
template __global__ void axpy3<float>(Vec3<float> *, const Vec3<float> *, float, int);
template __global__ void axpy3<double>(Vec3<double> *, const Vec3<double> *, double, int);

// ---------------------------------------------------------------- members
struct Cell { double2 u; double2 f; int type; int pad; };   // 40 B

__global__ void lbm_cells(Cell *c, double omega, int n) {
  int i = GID;
  if (i >= n) return;
  double2 u = c[i].u, f = c[i].f;
  u.x += omega * (f.x - u.x);
  u.y += omega * (f.y - u.y);
  c[i].u = u;
  c[i].f = make_double2(0.0, 0.0);
  c[i].type = c[i].type + 1;
  c[i].pad = 0;
}

union Bits { float f; unsigned u; };
struct Tagged { Bits v; Bits w; float s; unsigned mask; };  // 16 B

__global__ void union_update(Tagged *t, int n) {
  int i = GID;
  if (i >= n) return;
  t[i].v.u ^= 0x80000000u;           // negate through the bits
  t[i].w.f = t[i].w.f * 2.0f;
  t[i].s = t[i].v.f + t[i].w.f;
  t[i].mask = t[i].v.u & t[i].w.u;
}

struct __attribute__((packed)) PackedRec { int tag; double val; float wt; };  // 16 B, val at 4

__global__ void packed_update(PackedRec *p, int n) {
  int i = GID;
  if (i >= n) return;
  p[i].tag += 1;
  p[i].val *= 0.5;
  p[i].wt = (float)p[i].val;
}

struct Flags { unsigned alive : 1; unsigned kind : 7; unsigned age : 24; float energy; float x, y; };  // 16 B

__global__ void bitfield_update(Flags *f, int n) {
  int i = GID;
  if (i >= n) return;
  f[i].age = f[i].age + 1;
  f[i].energy *= 0.9f;
  f[i].x += f[i].energy;
  f[i].y = f[i].x - 1.0f;
}

struct Account { int id; float balance; float rate; int count; };  // 16 B

// mixed int/float, conditional interest, counter always bumped
__global__ void accounts(Account *acc, int *overdrawn, int n) {
  int i = GID;
  if (i >= n) return;
  float b = acc[i].balance;
  if (b < 0.0f) atomicAdd(overdrawn, 1);
  acc[i].balance = b * (1.0f + acc[i].rate);
  acc[i].count += 1;
  acc[i].rate = acc[i].rate * 0.5f;
  acc[i].id = acc[i].id;
}

// atomic on a side counter between the staged accesses
__global__ void accounts_atomic_inside(Account *acc, int *overdrawn, int n) {
  int i = GID;
  if (i >= n) return;
  float b = acc[i].balance * (1.0f + acc[i].rate);
  acc[i].balance = b;
  if (b < 0.0f) atomicAdd(overdrawn, 1);
  acc[i].count += 1;
  acc[i].rate = acc[i].rate * 0.5f;
}

// ---------------------------------------------------------------- fixed arrays
struct Hist8 { float v[8]; };                         // 32 B
struct Poly7 { float c[7]; };                         // 28 B

__global__ void hist_scale(Hist8 *h, float s, int n) {
  int i = GID;
  if (i >= n) return;
  for (int k = 0; k < 8; ++k) h[i].v[k] *= s;
}

__global__ void poly_horner(Poly7 *p, const float *x, float *y, int n) {
  int i = GID;
  if (i >= n) return;
  float t = x[i], acc = 0.0f;
  for (int k = 6; k >= 0; --k) acc = acc * t + p[i].c[k];
  for (int k = 0; k < 7; ++k) p[i].c[k] = p[i].c[k] * 0.5f;
  y[i] = acc;
}

// prefix sum inside the record
__global__ void hist_prefix(Hist8 *h, int n) {
  int i = GID;
  if (i >= n) return;
  for (int k = 1; k < 8; ++k) h[i].v[k] += h[i].v[k - 1];
}

// ---------------------------------------------------------------- shared, shuffles
struct Atom { float x, y, z, q; float fx, fy, fz; };  // 28 B

// staged update (q is not written: refused), then a warp-shuffle count of
// the hot atoms, lane 0 adds it to a side counter atomically
__global__ void atoms_energy(Atom *a, int *hot, float dt, int n) {
  int i = GID;
  int e = 0;
  if (i < n) {
    a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
    e = a[i].q * (a[i].fx * a[i].fx + a[i].fy * a[i].fy + a[i].fz * a[i].fz) > 1.0f;
    a[i].fx = 0.0f; a[i].fy = 0.0f; a[i].fz = 0.0f;
  }
  for (int o = 16; o > 0; o >>= 1) e += __shfl_down_sync(0xffffffffu, e, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(hot, e);
}

// staged update, then a block reduction through user shared memory
__global__ void atoms_block_sum(Atom *a, float *partial, float dt, int n) {
  __shared__ float cache[128];
  int i = GID;
  float e = 0.0f;
  if (i < n) {
    a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
    a[i].q *= 0.5f;
    e = a[i].x * a[i].q;
    a[i].fx = a[i].y; a[i].fy = a[i].z; a[i].fz = a[i].x;
  }
  cache[threadIdx.x] = e;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = cache[0];
}

// a shared tile of the neighbours' positions loaded first (with a barrier),
// the thread's atom updated from it
__global__ void atoms_shared_neighbours(Atom *a, const float *px, float dt, int n) {
  __shared__ float xs[130];
  int i = GID;
  int t = threadIdx.x + 1;
  xs[t] = i < n ? px[i] : 0.0f;
  if (threadIdx.x == 0) xs[0] = i > 0 && i - 1 < n ? px[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) xs[t + 1] = i + 1 < n ? px[i + 1] : 0.0f;
  __syncthreads();
  if (i >= n) return;
  float lap = xs[t - 1] - 2.0f * xs[t] + xs[t + 1];
  a[i].fx = lap; a[i].fy = lap * 0.5f; a[i].fz = 0.0f;
  a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z = a[i].x; a[i].q = 1.0f;
}

// dynamic shared memory used by the kernel itself (the launch gives
// block * 4 bytes)
__global__ void atoms_dynamic_shared(Atom *a, float *out, float dt, int n) {
  extern __shared__ float dyn[];
  int i = GID;
  float v = 0.0f;
  if (i < n) {
    a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
    a[i].q = 2.0f; a[i].fx = 0.0f; a[i].fy = 1.0f; a[i].fz = 2.0f;
    v = a[i].x;
  }
  dyn[threadIdx.x] = v;
  __syncthreads();
  if (i < n) out[i] = dyn[(threadIdx.x + 1) % blockDim.x];
}

// ---------------------------------------------------------------- aliasing
struct P3 { float x, y, z; };

// the element's member read through a float view of the same buffer
__global__ void view_read_inside(P3 *p, const float *view, float *out, int n) {
  int i = GID;
  if (i >= n) return;
  p[i].x += 1.0f;
  float old_y = view[3 * i + 1];
  p[i].y = old_y * 2.0f;
  p[i].z = p[i].x + p[i].y;
  out[i] = old_y;
}

// ---------------------------------------------------------------- sizes
struct E48 { double a, b, c, d, e, f; };              // 48 B
struct E64 { float4 p, q, r, s; };                    // 64 B

__global__ void elem48_update(E48 *e, double s, int n) {
  int i = GID;
  if (i >= n) return;
  e[i].a *= s; e[i].b += e[i].a; e[i].c = e[i].b - e[i].a;
  e[i].d = s; e[i].e += 1.0; e[i].f = e[i].e * e[i].d;
}

__global__ void elem64_update(E64 *e, float s, int n) {
  int i = GID;
  if (i >= n) return;
  float4 p = e[i].p, q = e[i].q;
  e[i].p = make_float4(p.x * s, p.y * s, p.z * s, p.w);
  e[i].q = make_float4(q.x + p.x, q.y + p.y, q.z + p.z, q.w);
  e[i].r = make_float4(s, s, s, s);
  e[i].s = e[i].r;
}

// grid-stride loop over 28-byte atoms
__global__ void atoms_grid_stride(Atom *a, float dt, int n) {
  for (int i = GID; i < n; i += blockDim.x * gridDim.x) {
    a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
    a[i].q += 1.0f; a[i].fx = 0.0f; a[i].fy = 0.0f; a[i].fz = 0.0f;
  }
}

// a time loop around the update (every thread runs it alike)
__global__ void rec_time_loop(Rec *recs, float dt, int steps, int n) {
  int i = GID;
  if (i >= n) return;
  for (int s = 0; s < steps; ++s) integrate(recs[i], dt);
}

// __launch_bounds__ launched at its bound with a partial last warp (100)
__global__ void __launch_bounds__(100) rec_bounded(Rec *recs, float dt, int n) {
  int i = GID;
  if (i < n) integrate(recs[i], dt);
}

// ================================================================ batch 2:
// the same shapes with every byte of the element written, so they stage

struct Rec6 { float x, y, z, w; int id, flags; };     // 24 B, all written

__device__ __forceinline__ void step6(Rec6 &r, float dt, int i) {
  r.x += r.w * dt;
  r.y += r.x * dt;
  r.z = r.x + r.y;
  r.w *= 0.5f;
  r.id = i;
  r.flags |= 1;
}

__device__ __noinline__ void step6_noinline(Rec6 &r, float dt, int i) {
  r.x += r.w * dt;
  r.y += r.x * dt;
  r.z = r.x + r.y;
  r.w *= 0.5f;
  r.id = i;
  r.flags |= 1;
}

__global__ void rec6_helper(Rec6 *recs, float dt, int n) {
  int i = GID;
  if (i < n) step6(recs[i], dt, i);
}

__global__ void rec6_noinline(Rec6 *recs, float dt, int n) {
  int i = GID;
  if (i < n) step6_noinline(recs[i], dt, i);
}

// pointer to the element, members through ->
__global__ void rec6_pointer(Rec6 *recs, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  Rec6 *r = recs + i;
  r->x += r->w * dt; r->y += r->x * dt; r->z = r->x + r->y; r->w *= 0.5f;
  r->id = i; r->flags |= 2;
}

__global__ void rec6_exit_after(Rec6 *recs, float *out, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  step6(recs[i], dt, i);
  if (recs[i].z > 0.0f) return;
  out[i] = recs[i].z;
}

__global__ void rec6_flag_guard(Rec6 *recs, const int *flag, float dt, int n) {
  int i = GID;
  if (i < n && (flag[i] & 31) != 3) step6(recs[i], dt, i);
}

// a time loop around the update
__global__ void rec6_time_loop(Rec6 *recs, float dt, int steps, int n) {
  int i = GID;
  if (i >= n) return;
  for (int s = 0; s < steps; ++s) step6(recs[i], dt, i);
}

__global__ void __launch_bounds__(100) rec6_bounded(Rec6 *recs, float dt, int n) {
  int i = GID;
  if (i < n) step6(recs[i], dt, i);
}

// zero-initialised then some members set
__global__ void rec6_reset(Rec6 *recs, const float *x, int n) {
  int i = GID;
  if (i >= n) return;
  recs[i] = Rec6{};
  recs[i].x = x[i];
  recs[i].id = i;
}

// read-modify-write of the whole record through a local copy
__global__ void rec6_local_copy(Rec6 *recs, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  Rec6 r = recs[i];
  step6(r, dt, i);
  recs[i] = r;
}

// records updated in a grid-stride loop, dead ones skipped with continue
__global__ void rec6_grid_continue(Rec6 *recs, const unsigned char *alive, float dt, int n) {
  for (int i = GID; i < n; i += blockDim.x * gridDim.x) {
    if ((alive[i] & 31) == 3) continue;
    step6(recs[i], dt, i);
  }
}

// dead particles return early (warp tiles), 2-D block 16 x 8, linear index
struct Pix8 { float4 c; float4 n; };                  // 32 B
__global__ void pix8_2d_exit(Pix8 *p, const unsigned char *alive, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (i >= n) return;
  if ((alive[i] & 31) == 3) return;
  float4 c = p[i].c, m = p[i].n;
  p[i].c = make_float4(c.x * 2.0f, c.y + m.x, c.z + 1.0f, 1.0f);
  p[i].n = make_float4(m.y, m.z, m.w, m.x);
}

// the same without an exit: the cost rule's warp tiles, 2-D block
__global__ void pix8_2d(Pix8 *p, int n) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + t;
  if (i >= n) return;
  float4 c = p[i].c, m = p[i].n;
  p[i].c = make_float4(c.x * 2.0f, c.y + m.x, c.z + 1.0f, 1.0f);
  p[i].n = make_float4(m.y, m.z, m.w, m.x);
}

// 2-D block whose rows index the array: i = (block row) * width + x
__global__ void pix8_rows(Pix8 *p, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int i = y * width + x;
  float4 c = p[i].c, m = p[i].n;
  p[i].c = make_float4(c.x * 2.0f, c.y + m.x, c.z + 1.0f, 1.0f);
  p[i].n = make_float4(m.y, m.z, m.w, m.x);
}

// the kernel's own big shared array beside a 32-byte staged update (the
// tiles fit fewer threads than the launched block)
__global__ void pix8_big_shared(Pix8 *p, float *out, int n) {
  __shared__ float scratch[8192];                     // 32 KB
  int i = GID;
  for (int k = threadIdx.x; k < 8192; k += blockDim.x) scratch[k] = (float)k;
  __syncthreads();
  if (i >= n) return;
  float4 c = p[i].c, m = p[i].n;
  p[i].c = make_float4(c.x * 2.0f, c.y + m.x, c.z + 1.0f, 1.0f);
  p[i].n = make_float4(m.y, m.z, m.w, m.x);
  out[i] = scratch[(i * 7) & 8191];
}

// nbody integrate with the w members written
__global__ void nbody_integrate_w(Body *b, float dt, float damping, int n) {
  int i = GID;
  if (i >= n) return;
  float4 p = b[i].pos;
  float4 v = b[i].vel;
  v.x *= damping; v.y *= damping; v.z *= damping; v.w = 0.0f;
  p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt; p.w = p.w * 1.0f + 0.0f;
  b[i].pos = p;
  b[i].vel = v;
}

// contrast on RGBA with alpha forced (every byte written), 2-D grid/block
__global__ void image_contrast_a(RGBA *img, float c, float bright, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  int idx = y * width + x;
  RGBA px = img[idx];
  px.r = (px.r - 0.5f) * c + 0.5f + bright;
  px.g = (px.g - 0.5f) * c + 0.5f + bright;
  px.b = (px.b - 0.5f) * c + 0.5f + bright;
  px.a = 1.0f;
  img[idx] = px;
}

// SPH integrate writing every member
__global__ void sph_integrate_all(Particle *p, float dt, float cellSize, int n) {
  int i = GID;
  if (i >= n) return;
  Particle q = p[i];
  float inv = q.density != 0.0f ? 1.0f / q.density : 0.0f;
  q.vel.x -= q.pressure * inv * dt;
  q.vel.y -= 9.8f * dt;
  q.vel.z *= 0.99f;
  q.pos.x += q.vel.x * dt; q.pos.y += q.vel.y * dt; q.pos.z += q.vel.z * dt;
  q.cell = (int)(q.pos.x / cellSize);
  q.density = 0.0f;
  q.pressure = 0.0f;
  q.mass *= 0.5f;
  p[i] = q;
}

// SPH: a thread writes its neighbour's density through the same array
// before a barrier, then updates its own particle after it (ordered)
__global__ void sph_barrier_neighbour(Particle *p, float dt, int n) {
  int i = GID;
  if (i < n && threadIdx.x + 1 < blockDim.x && i + 1 < n) p[i + 1].density = 2.0f;
  __syncthreads();
  if (i < n) {
    Particle q = p[i];
    q.vel.x += q.density * dt; q.vel.y += dt; q.vel.z -= dt;
    q.pos.x += q.vel.x; q.pos.y += q.vel.y; q.pos.z += q.vel.z;
    q.density = 0.0f; q.pressure = 1.0f; q.mass += 0.0f; q.cell = i;
    p[i] = q;
  }
  __syncthreads();
  if (i < n && threadIdx.x > 0) p[i - 1].pressure += p[i].pos.x;
}

// LBM cell with every member written
__global__ void lbm_cells_all(Cell *c, double omega, int n) {
  int i = GID;
  if (i >= n) return;
  double2 u = c[i].u, f = c[i].f;
  u.x += omega * (f.x - u.x);
  u.y += omega * (f.y - u.y);
  c[i].u = u;
  c[i].f = make_double2(f.y, f.x);
  c[i].type = c[i].type + 1;
  c[i].pad = 0;
}

// Atom update every member, then a warp reduction of an int count
__global__ void atoms_energy_all(Atom *a, int *hot, float dt, int n) {
  int i = GID;
  int h = 0;
  if (i < n) {
    a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
    h = a[i].q > 0.5f;
    a[i].q *= 0.5f;
    a[i].fx = 0.0f; a[i].fy = 0.0f; a[i].fz = 0.0f;
  }
  for (int o = 16; o > 0; o >>= 1) h += __shfl_down_sync(0xffffffffu, h, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(hot, h);
}

// a shuffle between the staged accesses: each atom's force from its lane
// neighbour's position (registers only); every lane reaches the shuffle
__global__ void atoms_shfl_inside(Atom *a, float dt, int n) {
  int i = GID;
  float x = i < n ? a[i].x : 0.0f;
  float xn = __shfl_xor_sync(0xffffffffu, x, 1);
  if (i < n) {
    a[i].fx = xn - x; a[i].fy = a[i].y; a[i].fz = a[i].z;
    a[i].x = x + a[i].fx * dt; a[i].y += dt; a[i].z -= dt; a[i].q = xn;
  }
}

// atomic counter on a dead particle before the update (warp tiles)
__global__ void atoms_count_dead(Atom *a, const unsigned char *alive, int *dead, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  if ((alive[i] & 31) == 3) { atomicAdd(dead, 1); return; }
  a[i].x += a[i].fx * dt; a[i].y += a[i].fy * dt; a[i].z += a[i].fz * dt;
  a[i].q += 1.0f; a[i].fx = 0.0f; a[i].fy = 0.0f; a[i].fz = 0.0f;
}

// 64-byte element, every member written, read back after by its thread
__global__ void elem64_all(E64 *e, float *out, float s, int n) {
  int i = GID;
  if (i >= n) return;
  float4 p = e[i].p, q = e[i].q;
  e[i].p = make_float4(p.x * s, p.y * s, p.z * s, p.w * s);
  e[i].q = make_float4(q.x + p.x, q.y + p.y, q.z + p.z, q.w + p.w);
  e[i].r = make_float4(s, s, s, s);
  e[i].s = make_float4(q.x, s, p.y, s);
  out[i] = e[i].p.x + e[i].s.z;
}

// union of a float4 and float[4] in a 32-byte record
union Q4 { float4 v; float f[4]; };
struct Two { Q4 a; Q4 b; };
__global__ void union_q4(Two *t, int n) {
  int i = GID;
  if (i >= n) return;
  for (int k = 0; k < 4; ++k) t[i].a.f[k] += t[i].b.f[3 - k];
  t[i].b.v = make_float4(t[i].a.v.x, t[i].a.v.y, 0.0f, 1.0f);
}

// ================================================================ batch 3:
// per-thread rows (chunk windows), read-only matrices, more warp-tile edges

// dense mat-vec, one thread per row (row-major A: the textbook uncoalesced
// kernel); the row length is a run-time argument
__global__ void matvec_rows(float *y, const float *A, const float *x, int ncols, int nrows) {
  int row = GID;
  if (row >= nrows) return;
  float s = 0.0f;
  for (int k = 0; k < ncols; ++k) s += A[row * ncols + k] * x[k];
  y[row] = s;
}

// the same with 32 columns known at compile time (128-byte rows)
__global__ void matvec_rows32(float *y, const float *A, const float *x, int nrows) {
  int row = GID;
  if (row >= nrows) return;
  float s = 0.0f;
  for (int k = 0; k < 32; ++k) s += A[row * 32 + k] * x[k];
  y[row] = s;
}

// normalise each thread's row in place: a sum pass, then a scaling pass
__global__ void row_normalize(float *A, int ncols, int nrows) {
  int row = GID;
  if (row >= nrows) return;
  float s = 0.0f;
  for (int k = 0; k < ncols; ++k) s += fabsf(A[row * ncols + k]);
  float inv = s > 0.0f ? 1.0f / s : 0.0f;
  for (int k = 0; k < ncols; ++k) A[row * ncols + k] *= inv;
}

// kmeans' assignment step: each point's features against every cluster
__global__ void kmeans_assign(int *membership, const float *feat, const float *clusters,
                              int nfeat, int nclusters, int npoints) {
  int p = GID;
  if (p >= npoints) return;
  int best = 0;
  float bestd = 3.0e38f;
  for (int c = 0; c < nclusters; ++c) {
    float d = 0.0f;
    for (int f = 0; f < nfeat; ++f) {
      float t = feat[p * nfeat + f] - clusters[c * nfeat + f];
      d += t * t;
    }
    if (d < bestd) { bestd = d; best = c; }
  }
  membership[p] = best;
}

// kmeans' invert_mapping into a transposed copy plus a per-point norm
__global__ void kmeans_invert_norm(float *out, float *norm, const float *in, int nfeat, int npoints) {
  int p = GID;
  if (p >= npoints) return;
  float s = 0.0f;
  for (int f = 0; f < nfeat; ++f) {
    float v = in[p * nfeat + f];
    out[f * npoints + p] = v;
    s += v * v;
  }
  norm[p] = s;
}

// ELL sparse mat-vec stored row-major (one thread per row): gathers x
__global__ void ell_spmv(float *y, const float *vals, const int *cols, const float *x, int maxnz, int nrows) {
  int row = GID;
  if (row >= nrows) return;
  float s = 0.0f;
  for (int k = 0; k < maxnz; ++k) {
    int c = cols[row * maxnz + k] & 255;
    if (c < nrows) s += vals[row * maxnz + k] * x[c];
  }
  y[row] = s;
}

// per-thread chunk scan with an early break on a sentinel
__global__ void chunk_until_zero(int *count, const int *in, int len, int n) {
  int p = GID;
  if (p >= n) return;
  int k = 0;
  for (; k < len; ++k)
    if ((in[p * len + k] & 15) == 0) break;
  count[p] = k;
}

// rows written in place with a running prefix (read-modify-write chunk)
__global__ void row_prefix(float *A, int ncols, int nrows) {
  int row = GID;
  if (row >= nrows) return;
  for (int k = 1; k < ncols; ++k) A[row * ncols + k] += A[row * ncols + k - 1];
}

struct Mat4 { float m[16]; };                         // 64 B

// skinning: each point transformed by its own 4x4 matrix (read only)
__global__ void mat4_transform(float4 *out, const Mat4 *M, const float4 *v, int n) {
  int i = GID;
  if (i >= n) return;
  float4 p = v[i];
  const float *m = M[i].m;
  out[i] = make_float4(m[0] * p.x + m[1] * p.y + m[2] * p.z + m[3] * p.w,
                       m[4] * p.x + m[5] * p.y + m[6] * p.z + m[7] * p.w,
                       m[8] * p.x + m[9] * p.y + m[10] * p.z + m[11] * p.w,
                       m[12] * p.x + m[13] * p.y + m[14] * p.z + m[15] * p.w);
}

// the matrix trace and determinant-ish per thread, read only, scalar out
__global__ void mat4_trace(float *out, const Mat4 *M, int n) {
  int i = GID;
  if (i < n) {
    float t = 0.0f;
    for (int k = 0; k < 4; ++k) t += M[i].m[5 * k] - M[i].m[4 * k + (3 - k)];
    out[i] = t;
  }
}

// matrices updated in place: M = M * s + I
__global__ void mat4_scale_identity(Mat4 *M, float s, int n) {
  int i = GID;
  if (i >= n) return;
  for (int k = 0; k < 16; ++k) M[i].m[k] = M[i].m[k] * s + ((k % 5) == 0 ? 1.0f : 0.0f);
}

// a 32-byte record: early return on a member of the record itself, then
// the full update (the exit reads the staged array before the region)
__global__ void pix8_exit_on_member(Pix8 *p, int n) {
  int i = GID;
  if (i >= n) return;
  if (p[i].c.w != p[i].c.w) return;   // NaN: rare on random bits
  float4 c = p[i].c, m = p[i].n;
  p[i].c = make_float4(c.x * 2.0f, c.y + m.x, c.z + 1.0f, 1.0f);
  p[i].n = make_float4(m.y, m.z, m.w, m.x);
}

// two 24-byte arrays updated from each other (positions from velocities,
// velocities from forces), both staged
struct V6 { float x, y, z, vx, vy, vz; };             // 24 B
__global__ void two_records(V6 *a, V6 *b, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  a[i].vx += b[i].x * dt; a[i].vy += b[i].y * dt; a[i].vz += b[i].z * dt;
  a[i].x += a[i].vx * dt; a[i].y += a[i].vy * dt; a[i].z += a[i].vz * dt;
  b[i].x = 0.0f; b[i].y = 0.0f; b[i].z = 0.0f;
  b[i].vx = a[i].x; b[i].vy = a[i].y; b[i].vz = a[i].z;
}

// neighbour list: the record's own update, then a read of the previous
// record's (not written) ... every member of the own record is written,
// so the neighbour is read through a separate read-only snapshot
__global__ void snapshot_neighbour(V6 *a, const V6 *snap, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  int j = i > 0 ? i - 1 : n - 1;
  float fx = snap[j].x - snap[i].x;
  a[i].vx += fx * dt; a[i].vy += dt; a[i].vz -= dt;
  a[i].x += a[i].vx * dt; a[i].y += a[i].vy * dt; a[i].z += a[i].vz * dt;
}

// a 24-byte record updated under two nested data conditions that both
// write every member (if/else with the same members on both sides)
__global__ void both_sides(V6 *a, const int *mode, int n) {
  int i = GID;
  if (i >= n) return;
  if (mode[i] & 1) {
    a[i].x = 1.0f; a[i].y = a[i].vx; a[i].z = 2.0f; a[i].vx = 0.0f; a[i].vy = 3.0f; a[i].vz = a[i].x;
  } else {
    a[i].x = -1.0f; a[i].y = a[i].vy; a[i].z = -2.0f; a[i].vx = 1.0f; a[i].vy = -3.0f; a[i].vz = 0.5f;
  }
}

// a record update whose last member store happens after a __syncwarp the
// user placed for a lane exchange through shared memory
__global__ void syncwarp_exchange(V6 *a, float *out, int n) {
  __shared__ float lanes[128];
  int i = GID;
  if (i >= n) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= 1.0f;
  lanes[threadIdx.x] = a[i].x;
  __syncwarp(__activemask());
  a[i].vx = 0.0f; a[i].vy = 1.0f; a[i].vz = 2.0f;
  out[i] = lanes[threadIdx.x];
}

// ================================================================ batch 4:
// per-thread rows walked in other orders and with other writes

// Horner on each thread's coefficient row, highest power first (the chunk
// walked downwards), the row then scaled in place upwards
__global__ void poly_rows_horner(float *y, float *C, const float *x, int ncoef, int n) {
  int r = GID;
  if (r >= n) return;
  float t = x[r], s = 0.0f;
  for (int k = ncoef - 1; k >= 0; --k) s = s * t + C[r * ncoef + k];
  for (int k = 0; k < ncoef; ++k) C[r * ncoef + k] *= 0.5f;
  y[r] = s;
}

// reverse each thread's row in place (two positions per iteration)
__global__ void row_reverse(float *A, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k < ncols / 2; ++k) {
    float a = A[r * ncols + k];
    float b = A[r * ncols + ncols - 1 - k];
    A[r * ncols + k] = b;
    A[r * ncols + ncols - 1 - k] = a;
  }
}

// ReLU on each thread's row: stores only where the value is negative
__global__ void row_relu(float *A, int *neg, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  int c = 0;
  for (int k = 0; k < ncols; ++k) {
    float v = A[r * ncols + k];
    if (v < 0.0f) { A[r * ncols + k] = 0.0f; ++c; }
  }
  neg[r] = c;
}

// softmax of each thread's row: max, sum of exponentials, normalise
__global__ void row_softmax(float *out, const float *in, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  float m = -3.0e38f;
  for (int k = 0; k < ncols; ++k) m = fmaxf(m, in[r * ncols + k]);
  float s = 0.0f;
  for (int k = 0; k < ncols; ++k) s += __expf(in[r * ncols + k] - m);
  for (int k = 0; k < ncols; ++k) out[r * ncols + k] = __expf(in[r * ncols + k] - m) / s;
}

// pitched rows (cudaMallocPitch): the row start from a byte pitch
__global__ void pitched_rows(float *out, float *A, size_t pitch, int width, int n) {
  int r = GID;
  if (r >= n) return;
  float *row = (float *)((char *)A + r * pitch);
  float s = 0.0f;
  for (int k = 0; k < width; ++k) { s += row[k]; row[k] = s; }
  out[r] = s;
}

// each thread's row copied to a transposed output and its running max
// written back over the input (stores to both)
__global__ void row_running_max(float *outT, float *A, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  float m = -3.0e38f;
  for (int k = 0; k < ncols; ++k) {
    float v = A[r * ncols + k];
    outT[k * n + r] = v;
    m = fmaxf(m, v);
    A[r * ncols + k] = m;
  }
}

// the row read, then the next row's first element read through the same
// pointer (not written by anyone): the chunk of the next thread
__global__ void row_with_next(float *out, float *A, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  float s = 0.0f;
  for (int k = 0; k < ncols; ++k) { float v = A[r * ncols + k]; out[r * ncols + k] = v * 2.0f; s += v; }
  out[r * ncols] = s + (r + 1 < n ? A[(r + 1) * ncols] : 0.0f);
}

// a thread-coarsened loop: four elements per thread, unrolled by -O3
__global__ void coarsened4(float *out, const float *in, float a, int n) {
  int t = GID;
  if (4 * t + 3 >= n) return;
  for (int k = 0; k < 4; ++k) out[4 * t + k] = a * in[4 * t + k] + out[4 * t + k];
}

// double-precision rows with an int row length in 64-bit index math
__global__ void drows_scale(double *A, const double *s, long ncols, int n) {
  int r = GID;
  if (r >= n) return;
  for (long k = 0; k < ncols; ++k) A[r * ncols + k] = A[r * ncols + k] * s[r] + 1.0;
}

// ================================================================ batch 5:
// index and memory-space forms of real code

// a per-block base pointer (CUDA samples): mine[threadIdx.x]
__global__ void per_block_base(Rec6 *recs, float dt, int n) {
  Rec6 *mine = recs + blockIdx.x * blockDim.x;
  if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;
  step6(mine[threadIdx.x], dt, threadIdx.x);
}

// two records per thread, a block's worth apart (reduction-kernel style)
__global__ void two_per_thread(Rec6 *recs, float dt, int n) {
  int i = blockIdx.x * 2 * blockDim.x + threadIdx.x;
  if (i < n) step6(recs[i], dt, i);
  if (i + blockDim.x < n) step6(recs[i + blockDim.x], dt, i);
}

// the two halves of the array updated from each other
__global__ void halves(V6 *a, int half) {
  int i = GID;
  if (i >= half) return;
  V6 *lo = a + i, *hi = a + i + half;
  float x = lo->x, y = hi->x;
  lo->x = y; lo->y += 1.0f; lo->z *= 2.0f; lo->vx = 0.0f; lo->vy = x; lo->vz = -1.0f;
  hi->x = x; hi->y -= 1.0f; hi->z *= 0.5f; hi->vx = 1.0f; hi->vy = y; hi->vz = 2.0f;
}

__constant__ float c_coef[8];
__device__ float g_gain[4] = {1.0f, 0.5f, 0.25f, 2.0f};

// coefficients from constant memory and a __device__ table in the region
__global__ void constant_coef(Hist8 *h, int sel, int n) {
  int i = GID;
  if (i >= n) return;
  float g = g_gain[sel & 3];
  for (int k = 0; k < 8; ++k) h[i].v[k] = h[i].v[k] * g + c_coef[k];
}

// a scatter of the updated record's member to a permuted position
__global__ void scatter_after(V6 *a, float *out, float dt, int n) {
  int i = GID;
  if (i >= n) return;
  a[i].vx += dt; a[i].vy -= dt; a[i].vz *= 0.5f;
  a[i].x += a[i].vx; a[i].y += a[i].vy; a[i].z += a[i].vz;
  out[(i * 13 + 5) % n] = a[i].x;   // a permutation: 13 is coprime with the sizes
}

struct Mixed { double a; int b; float c; double d; };  // 24 B, no padding
__global__ void mixed_members(Mixed *m, int n) {
  int i = GID;
  if (i >= n) return;
  m[i].b += 1;
  m[i].a = m[i].a * 0.5 + (double)m[i].b;
  m[i].c = (float)m[i].a;
  m[i].d = m[i].d - m[i].c;
}

// a uniform mode switch, every case writing every member
__global__ void uniform_switch(V6 *a, int mode, int n) {
  int i = GID;
  if (i >= n) return;
  switch (mode) {
  case 0: a[i].x = a[i].vx; a[i].y = a[i].vy; a[i].z = a[i].vz; a[i].vx = 0; a[i].vy = 0; a[i].vz = 0; break;
  case 1: a[i].x += 1; a[i].y += 2; a[i].z += 3; a[i].vx *= 2; a[i].vy *= 2; a[i].vz *= 2; break;
  default: a[i].x = 0; a[i].y = 0; a[i].z = 0; a[i].vx = 1; a[i].vy = 1; a[i].vz = 1; break;
  }
}

// a fixed array in the record updated for the first m entries (m uniform)
__global__ void first_m(Hist8 *h, int m, int n) {
  int i = GID;
  if (i >= n) return;
  for (int k = 0; k < m; ++k) h[i].v[k] += 1.0f;
}

// a record member selected by a uniform argument, plus all members written
__global__ void member_select(Hist8 *h, int k, int n) {
  int i = GID;
  if (i >= n) return;
  float pick = h[i].v[k & 7];
  for (int j = 0; j < 8; ++j) h[i].v[j] = h[i].v[j] - pick;
}

// one block walks the whole array (a block-stride loop, grid of 1)
__global__ void block_stride_records(V6 *a, float dt, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    a[i].vx += dt; a[i].vy -= dt; a[i].vz *= 0.5f;
    a[i].x += a[i].vx; a[i].y += a[i].vy; a[i].z += a[i].vz;
  }
}

// a grid-stride loop over 12-byte points with a 2-D grid (rows of blocks)
__global__ void grid2d_stride(P3 *p, float s, int n) {
  int start = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  for (int i = start; i < n; i += blockDim.x * gridDim.x * gridDim.y) {
    p[i].x *= s; p[i].y = p[i].x + p[i].z; p[i].z -= 1.0f;
  }
}

// ================================================================ batch 6:
// per-thread rows with a leading dimension, interleaved complex parts,
// two row arrays of different strides, explicit unrolling

// BLAS style: row r of an ld-strided matrix, ncols < ld
__global__ void ld_rows_axpy(float *A, const float *x, float alpha, int ld, int ncols, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k < ncols; ++k) A[r * ld + k] += alpha * x[k];
}

// interleaved complex rows: only the real parts scaled, the imaginary
// parts read (magnitude written to a side array)
__global__ void complex_rows(float *Z, float *mag, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  float m = 0.0f;
  for (int k = 0; k < nc; ++k) {
    float re = Z[2 * (r * nc + k)], im = Z[2 * (r * nc + k) + 1];
    m += re * re + im * im;
    Z[2 * (r * nc + k)] = re * 0.5f;
  }
  mag[r] = m;
}

// only the real parts of each row read and written (every other float)
__global__ void complex_real_only(float *Z, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k < nc; ++k) Z[2 * (r * nc + k)] *= -1.0f;
}

// two row arrays of different strides in one loop
__global__ void two_row_arrays(float *A, double *B, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k < nc; ++k) {
    float a = A[r * nc + k];
    double b = B[r * (nc + 3) + k];
    A[r * nc + k] = a + (float)b;
    B[r * (nc + 3) + k] = b * 2.0 - a;
  }
}

// the row length read from memory (uniform), explicit unroll by 4
__global__ void unrolled_rows(float *out, const float *A, const int *ncols, int n) {
  int r = GID;
  if (r >= n) return;
  int nc = ncols[0];
  float s = 0.0f;
#pragma unroll 4
  for (int k = 0; k < nc; ++k) { s += A[r * nc + k]; out[r * nc + k] = s; }
}

// ================================================================ batch 7:
// in-place edits of each thread's own row

// delete the first entry: shift the row left by one, zero the last
__global__ void row_shift_left(float *A, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k + 1 < nc; ++k) A[r * nc + k] = A[r * nc + k + 1];
  A[r * nc + nc - 1] = 0.0f;
}

// insert at the front: shift the row right by one (walking down)
__global__ void row_shift_right(float *A, float v, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = nc - 1; k > 0; --k) A[r * nc + k] = A[r * nc + k - 1];
  A[r * nc] = v;
}

// a permuted scatter inside the own row while reading it in order
__global__ void row_permute(float *A, float *B, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  for (int k = 0; k < nc; ++k) {
    float v = A[r * nc + k];
    B[r * nc + (k * 5) % nc] = v;       // nc = 29: a permutation
    A[r * nc + (k * 3) % nc] += 1.0f;   // writes ahead of and behind the walk
  }
}

// running difference in place, reading the entry the last iteration wrote
__global__ void row_diff(int *A, int nc, int n) {
  int r = GID;
  if (r >= n) return;
  int prev = 0;
  for (int k = 0; k < nc; ++k) {
    int v = A[r * nc + k];
    A[r * nc + k] = v - prev;
    prev = v;
    if (k > 0) A[r * nc + k - 1] ^= A[r * nc + k] & 1;
  }
}

// ================================================================ batch 8:
// Rodinia-style 2-D grids of 1-D blocks with chained early returns

// a 12-byte point per cell: x and y bounds as two early returns
__global__ void grid_cells_p3(P3 *cells, float s, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x >= W) return;
  if (y >= H) return;
  int c = y * W + x;
  cells[c].x = cells[c].y * s; cells[c].y = cells[c].z + s; cells[c].z = cells[c].x - 1.0f;
}

// a 32-byte record per cell, an enable flag argument beside the bounds
__global__ void grid_cells_pix8(Pix8 *cells, int enabled, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (!enabled || x >= W) return;
  if (y >= H) return;
  int c = y * W + x;
  float4 a = cells[c].c, b = cells[c].n;
  cells[c].c = make_float4(b.x, b.y, a.z + 1.0f, a.w * 2.0f);
  cells[c].n = make_float4(a.x, a.y, b.z - 1.0f, b.w * 0.5f);
}

// ================================================================ batch 9:
// grid-stride loops that look back at the thread's previous element

// each iteration reads the thread's previous element's x through a float
// view before the staged update (its own store, one iteration back)
__global__ void stride_look_back(V6 *a, const float *view, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = GID; i < n; i += stride) {
    float prev = i >= stride ? view[6 * (i - stride)] : 0.0f;
    a[i].x += prev; a[i].y = prev; a[i].z *= 2.0f;
    a[i].vx = 1.0f; a[i].vy += a[i].x; a[i].vz = 0.0f;
  }
}

// the same read after the staged update
__global__ void stride_look_back_after(V6 *a, const float *view, float *out, int n) {
  int stride = blockDim.x * gridDim.x;
  for (int i = GID; i < n; i += stride) {
    a[i].x += 1.0f; a[i].y = 2.0f; a[i].z *= 2.0f;
    a[i].vx = 1.0f; a[i].vy += a[i].x; a[i].vz = 0.0f;
    out[i] = i >= stride ? view[6 * (i - stride) + 1] : 0.0f;
  }
}

// an atomic side counter after the update in each iteration, and a
// block-wide phase after the loop reading a neighbour (one block)
__global__ void stride_then_neighbours(V6 *a, int *count, float *out, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    a[i].x += 1.0f; a[i].y *= 0.5f; a[i].z -= a[i].x;
    a[i].vx = a[i].y; a[i].vy = a[i].z; a[i].vz = 3.0f;
    if (a[i].x > 0.0f) atomicAdd(count, 1);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[i] = a[(i + 1) % n].x;
}

// ================================================================ batch 10:
// transposed stores and whole-record copies from image and particle codes

// rotate an RGBA image by 90 degrees: out is H x W, in is W x H... (16-byte
// pixels stored down a column)
__global__ void image_rotate90(RGBA *out, const RGBA *in, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

// transpose of a float matrix with a scale (naive transpose, 2-D blocks)
__global__ void transpose_scale(float *out, const float *in, float s, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = s * in[y * W + x];
}

// Rodinia gaussian Fan2-like: a column updated in place from a row
__global__ void fan2_like(float *a, const float *m, int size, int t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= size - 1 - t || y >= size - t) return;
  a[size * (x + 1 + t) + (y + t)] -= m[size * (x + 1 + t) + t] * a[size * t + (y + t)];
}

// a snapshot copy of the particles whose cell id is valid (data exit)
__global__ void particle_snapshot(Particle *snap, const Particle *p, int n) {
  int i = GID;
  if (i >= n) return;
  if (p[i].cell == -12345) return;
  snap[i] = p[i];
}

// double-buffered records in a grid-stride loop: a pure struct copy
__global__ void rec_copy_stride(Rec6 *dst, const Rec6 *src, int n) {
  for (int i = GID; i < n; i += blockDim.x * gridDim.x) dst[i] = src[i];
}
