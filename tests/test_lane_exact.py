"""Lane-exact evaluation (issue 37): addresses that are not linear in
threadIdx.x (`t & 31`, `t >> 2`, `t ^ 1`, `t % 4`, min of two lane
functions, pointers from a parameter struct) are read for the 32 lanes of a
warp, classed by their sector counts, and shared memory is judged by its
banks, never by sectors.

The generator writes random index expressions over the thread index,
compiles them in one file, and checks every lane-exact reading against
Python's own evaluation of the same expression for several warps and
blocks: the lanes' offsets must differ from the true addresses by one
amount per warp (the warp-uniform part). A reading that puts one lane in
the wrong place fails it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from coalda.findings.diagnostics import sectors

ROOT = Path(__file__).resolve().parent.parent
MASK = 0xFFFFFFFF

Expr = tuple[str, Callable[[int], int]]


def _leaf(rng: random.Random) -> Expr:
    return rng.choice([("t", lambda t: t), ("t", lambda t: t), ("(t + 3u)", lambda t: t + 3)])


def _expr(rng: random.Random, depth: int) -> Expr:
    """An unsigned index expression over t and how Python computes it."""
    if depth == 0:
        return _leaf(rng)
    src, fn = _expr(rng, depth - 1)
    op = rng.choice(["and", "shr", "shl", "xor", "or", "rem", "div", "mul", "add", "min", "andnot"])
    c = rng.choice([1, 2, 3, 4, 5, 7, 8, 16, 31])
    if op == "and":
        return f"({src} & {c}u)", lambda t: fn(t) & c
    if op == "andnot":  # clears low bits: t & ~31
        k = rng.choice([3, 7, 31])
        return f"({src} & ~{k}u)", lambda t: fn(t) & (~k & MASK)
    if op == "shr":
        s = rng.choice([1, 2, 3, 5])
        return f"({src} >> {s})", lambda t: fn(t) >> s
    if op == "shl":
        s = rng.choice([1, 2, 4])
        return f"({src} << {s})", lambda t: fn(t) << s
    if op == "xor":
        return f"({src} ^ {c}u)", lambda t: fn(t) ^ c
    if op == "or":
        return f"({src} | {c}u)", lambda t: fn(t) | c
    if op == "rem":
        return f"({src} % {c}u)", lambda t: fn(t) % c
    if op == "div":
        return f"({src} / {c}u)", lambda t: fn(t) // c
    if op == "mul":
        return f"({src} * {c}u)", lambda t: fn(t) * c
    if op == "min":
        other, g = _expr(rng, depth - 1)
        return f"min({src}, {other})", lambda t: min(fn(t), g(t))
    other, g = _expr(rng, depth - 1)
    return f"({src} + {other})", lambda t: fn(t) + g(t)


def _analyze(source: Path) -> dict:
    proc = subprocess.run([sys.executable, "-m", "coalda.cli", "analyze", "--json", str(source)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    reports = json.loads(proc.stdout)["reports"]
    assert len(reports) == 1
    return reports[0]


def _kernel(report: dict, name: str) -> dict:
    return next(k for k in report["kernels"] if k["name"] == name)


@pytest.mark.parametrize("seed", [0, 1])
def test_random_lane_functions_are_read_exactly(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    exprs = [_expr(rng, rng.choice([1, 2, 3])) for _ in range(40)]
    body = [f"__global__ void k{n}(float *out, const float *in) {{\n"
            f"  unsigned t = threadIdx.x + blockIdx.x * blockDim.x;\n"
            f"  out[t] = in[{src}];\n}}\n" for n, (src, _) in enumerate(exprs)]
    source = tmp_path / "lanes.cu"
    source.write_text("".join(body))
    report = _analyze(source)
    read = 0
    for n, (src, fn) in enumerate(exprs):
        load = next(a for a in _kernel(report, f"k{n}")["accesses"] if a["kind"] == "load")
        if load["lane"] != "warp":
            continue
        read += 1
        offsets = load["lane_offsets"]
        # blockDim.x = 256 (whole warps); every warp of two blocks
        for block in (0, 3):
            for warp in range(8):
                first = block * 256 + warp * 32
                gaps = {4 * fn(first + lane) - offsets[lane] for lane in range(32)}
                assert len(gaps) == 1, f"k{n}: in[{src}] lanes {offsets} are not warp {warp}'s addresses"
        # the class follows from the counts
        got, want = load["sectors"], load["ideal_sectors"]
        assert load["class"] in ("coalesced", "uncoalesced", "uniform")
        assert (load["class"] == "uncoalesced") == (got > want or not load["coalesced"])
    # most of them are read lane by lane (the rest are linear, or a choice
    # between two values a run-time distance apart)
    assert read >= 20, f"only {read} of {len(exprs)} expressions were read lane by lane"


KERNELS = r"""
struct Params { float *pos; float *vel; int n; };
__global__ void split(float *out, const float *in) {
  int t = threadIdx.x + blockIdx.x * blockDim.x;
  out[t] = in[(t >> 2) * 64 + (t & 3)];
}
__global__ void params(Params p) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  p.pos[i] = p.vel[i * 3] + p.n;
}
__global__ void banks(float *out) {
  __shared__ float a[32 * 33];
  __shared__ float b[32 * 32];
  a[threadIdx.x * 33] = 1;
  b[threadIdx.x * 32] = 2;
  __syncthreads();
  out[threadIdx.x] = a[(threadIdx.x & 7) * 32] + b[threadIdx.x];
}
"""


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = tmp_path_factory.mktemp("lanes") / "kernels.cu"
    source.write_text(KERNELS)
    return source


def test_counts_match_the_linear_estimate_where_both_apply(kernels: Path) -> None:
    """A pointer loaded from a parameter struct is a base like a parameter
    (read linearly, so a rewrite may take it): at 12 bytes per lane it costs
    what the linear estimate gives a parameter at stride 12: 12 sectors."""
    accesses = _kernel(_analyze(kernels), "params")["accesses"]
    load, store = accesses
    assert (load["lane"], load["class"], load["sectors"], load["ideal_sectors"]) == ("gid", "uncoalesced", 12, 4)
    assert load["sectors"] == sectors(12, 4)
    assert (store["class"], store["stride"]) == ("coalesced", 4)
    # named as the source names them: the struct's fields
    assert (load["base"], store["base"]) == ("p.vel", "p.pos")
    assert load["expr"] == "p.vel + 12*gid"
    # p.n is read from the parameter space: not an access of the kernel
    assert len(accesses) == 2


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "coalda.cli", "analyze", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)


def test_shared_memory_is_never_a_global_finding(kernels: Path) -> None:
    """Shared stores at 128 and 132 bytes per lane and a lane-exact shared
    load: bank conflicts (32-way, none, 8-way), never sectors."""
    accesses = _kernel(_analyze(kernels), "banks")["accesses"]
    shared = [a for a in accesses if a["space"] == "shared"]
    assert [a["bank_ways"] for a in shared] == [1, 32, 8, 1]
    text = _run("--format", "text", str(kernels)).stdout
    banks = [line for line in text.splitlines() if "kernels.cu:1" in line and "warning" in line
             and line.split(":")[1] in ("14", "15", "17")]
    assert banks and all("[coalda-bank-conflict]" in line for line in banks), text
    assert "32-way bank conflict" in text and "8-way bank conflict" in text
    assert not any("sectors" in line for line in banks)


def test_the_gate_counts_bank_conflicts_only_when_asked(tmp_path: Path) -> None:
    source = tmp_path / "banks.cu"
    source.write_text("__global__ void k(float *out) {\n  __shared__ float b[32 * 32];\n"
                      "  b[threadIdx.x * 32] = 2;\n  __syncthreads();\n  out[threadIdx.x] = b[threadIdx.x];\n}\n")
    assert _run("--fail-on", "uncoalesced", str(source)).returncode == 0
    assert _run("--fail-on", "unknown", str(source)).returncode == 0
    gated = _run("--fail-on", "bank-conflict", str(source))
    assert gated.returncode == 3, gated.stderr
    assert "1 bank-conflict accesses found" in gated.stderr
