"""The emulator's fibers (coalda/emulator/fibers.py): on x86-64 COALDA's own
context switch, elsewhere and with COALDA_EMULATOR_UCONTEXT=1 glibc's
ucontext. Both run the same threads to the same bytes: a kernel whose
threads park at barriers and shuffles many times, with values live in
callee-saved registers and 16-byte-aligned stack slots across each park
(a fiber entered off the ABI's 16-byte alignment crashes here: planted,
it did). A switch that lost a callee-saved register may go unseen: the
JIT compiles at -O0, whose code keeps little in those registers across a
call; the switch saves all six the SysV ABI names."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from coalda.driver.compile import CompileOptions, compile_to_ir
from coalda.emulator import emulate, fibers
from coalda.emulator.schedule import SCHEDULES

SOURCE = r"""
struct alignas(16) Acc { double a, b; };
extern "C" __global__ void parks(double *out, const double *in, int rounds) {
  __shared__ double tile[128];
  int t = threadIdx.x;
  Acc acc = {in[t], 1.0};
  volatile double keep[4] = {in[t] * 2, in[t] * 3, in[t] * 5, in[t] * 7};
  for (int r = 0; r < rounds; ++r) {
    tile[t] = acc.a;
    __syncthreads();
    acc.a += tile[(t + r + 1) % blockDim.x] * 0.5;
    acc.b = acc.b * 1.0000001 + __shfl_xor_sync(~0u, acc.a, r & 31);
    __syncthreads();
  }
  out[t] = acc.a + acc.b + keep[0] + keep[1] + keep[2] + keep[3];
}
"""

RUN = """
import json, sys
import numpy as np
from coalda.emulator import emulate
from coalda.emulator.schedule import SCHEDULES
module = emulate.load(open(sys.argv[1]).read())
inputs = np.arange(128, dtype=np.float64) / 7
outs = []
for schedule in SCHEDULES:
    out = np.zeros(128)
    module.launch("parks", (1, 1, 1), (128, 1, 1), [out, inputs, np.int32(40)], schedule=schedule)
    outs.append(out.tolist())
print(json.dumps(outs))
"""


@pytest.fixture(scope="module")
def module_ir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("fibers")
    (tmp / "parks.cu").write_text(SOURCE)
    compile_to_ir(tmp / "parks.cu", CompileOptions(opt_level=0), tmp / "parks.ll")
    return tmp / "parks.ll"


def run(module_ir: Path, ucontext: bool) -> list[list[float]]:
    env = {**os.environ, "COALDA_EMULATOR_UCONTEXT": "1" if ucontext else "0"}
    proc = subprocess.run([sys.executable, "-c", RUN, str(module_ir)], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


def test_both_switches_compute_the_same_bytes(module_ir: Path) -> None:
    own, ucontext = run(module_ir, False), run(module_ir, True)
    assert own == ucontext
    assert len({json.dumps(o) for o in own}) == 1  # and the same under every schedule


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="COALDA's own switch is x86-64's")
def test_x86_64_uses_its_own_switch(module_ir: Path) -> None:
    """Not glibc's swapcontext, whose signal-mask system call made a sixth
    of the test suite's CPU time."""
    assert fibers.OWN_SWITCH
    lowered = fibers.fiber_ir(0)
    assert "@__coalda_switch" in lowered and "swapcontext" not in lowered
    module = emulate.load(module_ir.read_text())
    out = np.zeros(128)
    module.launch("parks", (1, 1, 1), (128, 1, 1), [out, np.arange(128, dtype=np.float64) / 7, np.int32(3)],
                  schedule=SCHEDULES[0])
    assert np.all(np.isfinite(out)) and out.any()
