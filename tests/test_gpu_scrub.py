"""The GPU runner's shared-memory scrub (coalda/check/gpu.py, GpuExecutor.scrub),
without a GPU: cuda-core replaced by a recorder. Every oracle launch (a
schedule given) of a kernel with shared memory is preceded on the same
stream by the scrub, with that schedule's poison byte in all four bytes of
its word, over as many bytes as one block of the kernel has (static and
dynamic, rounded up to 16), so that the original's two one-thread runs (the
two poisons) differ on the GPU as on the emulator when the kernel reads
shared bytes no thread wrote. Kernels without shared memory and timed
launches (no schedule) are not scrubbed. Its effect on an H200 is in
docs/gpu-runs.md ("Shared memory scrubbed")."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from coalda.check import gpu
from coalda.emulator.schedule import SHARED_POISON, SHARED_POISON_OTHER, Schedule

STATIC_SHARED = {"staged": 512, "plain": 0}  # a kernel's static __shared__ bytes


@dataclass
class Recorder:
    # (kernel, grid, dynamic shared bytes, arguments) of each launch
    launches: list[tuple[str, tuple[int, ...], int, tuple[Any, ...]]] = field(default_factory=list)


def fake_core(recorder: Recorder) -> SimpleNamespace:
    """The few cuda-core calls GpuExecutor makes."""

    class ObjectCode:
        def __init__(self, ptx: bytes) -> None:
            self.ptx = ptx.decode()

        @classmethod
        def from_ptx(cls, ptx: bytes) -> ObjectCode:
            return cls(ptx)

        def get_kernel(self, name: str) -> SimpleNamespace:
            assert f".entry {name}(" in self.ptx
            shared = 0 if name == gpu.SCRUB_KERNEL else STATIC_SHARED[name]
            return SimpleNamespace(name=name, attributes=SimpleNamespace(shared_size_bytes=shared))

    def launch(stream: Any, config: Any, kernel: SimpleNamespace, *args: Any) -> None:
        recorder.launches.append((kernel.name, tuple(config.grid), config.shmem_size, args))

    def launch_config(grid: tuple[int, ...], block: tuple[int, ...], shmem_size: int = 0) -> SimpleNamespace:
        return SimpleNamespace(grid=grid, block=block, shmem_size=shmem_size)

    return SimpleNamespace(ObjectCode=ObjectCode, LaunchConfig=launch_config, launch=launch)


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    rec = Recorder()
    stream = SimpleNamespace(sync=lambda: None)
    monkeypatch.setattr(gpu, "_modules", lambda: (fake_core(rec), None))
    monkeypatch.setattr(gpu, "device", lambda: SimpleNamespace(create_stream=lambda: stream))
    monkeypatch.setattr(gpu, "sm_count", lambda: 132)
    return rec


PTX = "".join(f".visible .entry {name}()\n{{\n\tret;\n}}\n" for name in STATIC_SHARED)
SIGNATURES: dict[str, tuple[tuple[str, str], ...]] = {name: () for name in STATIC_SHARED}


def test_each_schedule_scrubs_the_kernels_shared_memory_with_its_poison_before_the_launch(
    recorder: Recorder,
) -> None:
    executor = gpu.GpuExecutor(PTX, SIGNATURES)
    for schedule in (Schedule("forward"), Schedule("forward", other_poison=True), Schedule("strided")):
        executor.run("staged", (2, 1, 1), (64, 1, 1), [], schedule=schedule, shared_bytes=100)
    words = [SHARED_POISON * 0x01010101, SHARED_POISON_OTHER * 0x01010101, SHARED_POISON_OTHER * 0x01010101]
    # 512 static + 100 dynamic bytes, rounded up to 16: 624, in 8 blocks per SM
    expected = [launch for word in words for launch in (
        (gpu.SCRUB_KERNEL, (8 * 132, 1, 1), 624, (np.uint32(word), np.uint32(624))),
        ("staged", (2, 1, 1), 100, ()))]
    assert recorder.launches == expected
    assert words[0] == 0x6A6A6A6A


def test_kernels_without_shared_memory_and_launches_without_a_schedule_are_not_scrubbed(
    recorder: Recorder,
) -> None:
    executor = gpu.GpuExecutor(PTX, SIGNATURES)
    executor.run("plain", (1, 1, 1), (32, 1, 1), [], schedule=Schedule("forward"))
    executor.run("staged", (1, 1, 1), (32, 1, 1), [])
    assert [name for name, _, _, _ in recorder.launches] == ["plain", "staged"]


def test_the_scrub_stops_at_what_a_block_may_have_without_an_opt_in(recorder: Recorder) -> None:
    executor = gpu.GpuExecutor(PTX, SIGNATURES)
    executor.run("staged", (1, 1, 1), (32, 1, 1), [], schedule=Schedule("reverse"), shared_bytes=60 * 1024)
    assert recorder.launches[0][2] == 48 * 1024
