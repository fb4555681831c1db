"""The CPU emulator and the differential oracle of `coalda run --emulate`."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from coalda.emulator import emulate
from coalda.driver.compile import CompileOptions, compile_to_ir, run_coalda
from coalda.emulator.emulate import EmulationRefused, EmulatorExecutor
from coalda.emulator.schedule import FORWARD
from coalda.driver.pipeline import Artifacts, build
from coalda.check.oracle import LAYOUTS, check, make_args
from coalda.check.spec import KernelSpec, Param, SpecError, load_spec
from conftest import TESTCASES, run_cli

NAIVE = "_Z10copy_naiveP5PixelPKS_"


def kernel_ir(params: str, body: str, declares: str = "") -> str:
    """A device module of one kernel, `@k(PARAMS)` with BODY's lines (and
    DECLARES), as the emulator's hand-written tests need it."""
    return (
        'target triple = "nvptx64-nvidia-cuda"\n'
        f"define void @k({params}) {{\n{body}}}\n{declares}"
        '!nvvm.annotations = !{!0}\n!0 = !{ptr @k, !"kernel", i32 1}\n'
    )


@pytest.fixture(scope="module")
def rgb_build(tmp_path_factory: pytest.TempPathFactory) -> Artifacts:
    art = Artifacts(tmp_path_factory.mktemp("rgb"), "rgb")
    build(TESTCASES / "rgb.cu", CompileOptions(), art)
    return art


def rgb_spec() -> KernelSpec:
    return load_spec(TESTCASES / "rgb.toml").kernels["copy_naive"]


def test_coalda_run_emulate_passes_on_rgb() -> None:
    proc = run_cli("run", TESTCASES / "rgb.cu", "--emulate")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    # 3 kernels x 3 sizes x (4 layouts x 4 schedules + 2 overlap layouts +
    # the alias layout's 4 schedules: a copy onto itself is race-free)
    # + the reference of copy_naive under each of the 4 layouts at 3 sizes.
    assert "All 210 comparisons match byte for byte." in proc.stdout
    assert "MISMATCH" not in proc.stdout


def test_emulated_naive_copy_is_a_copy(rgb_build: Artifacts) -> None:
    module = emulate.load(rgb_build.before.read_text())
    n = 1 << 16
    src = np.random.default_rng(7).integers(0, 256, 3 * n, dtype=np.uint8)
    dst = np.zeros(3 * n + 16, dtype=np.uint8)
    module.launch(NAIVE, (n // 256, 1, 1), (256, 1, 1), [dst, src])
    assert (dst[: 3 * n] == src).all() and not dst[3 * n :].any()


def off_by_one(after_ir: str) -> str:
    """Inject a one-byte shift of the destination region into the rewrite of
    copy_naive (the first rewritten function)."""
    broken, count = re.subn(
        r"(%coalda\.back = sub i64 0, %\d+(?:, !dbg !\d+)?\n)",
        r"\1  %coalda.back.bad = add i64 %coalda.back, 1\n",
        after_ir,
        count=1,
    )
    assert count == 1
    broken, count = re.subn(
        r"(%coalda\.dst = getelementptr i8, ptr %\w+, i64 )%coalda\.back\b", r"\1%coalda.back.bad", broken, count=1
    )
    assert count == 1
    return broken


def test_oracle_catches_an_injected_off_by_one(rgb_build: Artifacts) -> None:
    spec = rgb_spec()
    original = EmulatorExecutor(rgb_build.before.read_text())
    broken = EmulatorExecutor(off_by_one(rgb_build.after.read_text()))
    results = check(spec, lambda _: NAIVE, original, broken, 1024, np.random.default_rng(0))
    assert results and not any(r.match for r in results)
    assert all("dst:" in r.detail for r in results)
    # The last block shifts its bytes past the buffer end: the guard zone says so.
    assert any("guard zone" in r.detail for r in results)


def test_cli_run_from_outdir_reports_a_broken_rewrite(tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run_cli("optimize", TESTCASES / "rgb.cu", "-o", out).returncode == 0
    after = out / "rgb.after.ll"
    after.write_text(off_by_one(after.read_text()))
    proc = run_cli("run", TESTCASES / "rgb.cu", "--emulate", "--from", out, "--sizes", "256")
    assert proc.returncode == 1
    assert "MISMATCH" in proc.stdout
    assert proc.stderr.strip().splitlines()[-1].startswith("coalda: error:") and "differ" in proc.stderr


@pytest.mark.parametrize("max_unit", [16, 4, 1])
def test_every_emitted_version_computes_the_same_bytes(rgb_build: Artifacts, tmp_path: Path, max_unit: int) -> None:
    """With wider units disabled, the narrower versions run under every layout."""
    after = tmp_path / "after.ll"
    run_coalda(rgb_build.before, after, tmp_path / "r.json", extra=[f"-coalda-max-unit={max_unit}"])
    text = after.read_text()
    assert ("coalda.copy16" in text) == (max_unit == 16)
    assert ("coalda.copy4" in text) == (max_unit >= 4)
    original, optimized = EmulatorExecutor(rgb_build.before.read_text()), EmulatorExecutor(text)
    for n in (256, 4096):
        results = check(rgb_spec(), lambda _: NAIVE, original, optimized, n, np.random.default_rng(n), LAYOUTS)
        assert [(r.layout, r.schedule) for r in results] == [
            (layout, schedule) for layout in ("aligned", "offset", "offset-max", "mixed")
            for schedule in ("forward", "reverse", "shuffled(1)", "strided")
        ]
        assert all(r.match for r in results), [r.detail for r in results]


def test_overlapping_buffers_take_the_original_path(rgb_build: Artifacts) -> None:
    """dst = src + one pixel: the run-time check must route to the original code,
    which, run sequentially, smears pixel 0 forward exactly as before."""
    results = []
    for ir in (rgb_build.before, rgb_build.after):
        module = emulate.load(ir.read_text())
        storage = np.random.default_rng(3).integers(0, 256, 3 * 257, dtype=np.uint8)
        module.launch(NAIVE, (1, 1, 1), (256, 1, 1), [storage[3:], storage[:-3]])
        results.append(storage)
    assert (results[0] == results[1]).all()
    assert (results[0][: 3 * 257].reshape(-1, 3) == results[0][:3]).all()


@pytest.mark.parametrize("intrinsic", [
    "i32 @llvm.nvvm.match.any.sync.i32(i32 -1, i32 %v)", "i32 @llvm.nvvm.read.ptx.sreg.clock()",
])
def test_emulator_refuses_what_it_cannot_model(intrinsic: str) -> None:
    """Barriers, shared memory, warp shuffles, votes, reductions and
    `__activemask` (the lanes that run together, or the shuffled schedule's
    split of them) run (tests/test_schedules.py, tests/test_emulate_warp.py);
    intrinsics the emulator has no model for are refused by name."""
    name = intrinsic.split("@")[1].split("(")[0]
    ir = kernel_ir(
        "ptr %p, i32 %v",
        f"  %s = call {intrinsic}\n"
        "  store i32 %s, ptr %p\n  ret void\n",
    )
    with pytest.raises(EmulationRefused, match=re.escape(name)):
        emulate.load(ir)


def test_run_without_spec_infers_it_from_the_ir(tmp_path: Path) -> None:
    src = tmp_path / "f3.cu"
    src.write_text(
        "__global__ void copy(float3 *dst, const float3 *src) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  dst[i].x = src[i].x; dst[i].y = src[i].y; dst[i].z = src[i].z;\n}\n"
    )
    proc = run_cli("run", src, "--emulate", "--sizes", "64,768")
    assert proc.returncode == 0, proc.stderr + proc.stdout
    # 2 sizes x (4 layouts x 4 schedules + 2 overlap layouts + the alias
    # layout's 4 schedules: no __restrict__)
    assert "All 44 comparisons match" in proc.stdout


def test_run_without_gpu_says_so_in_one_line() -> None:
    if shutil.which("nvidia-smi"):
        pytest.skip("this machine has a GPU")
    proc = run_cli("run", TESTCASES / "rgb.cu")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "--emulate" in proc.stderr


def test_spec_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "rgb.toml"
    bad.write_text('[kernels.copy_naive]\nblock = "__import__(1)"\nparams = [{ name = "dst", out = "3*n" }, { name = "src", in = "3*n" }]\n')
    proc = run_cli("run", TESTCASES / "rgb.cu", "--emulate", "--spec", bad)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "is not allowed" in proc.stderr


def test_a_buffer_may_have_its_own_alignment(tmp_path: Path) -> None:
    """`align` on a parameter: a packed struct's array misaligned by single
    bytes beside float arrays that stay 4-byte aligned."""
    path = tmp_path / "k.toml"
    path.write_text('[kernels.k]\nblock = 32\ngrid = 1\nalign = 4\n'
                    'params = [{ name = "out", out = "24*n", align = 1 }, { name = "in", in = "4*n" }]\n')
    spec = load_spec(path).kernels["k"]
    assert [p.align for p in spec.params] == [1, None]
    offset = next(layout for layout in LAYOUTS if layout.name == "offset")
    out, src = make_args(spec, 64, np.random.default_rng(0), offset)
    assert (out.offset % 16, src.offset % 16) == (1, 4)
    path.write_text('[kernels.k]\nparams = [{ name = "n", value = "n", align = 4 }]\n')
    with pytest.raises(SpecError, match="align is a power of two of a buffer"):
        load_spec(path)


def test_param_sizes_follow_the_spec() -> None:
    spec = KernelSpec("k", (Param("dst", "out", "3*n"), Param("n", "value", "n")), grid="cdiv(n, block)", block=128)
    assert spec.dims(1000) == ((8, 1, 1), (128, 1, 1))


@pytest.mark.parametrize("n", [5000, 5003, 37])
def test_flat_grid_stride_copy_runs_its_unrolled_loop_and_tail(tmp_path: Path, n: int) -> None:
    """A small grid over a large n: each thread moves many 16-byte units (the
    4-way loop, then single units), and 3*n % 16 bytes go by the byte loop;
    `offset` layouts take the original loop instead."""
    art = Artifacts(tmp_path, "copies")
    build(TESTCASES / "copies.cu", CompileOptions(), art, ptx=False)
    after = art.after.read_text()
    assert "flat.units.many" in after and "flat.bytes.one" in after
    spec = KernelSpec(
        "rgb_grid_stride",
        (Param("dst", "out", "3*n"), Param("src", "in", "3*n"), Param("n", "value", "n")),
        grid=2, block=64,
    )
    symbol = "_Z15rgb_grid_strideP5PixelPKS_i"
    results = check(spec, lambda _: symbol, EmulatorExecutor(art.before.read_text()), EmulatorExecutor(after),
                     n, np.random.default_rng(n))
    assert len(results) == 16 and all(r.match for r in results), [r.detail for r in results]  # 4 layouts x 4 schedules


def test_every_benchmark_kernel_runs_equal_on_the_emulator() -> None:
    """testcases/copies.cu: each rewritten kernel (one pixel per thread with
    and without guard and restrict, grid-stride, float3, ushort3, ...) against
    its original and the hand-written reference, four layouts, four
    schedules, the overlap layouts where no pointer is __restrict__, sizes
    1000 (partial blocks) and 65536."""
    proc = run_cli("run", TESTCASES / "copies.cu", "--emulate")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    # 352 as before the alias layout, + its 4 schedules x 2 sizes for the 8
    # kernels without __restrict__ (each thread copies its own pixel: none
    # races on one buffer)
    assert "All 416 comparisons match byte for byte." in proc.stdout


@pytest.mark.parametrize("stride", [3, 4, 1])
def test_run_time_stride_is_versioned(tmp_path: Path, stride: int) -> None:
    """dst[s*i + k] for k < 3: rewritten for s == 3 (the members cover the
    element), the original code for any other s; equal bytes either way."""
    src = tmp_path / "rs.cu"
    src.write_text(
        "__global__ void copy(int *dst, const int *src, int s) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  dst[s * i + 0] = src[s * i + 0];\n  dst[s * i + 2] = src[s * i + 2];\n"
        "  dst[s * i + 1] = src[s * i + 1];\n}\n"
    )
    art = Artifacts(tmp_path, "rs")
    result = build(src, CompileOptions(), art, ptx=False)
    [group] = result.report["kernels"][0]["groups"]
    assert group["transformed"] and "run-time stride is 12 bytes" in group["reason"]
    size = f"{4 * stride + 8}*n"
    spec = KernelSpec("copy", (Param("dst", "out", size), Param("src", "in", size), Param("s", "value", stride)),
                      grid=3, block=64, align=4)
    results = check(spec, lambda _: "_Z4copyPiPKii", EmulatorExecutor(art.before.read_text()),
                    EmulatorExecutor(art.after.read_text()), 192, np.random.default_rng(stride))
    assert all(r.match for r in results), [r.detail for r in results]


def test_emulator_refuses_inline_assembly_with_one_line(tmp_path: Path) -> None:
    """Inline PTX used to abort the whole process inside LLVM."""
    src = tmp_path / "asm.cu"
    src.write_text(
        "__global__ void k(unsigned *p) {\n  unsigned lane;\n"
        '  asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));\n  p[threadIdx.x] = lane;\n}\n'
    )
    (tmp_path / "asm.toml").write_text('[kernels.k]\nblock = 32\ngrid = 1\nalign = 4\nparams = [{ name = "p", out = 128 }]\n')
    proc = run_cli("run", src, "--emulate")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "inline PTX assembly" in proc.stderr


def test_float_nans_are_canonical_as_on_the_gpu() -> None:
    """Float arithmetic on NaNs gives the GPU's canonical NaN whatever the
    operands' order (an H200 returns 0x7fffffff from every f32 operation:
    docs/runs/nan-payloads-h200.txt); x86 would keep the first operand's
    payload, and a sum whose operands the host JIT commutes would differ
    between two correct versions of a kernel. f64 results are one NaN too;
    copies keep their bits."""
    ir = kernel_ir(
        "ptr %in, ptr %out, ptr %din, ptr %dout",
        "  %x = load float, ptr %in\n"
        "  %py = getelementptr float, ptr %in, i64 1\n  %y = load float, ptr %py\n"
        "  %a = fadd float %x, %y\n  store float %a, ptr %out\n"
        "  %b = fadd contract float %y, %x\n  %o1 = getelementptr float, ptr %out, i64 1\n  store float %b, ptr %o1\n"
        "  %c = call float @llvm.fmuladd.f32(float %x, float 1.0, float %y)\n"
        "  %o2 = getelementptr float, ptr %out, i64 2\n  store float %c, ptr %o2\n"
        "  %d = fneg float %y\n  %o3 = getelementptr float, ptr %out, i64 3\n  store float %d, ptr %o3\n"
        "  %o4 = getelementptr float, ptr %out, i64 4\n  store float %x, ptr %o4\n"
        "  %p = load double, ptr %din\n"
        "  %pq = getelementptr double, ptr %din, i64 1\n  %q = load double, ptr %pq\n"
        "  %e = fmul double %q, %p\n  store double %e, ptr %dout\n"
        "  %v = insertelement <2 x float> undef, float %x, i32 0\n"
        "  %w = fadd <2 x float> %v, <float 1.0, float 1.0>\n"
        "  %f = extractelement <2 x float> %w, i32 0\n"
        "  %o5 = getelementptr float, ptr %out, i64 5\n  store float %f, ptr %o5\n"
        "  ret void\n",
        "declare float @llvm.fmuladd.f32(float, float, float)\n",
    )
    module = emulate.load(ir)
    floats = np.array([0x7FC01234, 0xFFC05678], dtype=np.uint32).view(np.uint8)
    out = np.zeros(6 * 4, dtype=np.uint8)
    doubles = np.array([0x7FF8000000001234, 0xFFF8000000005678], dtype=np.uint64).view(np.uint8)
    dout = np.zeros(8, dtype=np.uint8)
    module.launch("k", (1, 1, 1), (1, 1, 1), [floats.copy(), out, doubles.copy(), dout])
    assert [hex(v) for v in out.view(np.uint32)] == ["0x7fffffff"] * 4 + ["0x7fc01234", "0x7fffffff"]
    assert hex(int(dout.view(np.uint64)[0])) == "0x7ff8000000000000"


def test_struct_returns_keep_signaling_nans() -> None:
    """A float4 or double3 passed back from a helper (make_float4 at -O0)
    keeps every bit of each member, as the GPU's moves do: the host's C
    convention returned the third and fourth in x87 registers, whose loads
    set a signaling NaN's quiet bit (the staging adversary's vec_members
    differed in one byte between two correct versions)."""
    ir = kernel_ir(
        "ptr %in, ptr %out, ptr %din, ptr %dout",
        "  %v = load <4 x float>, ptr %in\n"
        "  %x = extractelement <4 x float> %v, i32 0\n  %y = extractelement <4 x float> %v, i32 1\n"
        "  %z = extractelement <4 x float> %v, i32 2\n  %w = extractelement <4 x float> %v, i32 3\n"
        "  %r = call { float, float, float, float } @make4(float %x, float %y, float %z, float %w)\n"
        "  store { float, float, float, float } %r, ptr %out\n"
        "  %d = load <3 x double>, ptr %din\n"
        "  %a = extractelement <3 x double> %d, i32 0\n  %b = extractelement <3 x double> %d, i32 1\n"
        "  %c = extractelement <3 x double> %d, i32 2\n"
        "  %s = tail call { double, double, double } @make3(double %a, double %b, double %c)\n"
        "  store { double, double, double } %s, ptr %dout\n"
        "  ret void\n",
        "define internal { float, float, float, float } @make4(float %x, float %y, float %z, float %w) noinline {\n"
        "  %1 = insertvalue { float, float, float, float } undef, float %x, 0\n  %2 = insertvalue { float, float, float, float } %1, float %y, 1\n"
        "  %3 = insertvalue { float, float, float, float } %2, float %z, 2\n  %4 = insertvalue { float, float, float, float } %3, float %w, 3\n  ret { float, float, float, float } %4\n}\n"
        "define internal { double, double, double } @make3(double %a, double %b, double %c) noinline {\n"
        "  %1 = insertvalue { double, double, double } undef, double %a, 0\n"
        "  %2 = insertvalue { double, double, double } %1, double %b, 1\n"
        "  %3 = insertvalue { double, double, double } %2, double %c, 2\n"
        "  ret { double, double, double } %3\n}\n",
    )
    module = emulate.load(ir)
    floats = np.array([0x7FA00001, 0xFF800002, 0x7F812345, 0x7FBF12F2], dtype=np.uint32)
    out = np.zeros(16, dtype=np.uint8)
    doubles = np.array([0x7FF4000000000001, 0xFFF0000000000002, 0x7FF0000000012345], dtype=np.uint64)
    dout = np.zeros(24, dtype=np.uint8)
    module.launch("k", (1, 1, 1), (1, 1, 1), [floats.view(np.uint8).copy(), out, doubles.view(np.uint8).copy(), dout])
    assert [hex(v) for v in out.view(np.uint32)] == [hex(v) for v in floats]
    assert [hex(v) for v in dout.view(np.uint64)] == [hex(v) for v in doubles]


def test_nans_are_canonical_in_every_spelling() -> None:
    """The forms the first canonicalization missed: a result with a quoted
    name, a call with return attributes (`noundef`, `nofpclass`), a vector
    reduction, and a `fast` fabs whose NaN the host may not assume away.
    Each sum below has NaN operands with different payloads in the order
    that x86 would keep the first one's."""
    ir = kernel_ir(
        "ptr %in, ptr %out",
        "  %x = load float, ptr %in\n"
        "  %py = getelementptr float, ptr %in, i64 1\n  %y = load float, ptr %py\n"
        '  %"sum.quoted" = fadd float %y, %x\n  store float %"sum.quoted", ptr %out\n'
        "  %m = call noundef nofpclass(inf) float @llvm.maxnum.f32(float %x, float %y)\n"
        "  %z = fsub nnan float %m, %y\n"
        "  %o1 = getelementptr float, ptr %out, i64 1\n  store float %z, ptr %o1\n"
        "  %v0 = insertelement <2 x float> undef, float %y, i32 0\n"
        "  %v = insertelement <2 x float> %v0, float %x, i32 1\n"
        "  %r = call float @llvm.vector.reduce.fadd.v2f32(float -0.0, <2 x float> %v)\n"
        "  %o2 = getelementptr float, ptr %out, i64 2\n  store float %r, ptr %o2\n"
        "  %a = call fast float @llvm.fabs.f32(float %x)\n"
        "  %isnan = fcmp fast uno float %a, 0.0\n  %flag = select i1 %isnan, float 1.0, float 2.0\n"
        "  %o3 = getelementptr float, ptr %out, i64 3\n  store float %flag, ptr %o3\n"
        "  ret void\n",
        "declare float @llvm.maxnum.f32(float, float)\n"
        "declare float @llvm.vector.reduce.fadd.v2f32(float, <2 x float>)\n"
        "declare float @llvm.fabs.f32(float)\n",
    )
    module = emulate.load(ir)
    floats = np.array([0x7FC01234, 0xFFC05678], dtype=np.uint32).view(np.uint8)
    out = np.zeros(4 * 4, dtype=np.uint8)
    module.launch("k", (1, 1, 1), (1, 1, 1), [floats, out])
    words = out.view(np.uint32)
    assert [hex(v) for v in words[:3]] == ["0x7fffffff"] * 3
    assert out.view(np.float32)[3] == 1.0  # fabs of a NaN is a NaN, fast or not
    text = emulate.lower(ir, [emulate.KernelSignature("k", (("in", "ptr"), ("out", "ptr")))], {}).text
    assert "nofpclass" not in text and " nnan " not in text and " fast " not in text


def test_shifts_by_the_width_or_more_clamp_as_in_ptx() -> None:
    """LLVM leaves `shl i32 %x, 40` poison; PTX clamps the amount (0, or the
    sign for an arithmetic shift right) and the emulator does the same,
    where x86 would shift by 40 mod 32 = 8."""
    ir = kernel_ir(
        "ptr %p, i32 %amount",
        "  %x = load i32, ptr %p\n"
        "  %a = shl nuw i32 %x, %amount\n  %q1 = getelementptr i32, ptr %p, i64 1\n  store i32 %a, ptr %q1\n"
        "  %b = lshr exact i32 %x, %amount\n  %q2 = getelementptr i32, ptr %p, i64 2\n  store i32 %b, ptr %q2\n"
        "  %c = ashr i32 %x, %amount\n  %q3 = getelementptr i32, ptr %p, i64 3\n  store i32 %c, ptr %q3\n"
        "  %w = sext i32 %amount to i64\n  %y = sext i32 %x to i64\n  %d = shl i64 %y, %w\n"
        "  %q4 = getelementptr i64, ptr %p, i64 2\n  store i64 %d, ptr %q4\n"
        "  ret void\n",
    )
    module = emulate.load(ir)
    # x = -1: shl, lshr, ashr in 32 bits, then shl in 64 bits
    for amount, want in ((40, [0, 0, -1, -(1 << 40)]), (70, [0, 0, -1, 0]), (4, [-16, 0x0FFFFFFF, -1, -16])):
        buf = np.zeros(6, dtype=np.int32)
        buf[0] = -1
        module.launch("k", (1, 1, 1), (1, 1, 1), [buf, amount])
        assert [*buf[1:4].tolist(), int(buf[4:6].view(np.int64)[0])] == want, amount


def test_contract_multiplies_fuse_into_their_adds_within_a_block() -> None:
    """As llc does for the GPU: a `contract` fadd or fsub of a `contract` fmul
    of the same block is one fma (one rounding); across blocks, or without
    the flags, two roundings. x = 1 + 2^-12: x*x = 1 + 2^-11 + 2^-24 exactly,
    which a float rounds to 1 + 2^-11, so x*x - (1 + 2^-11) is 2^-24 fused
    and 0 rounded first. A rewrite that split a block between the two would
    compute other bits on the GPU, and now on the emulator too."""
    ir = kernel_ir(
        "ptr %in, ptr %out",
        "  %x = load float, ptr %in\n"
        "  %pc = getelementptr float, ptr %in, i64 1\n  %c = load float, ptr %pc\n"
        "  %m = fmul contract float %x, %x\n"
        "  %neg = fneg float %c\n"
        "  %fused = fadd contract float %m, %neg\n  store float %fused, ptr %out\n"
        "  %sub = fsub contract float %c, %m\n"
        "  %o1 = getelementptr float, ptr %out, i64 1\n  store float %sub, ptr %o1\n"
        "  %plain = fmul float %x, %x\n  %unflagged = fadd contract float %plain, %neg\n"
        "  %o2 = getelementptr float, ptr %out, i64 2\n  store float %unflagged, ptr %o2\n"
        "  br label %next\n"
        "next:\n"
        "  %apart = fadd contract float %m, %neg\n"
        "  %o3 = getelementptr float, ptr %out, i64 3\n  store float %apart, ptr %o3\n"
        "  ret void\n",
    )
    module = emulate.load(ir)
    inputs = np.array([1 + 2.0**-12, 1 + 2.0**-11], dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    module.launch("k", (1, 1, 1), (1, 1, 1), [inputs.view(np.uint8), out.view(np.uint8)])
    assert out.tolist() == [2.0**-24, -(2.0**-24), 0.0, 0.0]


ASSERTS = r"""
#include <cassert>
#include <cstdio>
__global__ void tiled(float *a) {
  __shared__ float s[64];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void checked(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  if (i == 0) printf("a[0] = %f\n", a[0]);
  a[i] += 1.0f;
}
"""


def test_assert_and_printf_run_beside_shared_memory(tmp_path: Path) -> None:
    """CUDA's device runtime in the emulator: an assert that holds and a
    printf (discarded) in a module with shared memory (the JIT once jumped
    to address 0 there: a segfault, found by the real-shapes adversary); an
    assert that fails is the launch's fault, with its condition and line
    (the GPU stops the launch: cudaErrorAssert)."""
    source = tmp_path / "asserts.cu"
    source.write_text(ASSERTS)
    compile_to_ir(source, CompileOptions(), tmp_path / "asserts.ll")
    module = emulate.load((tmp_path / "asserts.ll").read_text())
    a = np.arange(64, dtype=np.float32)
    module.launch("_Z7checkedPfi", (2, 1, 1), (32, 1, 1), [a, np.int32(64)])
    assert np.array_equal(a, np.arange(64, dtype=np.float32) + 1)
    with pytest.raises(emulate.EmulationFault, match=r"assertion `i < n` failed at .*asserts\.cu:12"):
        module.launch("_Z7checkedPfi", (2, 1, 1), (32, 1, 1), [a, np.int32(40)])
    reversed_a = a[::-1].copy()
    module.launch("_Z5tiledPf", (1, 1, 1), (64, 1, 1), [a])  # the fault flag was cleared
    assert np.array_equal(a, reversed_a)


def test_an_unknown_external_call_faults_by_name() -> None:
    """A kernel calling a function nothing defines (here dynamic
    parallelism's parameter buffer, taking a struct) faults when it calls
    it, naming it, instead of jumping to address 0; a kernel of the same
    module that does not call it runs."""
    text = kernel_ir("ptr %p, i32 %c", "  %z = icmp eq i32 %c, 0\n  br i1 %z, label %done, label %call\n"
                     "call:\n  %m = call ptr @cudaGetParameterBufferV2(ptr null, { i32, i32 } zeroinitializer)\n"
                     "  store ptr %m, ptr %p\n  br label %done\ndone:\n  ret void\n",
                     "declare ptr @cudaGetParameterBufferV2(ptr, { i32, i32 })\n")
    module = emulate.load(text)
    slot = np.zeros(1, dtype=np.uint64)
    module.launch("k", (1, 1, 1), (1, 1, 1), [slot, np.int32(0)])
    with pytest.raises(emulate.EmulationFault,
                       match="kernel k called cudaGetParameterBufferV2, which the CPU emulator does not provide"):
        module.launch("k", (1, 1, 1), (1, 1, 1), [slot, np.int32(1)])


def poke_ir(barrier: bool) -> str:
    """A kernel that writes byte AT of the dynamic shared buffer, with a
    block barrier before (run as fibers) or without (the native loop)."""
    sync = "  call void @llvm.nvvm.barrier0()\n" if barrier else ""
    return kernel_ir("i64 %at", f"{sync}  %p = getelementptr i8, ptr addrspace(3) @dyn, i64 %at\n"
                     "  store i8 1, ptr addrspace(3) %p, align 1\n  ret void\n",
                     "@dyn = external addrspace(3) global [0 x i8], align 16\n"
                     + ("declare void @llvm.nvvm.barrier0()\n" if barrier else ""))


@pytest.mark.parametrize("barrier", [False, True], ids=["native", "fibers"])
def test_a_write_past_the_dynamic_shared_memory_is_caught_at_any_offset(barrier: bool) -> None:
    """The overrun check reads the bytes past the launch's dynamic shared
    memory one at a time up to a multiple of 8 and eight at a time after:
    a write is caught at the first byte past it, inside either part, and at
    the buffer's last byte; a write inside it is not."""
    module = emulate.load(poke_ir(barrier))
    last = emulate.DYNAMIC_SHARED - 1
    for shared, at in [(0, 0), (5, 5), (9, 15), (8, 8), (13, 47), (3, last), (last, last)]:
        with pytest.raises(emulate.EmulationFault, match=f"wrote past its {shared} bytes"):
            module.launch("k", (2, 1, 1), (1, 1, 1), [np.int64(at)], shared_bytes=shared)
    for shared, at in [(5, 4), (16, 15), (emulate.DYNAMIC_SHARED, last)]:
        module.launch("k", (2, 1, 1), (1, 1, 1), [np.int64(at)], shared_bytes=shared)


TWO_TILES = """target triple = "nvptx64-nvidia-cuda"
@tile_a = internal addrspace(3) global [4 x i32] undef, align 4
@tile_b = internal addrspace(3) global [4 x i32] undef, align 4
define internal i32 @get_a() noinline {
  %v = load i32, ptr addrspace(3) @tile_a, align 4
  ret i32 %v
}
define void @read_a(ptr %out) {
  %v = call i32 @get_a()
  store i32 %v, ptr %out, align 4
  ret void
}
define void @fill_b(ptr %out) {
  store i32 7, ptr addrspace(3) @tile_b, align 4
  %v = load i32, ptr addrspace(3) @tile_b, align 4
  store i32 %v, ptr %out, align 4
  ret void
}
define void @through_pointer(ptr %out, ptr %f) {
  %v = call i32 %f()
  store i32 %v, ptr %out, align 4
  ret void
}
!nvvm.annotations = !{!0, !1, !2}
!0 = !{ptr @read_a, !"kernel", i32 1}
!1 = !{ptr @fill_b, !"kernel", i32 1}
!2 = !{ptr @through_pointer, !"kernel", i32 1}
"""


def test_each_kernel_poisons_the_shared_memory_it_reaches() -> None:
    """A block poisons the static shared arrays its kernel names, or a
    function it reaches names (read_a's tile, read in a helper, holds the
    poison after fill_b wrote its own); a kernel that calls through a
    pointer, and every kernel where an initializer names an array, poison
    them all."""
    module = emulate.load(TWO_TILES, partial=True)
    out = np.zeros(1, np.uint32)
    module.launch("fill_b", (1, 1, 1), (1, 1, 1), [out])
    assert out[0] == 7
    module.launch("read_a", (1, 1, 1), (1, 1, 1), [out])
    assert out[0] == int.from_bytes(bytes([FORWARD.shared_poison] * 4), "little")
    sigs = [emulate.KernelSignature(k, ()) for k in ("read_a", "fill_b", "through_pointer")]
    shared = emulate._shared_by_kernel(TWO_TILES, sigs, ["tile_a", "tile_b"], False)
    assert [s.static for s in shared] == [("tile_a",), ("tile_b",), ("tile_a", "tile_b")]
    named = TWO_TILES + "@table = global ptr addrspacecast (ptr addrspace(3) @tile_b to ptr)\n"
    shared = emulate._shared_by_kernel(named, sigs, ["tile_a", "tile_b"], False)
    assert all(s.static == ("tile_a", "tile_b") for s in shared)


def test_a_module_whose_dynamic_shared_kernel_cannot_run_still_runs_the_others() -> None:
    """The dynamic buffer the `extern __shared__` arrays alias is defined
    even where the only kernel that reaches it is refused (here for a
    parameter type the emulator cannot pass): the module's other kernels
    run."""
    text = ('target triple = "nvptx64-nvidia-cuda"\n'
            "@dyn = external addrspace(3) global [0 x i8], align 16\n"
            "define void @wide(i128 %v) {\n  store i128 %v, ptr addrspace(3) @dyn, align 16\n  ret void\n}\n"
            "define void @plain(ptr %p) {\n  store i32 7, ptr %p, align 4\n  ret void\n}\n"
            "!nvvm.annotations = !{!0, !1}\n"
            '!0 = !{ptr @wide, !"kernel", i32 1}\n!1 = !{ptr @plain, !"kernel", i32 1}\n')
    module = emulate.load(text, partial=True)
    assert "i128" in module.refused["wide"]
    out = np.zeros(1, np.int32)
    module.launch("plain", (1, 1, 1), (1, 1, 1), [out])
    assert out[0] == 7
