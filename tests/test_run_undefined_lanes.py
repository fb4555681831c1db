"""`coalda run` on the GPU and kernels that store undefined bytes: clang
stores a 3-element ext_vector_type as 4 lanes, the fourth left undefined
(poison), which the GPU fills with whatever a register held, differently in
the original and the rewritten kernel (the C++-features adversary's
`ext_vec3_pair` differed in exactly those bytes on an H200,
docs/gpu-runs.md). ir.undefined_lane_stores finds such kernels (directly or
through a helper); on the GPU their differences are "not checked", named in
the closing line, and the emulator (whose runs never use the rule) checks
them."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, Sequence

import numpy as np

from coalda.ir import undefined_lane_stores
from coalda.check.oracle import HostBuffer, Verdict, check
from coalda.report import run_failure, run_success
from coalda.check.spec import KernelSpec, Param
from conftest import run_cli

SOURCE = """\
typedef float f3v __attribute__((ext_vector_type(3)));
struct EV { f3v p; f3v v; };
// the same as ext_vec3_pair (at -O3 the fourth lane of a lone update is
// computed from the loaded padding instead: defined bytes)
__global__ void vec3(EV *y, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { y[i].v = y[i].v * 0.5f; y[i].p = y[i].p + y[i].v * dt; }
}
__device__ __noinline__ void step(EV *e, float dt) { e->v = e->v * 0.5f; e->p = e->p + e->v * dt; }
__global__ void vec3_helper(EV *y, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) step(&y[i], dt);
}
// 4-element vectors have no undefined lane
typedef float f4v __attribute__((ext_vector_type(4)));
__global__ void vec4(f4v *y, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = y[i] * dt;
}
"""


def test_kernels_storing_undefined_lanes_are_found_directly_and_through_helpers(tmp_path: Path) -> None:
    source = tmp_path / "lanes.cu"
    source.write_text(SOURCE)
    for level in (3, 0):
        out = tmp_path / f"O{level}"
        proc = run_cli("optimize", source, "-O", str(level), "-o", out)
        assert proc.returncode == 0, proc.stderr
        found = undefined_lane_stores((out / "lanes.before.ll").read_text())
        # the helper (__noinline__) and the kernel that calls it; not vec4
        assert found == {"_Z4vec3P2EVfi", "_Z11vec3_helperP2EVfi", "_Z4stepP2EVf"}, (level, found)


class Writes:
    """An executor that writes the given bytes over the buffer."""

    def __init__(self, data: bytes) -> None:
        self.data = np.frombuffer(data, dtype=np.uint8)

    def run(self, kernel: str, grid: Any, block: Any, args: Sequence[Any], schedule: Any = None) -> None:
        buffer = args[0]
        assert isinstance(buffer, HostBuffer)
        buffer.storage[buffer.offset : buffer.offset + buffer.size] = self.data


def results(optimized: bytes, undefined_lanes: bool) -> list[Any]:
    spec = KernelSpec("k", (Param("a", "inout", 16),))
    return check(spec, lambda name: name, Writes(bytes(range(16))), Writes(optimized), 4, np.random.default_rng(0),
                 schedules=["forward"], nan_payloads=True, undefined_lanes=undefined_lanes)


def test_on_the_gpu_a_difference_in_such_a_kernel_is_not_checked_and_said_so() -> None:
    padding = bytes(range(12)) + b"\xde\xad\xbe\xef"
    found = results(padding, undefined_lanes=True)
    assert found and all(r.verdict is Verdict.UNCHECKED for r in found)
    assert all(r.detail.startswith("not checked on the GPU: the original stores vector lanes it leaves undefined")
               for r in found)
    rows = [SimpleNamespace(result=r) for r in found]
    assert run_failure(rows) == ""
    assert run_success(rows).endswith(f"{len(found)} that differ were not checked on the GPU (k: the original stores "
                                      "vector lanes it leaves undefined; the emulator checks them).")
    # equal bytes are still a match, and other kernels' differences still fail
    assert all(r.verdict is Verdict.MATCH for r in results(bytes(range(16)), undefined_lanes=True))
    assert all(r.verdict is Verdict.MISMATCH for r in results(padding, undefined_lanes=False))
