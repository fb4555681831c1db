// Adversarial corpus: chunk windows refilled once per iteration with the
// record the iteration reads (StagedArray::RefillAt in
// pass/lib/ChunkWindow.cpp; moveRecords in ChunkWindowEmitter.cpp), alone
// and in one tile the arrays of loops apart take in turn (-coalda-window-
// scope=warp). dslash's shape: thread p's row holds 4 records of 18 ints
// (72 bytes), loop k reads the k-th whole, in the arms of `k == 0 ? ... :
// ...`, and stores to global memory. The kernels attack the record's span
// (gaps, offsets, records wider than a request), the refill block (arms,
// early exits, the header of -O0's loops), the tile shared in turn (an
// array read again after another), stores into the record (write-through)
// and the launch shape (blocks that are not whole warps run the original).
// The record counts are arguments (a constant 4 is unrolled at -O3: no
// loop). Launch spec: records.toml; decisions pinned in
// tests/test_adversarial_records.py.

#define P (blockIdx.x * blockDim.x + threadIdx.x)

struct Rec { int e[18]; };  // 72 bytes, dslash's su3_matrix
struct Wide { int e[40]; }; // 160 bytes: more than a warp's request a row
struct Gap { int e[18]; };  // read all but e[9]

// Both arms read the whole record. Per iteration.
__global__ void arms(int *out, const Rec *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    const Rec *r = a + 4 * p + k;
    if (k == 0) {
      s = 0;
      for (int i = 0; i < 18; i++) s += r->e[i] * (i + 1);
    } else {
      for (int i = 0; i < 18; i++) s -= r->e[17 - i] ^ i;
    }
    out[k * n + p] = s;
  }
}

// dslash's four arrays, a loop each, then the first again: one tile in turn,
// the first's window emptied by the others' refills. Per iteration.
__global__ void four_in_turn(int *out, const Rec *a, const Rec *b, const Rec *c,
                             const Rec *d, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    for (int i = 0; i < 18; i++) s += a[4 * p + k].e[i] * (i + 3);
    out[k * n + p] = s;
  }
  for (int k = 0; k < recs; k++) {
    for (int i = 0; i < 18; i++) s ^= b[4 * p + k].e[i] + i;
    out[(4 + k) * n + p] = s;
  }
  for (int k = 0; k < recs; k++) {
    for (int i = 0; i < 18; i++) s += c[4 * p + k].e[i] * (i | 1);
    out[(8 + k) * n + p] = s;
  }
  for (int k = 0; k < recs; k++)
    for (int i = 0; i < 18; i++) s -= d[4 * p + k].e[i] >> (i & 3);
  for (int k = recs - 1; k >= 0; k--) {
    for (int i = 0; i < 18; i++) s -= a[4 * p + k].e[i] * i;
    out[(12 + recs - 1 - k) * n + p] = s;
  }
}

// The record is written in place between its loads: the later loads read
// the stored values (write-through into the thread's own row). Per
// iteration.
__global__ void store_into(int *out, Rec *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    Rec *r = a + 4 * p + k;
    for (int i = 0; i < 9; i++) s += r->e[i];
    r->e[12] = s;
    r->e[3] += 7;
    for (int i = 9; i < 18; i++) s ^= r->e[i] + r->e[3];
    out[k * n + p] = s;
  }
}

// A gap: e[9] is never read, so the iteration's span has a byte the thread
// does not read. The window refilled on leaving (the hit test) takes it.
__global__ void gap(int *out, const Gap *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    const Gap *r = a + 4 * p + k;
    for (int i = 0; i < 18; i++)
      if (i != 9) s += r->e[i] * (i + 1);
    out[k * n + p] = s;
  }
}

// 160 bytes a record: more units than a warp's lanes. The hit window.
__global__ void wide(int *out, const Wide *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    for (int i = 0; i < 40; i++) s += a[2 * p + k].e[i] ^ i;
    out[k * n + p] = s;
  }
}

// The loop leaves in the middle of an iteration on a row-uniform test: the
// record is read before the test, every way. Per iteration.
__global__ void early_leave(int *out, const Rec *a, int n, int recs, int stop) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    for (int i = 0; i < 18; i++) s += a[4 * p + k].e[i] * (i + 2);
    if (k == stop) break;
    out[k * n + p] = s;
  }
  out[4 * n + p] = s;
}

// Records at an offset in the row (5 records of 72 bytes after 8 bytes of
// header a row): the span starts mid-sector. Per iteration.
__global__ void offset_records(int *out, const int *a, int n, int recs) {
  int p = P;
  if (p >= n) return;
  int s = 0;
  for (int k = 0; k < recs; k++) {
    const int *r = a + p * 92 + 2 + 18 * k;
    for (int i = 0; i < 18; i++) s += r[i] * (i + 5);
    out[k * n + p] = s;
  }
}
