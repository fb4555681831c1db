#!/usr/bin/env python3
"""Validate COALDA's cost estimate (32-byte sectors per warp request) against
Nsight Compute, access by access, for the testcases and the analysis programs.

Three steps, on two machines:

    # here (clang-19, opt-19, the plugin): IR, PTX and sm_90 cubins with line
    # info, the launch of every kernel at a moderate size, the estimates
    .venv/bin/python scripts/ncu_validate.py prepare            # -> build/ncu/

    # on the GPU machine (python3, cuda-core or CuPy, numpy, ncu; no clang,
    # no click/rich: this file imports nothing from coalda in that step)
    python3 scripts/ncu_validate.py measure build/ncu $OUT      # carry build/ncu

    # here: copy $OUT/measured.csv, kernels.csv and meta.json into
    # docs/runs/ncu/, then join them with what `coalda analyze` estimates today
    .venv/bin/python scripts/ncu_validate.py table              # -> docs/cost-validation.md

`measure` launches every kernel once (the unoptimized kernel, clang -O3, as
`coalda analyze` sees it) under `ncu --section SourceCounters`, one ncu run
per source file, and reads, per SASS instruction, the L2 theoretical sectors
of global accesses (exactly the sectors a warp's addresses touch) and the
requests; it sums them per source line and per load/store. It reads the
report with Nsight Compute's Python module (ncu_report); where that cannot be
imported it falls back to `ncu --import --page source --csv --print-source
sass` and nvdisasm's line table (`parse` redoes that step from the raw files,
which `measure` always keeps in $OUT/ncu-raw.tar.gz).
"""

from __future__ import annotations

import argparse
import csv
import glob
import hashlib
import io
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
DEFAULT_DIR = REPO / "build" / "ncu"
RUNS = REPO / "docs" / "runs" / "ncu"
DOC = REPO / "docs" / "cost-validation.md"
ARCH = "sm_90"  # H100 and H200
OPT_LEVEL = 3  # what `coalda analyze` uses by default
SIZE = 65536  # n of every launch spec, unless a group says otherwise
WARP = 32
SMS = 132  # `sms` in grid expressions (H100 SXM and H200 have 132)
MANIFEST_VERSION = 1

# Kernel-wide counters, a cross-check of the per-line sums.
KERNEL_METRICS = (
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_global_ld.sum",
    "smsp__sass_inst_executed_op_global_st.sum",
)
# Per-instruction (SourceCounters) metrics: the report's metric names and the
# source page's CSV columns, each in the order they are tried.
PC_METRICS = {
    "sectors": (("memory_l2_theoretical_sectors_global",), ("L2 Theoretical Sectors Global",)),
    "ideal_sectors": (("memory_l2_theoretical_sectors_global_ideal",), ("L2 Theoretical Sectors Global Ideal",)),
    "requests": (("memory_l1_tag_requests_global",), ("L1 Tag Requests Global",)),
    "inst_executed": (("inst_executed",), ("Instructions Executed", "Warp Instructions Executed")),
    # threads whose predicate was on: the lanes that made the request
    "thread_inst_executed": (("thread_inst_executed_true", "thread_inst_executed"),
                             ("Predicated-On Thread Instructions Executed", "Thread Instructions Executed")),
}

MEASURED_FIELDS = [
    "group", "source", "kernel", "symbol", "file", "line", "kind", "instructions", "sass",
    "inst_executed", "requests", "sectors", "ideal_sectors", "thread_inst_executed", "per_instruction", "method",
]
KERNEL_FIELDS = ["group", "kernel", "symbol", "grid", "block", "launched", *KERNEL_METRICS]

# Launch specs of testcases/analysis/ (those files have no .toml beside them;
# the analysis programs are not run by `coalda run`). Same format as
# coalda/check/spec.py; `size` is this group's n.
ANALYSIS_SPECS = {
    "chunks.cu": """
[kernels.scale_chunks]  # thread t owns data[8t .. 8t+7]
block = 128
grid = "cdiv(cdiv(n, 8), block)"
align = 4
params = [{ name = "data", inout = "4*n" }, { name = "s", value = 2 }, { name = "n", value = "n" }]
""",
    "columns.cu": """
[kernels.fan1]  # a 1024 x 1024 matrix, column t = 0: rows 4 KiB apart
block = 128
grid = 8
align = 4
params = [{ name = "m", out = 4194304 }, { name = "a", in = 4194304 }, { name = "Size", value = 1024 },
          { name = "t", value = 0 }]

[kernels.invert_mapping]  # 8 features per point
block = 128
grid = "cdiv(n, block)"
align = 4
params = [{ name = "input", in = "32*n" }, { name = "output", out = "32*n" }, { name = "npoints", value = "n" },
          { name = "nfeatures", value = 8 }]
""",
    "particles.cu": """
[kernels.weigh]
block = 128
grid = "cdiv(n, block)"
align = 16
params = [{ name = "p", in = "16*n" }, { name = "out", out = "4*n" }, { name = "n", value = "n" }]

[kernels.kinetic]
block = 128
grid = "cdiv(n, block)"
align = 8
params = [{ name = "b", in = "32*n" }, { name = "vel2", in = "8*n" }, { name = "energy", out = "8*n" },
          { name = "n", value = "n" }]
""",
    "stencil.cu": """
[kernels.smooth]
block = 128
grid = "cdiv(n, block)"
align = 4
params = [{ name = "out", out = "4*n" }, { name = "in", in = "4*n" }, { name = "n", value = "n" }]
""",
}


def log(msg: str) -> None:
    print(msg, flush=True)


# --------------------------------------------------------------------------
# prepare (here)
# --------------------------------------------------------------------------

def sources() -> list[Path]:
    """testcases/*.cu and testcases/analysis/*.cu, repo-relative."""
    found = sorted((REPO / "testcases").glob("*.cu")) + sorted((REPO / "testcases" / "analysis").glob("*.cu"))
    return [p.relative_to(REPO) for p in found]


def group_name(source: Path) -> str:
    rel = source.relative_to("testcases") if source.parts[0] == "testcases" else source
    return "-".join(rel.with_suffix("").parts)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _ptxas() -> str:
    """The project's ptxas (the CUDA 12.5 wheels), else one on PATH; COALDA_PTXAS overrides."""
    if os.environ.get("COALDA_PTXAS"):
        return os.environ["COALDA_PTXAS"]
    try:
        from coalda.driver.toolchain import cuda_path  # noqa: PLC0415

        candidate = Path(cuda_path()) / "bin" / "ptxas"
        if candidate.is_file():
            return str(candidate)
    except Exception:  # noqa: BLE001 - any failure: look on PATH
        pass
    found = shutil.which("ptxas")
    if not found:
        sys.exit("prepare: no ptxas (set COALDA_PTXAS)")
    return found


def relative_ptx_files(ptx: str, root: Path) -> str:
    """`.file N "/abs/repo/testcases/x.cu"` -> `"testcases/x.cu"`: the line
    table names the repo's files relative to its root, wherever it is copied."""
    prefix = str(root).rstrip("/") + "/"

    def fix(m: re.Match[str]) -> str:
        path = m.group(2)
        if path.startswith(prefix):
            path = path[len(prefix):]
        return f'{m.group(1)}"{path}"'

    return re.sub(r'^(\s*\.file\s+\d+\s+)"([^"]*)"', fix, ptx, flags=re.M)


def _launch_args(kspec: Any, signature: tuple[tuple[str, str], ...], n: int) -> list[dict[str, Any]]:
    from coalda.check.spec import evaluate  # noqa: PLC0415

    if len(signature) != len(kspec.params):
        raise ValueError(f"{len(kspec.params)} parameters in the spec, {len(signature)} in the kernel")
    args = []
    for param, (_, ty) in zip(kspec.params, signature):
        value = evaluate(param.expr, {"n": n})
        if param.is_buffer:
            if ty != "ptr":
                raise ValueError(f"parameter {param.name} is a buffer in the spec but {ty} in the kernel")
            arg: dict[str, Any] = {"name": param.name, "kind": "buffer", "bytes": int(value), "fill": "random"}
            if param.int32 is not None:
                arg.update(fill="int32", value=int(evaluate(param.int32, {"n": n})))
            args.append(arg)
        else:
            args.append({"name": param.name, "kind": "scalar", "type": ty, "value": value})
    return args


def prepare(out: Path, size: int, only: list[str] | None) -> None:
    """build/ncu/: per source file its device IR, PTX and sm_90 cubin (line
    info), the report and `coalda analyze --format json`, and a manifest with
    each kernel's launch at size n (no coalda needed to read it)."""
    from coalda.driver.compile import CompileOptions  # noqa: PLC0415

    ptxas = _ptxas()
    ptxas_version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout.strip().splitlines()[-1:]
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    options = CompileOptions(arch=ARCH, opt_level=OPT_LEVEL)
    cwd = os.getcwd()
    os.chdir(REPO)  # sources are named repo-relative, as `coalda analyze testcases/x.cu` names them
    try:
        groups = _prepare_groups(out, size, only, options, ptxas)
    finally:
        os.chdir(cwd)
    manifest = {
        "version": MANIFEST_VERSION, "arch": ARCH, "opt_level": OPT_LEVEL, "sms": SMS,
        "repo_root": str(REPO), "ptxas": ptxas_version, "groups": groups,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"wrote {out} ({total / 1e6:.1f} MB, {sum(len(g['kernels']) for g in groups)} kernels); on the GPU machine:")
    log(f"  python3 scripts/ncu_validate.py measure {os.path.relpath(out, REPO)} $OUT")


def _prepare_groups(out: Path, size: int, only: list[str] | None, options: Any, ptxas: str) -> list[dict[str, Any]]:
    from coalda.driver.compile import run_tool  # noqa: PLC0415
    from coalda.ir import signatures  # noqa: PLC0415
    from coalda.driver.pipeline import Artifacts, build  # noqa: PLC0415
    from coalda.check.spec import load_spec, spec_path  # noqa: PLC0415

    groups = []
    for source in sources():
        name = group_name(source)
        if only and name not in only and str(source) not in only:
            continue
        gdir = out / name
        gdir.mkdir()
        toml = spec_path(source)
        if toml.is_file():
            spec_file = toml
        elif source.name in ANALYSIS_SPECS and source.parent.name == "analysis":
            spec_file = gdir / "spec.toml"
            spec_file.write_text(ANALYSIS_SPECS[source.name].lstrip())
        else:
            log(f"{source}: no launch spec ({toml} is missing): not measured")
            groups.append({"name": name, "source": str(source), "kernels": [], "skipped": [
                {"name": "*", "why": f"no launch spec {toml}"}]})
            shutil.rmtree(gdir)
            continue
        spec = load_spec(spec_file)
        spec_name = os.path.relpath(spec_file, REPO)
        # no larger than the spec runs on a GPU: a 2-D testcase's n is a
        # matrix side (65536^2 floats would overflow Rodinia's int indices)
        n = min(size, max(spec.gpu_sizes))
        stem = source.stem
        result = build(source, options, Artifacts(gdir, stem), ptx=True)
        report = result.report
        ptx = relative_ptx_files((gdir / f"{stem}.before.ptx").read_text(), REPO)
        (gdir / f"{stem}.before.ptx").write_text(ptx)
        cubin = gdir / f"{stem}.{ARCH}.cubin"
        run_tool("ptxas failed", [ptxas, f"-arch={ARCH}", "-lineinfo", gdir / f"{stem}.before.ptx", "-o", cubin])
        sigs = signatures((gdir / f"{stem}.before.ll").read_text())
        analyzed = subprocess.run([sys.executable, "-m", "coalda.cli", "analyze", "--format", "json", str(source)],
                                  capture_output=True, text=True, check=True).stdout
        (gdir / "analyze.json").write_text(analyzed)
        for extra in ("after.ll", "after.ptx", "diff", "remarks.yaml"):
            (gdir / f"{stem}.{extra}").unlink(missing_ok=True)
        kernels, skipped = [], []
        for kernel in report["kernels"]:
            kname, symbol = kernel["name"], kernel["symbol"]
            kspec = spec.kernels.get(kname)
            if kspec is None:
                skipped.append({"name": kname, "why": f"no [kernels.{kname}] in {spec_name}"})
                continue
            try:
                grid, block = kspec.dims(n, sms=SMS)
                args = _launch_args(kspec, sigs[symbol], n)
                shared = kspec.shared_bytes(n)
            except Exception as exc:  # noqa: BLE001 - one line per kernel that cannot be launched
                skipped.append({"name": kname, "why": str(exc)})
                continue
            kernels.append({"name": kname, "symbol": symbol, "grid": list(grid), "block": list(block),
                            "shared": int(shared), "args": args})
        files = {str(source): _digest(REPO / source)}
        for header in source.parent.glob("*.h"):
            files[str(header)] = _digest(REPO / header)
        groups.append({
            "name": name, "source": str(source), "n": n, "spec": spec_name,
            "ptx": f"{name}/{stem}.before.ptx", "cubin": f"{name}/{cubin.name}", "files": files,
            "kernels": kernels, "skipped": skipped,
        })
        log(f"{source}: {len(kernels)} kernels" + (f", {len(skipped)} skipped" if skipped else ""))
        for s in skipped:
            log(f"  skipped {s['name']}: {s['why']}")
    return groups


# --------------------------------------------------------------------------
# launch (on the GPU machine, under ncu): no coalda, no click/rich
# --------------------------------------------------------------------------

_NP_TYPES = {"i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "float": "float32",
             "double": "float64", "half": "float16"}


def _scalar(np: Any, ty: str, value: Any) -> Any:
    kind = getattr(np, _NP_TYPES[ty])
    if np.issubdtype(kind, np.integer):
        bits = np.iinfo(kind).bits
        return kind(np.array(int(value) % (1 << bits), dtype=np.uint64).astype(kind))
    return kind(value)


def _host_bytes(np: Any, arg: dict[str, Any], rng: Any) -> Any:
    if arg["fill"] == "int32":
        return np.full(arg["bytes"] // 4, arg["value"], dtype="<i4").view(np.uint8)
    return rng.integers(0, 256, arg["bytes"], dtype=np.uint8)


def _ptx_to_cubin(ptx: Path, arch: str, out: Path) -> Path:
    ptxas = shutil.which("ptxas") or next(iter(glob.glob("/usr/local/cuda*/bin/ptxas")), None)
    if not ptxas:
        raise RuntimeError("no ptxas to build the cubin for this GPU")
    subprocess.run([ptxas, f"-arch={arch}", "-lineinfo", str(ptx), "-o", str(out)], check=True)
    return out


class _CudaCore:
    """cuda-core, as coalda/check/gpu.py uses it."""

    def __init__(self, cubin: Path) -> None:
        import cuda.core as core  # noqa: PLC0415
        from cuda.bindings import driver  # noqa: PLC0415

        self.core, self.driver = core, driver
        self.dev = core.Device()
        self.dev.set_current()
        self.stream = self.dev.create_stream()
        self.code = core.ObjectCode.from_cubin(cubin.read_bytes())

    def arch(self) -> str:
        major, minor = self.dev.compute_capability
        return f"sm_{major}{minor}"

    def run(self, np: Any, kernel: dict[str, Any], rng: Any) -> None:
        buffers, values = [], []
        for arg in kernel["args"]:
            if arg["kind"] == "buffer":
                host = _host_bytes(np, arg, rng)
                buf = self.dev.allocate(max(arg["bytes"], 1), stream=self.stream)
                self.stream.sync()
                (err,) = self.driver.cuMemcpyHtoD(int(buf.handle), host.ctypes.data, host.nbytes)
                if err != self.driver.CUresult.CUDA_SUCCESS:
                    raise RuntimeError(f"cuMemcpyHtoD: {err}")
                buffers.append(buf)
                values.append(np.uint64(int(buf.handle)))
            else:
                values.append(_scalar(np, arg["type"], arg["value"]))
        config = self.core.LaunchConfig(grid=tuple(kernel["grid"]), block=tuple(kernel["block"]),
                                        shmem_size=kernel["shared"])
        self.core.launch(self.stream, config, self.code.get_kernel(kernel["symbol"]), *values)
        self.stream.sync()
        for buf in buffers:
            buf.close()


class _CuPy:
    """CuPy, where cuda-core is missing."""

    def __init__(self, cubin: Path) -> None:
        import cupy  # noqa: PLC0415

        self.cp = cupy
        self.module = cupy.RawModule(path=str(cubin))

    def arch(self) -> str:
        return "sm_" + self.cp.cuda.Device().compute_capability

    def run(self, np: Any, kernel: dict[str, Any], rng: Any) -> None:
        values = []
        for arg in kernel["args"]:
            if arg["kind"] == "buffer":
                values.append(self.cp.asarray(_host_bytes(np, arg, rng)))
            else:
                values.append(_scalar(np, arg["type"], arg["value"]))
        fn = self.module.get_function(kernel["symbol"])
        fn(tuple(kernel["grid"]), tuple(kernel["block"]), tuple(values), shared_mem=kernel["shared"])
        self.cp.cuda.Device().synchronize()


def launch(ncu_dir: Path, group: str, record: Path) -> int:
    """Launch each kernel of GROUP once; RECORD says which ones ran, in order."""
    import numpy as np  # noqa: PLC0415

    manifest = json.loads((ncu_dir / "manifest.json").read_text())
    g = next(x for x in manifest["groups"] if x["name"] == group)
    cubin = ncu_dir / g["cubin"]
    done: list[dict[str, Any]] = []
    status = 0

    def save() -> None:
        record.write_text(json.dumps(done, indent=1) + "\n")

    runner: Any = None
    errors = []
    for backend in (_CudaCore, _CuPy):
        try:
            runner = backend(cubin)
            if runner.arch() != manifest["arch"]:  # another GPU: build its cubin from the PTX here
                runner = backend(_ptx_to_cubin(ncu_dir / g["ptx"], runner.arch(), Path(tempfile.mkdtemp()) / "k.cubin"))
            break
        except Exception as exc:  # noqa: BLE001
            errors.append(f"{backend.__name__}: {type(exc).__name__}: {exc}")
            runner = None
    if runner is None:
        done.append({"error": "; ".join(errors)})
        save()
        print("launch: cannot load the kernels: " + "; ".join(errors), file=sys.stderr)
        return 1
    rng = np.random.default_rng(1)
    for kernel in g["kernels"]:
        entry = {"name": kernel["name"], "symbol": kernel["symbol"]}
        try:
            runner.run(np, kernel, rng)
            entry["ok"] = True
        except Exception as exc:  # noqa: BLE001 - a fault ends the context: say so and stop
            entry.update(ok=False, error=f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}")
            status = 1
        done.append(entry)
        save()
        if not entry["ok"]:
            break
    save()
    return status


# --------------------------------------------------------------------------
# measure (on the GPU machine)
# --------------------------------------------------------------------------

def find_ncu() -> str | None:
    if os.environ.get("NCU"):
        return os.environ["NCU"]
    found = shutil.which("ncu")
    if found:
        return found
    for pattern in ("/usr/local/cuda/bin/ncu", "/opt/nvidia/nsight-compute/*/ncu", "/usr/local/cuda*/bin/ncu",
                    "/usr/local/cuda*/nsight-compute*/ncu"):
        hits = sorted(glob.glob(pattern))
        if hits:
            return hits[-1]
    return None


def find_ncu_report(ncu: str) -> str | None:
    """The folder of Nsight Compute's Python report module (extras/python)."""
    real = Path(os.path.realpath(ncu))
    candidates = [p / "extras" / "python" for p in list(real.parents)[:4]]
    candidates += [Path(p) for p in sorted(glob.glob("/opt/nvidia/nsight-compute/*/extras/python"))]
    candidates += [Path(p) for p in sorted(glob.glob("/usr/local/cuda*/nsight-compute*/extras/python"))]
    for c in candidates:
        if (c / "ncu_report.py").is_file():
            return str(c)
    return None


def kind_of(sass: str) -> str | None:
    """'load', 'store' or 'atomic' for a global (or generic) memory
    instruction, None for anything else."""
    tokens = sass.strip().split()
    if tokens and tokens[0].startswith("@"):
        tokens = tokens[1:]
    if not tokens:
        return None
    op = tokens[0].split(".")[0]
    if op in ("LDG", "LD"):
        return "load"
    if op in ("STG", "ST"):
        return "store"
    if op in ("ATOMG", "ATOM", "RED", "REDG"):
        return "atomic"
    return None


def _num(text: Any) -> float:
    if text is None:
        return 0.0
    if isinstance(text, (int, float)):
        return float(text)
    s = str(text).strip().replace(",", "")
    if s in ("", "-", "n/a", "N/A"):
        return 0.0
    try:
        return float(s)
    except ValueError:
        return 0.0


def normalize_file(name: str, roots: list[str]) -> str:
    """A repo-relative path where the file is the repo's, else the name as given."""
    name = name.replace("\\", "/")
    for root in roots:
        prefix = root.rstrip("/") + "/"
        if root and name.startswith(prefix):
            return name[len(prefix):]
    return name


class LineSums:
    """Per (kernel, file, line, kind): sums of the per-instruction counters."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str, int, str], dict[str, Any]] = {}

    def add(self, symbol: str, file: str, line: int, kind: str, sass: str, values: dict[str, float]) -> None:
        key = (symbol, file, line, kind)
        row = self.rows.setdefault(key, {"instructions": 0, "sass": [], "detail": [], **{k: 0.0 for k in PC_METRICS}})
        row["instructions"] += 1
        # A warp request is one warp-level execution of the instruction; L1 tag
        # requests count 128-byte lines looked up, several per request.
        executed = values.get("inst_executed") or values.get("requests") or 0
        row["detail"].append(f"{int(round(values.get('sectors', 0)))}/{int(round(executed))}")
        op = sass.strip().split()
        op = op[1] if op and op[0].startswith("@") and len(op) > 1 else (op[0] if op else "?")
        if op not in row["sass"]:
            row["sass"].append(op)
        for k in PC_METRICS:
            row[k] += values.get(k, 0.0)


def _value(metric: Any, i: int | None = None) -> float:
    """A metric's value (instance i) from ncu_report, whatever its type."""
    for name in ("value", "as_double", "as_uint64"):
        fn = getattr(metric, name, None)
        if fn is None:
            continue
        try:
            v = fn() if i is None else fn(i)
        except Exception:  # noqa: BLE001 - try the next accessor
            continue
        try:
            return float(v)
        except (TypeError, ValueError):
            continue
    return 0.0


def _pc(ids: Any, i: int) -> int:
    for name in ("as_uint64", "value"):
        fn = getattr(ids, name, None)
        if fn is not None:
            try:
                return int(fn(i))
            except Exception:  # noqa: BLE001
                continue
    raise RuntimeError("cannot read a correlation id")


def action_name(action: Any, ncu_report: Any) -> tuple[str, str]:
    """(mangled or best available name, display name) of a profiled kernel."""
    display = ""
    try:
        display = str(action.name())
    except Exception:  # noqa: BLE001
        pass
    mangled = ""
    try:
        mangled = str(action.name(ncu_report.IAction.NameBase_MANGLED))
    except Exception:  # noqa: BLE001
        pass
    return mangled or display, display


def match_launches(names: list[tuple[str, str]], launched: list[dict[str, Any]]) -> list[dict[str, Any] | None]:
    """Which launched kernel each profiled result is: by mangled name, by
    the kernel's name inside the display name, else in launch order."""
    ok = [k for k in launched if k.get("ok")]
    out: list[dict[str, Any] | None] = []
    for i, (mangled, display) in enumerate(names):
        hit = next((k for k in ok if k["symbol"] == mangled), None)
        if hit is None:
            hits = [k for k in ok if re.search(rf"(^|[\s:]){re.escape(k['name'])}(\(|<|$)", display)]
            hit = hits[0] if len(hits) == 1 else None
        if hit is None and i < len(ok):
            hit = ok[i]
        out.append(hit)
    return out


def read_with_ncu_report(rep: Path, launched: list[dict[str, Any]] | None, roots: list[str], ncu_report: Any,
                         sums: LineSums) -> dict[str, dict[str, float]]:
    """Per-line sums from a report through Nsight Compute's Python module;
    returns the kernel-wide metrics per symbol. LAUNCHED None: a program's
    own launches (the corpus), each profiled kernel named by the report
    (its mangled name)."""
    ctx = ncu_report.load_report(str(rep))
    actions = []
    for r in range(ctx.num_ranges()):
        rng = ctx.range_by_idx(r)
        for a in range(rng.num_actions()):
            actions.append(rng.action_by_idx(a))
    names = [action_name(a, ncu_report) for a in actions]
    if launched is None:
        launched = [{"name": display or mangled, "symbol": mangled or display, "ok": True} for mangled, display in names]
    matched = match_launches(names, launched)
    kernel_metrics: dict[str, dict[str, float]] = {}
    for action, kernel in zip(actions, matched):
        if kernel is None:
            continue
        symbol = kernel["symbol"]
        kernel_metrics[symbol] = {}
        for m in KERNEL_METRICS:
            metric = action.metric_by_name(m)
            kernel_metrics[symbol][m] = _value(metric) if metric is not None else float("nan")
        per_pc: dict[int, dict[str, float]] = defaultdict(dict)
        for key, (metric_names, _) in PC_METRICS.items():
            metric = next((m for m in map(action.metric_by_name, metric_names)
                           if m is not None and m.num_instances() and m.has_correlation_ids()), None)
            if metric is None:
                continue
            ids = metric.correlation_ids()
            for i in range(metric.num_instances()):
                per_pc[_pc(ids, i)][key] = per_pc[_pc(ids, i)].get(key, 0.0) + _value(metric, i)
        for pc, values in sorted(per_pc.items()):
            sass = str(action.sass_by_pc(pc) or "")
            kind = kind_of(sass)
            if kind is None or (_opcode(sass) in ("LD", "ST") and not values.get("sectors")):
                continue  # not global memory (a generic access that never reached global memory)
            info = action.source_info(pc)
            file = normalize_file(str(info.file_name()), roots) if info else ""
            line = int(info.line()) if info else 0
            sums.add(symbol, file, line, kind, sass, values)
    return kernel_metrics


# --- the CSV fallback: the source page's SASS rows plus nvdisasm's line table

def parse_nvdisasm(text: str) -> dict[str, list[tuple[int, str, int, str]]]:
    """nvdisasm -g output -> {function: [(offset, file, line, instruction)]}."""
    out: dict[str, list[tuple[int, str, int, str]]] = {}
    func = None
    file, line = "", 0
    for raw in text.splitlines():
        m = re.match(r"^\s*\.text\.(\S+?):\s*$", raw)
        if m:
            func = m.group(1)
            out.setdefault(func, [])
            file, line = "", 0
            continue
        m = re.search(r'//##\s*File\s+"([^"]*)",\s*line\s+(\d+)', raw)
        if m:
            file, line = m.group(1), int(m.group(2))
            continue
        m = re.match(r"^\s*/\*([0-9a-fA-F]{4,})\*/\s*(.*?)\s*;", raw)
        if m and func is not None:
            text_ = re.sub(r"/\*.*?\*/", "", m.group(2)).strip()
            out[func].append((int(m.group(1), 16), file, line, text_))
    return out


def split_source_csv(text: str) -> list[dict[str, Any]]:
    """`ncu --import R --page source --csv --print-source sass` -> one block
    per kernel: {"banner": [...], "header": [...], "rows": [[...]]}."""
    blocks: list[dict[str, Any]] = []
    banner: list[str] = []
    current: dict[str, Any] | None = None
    for row in csv.reader(io.StringIO(text)):
        if not row or not any(c.strip() for c in row):
            continue
        if "Address" in map(_clean, row) and "Source" in map(_clean, row):
            current = {"banner": banner, "header": row, "rows": []}
            blocks.append(current)
            banner = []
            continue
        if current is not None and len(row) == len(current["header"]):
            current["rows"].append(row)
        elif len([c for c in row if c.strip()]) <= 2:  # a title: the next kernel's name
            banner.append(" ".join(c.strip() for c in row if c.strip()))
            current = None
    return blocks


def _column(header: list[str], key: str) -> int | None:
    metrics, labels = PC_METRICS[key]
    names = [_clean(h) for h in header]
    for want in (*labels, *metrics):
        if want in names:
            return names.index(want)
    return None


def _clean(cell: str) -> str:
    """A header cell without a leading '#' or a trailing unit: `# Address` -> `Address`."""
    cell = cell.strip().lstrip("#").strip()
    return re.sub(r"\s*\[[^]]*\]$", "", cell)


def _opcode(sass: str) -> str:
    tokens = sass.strip().split()
    if tokens and tokens[0].startswith("@"):
        tokens = tokens[1:]
    return tokens[0].split(".")[0] if tokens else ""


def read_source_csv(text: str, disasm: dict[str, list[tuple[int, str, int, str]]], launched: list[dict[str, Any]],
                    roots: list[str], sums: LineSums) -> int:
    """Per-line sums from the source page's SASS rows, each instruction's line
    from nvdisasm: by offset from the function's first instruction, or by
    position where the offsets do not agree. Returns the kernels read."""
    blocks = split_source_csv(text)
    names = []
    for b in blocks:
        title = " ".join(b["banner"])
        names.append((title, title))
    matched = match_launches(names, launched)
    read = 0
    for block, kernel in zip(blocks, matched):
        if kernel is None:
            continue
        header, rows = block["header"], block["rows"]
        names = [_clean(h) for h in header]
        a_col, s_col = names.index("Address"), names.index("Source")
        cols = {k: _column(header, k) for k in PC_METRICS}
        table = disasm.get(kernel["symbol"], [])
        by_offset = {off: (f, ln, ins) for off, f, ln, ins in table}
        addrs = []
        for r in rows:
            try:
                addrs.append(int(r[a_col].strip().lower().removeprefix("0x"), 16))
            except ValueError:
                addrs.append(None)
        base = next((a for a in addrs if a is not None), 0)

        def agree(pick: Any) -> int:
            return sum(1 for i, r in enumerate(rows) if (hit := pick(i)) and _opcode(hit[2]) == _opcode(r[s_col]))

        pick_offset = lambda i: by_offset.get(addrs[i] - base) if addrs[i] is not None else None  # noqa: E731
        pick_index = lambda i: table[i][1:] if i < len(table) else None  # noqa: E731
        pick = pick_offset if agree(pick_offset) >= agree(pick_index) else pick_index
        for i, r in enumerate(rows):
            sass = r[s_col]
            kind = kind_of(sass)
            if kind is None:
                continue
            values = {k: _num(r[c]) for k, c in cols.items() if c is not None}
            if _opcode(sass) in ("LD", "ST") and not values.get("sectors"):
                continue
            hit = pick(i)
            file, line = (normalize_file(hit[0], roots), hit[1]) if hit else ("", 0)
            sums.add(kernel["symbol"], file, line, kind, sass, values)
        read += 1
    return read


def read_raw_csv(text: str, launched: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """`ncu --import R --page raw --csv`: the kernel-wide metrics per kernel."""
    rows = [r for r in csv.reader(io.StringIO(text)) if r]
    if not rows:
        return {}
    header = rows[0]
    data = [r for r in rows[1:] if len(r) == len(header)]
    if data and not any(ch.isdigit() for ch in "".join(data[0][:1])):  # a units row
        data = data[1:]
    name_col = next((header.index(c) for c in ("Kernel Name", "Function Name", "Demangled Name") if c in header), None)
    names = [(r[name_col], r[name_col]) if name_col is not None else ("", "") for r in data]
    out = {}
    for r, kernel in zip(data, match_launches(names, launched)):
        if kernel is not None:
            out[kernel["symbol"]] = {m: (_num(r[header.index(m)]) if m in header else float("nan")) for m in KERNEL_METRICS}
    return out


def _run(cmd: list[str], logf: Any, timeout: int, **kw: Any) -> subprocess.CompletedProcess[str]:
    logf.write("$ " + " ".join(cmd) + "\n")
    logf.flush()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        logf.write(f"timed out after {timeout} s\n")
        return subprocess.CompletedProcess(cmd, 124, "", "timed out")
    logf.write(proc.stderr[-4000:] + "\n")
    return proc


def write_measured(path: Path, manifest: dict[str, Any], sums_by_group: dict[str, LineSums],
                   methods: dict[str, str]) -> int:
    rows = []
    for g in manifest["groups"]:
        sums = sums_by_group.get(g["name"])
        if sums is None:
            continue
        names = {k["symbol"]: k["name"] for k in g["kernels"]}
        for (symbol, file, line, kind), v in sorted(sums.rows.items()):
            rows.append({
                "group": g["name"], "source": g["source"], "kernel": names.get(symbol, symbol), "symbol": symbol,
                "file": file, "line": line, "kind": kind, "instructions": v["instructions"],
                "sass": " ".join(v["sass"]), **{k: int(round(v[k])) for k in PC_METRICS},
                "per_instruction": " ".join(v["detail"]),
                "method": methods.get(g["name"], ""),
            })
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=MEASURED_FIELDS)
        w.writeheader()
        w.writerows(rows)
    return len(rows)


def pack_raw(raw: Path, out: Path) -> None:
    """RAW's ncu pages into OUT/ncu-raw.tar.gz (what `parse` reads again), and
    its .ncu-rep reports into OUT/ncu-reports.tar.gz where they are small
    enough (15 MB) to come back from the GPU machine."""
    with tarfile.open(out / "ncu-raw.tar.gz", "w:gz") as tar:
        for f in sorted(raw.iterdir()):
            if f.suffix != ".ncu-rep":
                tar.add(f, arcname=f"ncu-raw/{f.name}")
    reps = sorted(raw.glob("*.ncu-rep"))
    if reps and sum(f.stat().st_size for f in reps) < 15e6:
        with tarfile.open(out / "ncu-reports.tar.gz", "w:gz") as tar:
            for f in reps:
                tar.add(f, arcname=f"ncu-reports/{f.name}")


def measure(ncu_dir: Path, out: Path, only: list[str] | None, timeout: int, budget: int = 420) -> int:
    """Every kernel under ncu, one ncu run per group; groups not started
    within BUDGET seconds are left out (and said to be)."""
    start = time.time()
    out.mkdir(parents=True, exist_ok=True)
    manifest = json.loads((ncu_dir / "manifest.json").read_text())
    raw = Path(tempfile.mkdtemp(prefix="ncu-raw-"))
    logf = (raw / "measure.log").open("w")
    ncu = find_ncu()
    if ncu is None:
        sys.exit("measure: ncu not found (set NCU=/path/to/ncu)")
    meta: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "command": " ".join(["python3", "scripts/ncu_validate.py", *sys.argv[1:]]),
        "ncu": ncu, "python": sys.version.split()[0], "arch": manifest["arch"], "opt_level": manifest["opt_level"],
        "sizes": {g["name"]: g.get("n") for g in manifest["groups"]},
        "files": {f: d for g in manifest["groups"] for f, d in g.get("files", {}).items()},
    }
    meta["ncu_version"] = _run([ncu, "--version"], logf, 60).stdout.strip().splitlines()[-1:]
    smi = shutil.which("nvidia-smi")
    if smi:
        meta["gpu"] = _run([smi, "--query-gpu=name,driver_version", "--format=csv,noheader"], logf, 60).stdout.strip()
    report_dir = find_ncu_report(ncu)
    ncu_report = None
    if report_dir:
        sys.path.insert(0, report_dir)
        try:
            import ncu_report as _ncu_report  # type: ignore[import-not-found]  # noqa: PLC0415

            ncu_report = _ncu_report
        except Exception as exc:  # noqa: BLE001
            logf.write(f"cannot import ncu_report from {report_dir}: {exc}\n")
    meta["ncu_report"] = report_dir if ncu_report else None
    nvdisasm = shutil.which("nvdisasm") or next(iter(sorted(glob.glob("/usr/local/cuda*/bin/nvdisasm"))), None)
    roots = [str(Path.cwd()), str(REPO), manifest.get("repo_root", "")]
    sums_by_group: dict[str, LineSums] = {}
    methods: dict[str, str] = {}
    kernel_rows = []
    problems = []
    for g in manifest["groups"]:
        if not g["kernels"] or (only and g["name"] not in only):
            continue
        name = g["name"]
        t0 = time.time()
        left = budget - (t0 - start)
        if left < 20:
            problems.append(f"{name}: not measured, the time budget ({budget} s) is spent")
            log(problems[-1])
            continue
        timeout_now = int(min(timeout, left))
        rep = raw / f"{name}.ncu-rep"
        record = raw / f"{name}.launched.json"
        cmd = [ncu, "--clock-control", "none", "--section", "SourceCounters", "--metrics", ",".join(KERNEL_METRICS),
               "--force-overwrite", "--export", str(rep.with_suffix("")),
               sys.executable, str(Path(__file__).resolve()), "launch", str(ncu_dir), name, str(record)]
        proc = _run(cmd, logf, timeout_now, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        (raw / f"{name}.ncu.txt").write_text(proc.stdout[-200000:] + "\n--- stderr\n" + proc.stderr[-200000:])
        launched = json.loads(record.read_text()) if record.is_file() else []
        failed = [k for k in launched if not k.get("ok")]
        if proc.returncode != 0 or failed or len(launched) != len(g["kernels"]):
            why = "; ".join(f"{k.get('name', '?')}: {k.get('error')}" for k in failed) or f"ncu exit {proc.returncode}"
            problems.append(f"{name}: {why}")
        if not rep.is_file():
            log(f"{name}: no report ({time.time() - t0:.0f} s): {proc.stderr.strip()[-300:]}")
            continue
        sums = LineSums()
        kmetrics: dict[str, dict[str, float]] = {}
        if ncu_report is not None:
            try:
                kmetrics = read_with_ncu_report(rep, launched, roots, ncu_report, sums)
                if sums.rows and any(line for _, _, line, _ in sums.rows):
                    methods[name] = "ncu_report"
                else:
                    logf.write(f"{name}: ncu_report gave no global access with a source line\n")
                    sums = LineSums()
            except Exception as exc:  # noqa: BLE001 - fall back to the CSV pages
                logf.write(f"{name}: ncu_report failed: {type(exc).__name__}: {exc}\n")
                sums = LineSums()
        # the raw pages, always (the fallback, and `parse` can redo this offline)
        src = _run([ncu, "--import", str(rep), "--page", "source", "--csv", "--print-source", "sass",
                    "--print-units", "base"], logf, timeout)
        (raw / f"{name}.source.csv").write_text(src.stdout)
        rawp = _run([ncu, "--import", str(rep), "--page", "raw", "--csv", "--print-units", "base",
                     "--metrics", ",".join(KERNEL_METRICS)], logf, timeout)
        (raw / f"{name}.raw.csv").write_text(rawp.stdout)
        if nvdisasm:
            dis = _run([nvdisasm, "-g", "-c", str(ncu_dir / g["cubin"])], logf, timeout)
            (raw / f"{name}.nvdisasm.txt").write_text(dis.stdout)
        if name not in methods:
            disasm = parse_nvdisasm((raw / f"{name}.nvdisasm.txt").read_text()) if nvdisasm else {}
            if read_source_csv(src.stdout, disasm, launched, roots, sums):
                methods[name] = "source-csv+nvdisasm"
            kmetrics = read_raw_csv(rawp.stdout, launched)
        sums_by_group[name] = sums
        if sums.rows and not any(line for _, _, line, _ in sums.rows):
            problems.append(f"{name}: no global access has a source line (see ncu-raw/{name}.source.csv, "
                            f"{name}.nvdisasm.txt; `parse` redoes the reading)")
        elif not sums.rows:
            problems.append(f"{name}: no global access read from the report")
        for k in g["kernels"]:
            ran = next((x for x in launched if x.get("symbol") == k["symbol"]), {})
            km = kmetrics.get(k["symbol"], {})
            kernel_rows.append({"group": name, "kernel": k["name"], "symbol": k["symbol"],
                                "grid": "x".join(map(str, k["grid"])), "block": "x".join(map(str, k["block"])),
                                "launched": bool(ran.get("ok")),
                                **{m: ("" if m not in km or km[m] != km[m] else int(round(km[m]))) for m in KERNEL_METRICS}})
        log(f"{name}: {sum(1 for x in launched if x.get('ok'))}/{len(g['kernels'])} kernels, "
            f"{len(sums.rows)} measured lines, {methods.get(name, 'NOT READ')} ({time.time() - t0:.0f} s)")
    n = write_measured(out / "measured.csv", manifest, sums_by_group, methods)
    with (out / "kernels.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=KERNEL_FIELDS)
        w.writeheader()
        w.writerows(kernel_rows)
    meta["problems"] = problems
    meta["seconds"] = round(time.time() - start)
    (out / "meta.json").write_text(json.dumps(meta, indent=1) + "\n")
    logf.close()
    pack_raw(raw, out)
    log(f"wrote {out}/measured.csv ({n} rows), kernels.csv, meta.json, ncu-raw.tar.gz in {time.time() - start:.0f} s")
    for p in problems:
        log(f"problem: {p}")
    return 0 if n and not problems else 1


def parse_raw(rawdir: Path, ncu_dir: Path, out: Path) -> int:
    """Redo measure's reading step offline from its raw pages (ncu-raw/)."""
    manifest = json.loads((ncu_dir / "manifest.json").read_text())
    roots = [str(REPO), manifest.get("repo_root", "")]
    sums_by_group, methods = {}, {}
    for g in manifest["groups"]:
        name = g["name"]
        src = rawdir / f"{name}.source.csv"
        if not src.is_file():
            continue
        record = rawdir / f"{name}.launched.json"
        launched = json.loads(record.read_text()) if record.is_file() else [
            {"name": k["name"], "symbol": k["symbol"], "ok": True} for k in g["kernels"]]
        dis = rawdir / f"{name}.nvdisasm.txt"
        sums = LineSums()
        read_source_csv(src.read_text(), parse_nvdisasm(dis.read_text()) if dis.is_file() else {}, launched, roots, sums)
        sums_by_group[name] = sums
        methods[name] = "source-csv+nvdisasm"
    out.mkdir(parents=True, exist_ok=True)
    n = write_measured(out / "measured.csv", manifest, sums_by_group, methods)
    log(f"wrote {out}/measured.csv ({n} rows)")
    return 0


# --------------------------------------------------------------------------
# table (here)
# --------------------------------------------------------------------------

def estimate(access: dict[str, Any]) -> int | None:
    """COALDA's estimate for one access: what `coalda analyze --format text`
    prints (coalda/findings/diagnostics.py), for every global access with a known
    stride; None for unknown accesses and run-time strides."""
    from coalda.findings import diagnostics  # noqa: PLC0415

    if access.get("space", "global") != "global" or access.get("class") == "unknown" or access.get("stride") is None:
        return None
    piece = diagnostics._piece(access) if hasattr(diagnostics, "_piece") else int(access.get("piece", access["width"]))
    return diagnostics.sectors(access["stride"], piece, diagnostics.start_phase(access))


def ideal(access: dict[str, Any]) -> int:
    from coalda.findings import diagnostics  # noqa: PLC0415

    return diagnostics.ideal_sectors(int(access.get("piece", access["width"])))


def read_measured(path: Path) -> list[dict[str, Any]]:
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("line", "instructions", *PC_METRICS):
            r[k] = int(r[k]) if r[k] not in ("", None) else 0
        r["per_instruction"] = r.get("per_instruction") or ""
    return rows


def instruction_ratios(m: dict[str, Any]) -> list[float]:
    """Sectors per request of each instruction of a measured line, distinct, ascending."""
    out = set()
    for item in m.get("per_instruction", "").split():
        sectors, _, requests = item.partition("/")
        if int(requests or 0):
            out.add(int(sectors) / int(requests))
    return sorted(out)


def analyze_sources(srcs: list[str], arch: str = ARCH, opt_level: int = OPT_LEVEL) -> dict[str, dict[str, Any]]:
    """`coalda analyze` of each source (what the CLI reports), repo-relative."""
    from coalda.driver.compile import CompileOptions  # noqa: PLC0415
    from coalda.driver.pipeline import analyze  # noqa: PLC0415

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        return {s: analyze(Path(s), CompileOptions(arch=arch, opt_level=opt_level)) for s in srcs}
    finally:
        os.chdir(cwd)


def _base(path: str) -> str:
    return Path(path).name


def build_rows(measured: list[dict[str, Any]], reports: dict[str, dict[str, Any]],
               estimator: Any = None, findings_of: Any = None) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rows of the table, one per (kernel, source line, load/store); and the
    measured global accesses no row of COALDA's report covers. ESTIMATOR
    (default `estimate`) gives an access's sectors per request, FINDINGS_OF
    (default coalda.report.findings) a kernel's (access, count, ...) rows."""
    from coalda.report import findings, pattern  # noqa: PLC0415

    estimator = estimator or estimate
    findings_of = findings_of or findings

    by_key: dict[tuple[str, str, str, int, str], dict[str, Any]] = {}
    for r in measured:
        by_key[(r["source"], r["symbol"], _base(r["file"]), r["line"], r["kind"])] = r
    symbols = {(r["source"], r["symbol"]) for r in measured}
    rows, used = [], set()
    for source, report in reports.items():
        for kernel in report["kernels"]:
            if (source, kernel["symbol"]) not in symbols:
                continue
            lines: dict[tuple[str, int, str], list[tuple[dict[str, Any], int]]] = defaultdict(list)
            for access, count, *_ in findings_of(report, kernel):
                if access.get("space", "global") != "global":
                    continue
                lines[(access.get("file") or source, access["line"], access["kind"])].append((access, count))
            for (file, line, kind), accesses in sorted(lines.items(), key=lambda kv: (kv[0][1], kv[0][0], kv[0][2])):
                key = (source, kernel["symbol"], _base(file), line, kind)
                m = by_key.get(key)
                if m is not None:
                    used.add(key)
                ests = [(estimator(a), c) for a, c in accesses]
                known = all(e is not None for e, _ in ests)
                count = sum(c for _, c in accesses)
                est = sum(e * c for e, c in ests) / count if known else None  # type: ignore[operator]
                rows.append({
                    "source": source, "kernel": kernel["name"], "symbol": kernel["symbol"], "file": file,
                    "line": line, "kind": kind, "columns": sorted({a["column"] for a, _ in accesses}),
                    "patterns": sorted({pattern(a) for a, _ in accesses}), "count": count,
                    "width": sorted({(a["width"], int(a.get("piece", a["width"]))) for a, _ in accesses}),
                    "classes": sorted({a.get("class", "?") for a, _ in accesses}),
                    "lanes": sorted({a.get("lane", "?") for a, _ in accesses}),
                    "accesses": [a for a, _ in accesses],
                    "estimate": est, "ideal": sum(ideal(a) * c for a, c in accesses) / count,
                    "estimates": sorted({e for e, _ in ests if e is not None}),
                    "why_none": "" if known else ("run-time stride" if all(a.get("class") != "unknown" for a, _ in accesses)
                                                  else "unknown access"),
                    "measured": m,
                })
    extra = [r for k, r in sorted(by_key.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][3], kv[0][4]))
             if k not in used and (r["source"], r["symbol"]) in symbols]
    return rows, extra


def warp_requests(m: dict[str, Any]) -> float:
    """Warp requests of a measured line: warp-level executions of its
    instructions (L1 tag requests where the report has no inst_executed; they
    count 128-byte lines, so a request touching four lines counts four)."""
    return m["inst_executed"] or m["requests"]


def per_request(m: dict[str, Any] | None) -> float | None:
    """Measured 32-byte sectors per warp request: L2 theoretical sectors over
    warp-level instruction executions."""
    if not m:
        return None
    requests = warp_requests(m)
    return m["sectors"] / requests if requests else None


def _fmt(x: float | None, digits: int = 2) -> str:
    if x is None:
        return "–"
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.{digits}f}"


def rel_error(est: float | None, meas: float | None) -> float | None:
    if est is None or meas is None or meas == 0:
        return None
    return (est - meas) / meas


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{x * 100:+.1f}%" if abs(x) >= 0.0005 else "0%"


TABLE_HEADER = ["kernel", "line", "kind", "pattern", "width B (piece)", "estimate", "measured", "error",
                "warp requests", "L1 tag requests", "active lanes", "SASS"]


def row_cells(r: dict[str, Any]) -> list[str]:
    m = r["measured"]
    meas = per_request(m)
    lanes = active_lanes(m)
    widths = ", ".join(f"{w}" + (f" ({p})" if p != w else "") for w, p in r["width"])
    times = f" ×{r['count']}" if r["count"] > 1 else ""
    est = _fmt(r["estimate"]) if r["estimate"] is not None else f"– ({r['why_none']})"
    if r["estimate"] is not None and len(r["estimates"]) > 1:
        est += " (" + ", ".join(map(_fmt, r["estimates"])) + ")"
    meas_cell = _fmt(meas) if m else "– (no instruction)"
    ratios = instruction_ratios(m) if m else []
    if len(ratios) > 1:
        meas_cell += " (" + ", ".join(map(_fmt, ratios)) + ")"
    return [
        f"`{r['kernel']}`", f"{_base(r['file'])}:{r['line']}", r["kind"] + times,
        ", ".join(f"`{p}`" for p in r["patterns"]), widths, est,
        meas_cell, _pct(rel_error(r["estimate"], meas)),
        _fmt(warp_requests(m)) if m else "–", _fmt(m["requests"]) if m and m["requests"] else "–",
        _fmt(lanes, 1) if lanes is not None else "–",
        m["sass"] if m else "",
    ]


def active_lanes(m: dict[str, Any] | None) -> float | None:
    """Threads per executed warp instruction of a measured line."""
    if not m or not m["inst_executed"] or not m["thread_inst_executed"]:
        return None
    return m["thread_inst_executed"] / m["inst_executed"]


def full_warps(r: dict[str, Any]) -> bool:
    """Whether every measured request of the row had 32 active lanes (the
    estimate is for a full warp)."""
    lanes = active_lanes(r["measured"])
    return lanes is not None and lanes > WARP - 0.05


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    errs = [rel_error(r["estimate"], per_request(r["measured"])) for r in rows]
    compared = [e for e in errs if e is not None]
    full = [e for r, e in zip(rows, errs) if e is not None and full_warps(r)]
    return {
        "full": len(full),
        "full_exact": sum(1 for e in full if abs(e) < 0.005),
        "rows": len(rows),
        "compared": len(compared),
        "exact": sum(1 for e in compared if abs(e) < 0.005),
        "within10": sum(1 for e in compared if abs(e) <= 0.10),
        "over": sum(1 for e in compared if e > 0.10),
        "under": sum(1 for e in compared if e < -0.10),
        "median_abs": statistics.median(abs(e) for e in compared) if compared else None,
        "mean_abs": statistics.fmean(abs(e) for e in compared) if compared else None,
        "max_abs": max((abs(e) for e in compared), default=None),
        "no_estimate": sum(1 for r in rows if r["estimate"] is None and r["measured"]),
        "no_instruction": sum(1 for r in rows if not r["measured"]),
    }


def read_kernels(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def kernel_totals(rows: list[dict[str, Any]], extra: list[dict[str, Any]],
                  kernels: list[dict[str, Any]]) -> list[list[str]]:
    """Per kernel and kind: the per-line sums (theoretical sectors over warp
    requests) against ncu's kernel-wide L1 counters (whose requests are warp
    requests too), a check that every global access was attributed to some
    line."""
    if not kernels:
        return []
    lines: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for m in [r["measured"] for r in rows if r["measured"]] + extra:
        t = lines[(m["symbol"], m["kind"])]
        t[0] += m["sectors"]
        t[1] += warp_requests(m)
    out = []
    for k in kernels:
        for kind, op in (("load", "ld"), ("store", "st")):
            sectors = k.get(f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum", "")
            requests = k.get(f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", "")
            mine = lines.get((k["symbol"], kind), [0, 0])
            if not mine[1] and not (requests and int(requests)):
                continue
            ncu = f"{int(sectors) / int(requests):.2f} ({sectors}/{requests})" if requests and int(requests) else "–"
            out.append([f"`{k['kernel']}`", kind, f"{mine[0] / mine[1]:.2f} ({mine[0]}/{mine[1]})" if mine[1] else "–", ncu])
    return out


def render(rows: list[dict[str, Any]], extra: list[dict[str, Any]], meta: dict[str, Any],
           kernels: list[dict[str, Any]] | None = None) -> str:
    s = summary(rows)
    out = ["# COALDA's cost estimate against Nsight Compute", ""]
    out += [
        "For every global access of the testcases and the analysis programs, the 32-byte sectors per",
        "warp request that `coalda analyze --format text` estimates (coalda/findings/diagnostics.py: lanes at",
        "the access's stride, each moving its piece, from a sector-aligned start) against what Nsight",
        "Compute measured on the unoptimized kernel (clang -O3, the code `coalda analyze` reads):",
        "`memory_l2_theoretical_sectors_global` (the sectors a warp's addresses touch) over",
        "`inst_executed` (warp-level executions: one per warp request), summed over the SASS instructions of",
        "each source line, loads and stores apart (SourceCounters; line info from `ptxas -lineinfo`).",
        "`memory_l1_tag_requests_global` is shown beside it but is not the denominator: the L1 looks up one",
        "tag per 128-byte line, so a request whose lanes touch four lines counts four tag requests.",
        "",
        "Generated by `scripts/ncu_validate.py table` from [`runs/ncu/measured.csv`](runs/ncu/measured.csv);",
        "`tests/test_cost_validation.py` checks that it matches that file and what `coalda analyze`",
        "estimates today. Re-measure (the steps are in the script's docstring) when the estimator or the",
        "testcases change.",
        "",
    ]
    if meta:
        out += [
            f"Measured {meta.get('date', '?')} on {meta.get('gpu', '?')}, Nsight Compute "
            f"{' '.join(meta.get('ncu_version') or ['?'])}, `{meta.get('command', '')}`; every kernel launched once "
            "at its launch spec with n = " + ", ".join(sorted({str(v) for v in (meta.get('sizes') or {}).values() if v},
                                                              key=int))
            + " (65536, or a testcase's largest GPU size where that is smaller: a matrix side; spec in"
            " `testcases/*.toml`, the analysis programs' in the script).",
            "",
        ]
    out += [
        "## Summary",
        "",
        f"- {s['rows']} source accesses (kernel, line, load/store) in {len({r['symbol'] for r in rows})} kernels; "
        f"{s['compared']} have both an estimate and a measurement.",
        f"- Estimate equal to the measurement (within 0.5%): **{s['exact']} of {s['compared']}**; "
        f"within 10%: {s['within10']}; over-estimates by more than 10%: {s['over']}; under-estimates: {s['under']}.",
        f"- Of the {s['full']} whose requests all had 32 active lanes (the estimate is for a full warp), "
        f"{s['full_exact']} are equal. The others ran partial warps (blocks not a multiple of 32 threads, loop "
        "tails: fewer lanes touch fewer sectors) or start where a run-time term of the address puts them "
        "(the estimate assumes an aligned start where the address does not fix it).",
        f"- Relative error |estimate − measured| / measured: median {_pct(s['median_abs'])}, mean "
        f"{_pct(s['mean_abs'])}, max {_pct(s['max_abs'])}.",
        f"- Measured but not estimated (run-time stride or unknown access): {s['no_estimate']}; "
        f"estimated but no SASS instruction at that line (the backend merged or removed it): {s['no_instruction']}.",
        "",
    ]
    worst = sorted((r for r in rows if rel_error(r["estimate"], per_request(r["measured"])) is not None),
                   key=lambda r: -abs(rel_error(r["estimate"], per_request(r["measured"])) or 0))
    worst = [r for r in worst if abs(rel_error(r["estimate"], per_request(r["measured"])) or 0) > 0.10][:10]
    if worst:
        out += ["Largest differences:", ""]
        for r in worst:
            out.append(f"- `{r['kernel']}` {_base(r['file'])}:{r['line']} {r['kind']}: estimate {_fmt(r['estimate'])}, "
                       f"measured {_fmt(per_request(r['measured']))} ({_pct(rel_error(r['estimate'], per_request(r['measured'])))}).")
        out.append("")
    out += ["## Per access", ""]
    for source in sorted({r["source"] for r in rows}, key=lambda s: (s.count("/"), s)):
        out += [f"### `{source}`", "", "| " + " | ".join(TABLE_HEADER) + " |",
                "|" + "|".join("---:" if h in ("estimate", "measured", "error", "warp requests", "L1 tag requests", "active lanes") else "---"
                               for h in TABLE_HEADER) + "|"]
        for r in rows:
            if r["source"] == source:
                out.append("| " + " | ".join(row_cells(r)) + " |")
        out.append("")
    if extra:
        out += ["## Measured global accesses COALDA does not report", "",
                "| source | kernel | line | kind | measured | warp requests | SASS |", "|---|---|---|---|---:|---:|---|"]
        for m in extra:
            out.append(f"| `{m['source']}` | `{m['kernel']}` | {_base(m['file']) or '?'}:{m['line']} | {m['kind']} | "
                       f"{_fmt(per_request(m))} | {_fmt(warp_requests(m))} | {m['sass']} |")
        out.append("")
    totals = kernel_totals(rows, extra, kernels or [])
    if totals:
        out += ["## Kernel totals", "",
                "The per-line sums above against ncu's kernel-wide counters (`l1tex__t_sectors_pipe_lsu_mem_global_op_ld/st`",
                "over `l1tex__t_requests_...`): equal where every global access of the kernel was attributed to a line.", "",
                "| kernel | kind | per-line sum | kernel-wide |", "|---|---|---:|---:|"]
        out += ["| " + " | ".join(t) + " |" for t in totals]
        out.append("")
    out += [
        "Columns: *estimate* and *measured* are sectors per warp request; where a line has several",
        "accesses of a kind (×N), the mean over them, with the distinct values per access (estimate) and",
        "per SASS instruction (measured) in parentheses; *error* is (estimate − measured) / measured; *warp requests*",
        "the warp-level executions measured at that line, *L1 tag requests* the 128-byte lines looked up;",
        "*active lanes* the threads per executed instruction;",
        "*SASS* the instructions ncu attributed to the line. `–`: no estimate (a run-time stride or an",
        "access COALDA cannot read) or no instruction at that line.",
        "",
    ]
    return "\n".join(out)


def generate(runs: Path = RUNS, reports: dict[str, dict[str, Any]] | None = None) -> str:
    """The document from the measurement in RUNS and `coalda analyze` of its
    sources (REPORTS, where the caller has them already)."""
    measured = read_measured(runs / "measured.csv")
    meta = json.loads((runs / "meta.json").read_text()) if (runs / "meta.json").is_file() else {}
    if reports is None:
        srcs = sorted({r["source"] for r in measured})
        reports = analyze_sources(srcs, meta.get("arch", ARCH), int(meta.get("opt_level", OPT_LEVEL)))
    rows, extra = build_rows(measured, reports)
    return render(rows, extra, meta, read_kernels(runs / "kernels.csv"))


def markdown_rows(text: str) -> list[dict[str, str]]:
    """The per-access rows of a generated table, as {column: cell} (and `source`)."""
    rows, source, header = [], None, None
    for line in text.splitlines():
        m = re.match(r"^### `(.+)`$", line)
        if m or line.startswith("#"):
            source, header = (m.group(1) if m else None), None
            continue
        if source and line.startswith("| "):
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if header is None:
                header = cells
            else:
                rows.append({"source": source, **dict(zip(header, cells))})
        elif not line.startswith("|"):
            header = None if not line.strip() else header
    return rows


# --------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("prepare", help="here: IR, PTX, cubins, launches and estimates into build/ncu/")
    p.add_argument("out", nargs="?", type=Path, default=DEFAULT_DIR)
    p.add_argument("--size", type=int, default=SIZE, help="n of the launch specs")
    p.add_argument("--only", nargs="*", help="groups (e.g. rgb, analysis-stencil) or sources")
    p = sub.add_parser("measure", help="on the GPU machine: every kernel under ncu -> OUT/measured.csv")
    p.add_argument("ncu_dir", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--only", nargs="*")
    p.add_argument("--timeout", type=int, default=150, help="seconds for one ncu run")
    p.add_argument("--budget", type=int, default=420, help="seconds after which no further group is started")
    p = sub.add_parser("launch", help="(under ncu) launch every kernel of a group once")
    p.add_argument("ncu_dir", type=Path)
    p.add_argument("group")
    p.add_argument("record", type=Path)
    p = sub.add_parser("parse", help="redo measure's reading from its raw pages (ncu-raw/) offline")
    p.add_argument("rawdir", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--ncu-dir", type=Path, default=DEFAULT_DIR)
    p = sub.add_parser("table", help="here: docs/cost-validation.md from docs/runs/ncu/ and coalda analyze")
    p.add_argument("--runs", type=Path, default=RUNS)
    p.add_argument("--out", type=Path, default=DOC)
    args = ap.parse_args(argv)
    if args.cmd == "prepare":
        prepare(args.out.resolve(), args.size, args.only)
        return 0
    if args.cmd == "measure":
        return measure(args.ncu_dir.resolve(), args.out.resolve(), args.only, args.timeout, args.budget)
    if args.cmd == "launch":
        return launch(args.ncu_dir, args.group, args.record)
    if args.cmd == "parse":
        return parse_raw(args.rawdir, args.ncu_dir, args.out)
    if args.cmd == "table":
        if not (args.runs / "measured.csv").is_file():
            sys.exit(f"table: no {args.runs / 'measured.csv'}: run measure on the GPU machine and copy its OUT here")
        args.out.write_text(generate(args.runs))
        log(f"wrote {args.out}")
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
