"""`coalda cc`: whole programs built here (no GPU needed); the executables must
link and carry the device code COALDA rewrote. Running them is
scripts/gpu_cc_check.sh's job on a GPU machine."""

from __future__ import annotations

import re
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from coalda.driver.cc import (
    FATBIN_MAGIC, FatbinImage, _without_coalda_options, embedded_images, fatbin, parse_args, read_fatbin,
)
from coalda.errors import CoaldaError
from coalda.driver.toolchain import cuda_path, toolchain

from conftest import REPO, TESTCASES, run_cli

PROGRAM = TESTCASES / "programs" / "rgb_main.cu"
# COALDA's rewrite moves the RGB rows in 16-byte units; clang alone emits
# byte loads for these kernels.
WIDE_LOAD = b"ld.global.v4.u32"


def cc(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("cc", *args, cwd=cwd)


def ptx_of(path: Path) -> bytes:
    return b"".join(image.data for image in embedded_images(path) if image.kind == "ptx")


@pytest.fixture(scope="module")
def cc_check(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """scripts/gpu_cc_check.sh build: every testcases/ program with a main,
    built by `coalda cc` and by `coalda cc -fno-coalda`; without README's
    walkthrough programs, which test_walkthrough.py builds as README says."""
    out = tmp_path_factory.mktemp("cc") / "cc-check"
    built = subprocess.run(["bash", str(REPO / "scripts" / "gpu_cc_check.sh"), "build", str(out)],
                           capture_output=True, text=True, cwd=REPO,
                           env={**os.environ, "GPU_CC_CHECK_WALKTHROUGH": "0"})
    assert built.returncode == 0, built.stderr
    return out


def test_executable_links_and_carries_the_rewritten_device_code(cc_check: Path) -> None:
    app = cc_check / "rgb_main.coalda"
    assert app.read_bytes()[:4] == b"\x7fELF" and os.access(app, os.X_OK)
    images = embedded_images(app)
    assert {(i.kind, i.sm) for i in images} == {("elf", 90), ("ptx", 90)}
    cubin = next(i for i in images if i.kind == "elf")
    assert cubin.data[:4] == b"\x7fELF"
    assert struct.unpack_from("<H", cubin.data, 18)[0] == 190  # EM_CUDA
    # every kernel is in the device code, the rewritten copies only in COALDA's build
    for kernel in (b"copy_pixels", b"copy_pixels_grid", b"copy_vec3"):
        assert kernel in ptx_of(app) and kernel in cubin.data
    assert WIDE_LOAD in ptx_of(app)
    assert WIDE_LOAD not in ptx_of(cc_check / "rgb_main.plain")
    # the host side registers the fat binary with the CUDA 12 runtime
    assert b"__cudaRegisterFatBinary" in app.read_bytes()
    assert b"libcudart.so.12" in app.read_bytes()


def test_gpu_check_script_builds_both_variants(cc_check: Path) -> None:
    names = sorted(p.name for p in cc_check.iterdir())
    assert names == ["MANIFEST", "libcudart.so.12", "rgb.coalda", "rgb.plain", "rgb_main.coalda", "rgb_main.plain"]
    for stem in ("rgb", "rgb_main"):
        assert WIDE_LOAD in ptx_of(cc_check / f"{stem}.coalda") and WIDE_LOAD not in ptx_of(cc_check / f"{stem}.plain")
    assert (cc_check / "libcudart.so.12").read_bytes()[:4] == b"\x7fELF"
    assert "rgb_main.plain:  coalda cc -fno-coalda" in (cc_check / "MANIFEST").read_text()


def test_subcommand_builds_an_executable(tmp_path: Path) -> None:
    built = cc(TESTCASES / "rgb.cu", "-o", "app", "-O2", cwd=tmp_path)
    assert built.returncode == 0, built.stderr
    assert WIDE_LOAD in ptx_of(tmp_path / "app")


def test_objects_then_link_with_flags_passed_through(tmp_path: Path) -> None:
    compiled = cc(
        "-c", TESTCASES / "rgb.cu", "-o", "rgb.o", "-I", TESTCASES, "-DUNUSED=1", "-std=c++17",
        "-arch", "sm_80", "--cuda-gpu-arch=sm_90", "-MD", "-MF", "rgb.d", cwd=tmp_path,
    )
    assert compiled.returncode == 0, compiled.stderr
    assert {(i.kind, i.sm) for i in embedded_images(tmp_path / "rgb.o")} == {
        ("elf", 80), ("ptx", 80), ("elf", 90), ("ptx", 90),
    }
    assert "rgb.cu" in (tmp_path / "rgb.d").read_text()
    linked = cc("rgb.o", "-o", "rgb", cwd=tmp_path)
    assert linked.returncode == 0, linked.stderr
    assert WIDE_LOAD in ptx_of(tmp_path / "rgb")


def test_bad_input_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.cu"
    broken.write_text("__global__ void k(int *p) { p[0] = undefined_name; }\n")
    for args, message in [
        (["missing.cu", "-o", "app"], "no such file: missing.cu"),
        (["-fgpu-rdc", str(PROGRAM)], "-fgpu-rdc is not supported"),
        (["-arch", "sm_99", str(PROGRAM)], "unknown GPU architecture 'sm_99'"),
        ([str(broken), "-o", "app"], "could not compile the device code of"),
    ]:
        result = cc(*args, cwd=tmp_path)
        assert result.returncode == 1, args
        assert "Traceback" not in result.stderr
        last = result.stderr.strip().splitlines()[-1]
        assert last.startswith("coalda: error:") and message in last, result.stderr
    assert not (tmp_path / "app").exists()


def test_parse_args_sorts_clang_flags(tmp_path: Path) -> None:
    src = tmp_path / "k.cu"
    src.write_text("")
    rsp = tmp_path / "args.rsp"
    rsp.write_text("-DFROM_RSP=1 -Iinc")
    inv = parse_args([
        "-c", str(src), "-o", "k.o", "-O2", "-std=c++17", f"@{rsp}", "-MD", "-MF", "k.d",
        "-Xcuda-ptxas", "-v", "-mllvm", "-coalda-runtime-checks=false", "-Wl,-z,now", "-lm",
        "--offload-arch=sm_80,sm_90",
    ])
    assert inv.mode == "compile" and inv.output == "k.o" and inv.opt_level == "-O2"
    assert inv.arches == ["sm_80", "sm_90"]
    assert inv.compile_flags == ["-std=c++17", "-DFROM_RSP=1", "-Iinc"]
    assert inv.dep_flags == ["-MD", "-MF", "k.d"]
    assert inv.ptxas_flags == ["-v"]
    assert inv.device_flags == ["-mllvm", "-coalda-runtime-checks=false"]
    assert ("flag", "-lm") in inv.link_items and ("flag", "-Wl,-z,now") in inv.link_items
    assert inv.inputs[0].is_cuda
    assert parse_args(["--version"]).mode == "clang"
    assert parse_args(["-E", str(src)]).mode == "clang"
    assert parse_args(["-x", "cuda", str(rsp)]).inputs[0].is_cuda
    with pytest.raises(CoaldaError, match="several source files"):
        parse_args(["-c", str(src), str(src), "-o", "x.o"])


def test_fatbin_layout() -> None:
    cubin = b"\x7fELF" + bytes(range(60)) + b"\x01\x02\x03"  # 67 bytes: padded to 72
    ptx = b".version 8.5\n.target sm_90\n.address_size 64\n"
    blob = fatbin([FatbinImage("elf", 90, cubin), FatbinImage.for_arch("ptx", "sm_90a", ptx)])
    magic, version, header, size = struct.unpack_from("<IHHQ", blob)
    assert (magic, version, header, size) == (FATBIN_MAGIC, 1, 16, len(blob) - 16)
    kind, _v, entry_header, padded = struct.unpack_from("<HHIQ", blob, 16)
    assert (kind, entry_header, padded) == (2, 64, 72)
    ptx_at = 16 + 64 + 72
    kind, _v, entry_header, padded = struct.unpack_from("<HHIQ", blob, ptx_at)
    assert (kind, entry_header, padded % 8) == (1, 80, 0)
    assert struct.unpack_from("<I", blob, ptx_at + 24)[0] == (8 << 16) | 5  # .version 8.5
    assert blob[ptx_at + 80:].rstrip(b"\0") == ptx
    images = read_fatbin(blob + b"\0" * 8 + blob)  # two containers, as in a linked executable
    assert [(i.kind, i.sm, i.arch_specific) for i in images] == [("elf", 90, False), ("ptx", 90, True)] * 2
    assert images[1].data == ptx
    with pytest.raises(CoaldaError):
        fatbin([FatbinImage("elf", 90, b"not an ELF")])


def _nvidia_fatbinary() -> str | None:
    for candidate in (os.environ.get("COALDA_TEST_FATBINARY"), shutil.which("fatbinary"), "/usr/local/cuda/bin/fatbinary"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


@pytest.mark.skipif(_nvidia_fatbinary() is None, reason="no NVIDIA fatbinary to compare the container with")
def test_fatbin_is_byte_identical_to_nvidia_fatbinary(tmp_path: Path) -> None:
    """An oracle test only: coalda cc never runs NVIDIA's fatbinary."""
    tool = str(_nvidia_fatbinary())
    ptx = tmp_path / "rgb.ptx"
    cubin = tmp_path / "rgb.cubin"
    subprocess.run(
        [sys.executable, "-m", "coalda.driver.cc", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-S",
         str(TESTCASES / "rgb.cu"), "-o", str(ptx)], check=True, capture_output=True,
    )
    subprocess.run([str(cuda_path() / "bin" / "ptxas"), "-arch=sm_90", str(ptx), "-o", str(cubin)], check=True)
    # fatbinary strips comments from PTX: its own stripped text is the input
    first = tmp_path / "first.fatbin"
    made = subprocess.run(
        [tool, "-64", "--create", str(first), f"--image3=kind=ptx,sm=90,file={ptx}", "--compress=false"],
        capture_output=True, text=True,
    )
    if made.returncode != 0:
        pytest.skip(f"this fatbinary has no --image3: {made.stderr.strip()[:100]}")
    stripped = tmp_path / "stripped.ptx"
    stripped.write_bytes(read_fatbin(first.read_bytes())[0].data)
    reference = tmp_path / "reference.fatbin"
    subprocess.run(
        [tool, "-64", "--create", str(reference), f"--image3=kind=elf,sm=90,file={cubin}",
         f"--image3=kind=ptx,sm=90,file={stripped}", "--compress=false"], check=True,
    )
    ours = fatbin([FatbinImage("elf", 90, cubin.read_bytes()), FatbinImage("ptx", 90, stripped.read_bytes())])
    assert ours == reference.read_bytes()


def _coalda_cc_script() -> Path | None:
    script = Path(sys.executable).parent / "coalda-cc"
    return script if script.is_file() else None


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
@pytest.mark.skipif(_coalda_cc_script() is None, reason="the coalda-cc console script is not installed (pip install -e .)")
def test_cmake_recipe_builds(tmp_path: Path) -> None:
    build = tmp_path / "build"
    configure = subprocess.run(
        ["cmake", "-S", str(REPO / "examples" / "cmake"), "-B", str(build),
         f"-DCMAKE_CXX_COMPILER={_coalda_cc_script()}", "-DCOALDA_ARCH=sm_80,sm_90"],
        capture_output=True, text=True,
    )
    assert configure.returncode == 0, configure.stdout + configure.stderr
    assert "The CXX compiler identification is Clang 19" in configure.stdout
    made = subprocess.run(["cmake", "--build", str(build)], capture_output=True, text=True)
    assert made.returncode == 0, made.stdout + made.stderr
    exe = build / "cmake_example"
    assert {(i.kind, i.sm) for i in embedded_images(exe) if i.kind == "elf"} == {("elf", 80), ("elf", 90)}
    assert WIDE_LOAD in ptx_of(exe)


def test_console_script_errors_are_one_line(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "coalda.driver.cc", "missing.cu"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == "coalda-cc: error: no such file: missing.cu\n"


def test_nvcc_spellings_become_clangs(tmp_path: Path) -> None:
    """issue 36, item 4: nvcc's flags as Makefiles pass them. Before,
    -use_fast_math reached clang, which read it as `-u se_fast_math`, and
    -Xcompiler -fopenmp went to the device compile."""
    src = tmp_path / "k.cu"
    src.write_text("")
    inv = parse_args([str(src), "-o", "app", "-use_fast_math", "-Xcompiler", "-fopenmp,-Wall,-O2", "-Xptxas", "-v",
                      "-gencode", "arch=compute_80,code=sm_80", "-gencode=arch=compute_90,code=[sm_90,compute_90]",
                      "--expt-relaxed-constexpr", "--extended-lambda", "-lineinfo", "-maxrregcount=64"])
    assert inv.compile_flags == ["-ffast-math", "-fgpu-approx-transcendentals",
                                 "-Xarch_host", "-fopenmp", "-Xarch_host", "-Wall", "-gline-tables-only"]
    assert inv.device_flags == ["-fgpu-flush-denormals-to-zero"]  # the host compile would warn it unused
    assert "-u" not in inv.compile_flags and not any("se_fast_math" in f for f in inv.argv)
    assert inv.arches == ["sm_80", "sm_90"] and inv.opt_level == "-O2"  # clang forwards no -O via -Xarch_host
    assert inv.ptxas_flags == ["-v", "--maxrregcount=64"]
    # the host compile takes -Xarch_host's flag; the link takes the flag itself (libomp)
    assert ("flag", "-fopenmp") in inv.link_items and ("flag", "-Xarch_host") not in inv.link_items


@pytest.mark.parametrize("args, says", [
    (["-G"], "use -g -O0"),
    (["-ccbin", "g++-12"], "drop -ccbin"),
    (["-gencode", "sm90"], "cannot read -gencode 'sm90'"),
    (["-gencode", "arch=compute_90,code=sm_11"], "unknown GPU architecture 'sm_11'"),
    (["-Xcompiler"], "argument to '-Xcompiler' is missing"),
])
def test_nvcc_flags_without_an_equivalent_are_refused_in_one_line(tmp_path: Path, args: list[str], says: str) -> None:
    src = tmp_path / "k.cu"
    src.write_text("")
    with pytest.raises(CoaldaError, match=re.escape(says)):
        parse_args([str(src), *args])


def test_every_pass_option_reaches_the_plugin_and_only_the_plugin(tmp_path: Path) -> None:
    """Every -coalda-* option the plugin registers (opt --help-hidden) goes
    to the device compile as `-mllvm OPTION`, and a -fno-coalda build (no
    plugin, so clang knows none of them) drops it: the generator of the bug
    where `-fno-coalda -mllvm -coalda-window-arms` did not compile."""
    tc = toolchain()
    listed = subprocess.run([str(tc.opt), f"-load-pass-plugin={tc.plugin}", "--help-hidden"],
                            capture_output=True, text=True, check=True).stdout
    options = sorted(set(re.findall(r"^\s+-(-coalda-[a-z0-9-]+)", listed, re.M)))
    assert len(options) > 20, listed[-2000:]
    src = tmp_path / "k.cu"
    src.write_text("")
    for option in options:
        flag = option + "=1"
        inv = parse_args(["-fno-coalda", "-c", str(src), "-o", "k.o", "-mllvm", flag, "-mllvm", "-unroll-threshold=9"])
        assert inv.device_flags == ["-mllvm", flag], (flag, inv.device_flags)
        assert _without_coalda_options(inv.device_flags + ["-Xarch_device", "-g"]) == ["-Xarch_device", "-g"]
        assert "-unroll-threshold=9" in inv.compile_flags, inv.compile_flags


def test_wcoalda_prints_each_rewrite_and_refusal(tmp_path: Path) -> None:
    """issue 36, item 6: `coalda cc` printed nothing about what it did;
    -Wcoalda gives a line per rewrite and per refusal (file:line, kernel,
    reason in the source's names) and a count, on stderr; -mllvm -coalda-*
    options reach the plugin (they were read before it was loaded)."""
    src = tmp_path / "w.cu"
    src.write_text("struct P { float x, y, z, w, u, v; };\n"
                   "__global__ void s(P *out, const float *a, int n) {\n"
                   "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n"
                   "  out[i].x = a[i]; out[i].y = 2 * a[i]; out[i].z = 3 * a[i];\n"
                   "  out[i].w = 4 * a[i]; out[i].u = 5 * a[i]; out[i].v = 6 * a[i];\n}\n"
                   "int main() { return 0; }\n")
    proc = run_cli("cc", "-Wcoalda", src, "-o", tmp_path / "app", "-mllvm", "-coalda-stage-small-always")
    assert proc.returncode == 0, proc.stderr
    lines = [ln for ln in proc.stderr.splitlines() if ": coalda: " in ln]
    assert any(re.match(rf"^{re.escape(str(src))}:5: coalda: s: rewrote: staged out \(24-byte elements", ln)
               for ln in lines), lines
    assert any(": coalda: s: left alone: " in ln for ln in lines)
    assert lines[-1] == f"{src}: coalda: 1 rewritten, 1 left alone, in 1 kernel"
    assert not any("arg0" in ln or "arg1" in ln for ln in lines)
    quiet = run_cli("cc", src, "-o", tmp_path / "app2")
    assert quiet.returncode == 0 and ": coalda: " not in quiet.stderr
    # the baseline of a comparison: the same flags plus -fno-coalda build
    # (clang without the plugin knows no -coalda-* option)
    plain = run_cli("cc", "-fno-coalda", "-c", src, "-o", tmp_path / "plain.o", "-mllvm", "-coalda-stage-small-always")
    assert plain.returncode == 0, plain.stderr
    # -O0: the pass does not run (a debug build), and -Wcoalda says so
    # rather than printing nothing
    debug = run_cli("cc", "-Wcoalda", "-O0", "-c", src, "-o", tmp_path / "w.o")
    assert debug.returncode == 0, debug.stderr
    assert [ln for ln in debug.stderr.splitlines() if ": coalda: " in ln] == [
        f"{src}: coalda: -O0 leaves the kernels as written (a debug build; the pass runs at -O1 and above, "
        f"and `coalda analyze -O0 {src}` shows what it would rewrite)"], debug.stderr
