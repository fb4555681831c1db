"""Structs taken by value. The GPU runner (coalda/check/gpu.py), without a GPU:
which parameters a kernel takes by value as bytes, read from clang's PTX,
and what upload() passes for them (the struct's bytes, not a device pointer
to them, which the emulator passes: the IR's byval pointer). The launch of
such a kernel through the driver (cuda-core packs scalars and pointers only)
ran on an H200 with the C++-features adversary (docs/gpu-runs.md). The
oracle's overlap and alias layouts keep such a buffer apart (on a GPU it is
a copy of its own): with two real buffers besides it, the alias layout
checks the kernel instead of finding its struct overwritten."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from coalda.check import gpu
from coalda.check.oracle import HostBuffer
from conftest import run_cli

SOURCE = """\
struct Coef { float a, b, c; };
struct Big { double v[5]; char tag; };
__global__ void by_value(float *y, const __grid_constant__ Coef k, Big big, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * k.a + k.b + (float)big.v[big.tag & 3];
}
__global__ void by_pointer(float *y, const Coef *k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * k->a;
}
struct F3 { float x, y, z; };
__global__ void axpy_coef(F3 *y, const F3 *x, const __grid_constant__ Coef k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].x = k.a * x[i].x + y[i].x; y[i].y = k.b * x[i].y + y[i].y; y[i].z = k.c * x[i].z + y[i].z; }
}
"""
SPEC = """\
sizes = [100, 300]
[kernels.axpy_coef]
block = 128
grid = "cdiv(n, block)"
align = 4
params = [{ name = "y", inout = "12*n" }, { name = "x", in = "12*n" }, { name = "k", in = "12" }, { name = "n", value = "n" }]
"""


def test_parameters_taken_by_value_are_read_from_clangs_ptx(tmp_path: Path) -> None:
    source = tmp_path / "byval.cu"
    source.write_text(SOURCE)
    proc = run_cli("optimize", source, "-o", tmp_path / "out")
    assert proc.returncode == 0, proc.stderr
    sizes = gpu.byval_sizes((tmp_path / "out" / "byval.before.ptx").read_text())
    # a 12-byte struct and a 48-byte one (40 of doubles, a char, padding); pointers and ints are not bytes
    assert sizes == {"_Z8by_valuePf4Coef3Bigi": {1: 12, 2: 48}, "_Z10by_pointerPfPK4Coefi": {},
                     "_Z9axpy_coefP2F3PKS_4Coefi": {2: 12}}


def test_the_alias_layout_keeps_a_struct_taken_by_value_apart(tmp_path: Path) -> None:
    source = tmp_path / "byval.cu"
    source.write_text(SOURCE)
    source.with_suffix(".toml").write_text(SPEC)
    proc = run_cli("run", source, "--emulate", "-q", "--pass-arg=-coalda-stage-small-always")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    # x and y at one address, k apart: checked (were k there too, the
    # whole grid's writes to y would change it under the threads' reads)
    assert re.search(r"axpy_coef +│ +100 │ alias +│ all 4 +│ original │ match", proc.stdout), proc.stdout[-3000:]
    assert "not checked" not in proc.stdout


def fake_driver() -> SimpleNamespace:
    ok = SimpleNamespace(CUDA_SUCCESS=0)
    return SimpleNamespace(CUresult=ok, cuMemcpyHtoD=lambda *args: (0,))


def test_a_struct_by_value_is_passed_as_its_bytes_and_a_pointer_as_an_address(monkeypatch: pytest.MonkeyPatch) -> None:
    allocations: list[int] = []

    def allocate(nbytes: int, stream: Any) -> SimpleNamespace:
        allocations.append(nbytes)
        return SimpleNamespace(handle=0x7000_0000 + 0x1000 * len(allocations), close=lambda: None)

    device = SimpleNamespace(create_stream=lambda: None, allocate=allocate)
    monkeypatch.setattr(gpu, "_modules", lambda: (None, fake_driver()))
    monkeypatch.setattr(gpu, "device", lambda: device)
    monkeypatch.setattr(gpu.GpuExecutor, "__init__", lambda self, ptx, sigs: None)
    executor = gpu.GpuExecutor("", {})
    executor.dev, executor.stream = device, None
    executor.signatures = {"k": (("y", "ptr"), ("coef", "ptr"), ("n", "i32"))}
    executor.byval = {"k": {1: 12}}
    storage = np.arange(64, dtype=np.uint8)
    y, coef = HostBuffer(storage, 8, 16), HostBuffer(storage, 40, 12)
    dargs = executor.upload("k", [y, coef, 5])
    assert allocations == [64]  # y's storage once; coef's bytes travel in the parameter
    assert dargs.values[0] == np.uint64(0x7000_1000 + 8)
    assert isinstance(dargs.values[1], np.ndarray) and dargs.values[1].tobytes() == bytes(range(40, 52))
    assert dargs.values[2] == np.int32(5)
    storage[40] = 99  # a snapshot: the kernel's copy does not follow the host's buffer
    assert dargs.values[1][0] == 40
    with pytest.raises(gpu.CudaError, match=r"kernel k takes argument 2 by value, 12 bytes; the spec gives a buffer of 8"):
        executor.upload("k", [y, HostBuffer(storage, 40, 8), 5])
