// Adversarial corpus: run-time lane strides. A copy `a[s*i + k]` is rewritten
// behind a check that the stride polynomial, materialized in i64, equals the
// bytes the members cover. materialize() converts every argument atom with
// CreateSExtOrTrunc, whatever extension the IR used; since 5f0774f every
// narrow atom must also be non-negative (then sext and zext agree), so the
// two former miscompiles below now take the original code. Launch specs:
// runtime_stride.toml.

// Was a MISCOMPILE (-O0 and -O3). s is unsigned short, so the real stride is
// zext(s)*t ints; the check computes sext(s)*t. With s = 65535, t = -3 the
// check sees (-1)*(-3) = 3 ints = the members' 12 bytes and takes the
// rewrite, while the real stride is 65535*(-3) = -196605 ints (all in
// bounds: thread 1 copies elements 0..2, thread 0 elements 196605..196607).
// The rewrite writes before dst and past its end (the guard zones hide part
// of that: a copy of src's guard into dst's guard leaves POISON) and leaves
// dst[1] unwritten.
__global__ void zext_stride(int *dst, const int *src, unsigned short s, int t, int off) {
  int e = s * t * (int)threadIdx.x + off;
  dst[e + 0] = src[e + 0];
  dst[e + 1] = src[e + 1];
  dst[e + 2] = src[e + 2];
}

// Was a MISCOMPILE at -O0 (at -O3 the stride becomes a select, read with the
// right sign). The stride k - 3*(c > 0) holds a bool converted to int (zext of an
// i1): the walker makes the i1 compare a row-uniform atom and materialize()
// sign-extends it to -1. With k = 0, c = 1 the check computes 4*(0 + 3) = 12
// bytes = the members' bytes, while the real stride is -3 ints (descending,
// race-free elements). Every thread then computes a different region start.
__global__ void bool_stride(int *dst, const int *src, int k, int c, int off) {
  int s = k - 3 * (c > 0);
  int e = s * (int)threadIdx.x + off;
  dst[e + 0] = src[e + 0];
  dst[e + 1] = src[e + 1];
  dst[e + 2] = src[e + 2];
}

// Held: the same with a signed short (sext is right). Rewritten behind the
// stride check; with s = -1, t = -3 the stride is 3 ints and the rewrite runs.
__global__ void sext_stride(int *dst, const int *src, short s, int t) {
  int e = s * t * (int)(blockIdx.x * blockDim.x + threadIdx.x);
  dst[e + 0] = src[e + 0];
  dst[e + 1] = src[e + 1];
  dst[e + 2] = src[e + 2];
}

// Held: stride from blockDim.y (ntid.y == 1 at launch: stride 3 ints).
// Rewritten behind the stride check.
__global__ void stride_ntid_y(int *dst, const int *src) {
  int e = 3 * (int)blockDim.y * (int)(blockIdx.x * blockDim.x + threadIdx.x);
  dst[e + 0] = src[e + 0];
  dst[e + 1] = src[e + 1];
  dst[e + 2] = src[e + 2];
}

// Held: run-time stride that is NOT the members' bytes at launch (s = 4:
// a gap per element): rewritten behind the check, the original code runs.
__global__ void stride_with_gap(int *dst, const int *src, int s) {
  int e = s * (int)(blockIdx.x * blockDim.x + threadIdx.x);
  dst[e + 0] = src[e + 0];
  dst[e + 1] = src[e + 1];
  dst[e + 2] = src[e + 2];
}

// Held: run-time stride under a bounds guard with a partial last block.
__global__ void stride_guarded(int *dst, const int *src, int s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[s * i + 0] = src[s * i + 0];
    dst[s * i + 1] = src[s * i + 1];
    dst[s * i + 2] = src[s * i + 2];
  }
}
