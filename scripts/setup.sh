#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian 12: LLVM 19 and build tools from apt,
# .venv with `pip install -e '.[dev]'`. Fast when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
have() { command -v "$1" >/dev/null 2>&1; }
for pair in clang++-19:clang-19 opt-19:llvm-19 llc-19:llvm-19 llvm-config-19:llvm-19-dev \
            cmake:cmake ninja:ninja-build g++:g++ python3:python3; do
  tool=${pair%%:*} pkg=${pair##*:}
  have "$tool" || missing+=("$pkg")
done
[ -x /usr/lib/llvm-19/bin/FileCheck ] || missing+=(llvm-19-tools)
[ -f /usr/lib/llvm-19/lib/cmake/llvm/LLVMConfig.cmake ] || missing+=(llvm-19-dev)
if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then missing+=(python3-venv); fi

# valgrind only runs tests/test_pass_memory.py (skipped without it): installed
# where apt may be used, never a reason to stop.
optional=()
have valgrind || optional+=(valgrind)
if [ ${#missing[@]} -eq 0 ] && [ ${#optional[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] || { have sudo && sudo -n true 2>/dev/null; }; then missing+=("${optional[@]}")
  else echo "setup: note: valgrind is not installed; tests/test_pass_memory.py will be skipped" >&2
  fi
elif [ ${#missing[@]} -gt 0 ]; then
  missing+=("${optional[@]}")
fi
if [ ${#missing[@]} -gt 0 ]; then
  # shellcheck disable=SC2207
  pkgs=($(printf '%s\n' "${missing[@]}" clang-19 llvm-19-dev llvm-19-tools | sort -u))
  echo "setup: installing ${pkgs[*]} with apt-get" >&2
  if [ "$(id -u)" -eq 0 ]; then sudo=()
  elif have sudo && sudo -n true 2>/dev/null; then sudo=(sudo -n)
  else
    echo "setup: error: need root or sudo to install: apt-get install ${pkgs[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi

# The venv is rebuilt only when pyproject.toml changed since the last install.
stamp=.venv/.coalda-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "setup: installing coalda[dev] into .venv" >&2
  .venv/bin/python -m pip install -q --disable-pip-version-check -U pip
  # --no-compile: the modules a run imports are compiled then (pip's own
  # pass over every installed file took 4 of the install's 18 s)
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-compile -e '.[dev]'
  echo "$want" > "$stamp"
fi
