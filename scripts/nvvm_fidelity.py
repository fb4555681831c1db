#!/usr/bin/env python3
"""The emulator's math library against the GPU's, kernel by kernel.

    .venv/bin/python scripts/nvvm_fidelity.py prepare   # here: .device/nvvm/
    python3 scripts/nvvm_fidelity.py run                # on the GPU machine

`prepare` compiles the kernels of tests/test_emulate_math.py (one CUDA math
function or intrinsic each) and tests/test_emulate_warp.py (one warp
shuffle, vote or reduction each), draws their inputs (every float class, NaNs,
infinities, halfway cases; random integers over the whole range), runs them
on the CPU emulator (coalda/emulator/nvvm.py) and stores PTX, inputs and the
emulator's outputs. `run` launches the same PTX on the GPU with the same
inputs and prints, per kernel, how many outputs are bit for bit the
emulator's, how many are NaNs on both with other payloads (the emulator's
NaNs are canonical, coalda/emulator/emulate.py), and the largest difference in units
in the last place. The
correctly rounded and directed-rounding operations, conversions, integer
intrinsics and warp collectives must be identical; functions built on the GPU's approximations
(ex2.approx, lg2.approx, sin.approx, rsqrt.approx: expf, __expf, sinf's fast
path, rsqrtf ...) may differ in the last bits, the host computing them
exactly. Exit status 1 if an exact kernel differs.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
OUT = REPO / ".device" / "nvvm"
TYPES = {"float": np.float32, "double": np.float64, "int": np.int32, "unsigned": np.uint32,
         "long long": np.int64, "unsigned long long": np.uint64}
# kernels whose GPU result comes from an approximation (PTX .approx: under
# clang, libdevice's sqrtf is sqrt.approx.f32), or from libdevice code
# built on one: the host computes those exactly
APPROXIMATE = {"sqrtf_", "rsqrtf_", "fexpf", "fdividef", "sinf_", "cosf_", "tanf_", "expf_", "logf_", "log2f_", "powf_",
               "cbrtf_", "tanhf_", "erff_", "atan2f_", "exp_", "log_", "pow_", "sin_", "cos_"}
# -- the kernels: F1(name, T, U, expr), F2(name, T, U, expr), F3(name, T, expr)
_MACRO = re.compile(r"\bF([123])\((\w+), ((?:unsigned )?(?:long long|\w+))(?:, ((?:unsigned )?(?:long long|\w+)))?, ")


def kernels(source: str) -> list[tuple[str, str, list[str]]]:
    """(name, output type, input types) of each kernel of SOURCE."""
    out = []
    for m in _MACRO.finditer(source):
        arity, name, t, u = int(m[1]), m[2], m[3], m[4]
        if t not in TYPES:  # the macros' own definitions
            continue
        if arity == 3:
            out.append((name, t, [t] * 3))
        else:
            out.append((name, t, [u] * arity))
    return out


def inputs(t: ModuleType, types: list[str], seed: int) -> list[np.ndarray]:
    """Arrays of t.N values for the input TYPES, drawn by the test module t's
    generators (floats and doubles of every class) or uniformly (integers)."""
    arrays = []
    for k, ty in enumerate(types):
        dtype = TYPES[ty]
        if dtype is np.float32:
            arrays.append(t.floats(seed + k))
        elif dtype is np.float64:
            arrays.append(t.doubles(seed + k))
        else:
            info = np.iinfo(dtype)
            arrays.append(np.random.default_rng(seed + k).integers(info.min, info.max, t.N, dtype=dtype, endpoint=True))
    return arrays


def prepare() -> None:
    from coalda.emulator import emulate
    from coalda.driver.compile import CompileOptions, compile_to_ir, emit_ptx

    sys.path.insert(0, str(REPO / "tests"))
    import test_emulate_math as t
    import test_emulate_warp as warp

    OUT.mkdir(parents=True, exist_ok=True)
    source = t.SOURCE + warp.KERNELS
    (OUT / "math.cu").write_text(source)
    compile_to_ir(OUT / "math.cu", CompileOptions(), OUT / "math.ll")
    emit_ptx(OUT / "math.ll", "sm_90", OUT / "math.ptx")
    module = emulate.load((OUT / "math.ll").read_text())
    data: dict[str, np.ndarray] = {}
    table = []
    for i, (name, out_type, in_types) in enumerate(kernels(source)):
        args = inputs(t, in_types, 100 + 7 * i)
        result = np.zeros(t.N, dtype=TYPES[out_type])
        module.launch(name, (t.N // t.BLOCK, 1, 1), (t.BLOCK, 1, 1), [result, *args])
        for k, a in enumerate(args):
            data[f"{name}.in{k}"] = a
        data[f"{name}.emulated"] = result
        table.append({"name": name, "inputs": len(args),
                      "params": [ty for _, ty in module.signatures[name].params]})
    np.savez(OUT / "cases.npz", **data)
    (OUT / "cases.json").write_text(json.dumps({"n": t.N, "block": t.BLOCK, "kernels": table}))
    print(f"prepared {OUT.relative_to(REPO)}: {len(table)} kernels")


def ulps(a: np.ndarray, b: np.ndarray) -> float:
    """Largest distance between finite pairs in representable steps (NaNs
    must sit at the same places; there they count as equal)."""
    if a.dtype.kind != "f":
        return 0.0 if np.array_equal(a, b) else float("inf")
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if not np.array_equal(nan_a, nan_b):
        return float("inf")
    bits = a.dtype.itemsize * 8
    ints = [x[~nan_a].view(f"i{bits // 8}").astype(np.int64) for x in (a, b)]
    # order the bit patterns monotonically (negative floats count down)
    lin = [np.where(x < 0, np.int64(-(2 ** (bits - 1))) - x, x) for x in ints]
    if not lin[0].size:
        return 0.0
    return float(np.abs(lin[0].astype(np.float64) - lin[1].astype(np.float64)).max())


def _worst(a: np.ndarray, b: np.ndarray) -> int:
    """Index of the pair furthest apart (a NaN against a number first)."""
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    if (nan_a != nan_b).any():
        return int(np.flatnonzero(nan_a != nan_b)[0])
    return max(range(a.size), key=lambda i: 0.0 if nan_a[i] else ulps(a[i : i + 1], b[i : i + 1]))


def run() -> int:
    from coalda.check.gpu import GpuExecutor, gpu_name
    from coalda.check.oracle import HostBuffer

    meta = json.loads((OUT / "cases.json").read_text())
    data = np.load(OUT / "cases.npz")
    n, block = meta["n"], meta["block"]
    signatures = {k["name"]: tuple((f"p{i}", ty) for i, ty in enumerate(k["params"])) for k in meta["kernels"]}
    gpu = GpuExecutor((OUT / "math.ptx").read_text(), signatures)
    print(f"{gpu_name()}: {len(meta['kernels'])} kernels, {n} inputs each; GPU against the CPU emulator")
    print(f"{'kernel':<12} {'kind':<12} {'identical':>10} {'NaN bits':>9} {'max ulps':>9}")
    status = 0
    for k in meta["kernels"]:
        name = k["name"]
        emulated = data[f"{name}.emulated"]
        ins = [data[f"{name}.in{i}"].copy() for i in range(k["inputs"])]
        out = np.zeros_like(emulated)
        args = [HostBuffer(x.view(np.uint8), 0, x.nbytes) for x in (out, *ins)]
        gpu.run(name, (n // block, 1, 1), (block, 1, 1), args)
        equal = (out.view(np.uint8).reshape(n, -1) == emulated.view(np.uint8).reshape(n, -1)).all(axis=1)
        # the emulator's NaNs are canonical (coalda/emulator/emulate.py): a NaN against
        # a NaN is a payload difference, counted apart
        both_nan = np.isnan(out) & np.isnan(emulated) if out.dtype.kind == "f" else np.zeros(n, bool)
        payload = int(np.sum(both_nan & ~equal))
        kind = "approximate" if name in APPROXIMATE else "exact"
        distance = ulps(out, emulated)
        line = f"{name:<12} {kind:<12} {int(equal.sum()):>10} {payload:>9} {distance:>9.0f}"
        if kind == "exact" and not (equal | both_nan).all():
            status = 1
            first = int(np.flatnonzero(~(equal | both_nan))[0])
            line += (f"  DIFFERS, e.g. inputs {[x[first] for x in ins]}: "
                     f"GPU {out[first]!r}, emulator {emulated[first]!r}")
        elif distance > 4:  # an approximation this far off: show the worst case
            worst = _worst(out, emulated)
            line += (f"  worst: inputs {[x[worst] for x in ins]}: "
                     f"GPU {out[worst]!r}, emulator {emulated[worst]!r}")
        print(line)
    print("all exact kernels identical" if status == 0 else "an exact kernel differs")
    return status


if __name__ == "__main__":
    if sys.argv[1:] == ["prepare"]:
        prepare()
    elif sys.argv[1:] == ["run"]:
        sys.exit(run())
    else:
        sys.exit("usage: scripts/nvvm_fidelity.py prepare|run")
