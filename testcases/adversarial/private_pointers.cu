// Private pointers (pass/lib/PrivateMemory.cpp): the analysis leaves out
// of the report every access whose address can only point into the
// thread's own memory (its allocas), reasoning over the kernel and every
// function it calls as a closed world. A global access read as private
// silently disappears from the report. Each kernel below says what it
// attacks: most make a load or store that really touches GLOBAL memory (a
// parameter's buffer, a __device__ variable, malloc'd memory) reachable
// only through a pointer that was kept in, or passed through, the thread's
// own memory; a few are really private and must stay out of the report.
//
// Analysis only (the report of `coalda analyze`, -O3): no launch spec, not
// in the oracle's corpus (tests/test_adversarial.py leaves it out). Each
// access that must be listed sits on a line of its own, tagged by a
// trailing comment (an at-sign and a name); tests/test_private_pointers.py
// says, per kernel, which tags and in which space, and that no access on
// another line is listed. Integer parameters k, j, m, n, z, d are run-time
// values (k = j, z = 0, n = 1 at launch, as each kernel says) that keep
// the optimizer from folding the thread's local arrays away; local arrays
// start from t, not constants (a copy from a constant initializer is
// memory the thread does not own: it would open the world by itself).
#include <new>
#include <cuda/std/utility>

#define T (blockIdx.x * blockDim.x + threadIdx.x)

struct Holder { float **slot; };
struct Cover { float *p; int n; };
struct Pair { float *a; float *b; };

__device__ float *dev_buffer;   // a __device__ pointer the host sets
__device__ float dev_array[1024];

// ============================================= attacks that found holes
// Each of these hid its global read. All are fixed in PrivateMemory.cpp but
// the integer ones (int_pun_union, host_words, int_escape, and
// atomic_into_local further down), which tests/test_private_pointers.py
// keeps as strict xfails.

// A struct taken by value by a device function deeper than the pass
// inlines (four levels): its copy holds the address of the kernel's local
// pointer array, and the callee stores the global g through it. The load
// of loc[0] then reads g[t]: global memory through a pointer loaded from a
// local array.
__device__ __noinline__ void plant(Holder h, float *g) { *h.slot = g; }
__device__ __noinline__ void plant4(float **s, float *g) { Holder h{s}; plant(h, g); }
__device__ __noinline__ void plant3(float **s, float *g) { plant4(s, g); }
__device__ __noinline__ void plant2(float **s, float *g) { plant3(s, g); }
__device__ __noinline__ void plant1(float **s, float *g) { plant2(s, g); }
__global__ void byval_deep_plant(float *out, float *g) {
  int t = T;
  float x = 1;
  float *loc[1] = {&x};
  plant1(loc, g + t);
  float v = *loc[0];  // @byval_read
  out[t] = v;         // @byval_out
}

// The address of a local array of pointers leaves for global memory in a
// memcpy (of a run-time length, so it stays a memcpy; n = 1 at launch),
// comes back as a pointer loaded from global memory, and g + t is stored
// through it into ptrs[0]. The load through ptrs[0] reads g[t].
__global__ void memcpy_escape(float *out, float *g, float ***gslot, int n) {
  int t = T;
  float x = 1;
  float *ptrs[1] = {&x};
  float **pp[1] = {ptrs};
  __builtin_memcpy(gslot + t, pp, n * sizeof(float **));
  float **back = gslot[t];  // @escape_slot
  back[0] = g + t;          // @escape_plant
  float v = ptrs[0][0];     // @escape_read
  out[t] = v;               // @escape_out
}

// A global pointer turned into an integer (ptrtoint of a pointer that is
// not private is no escape) and written into a local union array as its
// integer member; read back as the pointer member (j = k at launch), it is
// g + t: a pointer made of an integer without an inttoptr.
union Word { float *p; unsigned long long u; };
__global__ void int_pun_union(float *out, float *g, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  Word w[4];
  for (int i = 0; i < 4; ++i) w[i].p = a + i;
  w[k & 3].u = (unsigned long long)(g + t);
  float v = *w[j & 3].p;  // @pun_read
  out[t] = v;             // @pun_out
}

// Device addresses the host wrote as 64-bit integers (an array of
// unsigned long long: read as such, the load's alias tag says "long long").
// memcpy gives a local pointer their bytes (the well-defined way to pun);
// the load through it reads global memory.
__global__ void host_words(float *out, const unsigned long long *words, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  unsigned long long w = words[t];  // @words_word
  __builtin_memcpy(&ptrs[k & 3], &w, sizeof w);
  float v = *ptrs[j & 3];           // @words_read
  out[t] = v;                       // @words_out
}

// A private address leaves as an integer: its bytes are read from a local
// array as a 64-bit word (no ptrtoint), xor-ed with key (0 at launch, so
// no longer a plain copy of a word) and stored into global memory; read
// back there as a pointer (z = 0: the same slot), g + t is stored through
// it into loc[0], whose load then reads g[t].
union Slot { float **pp; unsigned long long u; };
__global__ void int_escape(float *out, float *g, Slot *slots, unsigned long long key, int k, int z) {
  int t = T;
  float x = 1;
  float *loc[1] = {&x};
  float **holder[2] = {loc, loc};
  unsigned long long bits;
  __builtin_memcpy(&bits, &holder[k & 1], sizeof bits);
  slots[t].u = bits ^ key;         // @intesc_store
  float **back = slots[t + z].pp;  // @intesc_slot
  back[0] = g + t;                 // @intesc_plant
  float v = *loc[0];               // @intesc_read
  out[t] = v;                      // @intesc_out
}

// A table of device pointers read as words by memcpy (the well-defined way
// to read a pointer's bytes), one word chosen between a table's and a
// local pointer's by a select, and memcpy'd into a local pointer slot: a
// word copied from memory to memory, through a select.
__global__ void select_words(float *out, float *const *table, const int *f, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  unsigned long long gw, lw;
  __builtin_memcpy(&gw, &table[t], sizeof gw);  // @sw_word
  __builtin_memcpy(&lw, &ptrs[j & 3], sizeof lw);
  unsigned long long w = f[t] ? gw : lw;        // @sw_flag
  __builtin_memcpy(&ptrs[k & 3], &w, sizeof w);
  float v = *ptrs[j & 3];                       // @sw_read
  out[t] = v;                                   // @sw_out
}

// The same copy through a double (memcpy in and out): the word is a
// floating-point load and store.
__global__ void double_words(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  double d;
  __builtin_memcpy(&d, &table[t], sizeof d);  // @dw_word
  __builtin_memcpy(&ptrs[k & 3], &d, sizeof d);
  float v = *ptrs[j & 3];                     // @dw_read
  out[t] = v;                                 // @dw_out
}

// The same copy byte by byte through unsigned char (defined for any
// object): clang makes it two <4 x i8> loads and stores.
__global__ void bytewise_copy(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  const unsigned char *src = reinterpret_cast<const unsigned char *>(&table[t]);
  unsigned char *dst = reinterpret_cast<unsigned char *>(&ptrs[k & 3]);
  for (int i = 0; i < 8; ++i)
    dst[i] = src[i];       // @bw_copy
  float v = *ptrs[j & 3];  // @bw_read
  out[t] = v;              // @bw_out
}

// The same copy in two 32-bit halves, each memcpy'd on its own.
__global__ void half_words(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  const char *src = reinterpret_cast<const char *>(&table[t]);
  char *dst = reinterpret_cast<char *>(&ptrs[k & 3]);
  unsigned lo, hi;
  __builtin_memcpy(&lo, src, sizeof lo);      // @hw_lo
  __builtin_memcpy(&hi, src + 4, sizeof hi);  // @hw_hi
  __builtin_memcpy(dst, &lo, sizeof lo);
  __builtin_memcpy(dst + 4, &hi, sizeof hi);
  float v = *ptrs[j & 3];                     // @hw_read
  out[t] = v;                                 // @hw_out
}

// A private address's bytes, read as a word (no ptrtoint), handed as an
// integer to a function called through a pointer table the kernel reads
// (poke is outside the analysis's scope: only direct calls are followed);
// poke makes it a pointer again and stores g + t through it into loc[0].
__device__ __noinline__ void poke(unsigned long long addr, float *g) {
  *reinterpret_cast<float **>(addr) = g;
}
__device__ void (*pokers[1])(unsigned long long, float *) = {poke};
__global__ void word_to_callee(float *out, float *g, int k) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  float **holder[2] = {loc, loc};
  unsigned long long bits;
  __builtin_memcpy(&bits, &holder[k & 1], sizeof bits);
  pokers[0](bits, g + t);  // @wc_table
  float v = *loc[0];       // @wc_read
  out[t] = v;              // @wc_out
}

// The same word handed down five calls (past the inliner's four levels) to
// a function that stores it into a global union slot; read back there as
// a pointer (z = 0), g + t is stored through it into loc[0].
__device__ __noinline__ void keep5(unsigned long long w, Slot *s) { s->u = w; }
__device__ __noinline__ void keep4(unsigned long long w, Slot *s) { keep5(w, s); }
__device__ __noinline__ void keep3(unsigned long long w, Slot *s) { keep4(w, s); }
__device__ __noinline__ void keep2(unsigned long long w, Slot *s) { keep3(w, s); }
__device__ __noinline__ void keep1(unsigned long long w, Slot *s) { keep2(w, s); }
__global__ void word_deep_escape(float *out, float *g, Slot *slots, int k, int z) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  float **holder[2] = {loc, loc};
  unsigned long long bits;
  __builtin_memcpy(&bits, &holder[k & 1], sizeof bits);
  keep1(bits, &slots[t]);
  float **back = slots[t + z].pp;  // @wde_slot
  back[0] = g + t;                 // @wde_plant
  float v = *loc[0];               // @wde_read
  out[t] = v;                      // @wde_out
}

// The other way: a table's pointer read as a word, handed down five calls
// to a function that memcpy's it into the kernel's local pointer slot.
__device__ __noinline__ void put5(unsigned long long w, void *dst) { __builtin_memcpy(dst, &w, sizeof w); }
__device__ __noinline__ void put4(unsigned long long w, void *dst) { put5(w, dst); }
__device__ __noinline__ void put3(unsigned long long w, void *dst) { put4(w, dst); }
__device__ __noinline__ void put2(unsigned long long w, void *dst) { put3(w, dst); }
__device__ __noinline__ void put1(unsigned long long w, void *dst) { put2(w, dst); }
__global__ void word_deep_import(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  unsigned long long w;
  __builtin_memcpy(&w, &table[t], sizeof w);  // @wdi_word
  put1(w, &ptrs[k & 3]);
  float v = *ptrs[j & 3];                     // @wdi_read
  out[t] = v;                                 // @wdi_out
}

// Pointer bytes returned as an integer by a function five calls down, which
// memcpy's them out of the memory it is given: a table's pointer, memcpy'd
// into the kernel's local pointer slot...
__device__ __noinline__ unsigned long long word5(const void *p) {
  unsigned long long w;
  __builtin_memcpy(&w, p, sizeof w);
  return w;
}
__device__ __noinline__ unsigned long long word4(const void *p) { return word5(p); }
__device__ __noinline__ unsigned long long word3(const void *p) { return word4(p); }
__device__ __noinline__ unsigned long long word2(const void *p) { return word3(p); }
__device__ __noinline__ unsigned long long word1(const void *p) { return word2(p); }
__global__ void word_returned_import(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  unsigned long long w = word1(&table[t]);
  __builtin_memcpy(&ptrs[k & 3], &w, sizeof w);
  float v = *ptrs[j & 3];  // @wri_read
  out[t] = v;              // @wri_out
}

// ... and a private address, stored into a global union slot, read back
// there as a pointer (z = 0): g + t stored through it lands in loc[0].
__global__ void word_returned_escape(float *out, float *g, Slot *slots, int k, int z) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  float **holder[2] = {loc, loc};
  slots[t].u = word1(&holder[k & 1]);  // @wre_store
  float **back = slots[t + z].pp;      // @wre_slot
  back[0] = g + t;                     // @wre_plant
  float v = *loc[0];                   // @wre_read
  out[t] = v;                          // @wre_out
}

// ============================================ global through private memory

// A local struct array whose pointer field is g on one path and a local
// array on the other (k picks the slot, j reads it back).
__global__ void field_two_paths(float *out, float *g, const int *f, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  Cover c[2];
  c[0].p = a;
  c[1].p = a;
  if (f[t] > 0)     // @two_flag
    c[k & 1].p = g + t;
  else
    c[k & 1].p = a + 1;
  float v = c[j & 1].p[0];  // @two_read
  out[t] = v;               // @two_out
}

// A recursive function (never inlined into itself) that returns its global
// argument at the bottom and a local array's element on the way up.
__device__ __noinline__ float *pick(float *g, float *local, int d) {
  if (d <= 0)
    return g;
  float *q = pick(g, local, d - 1);
  return (d & 1) ? local + (d & 3) : q;
}
__global__ void recursive_returns_global(float *out, float *g, int d) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *p = pick(g + t, a, d);
  float v = *p;  // @rec_read
  out[t] = v;    // @rec_out
}

// A local array of pointers filled by memcpy from global memory (a table of
// device pointers the host wrote), read at a run-time index.
__global__ void memcpy_pointer_table(float *out, float *const *table, int j) {
  int t = T;
  float *ptrs[4];
  __builtin_memcpy(ptrs, table, sizeof ptrs);  // @table_copy
  float v = ptrs[j & 3][t];  // @table_read
  out[t] = v;                // @table_out
}

// A pointer stored into a local slot, then overwritten with g through a
// second alias of the same slot (k = j at launch).
__global__ void alias_overwrite(float *out, float *g, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *slots[4] = {a, a + 1, a + 2, a + 3};
  float **alias = &slots[k & 3];
  *alias = g + t;
  float v = *slots[j & 3];  // @alias_read
  out[t] = v;               // @alias_out
}

// Structs of pointers copied between locals with __builtin_memcpy, one
// field global (the copy of a run-time slot keeps them in memory).
__global__ void struct_memcpy(float *out, float *g, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  Pair src[2] = {{a, a + 1}, {g + t, a + 2}};
  Pair dst[2];
  __builtin_memcpy(&dst[k & 1], &src[j & 1], sizeof(Pair));
  __builtin_memcpy(&dst[(k + 1) & 1], &src[(j + 1) & 1], sizeof(Pair));
  float v = *dst[j & 1].a;  // @smc_read
  out[t] = v;               // @smc_out
}

// A pointer returned by a function whose address is taken, called through
// a table of function pointers and directly: it returns its global argument.
__device__ __noinline__ float *identity(float *p) { return p; }
__device__ __noinline__ float *second(float *p) { return p + 1; }
__device__ float *(*const pickers[2])(float *) = {identity, second};
__global__ void fnptr_returns(float *out, float *g, int k) {
  int t = T;
  float *p = pickers[k & 1](g + t);
  float *q = identity(g + t);
  float v = *p;  // @fnp_read
  float w = *q;  // @fnp_direct
  out[t] = v + w;  // @fnp_out
}

// A local array of pointers indexed by the thread index: the thread's own
// entry is g + t, the others are local (z = 0 at launch: its own entry).
__global__ void tid_indexed(float *out, float *g, unsigned z) {
  int t = T;
  float a[32];
  for (int i = 0; i < 32; ++i) a[i] = i;
  float *ptrs[32];
  for (int i = 0; i < 32; ++i) ptrs[i] = a + i;
  ptrs[threadIdx.x & 31] = g + t;
  float v = *ptrs[(threadIdx.x + z) & 31];  // @tid_read
  out[t] = v;                               // @tid_out
}

// Placement new of a struct holding g into a local byte buffer.
__global__ void placement_new(float *out, float *g, int k) {
  int t = T;
  alignas(Cover) unsigned char buf[2 * sizeof(Cover)];
  float a[2] = {t + 1.f, t + 2.f};
  new (buf) Cover{a, 1};
  new (buf + sizeof(Cover)) Cover{g + t, 1};
  Cover *c = reinterpret_cast<Cover *>(buf) + (k & 1);
  float v = c->p[0];  // @pnew_read
  out[t] = v;         // @pnew_out
}

// cuda::std::swap of a local and a global pointer inside a local array.
__global__ void swap_pointers(float *out, float *g, int k, int j) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  float *ptrs[2] = {a, g + t};
  cuda::std::swap(ptrs[k & 1], ptrs[(k + 1) & 1]);
  float v = *ptrs[j & 1];  // @swap_read
  out[t] = v;              // @swap_out
}

// A lambda capturing a pointer variable by reference (run through a
// never-inlined function) sets it to g.
template <class F> __device__ __noinline__ void apply(F f) { f(); }
__global__ void lambda_by_reference(float *out, float *g, int k) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  float *p = a;
  apply([&] { if (k) p = g + t; });  // @lambda_body
  float v = *p;  // @lambda_read
  out[t] = v;    // @lambda_out
}

// A select between a local and a global pointer.
__global__ void select_local_global(float *out, float *g, const int *f) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *p = f[t] ? g + t : a + (t & 3);  // @sel_flag
  float v = *p;                           // @sel_read
  out[t] = v;                             // @sel_out
}

// A pointer that starts local and becomes global at iteration m of a loop
// (a phi of the two).
__global__ void loop_phi(float *out, float *g, int n, int m) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *p = a;
  float s = 0;
  for (int i = 0; i < n; ++i) {
    s += p[i & 3];  // @phi_read
    if (i == m)
      p = g + t;
  }
  out[t] = s;       // @phi_out
}

// The address of a __shared__ array kept in a local struct: reads through
// it are shared memory (here the struct folds away: the space is known).
__global__ void shared_in_struct(float *out, const float *in) {
  __shared__ float tile[256];
  int t = T;
  tile[threadIdx.x] = in[t];  // @sh_fill
  __syncthreads();
  Cover c{tile, 1};
  float v = c.p[threadIdx.x ^ 1];  // @sh_read
  out[t] = v;                      // @sh_out
}

// The same address kept in a local struct array at a run-time slot: the
// read goes through a pointer loaded from memory; it must be listed (the
// analysis cannot tell it is shared and may call it global).
__global__ void shared_in_struct_array(float *out, const float *in, int k) {
  __shared__ float tile[256];
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  tile[threadIdx.x] = in[t];  // @sha_fill
  __syncthreads();
  Cover c[2] = {{a, 1}, {tile, 1}};
  float v = c[k & 1].p[threadIdx.x];  // @sha_read
  out[t] = v;                         // @sha_out
}

// malloc'd memory kept in a local pointer array.
__global__ void malloc_in_local(float *out, int k) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  float *ptrs[2] = {a, (float *)malloc(4 * sizeof(float))};
  ptrs[1][0] = 5;             // @mal_init
  float v = *ptrs[k & 1];     // @mal_read
  free(ptrs[1]);
  out[t] = v;                 // @mal_out
}

// A __device__ pointer variable and a __device__ array, kept in a local
// pointer array.
__global__ void device_globals(float *out, int k) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  float *ptrs[3] = {a, dev_buffer, dev_array + t};  // @dg_var
  float v = *ptrs[k % 3];  // @dg_read
  out[t] = v;              // @dg_out
}

// The address of a local array of pointers swapped into global memory by
// an atomic exchange of pointers (atomics are not listed in the report),
// read back, and g + t stored through it into loc[0].
__global__ void atomic_escape(float *out, float *g, float ***gslot) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  __atomic_exchange_n(&gslot[t], loc, __ATOMIC_RELAXED);
  float **back = gslot[t];  // @atx_slot
  back[0] = g + t;          // @atx_plant
  float v = *loc[0];        // @atx_read
  out[t] = v;               // @atx_out
}

// The same through a compare-and-swap (gslot[t] is null at launch).
__global__ void cas_escape(float *out, float *g, float ***gslot) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  float **expected = nullptr;
  __atomic_compare_exchange_n(&gslot[t], &expected, loc, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
  float **back = gslot[t];  // @cas_slot
  back[0] = g + t;          // @cas_plant
  float v = *loc[0];        // @cas_read
  out[t] = v;               // @cas_out
}

// An atomic exchange of g + t into a local pointer slot. (PTX leaves atomics
// on local memory undefined: an attack on the analysis, not a program.)
__global__ void atomic_into_local(float *out, float *g, int k, int j) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  float *slots[2] = {a, a + 1};
  __atomic_exchange_n(&slots[k & 1], g + t, __ATOMIC_RELAXED);
  float v = *slots[j & 1];  // @atl_read
  out[t] = v;               // @atl_out
}

// A struct taken by value by the kernel (its parameter memory) overwritten
// with a local struct that holds the address of a local pointer array; the
// field read back from the parameter is that address, and g + t is stored
// through it into loc[0].
struct Box { float **pp; float *q; int n; };
__global__ void byval_param_overwrite(Box b, float *out, float *g, int k) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  Box local[2] = {{loc, &x, 1}, {loc, &x, 2}};
  b = local[k & 1];
  float **back = b.pp;  // the parameter's memory: not global
  back[0] = g + t;      // @bpo_plant
  float v = *loc[0];    // @bpo_read
  out[t] = v;           // @bpo_out
}

// A pair of pointers returned by value (an aggregate, not a pointer) from a
// recursive function: g at the bottom, a local element on the way up.
__device__ __noinline__ Pair pair_of(float *g, float *local, int d) {
  if (d <= 0)
    return {g, local};
  Pair inner = pair_of(g, local, d - 1);
  return (d & 1) ? Pair{inner.b, inner.a} : inner;
}
__global__ void struct_return(float *out, float *g, int d) {
  int t = T;
  float a[2] = {t + 1.f, t + 2.f};
  Pair r = pair_of(g + t, a, d);
  float v = *r.a;  // @sret_read
  out[t] = v;      // @sret_out
}

// A table of device pointers read as 64-bit words by memcpy (the
// well-defined way to read a pointer's bytes: the load has no alias tag)
// and copied into a local pointer slot the same way.
__global__ void memcpy_words(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  unsigned long long w;
  __builtin_memcpy(&w, &table[t], sizeof w);    // @mw_word
  __builtin_memcpy(&ptrs[k & 3], &w, sizeof w);
  float v = *ptrs[j & 3];                       // @mw_read
  out[t] = v;                                   // @mw_out
}

// The same table read through a `long long` lvalue (reinterpret_cast):
// reading a pointer object so is undefined (strict aliasing), which the
// analysis relies on when it takes a word loaded as `long long` for an
// integer. Not pinned: the program has no defined meaning.
__global__ void reinterpret_words(float *out, float *const *table, int k, int j) {
  int t = T;
  float a[4] = {t + 0.f, t + 1.f, t + 2.f, t + 3.f};
  float *ptrs[4] = {a, a + 1, a + 2, a + 3};
  long long w = reinterpret_cast<const long long *>(table)[t];  // @rw_word
  __builtin_memcpy(&ptrs[k & 3], &w, sizeof w);
  float v = *ptrs[j & 3];  // @rw_read
  out[t] = v;              // @rw_out
}

// The address of a local pointer array kept in a __shared__ slot (z = 0 at
// launch: the thread's own), read back, and g + t stored through it.
__global__ void shared_escape(float *out, float *g, unsigned z) {
  __shared__ float **sslot[256];
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  sslot[threadIdx.x] = loc;                   // @she_keep
  float **back = sslot[threadIdx.x ^ z];      // @she_slot
  back[0] = g + t;                            // @she_plant
  float v = *loc[0];                          // @she_read
  out[t] = v;                                 // @she_out
}

// The address of a local pointer array handed to inline assembly, which
// gives it back: g + t stored through it lands in loc[0].
__global__ void asm_escape(float *out, float *g) {
  int t = T;
  float x = t;
  float *loc[1] = {&x};
  float **back;
  asm volatile("mov.b64 %0, %1;" : "=l"(back) : "l"(loc));
  back[0] = g + t;    // @asm_plant
  float v = *loc[0];  // @asm_read
  out[t] = v;         // @asm_out
}

// ================================================== really private: hidden

// A pool of pointers into local arrays, at run-time slots: every pointer
// the kernel keeps in its own memory points into its own memory.
__global__ void private_pool(float *out, const float *in, int k, int j) {
  int t = T;
  float a[4], b[4];
  for (int i = 0; i < 4; ++i) { a[i] = in[4 * t + i]; b[i] = -a[i]; }  // @pool_in
  float *ptrs[4] = {a, b, a + 2, b + 2};
  ptrs[k & 3] = b + (j & 1);
  float v = *ptrs[j & 3];  // private
  out[t] = v;              // @pool_out
}

// A recursive function (the pass inlines its first call, not itself) that
// fills a local struct with a pointer into the caller's local array and
// returns another one.
__device__ __noinline__ float *fill_private(Cover *c, float *local, int d) {
  if (d <= 0) {
    c->p = local;
    c->n = 1;
    return local + 1;
  }
  Cover inner;
  float *q = fill_private(&inner, local, d - 1);
  c->p = inner.p + (d & 1);
  c->n = inner.n;
  return q;
}
__global__ void recursive_private(float *out, const float *in, int d) {
  int t = T;
  float a[4] = {in[t], 1, 2, 3};  // @rp_in
  Cover c;
  float *r = fill_private(&c, a, d);
  float v = c.p[0] + *r;  // private
  out[t] = v;             // @rp_out
}

// The byval chain of byval_deep_plant with a local pointer planted: every
// pointer stored is private, the read is local memory.
__global__ void byval_deep_private(float *out, const float *in) {
  int t = T;
  float x = in[t];  // @bp_in
  float y = 2;
  float *loc[1] = {&x};
  plant1(loc, &y);
  float v = *loc[0];  // private
  out[t] = v;         // @bp_out
}
