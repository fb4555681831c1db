"""`coalda diff` shows every kind of rewrite (issue 36, item 2): before, it
read only the copy groups and said "no change: COALDA rewrote nothing" for a
file whose kernels were only staged, windowed or transposed."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import run_cli

STAGED_ONLY = {
    "transposed": "__global__ void t(float *out, const float *in, int n) {\n"
                  "  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;\n"
                  "  if (x < n && y < n) out[(size_t)x * n + y] = in[(size_t)y * n + x];\n}\n",
    "element": "struct F { float x, y, z, w, u, v; };\n"
               "__global__ void s(F *out, const float *a, int n) {\n"
               "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n"
               "  out[i].x = a[i]; out[i].y = 2 * a[i]; out[i].z = 3 * a[i];\n"
               "  out[i].w = 4 * a[i]; out[i].u = 5 * a[i]; out[i].v = 6 * a[i];\n}\n",
}


@pytest.mark.parametrize("kind", sorted(STAGED_ONLY))
def test_diff_of_a_staged_only_file_shows_the_diff(kind: str, tmp_path: Path) -> None:
    source = tmp_path / f"{kind}.cu"
    source.write_text(STAGED_ONLY[kind])
    report = run_cli("analyze", source, "--format", "json", "-q")
    assert '"transformed": true' in report.stdout and '"kind": "' + kind + '"' in report.stdout
    proc = run_cli("diff", source)
    assert proc.returncode == 0, proc.stderr
    assert "no change" not in proc.stdout
    assert proc.stdout.startswith("---") and "\n+" in proc.stdout and "coalda." in proc.stdout
