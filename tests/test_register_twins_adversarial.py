"""Adversarial tests of coalda cc's register twins (coalda/driver/registers.py):
with_twins, without_entries, with_limit and own_bounds on PTX shapes that
NVPTX (LLVM 19) emits or that are legal PTX, checked with ptxas (sm_90).

The tests at the end are this file's findings, fixed since (comments read
as code, a linkage on its own line, a bound on the parameter line); the
strict xfail is one left (an entry without a parameter list, which NVPTX
never writes)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from coalda.driver import registers
from coalda.errors import ToolNotFound
from coalda.driver.toolchain import cuda_path, find_clang, find_ptxas

SUFFIX = "__coalda_grid"
HEAD = ".version 8.5\n.target sm_90\n.address_size 64\n\n"

# module scope as NVPTX writes it: an extern .func, an initialized global
# (braces at module scope), a shared tile and a global counter the kernels
# use, and a .func they call
MODULE = HEAD + """\
.extern .func  (.param .b32 func_retval0) vprintf
(
\t.param .b64 vprintf_param_0,
\t.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {107, 123, 125, 0};
.visible .shared .align 4 .b8 tile[1024];
.visible .global .align 4 .u32 counter;

.func  (.param .b32 func_retval0) sq(
\t.param .b32 sq_param_0
)
{
\t.reg .f32 \t%f<3>;
\tld.param.f32 \t%f1, [sq_param_0];
\tmul.f32 \t%f2, %f1, %f1;
\tst.param.f32 \t[func_retval0+0], %f2;
\tret;
}
"""

# an entry body with what NVPTX puts in one: a local depot, a function-scope
# .shared, labels, .pragma, call sequences (nested blocks with .param
# declarations), inline-asm blocks nested two deep, the module's tile,
# counter, string and .func
BODY = """\
{
\t.local .align 8 .b8 \t__local_depot0[16];
\t.shared .align 4 .b8 \tscratch[128];
\t.reg .b64 \t%SP;
\t.reg .b64 \t%SPL;
\t.reg .pred \t%p<3>;
\t.reg .b32 \t%r<8>;
\t.reg .f32 \t%f<5>;
\t.reg .b64 \t%rd<10>;

// %bb.0:
\tmov.u64 \t%SPL, __local_depot0;
\tcvta.local.u64 \t%SP, %SPL;
\tld.param.u64 \t%rd1, [NAME_param_0];
\tld.param.u32 \t%r1, [NAME_param_1];
\tcvta.to.global.u64 \t%rd2, %rd1;
\tmov.u32 \t%r2, %tid.x;
\tmov.b32 \t%r3, 0;
$L__BB0_1:
\t.pragma "nounroll";
\tld.global.f32 \t%f1, [%rd2];
\t{ // callseq 0, 0
\t.param .b32 param0;
\tst.param.f32 \t[param0+0], %f1;
\t.param .b32 retval0;
\tcall.uni (retval0), 
\tsq, 
\t(
\tparam0
\t);
\tld.param.f32 \t%f2, [retval0+0];
\t} // callseq 0
\t// begin inline asm
\t{
\t.reg .pred \t%q;
\tsetp.gt.f32 \t%q, %f2, 0f00000000;
\t@%q add.f32 \t%f2, %f2, 0f3F800000;
\t{
\t.reg .b32 \t%t;
\tmov.b32 \t%t, 1;
\tadd.s32 \t%r3, %r3, %t;
\t}
\t}
\t// end inline asm
\tst.global.f32 \t[%rd2], %f2;
\tmul.wide.u32 \t%rd3, %r2, 4;
\tmov.u64 \t%rd4, tile;
\tadd.s64 \t%rd5, %rd4, %rd3;
\tst.shared.f32 \t[%rd5], %f2;
\tmov.u64 \t%rd6, scratch;
\tst.shared.f32 \t[%rd6], %f2;
\tsetp.lt.s32 \t%p1, %r3, %r1;
\t@%p1 bra \t$L__BB0_1;
\tatom.global.add.u32 \t%r4, [counter], 1;
\tsetp.ne.s32 \t%p2, %r2, 0;
\t@%p2 bra \t$L__BB0_3;
\tmov.u64 \t%rd7, $str;
\tcvta.global.u64 \t%rd8, %rd7;
\tadd.u64 \t%rd9, %SP, 0;
\t{ // callseq 1, 0
\t.param .b64 param0;
\tst.param.b64 \t[param0+0], %rd8;
\t.param .b64 param1;
\tst.param.b64 \t[param1+0], %rd9;
\t.param .b32 retval0;
\tcall.uni (retval0), 
\tvprintf, 
\t(
\tparam0, 
\tparam1
\t);
\tld.param.b32 \t%r5, [retval0+0];
\t} // callseq 1
$L__BB0_3:
\tret;
                                        // -- End function
}
"""


def entry(name: str, linkage: str = ".visible ", directives: str = "", body: str = BODY) -> str:
    """An entry as NVPTX writes it, its `.globl` comment line first."""
    return (f"\t// .globl\t{name}          // -- Begin function {name}\n"
            f"{linkage}.entry {name}(\n\t.param .u64 {name}_param_0,\n\t.param .u32 {name}_param_1\n)"
            f"                                       // @{name}\n{directives}"
            + body.replace("NAME", name))


def entry_text(ptx: str, name: str) -> str:
    """NAME's entry, from its line to its closing brace (at the start of a
    line: inner blocks are indented) — found without registers' matcher."""
    m = re.search(r"^[^\n]*\.entry\s+" + re.escape(name) + r"\s*\(", ptx, re.M)
    assert m, f"no entry {name}"
    return ptx[m.start():ptx.index("\n}", m.end()) + 2]


def entry_names(ptx: str) -> list[str]:
    return re.findall(r"^[^\n/]*\.entry\s+(\S+?)\s*\(", ptx, re.M)


def squeeze(ptx: str) -> str:
    return re.sub(r"\n\s*\n", "\n", ptx).strip()


@pytest.fixture(scope="module")
def ptxas() -> Path:
    try:
        return find_ptxas()
    except ToolNotFound as exc:
        pytest.skip(str(exc))


def assemble(ptxas: Path, text: str, tmp_path: Path, name: str = "t.ptx") -> dict[str, registers.Usage]:
    path = tmp_path / name
    path.write_text(text)
    return registers.assemble(ptxas, path, "sm_90", "/dev/null")


def check_twins(ptx: str, symbols: set[str], suffix: str = SUFFIX) -> str:
    """with_twins + with_limit on PTX, and what must hold of the text: each
    twin is its kernel's entry renamed (and nothing else), right after it,
    without the limit; the kernel has the limit; the other entries are as
    they were."""
    twinned = registers.with_twins(ptx, symbols, suffix)
    limited = registers.with_limit(twinned, symbols)
    names = entry_names(limited)
    originals = entry_names(ptx)
    assert names == [n for o in originals for n in ([o, o + suffix] if o in symbols else [o])]
    for name in originals:
        before = entry_text(ptx, name)
        if name in symbols:
            assert entry_text(twinned, name) == before
            twin = entry_text(limited, name + suffix)
            assert twin == before.replace(f".entry {name}(", f".entry {name}{suffix}(", 1)
            assert ".maxnreg" not in twin
            assert entry_text(limited, name).count(".maxnreg 64\n{") == 1
        else:
            assert entry_text(limited, name) == before
    assert limited.count(".maxnreg") == ptx.count(".maxnreg") + len(symbols & set(originals))
    # dropping the twins gives the kernels back (blank lines aside)
    assert squeeze(registers.without_entries(twinned, {s + suffix for s in symbols})) == squeeze(ptx)
    return limited


# several entries, linkages .visible, .weak and none; the twinned kernel
# first, in the middle, last, or all of them
KERNELS = [("ka", ".visible "), ("kb", ".weak "), ("kc", "")]


@pytest.mark.parametrize("twinned", [{"ka"}, {"kb"}, {"kc"}, {"ka", "kb", "kc"}, {"ka", "kc"}])
def test_twins_of_entries_of_each_linkage_and_place(twinned: set[str], ptxas: Path, tmp_path: Path) -> None:
    ptx = MODULE + "".join(entry(n, link) for n, link in KERNELS)
    limited = check_twins(ptx, twinned)
    for n, link in KERNELS:
        if n in twinned:  # the twin keeps its kernel's linkage
            assert entry_text(limited, n + SUFFIX).startswith(f"{link}.entry {n}{SUFFIX}(")
    usage = assemble(ptxas, limited, tmp_path)
    assert set(usage) == {n for n, _ in KERNELS} | {n + SUFFIX for n in twinned}
    free = assemble(ptxas, ptx, tmp_path, "free.ptx")
    assert all(usage[n + SUFFIX].registers == free[n].registers for n in twinned)


def test_ptx_that_ends_at_the_closing_brace(ptxas: Path, tmp_path: Path) -> None:
    """NVPTX's output ends at the last entry's `}`, no newline after it."""
    ptx = (MODULE + entry("ka") + entry("kb")).rstrip("\n")
    limited = check_twins(ptx, {"kb"})
    assert limited.rstrip().endswith("}") and limited.count(f".entry kb{SUFFIX}(") == 1
    assert set(assemble(ptxas, limited, tmp_path)) == {"ka", "kb", "kb" + SUFFIX}
    # what is left of kb is its `.globl` comment line (a comment: harmless)
    assert registers.without_entries(ptx, {"kb"}).endswith(entry_text(ptx, "ka") + "\n\t// .globl\tkb          "
                                                           "// -- Begin function kb\n")


DIRECTIVES = {
    "maxntid": ".maxntid 256, 1, 1\n.minnctapersm 2\n",
    "reqntid": ".reqntid 128, 1, 1\n",
    "maxnreg": ".maxnreg 40\n",
    "minnctapersm": ".minnctapersm 2\n",  # without .maxntid: no bound of its own
    "cluster": ".reqnctapercluster 2, 1, 1\n.explicitcluster\n",
    "maxclusterrank": ".maxntid 128, 1, 1\n.minnctapersm 1\n.maxclusterrank 4\n",
}


def test_directives_between_the_parameters_and_the_body(ptxas: Path, tmp_path: Path) -> None:
    ptx = MODULE + "".join(entry(f"k_{n}", directives=d) for n, d in DIRECTIVES.items()) + entry("k_none")
    assert registers.own_bounds(ptx) == {"k_maxntid", "k_reqntid", "k_maxnreg", "k_maxclusterrank"}
    free = {"k_minnctapersm", "k_cluster", "k_none"}
    limited = check_twins(ptx, free)
    for n in free:  # the twin keeps the kernel's directives, the limit goes after them
        twin = entry_text(limited, n + SUFFIX)
        assert DIRECTIVES.get(n[2:], "") in twin
        assert f"{DIRECTIVES.get(n[2:], '')}.maxnreg 64\n{{" in entry_text(limited, n)
    assert registers.own_bounds(limited) == registers.own_bounds(ptx) | free
    usage = assemble(ptxas, limited, tmp_path)
    assert set(usage) == {f"k_{n}" for n in DIRECTIVES} | {"k_none"} | {n + SUFFIX for n in free}


def test_the_matcher_spans_the_whole_body() -> None:
    """_entries on nested blocks: each entry's span is its own, from its
    line (linkage included) to its closing brace."""
    ptx = MODULE + entry("ka") + entry("kb", ".weak ", DIRECTIVES["maxntid"]) + entry("kc", "")
    spans = {}
    for e in registers._entries(registers._masked(ptx)):
        assert ptx[e.params_end] == ")" and ptx[e.body] == "{"
        spans[e.symbol] = ptx[e.start:e.end]
    assert spans == {n: entry_text(ptx, n) for n in ("ka", "kb", "kc")}


# names that are prefixes of each other (C++ overloads), and a twin name
# that is a prefix of nothing
PREFIXES = ["_Z1kPf", "_Z1kPfi", "_Z1kPfii"]


@pytest.mark.parametrize("order", [PREFIXES, PREFIXES[::-1]])
@pytest.mark.parametrize("twinned", [{"_Z1kPf"}, {"_Z1kPfi"}, {"_Z1kPf", "_Z1kPfii"}])
def test_names_that_are_prefixes_of_each_other(order: list[str], twinned: set[str], ptxas: Path,
                                               tmp_path: Path) -> None:
    ptx = MODULE + "".join(entry(n) for n in order)
    limited = check_twins(ptx, twinned)
    assert registers.with_limit(ptx, twinned).count(".maxnreg") == len(twinned)
    for n in PREFIXES:
        assert limited.count(f".entry {n}(") == 1
        assert limited.count(f".entry {n}{SUFFIX}(") == (n in twinned)
    kept = registers.without_entries(ptx, twinned)
    assert entry_names(kept) == [n for n in order if n not in twinned]
    assert set(assemble(ptxas, limited, tmp_path)) == set(PREFIXES) | {n + SUFFIX for n in twinned}


@pytest.mark.parametrize("where", ["before", "after", "last"])
def test_an_entry_of_the_twins_name_gives_way(where: str, ptxas: Path, tmp_path: Path) -> None:
    """A reshape build's entry named K__coalda_grid (another form, here its
    body stores 7.0) is dropped, wherever it was, with its linkage line;
    the twin takes its place, right after K."""
    old = entry("ka" + SUFFIX, ".weak ").replace("0f3F800000", "0f40E00000")
    parts = {"before": [old, entry("ka"), entry("kb")], "after": [entry("ka"), old, entry("kb")],
             "last": [entry("ka"), entry("kb"), old]}[where]
    ptx = MODULE + "".join(parts)
    twinned = registers.with_twins(ptx, {"ka"}, SUFFIX)
    assert "0f40E00000" not in twinned and twinned.count(f".entry ka{SUFFIX}(") == 1
    assert entry_names(twinned) == ["ka", "ka" + SUFFIX, "kb"]
    assert entry_text(twinned, "ka" + SUFFIX).startswith(f".visible .entry ka{SUFFIX}(")
    dropped = registers.without_entries(ptx, {"ka" + SUFFIX})
    assert squeeze(dropped.replace(f"\t// .globl\tka{SUFFIX}          // -- Begin function ka{SUFFIX}\n", "")) \
        == squeeze(MODULE + entry("ka") + entry("kb"))
    # twinning again gives the same kernels (a second coalda cc pass over it)
    assert squeeze(registers.with_twins(twinned, {"ka"}, SUFFIX)) == squeeze(twinned)
    assert set(assemble(ptxas, registers.with_limit(twinned, {"ka"}), tmp_path)) == {"ka", "ka" + SUFFIX, "kb"}


def test_names_not_there_change_nothing() -> None:
    ptx = MODULE + entry("ka") + entry("kb")
    assert registers.with_twins(ptx, {"kz", "k"}, SUFFIX) == ptx
    assert registers.with_limit(ptx, {"kz", "k", "sq"}) == ptx  # a .func is no entry
    assert registers.without_entries(ptx, {"kz", "sq", "vprintf"}) == ptx
    kept = registers.without_entries(ptx, {"ka", "kb"})
    assert kept.startswith(MODULE) and entry_names(kept) == [] and "callseq" not in kept  # sq stays


def test_a_kernel_without_parameters(ptxas: Path, tmp_path: Path) -> None:
    """NVPTX writes `.entry k()` for a kernel without parameters."""
    body = "{\n\n\n// %bb.0:\n\tret;\n                                        // -- End function\n}\n"
    ptx = MODULE + f".visible .entry _Z8noparamsv()          // @_Z8noparamsv\n{body}" + entry("kb")
    limited = registers.with_limit(registers.with_twins(ptx, {"_Z8noparamsv"}, SUFFIX), {"_Z8noparamsv"})
    assert entry_names(limited) == ["_Z8noparamsv", "_Z8noparamsv" + SUFFIX, "kb"]
    assert f".entry _Z8noparamsv{SUFFIX}()          // @_Z8noparamsv\n{body}" in limited
    assert set(assemble(ptxas, limited, tmp_path)) == {"_Z8noparamsv", "_Z8noparamsv" + SUFFIX, "kb"}


# real PTX: clang -x cuda at -O3 (and -g), every entry twinned and limited
CUDA = r"""
#include <cstdio>
__device__ __noinline__ float helper(float x) { return x * x + 1.0f; }
template <int N> __global__ void heavy(const float *__restrict__ a, float *__restrict__ out, int n) {
  float acc[N];
#pragma unroll
  for (int j = 0; j < N; ++j) acc[j] = a[threadIdx.x + j * 1024];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < N; ++j) acc[j] = acc[j] * acc[(j + 1) % N] + a[i];
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < N; ++j) s += acc[j] * (j + 1);
  if (threadIdx.x == 0) printf("%f\n", s);
  out[threadIdx.x] = helper(s);
}
template __global__ void heavy<96>(const float *, float *, int);
template __global__ void heavy<8>(const float *, float *, int);
extern __shared__ float dyn[];
__shared__ float tile[256];
__global__ void dynshared(float *p) {
  dyn[threadIdx.x] = p[threadIdx.x] + tile[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = dyn[blockDim.x - 1 - threadIdx.x];
}
template <typename T> __global__ void implicit(T *p) { tile[threadIdx.x] = p[threadIdx.x]; }
void launch(float *p) { implicit<<<1, 32>>>(p); }
static __global__ void internal(float *p) { p[0] = 3; }
void launch2(float *p) { internal<<<1, 32>>>(p); }
__global__ void inlineasm(float *p) {
  float x;
  asm volatile("{\n\t.reg .f32 t;\n\tmov.f32 t, 1.0;\n\t{\n\t.reg .f32 u;\n\tmov.f32 u, t;\n\tmov.f32 %0, u;\n\t}\n\t}"
               : "=f"(x));
  p[0] = x;
}
__global__ void pragma(float *p, int n) {
#pragma nounroll
  for (int i = 0; i < n; ++i) p[i] += 1;
}
__global__ void __launch_bounds__(256, 2) bounded(float *p) { p[threadIdx.x] += 1; }
__global__ void noparams() {}
__global__ void k(float *p) { p[0] = 1; }
__global__ void k(float *p, int n) { p[n] = 1; }
"""


def clang_ptx(source: str, directory: Path, flags: tuple[str, ...] = ()) -> str:
    try:
        clang = find_clang()
        cuda = cuda_path()
    except ToolNotFound as exc:
        pytest.skip(str(exc))
    cu, out = directory / "k.cu", directory / "k.ptx"
    cu.write_text(source)
    subprocess.run([str(clang), "-x", "cuda", "--cuda-device-only", "--cuda-gpu-arch=sm_90", "-S", "-O3",
                    f"--cuda-path={cuda}", "-Wno-unknown-cuda-version", *flags, str(cu), "-o", str(out)],
                   check=True, capture_output=True)
    return out.read_text()


@pytest.mark.parametrize("flags", [(), ("-g",)], ids=["O3", "O3-g"])
def test_real_ptx_every_entry_twinned(flags: tuple[str, ...], ptxas: Path, tmp_path: Path) -> None:
    """Each twin assembles to its kernel's registers without the limit; the
    limited kernel over 64 comes down to 64."""
    ptx = clang_ptx(CUDA, tmp_path, flags)
    names = entry_names(ptx)
    assert len(names) == 11 and "_Z5heavyILi96EEvPKfPfi" in names and "{ // callseq" in ptx
    free = assemble(ptxas, ptx, tmp_path, "free.ptx")
    assert free["_Z5heavyILi96EEvPKfPfi"].registers > 64  # the kernel that crosses
    symbols = set(names) - registers.own_bounds(ptx)
    assert symbols == set(names) - {"_Z7boundedPf"}
    limited = check_twins(ptx, symbols)
    usage = assemble(ptxas, limited, tmp_path)
    assert set(usage) == set(names) | {n + SUFFIX for n in symbols}
    assert {n: usage[n + SUFFIX].registers for n in symbols} == {n: free[n].registers for n in symbols}
    assert all(usage[n].registers <= 64 for n in symbols)
    assert usage["_Z5heavyILi96EEvPKfPfi"].registers == 64


# Findings: the matcher reads PTX as text; what it gets wrong.

def comment_case(comment: str) -> str:
    return MODULE + entry("ka", body=BODY.replace("// %bb.0:", comment)) + entry("kb")


COMMENTS = ["// {", "// }", "/* { */", "// close } here"]


@pytest.mark.parametrize("comment", COMMENTS)
def test_the_findings_inputs_are_legal_ptx(comment: str, ptxas: Path, tmp_path: Path) -> None:
    """The findings' tests below use legal PTX: what they check is the matcher."""
    assert set(assemble(ptxas, comment_case(comment), tmp_path)) == {"ka", "kb"}
    linkage = MODULE + entry("ka") + entry("kb").replace(".visible .entry", ".visible\n.entry")
    assert set(assemble(ptxas, linkage, tmp_path, "linkage.ptx")) == {"ka", "kb"}
    assert set(assemble(ptxas, HEAD + ".visible .entry k(.param .u64 p) .maxntid 256, 1, 1 {\n\tret;\n}\n",
                        tmp_path, "bound.ptx")) == {"k"}


@pytest.mark.parametrize("comment", COMMENTS)
def test_a_brace_in_a_comment(comment: str, ptxas: Path, tmp_path: Path) -> None:
    """A comment with an unmatched brace in a body (inline assembly's text is
    copied verbatim) is not code: the entry's end is found past it. (Found
    by this file: with_twins raised for `{` and cut the entry short for `}`.)"""
    ptx = comment_case(comment)
    check_twins(ptx, {"ka"})
    assemble(ptxas, registers.with_limit(registers.with_twins(ptx, {"ka"}, SUFFIX), {"ka"}), tmp_path)


def test_a_brace_in_an_inline_asm_comment_from_cuda(ptxas: Path, tmp_path: Path) -> None:
    """The same from CUDA source: asm volatile("// {") in the PTX body."""
    ptx = clang_ptx('__global__ void k(float *p) { asm volatile("// {" ::); p[0] = 1; }\n'
                    '__global__ void k2(float *p) { p[1] = 2; }\n', tmp_path)
    assert "// {" in ptx
    limited = check_twins(ptx, {"_Z1kPf"})
    assemble(ptxas, limited, tmp_path)


def test_an_entry_named_in_a_comment() -> None:
    """`.entry NAME(` in a comment is no entry (it made with_twins copy K
    twice: ptxas's Duplicate definition of function)."""
    ptx = MODULE + "// was: .entry ka(.param .u64 a)\n" + entry("ka") + entry("kb")
    assert registers.with_twins(ptx, {"ka"}, SUFFIX).count(f".entry ka{SUFFIX}(") == 1


def test_a_linkage_on_its_own_line(ptxas: Path, tmp_path: Path) -> None:
    """A linkage on the line before `.entry` (legal PTX, not NVPTX's) goes
    with its entry when it is dropped, and with its twin."""
    old = entry("ka" + SUFFIX).replace(".visible .entry", ".visible\n.entry")
    ptx = MODULE + entry("ka") + old + entry("kb")
    dropped = registers.without_entries(ptx, {"ka" + SUFFIX})
    assert ".visible\n" not in dropped
    assemble(ptxas, registers.with_twins(ptx, {"ka"}, SUFFIX), tmp_path)


@pytest.mark.xfail(strict=True, raises=AssertionError, reason=(
    "_entries wants a `(` after the name: `.entry k {` (legal PTX without a parameter list; NVPTX writes "
    "`k()`) is no entry to it, so it gets neither twin nor limit"))
def test_an_entry_without_a_parameter_list(ptxas: Path, tmp_path: Path) -> None:
    ptx = HEAD + ".visible .entry k\n{\n\tret;\n}\n"
    assert set(assemble(ptxas, ptx, tmp_path, "free.ptx")) == {"k"}  # legal PTX
    limited = registers.with_limit(registers.with_twins(ptx, {"k"}, SUFFIX), {"k"})
    assert set(assemble(ptxas, limited, tmp_path)) == {"k", "k" + SUFFIX} and ".maxnreg 64" in limited


def test_a_bound_on_the_parameter_line() -> None:
    """A bound on the `)` line (legal PTX, not NVPTX's) is a bound of the
    kernel's own: no `.maxnreg` on top of it."""
    assert registers.own_bounds(HEAD + ".visible .entry k(.param .u64 p) .maxntid 256, 1, 1 {\n\tret;\n}\n") \
        == {"k"}
