#!/usr/bin/env python3
"""The pass's sizes against issue 38's limits: no .cpp file of pass/lib or pass/tools over
MAX_FILE lines, no function over MAX_FUNCTION lines.

A function is what clang-format's LLVM style writes as one: a line at column
0 that is not a comment, preprocessor line, namespace or type, ending its
signature with `{`, up to the next `}` at column 0. Its length counts every
line from the signature's first to the closing brace.

    scripts/pass_sizes.py          # the offenders, exit 1 if any
    scripts/pass_sizes.py --all    # every function, longest first
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

PASS = Path(__file__).resolve().parent.parent / "pass"
LIB = PASS / "lib"
MAX_FILE = 900
MAX_FUNCTION = 80
_NOT_A_FUNCTION = re.compile(
    r"^(//|#|namespace\b|using\b|struct\b|class\b|enum\b|union\b|static\s+cl::|cl::|public:|private:|protected:|}|\s|$)")


@dataclass(frozen=True)
class Function:
    file: str
    line: int  # 1-based, the signature's first line
    name: str
    lines: int


def functions(path: Path) -> list[Function]:
    """The function definitions of one file: at column 0, and the methods
    defined inside a class or struct body that opens at column 0 (indented
    by two)."""
    text = path.read_text().splitlines()
    found: list[Function] = []
    start: int | None = None
    indent = ""
    in_class = False
    for i, line in enumerate(text):
        if start is None:
            if re.match(r"(class|struct)\b.*{$", line):
                in_class = True
                continue
            if in_class and line.startswith("};"):
                in_class = False
                continue
            indent = "  " if in_class else ""
            body = line[len(indent):] if line.startswith(indent) else " "
            if _NOT_A_FUNCTION.match(body) or "(" not in body:
                continue
            # the signature may span lines: its `{` ends one of the next few
            for j in range(i, min(i + 8, len(text))):
                if text[j].rstrip().endswith("{") and not text[j].lstrip().startswith("//"):
                    start = i
                    break
                if text[j].rstrip().endswith((";", "}")):
                    break
            continue
        if line.startswith(indent + "}"):
            name = re.search(r"([\w:~]+)\s*\(", text[start])
            found.append(Function(path.name, start + 1, name[1] if name else text[start].strip(), i - start + 1))
            start = None
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="list every function, longest first")
    args = parser.parse_args()
    sources = sorted([*LIB.glob("*.cpp"), *(PASS / "tools").glob("*.cpp")])
    every = sorted((f for s in sources for f in functions(s)), key=lambda f: -f.lines)
    if args.all:
        for f in every:
            print(f"{f.lines:5} {f.file}:{f.line} {f.name}")
        return 0
    problems = [f"{s.name}: {n} lines (at most {MAX_FILE})"
                for s in sources if (n := len(s.read_text().splitlines())) > MAX_FILE]
    problems += [f"{f.file}:{f.line}: {f.name} is {f.lines} lines (at most {MAX_FUNCTION})"
                 for f in every if f.lines > MAX_FUNCTION]
    print("\n".join(problems) or f"{len(sources)} files, {len(every)} functions: within the limits")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
