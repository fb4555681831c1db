"""Random CUDA copy kernels for the differential fuzzer (tests/test_fuzz.py)."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from coalda.spec import KernelSpec, Param

# C type -> (size, alignment)
TYPES = {"char": 1, "short": 2, "int": 4, "float": 4, "long long": 8, "double": 8}
BLOCKS = (32, 36, 64, 96, 100, 128)


@dataclass(frozen=True)
class FuzzKernel:
    members: tuple[str, ...]  # element layout: struct members (or one type for arrays)
    array: bool  # `dst[c*i+k]` on a plain array instead of struct members
    statements: tuple[tuple[int, int], ...]  # (dst member, src member) in program order
    index: str  # gid | tid | 2d | guard | early_return | gridstride | uniform_loop
    restrict: bool
    block: int
    blocks: int  # in x (and in y for 2d)
    tail: int = 0  # guarded kinds: n = block*blocks - tail (a partial last block)
    # arrays: the stride is the kernel argument `s` (launched as the element's
    # count plus stride_extra, so the rewrite's run-time check takes either way)
    runtime_stride: bool = False
    stride_extra: int = 0

    @property
    def layout(self) -> tuple[int, int]:
        """(sizeof, alignof) of one element, as C lays it out."""
        if self.array:
            size = TYPES[self.members[0]]
            return size * len(self.members), size
        offset, align = 0, 1
        for t in self.members:
            size = TYPES[t]
            offset = -(-offset // size) * size
            offset += size
            align = max(align, size)
        return -(-offset // align) * align, align

    @property
    def expect_rewrite(self) -> bool:
        """A whole, in-place copy of a padding-free element wider than a member."""
        size, _ = self.layout
        copied = sorted(d for d, _ in self.statements)
        pure = all(d == s for d, s in self.statements)
        if self.runtime_stride:
            # The stride is unknown statically: contiguous members are a
            # candidate element, rewritten behind a check that the stride is
            # their size (the launch decides which path runs).
            contiguous = copied == list(range(copied[0], copied[0] + len(copied)))
            return contiguous and pure and len(copied) > 1
        whole = copied == list(range(len(self.members)))
        padded = sum(TYPES[t] for t in self.members) != size
        return whole and pure and not padded and len(self.members) > 1

    def source(self, name: str) -> str:
        r = "__restrict__ " if self.restrict else ""
        size, _ = self.layout
        gid = "int i = blockIdx.x * blockDim.x + threadIdx.x;"
        index, close = {
            "gid": (gid, ""),
            "tid": ("int i = threadIdx.x;", ""),
            "2d": ("int x = blockIdx.x * blockDim.x + threadIdx.x;\n"
                   "  int y = blockIdx.y * blockDim.y + threadIdx.y;\n  int i = y * width + x;", ""),
            "guard": (gid + "\n  if (i < n) {", "  }\n"),
            "early_return": (gid + "\n  if (i >= n)\n    return;", ""),
            "gridstride": ("for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {", "  }\n"),
            "uniform_loop": ("for (int k = 0; k < n; k++) {\n  int i = k * gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x;", "  }\n"),
        }[self.index]
        width = {"2d": ", int width", "gid": "", "tid": ""}.get(self.index, ", int n")
        if self.array:
            t, c = self.members[0], len(self.members)
            if self.runtime_stride:
                c, width = "s", width + ", int s"
            head = f"__global__ void {name}({t} *{r}dst, const {t} *{r}src{width}) {{"
            body = [f"  dst[{c} * i + {d}] = src[{c} * i + {s}];" for d, s in self.statements]
            struct = ""
        else:
            fields = " ".join(f"{t} m{k};" for k, t in enumerate(self.members))
            struct = f"struct {name}_t {{ {fields} }};\n"
            head = f"__global__ void {name}({name}_t *{r}dst, const {name}_t *{r}src{width}) {{"
            body = [f"  dst[i].m{d} = src[i].m{s};" for d, s in self.statements]
        assert size > 0
        return struct + head + "\n  " + index + "\n" + "\n".join(body) + "\n" + close + "}\n"

    def spec(self, name: str) -> tuple[KernelSpec, int]:
        """The launch, and the n it covers."""
        spec, n = self._spec(name)
        if not self.runtime_stride:
            return spec, n
        # elements of `s` members: buffers sized for the launched stride
        stride = len(self.members) + self.stride_extra
        member = TYPES[self.members[0]]
        params = tuple(
            Param(p.name, p.kind, f"{stride * member}*n") if p.is_buffer else p for p in spec.params
        ) + (Param("s", "value", stride),)
        return KernelSpec(spec.name, params, spec.grid, spec.block, spec.same_as, spec.align), n

    def _spec(self, name: str) -> tuple[KernelSpec, int]:
        size, align = self.layout
        bytes_ = f"{size}*n"
        params = [Param("dst", "out", bytes_), Param("src", "in", bytes_)]
        if self.index == "2d":
            width = self.block * self.blocks
            params.append(Param("width", "value", width))
            spec = KernelSpec(name, tuple(params), grid=[self.blocks, self.blocks], block=[self.block, 2], align=align)
            return spec, width * 2 * self.blocks
        if self.index in ("guard", "early_return"):
            n = self.block * self.blocks - self.tail
            return KernelSpec(name, (*params, Param("n", "value", n)), grid=self.blocks, block=self.block, align=align), n
        if self.index == "gridstride":
            # fewer threads than elements: every thread runs several iterations
            n = self.block * self.blocks * 3 - self.tail
            return KernelSpec(name, (*params, Param("n", "value", n)), grid=self.blocks, block=self.block, align=align), n
        if self.index == "uniform_loop":
            rounds = 2
            spec = KernelSpec(name, (*params, Param("n", "value", rounds)), grid=self.blocks, block=self.block, align=align)
            return spec, self.block * self.blocks * rounds
        if self.index == "tid":
            return KernelSpec(name, tuple(params), grid=1, block=self.block, align=align), self.block
        return KernelSpec(name, tuple(params), grid=self.blocks, block=self.block, align=align), self.block * self.blocks


@st.composite
def fuzz_kernels(draw: st.DrawFn) -> FuzzKernel:
    array = draw(st.booleans())
    if array:
        members = (draw(st.sampled_from(sorted(TYPES))),) * draw(st.integers(1, 8))
    else:
        members = tuple(draw(st.lists(st.sampled_from(sorted(TYPES)), min_size=1, max_size=8)))
    k = len(members)
    order = draw(st.permutations(range(k)))
    kind = draw(st.sampled_from(["whole", "whole", "whole", "partial", "swizzle"]))
    statements = [(d, d) for d in order]
    if kind == "partial" and k > 1:
        statements = statements[: draw(st.integers(1, k - 1))]
    if kind == "swizzle":
        # swap the sources of two members of one type (a real swizzle, no conversion)
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k) if members[a] == members[b]]
        if pairs:
            a, b = draw(st.sampled_from(pairs))
            statements = [(d, b if d == a else a if d == b else d) for d, _ in statements]
    index = draw(st.sampled_from(["gid", "gid", "tid", "2d", "guard", "early_return", "gridstride", "uniform_loop"]))
    block = draw(st.sampled_from(BLOCKS))
    runtime = array and index in ("gid", "guard") and draw(st.booleans())
    return FuzzKernel(
        members, array, tuple(statements), index, draw(st.booleans()), block, draw(st.integers(1, 3)),
        draw(st.integers(0, block - 1)), runtime, draw(st.integers(0, 1)) if runtime else 0,
    )
