"""The Python package by layer (issue 38): every relative import of every
module (`from .x import`, `from ..layer.x import`, `from . import x`, also
those inside functions) forms an acyclic graph, and no layer imports one
above it.

The layers, bottom up (what each may import):
- base: the shared vocabulary at the top of the package (errors, ir,
  verdicts, buffers, report, and the package itself for __version__);
  imports only base;
- driver (toolchain, compile, pipeline, cc, project): base;
- findings (diagnostics with SARIF, html_report): base, driver;
- emulator (emulate, threads, fibers, schedule, nvvm): base only;
- check (oracle, spec, gpu, run_command, bench): base, driver, findings,
  emulator;
- top (cli, entry): everything."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "coalda"
IMPORT = re.compile(r"^\s*from (\.+)([\w.]*) import ([\w, ]+)", re.M)
LAYERS = ("driver", "findings", "emulator", "check")
TOP = {"cli", "entry"}
ALLOWED = {
    "base": {"base"},
    "driver": {"base", "driver"},
    "findings": {"base", "driver", "findings"},
    "emulator": {"base", "emulator"},
    "check": {"base", "driver", "findings", "emulator", "check"},
    "top": {"base", "driver", "findings", "emulator", "check", "top"},
}


def module_name(path: Path) -> str:
    """coalda/check/oracle.py -> check.oracle; coalda/errors.py -> errors;
    coalda/check/__init__.py -> check; coalda/__init__.py -> '' (the package)."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def layer(module: str) -> str:
    head = module.split(".")[0]
    if head in LAYERS:
        return head
    return "top" if head in TOP else "base"


def resolve(module: str, is_package: bool, dots: str, target: str) -> str:
    """The module a `from DOTS TARGET import` in MODULE names (package-relative)."""
    base = module.split(".") if module else []
    if not is_package:
        base = base[:-1]
    up = len(dots) - 1
    assert up <= len(base), f"{module}: `from {dots}{target}` climbs out of the package"
    base = base[: len(base) - up]
    return ".".join(base + ([target] if target else []))


def edges(source: str, module: str, is_package: bool, known: set[str]) -> set[str]:
    found: set[str] = set()
    for dots, target, names in IMPORT.findall(source):
        where = resolve(module, is_package, dots, target)
        # `from . import fibers` names modules; `from .x import y` names x
        named = {".".join(filter(None, [where, n.strip()])) for n in names.split(",")}
        found |= (named & known) or {where}
    return {m for m in found if m in known}


def imports() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: edges(p.read_text(), m, p.name == "__init__.py", known) - {m} for m, p in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> list[str] | None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                return path[path.index(target):] + [target]
            if target not in state:
                cycle = visit(target, path + [target])
                if cycle:
                    return cycle
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle:
                return cycle
    return None


def upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} ({layer(m)}) imports {t} ({layer(t)})"
                  for m, targets in graph.items() for t in targets if layer(t) not in ALLOWED[layer(m)])


def test_the_reader_sees_the_layers() -> None:
    graph = imports()
    expected = {"check.oracle", "emulator.emulate", "findings.diagnostics", "driver.pipeline", "cli", "errors"}
    assert expected <= set(graph)
    assert "emulator.schedule" in graph["check.oracle"], graph["check.oracle"]
    assert {"emulator.fibers", "emulator.nvvm", "ir", "buffers"} <= graph["emulator.emulate"], graph["emulator.emulate"]
    assert "report" in graph["driver.pipeline"] and "driver.toolchain" in graph["findings.diagnostics"]
    assert "" in graph["findings.diagnostics"]  # from .. import __version__
    assert {"check.run_command", "findings.html_report", "driver.cc"} <= graph["cli"]
    # every module lives in a layer the test knows
    assert {m.split(".")[0] for m in graph if "." in m} <= set(LAYERS)


def test_no_import_cycle() -> None:
    cycle = find_cycle(imports())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_no_layer_imports_upwards() -> None:
    assert upward(imports()) == []


def test_an_upward_import_is_caught() -> None:
    """If findings imported check (or the emulator the driver), the test would fail."""
    source = "from ..check.oracle import HostBuffer\n    from ..driver import toolchain\n"
    known = set(modules())
    found = edges(source, "findings.html_report", False, known)
    assert found == {"check.oracle", "driver.toolchain"}
    graph = imports()
    graph["findings.html_report"] |= found
    assert upward(graph) == ["findings.html_report (findings) imports check.oracle (check)"]
    graph["emulator.emulate"].add("driver.toolchain")
    assert "emulator.emulate (emulator) imports driver.toolchain (driver)" in upward(graph)
    graph["driver.pipeline"].add("cli")
    assert "driver.pipeline (driver) imports cli (top)" in upward(graph)


def test_a_cycle_is_caught() -> None:
    graph = imports()
    graph["errors"] = graph["errors"] | {"check.oracle"}
    assert find_cycle(graph) is not None


def test_every_relative_import_resolves() -> None:
    """A `from .x import` whose module is not in the package (a module moved
    to another layer, the import left behind) fails here, also inside a
    function, where importing the module would not find it."""
    mods = modules()
    missing = []
    for module, path in mods.items():
        for dots, target, _ in IMPORT.findall(path.read_text()):
            where = resolve(module, path.name == "__init__.py", dots, target)
            if where not in mods:
                missing.append(f"{module}: from {dots}{target}")
    assert missing == []
