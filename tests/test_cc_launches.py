"""`coalda cc -fcoalda-reshape` (issue 40): rewritten kernels of one piece of
work per thread get a grid-stride variant in the device code, and their
stubs launch through the run-time choice (pass/lib/GridVariant.cpp,
LaunchHost.cpp, pass/runtime/LaunchGrid.cpp). No GPU here: what is checked
is what the build puts in the object; the GPU runs are docs/runs/launches/."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from coalda.driver import launches
from coalda.driver.cc import embedded_images
from coalda.driver.toolchain import find_plugin

from conftest import REPO, TESTCASES, run_cli

VARIANT = "_Z10copy_naiveP5PixelPKS___coalda_grid"
GUARDED_VARIANT = "_Z18copy_naive_guardedP5PixelPKS_i__coalda_grid"


def ptx_text(obj: Path, sm: int) -> str:
    return b"".join(i.data for i in embedded_images(obj) if i.kind == "ptx" and i.sm == sm).decode()


def symbols(obj: Path) -> str:
    return subprocess.run(["nm", str(obj)], capture_output=True, text=True, check=True).stdout


def test_reshape_builds_variants_and_redirects_the_stubs(tmp_path: Path) -> None:
    """Both architectures' PTX hold the variants of rgb.cu's two naive copies
    (copy_coalesced is not rewritten: no variant); the host object holds the
    run-time choice and registers each variant by its device name; -Wcoalda
    says which launches are reshaped."""
    built = run_cli("cc", "-fcoalda-reshape", "-Wcoalda", "-c", TESTCASES / "rgb.cu", "-o", tmp_path / "rgb.o",
                    "--cuda-gpu-arch=sm_80", "--cuda-gpu-arch=sm_90")
    assert built.returncode == 0, built.stderr
    kernels = {VARIANT.removesuffix(launches.SUFFIX), GUARDED_VARIANT.removesuffix(launches.SUFFIX)}
    for sm in (80, 90):
        ptx = ptx_text(tmp_path / "rgb.o", sm)
        assert launches.variants_in_ptx(ptx) == kernels
        # 3-byte pixels: flat copies of small elements, launched until measured
        assert launches.preferred_in_ptx(ptx) == kernels
    assert " t __coalda_launch_grid" in symbols(tmp_path / "rgb.o")
    data = (tmp_path / "rgb.o").read_bytes()
    assert VARIANT.encode() + b"\0" in data and GUARDED_VARIANT.encode() + b"\0" in data
    said = [ln for ln in built.stderr.splitlines() if "launch " in ln]
    assert [ln.split(": coalda: ")[1].split(":")[0] for ln in said] == ["copy_naive", "copy_naive_guarded"], said
    assert all("launch reshaped where its grid is larger than the device holds" in ln and
               "(one flat copy of the original grid's elements" in ln and
               ln.endswith("; until measured, the variant") for ln in said), said
    # separate compilation: the object links alone
    linked = run_cli("cc", tmp_path / "rgb.o", "-o", tmp_path / "rgb")
    assert linked.returncode == 0, linked.stderr
    assert "__coalda_launch_grid" in symbols(tmp_path / "rgb")


def test_default_build_reshapes_copies_and_not_the_other_rewrites(tmp_path: Path) -> None:
    """The default build takes over the launches that gain by construction
    (grid variants: rgb.cu's flat copies, launched through the run-time
    choice) but does not choose other rewrites against their code as
    written (gaussian.cu's Fan2 keeps no copy of itself: its trials would
    run the slower code); -fno-coalda-reshape launches every kernel as
    written; -fno-coalda with -fcoalda-reshape builds too."""
    obj = tmp_path / "rgb.o"
    built = run_cli("cc", "-c", TESTCASES / "rgb.cu", "-o", obj)
    assert built.returncode == 0, built.stderr
    assert launches.variants_in_ptx(ptx_text(obj, 90)) == {VARIANT.removesuffix(launches.SUFFIX),
                                                          GUARDED_VARIANT.removesuffix(launches.SUFFIX)}
    assert "__coalda_launch_grid" in symbols(obj)
    fan2 = tmp_path / "gaussian.o"
    built = run_cli("cc", "-c", TESTCASES / "gaussian.cu", "-o", fan2)
    assert built.returncode == 0, built.stderr
    assert launches.rewrites_in_ptx(ptx_text(fan2, 90)) == set() and launches.SUFFIX not in ptx_text(fan2, 90)
    for flags in (["-fno-coalda-reshape"], ["-fno-coalda", "-fcoalda-reshape"]):
        obj = tmp_path / f"rgb{len(flags)}{flags[0]}.o"
        built = run_cli("cc", *flags, "-c", TESTCASES / "rgb.cu", "-o", obj)
        assert built.returncode == 0, built.stderr
        assert launches.SUFFIX not in ptx_text(obj, 90)
        assert "__coalda_launch_grid" not in symbols(obj)


def test_variants_read_from_ptx_and_kept_where_every_architecture_has_them() -> None:
    ptx = (".visible .entry _Z1kPf__coalda_grid(\n.visible .entry _Z1kPf(\n"
           ".visible .entry _Z1gv__coalda_grid(\n// .visible .entry _Z1hv__coalda_grid(\n"
           ".visible .global .align 1 .u8 _Z1kPf__coalda_prefer = 1;\n"
           "// .visible .global .align 1 .u8 _Z1gv__coalda_prefer = 1;\n")
    assert launches.variants_in_ptx(ptx) == {"_Z1kPf", "_Z1gv"}
    assert launches.preferred_in_ptx(ptx) == {"_Z1kPf"}
    flags = launches.host_flags(find_plugin(), ["_Z1gv", "_Z1kPf"], ["_Z1kPf", "_Z1xv"])
    assert "-coalda-launch-variants=_Z1gv,_Z1kPf" in flags and "-coalda-launch-preferred=_Z1kPf" in flags
    assert launches.common_variants([{"a", "b"}, {"b", "c"}]) == ["b"]
    assert launches.common_variants([]) == []
    # the tile form's mark; a kernel whose variant is of the tile form in one
    # architecture only has no variant (their signatures differ)
    tiled = ptx + ".visible .global .align 1 .u8 _Z1gv__coalda_tile = 1;\n"
    assert launches.tiles_in_ptx(tiled) == {"_Z1gv"} and launches.tiles_in_ptx(ptx) == set()
    assert launches.agreed_variants([{"_Z1gv", "_Z1kPf"}] * 2, [{"_Z1gv"}, set()]) == ["_Z1kPf"]
    assert launches.agreed_variants([{"_Z1gv", "_Z1kPf"}] * 2, [{"_Z1gv"}] * 2) == ["_Z1gv", "_Z1kPf"]
    flags = launches.host_flags(find_plugin(), ["_Z1gv", "_Z1kPf"], [], ["_Z1gv"])
    assert "-coalda-launch-tiles=_Z1gv" in flags and not any("preferred" in f for f in flags)
    # the rewrite form's mark; of that form in one architecture only (its
    # variant takes no appended size), no variant either
    rewritten = ptx + ".visible .global .align 1 .u8 _Z1kPf__coalda_rewrite = 1;\n"
    assert launches.rewrites_in_ptx(rewritten) == {"_Z1kPf"} and launches.rewrites_in_ptx(tiled) == set()
    assert launches.agreed_variants([{"_Z1gv", "_Z1kPf"}] * 2, [set()] * 2, [{"_Z1kPf"}, set()]) == ["_Z1gv"]
    assert launches.agreed_variants([{"_Z1gv", "_Z1kPf"}] * 2, [{"_Z1gv"}] * 2, [{"_Z1kPf"}] * 2) == ["_Z1gv", "_Z1kPf"]
    flags = launches.host_flags(find_plugin(), ["_Z1gv", "_Z1kPf"], ["_Z1kPf"], ["_Z1gv"], ["_Z1kPf"])
    assert "-coalda-launch-rewrites=_Z1kPf" in flags and "-coalda-launch-tiles=_Z1gv" in flags


def entries(ptx: str) -> dict[str, str]:
    """Each .entry of PTX, by name, without what differs between two
    modules that hold the same code (the backend's label numbers, its
    comments, the line table of -Wcoalda's -gline-tables-only)."""
    found = {}
    for m in re.finditer(r"^\.visible \.entry (\S+)\(", ptx, re.M):
        body = ptx[m.start():ptx.index("\n}\n", m.start())]
        body = re.sub(r"^\s*\.loc\b.*\n|^\$L__(func_begin|func_end|tmp)\d+:\n?", "", body, flags=re.M)
        found[m.group(1)] = re.sub(r"\$L__BB\d+_", "$L__BB_", re.sub(r"\s*// .*", "", body)).rstrip()
    return found


def test_a_rewrite_without_a_grid_variant_is_chosen_at_run_time(tmp_path: Path) -> None:
    """gaussian.cu's Fan2 is rewritten (a transposed staging of its
    read-modify-write columns) but gets no grid variant: with
    -fcoalda-reshape it keeps its code as written as its variant
    (RewriteChoice.cpp). In the PTX, the kernel is the default build's
    rewritten Fan2 and the variant the plain build's Fan2, instruction for
    instruction; the kernel is marked of the rewrite form, not preferred
    (the rewrite launches until measured); the host launches them through
    the choice with form 2; -Wcoalda says so."""
    built = {}
    for name, flags in (("reshape", ["-fcoalda-reshape", "-Wcoalda", "-v"]), ("default", ["-Wcoalda"]),
                        ("plain", ["-fno-coalda"])):
        obj = tmp_path / f"{name}.o"
        built[name] = run_cli("cc", *flags, "-c", TESTCASES / "gaussian.cu", "-o", obj, "--cuda-gpu-arch=sm_90")
        assert built[name].returncode == 0, built[name].stderr
    fan2 = "_Z4Fan2PfS_S_iii"
    ptx = ptx_text(tmp_path / "reshape.o", 90)
    assert launches.variants_in_ptx(ptx) == launches.rewrites_in_ptx(ptx) == {fan2}
    assert launches.preferred_in_ptx(ptx) == set()
    reshaped, default, plain = (entries(ptx_text(tmp_path / f"{n}.o", 90)) for n in ("reshape", "default", "plain"))
    assert set(reshaped) == {fan2, fan2 + launches.SUFFIX}
    assert reshaped[fan2 + launches.SUFFIX].replace(fan2 + launches.SUFFIX, fan2) == plain[fan2] != default[fan2]
    assert reshaped[fan2] == default[fan2]
    host = [ln for ln in built["reshape"].stderr.splitlines() if "--cuda-host-only" in ln]
    assert host and f"-coalda-launch-rewrites={fan2}" in host[-1] and "-coalda-launch-preferred" not in host[-1]
    # the choice's runtime is linked in (here inlined into the one stub)
    assert " U cudaEventQuery" in symbols(tmp_path / "reshape.o")
    assert "cudaEventQuery" not in symbols(tmp_path / "default.o")
    assert (fan2 + launches.SUFFIX).encode() + b"\0" in (tmp_path / "reshape.o").read_bytes()
    said = [ln for ln in built["reshape"].stderr.splitlines() if ": coalda: Fan2: chosen at run time" in ln]
    assert len(said) == 1 and said[0].endswith("; until measured, the rewrite"), built["reshape"].stderr


def test_transposes_get_the_tile_form(tmp_path: Path) -> None:
    """transpose.cu's two naive transposes get tile variants (GridVariantTile.cpp),
    marked in the PTX as of the tile form and preferred; the host compile
    launches them on the tile grid (form 1, the stub's last argument)."""
    built = run_cli("cc", "-v", "-fcoalda-reshape", "-Wcoalda", "-c", TESTCASES / "transpose.cu", "-o",
                    tmp_path / "t.o")
    assert built.returncode == 0, built.stderr
    ptx = ptx_text(tmp_path / "t.o", 90)
    kernels = {"_Z15transpose_naivePfPKfii", "_Z15transpose_scalePdPKddii"}
    assert launches.variants_in_ptx(ptx) == kernels
    assert launches.tiles_in_ptx(ptx) == kernels == launches.preferred_in_ptx(ptx)
    said = [ln for ln in built.stderr.splitlines() if "launch " in ln]
    assert sum("launch reshaped (4 virtual blocks per block at 32x8 and 16x16 threads)" in ln for ln in said) == 2, said
    assert " t __coalda_launch_grid" in symbols(tmp_path / "t.o")
    host = [ln for ln in built.stderr.splitlines() if "--cuda-host-only" in ln]
    assert host and f"-coalda-launch-tiles={','.join(sorted(kernels))}" in host[-1], host


def test_findings_say_which_launches_are_reshaped() -> None:
    """`coalda analyze` with the pass's option says, per rewritten kernel,
    whether its launch would be reshaped and why, as -Wcoalda does; without
    the option it says nothing of launches."""
    said = run_cli("analyze", TESTCASES / "rgb.cu", "--pass-arg=-coalda-reshape-launches")
    assert said.returncode == 0, said.stderr
    lines = [ln for ln in said.stdout.splitlines() if ": launch " in ln]
    assert [ln.split(":")[0] for ln in lines] == ["copy_naive", "copy_naive_guarded"], lines
    assert all("launch reshaped where its grid is larger than the device holds" in ln and
               "(one flat copy of the original grid's elements" in ln for ln in lines), lines
    plain = run_cli("analyze", TESTCASES / "rgb.cu")
    assert plain.returncode == 0 and ": launch " not in plain.stdout


@pytest.mark.parametrize("stem", ["flat_variants", "tile_variants"])
def test_every_variant_of_a_cc_build_is_a_kernel(tmp_path: Path, stem: str) -> None:
    """In clang's in-process compile, NVPTX's annotation cache may hold a
    stale entry at a new variant's address (GridVariant.cpp's annotateLike):
    a variant emitted as a .func never launches. Over the variant
    adversaries' 43 variants, every one is an .entry (with the calling
    convention taken away, one in six builds had a .func; lit's
    Launch/tile-variant.ll and grid-variant-alloca.ll check the convention
    itself)."""
    obj = tmp_path / f"{stem}.o"
    built = run_cli("cc", "-fcoalda-reshape", "-c", TESTCASES / "adversarial" / f"{stem}.cu", "-o", obj)
    assert built.returncode == 0, built.stderr
    ptx = ptx_text(obj, 90)
    functions = re.findall(rf"^\.visible \.func (\w+{launches.SUFFIX})\(", ptx, re.M)
    assert functions == [] and len(launches.variants_in_ptx(ptx)) >= 19, functions


def test_twins_take_the_place_of_other_variants_where_they_agree() -> None:
    """The host compile's view of the architectures: a kernel limited in
    registers on an architecture has its twin there as its variant, in
    place of a variant of another form (its marks go); where the
    architectures disagree (a twin in one, a rewrite form in the other),
    it has no variant at all, as for any two forms."""
    rewrite = ".visible .entry _Z1kPf__coalda_grid(\n.visible .global .align 1 .u8 _Z1kPf__coalda_rewrite = 1;\n"
    seen = launches.VariantsSeen()
    for _ in range(2):
        seen.add_arch(rewrite)
        seen.add_twins({"_Z1kPf"})
    flags = seen.host_flags(find_plugin())
    assert "-coalda-launch-bounded=_Z1kPf" in flags and not any("rewrites" in f for f in flags)
    mixed = launches.VariantsSeen()
    mixed.add_arch(rewrite)
    mixed.add_twins({"_Z1kPf"})
    mixed.add_arch(rewrite)
    mixed.add_twins(set())
    assert mixed.host_flags(find_plugin()) == []
    default = launches.VariantsSeen()
    default.add_arch("")
    default.add_twins(set())
    assert default.host_flags(find_plugin()) == []


def test_a_reshape_build_launches_the_register_limits_twin(tmp_path: Path) -> None:
    """softmax's softMax crosses 64 registers after the pass: in a reshape
    build too, its variant is its twin without the limit (the same code as
    the kernel, less `.maxnreg`), launched by the bounded form, in place of
    its code as written, and -Wcoalda says so."""
    obj = tmp_path / "softmax.o"
    built = run_cli("cc", "-fcoalda-reshape", "-Wcoalda", "-v", "-c", REPO / "corpus" / "hecbench" / "softmax-cuda" /
                    "main.cu", "-o", obj)
    assert built.returncode == 0, built.stderr
    kernel = "_Z7softMaxiiPKfPf"
    assert f"-coalda-launch-bounded={kernel}" in built.stderr
    assert not re.search(r"-coalda-launch-rewrites=\S*" + kernel, built.stderr)
    assert "(in place of its run-time choice)" in built.stderr
    code = entries(ptx_text(obj, 90))
    limited, twin = code[kernel], code[kernel + launches.SUFFIX]
    assert ".maxnreg 64" in limited and ".maxnreg" not in twin
    assert twin.replace(kernel + launches.SUFFIX + "(", kernel + "(", 1) == limited.replace(".maxnreg 64\n", "")
