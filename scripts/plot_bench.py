#!/usr/bin/env -S .venv/bin/python
"""Redraw a benchmark chart from `coalda bench --json` output:

    scripts/plot_bench.py docs/bench/bench.json docs/bench/bench.png
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from coalda.check.bench import load_result, plot  # noqa: E402

plot(load_result(Path(sys.argv[1])), Path(sys.argv[2]))
