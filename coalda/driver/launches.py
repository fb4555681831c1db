"""Reshaped launches in `coalda cc` builds (issue 40): the flags that turn
them on, and the kernels that got a grid-stride variant.

On by default (LaunchControl.GRID_VARIANTS; `-fno-coalda-reshape` turns it
off, `-fcoalda-reshape` adds the choice of every other rewrite, below). The
device compile runs the pass with
`-coalda-reshape-launches`: each rewritten kernel K whose whole effect is
one copy gets a variant `K__coalda_grid`, one flat copy of the original
grid's elements (pass/lib/GridVariantFlat.cpp; a cost rule:
GridVariant.cpp), marked `K__coalda_prefer` where it is launched until
measured; each whose whole effect is one transposed store gets one that
runs 32x32 tiles of original blocks (GridVariantTile.cpp), marked
`K__coalda_tile` and `K__coalda_prefer`; each other rewritten kernel K
keeps, with `-fcoalda-reshape` only, its code as written as its variant,
launched on the same grid with the same arguments (RewriteChoice.cpp,
`-coalda-choose-rewrites`), K marked `K__coalda_rewrite`: whether a
rewrite pays can depend on the launch (scan2's small grids, gaussian's
Fan2 at 16x16 blocks), which the run-time choice measures; its trials run
the code as written, which is why it is not on by default. The variants'
names and marks are read from each architecture's PTX; those every architecture has (of one
form) are passed to the host compile of the same source, where the
plugin's host pass makes K's stub launch through a run-time choice between
K and its variant (pass/lib/LaunchHost.cpp, pass/runtime/LaunchGrid.cpp). At run time,
COALDA_LAUNCH=original keeps every launch as written and
COALDA_LAUNCH_REPORT=1 prints each choice on stderr.

In every `coalda cc` build but `-fno-coalda-reshape`'s, a kernel
registers.py limits to 64 registers keeps a twin without the limit under
the variant's name, and its stub launches the twin wherever a block of it
fits (form 3, `-coalda-launch-bounded`; no measurement). The twin takes
the place of the kernel's variant of another form, if any: the limit it
removes is worth more (dslash 20%) than the choice against the code as
written, which the rewrites of the corpus's two limited kernels win by
1.27x and 2.4x.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path

from ..errors import ToolNotFound

# GridVariant.h's GridVariantSuffix: K's variant is K's symbol with it
SUFFIX = "__coalda_grid"
# GridVariantPreferSuffix: the device global that marks a variant launched
# until the run-time measurement is in (small elements, a cost rule)
PREFER_SUFFIX = "__coalda_prefer"
# GridVariantTileSuffix: the device global that marks a variant of the tile
# form (a transpose's 32x32 tiles, GridVariantTile.cpp), launched on another
# grid with the original grid's x and y sizes appended
TILE_SUFFIX = "__coalda_tile"
# GridVariantRewriteSuffix: the device global that marks a variant of the
# rewrite form (the kernel as written, K its rewrite), launched on the same
# grid with the same arguments
REWRITE_SUFFIX = "__coalda_rewrite"
_ENTRY = re.compile(r"^\.visible\s+\.entry\s+(\S+?)" + SUFFIX + r"\(", re.MULTILINE)


def _marked(ptx: str, suffix: str) -> set[str]:
    return set(re.findall(r"^\.visible\s+\.global\s+(?:\.align\s+\d+\s+)?\.[us]8\s+(\S+?)" + suffix + r"\b", ptx,
                          re.MULTILINE))


def variants_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX defines, by their device names."""
    return set(_ENTRY.findall(ptx))


def preferred_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX marks to launch until measured."""
    return _marked(ptx, PREFER_SUFFIX)


def tiles_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX marks as of the tile form."""
    return _marked(ptx, TILE_SUFFIX)


def rewrites_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX marks as their code as written, K
    being the rewrite."""
    return _marked(ptx, REWRITE_SUFFIX)


def common_variants(per_arch: Iterable[set[str]]) -> list[str]:
    """The kernels whose variant every architecture's device code has: a
    variant registered for an architecture without it would fail to launch."""
    sets = list(per_arch)
    return sorted(set.intersection(*sets)) if sets else []


def agreed_variants(variants: list[set[str]], *forms: list[set[str]]) -> list[str]:
    """The kernels whose variant every architecture has, of the same form in
    each: per form (tiles, rewrites), one set per architecture (a tile
    variant takes one argument more than a flat one, a rewrite one less)."""
    mixed = set()
    for marked in forms:
        if marked:
            mixed |= set().union(*marked) - set(common_variants(marked))
    return [k for k in common_variants(variants) if k not in mixed]


@dataclass
class VariantsSeen:
    """What each architecture's device code gives the host compile: the
    kernels with a variant, and those of each form (one set per
    architecture in each list, in the same order)."""

    variants: list[set[str]] = field(default_factory=list)
    preferred: list[set[str]] = field(default_factory=list)
    tiles: list[set[str]] = field(default_factory=list)
    rewrites: list[set[str]] = field(default_factory=list)
    bounded: list[set[str]] = field(default_factory=list)

    def add_arch(self, ptx: str) -> None:
        """The next architecture's PTX (empty where the build makes no
        variants of its own: not a reshape build)."""
        self.variants.append(variants_in_ptx(ptx))
        self.preferred.append(preferred_in_ptx(ptx))
        self.tiles.append(tiles_in_ptx(ptx))
        self.rewrites.append(rewrites_in_ptx(ptx))
        self.bounded.append(set())

    def add_twins(self, kernels: set[str]) -> None:
        """KERNELS got a twin without the register limit on the last
        architecture (registers.with_twins), named as their variant: in a
        reshape build it took the place of their variant of another form."""
        for marks in (self.preferred[-1], self.tiles[-1], self.rewrites[-1]):
            marks -= kernels
        self.variants[-1] |= kernels
        self.bounded[-1] |= kernels

    def host_flags(self, plugin: Path) -> list[str]:
        """The host compile's flags for the variants every architecture has,
        of one form in all (none: no flags)."""
        return host_flags(plugin, agreed_variants(self.variants, self.tiles, self.rewrites, self.bounded),
                          common_variants(self.preferred), common_variants(self.tiles),
                          common_variants(self.rewrites), common_variants(self.bounded))


def find_launch_runtime(plugin: Path) -> Path:
    """The run-time choice's bitcode: $COALDA_LAUNCH_RUNTIME, else beside the
    plugin, where its build puts it."""
    override = os.environ.get("COALDA_LAUNCH_RUNTIME")
    candidate = Path(override) if override else plugin.with_name("coalda-launch-runtime.bc")
    if candidate.is_file():
        return candidate
    raise ToolNotFound("coalda-launch-runtime.bc", [str(candidate)],
                       "rebuild the plugin with `make build`" if not override else "fix $COALDA_LAUNCH_RUNTIME or unset it")


class LaunchControl(Enum):
    """How much of its kernels' launches a `coalda cc` build takes over."""

    OFF = "off"  # -fno-coalda-reshape: every stub launches as written
    GRID_VARIANTS = "grid"  # the default: grid variants, the register limit's twins
    CHOICE = "choice"  # -fcoalda-reshape: also every other rewrite against its code as written


def device_flags(control: LaunchControl) -> list[str]:
    """The device compile's flags (its plugin loaded with -Xclang -load)."""
    if control is LaunchControl.OFF:
        return []
    choice = ["-mllvm", "-coalda-choose-rewrites"] if control is LaunchControl.CHOICE else []
    return ["-mllvm", "-coalda-reshape-launches", *choice]


def bounded_launches_wanted() -> bool:
    """Whether a kernel limited in registers keeps its twin without the
    limit, launched where it fits (registers.py): not under
    COALDA_REGISTER_TWINS=off (to measure what the limit costs everywhere)."""
    return os.environ.get("COALDA_REGISTER_TWINS") != "off"


def host_flags(plugin: Path, variants: list[str], preferred: Iterable[str] = (),
               tiles: Iterable[str] = (), rewrites: Iterable[str] = (), bounded: Iterable[str] = ()) -> list[str]:
    """The host compile's flags that launch VARIANTS through the choice,
    those of PREFERRED (among them) until measured, those of TILES on the
    tile form's grid, those of REWRITES (the variant is the code as
    written) on the launch's own, those of BOUNDED (the variant is K
    without its register limit) where a block of it fits."""
    if not variants:
        return []
    first = [k for k in variants if k in set(preferred)]
    tiled = [k for k in variants if k in set(tiles)]
    rewritten = [k for k in variants if k in set(rewrites)]
    limited = [k for k in variants if k in set(bounded)]
    return ["-Xclang", "-load", "-Xclang", str(plugin), f"-fpass-plugin={plugin}",
            "-mllvm", f"-coalda-launch-variants={','.join(variants)}",
            *(["-mllvm", f"-coalda-launch-preferred={','.join(first)}"] if first else []),
            *(["-mllvm", f"-coalda-launch-tiles={','.join(tiled)}"] if tiled else []),
            *(["-mllvm", f"-coalda-launch-rewrites={','.join(rewritten)}"] if rewritten else []),
            *(["-mllvm", f"-coalda-launch-bounded={','.join(limited)}"] if limited else []),
            "-mllvm", f"-coalda-launch-runtime={find_launch_runtime(plugin)}"]
