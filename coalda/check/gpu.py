"""Load PTX and launch kernels on an NVIDIA GPU with cuda-core.

Optional: `pip install 'coalda[gpu]'`. Every CUDA call is checked; without
cuda-core or without a GPU, GpuUnavailable says so in one line.
"""

from __future__ import annotations

import ctypes
import functools
import re
import statistics
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import CoaldaError, DeviceLost
from .oracle import Arg, HostBuffer
from ..emulator.schedule import Schedule
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


# Fills `nbytes` (a multiple of 16) of a block's dynamic __shared__ memory
# with a 32-bit word (the schedule's poison byte, four times), 16 bytes per
# store, so that what a kernel finds in shared bytes no thread wrote is that
# byte and not whatever ran before (see GpuExecutor.scrub). Volatile stores:
# nothing reads them back, and ptxas must not drop them.
SCRUB_KERNEL = "coalda_scrub_shared"
SCRUB_THREADS = 256
SCRUB_MAX_BYTES = 48 * 1024  # the most a block may have without an opt-in, which COALDA never makes
SCRUB_PTX = f"""\
.version 7.0
.target sm_70
.address_size 64

.extern .shared .align 16 .b8 scrub[];

.visible .entry {SCRUB_KERNEL}(.param .u32 word, .param .u32 nbytes)
{{
\t.reg .pred %p<2>;
\t.reg .b32 %r<7>;
\tld.param.u32 %r1, [word];
\tld.param.u32 %r6, [nbytes];
\tmov.u32 %r2, %tid.x;
\tshl.b32 %r2, %r2, 4;
\tmov.u32 %r3, %ntid.x;
\tshl.b32 %r3, %r3, 4;
\tmov.u32 %r4, scrub;
$L_next:
\tsetp.ge.u32 %p1, %r2, %r6;
\t@%p1 bra $L_done;
\tadd.s32 %r5, %r4, %r2;
\tst.volatile.shared.v4.u32 [%r5], {{%r1, %r1, %r1, %r1}};
\tadd.s32 %r2, %r2, %r3;
\tbra.uni $L_next;
$L_done:
\tret;
}}
"""


_ENTRY = re.compile(r"\.entry\s+([\w$.]+)\s*\(([^)]*)\)")
# a parameter passed by value as bytes (a struct: `.param .align 4 .b8 k[12]`)
_BYTES_PARAM = re.compile(r"\.b8\s+[\w$.]+\[(\d+)\]")


def byval_sizes(ptx: str) -> dict[str, dict[int, int]]:
    """Of each kernel in the PTX, the positions of the parameters it takes by
    value as bytes (structs, lambdas, `__grid_constant__`), and their sizes.
    The emulator passes such a parameter by its address (the IR's byval
    pointer); the GPU needs its bytes in the parameter itself."""
    sizes: dict[str, dict[int, int]] = {}
    for entry in _ENTRY.finditer(ptx):
        params = [p for p in entry[2].split(",") if p.strip()]
        sizes[entry[1]] = {i: int(m[1]) for i, p in enumerate(params) if (m := _BYTES_PARAM.search(p))}
    return sizes


class GpuUnavailable(CoaldaError):
    pass


class CudaError(CoaldaError):
    pass


def error_name(exc: BaseException) -> str:
    """What cuda-core's exception says, in one line: the driver's error name
    (`CUDA_ERROR_ILLEGAL_ADDRESS` of its `CUDA_ERROR_ILLEGAL_ADDRESS: an
    illegal memory access was encountered`), else its first line."""
    text = str(exc).strip()
    name = re.search(r"\bCUDA_ERROR_[A-Z0-9_]+", text)
    if name:
        return name[0]
    return text.splitlines()[0] if text else type(exc).__name__


def _dims(dim: Sequence[int]) -> str:
    return "(" + ",".join(str(d) for d in dim) + ")"


class KernelFault(CudaError, DeviceLost):
    """A kernel that could not be launched, or faulted while it ran (an
    illegal address, a trap): one line naming the kernel, the variant (which
    build of it) and the launch. After a fault the device's context is
    lost, so the command stops there."""

    def __init__(self, kernel: str, variant: str, grid: Sequence[int], block: Sequence[int], error: str,
                 launched: bool = True) -> None:
        self.kernel, self.variant, self.error, self.launched = kernel, variant, error, launched
        self.grid, self.block = tuple(grid), tuple(block)
        what = "faulted" if launched else "could not be launched"
        of = f" (variant {variant})" if variant else ""
        super().__init__(f"kernel {kernel}{of} {what} at grid {_dims(grid)} block {_dims(block)}: {error}")

    def of_variant(self, variant: str) -> KernelFault:
        return KernelFault(self.kernel, variant, self.grid, self.block, self.error, self.launched)


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
    """oracle.Executor on the GPU: copies buffers in, launches, copies them out.
    A failing launch, or a fault of the kernel, is a KernelFault that names
    the kernel by its source name (NAMES: symbol -> name) and VARIANT."""

    def __init__(self, ptx: str, signatures: dict[str, tuple[tuple[str, str], ...]], variant: str = "",
                 names: Mapping[str, str] | None = None) -> None:
        core, _ = _modules()
        self.variant = variant
        self.names = dict(names or {})
        self.dev = device()
        self.stream = self.dev.create_stream()
        try:
            self.code = core.ObjectCode.from_ptx(ptx.encode())
        except Exception as exc:
            raise CudaError(f"the driver rejected the PTX: {str(exc).strip().splitlines()[0]}") from None
        self.signatures = signatures
        self.byval = byval_sizes(ptx)
        self._kernels: dict[str, Any] = {}
        self._scrub: Any = None

    def kernel(self, name: str) -> Any:
        if name not in self._kernels:
            try:
                self._kernels[name] = self.code.get_kernel(name)
            except Exception as exc:
                raise CudaError(f"kernel {name} not found in the PTX: {exc}") from None
        return self._kernels[name]

    def upload(self, kernel: str, args: Sequence[Arg]) -> DeviceArgs:
        """Each distinct host allocation once (buffers of an overlap layout
        share one), and the kernel's argument values: a buffer the kernel
        takes by value (a struct) is its bytes, as they are now."""
        _, driver = _modules()
        dargs = DeviceArgs([], [], [])
        bases: dict[int, int] = {}
        types = [ty for _, ty in self.signatures[kernel]]
        byval = self.byval.get(kernel, {})
        def address(buffer: HostBuffer) -> int:
            if id(buffer.storage) not in bases:
                buf = self._allocate(buffer.storage.nbytes)
                bases[id(buffer.storage)] = int(buf.handle)
                _check(driver.cuMemcpyHtoD(int(buf.handle), buffer.storage.ctypes.data, buffer.storage.nbytes),
                       "cuMemcpyHtoD")
                dargs.buffers.append(buf)
                dargs.storages.append(buffer.storage)
            return bases[id(buffer.storage)] + buffer.offset

        for index, (ty, arg) in enumerate(zip(types, args)):
            if isinstance(arg, HostBuffer) and index in byval:
                if byval[index] != arg.size:
                    raise CudaError(f"kernel {kernel} takes argument {index + 1} by value, {byval[index]} bytes; "
                                    f"the spec gives a buffer of {arg.size}")
                dargs.values.append(arg.with_addresses(address))  # its fields' buffers uploaded
            elif isinstance(arg, HostBuffer):
                if arg.pointers:  # its device addresses would come back into the bytes compared
                    raise CudaError(f"kernel {kernel} takes argument {index + 1} by pointer; a `struct` in "
                                    "the launch spec is a struct taken by value")
                dargs.values.append(np.uint64(address(arg)))  # a pointer is 8 bytes
            else:
                dargs.values.append(_scalar(ty, arg))
        return dargs

    def _allocate(self, nbytes: int) -> Any:
        try:
            return self.dev.allocate(nbytes, stream=self.stream)
        except Exception as exc:
            raise CudaError(f"cannot allocate {nbytes} bytes on the GPU: {error_name(exc)}") from None

    @contextmanager
    def _faults(self, kernel: str, grid: Dim3, block: Dim3) -> Iterator[None]:
        """What cuda-core raises in here (a sync, an event, a copy after the
        launch: where a fault of the kernel shows) is a KernelFault."""
        try:
            yield
        except KernelFault:
            raise
        except Exception as exc:  # cuda-core's CUDAError, or the project's CudaError of a checked call
            raise KernelFault(self.names.get(kernel, kernel), self.variant, grid, block, error_name(exc)) from None

    def download(self, dargs: DeviceArgs, kernel: str, grid: Dim3, block: Dim3) -> None:
        """Waits for the launch of KERNEL at GRID x BLOCK and copies its buffers back."""
        _, driver = _modules()
        with self._faults(kernel, grid, block):
            self.stream.sync()
            for buf, storage in zip(dargs.buffers, dargs.storages):
                _check(driver.cuMemcpyDtoH(storage.ctypes.data, int(buf.handle), storage.nbytes), "cuMemcpyDtoH")
            for buf in dargs.buffers:
                buf.close()

    def launch(self, kernel: str, grid: Dim3, block: Dim3, dargs: DeviceArgs, shared_bytes: int = 0) -> None:
        core, _ = _modules()
        function = self.kernel(kernel)  # one not in the PTX is its own error
        try:
            if any(isinstance(v, np.ndarray) for v in dargs.values):
                self._launch_with_bytes(kernel, grid, block, dargs.values, shared_bytes)
                return
            config = core.LaunchConfig(grid=grid, block=block, shmem_size=shared_bytes)
            core.launch(self.stream, config, function, *dargs.values)
        except Exception as exc:  # cuda-core's, or the driver's (checked) in _launch_with_bytes
            raise KernelFault(self.names.get(kernel, kernel), self.variant, grid, block, error_name(exc),
                              launched=False) from None

    def _launch_with_bytes(self, kernel: str, grid: Dim3, block: Dim3, values: list[Any], shared_bytes: int) -> None:
        """The driver's launch, for a kernel that takes a struct by value:
        cuda-core's launch packs scalars and pointers only. Each parameter's
        bytes in an array of its own, the driver's kernelParams pointing at
        them (it copies them at the launch)."""
        _, driver = _modules()
        slots = [v if isinstance(v, np.ndarray) else np.array(v) for v in values]
        params = (ctypes.c_void_p * max(len(slots), 1))(*[slot.ctypes.data for slot in slots])
        handle = self.kernel(kernel).handle  # a CUkernel, which the driver launches as a CUfunction
        _check(driver.cuLaunchKernel(driver.CUfunction(int(handle)), *grid, *block, shared_bytes,
                                     driver.CUstream(int(self.stream.handle)), ctypes.addressof(params), 0),
               f"cuLaunchKernel of {kernel}")

    def scrub(self, kernel: str, shared_bytes: int, poison: int) -> None:
        """Fills, in front of the next launch on this stream, as much shared
        memory as one block of kernel has (its static __shared__ bytes and
        shared_bytes of dynamic ones) with the byte poison, in every block of
        a grid of such blocks eight per SM: a GPU leaves in a block's shared
        memory what an earlier block or kernel left there; after this, a
        kernel that reads shared bytes no thread wrote finds the byte the
        emulator puts there under the same schedule, and the original's two
        runs with the two poisons differ (oracle.py reports such a kernel as
        "not checked" in its one-thread launches). Best effort: nothing
        promises where the next kernel's blocks land. Only the kernel's own
        amount: under racecheck every store of the scrub is checked (48 KB
        in every block took the early-loads adversary's racecheck past 200 s,
        against 31 s without a scrub)."""
        core, _ = _modules()
        static = self.kernel(kernel).attributes.shared_size_bytes
        static = int(static() if callable(static) else static)  # a method in older cuda-core
        nbytes = min(-(-(static + shared_bytes) // 16) * 16, SCRUB_MAX_BYTES)
        if not nbytes:
            return
        try:
            if self._scrub is None:
                self._scrub = core.ObjectCode.from_ptx(SCRUB_PTX.encode()).get_kernel(SCRUB_KERNEL)
            config = core.LaunchConfig(grid=(8 * sm_count(), 1, 1), block=(SCRUB_THREADS, 1, 1), shmem_size=nbytes)
            core.launch(self.stream, config, self._scrub, np.uint32(poison * 0x01010101), np.uint32(nbytes))
        except Exception as exc:
            raise CudaError(f"the shared-memory scrub failed: {str(exc).strip().splitlines()[0]}") from None

    def run(
        self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg],
        schedule: Schedule | None = None, shared_bytes: int = 0,
    ) -> None:
        """One launch. The GPU picks its own order of threads; of `schedule`
        it takes the shared poison, which scrub() puts in shared memory first."""
        dargs = self.upload(kernel, args)
        if schedule is not None:
            self.scrub(kernel, shared_bytes, schedule.shared_poison)
        self.launch(kernel, grid, block, dargs, shared_bytes)
        self.download(dargs, kernel, grid, block)

    def time(
        self, kernel: str, grid: Dim3, block: Dim3, args: Sequence[Arg], repeat: int = 20, shared_bytes: int = 0,
    ) -> list[float]:
        """Milliseconds of each of `repeat` launches after one warm-up, by CUDA events."""
        dargs = self.upload(kernel, args)
        with self._faults(kernel, grid, block):
            times = _event_times(self.stream, lambda: self.launch(kernel, grid, block, dargs, shared_bytes), repeat)
        self.download(dargs, kernel, grid, block)
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
    try:
        stream = dev.create_stream()
        src = dev.allocate(nbytes, stream=stream)
        dst = dev.allocate(nbytes, stream=stream)

        def copy() -> None:
            _check(driver.cuMemcpyDtoDAsync(int(dst.handle), int(src.handle), nbytes, stream.handle),
                   "cuMemcpyDtoDAsync")

        times = _event_times(stream, copy, repeat)
        src.close()
        dst.close()
    except Exception as exc:  # cuda-core's, or a checked call's: one line
        raise CudaError(f"timing a device-to-device copy of {nbytes} bytes failed: {error_name(exc)}") from None
    return times
