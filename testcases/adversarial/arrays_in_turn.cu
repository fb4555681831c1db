// Adversarial corpus: written records whose warp tiles do not fit together,
// staged one array at a time through one tile (issue 39 item 5: lulesh's
// hgc writes six 64-byte records per thread; StagingPlan::ArraysInTurn).
// The region's stores to the arrays go nowhere; at its end each array's
// values go to the tile, the warp meets, writes the row back, and meets
// again before the next array's values overwrite the tile. The kernels
// attack that: a member stored twice (the later value must win), values
// from branches (phis) and from libdevice, elements written in part (the
// stored-units mask, per array), arrays of different strides, two arrays
// that may be one buffer (the run-time overlap check), the thread's own
// element read back through another pointer after the region, a data exit
// before the stores (warp tiles: partial warps take the original code),
// __launch_bounds__, a store after the region to a staged element. Some must
// stay refused: a record also read, a largest record whose tile alone does
// not fit, a grid-stride loop. Launch spec:
// arrays_in_turn.toml; decisions pinned in
// tests/test_adversarial_arrays_in_turn.py.
struct R8 { double v[8]; };    // 64 bytes, lulesh's
struct R16 { double v[16]; };  // 128 bytes
struct F12 { float v[12]; };   // 48 bytes
struct R32 { double v[32]; };  // 256 bytes

#define G (blockIdx.x * blockDim.x + threadIdx.x)
#define DEAD(i) ((alive[i] & 31) == 3)

// control: hgc's shape, six records of eight doubles
__global__ void six_records(R8 *a, R8 *b, R8 *c, R8 *d, R8 *e, R8 *f,
                            const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double v[8];
  for (int k = 0; k < 8; ++k) v[k] = x[8 * i + k];
  for (int k = 0; k < 8; ++k) {
    a[i].v[k] = v[k];
    b[i].v[k] = v[k] * 2.0;
    c[i].v[k] = v[k] + v[(k + 1) % 8];
    d[i].v[k] = v[k] - 1.0;
    e[i].v[k] = v[7 - k];
    f[i].v[k] = v[k] * v[k];
  }
}

// the same member stored twice through the region: the later value wins
__global__ void stored_twice(R8 *a, R8 *b, R8 *c, R8 *d, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 8; ++k) { a[i].v[k] = t + k; b[i].v[k] = t - k; }
  a[i].v[3] = -t;
  for (int k = 0; k < 8; ++k) { c[i].v[k] = t * k; d[i].v[k] = t / (k + 1); }
  b[i].v[0] = t * 5.0;
}

// values from a branch (select/phi) and from libdevice (sqrt, rsqrt,
// floor: no loop of their own, which the cost rule would count)
__global__ void branch_values(R8 *a, R8 *b, R8 *c, R8 *d, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  double s = t > 0.0 ? sqrt(t) : -t;
#pragma unroll
  for (int k = 0; k < 8; ++k) {
    a[i].v[k] = s + k;
    b[i].v[k] = rsqrt(t + k + 1.0);
    c[i].v[k] = t < 0.5 ? s : t;
    d[i].v[k] = floor(t * 8.0 + k) * fabs(s);
  }
}

// elements written in part: units 0-3 and 6 of each 16-double record
__global__ void partial_units(R16 *a, R16 *b, R16 *c, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 4; ++k) { a[i].v[k] = t + k; b[i].v[k] = t * k; c[i].v[k] = t - k; }
  a[i].v[6] = 1.0; b[i].v[6] = 2.0; c[i].v[6] = 3.0;
}

// arrays of different strides: the tile is the largest's
__global__ void mixed_strides(R16 *big, R8 *a, R8 *b, F12 *f, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 16; ++k) big[i].v[k] = t + k;
  for (int k = 0; k < 8; ++k) { a[i].v[k] = t * k; b[i].v[k] = t - k; }
  for (int k = 0; k < 12; ++k) f[i].v[k] = (float)(t * 0.5 + k);
}

// must stay refused: the largest record's tile alone does not fit (256
// bytes for 256 threads)
__global__ void too_big_alone(R32 *big, R8 *a, R8 *b, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 32; ++k) big[i].v[k] = t + k;
  for (int k = 0; k < 8; ++k) { a[i].v[k] = t * k; b[i].v[k] = t - k; }
}

// arrays that may be one buffer: checked at run time (the overlap and alias
// layouts pass them overlapping)
__global__ void aliased_pair(R16 *a, R16 *b, R16 *c, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 16; ++k) { a[i].v[k] = t + k; b[i].v[k] = t * k; c[i].v[k] = -t; }
}

// the thread's own element read back through another pointer after the
// region: the rows are written back before it reads
__global__ void read_back(R16 *a, R16 *b, R16 *c, const double *view, double *r,
                          const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 16; ++k) { a[i].v[k] = t + k; b[i].v[k] = t * k; c[i].v[k] = t - k; }
  r[i] = view[16 * i + 5];
}

// a data exit before the stores: warp tiles, full warps only
__global__ void data_exit(R8 *a, R8 *b, R8 *c, R8 *d, R8 *e, R8 *f,
                          const double *x, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  double t = x[i];
  for (int k = 0; k < 8; ++k) {
    a[i].v[k] = t; b[i].v[k] = t + 1; c[i].v[k] = t + 2;
    d[i].v[k] = t + 3; e[i].v[k] = t + 4; f[i].v[k] = t + k;
  }
}

// __launch_bounds__(128): the tiles are sized for it; 8 records of 64 bytes
__global__ void __launch_bounds__(128)
    bounded128(R8 *a, R8 *b, R8 *c, R8 *d, R8 *e, R8 *f, R8 *g, R8 *h,
               const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 8; ++k) {
    a[i].v[k] = t; b[i].v[k] = t * 2; c[i].v[k] = t * 3; d[i].v[k] = t * 4;
    e[i].v[k] = t * 5; f[i].v[k] = t * 6; g[i].v[k] = t * 7; h[i].v[k] = t + k;
  }
}

// must stay refused: a record also read (its tile would hold loaded
// bytes while the others use it)
__global__ void also_read(R16 *a, R16 *b, R16 *c, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 16; ++k) { a[i].v[k] += t; b[i].v[k] = t * k; c[i].v[k] = t - k; }
}

// a member stored again on one side of a branch, after the region: it
// stays outside, after the rows are written back and the warp has met
__global__ void one_side(R16 *a, R16 *b, R16 *c, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  double t = x[i];
  for (int k = 0; k < 16; ++k) { a[i].v[k] = t + k; b[i].v[k] = t * k; c[i].v[k] = t - k; }
  if (t > 0.5) a[i].v[15] = 0.0;
}

// must stay refused: a grid-stride loop
__global__ void grid_stride(R16 *a, R16 *b, R16 *c, const double *x, int n) {
  for (int i = G; i < n; i += gridDim.x * blockDim.x) {
    double t = x[i];
    for (int k = 0; k < 16; ++k) { a[i].v[k] = t + k; b[i].v[k] = t * k; c[i].v[k] = t - k; }
  }
}

// one array (its tile fits alone: no turns), a 48-float record written in
// part: the stored-units mask has units past the 32nd, which a 32-bit test
// of it once dropped (the row copy left units 32-47 unwritten; the random
// family of tests/turn_kernels.py found it)
struct F48 { float v[48]; };
__global__ void wide_partial(F48 *a, const double *x, int n) {
  int i = G;
  if (i >= n) return;
  float t = (float)x[i];
#pragma unroll
  for (int k = 0; k < 48; ++k)
    if (k % 5 != 2) a[i].v[k] = t * k;
}
