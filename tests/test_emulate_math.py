"""The emulator runs CUDA's math library (coalda/emulator/nvvm.py) and computes what the
GPU computes.

Each kernel applies one function to every element of random inputs whose
bit patterns cover every float class (zeros, subnormals, normals, huge,
infinities, NaNs) and hand-picked halfway cases. The reference is exact where
the GPU's result is exact: round-to-nearest and directed roundings are
checked bit for bit against rationals (fractions.Fraction) rounded by
definition; conversions, min/max, saturation and the integer intrinsics
against their PTX definitions. libdevice's functions (sinf, powf, exp,
fmod ...) are checked against numpy within the error bound libdevice
documents: they run libdevice's own code on these primitives, and its
argument reduction for huge angles runs the 64/128-bit carry snippets of
inline PTX, so a wrong primitive shows up as a wrong sine.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from coalda.emulator import emulate, nvvm
from coalda.driver.compile import CompileOptions, compile_to_ir

# the inputs hold infinities and NaNs on purpose: numpy's references warn
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")
N = 4096
BLOCK = 256

# one kernel per function: o[i] = expr of the inputs' i-th elements x, y, z
MACROS = r"""
#define IDX int i = blockIdx.x * blockDim.x + threadIdx.x
#define F1(name, T, U, expr) extern "C" __global__ void name(T *o, const U *a) { IDX; U x = a[i]; o[i] = (expr); }
#define F2(name, T, U, expr) extern "C" __global__ void name(T *o, const U *a, const U *b) \
  { IDX; U x = a[i], y = b[i]; o[i] = (expr); }
#define F3(name, T, expr) extern "C" __global__ void name(T *o, const T *a, const T *b, const T *c) \
  { IDX; T x = a[i], y = b[i], z = c[i]; o[i] = (expr); }
"""
SOURCE = MACROS + r"""
F2(add_rn, float, float, __fadd_rn(x, y)) F2(add_rz, float, float, __fadd_rz(x, y))
F2(add_rd, float, float, __fadd_rd(x, y)) F2(add_ru, float, float, __fadd_ru(x, y))
F2(sub_rz, float, float, __fsub_rz(x, y)) F2(sub_rd, float, float, __fsub_rd(x, y))
F2(mul_rz, float, float, __fmul_rz(x, y)) F2(mul_ru, float, float, __fmul_ru(x, y))
F2(div_rn, float, float, __fdiv_rn(x, y)) F2(div_rz, float, float, __fdiv_rz(x, y))
F2(div_rd, float, float, __fdiv_rd(x, y)) F2(div_ru, float, float, __fdiv_ru(x, y))
F1(rcp_rz, float, float, __frcp_rz(x)) F1(rcp_ru, float, float, __frcp_ru(x))
F1(sqrt_rn, float, float, __fsqrt_rn(x)) F1(sqrt_rd, float, float, __fsqrt_rd(x)) F1(sqrt_ru, float, float, __fsqrt_ru(x))
F3(fma_rn, float, __fmaf_rn(x, y, z)) F3(fma_rz, float, __fmaf_rz(x, y, z))
F3(fma_rd, float, __fmaf_rd(x, y, z)) F3(fma_ru, float, __fmaf_ru(x, y, z))
F2(dadd_rz, double, double, __dadd_rz(x, y)) F2(dmul_rd, double, double, __dmul_rd(x, y))
F2(ddiv_ru, double, double, __ddiv_ru(x, y)) F1(dsqrt_rz, double, double, __dsqrt_rz(x))
F1(d2f_rn, float, double, __double2float_rn(x)) F1(d2f_rz, float, double, __double2float_rz(x))
F1(d2f_rd, float, double, __double2float_rd(x)) F1(d2f_ru, float, double, __double2float_ru(x))
F1(i2f_rd, float, int, __int2float_rd(x)) F1(i2f_ru, float, int, __int2float_ru(x))
F1(u2f_rd, float, unsigned, __uint2float_rd(x))
F1(ll2f_rd, float, long long, __ll2float_rd(x)) F1(ll2f_ru, float, long long, __ll2float_ru(x))
F1(ull2f_rd, float, unsigned long long, __ull2float_rd(x)) F1(ll2d_ru, double, long long, __ll2double_ru(x))
F1(f2i_rn, int, float, __float2int_rn(x)) F1(f2i_rz, int, float, __float2int_rz(x))
F1(f2i_rd, int, float, __float2int_rd(x)) F1(f2i_ru, int, float, __float2int_ru(x))
F1(f2u_rn, unsigned, float, __float2uint_rn(x)) F1(f2ll_rd, long long, float, __float2ll_rd(x))
F1(d2i_rz, int, double, __double2int_rz(x))
F1(cvt_f2i, int, float, (int)x) F1(cvt_f2u, unsigned, float, (unsigned)x)
F1(cvt_f2ll, long long, float, (long long)x) F1(cvt_f2ull, unsigned long long, float, (unsigned long long)x)
F1(cvt_d2i, int, double, (int)x) F1(cvt_d2u, unsigned, double, (unsigned)x)
F1(cvt_d2ll, long long, double, (long long)x) F1(cvt_d2ull, unsigned long long, double, (unsigned long long)x)
F1(f2ull_rn, unsigned long long, float, __float2ull_rn(x)) F1(d2u_rn, unsigned, double, __double2uint_rn(x))
F1(d2ll_rn, long long, double, __double2ll_rn(x)) F1(d2ull_rn, unsigned long long, double, __double2ull_rn(x))
F1(d2i_rn, int, double, __double2int_rn(x))
F1(roundf_, float, float, roundf(x)) F1(rintf_, float, float, rintf(x)) F1(truncf_, float, float, truncf(x))
F1(floorf_, float, float, floorf(x)) F1(ceilf_, float, float, ceilf(x)) F1(fabsf_, float, float, fabsf(x))
F2(fminf_, float, float, fminf(x, y)) F2(fmaxf_, float, float, fmaxf(x, y)) F1(sat, float, float, __saturatef(x))
F2(umulhi, unsigned, unsigned, __umulhi(x, y)) F2(mulhi, int, int, __mulhi(x, y))
F2(umul64hi, unsigned long long, unsigned long long, __umul64hi(x, y))
F2(mul64hi, long long, long long, __mul64hi(x, y))
F2(mul24, int, int, __mul24(x, y)) F2(umul24, unsigned, unsigned, __umul24(x, y))
F2(sad, unsigned, int, __sad(x, y, 7)) F2(usad, unsigned, unsigned, __usad(x, y, 7))
F2(perm, unsigned, unsigned, __byte_perm(x, y, x >> 16)) F1(ffs_, int, int, __ffs(x))
F1(hi, int, double, __double2hiint(x)) F1(lo, int, double, __double2loint(x))
F2(hilo, double, int, __hiloint2double(x, y))
F1(ldg, float, float, __ldg(a + i) + 1.0f)
F1(sqrtf_, float, float, sqrtf(x)) F1(sinf_, float, float, sinf(x)) F1(cosf_, float, float, cosf(x)) F1(tanf_, float, float, tanf(x))
F1(expf_, float, float, expf(x)) F1(logf_, float, float, logf(x)) F1(log2f_, float, float, log2f(x))
F2(powf_, float, float, powf(x, y)) F2(fmodf_, float, float, fmodf(x, y)) F1(cbrtf_, float, float, cbrtf(x))
F1(tanhf_, float, float, tanhf(x)) F1(erff_, float, float, erff(x)) F2(atan2f_, float, float, atan2f(x, y))
F1(rsqrtf_, float, float, rsqrtf(x)) F1(fexpf, float, float, __expf(x)) F2(fdividef, float, float, __fdividef(x, y))
F1(sin_, double, double, sin(x)) F1(cos_, double, double, cos(x)) F1(exp_, double, double, exp(x))
F1(log_, double, double, log(x)) F2(pow_, double, double, pow(x, y)) F2(fmod_, double, double, fmod(x, y))
F2(remainder_, double, double, remainder(x, y)) F1(sqrt_, double, double, sqrt(x))
"""

F32, F64 = np.float32, np.float64


@pytest.fixture(scope="module")
def math_ir(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp = tmp_path_factory.mktemp("math")
    (tmp / "math.cu").write_text(SOURCE)
    compile_to_ir(tmp / "math.cu", CompileOptions(), tmp / "math.ll")
    text = (tmp / "math.ll").read_text()
    assert " asm " in text and "@llvm.nvvm.add.rz.f(" in text  # what this test is about
    return text


@pytest.fixture(scope="module")
def module(math_ir: str) -> emulate.EmulatedModule:
    return emulate.load(math_ir)


def run(module: emulate.EmulatedModule, name: str, out: type, *inputs: np.ndarray) -> np.ndarray:
    result = np.zeros(N, dtype=out)
    module.launch(name, (N // BLOCK, 1, 1), (BLOCK, 1, 1), [result, *inputs])
    return result


# -- inputs ---------------------------------------------------------------------

SPECIAL32 = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 1e-45, -1e-45, 1e-40, 1.1754942e-38, 3.4028235e38,
             -3.4028235e38, math.inf, -math.inf, math.nan, 16777217.0, 1e30, -1e30, 2.0**31, -(2.0**31), 2.0**32, 4e9]


def floats(seed: int) -> np.ndarray:
    """Random bit patterns (every class), random moderate values, specials."""
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**32, N // 2, dtype=np.uint64).astype(np.uint32).view(F32)
    moderate = (rng.standard_normal(N // 2 - len(SPECIAL32)) * 10.0 ** rng.integers(-3, 4, N // 2 - len(SPECIAL32)))
    out = np.concatenate([bits, moderate.astype(F32), np.array(SPECIAL32, dtype=F32)])
    return rng.permutation(out)


def doubles(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    bits = rng.integers(0, 2**63, N // 2, dtype=np.int64).view(F64) * rng.choice([-1.0, 1.0], N // 2)
    moderate = rng.standard_normal(N // 2 - 6) * 10.0 ** rng.integers(-3, 4, N // 2 - 6)
    out = np.concatenate([bits, moderate, [0.0, 1e300, -1e300, 3.4028235677973366e38, math.inf, math.nan]])
    return rng.permutation(out)


def near(x: np.ndarray, dtype: type) -> np.ndarray:
    """Values of x's neighbourhood: sums and products land on halfway cases."""
    with np.errstate(over="ignore", invalid="ignore"):
        return (x * dtype(1 + 2.0**-23)).astype(dtype)


# -- exact references -----------------------------------------------------------


def rounded(q: Fraction, mode: str, dtype: type) -> float:
    """The dtype value of the rational q rounded in mode (rn, rz, rd, ru)."""
    info = np.finfo(dtype)
    big = Fraction(float(info.max))
    if q > big or q < -big:
        half_ulp = (big - Fraction(float(np.nextafter(info.max, dtype(0))))) / 2  # rn overflows from MAX + ulp/2
        toward_inf = mode == ("ru" if q > 0 else "rd") or (mode == "rn" and abs(q) >= big + half_ulp)
        return (math.inf if toward_inf else float(info.max)) * (1 if q > 0 else -1)
    c = dtype(float(q))
    if Fraction(float(c)) > q:
        hi, lo = c, np.nextafter(c, dtype(-math.inf))
    else:
        lo, hi = c, np.nextafter(c, dtype(math.inf))
    if Fraction(float(lo)) == q:
        return float(lo)
    if mode == "rd":
        return float(lo)
    if mode == "ru":
        return float(hi)
    if mode == "rz":
        return float(lo if q > 0 else hi)
    dl, dh = q - Fraction(float(lo)), Fraction(float(hi)) - q
    if dl != dh:
        return float(lo if dl < dh else hi)
    return float(lo if int(np.array(lo).view(np.uint32 if dtype is F32 else np.uint64)) % 2 == 0 else hi)


def exact_check(got: np.ndarray, operands: list[np.ndarray], exact: Callable[..., Fraction | None], mode: str,
                dtype: type) -> None:
    """Each finite case equals exact(...) rounded; returns nothing, asserts."""
    checked = 0
    for i in range(N):
        args = [a[i] for a in operands]
        if not all(np.isfinite(a) for a in args):
            continue
        q = exact(*[Fraction(float(a)) for a in args])
        if q is None:
            continue
        want = rounded(q, mode, dtype)
        assert float(got[i]) == want or (want == 0 and got[i] == 0), (i, args, float(got[i]), want)
        checked += 1
    assert checked > N // 4


def div(x: Fraction, y: Fraction) -> Fraction | None:
    return x / y if y else None


def sqrt_bounds(mode: str) -> Callable[[np.ndarray, np.ndarray, type], None]:
    def check(got: np.ndarray, x: np.ndarray, dtype: type) -> None:
        """r is the right rounding of sqrt(x): r and its neighbour bracket it."""
        for g, a in zip(got, x):
            if not np.isfinite(a) or a <= 0:
                continue
            q = Fraction(float(a))
            lo_hi = (np.nextafter(g, dtype(-math.inf)), np.nextafter(g, dtype(math.inf)))
            r2 = Fraction(float(g)) ** 2
            if mode == "rd":
                assert r2 <= q < Fraction(float(lo_hi[1])) ** 2, (a, g)
            elif mode == "ru":
                assert Fraction(float(lo_hi[0])) ** 2 < q <= r2 or (r2 == q), (a, g)
            else:
                mid_lo = (Fraction(float(lo_hi[0])) + Fraction(float(g))) / 2
                mid_hi = (Fraction(float(g)) + Fraction(float(lo_hi[1]))) / 2
                assert mid_lo ** 2 <= q <= mid_hi ** 2, (a, g)
    return check


@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_float_add_rounds_exactly(module: emulate.EmulatedModule, mode: str) -> None:
    x = floats(1)
    y = near(floats(2), F32)
    exact_check(run(module, f"add_{mode}", F32, x, y), [x, y], lambda a, b: a + b, mode, F32)
    exact_check(run(module, f"add_{mode}", F32, x, -x * F32(1.5)), [x, -x * F32(1.5)], lambda a, b: a + b, mode, F32)


@pytest.mark.parametrize(("name", "mode", "exact"), [
    ("sub_rz", "rz", lambda a, b: a - b), ("sub_rd", "rd", lambda a, b: a - b),
    ("mul_rz", "rz", lambda a, b: a * b), ("mul_ru", "ru", lambda a, b: a * b),
    ("div_rn", "rn", div), ("div_rz", "rz", div), ("div_rd", "rd", div), ("div_ru", "ru", div),
])
def test_float_binary_rounds_exactly(module: emulate.EmulatedModule, name: str, mode: str,
                                     exact: Callable[..., Fraction | None]) -> None:
    x, y = floats(3), floats(4)
    exact_check(run(module, name, F32, x, y), [x, y], exact, mode, F32)


@pytest.mark.parametrize(("name", "mode"), [("rcp_rz", "rz"), ("rcp_ru", "ru")])
def test_float_reciprocal_rounds_exactly(module: emulate.EmulatedModule, name: str, mode: str) -> None:
    x = floats(5)
    exact_check(run(module, name, F32, x), [x], lambda a: div(Fraction(1), a), mode, F32)


@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_float_fma_rounds_exactly(module: emulate.EmulatedModule, mode: str) -> None:
    x, y = floats(6), near(floats(7), F32)
    z = -(x * y).astype(F32)  # cancellation: the low bits decide
    exact_check(run(module, f"fma_{mode}", F32, x, y, z), [x, y, z], lambda a, b, c: a * b + c, mode, F32)


@pytest.mark.parametrize(("name", "mode"), [("sqrt_rn", "rn"), ("sqrt_rd", "rd"), ("sqrt_ru", "ru")])
def test_float_sqrt_rounds_exactly(module: emulate.EmulatedModule, name: str, mode: str) -> None:
    x = np.abs(floats(8))
    sqrt_bounds(mode)(run(module, name, F32, x), x, F32)
    if mode == "rn":
        assert np.array_equal(run(module, name, F32, x), np.sqrt(x), equal_nan=True)


@pytest.mark.parametrize(("name", "mode", "exact"), [
    ("dadd_rz", "rz", lambda a, b: a + b), ("dmul_rd", "rd", lambda a, b: a * b), ("ddiv_ru", "ru", div),
])
def test_double_arithmetic_rounds_exactly(module: emulate.EmulatedModule, name: str, mode: str,
                                          exact: Callable[..., Fraction | None]) -> None:
    x, y = doubles(9), doubles(10) * F64(1 + 2.0**-52)
    exact_check(run(module, name, F64, x, y), [x, y], exact, mode, F64)


@pytest.mark.parametrize("mode", ["rz", "rd", "ru"])
def test_exact_infinities_are_not_overflows(module: emulate.EmulatedModule, mode: str) -> None:
    """x/0 and 1/0 are exactly infinite, and so is an infinite double made
    a float, in every rounding mode (an overflow of finite values is not:
    test_float_binary_rounds_exactly)."""
    x = np.array([1.5, -2.0, 7.0, -1e-30] * (N // 4), dtype=F32)
    zero = np.array([0.0, 0.0, -0.0, -0.0] * (N // 4), dtype=F32)
    want = np.array([math.inf, -math.inf, -math.inf, math.inf] * (N // 4), dtype=F32)
    assert np.array_equal(run(module, f"div_{mode}", F32, x, zero), want)
    if mode != "rd":
        assert np.array_equal(run(module, f"rcp_{mode}", F32, zero), 1 / zero)
    infinite = np.array([math.inf, -math.inf] * (N // 2))
    assert np.array_equal(run(module, f"d2f_{mode}", F32, infinite), infinite.astype(F32))


def test_double_sqrt_rounds_toward_zero(module: emulate.EmulatedModule) -> None:
    x = np.abs(doubles(11))
    sqrt_bounds("rd")(run(module, "dsqrt_rz", F64, x), x, F64)


@pytest.mark.parametrize("mode", ["rn", "rz", "rd", "ru"])
def test_double_to_float_rounds_exactly(module: emulate.EmulatedModule, mode: str) -> None:
    x = np.concatenate([doubles(12)[: N // 2], floats(13)[: N // 2].astype(F64) * (1 + 2.0**-30)])
    exact_check(run(module, f"d2f_{mode}", F32, x), [x], lambda a: a, mode, F32)


@pytest.mark.parametrize(("name", "mode", "itype", "out"), [
    ("i2f_rd", "rd", np.int32, F32), ("i2f_ru", "ru", np.int32, F32), ("u2f_rd", "rd", np.uint32, F32),
    ("ll2f_rd", "rd", np.int64, F32), ("ll2f_ru", "ru", np.int64, F32), ("ull2f_rd", "rd", np.uint64, F32),
    ("ll2d_ru", "ru", np.int64, F64),
])
def test_integer_to_float_rounds_exactly(module: emulate.EmulatedModule, name: str, mode: str, itype: type,
                                         out: type) -> None:
    info = np.iinfo(itype)
    rng = np.random.default_rng(14)
    x = rng.integers(info.min, info.max, N, dtype=itype, endpoint=True)
    x[:4] = [info.max, info.min, info.max - 1, 0]
    got = run(module, name, out, x)
    for g, v in zip(got, x):
        assert float(g) == rounded(Fraction(int(v)), mode, out), (v, g)


ROUNDING = {"rn": np.rint, "rz": np.trunc, "rd": np.floor, "ru": np.ceil}


@pytest.mark.parametrize(("name", "mode", "src", "dst"), [
    ("f2i_rn", "rn", F32, np.int32), ("f2i_rz", "rz", F32, np.int32), ("f2i_rd", "rd", F32, np.int32),
    ("f2i_ru", "ru", F32, np.int32), ("f2u_rn", "rn", F32, np.uint32), ("f2ll_rd", "rd", F32, np.int64),
    ("d2i_rz", "rz", F64, np.int32), ("cvt_f2ull", "rz", F32, np.uint64), ("cvt_d2u", "rz", F64, np.uint32),
    ("cvt_d2ll", "rz", F64, np.int64), ("cvt_f2u", "rz", F32, np.uint32), ("d2ull_rn", "rn", F64, np.uint64),
])
def test_float_to_integer_saturates(module: emulate.EmulatedModule, name: str, mode: str, src: type,
                                    dst: type) -> None:
    x = floats(15).astype(src)
    info = np.iinfo(dst)
    with np.errstate(invalid="ignore"):
        whole = ROUNDING[mode](x.astype(F64))
    # a NaN: 0 from f32 to 32 bits, the sign bit alone otherwise (as an H200 does)
    nan = 0 if src is F32 and info.bits == 32 else np.array(1 << (info.bits - 1), dtype=np.uint64).astype(dst).item()
    want = [nan if math.isnan(w) else int(min(max(w, info.min), info.max)) for w in whole]
    assert run(module, name, dst, x).tolist() == want


def round_half_away(x: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.where(np.abs(x) >= 2**23, x, np.sign(x) * np.floor(np.abs(x.astype(F64)) + 0.5)).astype(F32)


@pytest.mark.parametrize(("name", "reference"), [
    ("roundf_", round_half_away), ("rintf_", np.rint), ("truncf_", np.trunc), ("floorf_", np.floor),
    ("ceilf_", np.ceil), ("fabsf_", np.abs),
    ("sat", lambda x: np.where(np.isnan(x), F32(0), np.clip(x, 0, 1)).astype(F32)),
])
def test_rounding_functions_are_exact(module: emulate.EmulatedModule, name: str,
                                      reference: Callable[[np.ndarray], np.ndarray]) -> None:
    x = floats(16)
    got = run(module, name, F32, x)
    with np.errstate(invalid="ignore"):
        want = reference(x).astype(F32)
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


@pytest.mark.parametrize(("name", "reference"), [("fminf_", np.fmin), ("fmaxf_", np.fmax)])
def test_min_max_take_the_number_over_a_nan(module: emulate.EmulatedModule, name: str,
                                            reference: Callable[..., np.ndarray]) -> None:
    x, y = floats(17), floats(18)
    assert np.array_equal(run(module, name, F32, x, y), reference(x, y), equal_nan=True)


def byte_perm(x: int, y: int, s: int) -> int:
    pool = (y << 32) | x
    out = 0
    for k in range(4):
        nib = (s >> (4 * k)) & 15
        byte = (pool >> (8 * (nib & 7))) & 255
        if nib & 8:
            byte = 255 if byte & 128 else 0
        out |= byte << (8 * k)
    return out


def s24(v: int) -> int:
    v &= 0xFFFFFF
    return v - (1 << 24) if v & 0x800000 else v


@pytest.mark.parametrize(("name", "itype", "out", "reference"), [
    ("umulhi", np.uint32, np.uint32, lambda a, b: (a * b) >> 32),
    ("mulhi", np.int32, np.int32, lambda a, b: (a * b) >> 32),
    ("umul64hi", np.uint64, np.uint64, lambda a, b: (a * b) >> 64),
    ("mul64hi", np.int64, np.int64, lambda a, b: (a * b) >> 64),
    ("mul24", np.int32, np.int32, lambda a, b: (s24(a) * s24(b)) & 0xFFFFFFFF),
    ("umul24", np.uint32, np.uint32, lambda a, b: ((a & 0xFFFFFF) * (b & 0xFFFFFF)) & 0xFFFFFFFF),
    ("sad", np.int32, np.uint32, lambda a, b: (abs(a - b) + 7) & 0xFFFFFFFF),
    ("usad", np.uint32, np.uint32, lambda a, b: (abs(a - b) + 7) & 0xFFFFFFFF),
    ("perm", np.uint32, np.uint32, lambda a, b: byte_perm(a, b, (a >> 16) & 0x7777)),  # CUDA masks the selector
])
def test_integer_intrinsics(module: emulate.EmulatedModule, name: str, itype: type, out: type,
                            reference: Callable[[int, int], int]) -> None:
    info = np.iinfo(itype)
    rng = np.random.default_rng(19)
    x, y = (rng.integers(info.min, info.max, N, dtype=itype, endpoint=True) for _ in range(2))
    got = run(module, name, out, x, y)
    bits = np.iinfo(out).bits
    want = [reference(int(a), int(b)) % (1 << bits) for a, b in zip(x, y)]
    assert got.view(f"u{bits // 8}").tolist() == want


def test_ffs_and_double_halves(module: emulate.EmulatedModule) -> None:
    rng = np.random.default_rng(20)
    x = rng.integers(-2**31, 2**31 - 1, N, dtype=np.int32) >> rng.integers(0, 32, N, dtype=np.int32)
    x[:2] = [0, -2**31]
    assert run(module, "ffs_", np.int32, x).tolist() == [(int(v) & -int(v)).bit_length() for v in x]
    d = doubles(21)
    words = d.view(np.uint32).reshape(-1, 2)
    assert np.array_equal(run(module, "hi", np.int32, d).view(np.uint32), words[:, 1])
    assert np.array_equal(run(module, "lo", np.int32, d).view(np.uint32), words[:, 0])
    hi, lo = words[:, 1].view(np.int32).copy(), words[:, 0].view(np.int32).copy()
    assert np.array_equal(run(module, "hilo", F64, hi, lo).view(np.uint64), d.view(np.uint64))


def test_ldg_is_a_load(module: emulate.EmulatedModule) -> None:
    x = floats(22)
    assert np.array_equal(run(module, "ldg", F32, x), x + F32(1), equal_nan=True)


def ulps(got: np.ndarray, want: np.ndarray, dtype: type) -> np.ndarray:
    """Distance in units in the last place of dtype, for finite results."""
    w = want.astype(dtype)
    spacing = np.abs(np.spacing(w)).astype(F64)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.abs(got.astype(F64) - want.astype(F64)) / spacing


FLOAT_LIBRARY = [
    ("sqrtf_", 1, np.sqrt, 1), ("sinf_", 1, np.sin, 2), ("cosf_", 1, np.cos, 2), ("tanf_", 1, np.tan, 4), ("expf_", 1, np.exp, 2),
    ("logf_", 1, np.log, 1), ("log2f_", 1, np.log2, 1), ("cbrtf_", 1, np.cbrt, 1), ("tanhf_", 1, np.tanh, 2),
    ("erff_", 1, lambda x: np.vectorize(math.erf)(x), 2), ("rsqrtf_", 1, lambda x: 1 / np.sqrt(x), 2),
    ("powf_", 2, np.power, 4), ("atan2f_", 2, np.arctan2, 3), ("fmodf_", 2, np.fmod, 0),
    ("fexpf", 1, np.exp, 2), ("fdividef", 2, np.divide, 2),
]


@pytest.mark.parametrize(("name", "arity", "reference", "bound"), FLOAT_LIBRARY)
def test_libdevice_float_functions_are_within_their_error_bound(
    module: emulate.EmulatedModule, name: str, arity: int, reference: Callable[..., np.ndarray], bound: int,
) -> None:
    """libdevice's own code on the emulated primitives, huge angles included
    (sinf(1e30) runs the 64-bit carry snippet of inline PTX)."""
    inputs = [floats(23 + k) for k in range(arity)]
    if name in ("fexpf", "fdividef"):  # the fast forms: bounded for moderate values only
        inputs = [np.clip(np.nan_to_num(v), -80, 80) for v in inputs]
    if name == "fdividef":  # ... and divisors in [2^-126, 2^126]
        inputs[1] = np.where(np.abs(inputs[1]) < 2.0**-126, F32(1), inputs[1])
    got = run(module, name, F32, *inputs)
    with np.errstate(all="ignore"):
        want = reference(*[v.astype(F64) for v in inputs])
    finite = np.isfinite(want) & (np.abs(want) < 3e38) & (np.abs(want) > 1e-37)
    assert finite.sum() > N // 4
    error = ulps(got[finite], want[finite], F32)
    if name == "fexpf":  # the CUDA guide's bound for __expf: 2 + floor(|1.173 x|) ulps
        error -= np.floor(np.abs(1.173 * inputs[0][finite]))
    assert error.max() <= bound + 0.5, (name, float(error.max()), inputs[0][finite][np.argmax(error)])
    assert np.array_equal(np.isnan(got[~finite]), np.isnan(want[~finite].astype(F32)))


DOUBLE_LIBRARY = [
    ("sin_", 1, np.sin, 2), ("cos_", 1, np.cos, 2), ("exp_", 1, np.exp, 1), ("log_", 1, np.log, 1),
    ("pow_", 2, np.power, 2), ("fmod_", 2, np.fmod, 0), ("remainder_", 2, np.remainder, None), ("sqrt_", 1, np.sqrt, 0),
]


@pytest.mark.parametrize(("name", "arity", "reference", "bound"), DOUBLE_LIBRARY)
def test_libdevice_double_functions_are_within_their_error_bound(
    module: emulate.EmulatedModule, name: str, arity: int, reference: Callable[..., np.ndarray], bound: int | None,
) -> None:
    inputs = [doubles(31 + k) for k in range(arity)]
    got = run(module, name, F64, *inputs)
    if bound is None:  # IEEE remainder: x - n*y with n the nearest integer, exact
        x, y = inputs
        for g, a, b in zip(got, x, y):
            if np.isfinite(a) and np.isfinite(b) and b != 0:
                assert Fraction(float(a)) - Fraction(float(g)) == round(
                    (Fraction(float(a)) - Fraction(float(g))) / Fraction(float(b))) * Fraction(float(b)), (a, b, g)
                assert abs(Fraction(float(g))) <= abs(Fraction(float(b))) / 2
        return
    with np.errstate(all="ignore"):
        want = reference(*inputs)
    finite = np.isfinite(want) & (np.abs(want) > 1e-300)
    assert finite.sum() > N // 4
    error = ulps(got[finite], want[finite], F64)
    assert error.max() <= bound + 0.5, (name, float(error.max()))


def test_libdevice_without_a_model_is_still_refused(math_ir: str) -> None:
    """An NVVM intrinsic no family matches keeps the emulator's refusal."""
    text = math_ir.replace("@llvm.nvvm.prmt(", "@llvm.nvvm.prmt.unknown(")
    with pytest.raises(emulate.EmulationRefused, match=r"llvm\.nvvm\.prmt\.unknown"):
        emulate.EmulatedModule(text)


@pytest.mark.parametrize("plant", ["carry", "direction"])
def test_a_wrong_primitive_is_caught(math_ir: str, monkeypatch: pytest.MonkeyPatch, plant: str) -> None:
    """The checks above can fail: a 64-bit multiply-add that drops its
    addend (the sine's argument reduction) and a round-down that steps up
    are each reported."""
    if plant == "carry":
        monkeypatch.setattr(nvvm, "_MAD_WIDE", nvvm._MAD_WIDE.replace("add i64 %p, %z", "add i64 %p, 0"))
        check = lambda m: test_libdevice_float_functions_are_within_their_error_bound(m, "sinf_", 1, np.sin, 2)
    else:
        monkeypatch.setattr(nvvm, "_NEG_INF", nvvm._INF)
        check = lambda m: test_float_add_rounds_exactly(m, "rd")
    check(emulate.load(math_ir))  # the module as built passes
    with pytest.raises(AssertionError):
        check(emulate.EmulatedModule(math_ir))  # not the cache: lowered again with the plant


def test_every_libdevice_intrinsic_and_snippet_has_a_model() -> None:
    """libdevice as shipped (read here by llvmlite): every NVVM intrinsic it
    declares and every inline PTX snippet it contains has a host definition,
    so no function of CUDA's math library makes the emulator refuse."""
    import llvmlite.binding as llvm

    from coalda.driver.toolchain import cuda_path

    text = str(llvm.parse_bitcode((Path(cuda_path()) / "nvvm" / "libdevice" / "libdevice.10.bc").read_bytes()))
    names = set(re.findall(r"declare [^@\n]*@llvm\.nvvm\.([\w.]+)\(", text))
    assert len(names) > 150
    assert not [n for n in names if not any(p.fullmatch(n) for p, _ in nvvm.FAMILIES)]
    snippets = set(re.findall(r'asm (?:sideeffect )?"((?:[^"\\]|\\.)*)"', text))
    assert len(snippets) >= 20
    table = nvvm._asm_table()
    assert not [s for s in snippets if nvvm._asm_definition(s, table) is None]


def test_pow_of_a_negative_base_knows_huge_exponents_are_even(module: emulate.EmulatedModule) -> None:
    """libdevice's pow tests the exponent's parity by shifting its bits by
    (exponent + 11), past 64 for huge exponents: PTX clamps the shift (0:
    even), LLVM calls it poison and x86 would shift modulo 64. Measured on
    an H200: pow(-0.0107, -4.87e284) = +inf (docs/runs/nvvm-fidelity-h200.txt)."""
    x = np.array([-0.010733223870133668, -2.0, -2.0, -3.0] * (N // 4))
    y = np.array([-4.8664267080311594e284, 3.0, 2.0**60, 2.0**53 + 2] * (N // 4))
    assert run(module, "pow_", F64, x, y)[:4].tolist() == [math.inf, -8.0, math.inf, math.inf]


def test_fast_division_by_a_huge_divisor_is_zero(module: emulate.EmulatedModule) -> None:
    """__fdividef(x, y) for 2^126 < |y| < 2^128: 0, and NaN for an infinite
    x (the CUDA guide, whose bound excludes 2^126 itself); a subnormal
    divisor divides (measured on an H200: docs/runs/nvvm-fidelity-h200.txt)."""
    x = np.array([3.788589e36, -1.0, math.inf, 6.0] * (N // 4), dtype=F32)
    y = np.array([2.0785535e38, 1e38, 2.0785535e38, 3.0] * (N // 4), dtype=F32)
    got = run(module, "fdividef", F32, x, y)[:4]
    assert got[0] == 0 and got[1] == 0 and math.isnan(got[2]) and got[3] == 2
    y = np.array([1e-40, -2.0**-130, 2.0**126, 1.0] * (N // 4), dtype=F32)
    x = np.array([-0.00017626486, 1.0, 3.0, 1.0] * (N // 4), dtype=F32)
    got = run(module, "fdividef", F32, x, y)[:4]
    assert got[0] == F32(-0.00017626486) / F32(1e-40) and got[1] == -(2.0**130) and got[2] == 3 * 2.0**-126
