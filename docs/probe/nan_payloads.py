# What NaN bits the GPU returns from float arithmetic on NaN operands
# (coalda/emulator/emulate.py gives the emulator the same f32 results). Run on the GPU
# machine: python3 docs/probe/nan_payloads.py (CuPy); output
# docs/runs/nan-payloads-h200.txt.
import cupy as cp, numpy as np
src = r'''
extern "C" __global__ void k(const unsigned *a32, unsigned *o32, const unsigned long long *a64, unsigned long long *o64) {
  float x = __uint_as_float(a32[0]), y = __uint_as_float(a32[1]), one = __uint_as_float(a32[2]);
  o32[0] = __float_as_uint(x + y); o32[1] = __float_as_uint(y + x); o32[2] = __float_as_uint(x * one);
  o32[3] = __float_as_uint(fmaf(x, one, y)); o32[4] = __float_as_uint(x - one); o32[5] = __float_as_uint(x / one);
  o32[6] = __float_as_uint(sqrtf(x)); o32[7] = __float_as_uint(fminf(x, y)); o32[8] = __float_as_uint(-x);
  o32[9] = __float_as_uint(one + x);
  double p = __longlong_as_double(a64[0]), q = __longlong_as_double(a64[1]), d1 = __longlong_as_double(a64[2]);
  o64[0] = __double_as_longlong(p + q); o64[1] = __double_as_longlong(q + p); o64[2] = __double_as_longlong(p * d1);
  o64[3] = __double_as_longlong(fma(p, d1, q)); o64[4] = __double_as_longlong(p / d1); o64[5] = __double_as_longlong(d1 + p);
  o64[6] = __double_as_longlong((double)x); o64[7] = __float_as_uint((float)p);
}'''
m = cp.RawModule(code=src)
f = m.get_function("k")
for a in ([0x7fc01234, 0xffc05678, 0x3f800000], [0x7f801234, 0x7fc00001, 0x3f800000]):
    a32 = cp.asarray(np.array(a, dtype=np.uint32)); o32 = cp.zeros(10, dtype=np.uint32)
    a64 = cp.asarray(np.array([0x7ff8000000001234, 0xfff8000000005678, 0x3ff0000000000000], dtype=np.uint64)); o64 = cp.zeros(8, dtype=np.uint64)
    f((1,), (1,), (a32, o32, a64, o64))
    print("in32", [hex(v) for v in a])
    print("f32 add xy, yx, mul, fma, sub, div, sqrt, fmin, neg, add(1,x):", [hex(int(v)) for v in o32.get()])
    print("f64 add pq, qp, mul, fma, div, add(1,p), fext, ftrunc:", [hex(int(v)) for v in o64.get()])
