// Adversarial corpus: loops whose uncoalesced global element the pass keeps
// in registers (LoopPromotion.cpp: loop versioning on run-time overlap
// checks, then LICM), and loops it must leave alone. Each kernel accumulates
// into its thread's element on every iteration of a loop; the attacks are
// the element's other pointers (the same buffer, a view shifted into the
// element, a neighbour's element), a trip count of zero, loop-variant reads
// that may meet the element, stores on some iterations only, a barrier or a
// warp shuffle in the loop, and two loops one after the other. Launch
// specs: promotions.toml (blocks of 128, n = 256 and 300, one partial
// block). The alias layouts hand dest and src the same buffer: the checks
// must send those threads down the original loop.
struct F4 { float x, y, z, w; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// interleave's shape: each member of dest's element gains src's, reps
// times. -O3: promoted (the loads of src and the element leave the loop).
__global__ void accumulate(F4 *dest, const F4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x += src[t].x;
      dest[t].y += src[t].y;
      dest[t].z += src[t].z;
      dest[t].w += src[t].w;
    }
}

// The loop may run zero times (reps = n % 3 is 0 at n = 300): then no
// byte of dest may be written. -O3: promoted.
__global__ void maybe_empty(F4 *dest, const F4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x = dest[t].x * 0.5f + src[t].y;
      dest[t].z = dest[t].z - src[t].x;
    }
}

// A float view reaches dest's element (the same buffer in the alias
// layout): x gains w, which the loop writes, and w gains y. The checks
// compare byte ranges, not bases.
__global__ void shifted_view(F4 *dest, const float *view, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x += view[4 * t + 3];
      dest[t].w += view[4 * t + 1];
    }
}

// Loop-variant reads of a table every thread shares: its range over the
// loop (reps floats) is compared with the element.
__global__ void with_table(F4 *dest, const float *table, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++) {
      dest[t].x += table[k];
      dest[t].y += table[k] * table[k];
    }
}

// The element is stored on odd iterations only: LICM may not move such a
// store out of the loop. Left alone (PromotionConditionalStore).
__global__ void odd_iterations(F4 *dest, const F4 *src, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      if (k & 1)
        dest[t].x += src[t].x;
}

// A barrier in the loop: threads must reach it together, and the versioned
// loops would split them. Every thread of the grid owns an element here
// (dest holds the whole grid's). Left alone (PromotionUnanalyzable).
__global__ void with_barrier(F4 *dest, const F4 *src, int reps, int n) {
  __shared__ float s[128];
  int t = G;
  for (int k = 0; k < reps; k++) {
    s[threadIdx.x] = t < n ? src[t].x : 0.f;
    __syncthreads();
    dest[t].x += s[(threadIdx.x + 1) % 128];
    __syncthreads();
  }
}

// Reads through an index loaded in the loop: no range bounds them. Left
// alone (PromotionUnanalyzable).
__global__ void gathered(F4 *dest, const float *table, const int *idx, int reps, int n) {
  int t = G;
  if (t < n)
    for (int k = 0; k < reps; k++)
      dest[t].x += table[idx[k] & 255];
}

// Two loops one after the other, each with its own element.
__global__ void two_loops(F4 *a, F4 *b, const F4 *src, int reps, int n) {
  int t = G;
  if (t >= n)
    return;
  for (int k = 0; k < reps; k++) {
    a[t].x += src[t].y;
    a[t].y += src[t].x;
  }
  for (int k = 0; k < reps; k++) {
    b[t].z += a[t].x;
    b[t].w += a[t].y;
  }
}

// A warp shuffle in the loop touches no memory, but the threads of a warp
// that the checks sent down different copies of the loop would not meet at
// it. Every thread of the grid owns an element here. Left alone
// (PromotionUnanalyzable).
__global__ void shuffled(F4 *dest, int reps, int n) {
  int t = G;
  for (int k = 0; k < reps; k++)
    dest[t].x += __shfl_down_sync(0xffffffffu, dest[t].y, 1);
}

// Two elements in the loop (dest's a, and a byte of another buffer that the
// alias layout puts inside a): LICM keeps both in the loop, since nothing
// separates them (PromotionNotHoisted); the kernel gets its body back, and
// its stores of out after the loop are staged as in any kernel.
struct I4 { int a, b, c, d; };
struct F3 { float x, y, z; };
__global__ void tried_then_staged(I4 *dest, unsigned char *bytes, const I4 *src, F3 *out, int reps, int n) {
  int t = G;
  if (t < n) {
    for (int k = 0; k < reps; k++) {
      dest[t].a += src[t].b;
      bytes[16 * t + 1] = (unsigned char)k;
    }
    out[t].x = 1.f;
    out[t].y = 2.f;
    out[t].z = out[t].x + 3.f;
  }
}
