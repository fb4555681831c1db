"""The pass's prediction of the vectors the backend makes (`vector`,
pass/lib/BackendVectors.cpp) against the PTX llc-19 makes of the same IR.

Random kernels read or write some members of a per-thread element (built-in
vector types, and records of 1- to 8-byte members aligned to their member or
to the element), in a shuffled order, sometimes with an access between them
that may alias a member, or with one member under a branch. For each kernel
the analysis says whether the element moves as one vector as wide as the
stride; the PTX says whether it does: the two must agree. Findings class
such accesses as coalesced, so a wrong "yes" would hide real waste and a
wrong "no" reports waste that is not there."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

MEMBER_TYPES = {"char": 1, "short": 2, "float": 4, "int": 4, "double": 8}
PTX_BYTES = {"8": 1, "16": 2, "32": 4, "64": 8}


@dataclass
class VectorKernel:
    name: str
    source: str
    stride: int  # bytes of the element
    store: bool  # the element's members are written, not read


def element(rng: random.Random, k: int) -> tuple[str, str, int, int]:
    """(type definition, type name, member width, member count)."""
    builtins = [("float2", "float", 2), ("float4", "float", 4), ("int2", "int", 2), ("int4", "int", 4),
                ("double2", "double", 2), ("char4", "char", 4), ("short2", "short", 2), ("short4", "short", 4)]
    if rng.random() < 0.4:
        name, member, n = rng.choice(builtins)
        return "", name, MEMBER_TYPES[member], n
    member = rng.choice(list(MEMBER_TYPES))
    width = MEMBER_TYPES[member]
    n = rng.choice([2, 3, 4]) if width < 8 else 2
    if n * width > 16:
        n = 16 // width
    # aligned to the element (as the vector types are) or to the member only
    size = n * width
    align = size if size & (size - 1) == 0 and rng.random() < 0.6 else width
    fields = " ".join(f"{member} {'xyzw'[j]};" for j in range(n))
    return f"struct __align__({align}) rec{k} {{ {fields} }};\n", f"rec{k}", width, n


def make_kernel(rng: random.Random, k: int) -> VectorKernel:
    definition, ty, width, n = element(rng, k)
    names = list("xyzw"[:n])
    store = rng.random() < 0.4
    chosen = names if rng.random() < 0.6 else sorted(rng.sample(names, rng.randint(1, n)))
    order = rng.sample(chosen, len(chosen))
    between = rng.choice(["none", "none", "alias", "branch"]) if len(order) > 1 else "none"
    name = f"vk{k}"
    lines = ["  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  float acc = i * 0.25f;"]
    for j, m in enumerate(order):
        if j == 1 and between == "alias":
            # a float the compiler cannot tell apart from a float member
            lines.append("  acc += r[i];" if store else "  r[i] = acc;")
        if store:
            stmt = f"  p[i].{m} = ({'char' if width == 1 else 'short' if width == 2 else 'float'})(acc + {j});"
        else:
            stmt = f"  acc += (float)p[i].{m};"
        if j == len(order) - 1 and between == "branch":
            stmt = f"  if (acc > 0.5f) {stmt.strip()}"
        lines.append(stmt)
    if not store:
        lines.append("  out[i] = acc;")
    const = "" if store else "const "
    body = "\n".join(lines)
    source = (f"{definition}__global__ void {name}(float *out, {const}{ty} *p, float *r) {{\n"
              f"{body}\n}}\n")
    return VectorKernel(name, source, width * n, store)


def ptx_entries(ptx: str) -> dict[str, str]:
    parts = re.split(r"\.visible \.entry (\w+)\(", ptx)
    return {parts[j]: parts[j + 1] for j in range(1, len(parts) - 1, 2)}


def moved_whole(body: str, store: bool, stride: int) -> bool:
    """Whether the kernel's PTX moves stride bytes of the element in one
    access: `ld.global.v2.f32`, or a scalar as wide (four chars: u32). The
    element is the kernel's only global load (or store)."""
    op = "st" if store else "ld"
    for vec, bits in re.findall(rf"\b{op}\.global(?:\.nc)?(?:\.v(\d))?\.[a-z]+(\d+)\b", body):
        if (int(vec) if vec else 1) * PTX_BYTES[bits] == stride:
            return True
    return False


def kernels(seed: int, count: int) -> list[VectorKernel]:
    rng = random.Random(seed)
    out = [make_kernel(rng, k) for k in range(count)]
    # an element of one byte per thread, or wider than a vector, is no case
    return [k for k in out if 2 <= k.stride <= 16 and k.stride & (k.stride - 1) == 0] + \
        [k for k in out if not (2 <= k.stride <= 16 and k.stride & (k.stride - 1) == 0)]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[VectorKernel], dict, dict[str, str]]:
    found = kernels(seed=20261202, count=80)
    tmp = tmp_path_factory.mktemp("vectors")
    source = tmp / "vectors.cu"
    source.write_text("\n".join(k.source for k in found))
    proc = subprocess.run([sys.executable, "-m", "coalda.cli", "optimize", str(source), "-o", str(tmp), "-q"],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert proc.returncode == 0, proc.stderr
    report = json.loads((tmp / "vectors.report.json").read_text())
    by_name = {k["name"]: k for k in report["kernels"]}
    return found, by_name, ptx_entries((tmp / "vectors.before.ptx").read_text())


def predicted(kernel: dict, k: VectorKernel) -> bool:
    kind = "store" if k.store else "load"
    return any(a.get("vector") == k.stride for a in kernel["accesses"] if a["kind"] == kind)


def test_prediction_is_the_ptx(compiled: tuple[list[VectorKernel], dict, dict[str, str]]) -> None:
    found, by_name, entries = compiled
    wrong = []
    for k in found:
        symbol = next(s for s in entries if re.fullmatch(rf"_Z\d+{k.name}\w*", s))
        made = moved_whole(entries[symbol], k.store, k.stride)
        said = predicted(by_name[k.name], k)
        if made != said:
            wrong.append(f"{k.name}: pass says {'vector' if said else 'none'}, PTX {'has' if made else 'has none'}:\n"
                         f"{k.source}")
    assert not wrong, "\n".join(wrong)


def test_the_random_kernels_have_both_outcomes(compiled: tuple[list[VectorKernel], dict, dict[str, str]]) -> None:
    """A generator whose kernels all vectorize, or none, checks nothing."""
    found, by_name, _ = compiled
    said = [predicted(by_name[k.name], k) for k in found]
    assert sum(said) >= 10 and len(said) - sum(said) >= 10, sum(said)


def test_a_vector_access_is_coalesced_and_no_finding(compiled: tuple[list[VectorKernel], dict, dict[str, str]]) -> None:
    _, by_name, _ = compiled
    vectors = [a for k in by_name.values() for a in k["accesses"] if a.get("vector")]
    assert vectors
    assert all(a["class"] == "coalesced" and a["coalesced"] for a in vectors)
