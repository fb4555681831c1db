"""Every access COALDA cannot read says why, in the source's terms (issue 37):
one kernel per reason the corpus census still counts, each pinned here.
What remains unknown is a gather through data, or one of these."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# kernel -> (the unknown access's kind, the start of its reason)
KERNELS = {
    "gather": ("__global__ void gather(float *out, const float *in, const int *idx) "
               "{ int i = threadIdx.x + blockIdx.x * blockDim.x; out[i] = in[idx[i]]; }",
               "load", "data-dependent index (loaded from memory)"),
    "slot": ("__global__ void slot(float *out, int *count, float v) { int s = atomicAdd(count, 1); out[s] = v; }",
             "store", "data-dependent index (returned by an atomic operation"),
    "fromfloat": ("__global__ void fromfloat(float *out, const float *x) "
                  "{ int i = threadIdx.x; out[(int)(x[i] * 10.f)] = 1; }",
                  "store", "index computed from a floating-point value"),
    "hashed": ("__global__ void hashed(float *out) { unsigned i = threadIdx.x; out[(i * 2654435761u) >> 7] = 1; }",
               "store", "`>>` of a thread-dependent value whose warp-uniform part may not be a multiple of 128"),
    "chase": ("__global__ void chase(float *out, float *const *ptrs) { int i = threadIdx.x; out[i] = ptrs[i][0]; }",
              "load", "pointer loaded from memory"),
    "choose": ("__global__ void choose(float *out, float *a, float *b, const int *f) "
               "{ int i = threadIdx.x; float *p = f[i] ? a : b; out[i] = p[i]; }",
               "load", "the address is chosen at run time between the buffers b and a (by a condition"),
    "mask": ("__global__ void mask(float *out, const float *in, unsigned m) "
             "{ unsigned t = threadIdx.x; out[t] = in[t & m]; }",
             "load", "`&` of two thread-dependent values, or with a run-time mask"),
    "perwarp": ("__global__ void perwarp(float *out, const float *in) "
                "{ unsigned t = threadIdx.x; out[t] = in[(t * 7) % 64]; }",
                "load", "`&` of a thread-dependent value whose warp-uniform part may have bits in common with 63"),
    "clamp": ("__global__ void clamp(float *out, const float *in, int n) "
              "{ int t = threadIdx.x + blockIdx.x * blockDim.x; out[t] = in[min(t, n)]; }",
              "load", "a choice between two values that differ by a run-time amount"),
    "bound": ("__global__ void bound(float *out, const float *in, int n) "
              "{ int t = threadIdx.x + blockIdx.x * blockDim.x; out[t] = in[t < n ? t : 0]; }",
              "load", "a choice by comparing a thread-dependent value with a bound"),
    "carried": ("__global__ void carried(float *out, int n) "
                "{ unsigned j = threadIdx.x; for (int k = 0; k < n; ++k) { j = (j * 5 + 1) & 1023; out[j] = k; } }",
                "store", "a value carried around a loop that is not an induction"),
    "divrt": ("__global__ void divrt(float *out, const float *in, int n) "
              "{ int t = threadIdx.x + blockIdx.x * blockDim.x; out[t] = in[t / n]; }",
              "load", "`/` of a thread-dependent value by a run-time value"),
    "mod30": ("__global__ void mod30(float *out, const float *in) "
              "{ int t = threadIdx.x + blockIdx.x * blockDim.x; out[t] = in[t % 30]; }",
              "load", "`%` by 30 of a thread-dependent value whose warp-uniform part may not be a multiple of 30"),
    "called": ("__device__ int ext(int t);\n__global__ void called(float *out, const float *in) "
               "{ int t = threadIdx.x; out[t] = in[ext(t)]; }",
               "load", "index returned by a call to `ext`"),
    "paths": ("__global__ void paths(float *out, const int *d) { int t = threadIdx.x; int k; "
              "if (d[t] > 0) { asm volatile(\"\" ::: \"memory\"); k = t; } "
              "else { asm volatile(\"\" ::: \"memory\"); k = 2 * t; } out[k] = 1; }",
              "store", "the threads reach it from paths that compute different addresses (the branch at line"),
    "product": ("__global__ void product(float *out, const float *in, int n) "
                "{ unsigned t = threadIdx.x; out[t] = in[(t & 3) * n]; }",
                "load", "product of a thread-dependent value and a run-time value, inside an expression read lane"),
    "among": ("__global__ void among(float *out, const float *in, const int *f, int n) "
              "{ int t = threadIdx.x + blockIdx.x * blockDim.x; if (t == 0) { if (f[0] == 1) out[0] = in[0]; } "
              "else if (t < n) { if (f[t] > f[t - 1]) out[f[t] - 1] = in[t]; } }",
              "store", "the address is chosen at run time among 2 positions in out"),
}

# what clang names values (add, sub3, idxprom, arrayidx, conv, cmp, %0):
# a reason never quotes them
IR_NAME = re.compile(r"\b(add|sub|mul|idxprom|arrayidx|conv|cmp|tmp|arg)\d*\b|%\d")


@pytest.fixture(scope="module")
def unknowns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict]]:
    source = tmp_path_factory.mktemp("reasons") / "reasons.cu"
    source.write_text("\n".join(k[0] for k in KERNELS.values()) + "\n")
    proc = subprocess.run([sys.executable, "-m", "coalda.cli", "analyze", "--json", str(source)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    kernels = json.loads(proc.stdout)["reports"][0]["kernels"]
    return {k["name"]: [a for a in k["accesses"] if a["class"] == "unknown"] for k in kernels}


@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_each_unknown_says_why(unknowns: dict[str, list[dict]], kernel: str) -> None:
    _, kind, reason = KERNELS[kernel]
    found = [a for a in unknowns[kernel] if a["kind"] == kind]
    assert found, f"{kernel}: no unknown {kind} (all: {unknowns[kernel]})"
    for access in found:
        assert access["reason"].startswith(reason), access["reason"]
        assert not IR_NAME.search(access["reason"]), access["reason"]
    # the kernels' other accesses are read
    if kernel != "among":  # the merged store's load is chosen the same way
        assert all(a["kind"] == kind for a in unknowns[kernel]), unknowns[kernel]


def test_every_unknown_the_census_counts_is_pinned(unknowns: dict[str, list[dict]]) -> None:
    """The pinned census's reasons for the programs' own unknown accesses
    (docs/programs/census.json, in its words) are each one of the kernels
    above, but for gathers through data."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from corpus_census import GATHER, reason_words
    finally:
        sys.path.pop(0)
    census = json.loads((ROOT / "docs" / "programs" / "census.json").read_text())
    counted = {why for reasons in census["totals"]["counts"]["own_unknown"].values() for why in reasons}
    pinned = {reason_words(a["reason"], 12) for found in unknowns.values() for a in found}
    assert counted - pinned - {GATHER} == set()
