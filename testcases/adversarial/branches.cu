// Adversarial corpus: staged regions that span several blocks (and a copy
// after libdevice's branches, which the copy rewrite takes). The member
// accesses of a thread's element lie in blocks that every thread passing the
// guard runs once (one control class), with branches, loops and libdevice's
// slow paths between them; or they do not (an exit, a store under a branch
// of its own), and the kernel must be left alone. Each kernel computes values
// that differ per thread, so that a wrong region boundary (a store phase
// before the last store, a tile read on a path that skipped the load phase,
// a clone that misses a block of the slow path) changes bytes. Launch spec:
// branches.toml; decisions pinned in tests/test_adversarial_branches.py.
struct F3 { float x, y, z; };
struct Rec { float a, b; int c, d; };  // 16 bytes, 4-byte aligned members

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// A loop of data-dependent length between the member updates: lanes leave
// it at different iterations. Staged: the loop lies inside the region.
__global__ void loop_between(F3 *p, int n) {
  int i = G;
  if (i < n) {
    p[i].x = p[i].x + 1.0f;
    float t = p[i].y;
    for (int r = (int)fminf(fabsf(t), 7.0f); r > 0; --r)
      t = t * 0.5f + 1.0f;
    p[i].y = t;
    p[i].z = t * p[i].z;
  }
}

// Divergent arms that both call branchy libdevice functions, then the
// stores: staged, the arms and their slow paths in the region.
__global__ void arms_then_store(F3 *out, const float *__restrict__ in, int n) {
  int i = G;
  if (i < n) {
    float v = in[i];
    out[i].x = v;
    float w = v > 0.0f ? sinf(v) : cosf(v * 3.0f);
    out[i].y = w;
    out[i].z = logf(fabsf(w) + 1.0f);
  }
}

// No guard (the grid covers n exactly): the region runs from the first
// load to the last store across sinf's blocks. Staged.
__global__ void no_guard_sinf(F3 *p) {
  int i = G;
  p[i].x = p[i].x * 0.5f;
  p[i].y = sinf(p[i].y * 100.0f);
  p[i].z = p[i].z + p[i].y;
}

// An exit between the member stores of an element the kernel only writes:
// the stores after it are not run by every thread that ran the first, and a
// tile written back whole would write the exited threads' y and z with
// whatever the tile held. The stores after the exit are staged in warp
// tiles (a warp whose lanes all got there), y and z written back only.
__global__ void exit_between(F3 *out, const float *__restrict__ in, int n) {
  int i = G;
  if (i < n) {
    float v = in[i];
    out[i].x = v + 2.0f;
    if (v < 0.0f)
      return;
    out[i].y = sqrtf(v);
    out[i].z = 3.0f;
  }
}

// A member stored in both arms of a branch: -O3 may sink the two stores
// into one after the arms (staged) or keep them in the arms (left alone).
// Either must compute the same bytes.
__global__ void store_in_both_arms(Rec *r, const float *__restrict__ in, int n) {
  int i = G;
  if (i < n) {
    float v = in[i];
    r[i].a = v;
    if (v > 0.5f)
      r[i].b = expf(v);
    else
      r[i].b = sinf(v) - 1.0f;
    r[i].c = (int)fminf(fabsf(v), 1000.0f);
    r[i].d = i;
  }
}

// A member read only on one path of a branch, the element otherwise
// updated whole: the conditional read is checked at run time against the
// thread's own element (it always overlaps) or joins the region.
__global__ void read_in_branch(F3 *p, int n) {
  int i = G;
  if (i < n) {
    float a = p[i].x;
    if (a > 0.0f)
      a = a + sinf(p[i].z);
    p[i].x = a;
    p[i].y = a * 2.0f;
    p[i].z = -a;
  }
}

// __ldg of a pointer that may be the staged array (no __restrict__): a read
// the staged path would not see through the tile. Left alone ("a call
// between the accesses may touch the staged elements").
__global__ void ldg_may_alias(F3 *p, const float *q, int n) {
  int i = G;
  if (i < n) {
    p[i].x = __ldg(q + i);
    p[i].y = sinf(p[i].x);
    p[i].z = __ldg(q + i + 1);
  }
}

// A naive transpose whose value goes through sinf first: the transposed
// store follows sinf's branches.
__global__ void transpose_sinf(float *out, const float *in, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h)
    out[x * h + y] = sinf(in[y * w + x] * 10.0f);
}

// A member-wise copy after libdevice's sinf inside the guard: the copy's
// block follows sinf's branches, which every thread passing the guard takes
// one way or the other; the threads that run it are those below the guard's
// bound. Copied (the copy rewrite, 16-byte units).
__global__ void copy_after_sinf(F3 *__restrict__ dst, const F3 *__restrict__ src, float *__restrict__ w, int n) {
  int i = G;
  if (i < n) {
    w[i] = sinf(w[i] * 100.0f);
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}
