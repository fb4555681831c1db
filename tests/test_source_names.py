"""Findings quote values as the source names them (issue 36, item 7): the
variables of the debug info, expressions of them, or the source line; never
a name clang gave an IR value (`add < sub3` where the source says
`i < last`, `found.conflict`, `idxprom`) or COALDA's `arg0`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import REPO, run_cli
from coalda.driver.compile import CompileOptions, compile_to_ir

MATRIX_ROTATE = REPO / "corpus" / "hecbench" / "matrix-rotate-cuda" / "main.cu"

# a guard with a hole, a loop over a chunk, a ?: of buffers, a value
# computed once (`half`), a parameter that is only a size
SHAPES = """\
struct Pixel { unsigned char r, g, b; };

__global__ void holes(Pixel *dst, const Pixel *src, int n, int skip) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i != skip) {
    dst[i].r = src[i].r;
    dst[i].g = src[i].g;
    dst[i].b = src[i].b;
  }
}

__global__ void rows(float *out, const float *in, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < m; ++k)
    out[i * m + k] = in[i * m + k] * 2.0f;
}

__global__ void pick(Pixel *out, const Pixel *a, const Pixel *b, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Pixel *src = flag ? a : b;
  out[i] = src[i];
}

__global__ void halves(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int half = n / 2;
  if (i < half)
    out[3 * i] = in[3 * i] + in[3 * i + half];
}
"""


def analyze(source: Path, level: int) -> dict:
    proc = run_cli("analyze", source, "--format", "json", "-O", str(level), "-q")
    assert proc.returncode == 0, proc.stderr
    [report] = json.loads(proc.stdout)["reports"]
    return report


def ir_names(source: Path, level: int, tmp_path: Path) -> set[str]:
    """The names clang gave the values and blocks of SOURCE's device IR, as
    `coalda analyze` compiles it, less the source's own variable names."""
    ll = tmp_path / f"{source.stem}.O{level}.ll"
    compile_to_ir(source, CompileOptions(opt_level=level), ll, variables=True)
    text = ll.read_text()
    variables = set(re.findall(r'!DILocalVariable\(name: "([^"]+)"', text))
    return set(re.findall(r"%([A-Za-z_.$][\w.$]*)", text)) - variables


def quoted(report: dict) -> list[str]:
    """What the report says of each access, group and staging: its base,
    expressions and reason."""
    texts = []
    for kernel in report["kernels"]:
        for item in [*kernel["accesses"], *kernel["groups"], *kernel.get("stagings", [])]:
            texts += [str(item[key]) for key in ("base", "expr", "stride_expr", "reason") if item.get(key)]
            texts += [str(a["base"]) for a in item.get("arrays", []) if a.get("base")]
    return texts


def ir_quotes(texts: list[str], names: set[str]) -> list[str]:
    """The texts that quote an IR name: a name clang made up anywhere in a
    quotation (`...`) or an expression, `arg<N>`, or a made-up name that no
    English sentence has (with a digit or a dot: `sub3`, `found.conflict`)."""
    bad = []
    for text in texts:
        spans = re.findall(r"`([^`]*)`", text)
        if "`" not in text and not re.search(r"[a-z] [a-z]+ [a-z]", text):  # an expression, not a sentence
            spans.append(text)
        words = {w for span in spans for w in re.findall(r"[A-Za-z_.$][\w.$]*", span)} - {"or"}
        words |= {w.rstrip(".") for w in re.findall(r"[A-Za-z_$][\w$]*(?:\.[\w$]+)*", text)
                  if re.search(r"\d|\.\w", w)}
        if words & names or re.search(r"\barg\d+\b", text):
            bad.append(f"{text!r} quotes {sorted(words & names) or 'arg<N>'}")
    return bad


def test_matrix_rotate_says_i_less_than_last(tmp_path: Path) -> None:
    """HeCBench matrix-rotate's guarded loop at -O3, with its `last` read
    from memory (its own `n - 1 - layer` is linear, and every access of the
    program is read): clang's loop test is `icmp slt %add, %sub3`, %add
    being layer, first and i in turn; the window's refusal quotes the
    source's `i < last` on its line."""
    source = tmp_path / "rotate.cu"
    text = MATRIX_ROTATE.read_text()
    assert "int last = n - 1 - layer;" in text
    source.write_text(text.replace("rotate_matrix_parallel (float *matrix, const int n)",
                                   "rotate_matrix_parallel (float *matrix, const int n, const int *depth)", 1)
                      .replace("int last = n - 1 - layer;", "int last = n - 1 - depth[layer];", 1)
                      .replace("(d_parallel_res, n);", "(d_parallel_res, n, nullptr);", 1))
    report = analyze(source, 3)
    [kernel] = report["kernels"]
    reasons = [s["reason"] for s in kernel.get("stagings", []) if s.get("kind") == "window"]
    assert reasons and all("the branch on `i < last` at line 12:" in r for r in reasons), reasons
    assert "matrix + (4*n + 4)*gid + 4*iter(i)" in {a["expr"] for a in kernel["accesses"]
                                                     if a["class"] == "uncoalesced"}
    names = ir_names(source, 3, tmp_path)
    assert {"add", "sub3"} <= names  # what the reason used to quote
    assert ir_quotes(quoted(report), names) == []
    # the program itself: ~layer reads as -1 - layer, and every access is read
    [original] = analyze(MATRIX_ROTATE, 3)["kernels"]
    assert original["accesses"] and all(a["class"] == "uncoalesced" for a in original["accesses"])


@pytest.mark.parametrize("level", [3, 0])
def test_no_reason_or_expression_quotes_an_ir_name(level: int, tmp_path: Path) -> None:
    source = tmp_path / "shapes.cu"
    source.write_text(SHAPES)
    report = analyze(source, level)
    assert ir_quotes(quoted(report), ir_names(source, level, tmp_path)) == []
    rotate = analyze(MATRIX_ROTATE, level)
    assert ir_quotes(quoted(rotate), ir_names(MATRIX_ROTATE, level, tmp_path)) == []
    by_kernel = {k["name"]: k for k in report["kernels"]}
    # the guard as the source's variables make it (-O3 tests the equality)
    guard = "`i == skip`" if level == 3 else "`i != skip` at line 5:"
    assert any(guard in g["reason"] for g in by_kernel["holes"]["groups"]), by_kernel["holes"]["groups"]
    # the loop's counter and the run-time stride by their variables
    assert any("4*iter(k)" in a["expr"] and "(4*m)*gid" in a["expr"] for a in by_kernel["rows"]["accesses"])
    # `half`, clang's `div`
    assert any("4*half" in a["expr"] for a in by_kernel["halves"]["accesses"])
    # the buffer the ?: picks, by its variable (clang's `cond`)
    assert any(a["expr"].startswith("src + ") for a in by_kernel["pick"]["accesses"])
