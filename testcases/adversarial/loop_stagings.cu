// Adversarial corpus: stagings of array-of-struct elements in loops, and the
// transitions between staged and original iterations. A staged iteration
// (go check, row load, barrier, region on the tile, barrier, write-back)
// hands the thread's element to other threads; an iteration that runs the
// original code (the partial last one, one whose vote fails, a warp with a
// dead lane) then reads, through a view or an index of the staged array,
// bytes another thread wrote back. The kernels vary the loop's shape
// (grid-stride, counted with a guard inside, block-stride, nested, unsigned
// and size_t indices, continue / break), the view's distance (one grid back,
// two, one forward, bytes), writes of the next iteration's element, several
// staged arrays, regions under a uniform condition inside the loop, warp
// tiles, code before / after the loop. Launch specs: loop_stagings.toml
// (blocks of 128, mostly two of them: s = 256, three or four iterations at
// n = 1000, the last partial). No kernel here differs (MISMATCH / RACE /
// FAULT) at -O3 or -O0 under -coalda-stage-small-always. warp_next_write
// found an ordering the emulator cannot check (now a __syncwarp; see there).
#include <cstddef>

struct F3 { float x, y, z; };
struct D3 { double x, y, z; };
struct D4 { double v, x, y, z; };

#define G (blockIdx.x * blockDim.x + threadIdx.x)

// The update of the kernels that read their element one iteration back
// (or at another distance) through the view x: the element, plus two
// members read through x.
#define UPDATE_FROM_VIEW(i)                                                    \
  y[i].x = y[i].x + 1.f;                                                       \
  y[i].y = y[i].y + x[i].x;                                                    \
  y[i].z = y[i].z + x[i].z

#define DEAD(i) ((alive[i] & 31) == 3)

// A counted loop with the bound test inside (not a grid-stride loop): the
// region is guarded by i < n in each of five iterations, reads through
// x = y - s the element the thread updated in the previous iteration.
// -O3: block tiles, go by vote; -O0: not staged (StagingInLoop).
__global__ void counted_prev(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (int k = 1; k < 5; k++) {
    int i = G + k * s;
    if (i < n) {
      UPDATE_FROM_VIEW(i);
    }
  }
}

// The previous iteration's element through y itself (y[i - s]).
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void grid_stride_prev_y(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G + s; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + y[i - s].x;
    y[i].z = y[i].z + y[i - s].z;
  }
}

// A block-stride loop in one block (grid 1), the view one block back.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void block_stride_prev(F3 *y, int n) {
  int s = blockDim.x;
  const F3 *x = y - s;
  for (int i = threadIdx.x + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// The region under a uniform condition of the iteration (odd k): even
// iterations run other code that reads the previous iteration's element.
// Staged at -O3 and -O0: warp tiles, go by ballot.
__global__ void uniform_if_in_loop(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  int k = 1;
  for (int i = G + s; i < n; i += s, k++) {
    if (k & 1) {
      UPDATE_FROM_VIEW(i);
    } else {
      y[i].x = x[i].y * 2.f;
    }
  }
}

// The thread writes, through x = y + s, the z of the element it updates in
// the next iteration (y sized n + s).
// Staged at -O3 and -O0: block tiles, go by vote, two tiles (y and its view).
__global__ void next_write_view(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  F3 *x = y + s;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f;
    x[i].z = y[i].x - 1.f;
  }
}

// The same, the next element written through y itself.
// Staged at -O3 and -O0: block tiles, go by vote, two tiles (y and its view).
__global__ void next_write_y(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f;
    y[i + s].z = y[i].x - 1.f;
  }
}

// Warp tiles (24-byte elements written) with a data-dependent continue, the
// view one grid back.
// Staged at -O3 and -O0: warp tiles, go by ballot.
__global__ void warp_prev_continue(D3 *y, const unsigned char *alive, int n) {
  int s = blockDim.x * gridDim.x;
  const D3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    if (DEAD(i)) continue;
    y[i].x = y[i].x + 1.0;
    y[i].y = y[i].y + x[i].x;
    y[i].z = y[i].z + x[i].z;
  }
}

// Warp tiles with a continue; the next iteration's z written through a view.
// An original iteration (a warp with a dead lane) writes the next element's
// z directly, and when the next iteration is staged another lane copies it
// into the tile with only activemask / shfl / ballot between, which order no
// memory (the emulator, which runs lanes one at a time to each collective,
// cannot tell). Since found, a region's write that may reach a loaded
// array's later rows makes the load phase start with a __syncwarp (a
// barrier for block tiles), as the flat warp_tiles.cu prologue_view does.
// Staged at -O3 and -O0: warp tiles, go by ballot, two tiles (y and its
// view), 4 barriers.
__global__ void warp_next_write(D3 *y, const unsigned char *alive, int n) {
  int s = blockDim.x * gridDim.x;
  D3 *x = y + s;
  for (int i = G; i < n; i += s) {
    if (DEAD(i)) continue;
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.0;
    x[i].z = y[i].x - 1.0;
  }
}

// After the loop (no barrier) each thread reads its own first element, which
// another thread wrote back in a staged iteration.
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void epilogue_own(F3 *y, float *r, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
  }
  if (G < n)
    r[G] = y[G].x + y[G].y + y[G].z;
}

// The grid-stride loop run three times.
// -O3: block tiles, go by the block's shape; -O0: not staged (StagingInLoop).
__global__ void nested_reps(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int rep = 0; rep < 3; rep++)
    for (int i = G; i < n; i += s) {
      y[i].x = y[i].x + 1.f;
      y[i].y = y[i].y * 2.f + y[i].z;
      y[i].z = y[i].z - y[i].x;
    }
}

// axpy whose x is also written (two staged arrays), x = y - s: the thread's
// previous element, read and written.
// Staged at -O3 and -O0: block tiles, go by vote, two tiles (y and its view).
__global__ void axpy_prev_written(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  F3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    y[i].x = 3.f * x[i].x + y[i].x;
    y[i].y = 3.f * x[i].y + y[i].y;
    y[i].z = 3.f * x[i].z + y[i].z;
    x[i].z = 0.5f;
  }
}

// size_t indices.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void size_t_prev(F3 *y, size_t n) {
  size_t s = (size_t)blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// unsigned indices.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void unsigned_prev(F3 *y, unsigned n) {
  unsigned s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (unsigned i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// Two grids back.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void prev2(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - 2 * s;
  for (int i = G + 2 * s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// A data-dependent break after the region (on the thread's own value).
// Not staged at -O3 and -O0 (StagingInLoop).
__global__ void break_prev(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
    if (y[i].x > 1.5f)
      break;
  }
}

// A byte view of the previous iteration's element (byte 8: its z's first).
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void prev_bytes(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const unsigned char *b = (const unsigned char *)(y - s);
  for (int i = G + s; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + (float)b[12 * i + 8];
    y[i].z = y[i].z * 0.5f;
  }
}

// __launch_bounds__(128), the view one grid back.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void __launch_bounds__(128) bounded_prev(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// The neighbour's z (i + 1) written through an integer address inside the
// region: other memory, checked against the own element only (it misses); the
// write-back must leave z alone (it writes the stored members x and y).
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void neighbour_z_int(F3 *y, long long one, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    float *f = (float *)((long long)y + one * 12 + 8 + 12LL * i);
    *f = (float)i;
    y[i].y = y[i].y * 2.f + y[i].x;
  }
}

// The same with 24-byte elements (warp tiles), x and y written.
// Staged at -O3 and -O0: warp tiles, go by ballot.
__global__ void warp_neighbour_z_int(D3 *y, long long one, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.0;
    double *f = (double *)((long long)y + one * 24 + 16 + 24LL * i);
    *f = (double)i;
    y[i].y = y[i].y * 2.0 + y[i].x;
  }
}

// Reads of y, and the next iteration's y member written through a view
// x = y + s (the only write: the view is the staged array).
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void read_next_view(F3 *y, float *out, int n) {
  int s = blockDim.x * gridDim.x;
  F3 *nx = y + s;
  for (int i = G; i < n; i += s) {
    float v = y[i].x + y[i].y * y[i].z;
    out[i] = v;
    nx[i].y = v;
  }
}

// The next iteration's z written through an integer address after the
// region: the next iteration's row copy reads it in another thread.
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void next_int_after(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f;
    float v = y[i].x - 1.f;
    *(float *)((long long)y + 12LL * (i + s) + 8) = v;
  }
}

// The same write before the region.
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void next_int_before(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    *(float *)((long long)y + 12LL * (i + s) + 8) = (float)i;
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].x - 1.f;
  }
}

// Warp tiles with a continue, the next iteration's z written through an
// integer address after the region.
// -O3: not staged (no candidate); -O0: warp tiles, go by ballot.
__global__ void warp_next_int_after(D3 *y, const unsigned char *alive, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    if (DEAD(i)) continue;
    y[i].x = y[i].x + y[i].z;
    y[i].y = y[i].y * 2.0;
    double v = y[i].x - 1.0;
    *(double *)((long long)y + 24LL * (i + s) + 16) = v;
  }
}

// Even elements staged (gaps of one element), the odd one after each written
// by the same thread after the region.
// Staged at -O3 and -O0: warp tiles, go by ballot.
__global__ void gaps_odd(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[2 * i].x = y[2 * i].x + 1.f;
    y[2 * i].y = y[2 * i].y * 2.f;
    y[2 * i].z = y[2 * i].z - y[2 * i].x;
    y[2 * i + 1].y = y[2 * i].z;
  }
}

// Each block walks its own chunk of 200 elements (blocks of 128: a full row
// and a partial one; the bound differs between blocks).
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void chunk_loop(F3 *y, int n) {
  int lo = blockIdx.x * 200, hi = min(lo + 200, n);
  for (int i = lo + threadIdx.x; i < hi; i += blockDim.x) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
  }
}

// The chunk loop with the previous row's own element through a view.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void chunk_prev(F3 *y, int n) {
  int lo = blockIdx.x * 200, hi = min(lo + 200, n);
  const F3 *x = y - blockDim.x;
  for (int i = lo + threadIdx.x + blockDim.x; i < hi; i += blockDim.x) {
    UPDATE_FROM_VIEW(i);
  }
}

// The offset of the element read changes with the iteration: the own element
// (d = 0) first, the previous one (d = -s) after.
// -O3: not staged (StagingAccessBetween, StagingInLoop); -O0: block tiles, go by vote.
__global__ void varying_offset(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  int d = 0;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + y[i + d].z;
    y[i].z = y[i].z * 0.5f + y[i + d].x;
    d = -s;
  }
}

// A loop counting down, the previous iteration's element one grid up.
// Not staged at -O3 and -O0 (no candidate).
__global__ void down_prev(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y + s;
  for (int i = n - 1 - s - (int)G; i >= 0; i -= s) {
    UPDATE_FROM_VIEW(i);
  }
}

// Rows at a start offset (off = 37), the view one grid back.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void start_off_prev(F3 *y, int off, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y - s;
  for (int i = G + off + s; i < n; i += s) {
    UPDATE_FROM_VIEW(i);
  }
}

// y[2i - g]: the thread's own element on the first iteration (the z it has
// just written, in the tile), its element of iteration 2k after.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void future_own(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  int g = G;
  for (int i = g; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].z = y[i].z * 2.f;
    y[i].y = y[i].y + y[2 * i - g].z;
  }
}

// y[i - k*s]: the own element on the first iteration, the first iteration's
// element on the others.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void first_own(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  int k = 0;
  for (int i = G; i < n; i += s, k++) {
    y[i].x = y[i].x + 1.f;
    y[i].z = y[i].z * 2.f;
    y[i].y = y[i].y + y[i - k * s].z;
  }
}

// y[g]: the first iteration's element through a loop-invariant index.
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void first_elem(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  int g = G;
  for (int i = g; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].z = y[i].z * 2.f;
    y[i].y = y[i].y + y[g].z;
  }
}

// Rows walked by a block-uniform loop with a user barrier per iteration: the
// lane partner's previous-row element is read.
// Not staged at -O3 and -O0 (StagingInLoop).
__global__ void uniform_rows_neighbour(F3 *y, int n) {
  int s = blockDim.x * gridDim.x;
  for (int base = blockIdx.x * blockDim.x; base < n; base += s) {
    int i = base + threadIdx.x;
    if (i < n) {
      float p = base >= s ? y[base - s + (threadIdx.x ^ 1)].x : 0.f;
      y[i].x = y[i].x + 1.f;
      y[i].y = y[i].y + p;
      y[i].z = y[i].z * 2.f;
    }
    __syncthreads();
  }
}

// The view (off = 0) hits the own element of thread 0 of block 0 on its
// second iteration only: that iteration's vote fails in block 0, the
// iterations around it are staged (staged -> original -> staged, the
// original one and the next reading elements written back by others).
// Staged at -O3 and -O0: block tiles, go by vote.
__global__ void vote_fails_middle(F3 *y, int off, int n) {
  int s = blockDim.x * gridDim.x;
  const F3 *x = y + off;
  for (int i = G + s; i < n; i += s) {
    int j = (i == 2 * s) ? i : i - s;
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y + x[j].x;
    y[i].z = y[i].z + x[j].z;
  }
}

// Two grid-stride loops: the second reads the elements the first updated
// (no barrier between).
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void two_loops(F3 *y, float *r, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
  }
  for (int i = G; i < n; i += s)
    r[i] = y[i].x * y[i].y;
}

// Warp tiles with a continue; axpy whose x = y - s (the previous element) is
// written too.
// Staged at -O3 and -O0: warp tiles, go by ballot, two tiles (y and its view).
__global__ void warp_axpy_prev_written(D3 *y, const unsigned char *alive, int n) {
  int s = blockDim.x * gridDim.x;
  D3 *x = y - s;
  for (int i = G + s; i < n; i += s) {
    if (DEAD(i)) continue;
    y[i].x = 3.0 * x[i].x + y[i].x;
    y[i].y = 3.0 * x[i].y + y[i].y;
    y[i].z = 3.0 * x[i].z + y[i].z;
    x[i].z = 0.5;
  }
}

// Warp tiles in a loop, then a user barrier and the lane partner's first
// element read.
// Staged at -O3 and -O0: warp tiles, go by ballot.
__global__ void warp_epilogue_barrier(D3 *y, double *r, const unsigned char *alive, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    if (DEAD(i)) continue;
    y[i].x = y[i].x + 1.0;
    y[i].y = y[i].y * 2.0;
    y[i].z = y[i].z - y[i].x;
  }
  __syncthreads();
  int j = blockIdx.x * blockDim.x + (threadIdx.x ^ 1);
  if (G < n && j < n)
    r[G] = y[j].x + y[j].z;
}

// A user __syncwarp after the region, then the lane partner's element (just
// updated, written back by some thread of the block) read, and another
// __syncwarp.
// Staged at -O3 and -O0: block tiles, go by the block's shape.
__global__ void syncwarp_partner(F3 *y, float *r, int n) {
  int s = blockDim.x * gridDim.x;
  for (int i = G; i < n; i += s) {
    y[i].x = y[i].x + 1.f;
    y[i].y = y[i].y * 2.f;
    y[i].z = y[i].z - y[i].x;
    __syncwarp();
    int j = i ^ 1;
    r[i] = j < n ? y[j].x : 0.f;
    __syncwarp();
  }
}
