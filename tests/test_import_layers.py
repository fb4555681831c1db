"""The Python package has no import cycle (issue 38): every `from .x import`
of every module, also those inside functions, form an acyclic graph."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "coalda"
IMPORT = re.compile(r"^\s*from \.(\w*) import ([\w, ]+)", re.M)


def imports() -> dict[str, set[str]]:
    modules = {p.stem for p in PACKAGE.glob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for module in modules:
        for target, names in IMPORT.findall((PACKAGE / f"{module}.py").read_text()):
            # `from . import cli` names modules; `from .report import x` one
            found = {n.strip() for n in names.split(",")} if not target else {target}
            graph[module] |= found & modules
    return graph


def test_no_import_cycle() -> None:
    graph = imports()
    assert graph["report"] and graph["oracle"], "the import reader found no imports"
    state: dict[str, str] = {}

    def visit(module: str, path: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, path + [target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
