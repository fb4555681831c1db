"""The merged CUDA tree in the cache, made by several processes at once.

A census or a parallel build starts many `coalda` processes on an empty cache:
each may find no tree and make one. None of them may ever see the tree of
another disappear under it (a clang run that lost `cuda.h` half way)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import os, sys, time
from pathlib import Path
from coalda.driver import toolchain
open(sys.argv[1], "a").close()  # started
while not os.path.exists(sys.argv[2]):  # all start together
    time.sleep(0.001)
tree = toolchain.cuda_path()
open(sys.argv[3], "w").close()  # has its tree
while not os.path.exists(sys.argv[4]):  # until every process has one
    if not (tree / "include" / "cuda.h").is_file():
        sys.exit("cuda.h vanished from " + str(tree))
    time.sleep(0.001)
"""


def test_processes_making_the_tree_at_once_never_lose_it(tmp_path: Path) -> None:
    """Six processes on an empty cache: each gets a tree that stays whole
    while the others make theirs."""
    cache, flags = tmp_path / "cache", tmp_path / "flags"
    flags.mkdir()
    env = {**os.environ, "COALDA_CACHE": str(cache)}
    env.pop("COALDA_CUDA_PATH", None)
    go, stop = flags / "go", flags / "stop"
    children = [
        subprocess.Popen([sys.executable, "-c", CHILD, str(flags / f"started{i}"), str(go), str(flags / f"has{i}"), str(stop)],
                         env=env, stderr=subprocess.PIPE, text=True)
        for i in range(6)
    ]
    try:
        deadline = time.monotonic() + 60
        while not all((flags / f"started{i}").exists() for i in range(6)) and time.monotonic() < deadline:
            time.sleep(0.01)
        go.touch()
        while not all((flags / f"has{i}").exists() for i in range(6)):
            if any(c.poll() not in (None, 0) for c in children) or time.monotonic() > deadline:
                break
            time.sleep(0.01)
        stop.touch()
        errors = [c.communicate(timeout=60)[1] for c in children]
    finally:
        for c in children:
            c.kill()
    assert [c.returncode for c in children] == [0] * 6, errors
    assert (cache / "cuda-12" / "include" / "cuda.h").is_file()
    assert not [p.name for p in cache.iterdir() if p.name.startswith(".cuda-")]  # no staging left
