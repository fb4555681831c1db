"""Random one-copy kernels for flat grid variants (tests/flat_variant_kernels.py:
records of 3 to 24 bytes; 0 to 3 bounds, each an int, unsigned, long or
unsigned long parameter or a constant, `<` or `<=`, now and then swapped
(`n > i`) or on a cast index, written as nested ifs, `&&` chains or early
returns; indexes of 32 and 64 bits, now and then one per bound; random
run-time values of the bounds, negatives and type limits among them),
optimized with -coalda-reshape-launches and -coalda-reshape-block-loops at
-O3 and -O0, every variant against its original on the emulator
(coalda/check/variants.py: the original at G blocks, the variant at every
g of variant_blocks(G) with G appended, the four layouts, and the overlap
and alias layouts where no pointer is __restrict__; forward and reverse
schedules).

Why: the flat copy's element count min(G * blockDim.x, End...) folds the
bounds one by one, and the bug fixed in d21a5d5 (a signed bound n = -1
folded before an unsigned cap = 1000: smin gave -1, the umin after it read
2^64 - 1, the variant copied 1000 elements where the original copies none)
showed only for some combinations of bound types, order and values. The
generator draws such combinations at random, so that the next one shows.

Nothing vacuous: every kernel of a batch gets a variant at both levels
(the report's "launch": reshaped, a "flat copy" or a "block loop", the
variant defined in the after-IR), none is skipped by the emulator, each is
compared at every g and layout, and at least MIN_FLAT_SHARE of each
batch's kernels take the flat form at -O3 (-O3 joins two bounds tested
together into one `and`, whose kernel keeps the block loop: only the
generator's one-bound kernels and its nested bounds on indexes of two
widths are flat there). Observed (generator of 2026-12-04, seeds 0-59 of
10 kernels): 60% flat at -O3 (4 to 8 of a batch), 89% at -O0.

The planted bugs (test_generator_catches_the_unclamped_count): in each flat
variant of PLANT_SEED's batch, the signed bounds' clamp at 0 (`smax(End,
0)` that feeds a umin of the count) removed, as the brief's plant (the umin
reads the unclamped End: a negative one as 2^64 - 1) and as the code
before d21a5d5 (smin of the unclamped End: the bug as it was, for bounds
that are parameters). Both must mismatch in the aligned layout, where the
flat copy runs: by default the first at -O0 and the second at -O3, in a
campaign (COALDA_FLAT_FUZZ above BATCH) both at both levels. How often a
batch of 10 holds a kernel that catches them (seeds 0-59): the brief's
plant 68% at -O0, 50% at -O3; the bug as it was 32% at -O0, 13% at -O3
(at -O3 it needs two bounds on indexes of two widths, the signed one
nearer the copy), all four 8 of 60. So a campaign of 400 finds the old bug
many times over; one batch may not: PLANT_SEED is fixed, chosen (44) so
that its batch catches all four (three of its kernels catch the bug as it
was at -O0, two at -O3); it is the campaign's first batch, built once for
both tests. If the generator changes, choose another (the assertion says
so).

Found (plugin of 2026-12-04, 826b9f0; campaigns of 200 and 400 kernels):
- a pass bug, outside the flat copy: a 64-bit unsigned bound whose End is
  2^63 or more (`size_t i < n` with n = 2^64 - 1 or 2^63, a long n = -1
  compared with a size_t index, `i <= n` with n = 2^63 - 1). The region
  copy's rewrite computes its rows' active threads as clamp(End - first, 0,
  ntid) with smin/smax in i64 (RegionCopyEmitter::activeLeft and
  emitSlowPath; the fast path's `icmp sge Left, ntid` too): End - first
  reads negative, the row copies nothing (with n = 2^63 only block 0's)
  where the original copies every element. The rewritten kernel itself
  mismatches, without the reshape options too, at -O3 and -O0; a variant
  mismatches wherever its block loop runs (for a flat kernel every layout
  but the aligned one, where its flat copy's umin count is right, and the
  alias one, where dst is src). 24 of the 400 kernels of seeds 0-39
  (FlatKernel.wide_unsigned_end), 19 of them mismatching. Fixed the same
  day: such a bound is counted in i128 and clamped
  (RegionCopyEmitter::wideLeft); its reproducer is
  test_wide_unsigned_bound_is_counted_exactly, and the campaigns' 400
  kernels then all matched.
- no pass bug: partially overlapping struct assignments. A struct
  assignment `dst[i] = src[i]` (an llvm.memcpy) in the one-thread overlap
  layouts (dst = src +- align) is undefined behaviour, and the emulator's
  JIT lowers the same memcpy differently in the two modules (one reads all
  12 bytes first, the other writes 8 before it reads the last 4): fv44_2
  (an unguarded I3 copy, G = 6) at both levels, g = 1, and 5 more of the
  400 (of 88 that may); the rewrite itself sends that launch to the
  original memcpy. Left out (known_failure), fv44_2 pinned at -O3
  (KNOWN_UB).
Nothing else: every other variant computed its original's bytes.

Campaigns: COALDA_FLAT_FUZZ random kernels, in batches of BATCH (default
10: one batch, about 4 s for the file; 200: 22 s on two cores with -n
auto; `make fuzz`: 400, 36 s).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import function_text, in_function, optimize_levels, optimize_outputs
from flat_variant_kernels import FlatKernel, module_source, module_spec, random_kernels

from coalda.check.oracle import LAYOUTS, Verdict
from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.check.variants import SUFFIX, VariantsChecked, check_variants, variant_blocks, variant_symbols
from coalda.emulator.schedule import FORWARD, REVERSE

FUZZ = int(os.environ.get("COALDA_FLAT_FUZZ", "10"))
BATCH = 10
LEVELS = (3, 0)
OPTIONS = ("--pass-arg=-coalda-reshape-launches", "--pass-arg=-coalda-reshape-block-loops")
FLAT_FORM, LOOP_FORM = "flat copy", "block loop"
MIN_FLAT_SHARE = 0.4  # of a batch's kernels flat at -O3
# the generator's batch for the planted bugs (see the module's docstring),
# the campaign's first: the default run builds one batch for both tests
PLANT_SEED = 44
SEEDS = [PLANT_SEED, *(s for s in range(max(1, FUZZ // BATCH)) if s != PLANT_SEED)][:max(1, FUZZ // BATCH)]
# Known failures (the module's docstring, "Found"), not counted as failures:
# - the one-thread overlap layouts (dst = src + align, src - align) where a
#   struct assignment's records overlap in part: the source's behaviour is
#   undefined there (FlatKernel.assigns_overlapping), and the emulator's JIT
#   lowers the same llvm.memcpy differently in the before- and after-IR's
#   modules. The reproducer, fv44_2 at -O3 (KNOWN_UB), must still differ
#   there, and only there (when it stops, both lower alike: unpin it).
OVERLAP_SHIFT = {"overlap": 1, "overlap-back": -1}
KNOWN_UB = (44, "fv44_2", 3)


def known_failure(k: FlatKernel, layout: str, verdict: Verdict) -> bool:
    """Whether a failed comparison of K in LAYOUT is one of the known ones
    (a mismatch: a fault or a race is not)."""
    if verdict is not Verdict.MISMATCH:
        return False
    return layout in OVERLAP_SHIFT and k.assigns_overlapping(OVERLAP_SHIFT[layout] * k.align)


Built = tuple[list[FlatKernel], Path, dict[int, tuple[Path, dict]]]


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], Built]:
    """seed -> the batch of SEED, its source and spec, optimized at both
    levels (once a process: the planted bugs' batch is the campaign's
    first)."""
    @functools.cache
    def built(seed: int) -> Built:
        root = tmp_path_factory.mktemp(f"flat-{seed}")
        kernels = random_kernels(seed, BATCH)
        source = root / "flat.cu"
        source.write_text(module_source(kernels))
        source.with_suffix(".toml").write_text(module_spec(kernels))
        return kernels, source, optimize_levels(source, root, LEVELS, *OPTIONS, "-q")

    return built


def forms(report: dict, after: str) -> dict[str, str]:
    """Kernel -> its variant's form; asserts each kernel has one (a
    reshaped launch decision, the variant defined in the after-IR, the flat
    copy's blocks exactly in the flat ones)."""
    variants = variant_symbols(after)
    found = {}
    for k in report["kernels"]:
        launch = k.get("launch")
        assert launch and launch["reshaped"] and launch["form"] in (FLAT_FORM, LOOP_FORM), (k["name"], launch)
        assert launch["variant"] == k["symbol"] + SUFFIX and k["symbol"] in variants, (k["name"], launch)
        body = function_text(after, k["symbol"] + SUFFIX)
        assert ("%flat.gids = " in body) == (launch["form"] == FLAT_FORM), k["name"]
        found[k["name"]] = launch["form"]
    return found


def failures(run: VariantsChecked, kernels: list[FlatKernel]) -> list[str]:
    """The failed comparisons, the known ones aside."""
    by_name = {k.name: k for k in kernels}
    return [str(r) for r in run.failures
            if not known_failure(by_name[r.result.kernel], r.result.layout, r.result.verdict)]


@pytest.mark.parametrize("batch", SEEDS)
def test_random_flat_variants(batch: int, build: Callable[[int], Built],
                              record_property: pytest.RecordProperty) -> None:
    kernels, source, levels = build(batch)
    names = {k.name for k in kernels}
    spec = load_spec(source.with_suffix(".toml"))
    for level in LEVELS:
        out, report = levels[level]
        c = optimize_outputs(out, "flat")
        form = forms(report, c.after_ir)
        assert set(form) == names, sorted(names ^ set(form))
        flat = sum(f == FLAT_FORM for f in form.values())
        record_property(f"flat_O{level}", flat)
        if level == 3:
            assert flat >= MIN_FLAT_SHARE * len(kernels), (
                f"only {flat} of {len(kernels)} kernels flat at -O3", source.read_text())
        run = check_variants(c, spec, schedules=(FORWARD, REVERSE), seed=batch)
        assert not run.skipped, run.skipped
        assert run.kernels() == names, sorted(names - run.kernels())
        for k in kernels:
            mine = [r for r in run.results if r.result.kernel == k.name]
            assert {r.grid for r in mine} == {k.grid}, k.name
            assert {r.blocks for r in mine} == set(variant_blocks(k.grid)), k.name
            assert {(r.result.layout, r.result.schedule) for r in mine} >= {
                (layout.name, str(s)) for layout in LAYOUTS for s in (FORWARD, REVERSE)}, k.name
            # the overlap and alias layouts exactly where no pointer is __restrict__
            together = {r.result.layout for r in mine} - {layout.name for layout in LAYOUTS}
            assert together == (set() if k.restrict else {*OVERLAP_SHIFT, "alias"}), (k.name, together)
            # only the alias layout may go unchecked, where the original's
            # threads race on the one buffer (element offsets)
            unchecked = {r.result.layout for r in mine if r.result.verdict is Verdict.UNCHECKED}
            assert unchecked <= ({"alias"} if k.dst_off != k.src_off else set()), (k.name, unchecked)
        bad = failures(run, kernels)
        assert not bad, "\n".join([f"-O{level}:", *bad[:12], source.read_text()])
        seed, name, at = KNOWN_UB
        if (seed, at) == (batch, level):  # the reproducer still differs, where it did
            assert {r.result.layout for r in run.failures if r.result.kernel == name} == set(OVERLAP_SHIFT), name


# The planted bugs: each edits the count's folds in every flat variant.
CLAMP = re.compile(r"^\s*(%[\w.]+) = call i64 @llvm\.smax\.i64\(i64 (%[\w.]+), i64 0\)", re.M)
FOLD = re.compile(r"^(\s*)(%[\w.]+) = call i64 @llvm\.umin\.i64\(i64 (%[\w.]+), i64 (%[\w.]+)\)", re.M)


def folds(body: str) -> list[re.Match[str]]:
    """The count's umins, in order: the first reads %flat.gids, each next
    one the one before."""
    chain, count = [], "%flat.gids"
    for m in FOLD.finditer(body):
        if m[3] == count:
            chain.append(m)
            count = m[2]
    return chain


def unclamped(body: str) -> str:
    """The brief's plant: each signed bound's clamp `smax(End_k, 0)` that
    feeds a fold is End_k itself (the umin then reads a negative End_k as
    2^64 - 1)."""
    clamps = dict(CLAMP.findall(body))
    for m in folds(body):
        if m[4] in clamps:
            body = re.sub(rf"^(\s*){re.escape(m[4])} = call i64 @llvm\.smax\.i64\(i64 (%[\w.]+), i64 0\)",
                          rf"\1{m[4]} = add i64 \2, 0", body, count=1, flags=re.M)
    return body


def before_the_fix(body: str) -> str:
    """The count as d21a5d5 found it: a signed parameter's bound folded by
    smin, not clamped (a negative End then reads as 2^64 - 1 in a later
    bound's umin). A constant bound's fold stays a umin (the IR does not say
    whether the constant is signed: the fold of a signed one was an smin
    before d21a5d5, and is a umin here, as an unsigned one's)."""
    clamps = dict(CLAMP.findall(body))
    for m in reversed(folds(body)):
        if m[4] in clamps:
            body = (body[:m.start()] + f"{m[1]}{m[2]} = call i64 @llvm.smin.i64(i64 {m[3]}, i64 {clamps[m[4]]})"
                    + body[m.end():])
    # The count kept at most G * blockDim.x, the elements the buffers hold:
    # the bug copies an unsigned bound's count (cap = 4294967295: 4 G
    # elements), and the emulator, which runs the IR natively, would write
    # past the buffers (a segfault of the test's process, seen while
    # choosing PLANT_SEED). A bug that copies anything where the original
    # copies nothing still shows.
    return re.sub(r"^(\s*)%flat\.bytes = mul i64 (%[\w.]+), ",
                  r"\1%flat.safe = call i64 @llvm.umin.i64(i64 \2, i64 %flat.gids)\n"
                  r"\1%flat.bytes = mul i64 %flat.safe, ", body, count=1, flags=re.M)


def planted_module(after: str, symbols: list[str], edit: Callable[[str], str]) -> str:
    """AFTER with EDIT applied to each of SYMBOLS' bodies."""
    for symbol in symbols:
        after = in_function(after, symbol, edit)
    if "@llvm.smin.i64(" in after and "declare i64 @llvm.smin.i64(" not in after:
        after += "\ndeclare i64 @llvm.smin.i64(i64, i64)\n"
    return after


# (edit, level): both edits at both levels where a campaign runs (all four
# catch in PLANT_SEED's batch); by default the brief's plant at -O0 and the
# bug as it was at -O3 (its rarer shape: two bounds on indexes of two
# widths), each planted module one more JIT compilation (0.3 s).
PLANTS = ([(unclamped, 3), (unclamped, 0), (before_the_fix, 3), (before_the_fix, 0)] if FUZZ > BATCH
          else [(unclamped, 0), (before_the_fix, 3)])


@pytest.mark.parametrize(("edit", "level"), PLANTS, ids=[f"{e.__name__}-O{lv}" for e, lv in PLANTS])
def test_generator_catches_the_unclamped_count(edit: Callable[[str], str], level: int,
                                               build: Callable[[int], Built]) -> None:
    """The batch of PLANT_SEED, EDIT planted into each flat variant at
    -O<LEVEL>: some comparison mismatches in the aligned layout (where the
    flat copy runs; forward schedule only), and only in kernels with a
    negative signed bound (the pre-fix plant: and a positive unsigned one, or
    a constant one). Kernels of a known failure are left out."""
    kernels, source, levels = build(PLANT_SEED)
    spec = load_spec(source.with_suffix(".toml"))
    by_name = {k.name: k for k in kernels}
    out, report = levels[level]
    c = optimize_outputs(out, "flat")
    form = forms(report, c.after_ir)
    flat = [k["symbol"] + SUFFIX for k in report["kernels"] if form[k["name"]] == FLAT_FORM]
    after = planted_module(c.after_ir, flat, edit)
    assert after != c.after_ir, f"-O{level}: the plant matched nothing"
    planted = Compiled(c.before_ir, after, "", "", c.report)
    run = check_variants(planted, spec, schedules=(FORWARD,), layouts=LAYOUTS[:1], overlap=False,
                         kernels={n for n, f in form.items() if f == FLAT_FORM})
    assert not run.skipped, run.skipped
    caught = {r.result.kernel for r in run.failures}
    assert caught, f"-O{level}: the planted {edit.__name__} was not caught; choose another PLANT_SEED"
    assert all(r.result.verdict is Verdict.MISMATCH for r in run.failures)
    assert all(by_name[n].negative_signed_bound() for n in caught), sorted(caught)
    if edit is before_the_fix:
        assert all(by_name[n].folds_negative_before_unsigned()
                   or any(b.kind == "const" for b in by_name[n].bounds) for n in caught), sorted(caught)


# The bug this generator found (the module's docstring, "Found"), reduced:
# a 64-bit unsigned bound of 2^64 - 1 (the original copies all 1024
# records). The region copy read its count End - first as a signed i64
# (RegionCopyEmitter::activeLeft) and copied nothing: the rewritten kernel
# itself (with or without the reshape options, at -O3 and -O0), and so the
# variant's block loop, which runs the rewritten body per original block,
# in every layout but the aligned one (the flat copy) and the alias one.
# Fixed: a bound of 64-bit sides is counted in i128 and clamped
# (wideLeft). Now every comparison matches, at both levels; at g = G in
# the misaligned layouts the block loop is the rewritten kernel, block by
# block.
WIDE_SOURCE = """struct I3 {
  int x, y, z;
};

__global__ void wide_unsigned(I3 *dst, const I3 *src, unsigned long n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dst[i].x = src[i].x;
    dst[i].y = src[i].y;
    dst[i].z = src[i].z;
  }
}
"""
WIDE_SPEC = """sizes = [1]

[kernels.wide_unsigned]
block = 128
grid = 8
align = 4
params = [{ name = "dst", inout = "12288" }, { name = "src", in = "12288" },
          { name = "n", value = "18446744073709551615" }]
"""


@pytest.mark.parametrize("level", LEVELS)
def test_wide_unsigned_bound_is_counted_exactly(tmp_path: Path, level: int) -> None:
    source = tmp_path / "wide.cu"
    source.write_text(WIDE_SOURCE)
    source.with_suffix(".toml").write_text(WIDE_SPEC)
    out, report = optimize_levels(source, tmp_path, (level,), *OPTIONS, "-q")[level]
    c = optimize_outputs(out, "wide")
    assert forms(report, c.after_ir) == {"wide_unsigned": FLAT_FORM}
    run = check_variants(c, load_spec(source.with_suffix(".toml")), schedules=(FORWARD,))
    assert not run.skipped and run.kernels() == {"wide_unsigned"}
    assert {r.result.layout for r in run.results} >= {"aligned", "offset", "offset-max", "mixed"}
    assert not run.failures, [str(r) for r in run.failures[:3]]
