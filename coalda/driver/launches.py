"""Reshaped launches in `coalda cc` builds (issue 40): the flags that turn
them on, and the kernels that got a grid-stride variant.

Off by default; `coalda cc -fcoalda-reshape` turns it on (until the corpus
has measured it: a rewrite that loses on a real program is a bug of its
cost rule). The device compile then runs the pass with
`-coalda-reshape-launches`: each rewritten kernel K whose whole effect is
one copy gets a variant `K__coalda_grid`, one flat copy of the original
grid's elements (pass/lib/GridVariantFlat.cpp; a cost rule:
GridVariant.cpp), marked `K__coalda_prefer` where it is launched until
measured. The variants' names and marks are read from each architecture's
PTX; those every architecture has are passed to the
host compile of the same source, where the plugin's host pass makes K's stub
launch through a run-time choice between K and its variant
(pass/lib/LaunchHost.cpp, pass/runtime/LaunchGrid.cpp). At run time,
COALDA_LAUNCH=original keeps every launch as written and
COALDA_LAUNCH_REPORT=1 prints each choice on stderr.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from ..errors import ToolNotFound

# GridVariant.h's GridVariantSuffix: K's variant is K's symbol with it
SUFFIX = "__coalda_grid"
# GridVariantPreferSuffix: the device global that marks a variant launched
# until the run-time measurement is in (small elements, a cost rule)
PREFER_SUFFIX = "__coalda_prefer"
_ENTRY = re.compile(r"^\.visible\s+\.entry\s+(\S+?)" + SUFFIX + r"\(", re.MULTILINE)
_PREFER = re.compile(r"^\.visible\s+\.global\s+(?:\.align\s+\d+\s+)?\.[us]8\s+(\S+?)" + PREFER_SUFFIX + r"\b",
                     re.MULTILINE)


def variants_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX defines, by their device names."""
    return set(_ENTRY.findall(ptx))


def preferred_in_ptx(ptx: str) -> set[str]:
    """The kernels whose variant the PTX marks to launch until measured."""
    return set(_PREFER.findall(ptx))


def common_variants(per_arch: Iterable[set[str]]) -> list[str]:
    """The kernels whose variant every architecture's device code has: a
    variant registered for an architecture without it would fail to launch."""
    sets = list(per_arch)
    return sorted(set.intersection(*sets)) if sets else []


def find_launch_runtime(plugin: Path) -> Path:
    """The run-time choice's bitcode: $COALDA_LAUNCH_RUNTIME, else beside the
    plugin, where its build puts it."""
    override = os.environ.get("COALDA_LAUNCH_RUNTIME")
    candidate = Path(override) if override else plugin.with_name("coalda-launch-runtime.bc")
    if candidate.is_file():
        return candidate
    raise ToolNotFound("coalda-launch-runtime.bc", [str(candidate)],
                       "rebuild the plugin with `make build`" if not override else "fix $COALDA_LAUNCH_RUNTIME or unset it")


def device_flags() -> list[str]:
    """The device compile's flags (its plugin loaded with -Xclang -load)."""
    return ["-mllvm", "-coalda-reshape-launches"]


def host_flags(plugin: Path, variants: list[str], preferred: Iterable[str] = ()) -> list[str]:
    """The host compile's flags that launch VARIANTS through the choice,
    those of PREFERRED (among them) until measured."""
    if not variants:
        return []
    first = [k for k in variants if k in set(preferred)]
    return ["-Xclang", "-load", "-Xclang", str(plugin), f"-fpass-plugin={plugin}",
            "-mllvm", f"-coalda-launch-variants={','.join(variants)}",
            *(["-mllvm", f"-coalda-launch-preferred={','.join(first)}"] if first else []),
            "-mllvm", f"-coalda-launch-runtime={find_launch_runtime(plugin)}"]
