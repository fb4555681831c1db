#!/usr/bin/env bash
# block_rank_records.cu (issue 39 item 4), run on the GPU machine:
#   bash docs/probe/run_block_rank_records.sh BINARY OUTDIR
# BINARY is the probe built here (coalda cc, LLVM 19; the header of
# block_rank_records.cu has the command), OUTDIR an existing directory.
# Needs only bash, BINARY and compute-sanitizer on PATH; the caller sets
# LD_LIBRARY_PATH to the directory holding the CUDA 12 runtime the build
# links (libcudart.so.12: the GPU machine has CUDA 13's). Writes
#   OUTDIR/full-1.txt, full-2.txt   the full size (n = 2^24), twice
#   OUTDIR/memcheck-small.txt       compute-sanitizer --tool memcheck, n = 100003
#   OUTDIR/racecheck-small.txt      compute-sanitizer --tool racecheck, n = 100003
# each with the step's exit status on its last line; prints the full runs'
# tables and each step's status. Every step runs; the exit status is 1 if
# any failed (the probe exits 1 on a byte that differs, a sanitizer 9 on an
# error it finds).
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -d "$2" ]; then
  echo "usage: $0 BINARY OUTDIR (an executable, an existing directory)" >&2
  exit 2
fi
bin=$1 out=$2
failed=""
step() {  # step FILE COMMAND...
  local file=$out/$1
  shift
  echo "== $* > $file"
  "$@" > "$file" 2>&1
  local rc=$?
  echo "rc=$rc" >> "$file"
  [ $rc -eq 0 ] || failed="$failed
  $*"
  return 0
}
show() {  # the file's lines, or (summary) only the probe's verdict and the sanitizer's summary
  local line
  while IFS= read -r line; do
    case $1:$line in
      all:*|summary:*SUMMARY*|summary:*DIFFERENT*|summary:"all same"|summary:rc=*) echo "$line" ;;
    esac
  done < "$out/$2"
}
step full-1.txt "$bin"
show all full-1.txt
step full-2.txt "$bin"
show all full-2.txt
step memcheck-small.txt compute-sanitizer --tool memcheck --error-exitcode 9 "$bin" small
show summary memcheck-small.txt
step racecheck-small.txt compute-sanitizer --tool racecheck --error-exitcode 9 "$bin" small
show summary racecheck-small.txt
if [ -n "$failed" ]; then
  echo "failed:$failed"
  exit 1
fi
echo "all steps passed"
