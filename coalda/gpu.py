"""Load PTX and launch kernels on an NVIDIA GPU with cuda-core.

Optional: `pip install 'coalda[gpu]'`. Every CUDA call is checked; without
cuda-core or without a GPU, GpuUnavailable says so in one line.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .errors import CoaldaError
from .oracle import Arg, HostBuffer
from .schedule import Schedule
from .spec import Dim3

_SCALARS = {"i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "float": np.float32, "double": np.float64}


def _scalar(ty: str, value: int | float) -> np.generic:
    """A kernel's scalar argument as the IR type holds it: an integer is
    taken modulo 2^bits (an `unsigned` 4294967295 is the i32 -1), as the
    emulator's ctypes do."""
    kind = _SCALARS[ty]
    if np.issubdtype(kind, np.integer):
        bits = np.iinfo(kind).bits
        return kind(np.array(int(value) % (1 << bits), dtype=np.uint64).astype(kind))
    return kind(value)


class GpuUnavailable(CoaldaError):
    pass


class CudaError(CoaldaError):
    pass


@functools.cache
def _modules() -> tuple[Any, Any]:
    try:
        import cuda.core as core  # noqa: PLC0415
        from cuda.bindings import driver  # noqa: PLC0415
    except ImportError:
        raise GpuUnavailable(
            "cuda-core is not installed: `pip install 'coalda[gpu]'` on a machine with an NVIDIA GPU"
            " (`coalda run --emulate` checks kernels on the CPU; timings need the GPU)"
        ) from None
    return core, driver


def _check(result: Any, what: str) -> Any:
    _, driver = _modules()
    err = result[0] if isinstance(result, tuple) else result
    if err != driver.CUresult.CUDA_SUCCESS:
        raise CudaError(f"{what} failed: {err.name if hasattr(err, 'name') else err}")
    return result[1] if isinstance(result, tuple) and len(result) > 1 else None


@functools.cache
def device() -> Any:
    core, _ = _modules()
    try:
        dev = core.Device()
        dev.set_current()
    except Exception as exc:  # cuda-core raises its own types; any means "no GPU"
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise GpuUnavailable(
            f"no CUDA GPU is available ({first}); `coalda run --emulate` checks kernels on the CPU, "
            "timings (`coalda bench`) need the GPU"
        ) from None
    return dev


def gpu_name() -> str:
    return str(device().name)


@dataclass
class DeviceArgs:
    buffers: list[Any]  # one device allocation per distinct host storage
    storages: list[np.ndarray]  # the host storage of each
    values: list[Any]


class GpuExecutor:
    """oracle.Executor on the GPU: copies buffers in, launches, copies them out."""

    def __init__(self, ptx: str, signatures: dict[str, tuple[tuple[str, str], ...]]) -> None:
        core, _ = _modules()
        self.dev = device()
        self.stream = self.dev.create_stream()
        try:
            self.code = core.ObjectCode.from_ptx(ptx.encode())
        except Exception as exc:
            raise CudaError(f"the driver rejected the PTX: {str(exc).strip().splitlines()[0]}") from None
        self.signatures = signatures
        self._kernels: dict[str, Any] = {}

    def kernel(self, name: str) -> Any:
        if name not in self._kernels:
            try:
                self._kernels[name] = self.code.get_kernel(name)
            except Exception as exc:
                raise CudaError(f"kernel {name} not found in the PTX: {exc}") from None
        return self._kernels[name]

    def upload(self, kernel: str, args: Sequence[Arg]) -> DeviceArgs:
        """Each distinct host allocation once (buffers of an overlap layout
        share one), and the kernel's argument values."""
        _, driver = _modules()
        dargs = DeviceArgs([], [], [])
        bases: dict[int, int] = {}
        types = [ty for _, ty in self.signatures[kernel]]
        for ty, arg in zip(types, args):
            if isinstance(arg, HostBuffer):
                if id(arg.storage) not in bases:
                    buf = self.dev.allocate(arg.storage.nbytes, stream=self.stream)
                    bases[id(arg.storage)] = int(buf.handle)
                    _check(driver.cuMemcpyHtoD(int(buf.handle), arg.storage.ctypes.data, arg.storage.nbytes), "cuMemcpyHtoD")
                    dargs.buffers.append(buf)
                    dargs.storages.append(arg.storage)
                dargs.values.append(np.uint64(bases[id(arg.storage)] + arg.offset))  # a pointer is 8 bytes
            else:
                dargs.values.append(_scalar(ty, arg))
        return dargs

    def download(self, dargs: DeviceArgs) -> None:
        _, driver = _modules()
        try:
            self.stream.sync()
        except Exception as exc:  # the kernel faulted: one line, no traceback
            raise CudaError(f"the kernel failed on the GPU: {str(exc).strip().splitlines()[0]}") from None
        for buf, storage in zip(dargs.buffers, dargs.storages):
            _check(driver.cuMemcpyDtoH(storage.ctypes.data, int(buf.handle), storage.nbytes), "cuMemcpyDtoH")
        for buf in dargs.buffers:
            buf.close()

    def launch(self, kernel: str, grid: Dim3, block: Dim3, dargs: DeviceArgs, shared_bytes: int = 0) -> None:
        core, _ = _modules()
        try:
            config = core.LaunchConfig(grid=grid, block=block, shmem_size=shared_bytes)
            core.launch(self.stream, config, self.kernel(kernel), *dargs.values)
        except Exception as exc:
            raise CudaError(f"launch of {kernel} failed: {str(exc).strip().splitlines()[0]}") from None

    def run(
        self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg],
        schedule: Schedule | None = None, shared_bytes: int = 0,
    ) -> None:
        """One launch; `schedule` is the emulator's business and ignored here
        (the GPU picks its own)."""
        del schedule
        dargs = self.upload(kernel, args)
        self.launch(kernel, grid, block, dargs, shared_bytes)
        self.download(dargs)

    def time(
        self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], repeat: int = 20, shared_bytes: int = 0,
    ) -> list[float]:
        """Milliseconds of each of `repeat` launches after one warm-up, by CUDA events."""
        dargs = self.upload(kernel, args)
        times = _event_times(self.stream, lambda: self.launch(kernel, grid, block, dargs, shared_bytes), repeat)
        self.download(dargs)
        return times


def _event_times(stream: Any, action: Callable[[], None], repeat: int) -> list[float]:
    """Milliseconds of each of `repeat` runs of action on stream, by CUDA
    events, after one warm-up run."""
    core, _ = _modules()
    options = core.EventOptions(timing_enabled=True)
    action()
    times = []
    for _ in range(repeat):
        start = stream.record(options=options)
        action()
        end = stream.record(options=options)
        end.sync()
        times.append(end - start)
    return times


def median(times: Sequence[float]) -> float:
    return statistics.median(times)


def sm_count() -> int:
    return int(device().properties.multiprocessor_count)


def driver_version() -> str:
    _, driver = _modules()
    version = _check(driver.cuDriverGetVersion(), "cuDriverGetVersion")
    return f"{version // 1000}.{version % 1000 // 10}"


def time_memcpy(nbytes: int, repeat: int) -> list[float]:
    """Milliseconds of each of `repeat` device-to-device copies of nbytes."""
    _, driver = _modules()
    dev = device()
    stream = dev.create_stream()
    src = dev.allocate(nbytes, stream=stream)
    dst = dev.allocate(nbytes, stream=stream)

    def copy() -> None:
        _check(driver.cuMemcpyDtoDAsync(int(dst.handle), int(src.handle), nbytes, stream.handle), "cuMemcpyDtoDAsync")

    times = _event_times(stream, copy, repeat)
    src.close()
    dst.close()
    return times
