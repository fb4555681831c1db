// Adversarial corpus: narrowing conversions and unsigned wrap-around in guards
// and indices. The address walker read sext/zext/trunc as the identity
// ("index math is assumed not to wrap"), but a conversion to a narrower type
// is well-defined C++ that does wrap, deliberately; since 5f0774f a
// thread-dependent trunc is refused. Unsigned 32-bit arithmetic wraps too,
// by definition. Launch specs: narrowing.toml.
struct Pixel { unsigned char r, g, b; };

// Was a MISCOMPILE at -O0 (fixed in 5f0774f: the trunc is refused; -O3 turns
// the conversion into an `and` and always refused).
// The guard compares an 8-bit truncation of gid: a row that straddles a
// multiple of 256 (blocks of 96: block 2 holds gid 192..287) passes at its
// END (j = 0..31 for gid 256..287), not at its start. The pass reads
// j = gid, takes `j < n` for a prefix guard, and every thread computes its
// own "active" count from its own j: the row copies the wrong elements.
__global__ void trunc8_guard(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char j = i;
  if (j < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// Was a MISCOMPILE at -O0 (fixed in 5f0774f). The same with an unsigned
// char bound.
__global__ void trunc8_guard_u(Pixel *dst, const Pixel *src, unsigned char n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char j = i;
  if (j < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// Was a MISCOMPILE at -O0 (fixed in 5f0774f). A 16-bit signed truncation: gid 32768.. become negative
// and pass; the row of block 341 (blocks of 96) straddles 32768.
__global__ void trunc16_guard(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  short j = i;
  if (j < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// Was a MISCOMPILE at -O0 (fixed in 5f0774f; -O3 folds the conversion and
// refuses the unsigned guard).
// A 64-bit index truncated to 32 bits for an unsigned guard: (unsigned)i is
// gid - 128, so in block 1 (gid 96..191) threads 0..31 wrap to huge values
// and fail, threads 32.. pass: a suffix. The pass reads i as gid + 2^32 - 128,
// a provably non-negative "first index", and accepts the unsigned guard.
__global__ void trunc32_guard(Pixel *dst, const Pixel *src, unsigned n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  long long i = g + 4294967168LL;   // 2^32 - 128
  if ((unsigned)i < n) {
    dst[g].r = src[g].r;
    dst[g].g = src[g].g;
    dst[g].b = src[g].b;
  }
}

// Was a MISCOMPILE at -O0 (fixed in 5f0774f; -O3 refuses the `and`). An
// 8-bit index rotates each
// block's 256 elements (t = tid + 7 mod 256): a permutation, race-free. The
// pass reads the address as 3*(256*ctaid + tid + 7), so the "region start"
// &dst[i] - 3*tid differs between threads 0..248 and 249..255; the rewrite
// copies elements 7..262 of each block's range instead of 0..255 (block 0's
// first 7 elements stay unwritten).
__global__ void trunc8_index(Pixel *dst, const Pixel *src) {
  unsigned char t = threadIdx.x + 7;
  int i = blockIdx.x * 256 + t;
  dst[i].r = src[i].r;
  dst[i].g = src[i].g;
  dst[i].b = src[i].b;
}

// Held: an unsigned short index that never wraps here (gid < 65536). The
// int -> unsigned short conversion is a trunc: left alone since 5f0774f.
__global__ void widen_u16(Pixel *dst, const Pixel *src, unsigned short n) {
  unsigned short i = blockIdx.x * blockDim.x + threadIdx.x;   // < 65536 here
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// Was a MISCOMPILE at -O0 (fixed in the working tree after fe5ac07: a
// run-time check sends a row whose guard index wraps to the original code;
// -O3 folds the constants to -1). Unsigned
// 32-bit arithmetic wraps by definition: 65535u * 65537u == 2^32 - 1, so
// i == tid - ctaid (mod 2^32). In block 1 thread 0 has i = 2^32 - 1 and fails
// `i < n`, threads 1.. pass: a suffix of the row. The pass reads the first
// index as 4294967295*ctaid.x, provably non-negative as a polynomial, and
// accepts the unsigned guard; every thread then computes its own "active"
// count (thread 0: 4294967295 - ..., the others: n + 1) and the row copies
// the wrong elements. (The -O0 fix for gid - 5 checks the polynomial's sign,
// not whether the 32-bit value wraps.)
__global__ void unsigned_wrap_guard(Pixel *dst, const Pixel *src, unsigned n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = threadIdx.x + blockIdx.x * 65535u * 65537u;   // tid - ctaid (mod 2^32)
  if (i < n) {
    dst[g].r = src[g].r;
    dst[g].g = src[g].g;
    dst[g].b = src[g].b;
  }
}

// Was a MISCOMPILE at -O0 and -O3 (fixed like unsigned_wrap_guard). An
// unsigned index converted to int for a signed
// compare (modular, defined since C++20 and in clang): with off = 2^31 - 3,
// u = tid + off is 2^31 - 3 + tid, so (int)u is a large positive value for
// threads 0..2 and negative (passing `< n`) for threads 3.. : a suffix. The
// pass reads Lo - Hi = tid + off - n, a signed prefix bound, and accepts it
// without asking whether the 32-bit value wraps inside the row.
__global__ void signed_cmp_unsigned_add(Pixel *dst, const Pixel *src, unsigned off, int n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned u = threadIdx.x + off;
  if ((int)u < n) {
    dst[g].r = src[g].r;
    dst[g].g = src[g].g;
    dst[g].b = src[g].b;
  }
}

// Was a MISCOMPILE at -O0 and -O3 (fixed like unsigned_wrap_guard). The
// difference form `n - i > 0` of an unsigned
// n and i, compared signed: with n = 2^31 + 3, (int)(n - i) is negative
// (fails) for gid 0..3 and positive for gid 4.. : a suffix of block 0.
__global__ void signed_diff_unsigned(Pixel *dst, const Pixel *src, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((int)(n - i) > 0) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

// Was a MISCOMPILE at -O0 and -O3 (with the run-time no-wrap check of the
// working tree after fe5ac07; fixed in ca91baf: the index must step up by
// special registers and not wrap). __restrict__ so that 0718775's overlap
// rule for loops does not hide it. A loop on an unsigned index that starts wrapped for
// some threads: u = tid + 2^32 - 3, so threads 0..2 start at 2^32 - 3 + t,
// fail `u < n` and never enter; threads 3.. start at t - 3 and iterate with
// step ntid.x. In iteration 0 the row's start wraps and the rewrite's
// check sends it to the original code, but in iteration 1 the row start is
// 29 (no wrap), so the rewrite takes all ntid.x threads as active: u < n
// "holds" for threads 0..2 too, although they left the loop before it. The
// prefix of iteration k is the threads whose u passed the test in EVERY
// iteration so far; that is `u_k < n` only while u does not wrap between
// iterations.
__global__ void loop_wrap(Pixel *__restrict__ dst, const Pixel *__restrict__ src, unsigned off, unsigned n) {
  int base = blockIdx.x * blockDim.x;
  int k = 0;
  for (unsigned u = threadIdx.x + off; u < n; u += blockDim.x, ++k) {
    int e = base + k * 64 + (int)threadIdx.x;
    dst[e].r = src[e].r;
    dst[e].g = src[e].g;
    dst[e].b = src[e].b;
  }
}

// Held: a 64-bit unsigned index wrapping inside the row (off = 2^64 - 3):
// the run-time check (exact in 128 bits) sends the row to the original code.
__global__ void u64_wrap_guard(Pixel *dst, const Pixel *src, unsigned long long off,
                               unsigned long long n) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long u = threadIdx.x + off;
  if (u < n) {
    dst[g].r = src[g].r;
    dst[g].g = src[g].g;
    dst[g].b = src[g].b;
  }
}
