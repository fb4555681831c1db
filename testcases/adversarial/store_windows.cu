// Adversarial corpus: store windows (issue 39 item 2, -coalda-window-stores;
// pass/lib/ChunkWindow*.cpp): in a loop that the chunk window already takes
// for its loads, the stores `dest[p*S + j] = v` of a per-thread chunk go
// into the thread's row of a shared tile, and each warp flushes its 32 rows
// (consecutive lanes writing consecutive units, between __syncwarp()s) when
// the next iteration's record would not fit, and once more when the loop
// exits. Taken only when the array's stores run on every iteration, all of
// one width (4, 8 or 16 bytes), cover a record of the row densely and
// advance by exactly that record; no other access or call in the loop may
// touch the stored array unless it is a windowed load array (then a
// run-time check that the block's byte ranges of the two are disjoint
// joins the vote); blocks of whole warps; one exit.
//
// The kernels attack each of these: partial final windows (trip counts 0,
// 3, 7, 9, 13, 21, 23, 33; 4-, 8- and 16-byte units, 8-byte units at
// 4-byte alignment), records of two, three and four stores (in reverse
// order, of mixed widths, overlapping, with gaps, written twice), stores
// under branches, the stored array read back in the loop or overlapping
// the loaded one (in place, shifted by an int, records shifted so that the
// two windows turn over at different iterations, the next block's rows:
// the run-time range check), a second stored array (which may alias, or
// __restrict__), a store through a data-dependent pointer, an atomic, a
// store before the exit test, the ordering of the write-back with stores
// and loads around the loop (the thread's own row, a lane's after a
// __syncwarp, another warp's after a __syncthreads), load windows of the
// same array in the loops before and after, records loads, launch shapes.
// (Loops that the load window refuses whatever the stores do -- nested,
// with barriers, trip counts that differ by thread, exits on the data --
// are in records_break.cu and windows.cu.) Each says what it attacks and
// what the pass does with it (Taken: the store window; Refused: none,
// whatever the loads do), as pinned in
// tests/test_adversarial_store_windows.py; launch spec: store_windows.toml.
//
// Found by this corpus (the plugin of 2026-12-04, when the option landed):
// two_restrict crashed the pass (two store windows in one loop); fixed.
//
// Integer data where values are combined, so that random bytes (NaN
// payloads) cannot make a float comparison depend on operand order; no
// __restrict__ but in two kernels, so that the alias layout runs the
// others with all their buffers at one address. Rows of S = 40 ints (160
// bytes: over the 80-byte rule) unless a kernel says otherwise.

#define P (blockIdx.x * blockDim.x + threadIdx.x)
// Tiles for 128 threads (the launches use 64): a kernel with several
// windows or 16-byte units fits its store window into the 48 KB only so
// (at 512 rows the pass leaves the store windows out).
#define LB __launch_bounds__(128)

// ---------------------------------------------------------------- controls

// softmax: corpus/hecbench/softmax-cuda/main.cu's softMax verbatim (int
// indices, floats): the target. Its last loop's dest stores: Taken.
__global__ void softmax(const int numSlice, const int sliceSize, const float *src, float *dest) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= numSlice) return;
  float max_ = src[i * sliceSize];
  for (int j = 0; j < sliceSize; j++) {
    max_ = max(max_, src[i * sliceSize + j]);
  }
  float sum = 0;
  for (int j = 0; j < sliceSize; j++) {
    sum += expf(src[i * sliceSize + j] - max_);
  }
  for (int j = 0; j < sliceSize; j++) {
    dest[i * sliceSize + j] = expf(src[i * sliceSize + j] - max_) / sum;
  }
}

// The plain shape: each thread transforms its row (64-bit row index, int
// walk). Instanced below for the trip counts and the launch shapes.
#define ROWS(name)                                                             \
  __global__ void name(int *dest, const int *src, int n, int S, int len) {    \
    long p = P;                                                                \
    if (p >= n) return;                                                        \
    for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;    \
  }

// control: the shape the store window is for, 24 ints of rows of 40.
// Taken (src and dest checked apart at run time).
ROWS(control)

// restrict_control: the control with __restrict__ pointers (no range
// check, 23 ints: -O3's remainder loop takes a store window of its own
// too, after the unrolled loop's). Taken.
__global__ void LB restrict_control(int *__restrict__ dest, const int *__restrict__ src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;
}

// control_float4: 16-byte units (float4 loads and stores), rows of 8
// vectors (128 bytes). Taken.
__global__ void LB control_float4(float4 *dest, const float4 *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    float4 v = src[p * S + j];
    dest[p * S + j] = make_float4(v.w, v.x, v.z, v.y);
  }
}

// record_pairs: two 4-byte stores an iteration, an 8-byte record written
// densely (rows of 48 ints, 24 iterations). Taken.
__global__ void record_pairs(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + 2 * j] = v;
    dest[p * S + 2 * j + 1] = v ^ j;
  }
}

// ------------------------------------------------------- partial windows

// Trip counts against a 32-byte window (8 ints; -O3 unrolls by 4 and keeps
// a remainder loop): 0 (no write-back may write), 9 (a full write-back
// and a partial one of 1; store_before has 7, after_loop_own_row 33). The
// rest of each row (dest is inout) must stay as it was: a write-back of
// one unit too many shows. Taken.
ROWS(int_trip0)
ROWS(int_trip9)

// int4_trip3: 16-byte units, 3 of a 2-unit window (-O0; -O3's unrolled loop
// does not run). Taken.
__global__ void LB int4_trip3(int4 *dest, const int4 *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int4 v = src[p * S + j];
    dest[p * S + j] = make_int4(v.y + 1, v.z ^ j, v.w, v.x * 3);
  }
}

// --------------------------------------------- the stored array overlaps

// in_place: the loaded array is the stored one: no run-time check of the
// block's ranges could pass. Refused at compile time; the load window a
// had without store windows stays.
__global__ void in_place(int *a, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) a[p * S + j] = a[p * S + j] * 3 + 1;
}

// shift_1: dest = src + 1 int of the same buffer (rows of 48 ints, 23
// iterations): each iteration reads what the previous one wrote (a chain
// through global memory). Race-free (each thread in its own row). Refused
// at compile time: its loop reads, through the load window, the array it
// writes (no block's range check could pass).
#define SHIFT(name)                                                            \
  __global__ void name(int *a, int n, int S, int len, int k) {                \
    long p = P;                                                                \
    if (p >= n) return;                                                        \
    int *dest = a + k;                                                         \
    for (int j = 1; j < len; j++) dest[p * S + j] = a[p * S + j] * 3 + j;      \
  }
SHIFT(shift_1)

// record_shift: in one buffer, ints 16.. of each row read and 12-byte
// records (three stores) written from int 4 (dest = a + 4, rows of 80 ints,
// 24 iterations): the thread reads at iteration j what it wrote at
// iteration (j + 12) / 3, and the store window (3 records) and the load
// window (8 ints) turn over at different iterations, so a refill would
// read bytes the store tile still holds. Refused at compile time, as
// shift_1.
__global__ void record_shift(int *a, int n, int S, int len, int k) {
  long p = P;
  if (p >= n) return;
  int *dest = a + k;
  for (int j = 0; j < len; j++) {
    int v = a[p * S + 16 + j];
    dest[p * S + 3 * j] = v * 3;
    dest[p * S + 3 * j + 1] = v + j;
    dest[p * S + 3 * j + 2] = v ^ 0x0f0f;
  }
}

// next_block_rows: one buffer, block b reads rows of "super-row" 2b and
// writes the rows of 2b+1 (dest = src + S*blockDim): disjoint, adjacent
// ranges. Refused: the loop reads the array it writes (the compile-time
// rule does not tell rows apart: a rewrite missed).
__global__ void next_block_rows(int *a, int n, int S, int len) {
  long p = 2 * blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x * blockDim.x + threadIdx.x >= n) return;
  int *dest = a + (long)S * blockDim.x;
  for (int j = 0; j < len; j++) dest[p * S + j] = a[p * S + j] * 5 - j;
}

// ---------------------------------------- the stored array read in the loop

// read_prev: the previous iteration's element read back (a prefix sum
// through dest): stale if the store waits in the tile. Refused at both
// levels: the loop reads dest through a load window (-O3 keeps the value
// in a register, but the first element's load of dest remains).
__global__ void LB read_prev(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 1; j < len; j++) dest[p * S + j] = src[p * S + j] + dest[p * S + j - 1];
}

// ------------------------------------------------------------ store forms

// float3_reverse: a 12-byte record as three stores in reverse member
// order (rows of 48 ints, 16 records): a window of 36 bytes, 5 full
// flushes and one of a record. Taken.
__global__ void float3_reverse(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + 3 * j + 2] = v + 2;
    dest[p * S + 3 * j + 1] = v ^ 1;
    dest[p * S + 3 * j] = v * 3;
  }
}

// mixed_width_record: a 16-byte record of an 8-byte store and two ints
// (mixed widths). Refused.
__global__ void LB mixed_width_record(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    *(long long *)&dest[p * S + 4 * j] = (long long)v * 1000003;
    dest[p * S + 4 * j + 2] = v + 2;
    dest[p * S + 4 * j + 3] = v + 3;
  }
}

// overlapping_record: 8 bytes written an iteration, the address advancing
// by 4 (each iteration overwrites the previous one's second int). Refused.
__global__ void overlapping_record(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + j] = v;
    dest[p * S + j + 1] = v * 5;
  }
}

// gap_step: every other int (dest[2j]): the flush must not write the gaps.
// Refused.
__global__ void gap_step(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + 2 * j] = src[p * S + j] + 1;
}

// branch_store: the store under a branch on the data (not every iteration).
// Refused.
__global__ void branch_store(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    if (v & 1) dest[p * S + j] = v;
  }
}

// both_arms_store: a store in each arm of a branch (-O3 merges them into
// one; -O0 keeps two, neither on every iteration). Taken at -O3; refused
// at -O0.
__global__ void both_arms_store(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    if (v & 1) dest[p * S + j] = v;
    else dest[p * S + j] = -v;
  }
}

// second_store_array: two stored arrays (d2's stores may write d1: the
// alias layout puts them at one address, where d2's must win). Refused
// (each array's stores may write the other's chunk).
__global__ void second_store_array(int *d1, int *d2, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    d1[p * S + j] = v;
    d2[p * S + j] = v ^ 0x55;
  }
}

// dest_packed_rows: dest rows of exactly the trip count (24 ints, 96
// bytes: the vote asks 80 of a store window's rows too), src rows 40 ints:
// the flushed rows abut. Taken.
__global__ void dest_packed_rows(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * len + j] = src[p * S + j] - 9;
}

// dest_reversed_rows: dest row n-1-p (a negative lane stride, which the
// block range of the check would read backwards). Taken, and every block
// runs the original: the vote asks rows of at least 80 bytes.
__global__ void dest_reversed_rows(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[(n - 1 - p) * S + j] = src[p * S + j] * 7;
}

// start_offset: 8-byte units from a run-time start (3) to 24: windows
// start mid-row, 21 trips of a 4-unit window (a partial flush of 1). Taken.
__global__ void start_offset(double *dest, const double *src, int n, int S, int start, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = start; j < len; j++) dest[p * S + j] = src[p * S + j] * 2.0;
}

// int4_to_scalars: a 16-byte load, four 4-byte stores (a 16-byte record
// of 4-byte units; rows of 10 vectors, 40 ints). Taken at -O0; at -O3 the
// loads are records refilled per iteration, which store windows do not
// join.
__global__ void int4_to_scalars(int *dest, const int4 *src, int n, int S4, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int4 v = src[p * S4 + j];
    dest[4 * (p * S4 + j)] = v.w;
    dest[4 * (p * S4 + j) + 1] = v.z;
    dest[4 * (p * S4 + j) + 2] = v.y;
    dest[4 * (p * S4 + j) + 3] = v.x;
  }
}

// ll_align4_stores: 8-byte stores at 4-byte alignment (dest rows 41 ints
// apart: every other row's units are 4 bytes off 8). Taken, written back
// at align 4.
typedef long long ll4 __attribute__((aligned(4)));
__global__ void LB ll_align4_stores(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    ((ll4 *)(dest + p * S))[j] = (long long)v * 1000003;
  }
}

// double3_records: a 24-byte record of three 8-byte stores (rows of 40
// doubles, 13 records: at -O0 a window of 48 bytes, 6 units a row; -O3's
// unrolled loop 96). Taken.
__global__ void LB double3_records(double *dest, const double *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    double v = src[p * S + j];
    dest[p * S + 3 * j] = v;
    dest[p * S + 3 * j + 1] = v * 2.0;
    dest[p * S + 3 * j + 2] = v + 1.0;
  }
}

// store_twice: the element stored twice in an iteration, a load of src
// (which may be dest) between (so -O3 keeps both): the second must win.
// Taken (src checked apart).
__global__ void store_twice(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + j] = v;
    int w = src[p * S + j + 1];
    dest[p * S + j] = v * 3 + w;
  }
}

// two_restrict: two store windows in one loop (__restrict__: provably
// apart), ints (a 4-byte record) and doubles (a 16-byte record of two):
// written back at different iterations. Taken (both; at -O3 in the
// remainder loop too). Crashed the pass (SIGSEGV in SplitEdge: both
// windows split the loop's one exit edge; now split once a loop).
__global__ void LB two_restrict(int *__restrict__ d1, double *__restrict__ d2, const int *__restrict__ src,
                             int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    d1[p * S + j] = v ^ 0x33;
    d2[p * S + 2 * j] = (double)v;
    d2[p * S + 2 * j + 1] = (double)(v >> 4);
  }
}

// --------------------------------------------------------- loop structure

// header_store: the store before the exit test, so it runs once more than
// the loads (len + 1 ints: the last written on the iteration that leaves).
// Taken at -O0 (the last record in the final write-back); at -O3 refused
// (the rotated loop's load of src is not a window load there).
__global__ void header_store(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  int v = 7;
  for (int j = 0;; j++) {
    dest[p * S + j] = v;
    if (j == len) break;
    v = src[p * S + j] * 3 + 1;
  }
}

// shared_atomic: an atomic on a __shared__ counter in the loop (no global
// byte; whole blocks). Refused (an atomic).
__global__ void shared_atomic(int *out, int *dest, const int *src, int n, int S, int len) {
  __shared__ int count;
  long p = P;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + j] = v + 1;
    atomicAdd(&count, v & 1);
  }
  __syncthreads();
  out[p] = count;
}

// indexed_store: after the dense store, a store through a pointer from a
// data-dependent index (sel[j] % (j+1): an element already stored). Refused.
__global__ void indexed_store(int *dest, const int *src, const unsigned *sel, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) {
    int v = src[p * S + j];
    dest[p * S + j] = v;
    dest[p * S + sel[j] % (unsigned)(j + 1)] = v + 7;
  }
}

// ------------------------------------------------------- around the loop

// store_before: stores to the row before the loop, one the loop overwrites
// (int 0) and one just past its last element (int 7 of a 7-trip loop: in
// the partial window's slot). Taken.
__global__ void store_before(int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  dest[p * S] = -5;
  dest[p * S + len] = 99;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;
}

// after_loop_own_row: after the loop the thread reads its row's first int
// (flushed by another lane) and overwrites its last (after the final
// flush). Taken.
__global__ void after_loop_own_row(int *out, int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;
  out[p] = dest[p * S] + dest[p * S + len - 1];
  dest[p * S + len - 1] = -1;
}

// read_after_neighbour: after the loop (23 ints: -O3's loop unrolled by 8
// runs twice, -O0's window is written back partly) and a __syncwarp, a
// lane reads its partner's (p ^ 1) row (whole warps). Taken.
__global__ void read_after_neighbour(int *out, int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] ^ 0x70;
  __syncwarp();
  out[p] = dest[(p ^ 1) * S + 3];
}

// syncthreads_after: after the loop and a __syncthreads, a thread reads a
// row of another warp of its block (whole blocks). Taken.
__global__ void syncthreads_after(int *out, int *dest, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;
  __syncthreads();
  long q = blockIdx.x * blockDim.x + (threadIdx.x + 32) % blockDim.x;
  out[p] = dest[q * S + 5] - dest[q * S + len - 1];
}

// two_loops_same_dest: two loops store the same row, the second over the
// first's first 13 ints (the first loop's last write-back before the
// second's). Taken (both loops).
__global__ void LB two_loops_same_dest(int *dest, const int *src, int n, int S, int len, int len2) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) dest[p * S + j] = src[p * S + j] * 3 + 1;
  for (int j = 0; j < len2; j++) dest[p * S + j] = src[p * S + j + 5] ^ 7;
}

// window_store_window: d's tail (t = 8 ints, a run-time count: a loop at
// -O3 too) read through its window (loop A), d rewritten (loop B: src
// windowed, d store-windowed), d's tail read again (loop C): a window of d
// kept from loop A would hit with loop A's bytes unless loop B's stores
// still reach it. Taken (loop B).
__global__ void LB window_store_window(int *out, int *d, const int *src, int n, int S, int len, int t) {
  long p = P;
  if (p >= n) return;
  for (int j = len - t; j < len; j++) out[(j - len + t) * n + p] = d[p * S + j] * 3;
  for (int j = 0; j < len; j++) d[p * S + j] = src[p * S + j] ^ 0x5a;
  for (int j = len - t; j < len; j++) out[(j - len + 2 * t) * n + p] = d[p * S + j] + 1;
}

// store_then_window: d written by one loop (store-windowed), then read by
// the next through a window (its refills must see every warp's flush).
// Taken (the first loop).
__global__ void LB store_then_window(int *out, int *d, const int *src, int n, int S, int len) {
  long p = P;
  if (p >= n) return;
  for (int j = 0; j < len; j++) d[p * S + j] = src[p * S + j] * 3 + 1;
  for (int j = 0; j < len; j++) out[j * n + p] = d[p * S + j] ^ j;
}

// ------------------------------------------------------------------ records

#define T(i) s = s * 3 + r[i];
#define R9 T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8)

// records_store_record: a 36-byte record read and a 36-byte record (nine
// stores) written per iteration into another array. Refused: store
// windows do not join records refilled per iteration.
#define W(i) w[i] = r[i] * 3 + s;
__global__ void records_store_record(int *d, const int *a, int n, int S, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * S + 9 * k;
    int *w = d + p * S + 9 * k;
    R9
    W(0) W(1) W(2) W(3) W(4) W(5) W(6) W(7) W(8)
  }
}

// ---------------------------------------------------------- launch shapes

// Launch shapes: three warps (block_96) run the store window; a warp and a
// half (block_48: not whole warps) and partial_block (n = 122 in blocks of
// 64: the last block's last warp is partial) run the original in the
// blocks the vote fails. Taken.
ROWS(block_96)
ROWS(block_48)
ROWS(partial_block)

