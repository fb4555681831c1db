#!/usr/bin/env bash
# Builds here what docs/runs/wide/fast.sh runs on the GPU machine (carry .whl
# and .device): copies.cu as the pass emits it and with the region copy's
# unit indices in 64 bits (variant before: -coalda-copy-index32=false).
# fast-1.txt and fast-2.txt were measured before 32-bit indices were the
# default, with the variants i32 (them, now the default), diff (a
# measurement switch, since removed, that tested the regions' overlap on
# dst - src: slower) and both; see README.md.
set -eu
cd "$(dirname "$0")/../../.."
C=.venv/bin/coalda
rm -rf .device && mkdir -p .device/copies-variants
$C optimize testcases/copies.cu -o .device/copies > /dev/null
$C optimize testcases/copies.cu -o /tmp/fast-before --pass-arg=-coalda-copy-index32=false > /dev/null
cp /tmp/fast-before/copies.after.ptx .device/copies-variants/before.ptx
find .device -name '*.diff' -delete
