"""Issue 38's limits on the pass's sources, kept: no .cpp of pass/lib or pass/tools over
900 lines, no function over 80 (scripts/pass_sizes.py), and the script
finds what it must: functions at column 0, methods defined in a class
body, signatures over several lines."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "pass_sizes.py"


def _script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("pass_sizes", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["pass_sizes"] = module  # its dataclass looks itself up there
    spec.loader.exec_module(module)
    return module


def test_the_pass_is_within_the_limits() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout


def test_the_script_finds_long_functions_and_methods(tmp_path: Path) -> None:
    body = "\n".join(f"  int x{i} = {i};" for i in range(85))
    source = tmp_path / "Long.cpp"
    source.write_text(
        "namespace {\n"
        "class Walker {\n"
        "  int step(int A,\n"
        "           int B) {\n" + body + "\n    return A;\n  }\n"
        "  int shortOne() { return 1; }\n"
        "};\n"
        "} // namespace\n\n"
        "static int helper(int X) {\n  return X;\n}\n\n"
        "int longFree(int X) {\n" + body + "\n  return X;\n}\n"
    )
    found = {f.name: f.lines for f in _script().functions(source)}
    assert found["step"] == 89 and found["longFree"] == 88 and found["helper"] == 3, found
