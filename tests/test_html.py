"""`coalda analyze --html OUT.html`: one self-contained page, read back with
html.parser: the findings sit right below their source lines, the heat is
the diagnostics' excess sectors, rewrites show their IR, and every text is
escaped."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import TESTCASES, run_cli

# A kernel whose source is full of what HTML must escape, with one
# uncoalesced and one unknown access (line numbers matter below).
TRICKY = """// <script>alert("x")</script> & friends
struct P { unsigned char r, g, b; };
__global__ void k(P *d, const P *s, const int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && n > 0) d[i].r = s[i].r;   /* a<b && c>d */
  if (i < n) d[i].g = s[x[i] & 1023].g;
}
"""


class Page(HTMLParser):
    """The rows of the source tables and the tags and attributes of the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[dict[str, object]] = []  # {attrs, cells: [text, ...]}
        self.pres: list[tuple[dict[str, str | None], str]] = []
        self._row: dict[str, object] | None = None
        self._cell: list[str] | None = None
        self._pre: tuple[dict[str, str | None], list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "tr":
            self._row = {"attrs": attributes, "cells": []}
        elif tag == "td" and self._row is not None:
            self._cell = []
            self._row["cells"].append(self._cell)  # type: ignore[union-attr]
        elif tag == "pre":
            self._pre = (attributes, [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr" and self._row is not None:
            self._row["cells"] = ["".join(c) for c in self._row["cells"]]  # type: ignore[union-attr]
            self.rows.append(self._row)
            self._row = None
        elif tag == "pre" and self._pre is not None:
            self.pres.append((self._pre[0], "".join(self._pre[1])))
            self._pre = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None and self._row is not None:
            self._cell.append(data)
        if self._pre is not None:
            self._pre[1].append(data)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> tuple[Page, str, Path]:
    tmp = tmp_path_factory.mktemp("html")
    tricky = tmp / "tricky.cu"
    tricky.write_text(TRICKY)
    out = tmp / "report.html"
    proc = run_cli("analyze", TESTCASES / "rgb.cu", tricky, "--html", out, "--format", "text")
    assert proc.returncode == 0, proc.stderr
    parser = Page()
    text = out.read_text()
    parser.feed(text)
    parser.close()
    return parser, proc.stdout, tricky


def _source_rows(page: Page) -> list[tuple[str, dict[str, str | None], list[str]]]:
    """(file, attrs, cells) of every row, with the file of its table."""
    out = []
    current = ""
    rows = iter(page.rows)
    for tag, attrs in page.tags:
        if tag == "table" and attrs.get("class") == "source":
            current = attrs["data-file"] or ""
        if tag == "tr":
            row = next(rows)
            out.append((current, row["attrs"], row["cells"]))  # type: ignore[arg-type]
    return out


def test_every_finding_sits_below_its_line(page: tuple[Page, str, Path]) -> None:
    parser, text, _ = page
    warnings = [re.match(r"^(.+?):(\d+):(\d+): warning: .* \[(coalda-[a-z]+)\]$", line)
                for line in text.splitlines() if ": warning: " in line]
    expected = sorted((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)) for m in warnings if m)
    assert len(expected) == len(warnings) > 0
    found = []
    last_line: tuple[str, int] | None = None
    for file, attrs, _ in _source_rows(parser):
        classes = (attrs.get("class") or "").split()
        if "line" in classes:
            last_line = (file, int(attrs["data-line"] or 0))
        elif "finding" in classes:
            line = int(attrs["data-line"] or 0)
            assert last_line == (file, line), (attrs, last_line)  # right after its source line
            found.append((file, line, int(attrs["data-column"] or 0), attrs["data-rule"]))
    assert sorted(found) == expected
    assert {r for *_, r in found} == {"coalda-uncoalesced", "coalda-unknown"}


def test_source_lines_are_escaped_and_read_back_exactly(page: tuple[Page, str, Path]) -> None:
    parser, _, tricky = page
    lines = {int(attrs["data-line"] or 0): cells[2] for file, attrs, cells in _source_rows(parser)
             if file == str(tricky) and "line" in (attrs.get("class") or "").split()}
    assert [lines[n] for n in sorted(lines)] == TRICKY.splitlines()
    # the comment's <script> is text, not an element; the page has no script nor outside resource
    assert not [t for t, _ in parser.tags if t in ("script", "img", "link", "iframe", "object")]
    for _, attrs in parser.tags:
        assert not attrs.get("src")
        assert (attrs.get("href") or "#").startswith("#")


def test_heat_is_the_excess_sectors_of_the_line(page: tuple[Page, str, Path]) -> None:
    parser, _, _ = page
    heat = {}
    for file, attrs, cells in _source_rows(parser):
        if "line" in (attrs.get("class") or "").split() and file.endswith("rgb.cu"):
            heat[int(attrs["data-line"] or 0)] = int(cells[1] or 0)
    rgb = (TESTCASES / "rgb.cu").read_text().splitlines()
    # dst[i].r = src[i].r: a load and a store of 1 B at stride 3 B: (3 - 1) sectors each
    copies = [n for n, line in enumerate(rgb, start=1) if re.search(r"dst\[i\]\.[rgb] = src\[i\]\.[rgb]", line)]
    assert copies and all(heat[n] == 4 for n in copies)
    assert sum(heat.values()) == 4 * len(copies)


def test_each_rewrite_shows_its_ir_before_and_after(page: tuple[Page, str, Path]) -> None:
    parser, _, _ = page
    rewrites = [attrs.get("data-kernel") for tag, attrs in parser.tags if tag == "details"
                and attrs.get("class") == "rewrite"]
    assert sorted(rewrites) == ["copy_naive", "copy_naive_guarded"]
    befores = [text for attrs, text in parser.pres if attrs.get("class") == "ir before"]
    afters = [text for attrs, text in parser.pres if attrs.get("class") == "ir after"]
    assert len(befores) == len(afters) == 2
    for before, after in zip(befores, afters):
        assert before.startswith("define ") and after.startswith("define ")
        assert "coalda.copy16" in after and "coalda.copy16" not in before
    [diff] = [text for attrs, text in parser.pres if attrs.get("class") == "diff"]
    assert diff.startswith("--- rgb.before.ll")


def test_an_unwritable_html_path_is_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    proc = run_cli("analyze", TESTCASES / "rgb.cu", "--html", blocker / "out.html")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.startswith("coalda: error: cannot write the HTML report")
    assert len(proc.stderr.strip().splitlines()) == 1


def test_staged_kernels_get_their_ir_and_are_counted(tmp_path: Path) -> None:
    """issue 36, item 3: a kernel that is only staged (here transposed) had
    no before/after IR section, and the summary counted copy groups only."""
    source = tmp_path / "t.cu"
    source.write_text("__global__ void t(float *out, const float *in, int n) {\n"
                      "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                      "  if (x < n && y < n) out[(size_t)x * n + y] = in[(size_t)y * n + x];\n}\n")
    page = tmp_path / "t.html"
    proc = run_cli("analyze", source, "-q", "--html", page)
    assert proc.returncode == 0, proc.stderr
    html = page.read_text()
    assert 'class="rewrite"' in html and "transposed staging: transposed" in html
    assert "1 of 1 stagings (elements, transposes, windows) done" in html
    assert "coalda.transpose" in html or "coalda.stage" in html  # the after IR is there
    assert "nothing rewritten" not in html
