"""CMake's CUDA language with coalda-cc as its compiler (issue 36, item 5):
`project(x LANGUAGES CUDA)` + `add_executable(x k.cu)`, configured with
`-DCMAKE_CUDA_COMPILER=coalda-cc -DCMAKE_CUDA_ARCHITECTURES=90`, builds an
executable that carries COALDA's rewrite and links the CUDA 12 runtime.

CMake identifies coalda-cc as Clang from `--version`, then finds "the CUDA
toolkit" by running an `nvcc` (CUDAToolkit_ROOT's, else PATH's, else
/usr/local/cuda*'s), passes that toolkit's root as `--cuda-path=` to every
compile and links `-lcudadevrt -lcudart_static -lrt -lpthread -ldl`. Before
the fix the nvcc this machine has is CUDA 13's, whose headers clang-19 cannot
compile with ('texture_fetch_functions.h' file not found), and coalda's own
CUDA 12 tree had no nvcc for CUDAToolkit_ROOT to name."""

from __future__ import annotations

import glob
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from coalda.driver.cc import embedded_images, parse_args
from coalda.driver.toolchain import cuda_path

from test_cc import WIDE_LOAD, ptx_of

COALDA_CC = Path(sys.executable).parent / "coalda-cc"

pytestmark = [
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed"),
    pytest.mark.skipif(not COALDA_CC.is_file(), reason="the coalda-cc console script is not installed (pip install -e .)"),
]

CMAKELISTS = """\
cmake_minimum_required(VERSION 3.18)
project(rgb_cuda LANGUAGES CUDA)
add_executable(rgb_cuda k.cu)
"""

# One member-wise pixel copy (testcases/rgb.cu's, guarded), and a main that
# checks every byte it copied.
KERNEL = """\
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

struct Pixel { unsigned char r, g, b; };

__global__ void copy_pixels(Pixel *dst, const Pixel *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

int main() {
  const int n = 100003;
  std::vector<Pixel> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = Pixel{(unsigned char)i, (unsigned char)(i >> 8), (unsigned char)(7 * i)};
  Pixel *src = nullptr, *dst = nullptr;
  cudaError_t err = cudaMalloc(&src, sizeof(Pixel) * n);
  if (!err) err = cudaMalloc(&dst, sizeof(Pixel) * n);
  if (!err) err = cudaMemcpy(src, in.data(), sizeof(Pixel) * n, cudaMemcpyHostToDevice);
  if (!err) { copy_pixels<<<(n + 255) / 256, 256>>>(dst, src, n); err = cudaGetLastError(); }
  if (!err) err = cudaMemcpy(out.data(), dst, sizeof(Pixel) * n, cudaMemcpyDeviceToHost);
  if (err) { std::fprintf(stderr, "rgb_cuda: %s\\n", cudaGetErrorString(err)); return 2; }
  bool same = std::memcmp(in.data(), out.data(), sizeof(Pixel) * n) == 0;
  std::printf("copy_pixels n=%d %s\\n", n, same ? "ok" : "MISMATCH");
  return same ? 0 : 1;
}
"""


def _system_nvcc() -> bool:
    """Whether CMake's own search (PATH, then /usr/local/cuda*) finds an nvcc."""
    return shutil.which("nvcc") is not None or bool(glob.glob("/usr/local/cuda*/bin/nvcc"))


def _needed(exe: Path) -> list[str]:
    """The executable's DT_NEEDED libraries."""
    dynamic = subprocess.run(["readelf", "-d", str(exe)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", dynamic)


@pytest.mark.parametrize("toolkit", ["found by CMake", "CUDAToolkit_ROOT"])
def test_cmake_cuda_language_builds_and_runs_coalda(tmp_path: Path, toolkit: str) -> None:
    if toolkit == "found by CMake" and not _system_nvcc():
        pytest.skip("no nvcc on this machine: CMake's own toolkit search finds nothing (the CUDAToolkit_ROOT case runs)")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "CMakeLists.txt").write_text(CMAKELISTS)
    (tmp_path / "src" / "k.cu").write_text(KERNEL)
    build = tmp_path / "build"
    root = [f"-DCUDAToolkit_ROOT={cuda_path()}"] if toolkit == "CUDAToolkit_ROOT" else []
    configure = subprocess.run(
        ["cmake", "-S", str(tmp_path / "src"), "-B", str(build), f"-DCMAKE_CUDA_COMPILER={COALDA_CC}",
         "-DCMAKE_CUDA_ARCHITECTURES=90", "-DCMAKE_CUDA_FLAGS=-Wcoalda", *root],
        capture_output=True, text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert "The CUDA compiler identification is Clang 19" in configure.stdout
    made = subprocess.run(["cmake", "--build", str(build), "--verbose"], capture_output=True, text=True)
    log = made.stdout + made.stderr
    assert made.returncode == 0, log
    # CMake's compile line, and -Wcoalda's line for the rewritten copy in the build log
    assert "--cuda-gpu-arch=sm_90" in log and "-Wcoalda" in log and "--cuda-path=" in log
    if toolkit == "CUDAToolkit_ROOT":  # the stand-in nvcc gave CMake coalda's tree
        assert f"--cuda-path={cuda_path()} " in log
    assert re.search(r"k\.cu:11: coalda: copy_pixels: rewrote: ", log), log
    assert re.search(r"k\.cu: coalda: 1 rewritten, 0 left alone, in 1 kernel", log), log
    exe = build / "rgb_cuda"
    assert {(i.kind, i.sm) for i in embedded_images(exe)} == {("elf", 90), ("ptx", 90)}
    assert WIDE_LOAD in ptx_of(exe)
    # the CUDA 12 runtime coalda cc links, not the toolkit's libcudart_static.a
    # (CMake's CUDA_RUNTIME_LIBRARY default): cudaMalloc comes from libcudart.so.12
    assert "libcudart.so.12" in _needed(exe)


def test_cmake_flags_for_a_cuda_13_toolkit(tmp_path: Path) -> None:
    """What CMake passes when the nvcc it found is CUDA 13's: that tree's
    --cuda-path gives way to coalda's, and its runtime libraries to the CUDA
    12 runtime coalda cc links (libcudart_static.a would have served every
    call); a CUDA 12 tree is taken as given."""
    (tmp_path / "cuda-13.0" / "include").mkdir(parents=True)
    (tmp_path / "cuda-13.0" / "include" / "cuda.h").write_text("#define CUDA_VERSION 13000\n")
    src = tmp_path / "k.cu"
    src.write_text("")
    inv = parse_args([f"--cuda-path={tmp_path / 'cuda-13.0'}", "--cuda-gpu-arch=sm_90", "-x", "cuda", "-c", str(src),
                      "-o", "k.o"])
    assert inv.cuda_path is None and inv.ignored_cuda_path == str(tmp_path / "cuda-13.0")
    (tmp_path / "k.o").write_bytes(b"")
    link = parse_args([str(tmp_path / "k.o"), "-o", "x", "-lcudadevrt", "-lcudart_static", "-lrt", "-lpthread", "-ldl", "-l", "cudart",
                       f"-L{tmp_path / 'cuda-13.0' / 'lib64'}"])
    assert [item for kind, item in link.link_items if kind == "flag"] == [
        "-lrt", "-lpthread", "-ldl", f"-L{tmp_path / 'cuda-13.0' / 'lib64'}"]
    assert parse_args([f"--cuda-path={cuda_path()}", "-c", str(src)]).cuda_path == str(cuda_path())


def test_the_cuda_tree_answers_cmakes_nvcc_questions() -> None:
    """CMake runs CUDAToolkit_ROOT's bin/nvcc for the toolkit's root and
    version; the wheels have no nvcc, coalda's tree a stand-in that compiles
    nothing."""
    nvcc = cuda_path() / "bin" / "nvcc"
    probe = subprocess.run([str(nvcc), "-v", "__cmake_determine_cuda"], capture_output=True, text=True)
    assert f"#$ TOP={cuda_path()}\n" in probe.stdout
    assert f"#$ NVVMIR_LIBRARY_DIR={cuda_path()}/nvvm/libdevice\n" in probe.stdout
    version = subprocess.run([str(nvcc), "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and re.search(r"release 12\.\d+, V12\.\d+\.\d+$", version.stdout, re.M)
    compiled = subprocess.run([str(nvcc), "-c", "k.cu"], capture_output=True, text=True)
    assert compiled.returncode == 1 and "not a compiler: compile with coalda-cc" in compiled.stderr
    assert (cuda_path() / "lib64").is_dir()
    printed = subprocess.run([str(COALDA_CC), "--print-cuda-path"], capture_output=True, text=True)
    assert printed.returncode == 0 and printed.stdout == f"{cuda_path()}\n"
