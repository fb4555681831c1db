"""Random kernels for arrays staged in turn (StagingPlan::ArraysInTurn,
issue 39 item 5): each thread writes records of several arrays whose warp
tiles together do not fit 48 KB at 256 threads (lulesh's hgc: six 64-byte
records). Each kernel draws:

- 2-6 arrays of records of 4-32 doubles or 6-48 floats (24 to 256 bytes),
  whose sum is over 192 bytes per thread (so the tiles do not fit together)
  and of which most stay at most 192 bytes (one tile fits alone; a larger
  one must be refused);
- which members each array's stores write: all of them, or a random subset
  (the stored-units mask, written back per array), in a random order
  interleaved across the arrays (the store phase replays each array's in
  program order), one member sometimes stored twice (the later value wins);
- values from the thread's inputs through a select (a phi at -O0), sqrt or
  plain arithmetic;
- a guard: `if (i < n) {...}`, an early return, or an early return on data
  (`(alive[i] & 31) == 3`: a warp with a dead lane takes the original code);
- `__restrict__` or not (without it the oracle also runs the buffers
  overlapping: the run-time checks between the arrays), a read of the first
  array's element back through another pointer after the stores (the rows
  must be written back first), blocks of 32 to 256 threads.

The emulator runs each before and after under every layout and schedule
(tests/test_turn_fuzz.py); the test checks the bytes and that the family
exercises the rewrite.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

GUARDS = ("if", "return", "data_exit")
WIDTH = {"double": 8, "float": 4}


@dataclass
class TurnArray:
    type_: str
    count: int  # members
    written: list[int]  # member indices the stores write, in the order drawn

    @property
    def size(self) -> int:
        return WIDTH[self.type_] * self.count


@dataclass
class TurnKernel:
    name: str
    arrays: list[TurnArray]
    guard: str
    restrict: bool
    block: int
    twice: tuple[int, int] | None  # (array, member) stored a second time
    readback: bool
    order: list[tuple[int, int]] = field(default_factory=list)  # (array, member) store order
    forms: list[str] = field(default_factory=list)  # value form per store

    def struct(self, j: int) -> str:
        return f"T_{self.name}_{j}"

    def source(self) -> str:
        r = " __restrict__" if self.restrict else ""
        lines = [f"struct {self.struct(j)} {{ {a.type_} v[{a.count}]; }};\n" for j, a in enumerate(self.arrays)]
        params = [f"{self.struct(j)} *{r} a{j}" for j in range(len(self.arrays))]
        params.append(f"const double *{r} x")
        if self.readback:
            params += [f"const {self.arrays[0].type_} *view", f"{self.arrays[0].type_} *{r} sink"]
        if self.guard == "data_exit":
            params.append("const unsigned char *alive")
        params.append("int n")
        lines.append(f"__global__ void {self.name}({', '.join(params)}) {{\n")
        lines.append("  int i = blockIdx.x * blockDim.x + threadIdx.x;\n")
        if self.guard == "if":
            lines.append("  if (i < n) {\n")
        else:
            lines.append("  if (i >= n) return;\n")
            if self.guard == "data_exit":
                lines.append("  if ((alive[i] & 31) == 3) return;\n")
            lines.append("  {\n")
        lines.append("    double t = x[i], u = x[(i + 7) % n];\n")
        stores = list(zip(self.order, self.forms))
        if self.twice:
            stores.append((self.twice, "-t * 3.0"))
        for (j, m), form in stores:
            cast = "(float)" if self.arrays[j].type_ == "float" else ""
            lines.append(f"    a{j}[i].v[{m}] = {cast}({form.format(k=m + 1, j=j + 2)});\n")
        if self.readback:
            count = self.arrays[0].count
            lines.append(f"    sink[i] = view[{count} * i + {self.arrays[0].written[0]}];\n")
        lines.append("  }\n}\n\n")
        return "".join(lines)

    def spec(self) -> str:
        params = [f'{{ name = "a{j}", inout = "{a.size}*n" }}' for j, a in enumerate(self.arrays)]
        params.append('{ name = "x", in = "8*n" }')
        if self.readback:
            width = WIDTH[self.arrays[0].type_]
            params += [f'{{ name = "view", in = "{self.arrays[0].size}*n" }}',
                       f'{{ name = "sink", out = "{width}*n" }}']
        if self.guard == "data_exit":
            params.append('{ name = "alive", in = "n" }')
        params.append('{ name = "n", value = "n" }')
        # x's doubles: every buffer keeps 8-byte alignment
        return (f"[kernels.{self.name}]\nblock = {self.block}\ngrid = \"cdiv(n, block)\"\nalign = 8\n"
                f"params = [{', '.join(params)}]\n")

    def fits_alone(self) -> bool:
        """The largest record's tile alone fits 48 KB at 256 threads."""
        return max(a.size for a in self.arrays) <= 192


FORMS = ("t * {k}.0 + {j}.0", "t > 0.5 ? u + {k}.0 : t - {j}.0", "sqrt(t + {k}.0) * u", "u * {j}.0 - t * {k}.0")


def _array(rng: np.random.Generator) -> TurnArray:
    type_ = str(rng.choice(["double", "double", "float"]))
    width = WIDTH[type_]
    size = int(rng.choice([24, 32, 48, 64, 64, 96, 128, 128, 192, 256], p=[.05, .1, .1, .2, .1, .1, .1, .1, .1, .05]))
    count = size // width
    members = list(range(count))
    if rng.random() < 0.3:  # written in part
        keep = int(rng.integers(max(1, count // 4), count))
        members = sorted(int(m) for m in rng.choice(members, size=keep, replace=False))
    return TurnArray(type_, count, members)


def random_kernels(seed: int, count: int) -> list[TurnKernel]:
    rng = np.random.default_rng([seed, 39])
    kernels = []
    for k in range(count):
        while True:
            arrays = [_array(rng) for _ in range(int(rng.integers(2, 7)))]
            if sum(a.size for a in arrays) > 192:
                break
        kernel = TurnKernel(f"turn{seed}_{k}", arrays, str(rng.choice(GUARDS, p=[0.3, 0.4, 0.3])),
                            bool(rng.random() < 0.5), int(rng.choice([32, 64, 96, 128, 256])),
                            None, bool(rng.random() < 0.3))
        order = [(j, m) for j, a in enumerate(arrays) for m in a.written]
        if rng.random() < 0.5:  # interleaved across the arrays
            rng.shuffle(order)
        kernel.order = [(int(j), int(m)) for j, m in order]
        kernel.forms = [str(rng.choice(FORMS)) for _ in order]
        if rng.random() < 0.3:
            kernel.twice = kernel.order[int(rng.integers(0, len(order)))]
        kernels.append(kernel)
    return kernels
