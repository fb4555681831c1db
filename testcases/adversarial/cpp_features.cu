// Adversarial corpus: real-world C++ and CUDA language features around the
// shapes COALDA rewrites (AoS read-modify-writes staged through block and
// warp tiles, region copies, chunk windows, grid-stride loops, transposes).
//
// Each kernel takes one of those shapes and adds a feature: unions read
// through another member, bit fields (32- and 64-bit storage units),
// alignas and packed records, records with holes and arrays inside,
// ext_vector_type(3) members, __half2/__nv_bfloat162 members moved as bits,
// char/short/bool members; templates (element type, functor type, pointer
// to data member, __launch_bounds__ and row length as parameters,
// explicitly instantiated, or instantiated by a host launch with a
// __device__ lambda), functors and lambdas inside kernels, pointers to data
// members, placement new, user-defined copy assignment and operator
// overloads, __noinline__ helper chains, a kernel in an anonymous
// namespace; __restrict__ / __ldg, a volatile member, an atomic on a member
// of the staged element, __threadfence before a last-block ticket,
// __syncwarp and a shuffle, printf and assert, an indirect call through a
// table of function pointers, a pointer laundered through an integer,
// memcpy into a local and back, swaps, a local copy written back; a
// __grid_constant__ struct parameter, __umul24 and 16-bit indices, a 2-D
// block indexed by its linear thread number (cooperative_groups'
// thread_rank), grid-stride loops over functors and lambdas, a range-for
// over a record's array, a templated transpose.
//
// Left out of this file, because each makes the CPU emulator refuse the
// WHOLE module (one kernel would take the oracle away from all the others):
// __half arithmetic and conversions and cooperative_groups (inline PTX in
// the headers), __trap (inline PTX), atomicInc (llvm.nvvm.atomic.load.inc),
// and overloaded kernels (`coalda run` cannot name them).
// tests/test_adversarial_cpp_features.py optimizes the inline-PTX ones from
// its own scratch file and checks the one-line refusals. __ldcs/__stcs/__stwt
// on float do not compile with clang 19's CUDA headers.
//
// Every original is race-free and deterministic in the normal layouts.
// Each kernel says what it attacks and what the pass does with it at -O3
// and -O0 ("block"/"warp": the element staged through block/warp tiles;
// "window": a chunk window; "transposed"; "copy": the region copy of a copy
// group; "left alone" with the report's reason). Launch specs:
// cpp_features.toml (n = 256 and 300: two full blocks of 128 and a partial
// one, unless it says otherwise). Decisions pinned in
// tests/test_adversarial_cpp_features.py.
#include <cassert>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <new>

#define G (blockIdx.x * blockDim.x + threadIdx.x)

struct F3 { float x, y, z; };                                   // 12 B
struct D3 { double x, y, z; };                                  // 24 B

// ================================================================ records

// A union member written as bits and read back as a float, in the same
// element: y[i].a.u flips the sign bit, y[i].b reads the flipped value as a
// float (type punning through the union), c counts. alignas(8) pads the
// 12-byte record to 16: 4 bytes of tail padding nobody touches, which the
// staged write-back must leave alone.
union FU { float f; unsigned u; };
struct alignas(8) U3 { FU a; float b; int c; };                 // 16 B, 4 of padding
// Pass: block tile at -O3 and -O0.
__global__ void union_pun(U3 *y, const U3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].a.u ^= 0x80000000u;
    y[i].b = y[i].a.f * 0.5f + x[i].b;
    y[i].c = y[i].c + (x[i].a.u >> 28);
  }
}

// Bit fields: three fields packed in one 32-bit word (a load, masks and a
// store of the whole word per field update), beside two floats. The fields
// are updated one by one, the middle one from the other array's fields.
struct BF { unsigned lo : 12, mid : 12, hi : 8; float w; float v; };  // 12 B
// Pass: block tile at -O3 and -O0 (the bit-field word is one 4-byte member).
__global__ void bitfield_rmw(BF *y, const BF *x, int n) {
  int i = G;
  if (i < n) {
    y[i].lo = y[i].lo + 1;
    y[i].mid = x[i].hi ^ y[i].mid;
    y[i].hi = y[i].lo >> 4;
    y[i].w = y[i].w * 2.f + y[i].v;
    y[i].v = (float)y[i].mid;
  }
}

// A packed record of a char and three floats: 13-byte elements whose floats
// are 1-byte aligned.
struct __attribute__((packed)) PK { char tag; float x, y, z; }; // 13 B
// Pass: left alone at -O3 and -O0 (1-byte members: the cost rule).
__global__ void packed_rmw(PK *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + y[i].y;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    y[i].tag = y[i].tag + 1;
  }
}

// A record with an array member and a 4-byte hole before the double: the
// array walked by a constant loop, the double updated from it. The hole
// (bytes 12-15) must keep its bytes.
struct PA { float v[3]; double d; };                            // 24 B, hole at 12
// Pass: warp tile at -O3 and -O0 (-O0: the v[] loop and d are two blocks, one staged).
__global__ void padded_array(PA *p, double s, int n) {
  int i = G;
  if (i < n) {
    double acc = 0.0;
    for (int k = 0; k < 3; ++k) {
      p[i].v[k] = p[i].v[k] * 2.f + 1.f;
      acc += p[i].v[k];
    }
    p[i].d = p[i].d * s + acc;
  }
}

// __half2 and __nv_bfloat16 members moved as bits (assignments, no
// arithmetic: that would be inline PTX), beside floats updated in place.
struct HB { __half2 h; __nv_bfloat162 b; float f; float g; };   // 16 B
// Pass: block tile at -O3 and -O0.
__global__ void half_bits(HB *y, const HB *x, int n) {
  int i = G;
  if (i < n) {
    y[i].h = x[i].h;
    y[i].b = y[i].b;
    y[i].f = y[i].f + x[i].g;
    y[i].g = y[i].g * 0.5f;
  }
}

// A record of mixed small members (float, short, char, bool, int) copied by
// struct assignment: a 12-byte memcpy (-O0) or its scalarised members.
struct MX { float x; short s; char c; bool b; int k; };         // 12 B
// Pass: the region copy (a copy group) at -O3 and -O0.
__global__ void small_members_assign(MX *__restrict__ out, const MX *__restrict__ in, int n) {
  int i = G;
  if (i < n) out[i] = in[i];
}

// Bit fields in a 64-bit storage unit (20 + 20 + 8 bits: an i64 load,
// masks and an i64 store per field) beside a float: 16-byte records.
struct BF48 { unsigned long long a : 20, b : 20, c : 8; float w; };  // 16 B
// Pass: block tile at -O3 and -O0.
__global__ void bitfield48(BF48 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].a = y[i].b + 1;
    y[i].c = y[i].a >> 3;
    y[i].w = y[i].w * 2.f;
  }
}

// clang's ext_vector_type(3): each member is loaded as <4 x float> and
// stored as <4 x float> whose fourth lane is poison (the member's padding).
// 32-byte records.
typedef float f3v __attribute__((ext_vector_type(3)));
struct EV2 { f3v p; f3v v; };                                   // 32 B
// Pass: warp tile at -O3 and -O0.
__global__ void ext_vec3_pair(EV2 *y, float dt, int n) {
  int i = G;
  if (i < n) {
    y[i].v = y[i].v * 0.5f;
    y[i].p = y[i].p + y[i].v * dt;
  }
}

// ================================================================ templates, functors, lambdas

template <typename T> struct Vec3 { T x, y, z; };

struct Axpy {
  float a;
  __device__ Axpy(float a_) : a(a_) {}
  template <typename T> __device__ T operator()(T y, T x) const { return (T)a * x + y; }
};
struct Swizzle {
  template <typename T> __device__ void operator()(Vec3<T> &e) const {
    T t = e.x;
    e.x = e.z;
    e.z = e.y + t;
    e.y = t;
  }
};

// A template kernel over the element type, with a functor constructed from
// a scalar argument applied member by member. Instantiated for float
// (12-byte records: block tiles) and double (24 bytes: warp tiles).
// Pass: float: block tile; double: warp tile (-O3 and -O0).
template <typename T>
__global__ void tmpl_functor(Vec3<T> *y, const Vec3<T> *x, float a, int n) {
  Axpy op(a);
  int i = G;
  if (i < n) {
    y[i].x = op(y[i].x, x[i].x);
    y[i].y = op(y[i].y, x[i].y);
    y[i].z = op(y[i].z, x[i].z);
  }
}
template __global__ void tmpl_functor<float>(Vec3<float> *, const Vec3<float> *, float, int);
template __global__ void tmpl_functor<double>(Vec3<double> *, const Vec3<double> *, float, int);

// The functor type as a template parameter, applied to the element by
// reference (a swizzle of the members through a temporary).
// Pass: block tile at -O3 and -O0.
template <typename Op, typename T>
__global__ void tmpl_op_ref(Vec3<T> *y, int n) {
  Op op;
  int i = G;
  if (i < n) op(y[i]);
}
template __global__ void tmpl_op_ref<Swizzle, float>(Vec3<float> *, int);

// A lambda capturing by reference updates members passed by reference; the
// later calls read members the earlier ones wrote.
// Pass: -O3 block tile; -O0 left alone (the captured references are loaded from the closure
// between the accesses).
__global__ void lambda_ref(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  auto bump = [&](float &v, float d) { v = v * a + d; };
  if (i < n) {
    bump(y[i].x, x[i].x);
    bump(y[i].y, y[i].x);
    bump(y[i].z, x[i].z - y[i].y);
  }
}

// A lambda capturing the element's pointer by value, returning a reference
// to a member picked by a run-time-uniform-free compile-time switch.
// Pass: -O3 warp tile; -O0 left alone (no candidate: the member addresses come from the closure).
__global__ void lambda_member_ref(D3 *y, int n) {
  int i = G;
  if (i < n) {
    D3 *e = &y[i];
    auto m = [e](int k) -> double & { return k == 0 ? e->x : k == 1 ? e->y : e->z; };
    m(0) += 1.0;
    m(2) = m(0) * m(1);
    m(1) -= m(2);
  }
}

// Pointers to data members: the members visited through a table of
// `double D3::*` (constant offsets once folded; at -O0 the offsets are
// loaded from a local array until the loop is unrolled).
// Pass: warp tile at -O3 and -O0 (-O0 unrolls the loop whole, and SROA folds the offsets).
__global__ void member_pointers(D3 *y, double s, int n) {
  int i = G;
  if (i < n) {
    double D3::*ms[3] = {&D3::z, &D3::x, &D3::y};
    for (int k = 0; k < 3; ++k) y[i].*ms[k] = y[i].*ms[k] * s + (double)k;
  }
}

// A kernel template over a pointer to data member (a template argument):
// one instantiation updates one member of three.
// Pass: block tile at -O3 and -O0 (the store phase writes back only y).
template <float F3::*M> __global__ void bump_member(F3 *y, int n) {
  int i = G;
  if (i < n) y[i].*M = y[i].*M * 2.f + 1.f;
}
template __global__ void bump_member<&F3::y>(F3 *, int);

// A kernel template instantiated by a host launch with a __device__ lambda
// as its functor argument (passed by value: an empty byval struct
// parameter); its name carries the lambda's type.
// Pass: block tile at -O3 and -O0.
template <class F> __global__ void apply(F3 *y, int n, F f) {
  int i = G;
  if (i < n) f(y[i]);
}

// ================================================================ helpers

__device__ __noinline__ float leaf(float v, float w) { return v * 0.5f + w; }
__device__ __noinline__ void upd_elem(F3 *e, const F3 *src) {
  e->x = leaf(e->x, src->y);
  e->y = leaf(e->y, e->x);
  e->z = leaf(src->z, e->z);
}

// A __noinline__ helper takes the element's address and calls another
// __noinline__ helper per member: the accesses live in a callee.
// Pass: block tile at -O3 and -O0 (the helpers are inlined into a copy of the kernel).
__global__ void noinline_chain(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) upd_elem(&y[i], &x[i]);
}

// A kernel in an anonymous namespace (internal linkage, launched from a
// host function below) that rebuilds the element with placement new.
namespace {
// Pass: block tile at -O3 and -O0.
__global__ void placement_anon(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    float a = y[i].x;
    new (&y[i]) F3{x[i].z, a, x[i].x + a};
  }
}
}  // namespace

void launch_all(F3 *y, int n) {
  apply<<<1, 1>>>(y, n, [] __device__(F3 & e) {
    e.x *= 2.f;
    e.y += e.x;
    e.z -= 1.f;
  });
  placement_anon<<<1, 1>>>(y, y, n);
}

// ================================================================ restrict, ldg, volatile, atomics

// const __restrict__ read through __ldg (llvm.nvvm.ldg calls at -O3) into
// a read-modify-write of y.
// Pass: block tile at -O3 and -O0.
__global__ void ldg_axpy(F3 *__restrict__ y, const F3 *__restrict__ x, float a, int n) {
  int i = G;
  if (i < n) {
    y[i].x = a * __ldg(&x[i].x) + y[i].x;
    y[i].y = a * __ldg(&x[i].y) + y[i].y;
    y[i].z = a * __ldg(&x[i].z) + y[i].z;
  }
}

// A volatile member beside plain ones: the plain members are updated, the
// volatile one is read (once) and never written. A write-back of the whole
// element would write the volatile member.
struct VZ { float x, y; volatile float flag; };                 // 12 B
// Pass: left alone at -O3 and -O0 (an access to y is volatile).
__global__ void volatile_member(VZ *y, float *out, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * y[i].x;
    out[i] = y[i].flag;
  }
}

// atomicAdd on a member of the very element being updated, between the
// plain member updates: the atomic's result must not be overwritten by a
// staged write-back of that member.
// Pass: left alone at -O3 and -O0 (an atomic between the accesses).
__global__ void atomic_own_member(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 2.f;
    atomicAdd(&y[i].z, 1.f);
    y[i].y = y[i].y + y[i].x;
  }
}

// threadFenceReduction's last-block pattern: every thread updates its
// element, fences, and the block takes a ticket; the last block to finish
// sums every element (in index order: deterministic). The staged stores
// must be in memory before the fence and the ticket, or the last block reads
// stale elements.
// Pass: block tile at -O3 and -O0; the store phase is before the fence, and the
// last block's reads of every element see the staged stores.
__global__ void fence_ticket(F3 *y, float *sum, unsigned *ticket, int n) {
  __shared__ bool last;
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * 0.5f + 1.f;
    y[i].y = y[i].y + y[i].x;
    y[i].z = y[i].x - y[i].y;
  }
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) last = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (last && threadIdx.x == 0) {
    float s = 0.f;
    for (int k = 0; k < n; ++k) s += y[k].x + y[k].y + y[k].z;
    *sum = s;
  }
}

// An indirect call through a __device__ table of function pointers between
// the member updates; the callee writes a member of the same element.
__device__ void bump_y(F3 *e) { e->y += 1.f; }
__device__ void bump_z(F3 *e) { e->z *= 2.f; }
typedef void (*ElemFn)(F3 *);
__device__ ElemFn elem_fns[2] = {bump_y, bump_z};
// Pass: left alone at -O3 and -O0 (an indirect call between the accesses).
__global__ void fnptr_table(F3 *y, int sel, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    elem_fns[sel & 1](&y[i]);
    y[i].y = y[i].y * 3.f + y[i].x;
    y[i].z = y[i].z - y[i].y;
  }
}

// The middle member reached through an integer: (float *)((uintptr_t)y +
// 12*i + 4) (inttoptr of the base's address plus the offset), read and
// written between the member accesses through y.
// Pass: block tile at -O3 and -O0, but its staged path never runs: the laundered
// pointer is checked for overlap with the thread's own element, which it is
// always inside (every block takes the original code).
__global__ void int_laundered(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    float *al = (float *)((uintptr_t)y + (size_t)i * sizeof(F3) + 4);
    *al = *al * 2.f + y[i].x;
    y[i].z = y[i].z + *al;
  }
}

// ================================================================ warp collectives

// __syncwarp after the region, then a shuffle of the updated member from
// the lane above (registers only) stored to a side array.
// Pass: block tile at -O3 and -O0.
__global__ void syncwarp_shfl_after(F3 *y, float *out, int n) {
  int i = G;
  float v = 0.f;
  if (i < n) {
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - 1.f;
    v = y[i].x;
  }
  __syncwarp();
  float up = __shfl_down_sync(0xffffffffu, v, 1);
  if (i < n) out[i] = up;
}

// ================================================================ printf, assert

// printf after the region, printing a member read back (always called).
// Pass: left alone at -O3 and -O0 (vprintf is a call between the accesses: it reads the
// members back after the stores).
__global__ void printf_after(F3 *y, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + y[i].x;
    y[i].z = y[i].z * 2.f;
    if (i == 0) printf("y[0] = %f %f %f\n", y[i].x, y[i].y, y[i].z);
  }
}

// assert on a scalar argument inside the region (true at run time, not
// foldable): a __assertfail call under a branch between the accesses.
// Pass: left alone at -O3 and -O0 (__assertfail is a call between the accesses).
__global__ void assert_inside(F3 *y, int lim, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    assert(lim > i);
    y[i].y = y[i].y + y[i].x;
    y[i].z = y[i].z * 2.f;
  }
}

// ================================================================ pointers, memcpy, assignment

// The element memcpy'd into a local, modified, memcpy'd back.
// Pass: left alone at -O3 (the memcpy'd members are 1-byte aligned loads: "a packed
// struct") and -O0 (x's read-only elements; y's memcpys are calls).
__global__ void memcpy_local(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    F3 e;
    memcpy(&e, &y[i], sizeof e);
    e.x = e.x + x[i].y;
    e.z = e.z * e.x;
    memcpy(&y[i], &e, sizeof e);
  }
}

// The element copied to a local by assignment, modified, assigned back
// (24-byte record).
// Pass: warp tile at -O3 and -O0 (SROA splits the struct copies at both levels).
__global__ void local_copy_back(D3 *y, const D3 *x, int n) {
  int i = G;
  if (i < n) {
    D3 e = y[i];
    D3 s = x[i];
    e.x += s.z;
    e.y *= e.x;
    e.z = s.x - e.y;
    y[i] = e;
  }
}

// A swap of two members of the element through a helper template
// (std::swap's shape), then the third negated.
// Pass: block tile at -O3 and -O0.
template <typename T> __device__ void swp(T &a, T &b) { T t = a; a = b; b = t; }
__global__ void swap_members(F3 *y, int n) {
  int i = G;
  if (i < n) {
    swp(y[i].x, y[i].z);
    y[i].y = -y[i].y;
  }
}

// A user-defined copy assignment that swizzles (a = o.c, b = o.b + 1, c =
// o.a): `out[i] = in[i]` is no memcpy.
struct C3 {
  float a, b, c;
  __device__ C3 &operator=(const C3 &o) {
    a = o.c;
    b = o.b + 1.f;
    c = o.a;
    return *this;
  }
};
// Pass: block tile at -O3 and -O0 (a computed, swizzled store: no copy group).
__global__ void user_assign(C3 *out, const C3 *in, int n) {
  int i = G;
  if (i < n) out[i] = in[i];
}

// helper_math.h-style operator overloads on records returned by value:
// y[i] = y[i] + x[i] * a (a struct copy of the result at -O0).
__device__ F3 operator+(F3 a, F3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
__device__ F3 operator*(F3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
// Pass: -O3 block tile; -O0 left alone (the returned record is memcpy'd).
__global__ void op_overload(F3 *y, const F3 *x, float a, int n) {
  int i = G;
  if (i < n) y[i] = y[i] + x[i] * a;
}

// ================================================================ launch shapes

// __launch_bounds__ from a template parameter (64, minBlocks 4), launched
// at 64 with a partial last block.
// Pass: block tile at -O3 and -O0.
template <int B>
__global__ void __launch_bounds__(B, 4) tmpl_bounds(F3 *y, const F3 *x, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x + x[i].z;
    y[i].y = y[i].y * x[i].y;
    y[i].z = y[i].z - x[i].x;
  }
}
template __global__ void tmpl_bounds<64>(F3 *, const F3 *, int);

// A 2-D block (32 x 4) whose linear thread number indexes the records:
// i = blockIdx.x * (bdx*bdy) + (ty*bdx + tx), the way cg's thread_rank()
// is computed.
// Pass: block tile at -O3 and -O0, but a block with ntid.y > 1 always runs the
// original code: the 32x4 launch never takes the staged path.
__global__ void rank_2d(F3 *y, int n) {
  unsigned rank = threadIdx.y * blockDim.x + threadIdx.x;
  int i = blockIdx.x * (blockDim.x * blockDim.y) + rank;
  if (i < n) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + y[i].x;
    y[i].z = y[i].z * y[i].y;
  }
}

// The old CUDA idiom: the index from __umul24 (llvm.nvvm.mul24.ui).
// Pass: block tile at -O3 and -O0.
__global__ void mul24_index(F3 *y, int n) {
  int i = __umul24(blockIdx.x, blockDim.x) + threadIdx.x;
  if (i < n) {
    y[i].x *= 2.f;
    y[i].y += y[i].x;
    y[i].z -= 1.f;
  }
}

// A 16-bit index type (a template parameter): the thread index truncated
// to short, compared with a short bound, sign-extended into the address.
// Pass: left alone at -O3 and -O0 (no staging candidate: the 16-bit index is not
// recognised as the lane index).
template <typename I>
__global__ void idx_type(F3 *y, I n) {
  I i = (I)(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) {
    y[i].x *= 2.f;
    y[i].y += y[i].x;
    y[i].z -= 1.f;
  }
}
template __global__ void idx_type<short>(F3 *, short);

// A __grid_constant__ struct of scalars (a byval parameter, read in param
// space) drives the update.
struct Coef { float a, b, c; };
// Pass: block tile at -O3 and -O0.
__global__ void gridconst_scalars(F3 *y, const __grid_constant__ Coef k, int n) {
  int i = G;
  if (i < n) {
    y[i].x = y[i].x * k.a + k.b;
    y[i].y += k.c * y[i].x;
    y[i].z = y[i].z * k.a;
  }
}

// ================================================================ grid-stride loops

// A grid-stride loop applying a functor through a template helper.
template <typename Op> __device__ void for_each_gs(F3 *y, int n, Op op) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) op(y[i]);
}
struct Damp {
  float k;
  __device__ void operator()(F3 &e) const { e.x *= k; e.y = e.y * k + e.x; e.z -= e.y; }
};
// Pass: block tile per iteration at -O3 and -O0.
__global__ void gs_functor(F3 *y, float k, int n) {
  for_each_gs(y, n, Damp{k});
}

// A grid-stride loop with a by-value lambda on 24-byte records (warp tiles).
// Pass: warp tile per iteration at -O3 and -O0.
__global__ void gs_lambda(D3 *y, const D3 *x, double dt, int n) {
  auto step = [=](D3 &e, const D3 &v) { e.x += v.x * dt; e.y += v.y * dt; e.z = e.z * 0.5 + v.z; };
  for (int i = G; i < n; i += blockDim.x * gridDim.x) step(y[i], x[i]);
}

// ================================================================ chunk windows

// Each thread's row of 24 floats inside a record, walked with a range-based
// for by reference.
struct Row24 { float v[24]; };
// Pass: -O3 warp tile (the 24-float loop unrolled); -O0 left alone (no candidate: the
// range-for's pointer is stepped in a loop).
__global__ void range_for_row(Row24 *r, float s, int n) {
  int i = G;
  if (i < n)
    for (float &e : r[i].v) e = e * s + 1.f;
}

// A compile-time row length as a template parameter, the row read into a
// running sum and scaled in place.
// Pass: -O3 warp tile (unrolled); -O0 chunk window.
template <int N>
__global__ void tmpl_chunk(float *a, int n) {
  int i = G;
  if (i < n) {
    float s = 0.f;
    for (int k = 0; k < N; ++k) s += a[i * N + k];
    float inv = s != 0.f ? 1.f / s : 0.f;
    for (int k = 0; k < N; ++k) a[i * N + k] *= inv;
  }
}
template __global__ void tmpl_chunk<24>(float *, int);

// ================================================================ transposes

// The naive transpose as a template over the element type, through a
// lambda computing the flat index; 32 x 8 blocks, partial edge blocks.
// Pass: transposed at -O3 and -O0.
template <typename T>
__global__ void tmpl_transpose(T *out, const T *in, int M, int N) {
  auto at = [](int r, int c, int w) { return (size_t)r * w + c; };
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < M && y < N) out[at(x, y, N)] = in[at(y, x, M)] + (T)1;
}
template __global__ void tmpl_transpose<float>(float *, const float *, int, int);
