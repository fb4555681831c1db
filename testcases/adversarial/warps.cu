// Adversarial corpus: rewritten kernels that also talk across the warp.
// The emulator runs __shfl*_sync, votes and reductions (coalda/emulator/threads.py)
// under every schedule: a rewrite that moved a staged member to the wrong
// lane, broke a warp's convergence around its barriers, or ran a shuffle on
// one path of a block and not the other changes the bytes or deadlocks.
// Launch spec: warps.toml; decisions pinned in tests/test_adversarial_warps.py.
struct F3 { float x, y, z; };
struct Pixel { unsigned char r, g, b; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)
#define LANE (threadIdx.x & 31)

// A staged float3 update, then a warp sum of the new x into one slot per
// warp. Staged; the shuffles come after the staged region.
__global__ void rmw_then_warp_sum(F3 *p, float *sums, int n) {
  int i = G;
  float v = 0.0f;
  if (i < n) {
    p[i].x = p[i].x * 2.0f + p[i].z;
    p[i].y = p[i].y - p[i].x;
    p[i].z = p[i].z + 1.0f;
    v = p[i].x;
  }
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_down_sync(~0u, v, d);
  if (LANE == 0)
    sums[i / 32] = v;
}

// The neighbour's member through a shuffle inside the region: each thread
// writes its element from its own y and lane^1's y (registers, not
// memory). Staged: the shuffle touches no memory the IR can name, and runs
// on the staged path with the same lanes as on the original one.
__global__ void swap_pairs(F3 *p, int n) {
  int i = G;
  if (i < n) {
    float mine = p[i].y;
    float other = __shfl_xor_sync(~0u, mine, 1);
    p[i].x = other;
    p[i].y = mine + other;
    p[i].z = p[i].z * 0.5f;
  }
}

// A shuffle in the region whose lanes diverge: the first half of each warp
// adds its pair's member under a half-warp mask. The branch splits the
// accesses over two blocks that every thread passing the guard runs:
// staged, the shuffle runs under the same mask on the staged path and in
// the original's clone (the oracle checks a half-warp mask in a divergent
// branch).
__global__ void swap_pairs_divergent(F3 *p, int n) {
  int i = G;
  if (i < n) {
    float mine = p[i].y;
    if ((threadIdx.x & 31) < 16)
      mine += __shfl_xor_sync(0xffffu, mine, 1);
    p[i].x = p[i].x + 1.0f;
    p[i].y = mine;
    p[i].z = p[i].z * 0.5f;
  }
}

// __syncwarp between the member accesses orders memory among the warp's
// lanes; its intrinsic says nothing of its memory: left alone ("a call
// between the accesses may touch the staged elements").
__global__ void syncwarp_inside(F3 *p, int n) {
  int i = G;
  if (i < n) {
    p[i].x = p[i].y * 2.0f;
    __syncwarp();
    p[i].y = p[i].x + 1.0f;
    p[i].z = p[i].z * 0.5f;
  }
}

// A ballot of which pixels are dark (from a coalesced luminance), next to
// a widened pixel copy.
__global__ void copy_and_ballot(Pixel *dst, const Pixel *__restrict__ src, const unsigned char *__restrict__ lum,
                                unsigned *__restrict__ dark, int n) {
  int i = G;
  bool d = false;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
    d = lum[i] < 96;
  }
  unsigned mask = __ballot_sync(~0u, d);
  if (LANE == 0)
    dark[i / 32] = mask;
}

// A per-thread chunk of 8 floats, then the warp's maximum through
// redux.sync (the builtin: clang 19's __reduce_max_sync swaps its operands).
__global__ void chunk_then_warp_max(float *a, int *best, int n) {
  int i = G;
  int m = -2147483647;
  if (i < n) {
    for (int k = 0; k < 8; ++k) {
      a[8 * i + k] = a[8 * i + k] * 0.5f + 1.0f;
      m = max(m, (int)a[8 * i + k]);
    }
  }
  m = __nvvm_redux_sync_max(m, ~0u);
  if (LANE == 0)
    best[i / 32] = m;
}

// A naive transpose whose value is the warp's broadcast of lane 0's input
// plus the thread's own: the column store is permuted through a tile.
__global__ void transpose_broadcast(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float v = (x < w && y < h) ? in[y * w + x] : 0.0f;
  float first = __shfl_sync(~0u, v, 0);
  if (x < w && y < h)
    out[x * h + y] = v + first;
}
