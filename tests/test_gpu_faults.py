"""A kernel that faults on the GPU (CUDA_ERROR_ILLEGAL_ADDRESS), or cannot
be launched, is one line naming the kernel, the variant and the launch, in
`coalda bench` and in `coalda run` (issue 36, item 11), not cuda-core's
traceback. Without a GPU: the commands run against a stand-in for cuda-core
(a `cuda` package first on PYTHONPATH) that raises what cuda-core raises,
its CUDAError with the driver's `NAME: explanation`, once a chosen kernel of
a chosen module (0: the unoptimized PTX, 1: the optimized one) is launched;
after that, as on a GPU, every call fails the same way, and the buffers
it held warn as they are freed at exit, as cuda-core's do (seen on an H200:
`Warning: cuMemFreeAsync failed during resource destruction (CUDA error
700)`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from coalda.check.gpu import error_name
from conftest import TESTCASES, run_cli

FAKE = {
    "cuda/__init__.py": "",
    "cuda/bindings/__init__.py": "",
    "cuda/bindings/driver.py": '''
class CUresult:
    CUDA_SUCCESS = 0
def cuMemcpyHtoD(dst, src, nbytes): return (0,)
def cuMemcpyDtoH(dst, src, nbytes): return (0,)
def cuMemcpyDtoDAsync(dst, src, nbytes, stream): return (0,)
def cuDriverGetVersion(): return (0, 12050)
''',
    "cuda/core/_utils/__init__.py": "",
    "cuda/core/_utils/cuda_utils.py": "class CUDAError(Exception):\n    pass\n",
    "cuda/core/__init__.py": '''
import os
import sys
from types import SimpleNamespace
from ._utils.cuda_utils import CUDAError

# FAKE_CUDA_FAULT=KERNEL@MODULE: launching that kernel of the MODULE-th PTX
# loaded faults (the next calls raise), or with FAKE_CUDA_FAULT_AT=launch,
# the launch itself is refused
KERNEL, _, MODULE = os.environ.get("FAKE_CUDA_FAULT", "").partition("@")
AT = os.environ.get("FAKE_CUDA_FAULT_AT", "run")
ILLEGAL = ("CUDA_ERROR_ILLEGAL_ADDRESS: While executing a kernel, the device encountered a load or store "
           "instruction on an invalid memory address.\\nThis leaves the process in an inconsistent state.")
state = {"modules": 0, "sticky": None}

def _sticky():
    if state["sticky"]:
        raise CUDAError(state["sticky"])

class _Event:
    def sync(self): _sticky()
    def __sub__(self, other): return 0.5

class _Stream:
    handle = 0
    def record(self, options=None):
        _sticky()
        return _Event()
    def sync(self): _sticky()

class _Buffer:
    handle = 0x10000000
    def close(self): _sticky()
    def __del__(self):  # as cuda-core's buffers, freed at exit after a fault
        if state["sticky"]:
            print("Warning: cuMemFreeAsync failed during resource destruction (CUDA error 700)", file=sys.stderr)

class Device:
    name = "Fake GPU"
    properties = SimpleNamespace(multiprocessor_count=132)
    def set_current(self): pass
    def create_stream(self): return _Stream()
    def allocate(self, nbytes, stream=None):
        _sticky()
        return _Buffer()

class EventOptions:
    def __init__(self, timing_enabled=False): pass

class LaunchConfig:
    def __init__(self, grid, block, shmem_size=0): self.grid, self.block = grid, block

class ObjectCode:
    @classmethod
    def from_ptx(cls, ptx):
        code = cls()
        code.index = state["modules"]
        state["modules"] += 1
        return code
    def get_kernel(self, name):
        return SimpleNamespace(name=name, module=self.index, attributes=SimpleNamespace(shared_size_bytes=0))

def launch(stream, config, kernel, *args):
    _sticky()
    if KERNEL and KERNEL in kernel.name and kernel.module == int(MODULE):
        if AT == "launch":
            raise CUDAError("CUDA_ERROR_INVALID_VALUE: This indicates that one or more of the parameters passed "
                            "to the API call is not within an acceptable range of values.")
        state["sticky"] = ILLEGAL
''',
}
TRANSPOSE = TESTCASES / "transpose.cu"
SQUARE = TESTCASES / "bench" / "transpose_square.toml"


@pytest.fixture
def fake_gpu(tmp_path: Path) -> Path:
    for path, text in FAKE.items():
        (tmp_path / "fake" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "fake" / path).write_text(text)
    return tmp_path / "fake"


# The commands run with run_cli(fresh=True), in a fresh interpreter: the
# stand-in's buffers warn from __del__ as the interpreter tears down, which
# a process served by the CLI server (tests/cli_server.py) does not do.
def _env(fake: Path, fault: str, at: str = "run") -> dict[str, str]:
    path = os.pathsep.join([str(fake), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return dict(os.environ, PYTHONPATH=path, FAKE_CUDA_FAULT=fault, FAKE_CUDA_FAULT_AT=at)


def _one_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    assert len(stderr.splitlines()) == 1, stderr
    return stderr.strip()


def test_the_driver_error_is_its_name() -> None:
    from types import new_class

    cuda_error = new_class("CUDAError", (Exception,))
    assert error_name(cuda_error("CUDA_ERROR_ILLEGAL_ADDRESS: While executing a kernel, ...\nThis leaves the "
                                 "process in an inconsistent state.")) == "CUDA_ERROR_ILLEGAL_ADDRESS"
    assert error_name(cuda_error("something else\nand more")) == "something else"
    assert error_name(cuda_error()) == "CUDAError"


def test_a_fault_in_bench_is_one_line(fake_gpu: Path) -> None:
    proc = run_cli("bench", TRANSPOSE, "--spec", SQUARE, "--kernels", "transpose_tiled", "--sizes", "64",
                   "--repeat", "2", "--no-nvcc", "-q", env=_env(fake_gpu, "transpose_tiled@1"), fresh=True)
    assert proc.returncode == 1
    assert _one_line(proc.stderr) == ("coalda: error: kernel transpose_tiled (variant COALDA) faulted at grid (2,2,1) "
                                      "block (32,8,1): CUDA_ERROR_ILLEGAL_ADDRESS")
    assert proc.stdout == ""  # no table of the launches before it


def test_a_launch_bench_cannot_make_is_one_line(fake_gpu: Path) -> None:
    proc = run_cli("bench", TRANSPOSE, "--spec", SQUARE, "--kernels", "transpose_naive", "--sizes", "64",
                   "--blocks", "16x16", "--repeat", "2", "--no-nvcc", "-q",
                   env=_env(fake_gpu, "transpose_naive@0", at="launch"), fresh=True)
    assert proc.returncode == 1
    assert _one_line(proc.stderr) == ("coalda: error: kernel transpose_naive (variant clang -O3) could not be "
                                      "launched at grid (4,4,1) block (16,16,1): CUDA_ERROR_INVALID_VALUE")


def test_a_fault_in_run_is_one_line(fake_gpu: Path) -> None:
    proc = run_cli("run", TRANSPOSE, "--spec", SQUARE, "--sizes", "64", "-q", env=_env(fake_gpu, "transpose_tiled@1"),
                   fresh=True)
    assert proc.returncode == 1
    assert _one_line(proc.stderr) == ("coalda: error: kernel transpose_tiled (variant optimized) faulted at grid "
                                      "(2,2,1) block (32,8,1): CUDA_ERROR_ILLEGAL_ADDRESS")


def test_the_same_commands_pass_without_a_fault(fake_gpu: Path) -> None:
    """The stand-in itself: without a fault both commands finish."""
    bench = run_cli("bench", TRANSPOSE, "--spec", SQUARE, "--kernels", "transpose_tiled", "--sizes", "64",
                    "--repeat", "2", "--no-nvcc", "-q", env=_env(fake_gpu, ""), fresh=True)
    assert bench.returncode == 0, bench.stderr
    assert "transpose_tiled" in bench.stdout and "Fake GPU" in bench.stdout
