// Adversarial corpus: grid variants that are one flat copy (issue 40,
// -coalda-reshape-launches; pass/lib/GridVariantFlat.cpp). A rewritten
// kernel K whose whole effect is ONE copy of element
//
//   gid = blockIdx.x * blockDim.x + threadIdx.x,  when gid < End_k for all k
//
// (End_k a parameter or a constant of at least 32 bits, `<` or `<=`; the
// addresses base + S*gid + offset, the bases parameters or globals; no
// other branch on the way to the copy, no other memory effect) gets a
// variant K__coalda_grid(args..., G) that begins with one flat copy of
// elements [0, min(G * blockDim.x, End_k...)) by every thread of the
// reshaped grid (16-byte units, grid-stride, four in flight), taken when
// both bases are 16-byte aligned, disjoint (unless __restrict__) and
// G * blockDim.x <= 2^31; otherwise its loop over the original blocks
// (GridVariant.cpp) runs. The claim: at any 1 <= g <= G, the variant at g
// blocks with G appended computes the bytes K's original computes at G
// blocks, guard zones included, in every layout and schedule.
//
// The kernels below attack it: the bound's forms (none, `<`, `<=` up to
// the last element and past all of them, unsigned, constant, two of them of
// one sign and of both signs, an early return, the swapped comparison, a
// 64-bit index), the record's forms (3 ints member by member, a struct
// assignment, 3 chars, a region that starts 4 bytes into its element, an
// element offset), a global as the source, __restrict__, a 2-D block (every
// threadIdx.y copies the same element, as the flat copy does) on a 2-D grid,
// a grid smaller than the bound; and, to keep the block loop (or no
// variant), a guard on blockIdx.x, on threadIdx.y, on data, a `!=` guard,
// two copies, a copy beside a tag store or an atomic, an index that is not
// gid, bounds computed from a parameter or reading gridDim.x, a partial
// copy, and a copy within one array.
//
// Each kernel says what it attacks and what the pass does with it at -O3
// and -O0 (Flat: "form": "flat copy"; Block loop: "form": "block loop";
// Refused: "reshaped": false; Not rewritten: no launch decision), as pinned
// in tests/test_flat_variants.py, which runs every variant against its
// original at g in {1, 2, 3, G-1, G} (coalda/check/variants.py). Launch
// spec: flat_variants.toml (n = 1000 over blocks of 128 threads: G = 8, a
// last block of 104 threads, unless said).
//
// Found by this corpus (the plugin of 2026-12-04, the flat form not yet
// committed): unsigned_then_signed (-O0) and unsigned_outside_signed (-O3 and
// -O0) compute different bytes in the aligned layout, at every g. The flat
// copy's element count is min(G*blockDim.x, End_k...) folded bound by bound,
// nearest the copy first, with smin for a signed bound and umin for an unsigned
// one ("End is not negative"). A signed bound folded first leaves End negative
// when it is (n = -1: the original copies nothing); the umin of the unsigned
// bound after it reads that End as 2^64 - 1 and gives the unsigned bound (cap =
// 1000): the variant copies 1000 elements where the original copies none.
// signed_then_unsigned, the same bounds the other way round (the umin first),
// is right.
//
// Integer data only: float arithmetic on random bytes (NaN payloads) could
// make a comparison depend on operand order.

struct I3 {
  int x, y, z;
};

struct C3 {
  char a, b, c;
};

#define GID (blockIdx.x * blockDim.x + threadIdx.x)
#define COPY3(d, s)                                                            \
  do {                                                                         \
    (d).x = (s).x;                                                             \
    (d).y = (s).y;                                                             \
    (d).z = (s).z;                                                             \
  } while (0)

// 1000 distinct records, so that a copy from the wrong element shows.
#define R1(b) {(b), (b) * 7 + 1, (b) ^ 0x5a5a}
#define R10(b)                                                                 \
  R1(b), R1(b + 1), R1(b + 2), R1(b + 3), R1(b + 4), R1(b + 5), R1(b + 6),     \
      R1(b + 7), R1(b + 8), R1(b + 9)
#define R100(b)                                                                \
  R10(b), R10(b + 10), R10(b + 20), R10(b + 30), R10(b + 40), R10(b + 50),     \
      R10(b + 60), R10(b + 70), R10(b + 80), R10(b + 90)
__device__ __align__(16) I3 table[1000] = {
    R100(0),   R100(100), R100(200), R100(300), R100(400),
    R100(500), R100(600), R100(700), R100(800), R100(900)};

// ------------------------------------------------------------ the bounds

// No bound: the whole grid (n // block = 7 full blocks, G = 7; the rest of
// dst must stay as it was). Flat at both levels.
__global__ void unguarded(I3 *dst, const I3 *src) {
  int i = GID;
  COPY3(dst[i], src[i]);
}

// The classic guarded record copy: End = min(G*128, n) = 1000. Flat at
// both levels.
__global__ void guarded(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// `i <= last`, last = n - 2: End = last + 1 = 999 (11988 bytes: a 4-byte
// tail after the 16-byte units). Flat at both levels.
__global__ void inclusive(I3 *dst, const I3 *src, int last) {
  int i = GID;
  if (i <= last)
    COPY3(dst[i], src[i]);
}

// `i <= last` with an unsigned last = 2^32 - 1: every thread copies (1024
// elements); last + 1 wraps in 32 bits, not in the flat copy's 64. Flat at
// both levels.
__global__ void inclusive_all(I3 *dst, const I3 *src, unsigned last) {
  unsigned i = GID;
  if (i <= last)
    COPY3(dst[i], src[i]);
}

// An unsigned index and bound (umin). Flat at both levels.
__global__ void unsigned_bound(I3 *dst, const I3 *src, unsigned n) {
  unsigned i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A constant bound, 999 (a tail). Flat at both levels.
__global__ void constant_bound(I3 *dst, const I3 *src) {
  int i = GID;
  if (i < 999)
    COPY3(dst[i], src[i]);
}

// Two nested bounds, the inner one (m = n - 99) below the outer one (n):
// End = 901 (10812 bytes: a 12-byte tail). Flat at -O0; at -O3 instcombine
// joins both comparisons into one `and`, and the copy's branch then tests
// no bound itself: block loop.
__global__ void nested_bounds(I3 *dst, const I3 *src, int n, int m) {
  int i = GID;
  if (i < n) {
    if (i < m)
      COPY3(dst[i], src[i]);
  }
}

// A signed bound and an unsigned one, n = -1 and cap = 1000: the original
// copies nothing. The bounds are folded nearest the copy first: umin(cap),
// then smin(n), then the clamp at 0: End = 0. Flat at -O0, right; block
// loop at -O3 (one `and`, as nested_bounds).
__global__ void signed_then_unsigned(I3 *dst, const I3 *src, int n, unsigned cap) {
  int i = GID;
  if (i < n && (unsigned)i < cap)
    COPY3(dst[i], src[i]);
}

// The same bounds the other way round: smin(n) = -1 first, then umin(cap)
// reads -1 as 2^64 - 1 and gives 1000: the flat copy moves 1000 elements
// where the original moves none. Flat at -O0: BROKEN (aligned layout, every
// g: dst differs). Block loop at -O3 (one `and`, as nested_bounds).
__global__ void unsigned_then_signed(I3 *dst, const I3 *src, int n, unsigned cap) {
  int i = GID;
  if ((unsigned)i < cap && i < n)
    COPY3(dst[i], src[i]);
}

// unsigned_then_signed's bug at -O3: the inner bound compares a 64-bit gid
// (computed afresh: too many instructions for simplifycfg to speculate,
// so the two branches stay apart) with a 64-bit signed n = -1, the outer one
// the 32-bit gid with an unsigned cap = 1000. Flat at both levels: BROKEN
// at both (aligned layout, every g).
__global__ void unsigned_outside_signed(I3 *dst, const I3 *src, long n, unsigned cap) {
  unsigned i = GID;
  if (i < cap) {
    long l = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (l < n)
      COPY3(dst[l], src[l]);
  }
}

// The early-return form of `i < n`. Flat at both levels.
__global__ void early_return(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i >= n)
    return;
  COPY3(dst[i], src[i]);
}

// The comparison the other way round (`n > i`: instcombine swaps it at
// -O3; -O0 keeps `icmp sgt n, i`). Flat at both levels.
__global__ void swapped_compare(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (n > i)
    COPY3(dst[i], src[i]);
}

// A grid smaller than the bound: n // block = 7 blocks (G = 7) for
// n = 1000: End = G * 128 = 896, not n. Flat at both levels.
__global__ void short_grid(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A 64-bit index and bound (`size_t`-like, exclusive). Flat at both levels.
__global__ void index_64(I3 *dst, const I3 *src, unsigned long n) {
  unsigned long i = (unsigned long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A 64-bit inclusive bound (last + 1 could wrap in 64 bits): refused a flat
// copy. Block loop at both levels.
__global__ void index_64_inclusive(I3 *dst, const I3 *src, long last) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= last)
    COPY3(dst[i], src[i]);
}

// --------------------------------------------------- records and bases

// 3-byte char records on blocks of 96 (G = 11): 3000 bytes, an 8-byte
// tail moved byte by byte. Flat at both levels.
__global__ void char_records(C3 *dst, const C3 *src, int n) {
  int i = GID;
  if (i < n) {
    dst[i].a = src[i].a;
    dst[i].b = src[i].b;
    dst[i].c = src[i].c;
  }
}

// A struct assignment (a 12-byte memcpy at -O0, three loads and stores
// at -O3). Flat at both levels.
__global__ void struct_assign(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    dst[i] = src[i];
}

// A region that starts 4 bytes into its element: .y and .z of record i and
// .x of record i + 1 tile [4, 16) (buffers of n + 1 records). The bases are
// 16-byte aligned at +4: the flat copy runs in the offset-max layout (+12),
// not in the aligned one. Flat at both levels.
__global__ void shifted_members(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n) {
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
    dst[i + 1].x = src[i + 1].x;
  }
}

// Element offsets on both sides (48 and 96 bytes: aligned in the aligned
// layout). Flat at both levels.
__global__ void element_offset(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i + 4], src[i + 8]);
}

// A global as the source (distinct records, 16-byte aligned): the flat copy
// runs where dst is aligned (the aligned and mixed layouts: dst is the
// even-numbered parameter). Flat at both levels.
__global__ void from_global(I3 *dst, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], table[i]);
}

// __restrict__: no overlap check (and no overlap or alias layout). Flat at
// both levels.
__global__ void restricted(I3 *__restrict__ dst, const I3 *__restrict__ src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A 32x4 block on two rows of blocks whose address reads threadIdx.x
// alone: the four threadIdx.y of a column and both rows copy the same
// element, as every thread of the flat copy's rows does (G = 32 blocks of
// 32 in x). Flat at both levels.
__global__ void block_2d(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A copy within one array, the halves apart (n = 500: no race). Not
// rewritten at either level ("source and destination are the same
// buffer").
__global__ void same_array(I3 *a, int n) {
  int i = GID;
  if (i < n)
    COPY3(a[i + 500], a[i]);
}

// ------------------------------------------------- not one flat copy

// `i <= n && i != n`, i.e. `i < n`. -O3 folds it to `i < n`: flat. At -O0
// the copy's guard `i != n` is not a bound (it tests the bound's operands:
// were it taken, End would be n + 1): not rewritten.
__global__ void inclusive_not_last(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i <= n && i != n)
    COPY3(dst[i], src[i]);
}

// A guard on blockIdx.x (k = 5 of 8 blocks copy). Block loop at both
// levels.
__global__ void block_guard(I3 *dst, const I3 *src, int n, unsigned k) {
  int i = GID;
  if (blockIdx.x < k && i < n)
    COPY3(dst[i], src[i]);
}

// A guard on threadIdx.y (32x4 blocks: row 0 copies). Block loop at both
// levels.
__global__ void row_guard(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (threadIdx.y == 0 && i < n)
    COPY3(dst[i], src[i]);
}

// A data-dependent guard: the copy is not a region copy; dst is staged
// through warp tiles instead, whose warps synchronize after the divergent
// guard. Refused a variant at both levels ("a thread may return while
// others of its block still synchronize").
__global__ void data_guard(I3 *dst, const I3 *src, const int *flag, int n) {
  int i = GID;
  if (i < n && flag[i])
    COPY3(dst[i], src[i]);
}

// Two independent copies. Block loop at -O3; not rewritten at -O0.
__global__ void two_copies(I3 *dst, const I3 *src, I3 *dst2, const I3 *src2, int n) {
  int i = GID;
  if (i < n) {
    COPY3(dst[i], src[i]);
    COPY3(dst2[i], src2[i]);
  }
}

// A copy and a per-block tag store. Block loop at -O3; not rewritten at
// -O0.
__global__ void copy_and_tag(I3 *dst, const I3 *src, int *tag, int n) {
  int i = GID;
  if (i < n)
    COPY3(dst[i], src[i]);
  if (threadIdx.x == 0)
    tag[blockIdx.x] = 1;
}

// A copy and an atomic counter. Not rewritten at either level (the atomic
// call).
__global__ void copy_and_atomic(I3 *dst, const I3 *src, int *count, int n) {
  int i = GID;
  if (i < n) {
    COPY3(dst[i], src[i]);
    atomicAdd(count, 1);
  }
}

// An index of twice the blocks' threads (every other block's elements).
// Block loop at both levels.
__global__ void double_index(I3 *dst, const I3 *src, int n) {
  int i = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    COPY3(dst[i], src[i]);
}

// A bound computed from a parameter. Block loop at both levels.
__global__ void bound_minus_one(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n - 1)
    COPY3(dst[i], src[i]);
}

// A second bound that reads gridDim.x (which the variant reads as G).
// Block loop at both levels.
__global__ void bound_reads_grid(I3 *dst, const I3 *src, int n) {
  int i = GID;
  if (i < n && i < gridDim.x * 100)
    COPY3(dst[i], src[i]);
}
