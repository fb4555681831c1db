"""Random naive transposes for the transposed-store rewrite (issue 13): a 2-D
kernel whose thread (x, y) reads row y of `in` and writes column y of `out`,
`out[x*N + y] = f(in[y*M + x])`, that COALDA may permute through a padded
__shared__ tile.

Each kernel draws:

- its element types (float, double, int, short, char; `out`'s may differ
  from `in`'s);
- its block shape (32x8, 16x16, 8x32, 32x4, 64x4, 16x8, 32x16, 8x8, and
  16x4x2, whose z-layers take rows of their own: the rewrite must send
  such a block to the original code)
  and sometimes `__launch_bounds__` of it;
- its index arithmetic: int, unsigned or size_t coordinates, pitches wider
  than the matrix on either side, constant offsets into either array, and
  sometimes a batch of z-slices (`blockIdx.z` selects the matrix);
- its guard: `x < M && y < N`, the same swapped, an early return on
  `x >= M || y >= N`, two nested ifs, or none (the matrix then a multiple
  of the block);
- its value: a scaled copy, a function of CUDA's math library, a second
  input at the same row index, a factor loaded from memory, or a
  read-modify-write of the transposed element;
- and sometimes a read of the stored element back after the store, into a
  third array (the permuted store is deferred past the barrier: the read
  must still see it), with or without `__restrict__` (without it the
  oracle also runs the buffers overlapping, by one thread).

The matrix is M = n columns by N rows (or the other way round), sides that
are not multiples of the block. The emulator runs each before and after
under every layout and schedule; the test checks the bytes, and that the
canonical forms (a guard over both sides, no read-back, a block of more
than one warp in one z-layer) are transposed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

SIZES = {"float": 4, "double": 8, "int": 4, "short": 2, "char": 1}
TYPES = (("float", "float"), ("double", "double"), ("int", "int"), ("float", "double"), ("double", "float"),
         ("short", "short"), ("char", "char"), ("int", "float"))
BLOCKS = ((32, 8, 1), (16, 16, 1), (8, 32, 1), (32, 4, 1), (64, 4, 1), (16, 8, 1), (32, 16, 1), (8, 8, 1),
          (16, 4, 2))
COORDS = ("int", "unsigned", "size_t")
GUARDS = ("and", "swapped", "return", "nested", "none")
VALUES = ("scaled", "math", "second", "factor", "rmw")


@dataclass
class TransposeKernel:
    name: str
    types: tuple[str, str]  # (in's element, out's)
    block: tuple[int, int, int]
    coords: str
    guard: str
    value: str
    restrict: bool
    bounds: bool  # __launch_bounds__ of the block's threads
    wide: bool  # M = n columns (else N = n rows)
    extra: int  # the other side: n // 2 + extra
    pitch_in: int  # elements past M in each row of `in`
    pitch_out: int  # past N in each row of `out`
    off_in: int  # elements before the matrix in `in`
    off_out: int
    batch: int  # z-slices (grid z), 1 for one matrix
    readback: bool  # sink[y*M + x] = out[x*N + y] after the store

    @property
    def promise(self) -> bool | None:
        """True: the README promises the transposed staging (the issue's
        shape: both bounds in one guard, one store, a computed value);
        None: either is right (the rewrite decides by how -O3 shapes the
        code: nested ifs, char and short widths, the read-back's check)."""
        if self.guard in ("nested", "none") or self.readback or self.value == "factor":
            return None
        if min(SIZES[t] for t in self.types) < 4 or self.coords == "unsigned":
            return None
        return True

    def _sides(self) -> tuple[str, str]:
        other = f"(n // 2 + {self.extra})"
        if self.guard == "none":  # whole blocks: sides that are multiples of the block
            bx, by, bz = self.block
            rows = by * bz
            return f"({bx} * (n // {bx} + 1))", f"({rows} * (n // {2 * rows} + 1))"
        return ("n", other) if self.wide else (other, "n")

    def source(self) -> str:
        ti, to = self.types
        r = "__restrict__ " if self.restrict else ""
        threads = self.block[0] * self.block[1] * self.block[2]
        bounds = f"__launch_bounds__({threads}) " if self.bounds else ""
        params = [f"{to} *{r}out", f"const {ti} *{r}in"]
        if self.value == "second":
            params.append(f"const {ti} *{r}b")
        if self.value == "factor":
            params.append(f"const float *{r}s")
        if self.readback:
            params.append(f"float *{r}sink")
        params += ["int M", "int N"]
        c = {"int": "int", "unsigned": "unsigned", "size_t": "size_t"}[self.coords]
        cast = "(size_t)" if self.coords == "size_t" else ""
        bound = {"int": "", "unsigned": "(unsigned)", "size_t": "(size_t)"}[self.coords]
        # a block of several z-layers: each layer its own rows
        layer = "(blockIdx.y * blockDim.z + threadIdx.z) * blockDim.y" if self.block[2] > 1 else \
            "blockIdx.y * blockDim.y"
        lines = [f"__global__ void {bounds}{self.name}({', '.join(params)}) {{",
                 f"  {c} x = {cast}blockIdx.x * blockDim.x + threadIdx.x;",
                 f"  {c} y = {cast}{layer} + threadIdx.y;"]
        row_in = f"({bound}M + {self.pitch_in})" if self.pitch_in else f"{bound}M"
        row_out = f"({bound}N + {self.pitch_out})" if self.pitch_out else f"{bound}N"
        zin = zout = zsink = ""
        if self.batch > 1:
            lines.append("  size_t z = blockIdx.z;")
            zin = f"z * ((size_t)N * (M + {self.pitch_in}) + {self.off_in}) + "
            zout = f"z * ((size_t)M * (N + {self.pitch_out}) + {self.off_out}) + "
            zsink = "z * (size_t)M * N + "
        at_in = f"{zin}y * {row_in} + x + {self.off_in}"
        at_out = f"{zout}x * {row_out} + y + {self.off_out}"
        value = {
            "scaled": f"in[{at_in}] * 2 + 1",
            "math": f"sqrtf(fabsf((float)in[{at_in}])) + 1.0f",
            "second": f"in[{at_in}] - b[{at_in}] * 3",
            "factor": f"(float)in[{at_in}] * s[blockIdx.y & 3]",
            "rmw": f"out[{at_out}] / 2 + in[{at_in}]",
        }[self.value]
        body = [f"out[{at_out}] = ({to})({value});"]
        if self.readback:
            body.append(f"sink[{zsink}y * {bound}M + x] = (float)out[{at_out}] + 0.5f;")
        test = {"and": f"x < {bound}M && y < {bound}N", "swapped": f"y < {bound}N && x < {bound}M"}
        if self.guard in test:
            lines += [f"  if ({test[self.guard]}) {{", *(f"    {b}" for b in body), "  }"]
        elif self.guard == "return":
            lines += [f"  if (x >= {bound}M || y >= {bound}N) return;", *(f"  {b}" for b in body)]
        elif self.guard == "nested":
            lines += [f"  if (x < {bound}M) {{", f"    if (y < {bound}N) {{", *(f"      {b}" for b in body),
                      "    }", "  }"]
        else:
            lines += [f"  {b}" for b in body]
        lines.append("}")
        return "\n".join(lines) + "\n"

    def spec(self) -> str:
        """The launch spec (TOML): the grid covers the matrix (and the
        batch), every buffer at its element's alignment."""
        ti, to = self.types
        m, n = self._sides()
        z = self.batch
        size_in = f"{SIZES[ti]}*{z}*({n}*({m} + {self.pitch_in}) + {self.off_in})"
        size_out = f"{SIZES[to]}*{z}*({m}*({n} + {self.pitch_out}) + {self.off_out})"
        inout = "inout" if self.value == "rmw" else "out"
        params = [f'{{ name = "out", {inout} = "{size_out}", align = {SIZES[to]} }}',
                  f'{{ name = "in", in = "{size_in}", align = {SIZES[ti]} }}']
        if self.value == "second":
            params.append(f'{{ name = "b", in = "{size_in}", align = {SIZES[ti]} }}')
        if self.value == "factor":
            params.append('{ name = "s", in = "16", align = 4 }')
        if self.readback:
            params.append(f'{{ name = "sink", out = "4*{z}*{m}*{n}", align = 4 }}')
        params += [f'{{ name = "M", value = "{m}" }}', f'{{ name = "N", value = "{n}" }}']
        bx, by, bz = self.block
        grid = f'["cdiv({m}, block)", "cdiv({n}, block_y * {bz})", {z}]'
        # the overlap layouts put the buffers `align` bytes apart: the widest
        align = max(SIZES[ti], SIZES[to], 4 if self.readback or self.value == "factor" else 1)
        return (f"[kernels.{self.name}]\nblock = [{bx}, {by}, {bz}]\ngrid = {grid}\nalign = {align}\n"
                f"params = [{', '.join(params)}]\n")


def random_transposes(seed: int, count: int) -> list[TransposeKernel]:
    rng = np.random.default_rng([seed, 13])
    kernels = []
    for k in range(count):
        types = TYPES[int(rng.integers(len(TYPES)))]
        block = BLOCKS[int(rng.integers(len(BLOCKS)))]
        kernels.append(TransposeKernel(
            f"tr{seed}_{k}", types, block,
            coords=str(rng.choice(COORDS, p=[0.5, 0.2, 0.3])),
            guard=str(rng.choice(GUARDS, p=[0.35, 0.15, 0.2, 0.15, 0.15])),
            value=str(rng.choice(VALUES, p=[0.3, 0.2, 0.2, 0.1, 0.2])),
            restrict=bool(rng.random() < 0.4),
            bounds=bool(rng.random() < 0.25),
            wide=bool(rng.random() < 0.5),
            extra=int(rng.integers(1, 9)),
            pitch_in=int(rng.choice([0, 0, 0, 1, 3])),
            pitch_out=int(rng.choice([0, 0, 0, 2, 5])),
            off_in=int(rng.choice([0, 0, 1, 7])),
            off_out=int(rng.choice([0, 0, 1, 5])),
            batch=int(rng.choice([1, 1, 1, 2])),
            readback=bool(rng.random() < 0.2),
        ))
    return kernels


def write_batch(root: Path, kernels: list[TransposeKernel], sizes: str, stem: str = "tr") -> Path:
    """The kernels as ROOT/STEM.cu, with their launch spec (SIZES, a TOML
    list) beside it."""
    source = root / f"{stem}.cu"
    source.write_text("".join(k.source() for k in kernels))
    (root / f"{stem}.toml").write_text(f"sizes = {sizes}\n\n" + "\n".join(k.spec() for k in kernels))
    return source
