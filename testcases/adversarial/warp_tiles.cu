// Adversarial corpus: element stagings in warp tiles (issue 12). Every
// kernel returns early on a value it reads (about one lane in 32 is dead:
// `(alive[i] & 31) == 3`), so no block barrier may go before its accesses
// and the pass stages one full warp at a time: go = ballot(activemask(),
// checks) == all 32 lanes; the warp moves its 32 elements through its slice
// of the tile between __syncwarps; other warps (partial ones, ones with a
// dead lane, lanes the shuffled schedule runs apart) run the original code.
// The kernels attack that: own elements touched through other pointers
// before / after the region, exits after the accesses, a switch / goto /
// loop / if-else before them, branches and shuffles inside the span,
// per-lane overlap checks that fail in one lane only, several arrays at
// different strides, 8-byte members, 40- and 192-byte elements, rows at
// 4-byte aligned bases and at element offsets that straddle warps,
// __launch_bounds__(100), the kernel's own shared memory, helpers. Some
// must stay refused (a __syncwarp between the accesses, a member written
// on one side of a branch, data-dependent offsets, gaps between elements,
// a loop around them). Launch spec: warp_tiles.toml; decisions pinned in
// tests/test_adversarial_warp_tiles.py.
struct F3 { float x, y, z; };
struct D3 { double x, y, z; };
struct F5 { float a, b, c, d, e; };
struct I4 { int x, y, z, w; };
struct B40 { double a, b, c, d; float e, f; };
struct U3 { unsigned char r, g, b; };
struct S3 { short x, y, z; };
struct Big { double v[24]; };
struct __align__(16) V8 { float4 lo, hi; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)
// about one lane in 32: (31/32)^32, about 36% of the full warps are staged
#define DEAD(i) ((alive[i] & 31) == 3)


// control
__global__ void basic(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].x;
}

// __syncwarp between the staged accesses, then a neighbour's member read
// through global memory: original sees the neighbour's new x.
__global__ void syncwarp_inside(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x = a[i].x + 1.0f;
  a[i].y = 2.0f;
  __syncwarp();
  r[i] = a[i ^ 1].x;
  a[i].z = 3.0f;
}

// own element's member written through a float view before the region
__global__ void prologue_view(F3 *a, float *v, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  v[3 * i + 1] = 5.0f;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// own element read through a view after the region
__global__ void epilogue_view(F3 *a, const float *v, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  r[i] = v[3 * i] + v[3 * i + 2];
}

// own element member written through a view after the region
__global__ void epilogue_write(F3 *a, float *v, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  v[3 * i + 1] = 7.0f;
}

// a member written only on one side of a data branch inside the span
__global__ void cond_member(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x = 1.0f;
  a[i].z = 3.0f;
  if (alive[i] & 1) a[i].y = 2.0f;
  a[i].x = 4.0f;
}

// accesses after an if/else on data that reconverges
__global__ void ifelse_reconverge(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float s;
  if (alive[i] & 1) { s = 2.0f; r[i] = 1.0f; } else { s = 3.0f; }
  a[i].x += s; a[i].y *= s; a[i].z -= a[i].y;
}

// a phi of divergent branches in the index: off is 0 or n
__global__ void phi_offset(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  int off;
  if (alive[i] & 1) { off = n; r[i] = 1.0f; } else { off = 0; r[i] = 2.0f; }
  a[i + off].x += 1.0f; a[i + off].y *= 2.0f; a[i + off].z -= 1.0f;
}

// a select of data in the index
__global__ void select_offset(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  int off = (alive[i] & 1) ? n : 0;
  a[i + off].x += 1.0f; a[i + off].y *= 2.0f; a[i + off].z -= 1.0f;
}

// two arrays of different strides, 8-byte members
__global__ void two_strides(D3 *d, F5 *f, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  d[i].x += f[i].a; d[i].y += f[i].b; d[i].z += f[i].c;
  f[i].d = (float)d[i].x; f[i].e = (float)d[i].y; f[i].a = 0.0f; f[i].b = 1.0f; f[i].c = 2.0f;
}

// 40-byte elements
__global__ void elem40(B40 *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  p[i].a += 1.0; p[i].b *= 2.0; p[i].c = p[i].a - p[i].b; p[i].d = 0.5;
  p[i].e += 1.0f; p[i].f = p[i].e * 2.0f;
}

// 16-byte int elements at a base shifted by one int (4-byte aligned rows)
__global__ void shifted_base(int *buf, const unsigned char *alive, int off, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  I4 *a = (I4 *)(buf + off);
  a[i].x += 1; a[i].y ^= a[i].x; a[i].z = a[i].y * 3; a[i].w -= 7;
}

// reversed index
__global__ void reversed(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  int j = n - 1 - i;
  a[j].x += 1.0f; a[j].y *= 2.0f; a[j].z -= 1.0f;
}

// out and in the same buffer (may overlap): out = buf, in = buf + off elements
__global__ void same_buffer(F3 *out, const F3 *in, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  out[i].x = in[i].x + 1.0f; out[i].y = in[i].y * 2.0f; out[i].z = in[i].z - in[i].x;
}

// exits after the accesses, depending on the staged values
__global__ void exit_after(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  if (a[i].x > 0.0f) return;
  r[i] = a[i].z;
}

// a switch on data before the accesses, some cases return
__global__ void switch_before(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  switch (alive[i] & 63) {
  case 3: return;
  case 5: r[i] = 1.0f; break;
  case 7: return;
  default: break;
  }
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// goto out of the way before the accesses
__global__ void goto_before(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) goto done;
  if (DEAD(i)) goto done;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
done:
  if (i < n) r[i] = 1.0f;
}

__device__ void bump(F3 *a, int i) {
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}
__device__ __noinline__ void bump_ni(F3 *a, int i) {
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}
__global__ void helper(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  bump(a, i);
}
__global__ void helper_noinline(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  bump_ni(a, i);
}

// the kernel's own __shared__ array, __syncthreads before the early return
// (the neighbour's slot only where the block has that thread: the oracle's
// one-thread overlap launch would read a slot nothing wrote, whatever the
// GPU left there: the two versions differed on an H200, while the emulator,
// which fills shared memory with the same byte for both, matched)
__global__ void own_shared(F3 *a, const float *v, const unsigned char *alive, int n) {
  __shared__ float s[1024];
  int i = G;
  s[threadIdx.x] = i < n ? v[i] : 0.0f;
  __syncthreads();
  if (i >= n) return;
  if (DEAD(i)) return;
  unsigned j = threadIdx.x ^ 1;
  a[i].x += j < blockDim.x ? s[j] : 0.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// shuffles inside the region (full mask with exited lanes)
__global__ void shfl_inside(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float y = a[i].y;
  float o = __shfl_xor_sync(~0u, y, 1);
  a[i].x += o; a[i].y = y * 2.0f; a[i].z -= o;
}

// a neighbour's staged member read through another pointer after a
// shuffle: the shuffle runs the lanes in step, so the original reads the
// neighbour's new x; a tile would hold that store back. Refused (a warp
// collective between the accesses with a run-time checked access).
__global__ void shfl_orders(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x = a[i].x + 1.0f;
  a[i].y = a[i].y * 2.0f;
  float t = __shfl_xor_sync(~0u, 1.0f, 1);
  r[i] = ((const float *)a)[3 * (i ^ 1)] * t;
  a[i].z = 3.0f;
}

// a ballot inside the region
__global__ void ballot_inside(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float x = a[i].x;
  unsigned b = __ballot_sync(~0u, x > 0.0f);
  a[i].x = x + (float)__popc(b); a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// stores only (every byte), behind the data exit
__global__ void stores_only(F5 *f, const float *v, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float t = v[i];
  f[i].a = t; f[i].b = t + 1.0f; f[i].c = t + 2.0f; f[i].d = t + 3.0f; f[i].e = t + 4.0f;
}

// the thread writes its own element (same pointer) before the data exit
__global__ void write_before_exit(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  a[i].y = 9.0f;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}


// every other element read-modify-written: a row moves the gaps too, and
// the store phase writes back only the elements' 12 bytes of each 24
__global__ void gaps(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[2 * i].x += 1.0f; a[2 * i].y *= 2.0f; a[2 * i].z -= 1.0f;
}

// staged again after a second data exit
__global__ void reaccess_after_exit(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  if (alive[i] & 1) return;
  a[i].x *= 3.0f;
}

// a neighbour's element written after the region, ordered by __syncwarp
// (the whole warp's: __syncwarp(__activemask()) would order only the lanes
// that happen to run together, and a lane still before its update may
// then see the write first, on a GPU as in the emulator, which holds lanes
// at the rewrite's activemask)
__global__ void syncwarp_after(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  bool live = i < n && !DEAD(i);
  if (!live) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  __syncwarp();
  if ((threadIdx.x & 1) && (i ^ 1) < n) ((float *)a)[3 * (i ^ 1) + 1] = 8.0f;
}

// a neighbour's element written before the region, ordered by __syncwarp
__global__ void syncwarp_before(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (threadIdx.x & 1) ((float *)a)[3 * (i ^ 1) + 1] = 8.0f;
  __syncwarp();
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

__global__ void bytes3(U3 *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  p[i].r += 1; p[i].g ^= p[i].r; p[i].b = p[i].g + 2;
}

__global__ void shorts3(S3 *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  p[i].x += 1; p[i].y ^= p[i].x; p[i].z = p[i].y - 2;
}

// lanes of a warp index elements of different blocks' rows: index with
// threadIdx in the low part and blockIdx scaled by 96 (overlapping rows at
// a block of 96 work, 128 would race)
__global__ void block_stride(F3 *a, const unsigned char *alive, int n) {
  int i = blockIdx.x * 96 + threadIdx.x;
  if (threadIdx.x >= 96 || i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// index offset by a parameter (rows straddle elements of two warps)
__global__ void param_offset(F3 *a, const unsigned char *alive, int off, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  int j = i + off;
  a[j].x += 1.0f; a[j].y *= 2.0f; a[j].z -= a[j].y;
}

// __launch_bounds__ not a multiple of 32
__global__ void __launch_bounds__(100) bounded100(B40 *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  p[i].a += 1.0; p[i].b *= 2.0; p[i].c = p[i].a - p[i].b; p[i].d = 0.5;
  p[i].e += 1.0f; p[i].f = p[i].e * 2.0f;
}

// the element pointer picked by data (two arrays through a phi)
__global__ void pick_array(F3 *a, F3 *b, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  F3 *p;
  if (alive[i] & 1) { p = a; r[i] = 1.0f; } else { p = b; r[i] = 2.0f; }
  p[i].x += 1.0f; p[i].y *= 2.0f; p[i].z -= p[i].y;
}

// tid.x only (no blockIdx), one block (the spec's grid = 1). Block tile: the
// one early return reads alive[threadIdx.x], which the vote computes first.
__global__ void tid_only(F3 *a, const unsigned char *alive) {
  int i = threadIdx.x;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// reads of the neighbour's staged-array element (read only, both lanes read)
__global__ void read_neighbour(F3 *a, const F3 *b, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float o = (i + 1 < n) ? b[i + 1].x : 0.0f;
  a[i].x = b[i].x + o; a[i].y = b[i].y; a[i].z = b[i].z;
  r[i] = o;
}

// a store in the region that hits the lane's own element in about one lane
// in 256 (one buffer): that lane fails the overlap check, so the ballot
// sends its whole warp to the original code
__global__ void scatter_own(float *buf, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  F3 *a = (F3 *)buf;
  int k = alive[i] == 200 ? 3 * i + 1 : 3 * n + i;
  a[i].x += 1.0f;
  buf[k] = a[i].x;
  a[i].y *= 2.0f;
  a[i].z -= a[i].y;
}

// a load in the region that reads the lane's own element in about one lane
// in 256 (after the region's store to it: the check sends the warp away)
__global__ void gather_own(float *buf, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  F3 *a = (F3 *)buf;
  int k = alive[i] == 200 ? 3 * i + 2 : 3 * n + i;
  a[i].x += 1.0f;
  a[i].z = 5.0f;
  r[i] = buf[k];
  a[i].y *= 2.0f;
}

// branches on staged values inside the span
__global__ void span_branches(F3 *a, float *r, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f;
  if (a[i].x > 0.0f) r[i] = a[i].x; else r[i] = -1.0f;
  a[i].y *= 2.0f;
  float z = a[i].z;
  if (alive[i] & 2) z = a[i].y;
  a[i].z = z;
}

// a loop with a data-dependent trip count between the accesses, a shuffle in it
__global__ void span_loop(F3 *a, const float *w, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f;
  float s = 0.0f;
  for (int k = 0; k < (alive[i] & 3); ++k) s += w[k];
  a[i].y = s;
  a[i].z -= a[i].x;
}

// the element copied whole to a local, changed, stored whole
__global__ void struct_assign(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  F3 t = a[i];
  t.x += 1.0f; t.y *= t.x; t.z = t.y - t.z;
  a[i] = t;
}

// 192-byte elements
__global__ void elem192(Big *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
#pragma unroll
  for (int k = 0; k < 24; ++k) p[i].v[k] = p[i].v[k] * 2.0 + k;
}

// 32-byte elements of two float4 members
__global__ void vec32(V8 *p, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  float4 lo = p[i].lo, hi = p[i].hi;
  lo.x += hi.w; hi.y *= lo.z;
  p[i].lo = lo; p[i].hi = hi;
}

// the data exit after a __syncwarp that every lane reaches
__global__ void exit_after_syncwarp(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  float v = (i < n) ? (float)alive[i] : 0.0f;
  v += __shfl_down_sync(~0u, v, 1);
  __syncwarp();
  if (i >= n || DEAD(i)) return;
  a[i].x += v; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// exits (about one lane in 32) on a staged member, read before the region
__global__ void exit_on_member(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if ((__float_as_uint(a[i].z) & 31) == 3) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// two stagings' worth: a read-only AoS input and a written AoS output,
// several exits on both
__global__ void two_exits(F3 *out, const F3 *in, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  if ((alive[i] & 63) == 17) return;
  out[i].x = in[i].y; out[i].y = in[i].z; out[i].z = in[i].x;
}

// the accesses after a loop whose trip count depends on data (lanes leave it apart)
__global__ void loop_before(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  float s = 0.0f;
  for (int k = 0; k < (alive[i] & 7); ++k) s += (float)k;
  if (DEAD(i)) return;
  a[i].x += s; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// a grid-stride loop with a data-dependent continue: no block barrier may
// go on an iteration some threads skip; a warp whose 32 lanes reach the
// accesses in one iteration is staged on its own (lanes that skipped run
// ahead to the next iteration's activemask: a mask of lanes of two
// iterations is not one row and runs the original code). One block walks
// all n elements (warp_tiles.toml).
__global__ void grid_continue(F3 *a, const unsigned char *alive, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    if (DEAD(i)) continue;
    a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
  }
}

__device__ __noinline__ void bump_exits(F3 *a, const unsigned char *alive, int i, int n) {
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}
// the helper (with its exits) called twice
__global__ void helper_twice(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  bump_exits(a, alive, i, n);
  bump_exits(a, alive + 1, i, n - 1);
}
// the helper in a loop of data-dependent trip count
__global__ void helper_in_loop(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  for (int k = 0; k <= (alive[i] & 1); ++k) bump_exits(a + k * n, alive, i, n);
}

// the index split into warp and lane parts
__global__ void warp_lane_index(F3 *a, const unsigned char *alive, int n) {
  int i = blockIdx.x * blockDim.x + (threadIdx.x & ~31u) + (threadIdx.x & 31u);
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}
__global__ void warp_lane_index2(F3 *a, const unsigned char *alive, int n) {
  int i = blockIdx.x * blockDim.x + 32 * (threadIdx.x / 32) + threadIdx.x % 32;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}
// lanes of a warp strided by blockDim/32 elements (warp w takes w, w+4, ...):
// no element row per warp; refused
__global__ void lane_only(F3 *a, const unsigned char *alive, int n) {
  int i = blockIdx.x * blockDim.x + (threadIdx.x & 31) * (blockDim.x / 32) + threadIdx.x / 32;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f; a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// a __builtin_trap between the accesses (never taken on these inputs)
__global__ void trap_inside(F3 *a, const unsigned char *alive, int n) {
  int i = G;
  if (i >= n) return;
  if (DEAD(i)) return;
  a[i].x += 1.0f;
  if (a[i].x == 12345.5f) __builtin_trap();
  a[i].y *= 2.0f; a[i].z -= a[i].y;
}

// grid_continue with 24-byte elements
__global__ void grid_continue_d3(D3 *a, const unsigned char *alive, int n) {
  for (int i = G; i < n; i += blockDim.x * gridDim.x) {
    if (DEAD(i)) continue;
    a[i].x = a[i].x * 0.5 + 1.0; a[i].y -= a[i].x; a[i].z = a[i].y * a[i].x;
  }
}
