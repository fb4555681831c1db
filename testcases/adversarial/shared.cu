// Adversarial corpus: shared-memory fills. A fill `tile[t] = src[i]` followed
// directly by __syncthreads() is rewritten when every other access to the
// tile comes after that barrier. "Every other access to the tile" is
// was decided by getUnderlyingObject(ptr) == tile, and provablyDisjoint()
// answered "disjoint" for ANY pair in which one side is a __shared__
// variable. Fixed in 5f0774f (selects and phis are looked through; extern
// __shared__ arrays alias each other): the two former miscompiles below are
// now left alone. Launch specs: shared.toml.
struct Pixel { unsigned char r, g, b; };

#define FILL(T, S, t, i) { (T)[t].r = (S)[i].r; (T)[t].g = (S)[i].g; (T)[t].b = (S)[i].b; }
#define DRAIN(D, T, i, m) { (D)[i].r = (T)[m].r; (D)[i].g = (T)[m].g; (D)[i].b = (T)[m].b; }

// Was a MISCOMPILE (-O0 and -O3). Before the fill each thread uses its OWN tile
// slot as scratch through p = flag ? tile : spare (race-free: own slot).
// The pointer's underlying object is the select, which counts as disjoint
// from the tile; after the rewrite other threads fill that slot, possibly
// before its owner's scratch write, which then overwrites the filled byte
// (or its read sees the filled byte).
__global__ void scratch_select(Pixel *dst, const Pixel *__restrict__ src, int *out, int flag) {
  __shared__ Pixel tile[256];
  __shared__ Pixel spare[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  Pixel *p = flag ? tile : spare;
  p[t].r = (unsigned char)t;
  out[i] = p[t].r;
  FILL(tile, src, t, i);
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
}

// Was a MISCOMPILE (-O0 and -O3). Two `extern __shared__` arrays are the SAME
// memory (the launch's dynamic shared memory), but as two globals they are
// "distinct variables" to provablyDisjoint. Each thread uses its own slot
// through dynB as scratch before the fill through dynA.
__global__ void extern_alias(Pixel *dst, const Pixel *__restrict__ src, int *out) {
  extern __shared__ Pixel dynA[];
  extern __shared__ unsigned char dynB[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  dynB[3 * t] = (unsigned char)(t + 1);
  out[i] = dynB[3 * t];
  FILL(dynA, src, t, i);
  __syncthreads();
  DRAIN(dst, dynA, i, blockDim.x - 1 - t);
}

// Held: the plain tile (fill, barrier, mirrored drain). Rewritten.
__global__ void tile_plain(Pixel *dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(tile, src, t, i);
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
}

// Held: dynamic shared memory, one extern array. Rewritten.
__global__ void tile_dynamic(Pixel *dst, const Pixel *__restrict__ src) {
  extern __shared__ Pixel dyn[];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(dyn, src, t, i);
  __syncthreads();
  DRAIN(dst, dyn, i, blockDim.x - 1 - t);
}

// Held: own-slot scratch through the tile itself before the fill: left alone
// (the tile is accessed where the barrier does not precede it).
__global__ void scratch_direct(Pixel *dst, const Pixel *__restrict__ src, int *out) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  tile[t].r = (unsigned char)t;
  out[i] = tile[t].r;
  FILL(tile, src, t, i);
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
}

// Held: another access (a global store) between the fill and the barrier:
// left alone (no barrier directly after the fill).
__global__ void access_before_barrier(Pixel *dst, const Pixel *__restrict__ src, int *__restrict__ out) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(tile, src, t, i);
  out[i] = t;
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
}

// Held: no barrier at all, each thread reads back its own slot: race-free as
// written. Left alone (no barrier after the fill).
__global__ void no_barrier_own_slot(Pixel *dst, const Pixel *src) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(tile, src, t, i);
  DRAIN(dst, tile, i, t);
}

// Held: a guarded fill (partial last block): left alone (shared fills only
// without guard or loop).
__global__ void guarded_fill(Pixel *dst, const Pixel *__restrict__ src, int n) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i < n) FILL(tile, src, t, i);
  __syncthreads();
  if (i < n) {
    int m = (blockIdx.x * blockDim.x + blockDim.x <= n ? blockDim.x : n - blockIdx.x * blockDim.x) - 1 - t;
    DRAIN(dst, tile, i, m);
  }
}

// Held: a 2-D block filling a [4][16] tile by rows, read transposed. Rewritten.
__global__ void tile_2d(Pixel *dst, const Pixel *__restrict__ src) {
  __shared__ Pixel tile[4][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  int i = (blockIdx.x * 4 + ty) * 16 + tx;
  FILL(tile[ty], src, tx, i);
  __syncthreads();
  int j = ty * 16 + tx, m = 63 - j;
  DRAIN(dst, (&tile[0][0]), (int)(blockIdx.x * 64) + j, m);
}

// Held: two phases on one tile: fill, barrier, read, barrier, fill again,
// barrier, read. The second fill is left alone (the first phase's accesses
// to the tile are not preceded by its barrier); the first is rewritten.
__global__ void two_phases(Pixel *dst, const Pixel *__restrict__ src, const Pixel *__restrict__ src2, Pixel *dst2) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(tile, src, t, i);
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
  __syncthreads();
  FILL(tile, src2, t, i);
  __syncthreads();
  DRAIN(dst2, tile, i, blockDim.x - 1 - t);
}

// Held: after the fill's barrier each thread overwrites ANOTHER thread's
// source element (the mirror): ordered after every fill load by the barrier.
// Rewritten (the source may be written after the barrier that ends a fill).
__global__ void src_written_after_barrier(Pixel *__restrict__ dst, Pixel *src) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  FILL(tile, src, t, i);
  __syncthreads();
  int m = blockDim.x - 1 - t;
  src[blockIdx.x * blockDim.x + m].g = 7;
  DRAIN(dst, tile, i, m);
}

// Held: each thread writes its OWN source element BEFORE the fill
// (race-free; after a rewrite another thread's fill could read that byte
// before or after the write). Left alone (the source is written elsewhere,
// not after the barrier; at -O3 the stored 7 is forwarded into the fill,
// which is then not a pure copy).
__global__ void src_written_before_fill(Pixel *__restrict__ dst, Pixel *src) {
  __shared__ Pixel tile[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  src[i].g = 7;
  FILL(tile, src, t, i);
  __syncthreads();
  DRAIN(dst, tile, i, blockDim.x - 1 - t);
}
