// Parameter structs (issue 37): kernels that read their pointers from a
// struct taken by value (`params.pos[i]`), the form real programs use. The
// pass reads a pointer loaded from a read-only by-value parameter as a base
// like a parameter, and hoists that load to the kernel's start when a
// rewrite uses it. Each kernel says what it attacks and what the pass does.
//
// The launch spec (param_structs.toml) gives each struct's pointer fields
// buffers of their own; the oracle writes their addresses into the struct.

#define G (blockIdx.x * blockDim.x + threadIdx.x)

struct F3 { float x, y, z; };
struct Copy { const float *src; float *dst; int n; };
struct Update { F3 *rec; const float *w; int n; float s; };
struct Twin { float *a; float *b; int n; };

// A float3 copy through the struct's two pointers, loaded inside the guard.
// Pass: region copy at -O3 (its bases hoisted to the entry, an overlap check
// between them: the struct says nothing of their aliasing).
__global__ void copy3(Copy p) {
  int i = G;
  if (i < p.n) {
    p.dst[3 * i] = p.src[3 * i];
    p.dst[3 * i + 1] = p.src[3 * i + 1];
    p.dst[3 * i + 2] = p.src[3 * i + 2];
  }
}

// A read-modify-write of records through the struct, weighted by a second
// array of the same struct. Pass: element staging at -O3.
__global__ void update_records(Update p) {
  int i = G;
  if (i < p.n) {
    p.rec[i].x = p.rec[i].x * p.s + p.w[i];
    p.rec[i].y += p.rec[i].x * p.w[i];
    p.rec[i].z = p.rec[i].z - p.s;
  }
}

// Two pointers of one struct that the host may set equal: b[i] is read and
// a[i] written at 12 bytes per lane. Left alone or rewritten under an overlap
// check; the oracle's field buffers are apart, the emulator's alias of the
// struct is not run (a struct is a copy of its own).
__global__ void twin_swap(Twin p) {
  int i = G;
  if (i < p.n) {
    float t0 = p.b[3 * i], t1 = p.b[3 * i + 1], t2 = p.b[3 * i + 2];
    p.a[3 * i] = t2;
    p.a[3 * i + 1] = t1;
    p.a[3 * i + 2] = t0;
  }
}

// The struct's pointer chosen by a thread-dependent condition: no longer
// one base for the warp. Left alone.
__global__ void chosen_by_thread(Twin p) {
  int i = G;
  if (i < p.n) {
    float *q = (i & 1) ? p.a : p.b;
    q[3 * i] += 1.0f;
    q[3 * i + 1] += 2.0f;
    q[3 * i + 2] += 3.0f;
  }
}

// A grid-stride copy through the struct: the loop's bound and both pointers
// come from the struct. Pass: region copy inside the loop at -O3.
__global__ void copy3_grid_stride(Copy p) {
  for (int i = G; i < p.n; i += gridDim.x * blockDim.x) {
    p.dst[3 * i] = p.src[3 * i];
    p.dst[3 * i + 1] = p.src[3 * i + 1];
    p.dst[3 * i + 2] = p.src[3 * i + 2];
  }
}

// ================================================================ twins
// The same kernels with plain pointer parameters: what the struct's rewrite
// must match (the oracle compares each with its twin, the bench times both).
__global__ void copy3_args(const float *src, float *dst, int n) {
  int i = G;
  if (i < n) {
    dst[3 * i] = src[3 * i];
    dst[3 * i + 1] = src[3 * i + 1];
    dst[3 * i + 2] = src[3 * i + 2];
  }
}

__global__ void update_records_args(F3 *rec, const float *w, int n, float s) {
  int i = G;
  if (i < n) {
    rec[i].x = rec[i].x * s + w[i];
    rec[i].y += rec[i].x * w[i];
    rec[i].z = rec[i].z - s;
  }
}

__global__ void copy3_grid_stride_args(const float *src, float *dst, int n) {
  for (int i = G; i < n; i += gridDim.x * blockDim.x) {
    dst[3 * i] = src[3 * i];
    dst[3 * i + 1] = src[3 * i + 1];
    dst[3 * i + 2] = src[3 * i + 2];
  }
}
