#!/usr/bin/env -S .venv/bin/python
"""Write random chunk-window kernels (tests/window_kernels.py) with their
launch spec into .device/window-fuzz/ and optimize them there (with
-coalda-window-read-only=runtime: the reductions' lengths are arguments), for
scripts/gpu_staging.sh windows to run on the GPU under compute-sanitizer.

    scripts/window_fuzz_prepare.py [SEED] [COUNT]      (default 0 16)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from window_kernels import random_kernels  # noqa: E402


def main() -> None:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    out = ROOT / ".device" / "window-fuzz"
    out.mkdir(parents=True, exist_ok=True)
    kernels = random_kernels(seed, count)
    (out / "window.cu").write_text("".join(k.source() for k in kernels))
    # on the GPU: 4099 threads (partial last blocks), small for the sanitizer
    (out / "window.toml").write_text("sizes = [330]\ngpu_sizes = [4099]\n\n"
                                     + "\n".join(k.spec() for k in kernels))
    subprocess.run([str(ROOT / ".venv" / "bin" / "coalda"), "optimize", str(out / "window.cu"),
                    "-o", str(out / "out"), "--pass-arg=-coalda-window-read-only=runtime"],
                   check=True, stdout=subprocess.DEVNULL)
    print(f"wrote {count} kernels (seed {seed}) to {out}")


if __name__ == "__main__":
    main()
