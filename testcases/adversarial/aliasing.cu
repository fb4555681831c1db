// Adversarial corpus: other accesses to the copied memory that
// checkOtherAccesses does not see. It compares getUnderlyingObject(ptr) of
// every other access with the copy's bases through provablyDisjoint, which
// answered "disjoint" whenever ONE side was a noalias (__restrict__)
// argument. A pointer chosen at run time (select/phi) between dst and another
// buffer had the select/phi as its underlying object, so it counted as
// disjoint from a __restrict__ dst although it is BASED ON dst (C's restrict
// rules allow it: no restrict lie). Fixed in 5f0774f (disjointness looks
// through selects and phis to every underlying object): the four former
// miscompiles below are now left alone. Launch specs: aliasing.toml.
struct Pix5 { int a, b, c, d, e; };   // 20 bytes: a thread's element spans
                                      // 16-byte units moved by other threads

#define COPY5(D, S, I) { (D)[I].a = (S)[I].a; (D)[I].b = (S)[I].b; (D)[I].c = (S)[I].c; \
                         (D)[I].d = (S)[I].d; (D)[I].e = (S)[I].e; }

// Was a MISCOMPILE (-O0 and -O3), now left alone. Each thread reads back its
// own element after the copy through p = flag ? dst : other (race-free: only
// its own bytes). It used to be rewritten; after the rewrite other threads
// write those bytes, so the read saw stale data.
__global__ void readback_select(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src,
                                int *__restrict__ out, const int *__restrict__ other, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  const int *p = flag ? (const int *)dst : other;
  out[i] = p[5 * i];
}

// Was a MISCOMPILE (-O0 and -O3). The same through a phi of two pointers.
__global__ void readback_phi(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src,
                             int *__restrict__ out, const int *__restrict__ other, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  const int *p;
  if (flag) p = (const int *)dst + 5 * i; else p = other + i;
  out[i] = *p;
}

// Was a MISCOMPILE (-O0 and -O3). The source (restrict, writable) is written by
// each thread after its copy, own element only, through a select: in the
// rewrite another thread may read that element after the write.
__global__ void src_written_after(Pix5 *__restrict__ dst, Pix5 *__restrict__ src,
                                  int *__restrict__ other, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  int *p = flag ? (int *)src : other;
  p[5 * i] = 0;
}

// Was a MISCOMPILE (-O0 and -O3). The source is written by each thread BEFORE its
// copy (own element): the rewrite's loads by other threads may run first.
__global__ void src_written_before(Pix5 *__restrict__ dst, Pix5 *__restrict__ src,
                                   int *__restrict__ other, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int *p = flag ? (int *)src : other;
  p[5 * i] = i;
  COPY5(dst, src, i);
}

// Held: the same readback without __restrict__: left alone (destination may
// be read elsewhere).
__global__ void readback_select_plain(Pix5 *dst, const Pix5 *src, int *out, const int *other, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  const int *p = flag ? (const int *)dst : other;
  out[i] = p[5 * i];
}

// Held: readback through dst itself with __restrict__: left alone
// (the underlying object is dst).
__global__ void readback_direct(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src,
                                int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  out[i] = dst[i].a + 1;
}

// Held: readback through a memcpy out of dst: left alone (the memcpy's
// source is dst).
__global__ void readback_memcpy(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src,
                                int *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  __builtin_memcpy(out + i, &dst[i].c, 4);
}

// Held: an atomic on the destination after the copy: left alone.
__global__ void atomic_on_dst(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  atomicAdd(&dst[i].e, 1);
}

// Held: two copies into the same destination at the same displacement from
// the same source (an unrolled pair): rewritten, same bytes either way.
__global__ void same_copy_twice_regions(Pix5 *__restrict__ dst, const Pix5 *__restrict__ src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  COPY5(dst, src, i);
  COPY5(dst, src, i + n);
}
