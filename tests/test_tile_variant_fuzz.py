"""Random naive transposes (tests/transpose_kernels.py, the transposed
staging's family) through the tile form of reshaped launches
(-coalda-reshape-launches; pass/lib/GridVariantTile.cpp): each kernel whose
whole effect is one transposed store gets a variant that runs 32x32 tiles of
original blocks. Every such variant runs against its original on the
emulator as the run time launches it (coalda/check/variants.py, TileLaunch:
on the grid of tiles for blocks of 256 threads, the kernel itself for the
family's other blocks, 32x4, 64x4, 16x8, 32x16, 8x8 and 16x4x2), at -O3,
every layout and schedule, at two sizes whose tiles are partial at both
edges. The family draws element types of 1 to 8 bytes (and conversions),
three index types, pitches and offsets, batches in z, five guards and five
values, __restrict__, bounds checks and read-backs.

Which kernels take the form is pinned from the family's own features: a
read-modify-write or a read-back (a load after the store) never does, and
at least a third of a batch does (fewer means the generator or the form
broke). A planted bug (the virtual block's tile row dropped) must be caught
in every batch that has a tile variant at 32x8 (four rows of virtual blocks).

`make test` runs one batch of 16 (about 5 CPU s); COALDA_TILE_FUZZ=N (`make
fuzz`: 160) runs N kernels in batches of 16, seeds 100 and up (the
transposed staging's own fuzzer uses 0 and up).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from conftest import in_function, optimize_levels, optimize_outputs
from transpose_kernels import random_transposes, write_batch

from coalda.check.run_command import Compiled
from coalda.check.spec import load_spec
from coalda.check.variants import SUFFIX, check_variants, tile_kernels

FUZZ = int(os.environ.get("COALDA_TILE_FUZZ", "16"))
BATCH = 16
SEED0 = 100
OPTIONS = ("--pass-arg=-coalda-stage-small-always", "--pass-arg=-coalda-reshape-launches", "-q")


def drop_row(body: str) -> str:
    """Each virtual block's y without its tile row (GridVariantTile.cpp's
    %tile.vyK = BlockY + row): the four rows of a 32x8 tile run the first's."""
    return re.sub(r"(%tile\.vy\d*) = add i32 (%[\w.]+), %[\w.]+", r"\1 = add i32 \2, 0", body)


@pytest.mark.parametrize("batch", range(SEED0, SEED0 + max(1, FUZZ // BATCH)))
def test_random_transposes_take_the_tile_form_alike(batch: int, tmp_path: Path) -> None:
    kernels = random_transposes(batch, BATCH)
    source = write_batch(tmp_path, kernels, "[33, 70]", "tiles")
    out, report = optimize_levels(source, tmp_path, (3,), *OPTIONS)[3]
    compiled = optimize_outputs(out, source.stem)
    symbols = {k["name"]: k["symbol"] for k in report["kernels"]}
    tiled = {name for name, sym in symbols.items() if sym in tile_kernels(compiled.after_ir)}
    by_name = {k.name: k for k in kernels}
    never = {k.name for k in kernels if k.value == "rmw" or k.readback}
    assert not tiled & never, sorted(tiled & never)
    assert len(tiled) >= BATCH // 3, (sorted(tiled), source.read_text())

    spec = load_spec(source.with_suffix(".toml"))
    run = check_variants(compiled, spec)
    assert not run.skipped, run.skipped
    assert run.kernels() == tiled, sorted(run.kernels() ^ tiled)
    assert not run.failures, run.summary() + "\n" + source.read_text()

    # the planted bug, where a kernel at 32x8 has the form
    plant = sorted(name for name in tiled if by_name[name].block == (32, 8, 1))
    # `make test`'s batch has three (tr100_1, _5, _9): the plant always runs there
    assert plant or batch != SEED0, "the first batch lost its 32x8 tile kernels: the generator or the form broke"
    if not plant:
        return
    after = compiled.after_ir
    for name in plant:
        after = in_function(after, symbols[name] + SUFFIX + "(", drop_row)
    broken = Compiled(compiled.before_ir, after, "", "", compiled.report)
    caught = check_variants(broken, spec, kernels=set(plant), overlap=False)
    assert {r.result.kernel for r in caught.failures} == set(plant), caught.summary()
