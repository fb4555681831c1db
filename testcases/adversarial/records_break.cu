// Adversarial corpus: the chunk window's per-iteration record form, on by
// default (pass/lib/ChunkWindow.cpp's banner, iterationRecord,
// perIteration, decide; ChunkWindowEmitter.cpp's vote,
// emitIterationRefill, moveRecords, readOwnRow, emitWriteThrough): when a
// loop reads, each iteration, every byte of a record of the thread's own
// row, each warp loads its 32 rows' records as 32*P flat units into a
// shared tile between two __syncwarps at the top of the iteration, and the
// loads read the thread's own tile row unchecked. records.cu covers the
// arms, dslash's arrays in turn of one width, a store into the record,
// gaps, records wider than a request and an early exit; this file attacks
// the rest: rows that overlap, strides at run time (under the 80-byte
// rule, 0, negative, of a narrow unsigned type), offsets, 8- and 16-byte
// units, arrays in turn of two widths, stores around and across the
// record (through another pointer too), trip counts, exits, branches,
// nested and inner loops, two arrays, barriers, the launch shape.
//
// The record reads are written out: -O0 keeps an inner loop, and a load in
// a loop nested in another is never windowed. The record counts are
// arguments (a constant count is unrolled at -O3: no loop). Most kernels
// index in 64 bits, which ScalarEvolution follows at -O0 too, so that -O0
// takes the record form as well; so do the few with 32-bit indices since
// perIteration takes any expression of the loop's recurrences (-O0 keeps
// `sext(p*stride + 9*k)`, no recurrence of its own).
// Launch spec: records_break.toml; decisions pinned in
// tests/test_adversarial_records_break.py.
//
// Found by this corpus (the plugin of 2026-12-04), both fixed:
//  - uchar_stride computes other bytes at -O3 (per iteration) and -O0 (the
//    hit window): the vote materializes the lane stride with
//    materializePoly (IRUtils.cpp), which sign-extends every narrow atom,
//    while the walker reads zext and sext alike; the row length 100 +
//    (unsigned char)200 = 300 ints is taken for 100 - 56 = 44 ints (176
//    bytes, >= 80), so the blocks take the window and the warps move other
//    rows than their threads read. The region copy checks that its narrow
//    stride atoms are non-negative (RegionCopyEmitter.cpp); the window's
//    vote now does too (narrowAtomsNonNegative, IRUtils.cpp).
//  - mixed_widths faults at -O3 and -O0 (a misaligned shared access): the
//    arrays in turn share a tile whose row pitch is the largest window
//    pitch, 44 bytes (10 ints + 4 of padding), not a multiple of the
//    doubles' 8-byte units, so moveRecords' stores and readOwnRow's loads
//    of the doubles in odd rows were 4 bytes off their `align 8`; the
//    shared pitch is now a multiple of the widest unit (48).

#define P (blockIdx.x * blockDim.x + threadIdx.x)

#define T(i) s = s * 3 + r[i];
#define R4(o) T(o + 0) T(o + 1) T(o + 2) T(o + 3)
#define R8(o) R4(o) R4(o + 4)
#define R9(o) R8(o) T(o + 8)
#define R32 R8(0) R8(8) R8(16) R8(24)

// The record loop of the stride and launch-shape kernels: 9 ints (36 bytes)
// a record, rows `stride` ints apart from `base`. -O3 unrolls it by two: a
// record of 72 bytes, 18 units, an iteration (a warp's 576 units wrap from
// row to row inside its requests).
#define RECORDS(name)                                                          \
  __global__ void name(int *out, const int *a, int n, int recs, int stride,    \
                       int base) {                                             \
    long p = P;                                                                \
    if (p >= n) return;                                                        \
    int s = 1;                                                                 \
    for (long k = 0; k < recs; k++) {                                          \
      const int *r = a + base + p * stride + 9 * k;                            \
      R9(0)                                                                    \
      out[k * n + p] = s;                                                      \
    }                                                                          \
  }

// control: rows of 144 bytes. Per iteration.
RECORDS(control)
// rows 80 bytes apart (the least the vote takes): a row's later records
// run into the next rows'. Per iteration, taken.
RECORDS(stride_80)
// rows 76 bytes apart: under the 80-byte rule, every block runs the clone.
RECORDS(stride_76)
// every thread reads the same row (stride 0): the clone.
RECORDS(stride_0)
// rows descending (stride -36 ints from the top): the clone.
RECORDS(stride_negative)
// no iteration at all (recs = 0).
RECORDS(zero_trips)
// Launch shapes that must run the clone: 1000 threads (above the tile's
// 512 rows), 33 threads (a warp of one thread in every block).
RECORDS(block_1000)
RECORDS(block_33)

// 2-D blocks of 32x4: p from (x, y); the vote asks for one row.
__global__ void block_2d(int *out, const int *a, int n, int recs, int stride) {
  long p = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * stride + 9 * k;
    R9(0)
    out[k * n + p] = s;
  }
}

// Threads past n skip the loop instead of returning: the last block (a
// partial last warp) votes no. Per iteration.
__global__ void guarded_if(int *out, const int *a, int n, int recs) {
  long p = P;
  int s = 1;
  if (p < n) {
    for (long k = 0; k < recs; k++) {
      const int *r = a + p * 36 + 9 * k;
      R9(0)
      out[k * n + p] = s;
    }
  }
}

// Was a bug. Rows of base + extra ints, extra an unsigned char: 100 + 200. The
// pass reads zext(extra) as the atom `extra`, which the vote's
// materializePoly sign-extends (-56): a stride of 44 ints, >= 80 bytes, so
// the blocks take the window and the warps move other rows than their
// threads read. 32-bit indices: the hit window at -O0 moved the wrong rows
// too (the same vote).
__global__ void uchar_stride(int *out, const int *a, int n, int recs, int base,
                             unsigned char extra) {
  int p = P;
  if (p >= n) return;
  int stride = base + extra;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * stride + 9 * k;
    R9(0)
    out[k * n + p] = s;
  }
}

// Rows of base + 24*(c > 0) ints: a bool converted to int (a zext of an i1
// the same materializePoly would sign-extend). Refused: the compare is an
// atom computed after the bounds guard, after the vote.
__global__ void bool_stride(int *out, const int *a, int n, int recs, int base, int c) {
  int p = P;
  if (p >= n) return;
  int stride = base + 24 * (c > 0);
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * stride + 9 * k;
    R9(0)
    out[k * n + p] = s;
  }
}

// Records of 32 ints (128 bytes, 32 units: the most a record takes), rows
// 24 ints (96 bytes) apart and records 8 ints apart: each record overlaps
// the next row's and the next iteration's. Per iteration.
__global__ void __launch_bounds__(256)
    overlap_rows(int *out, const int *a, int n, int recs, int stride) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * stride + 8 * k;
    R32
    out[k * n + p] = s;
  }
}

// The record starts 5 ints before p*stride + 9*k (k from 1). Per iteration.
__global__ void negative_offset(int *out, const int *a, int n, int recs, int stride) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 1; k <= recs; k++) {
    const int *r = a + p * stride + 9 * k - 5;
    R9(0)
    out[(k - 1) * n + p] = s;
  }
}

// Ints read 2 bytes into a 4-byte unit (unaligned loads through memcpy):
// loads that do not step in whole units. Refused.
__device__ __forceinline__ int load_int(const char *c) {
  int v;
  __builtin_memcpy(&v, c, 4);
  return v;
}
#undef T
#define T(i) s = s * 3 + load_int(c + 4 * (i));
__global__ void mid_unit(int *out, const char *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const char *c = a + p * 148 + 36 * k + 2;
    R9(0)
    out[k * n + p] = s;
  }
}
#undef T
#define T(i) s = s * 3 + r[i];

// 8-byte units at 4-byte alignment (the buffer is 4-byte aligned, the loads
// say align 4). Per iteration, the moves at align 4.
typedef long long ll4 __attribute__((aligned(4)));
__global__ void ll_align4(long long *out, const ll4 *a, int n, int recs, int stride) {
  long p = P;
  if (p >= n) return;
  long long s = 1;
  for (long k = 0; k < recs; k++) {
    const ll4 *r = a + p * stride + 5 * k;
    R4(0) T(4)
    out[k * n + p] = s;
  }
}

// 8-byte units in rows an odd number of ints apart (S = 4 mod 8): the lane
// stride is not whole units. Refused.
__global__ void ll_odd_stride(long long *out, const int *a, int n, int recs, int stride) {
  int p = P;
  if (p >= n) return;
  long long s = 1;
  for (int k = 0; k < recs; k++) {
    const ll4 *r = (const ll4 *)(a + p * stride) + 5 * k;
    R4(0) T(4)
    out[k * n + p] = s;
  }
}

// 16-byte units: records of 6 vectors (96 bytes; 6 units, so a warp's 192
// units wrap mid-request), under __launch_bounds__(64) (a tile of 64
// rows). Per iteration.
typedef float f4 __attribute__((ext_vector_type(4)));
__global__ void __launch_bounds__(64)
    vector_records(float *out, const f4 *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  f4 s = {1, 1, 1, 1};
  for (long k = 0; k < recs; k++) {
    const f4 *r = a + p * 25 + 6 * k;
#undef T
#define T(i) s = s * 0.75f + r[i];
    R4(0) T(4) T(5)
#undef T
#define T(i) s = s * 3 + r[i];
    out[k * n + p] = s.x - s.y + s.z * s.w;
  }
}

// Was a bug. Arrays in turn (their loops apart) of two widths: 10 ints (a tile
// row of 44 bytes) then 4 doubles (40). The shared tile's rows are 44 bytes
// apart, so the doubles' 8-byte slots of odd rows are 4 bytes off: a
// misaligned shared access (CUDA_ERROR_MISALIGNED_ADDRESS on a GPU; the
// emulator's alignment check faults).
__global__ void mixed_widths(double *out, const int *a, const double *b, int n, int recs) {
  long p = P;
  if (p >= n) return;
  double s = 1;
#pragma unroll 1
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 48 + 10 * k;
    R8(0) T(8) T(9)
    out[k * n + p] = s;
  }
#pragma unroll 1
  for (long k = 0; k < recs; k++) {
    const double *r = b + p * 24 + 4 * k;
    R4(0)
    out[(recs + k) * n + p] = s;
  }
}

// Stores into the thread's own row around the iteration's record (records
// of 18 ints at 2 + 20*k, rows of 100 ints): into the record ahead of its
// loads (2 bytes of int 13, so that the load stays), into record k+1 (read
// by the next iteration's refill, from global memory), into record k-1
// (read already), and behind the loads. Per iteration, written through.
__global__ void write_around(int *out, int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    int *r = a + p * 100 + 2 + 20 * k;
    R9(0)
    short h = (short)s;
    __builtin_memcpy((char *)(r + 13), &h, 2);  // the low half of int 13
    r[20 + 4] = s;                              // the next record
    if (k > 0) r[-20 + 6] = s + 1;              // the previous record
    R9(9)
    r[2] += s;
    T(2)
    out[k * n + p] = s;
  }
}

// Stores across the record's ends (the record: ints 0-13 of each 20, read
// first): 8 bytes from the gap int before it into its int 0, 16 bytes from
// its int 12 into the two gap ints after it, 2 bytes into int 7 and 1 into
// int 9 (memcpy: char-typed, they alias the ints). A store to out (which
// may be a) keeps the loads after them loads. Written through byte by
// byte. Per iteration.
__global__ void straddle_stores(int *out, int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    int *r = a + p * 100 + 2 + 20 * k;
    R8(0) R4(8) T(12) T(13)
    long long w8 = (long long)s * 0x10001;
    __builtin_memcpy(r - 1, &w8, 8);
    int4 w16 = make_int4(s, s + 1, s + 2, s + 3);
    __builtin_memcpy(r + 12, &w16, 16);
    short h = (short)s;
    __builtin_memcpy((char *)r + 4 * 7 + 2, &h, 2);  // the high half of int 7
    char c = (char)s;
    __builtin_memcpy((char *)r + 4 * 9 + 1, &c, 1);  // byte 1 of int 9
    out[k * n + p] = s;
    T(0) T(12) T(13) T(7) T(9)
    out[k * n + p] = s;
  }
}

// The record written through another pointer (w, which the alias layout
// makes a; each thread still touches only its own row), the results in the
// row's gap ints: race-free in every layout. Not unrolled (-O3 would read
// two records with a gap between them an iteration). Per iteration,
// written through.
__global__ void alias_write(int *w, const int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
#pragma unroll 1
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 40 + 2 + 10 * k;
    R4(0)
    w[p * 40 + 2 + 10 * k + 6] = s;
    R4(4)
    w[p * 40 + 10 * k] = s;
  }
}

// Records of 16 ints sliding by 4 ints an iteration (rows of 64 ints): a
// store into int 5 of the record is also int 1 of the next iteration's.
// Written through here, read from global memory by the next refill.
// 64-bit indices (per iteration at -O0 too).
__global__ void sliding_store(int *out, int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    int *r = a + p * 64 + 4 * k;
    R8(0)
    r[5] = s;
    out[k * n + p] = s;  // may be a: r[5] below stays a load
    R8(4) R4(12)
    out[k * n + p] = s;
  }
}

// This thread writes the NEXT row's gap ints (no record holds them, nobody
// reads them: race-free). Not unrolled (-O3 would read two records with a
// gap between them an iteration). Per iteration; nothing falls in the own
// window.
__global__ void other_row_gap(int *out, int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  int s = 1;
#pragma unroll 1
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 40 + 2 + 10 * k;
    R8(0)
    a[(p + 1) * 40 + 10 * k] = s;
    out[k * n + p] = s;
  }
}

// A neighbour in another warp writes this thread's second record before a
// __syncthreads() that comes before the vote (no early return: the vote
// goes after the barrier). Per iteration; the refill reads it.
__global__ void neighbour_before(int *out, int *a, int n, int recs) {
  long p = P;
  long q = blockIdx.x * blockDim.x + (threadIdx.x + 32) % blockDim.x;
  a[q * 36 + 9 + 3] = p;
  __syncthreads();
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    out[k * n + p] = s;
  }
}

// A break on a row-uniform test as the iteration's last statement: two
// exits. Refused.
__global__ void break_last(int *out, const int *a, int n, int recs, int stop) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  int k = 0;
  for (; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    out[k * n + p] = s;
    if (k == stop) break;
  }
  out[4 * n + p] = s + k;
}

// A break on the thread's own data: threads leave apart. Refused.
__global__ void break_data(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    out[k * n + p] = s;
    if ((s & 3) == 0) break;
  }
  out[4 * n + p] = s;
}

// A row-uniform continue between the record's halves: the second half is
// not read on every iteration, so it stays a global load, and the first
// half (36 bytes) is the record. Per iteration.
__global__ void continue_mid(int *out, const int *a, int n, int recs, int skip) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 72 + 18 * k;
    R9(0)
    out[k * n + p] = s;
    if (k == skip) continue;
    R9(9)
    out[k * n + p] = s;
  }
}

// The record read under the thread's own flag. Refused.
__global__ void divergent_loads(int *out, const int *a, const int *flag, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    if (flag[p] & 1) {
      R9(0)
    }
    out[k * n + p] = s;
  }
}

// A store under the thread's own data after the loads; its threads meet
// again before the next iteration's refill. Per iteration.
__global__ void divergent_after(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    if (s & 1) out[k * n + p] = s;
  }
}

// The record indexed by the outer and inner counters: loops nested. Refused.
__global__ void nested(int *out, const int *a, int n, int outer, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int j = 0; j < outer; j++)
    for (int k = 0; k < recs; k++) {
      const int *r = a + p * 72 + 9 * (j * recs + k);
      R9(0)
      out[(j * recs + k) * n + p] = s;
    }
}

// Records in the order of a table: the address does not advance by a
// constant. Refused.
__global__ void indexed(int *out, const int *a, const int *idx, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * (idx[k] & 3);
    R9(0)
    out[k * n + p] = s;
  }
}

// The records walked backwards: the address steps down. Refused.
__global__ void descending(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = recs - 1; k >= 0; k--) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    out[k * n + p] = s;
  }
}

// An inner loop over a uniform table (m = 2 rounds) between the halves of
// the record: the halves are one record. Per iteration.
__global__ void inner_loop(int *out, const int *a, const int *c, int n, int recs, int m) {
  long p = P;
  if (p >= n) return;
  int s = 1;
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R4(0)
    for (int j = 0; j < m; j++) s = s * 5 + c[j];
    R4(4) T(8)
    out[k * n + p] = s;
  }
}

// Two arrays in one loop, each read whole every iteration: 8 floats of b
// and 9 ints of a a row. Two warp tiles, per iteration.
__global__ void two_arrays(float *out, const float *b, const int *a, int n, int recs) {
  long p = P;
  if (p >= n) return;
  float s = 1;
#pragma unroll 1
  for (long k = 0; k < recs; k++) {
    const int *r = a + p * 40 + 9 * k;
    const float *q = b + p * 36 + 8 * k;
    s = s * 0.5f + q[0] + q[1] + q[2] + q[3] + q[4] + q[5] + q[6] + q[7];
    R9(0)
    out[k * n + p] = s;
  }
}

// A record beside a window refilled on leaving: b's iteration skips q[4],
// a gap in its record, so b takes the hit window and a its record,
// refilled per iteration with the block's barriers (the two in one
// candidate: block scope).
__global__ void record_and_window(float *out, const int *a, const float *b, int n, int recs) {
  int p = P;
  if (p >= n) return;
  float s = 1;
#pragma unroll 1
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 40 + 9 * k;
    const float *q = b + p * 36 + 8 * k;
    R9(0)
    s = s * 0.5f + q[0] + q[1] + q[2] + q[3] + q[5] + q[6] + q[7];
    out[k * n + p] = s;
  }
}

// Barriers in the loop: a call before the next iteration's loads. Refused.
__global__ void syncthreads_in_loop(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    out[k * n + p] = s;
    __syncthreads();
  }
}
__global__ void syncwarp_in_loop(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 1;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 36 + 9 * k;
    R9(0)
    __syncwarp();
    out[k * n + p] = s;
  }
}
