#!/bin/sh
# RepoZero batch driver: runs a batch of cases inside a sandbox, one round trip for the whole batch.
# POSIX sh + coreutils + tar only (target images have no Python).
#
#   sh batch.sh -t SECONDS [-k SECONDS] [-o OUT_CAP] [-e ERR_CAP] [-C CWD] [-K]  < batch.tar
#
# The batch arrives as a tar archive on stdin:
#   entry/0 .. entry/M-1    the entry point's argv, one file per argument (the bytes as they are)
#   cases/I/argv/0 ..       case I's arguments (cases numbered 0..N-1)
#   cases/I/stdin           case I's stdin (absent: /dev/null)
# Arguments are read from files, never parsed out of a shell string: any bytes but NUL arrive intact.
#
# Each case runs under the case-execution contract: env exactly PATH (the driver's), LANG=C.UTF-8,
# LC_ALL=C.UTF-8, TZ=UTC and a fresh empty HOME; cwd CWD; `timeout -k KILL T`; stdout cut after OUT_CAP+1
# bytes and stderr after ERR_CAP+1 (a writer past the cap gets SIGPIPE). One record per case on stdout:
#   "case I EXIT WALL_NS OUT_LEN ERR_LEN\n" then OUT_LEN bytes of stdout, then ERR_LEN bytes of stderr
# and "done N\n" after the last case. EXIT is 128+N for death by signal N; when the time ran out,
# `timeout` makes it 124 (TERM was enough) or 137 (KILL was needed).
#
# -K: after each case, SIGKILL every other process this user may signal, which catches a grandchild that
# left the case's process group (`timeout` cannot reach it). Honoured only when the driver is PID 2 of its
# own PID namespace (the local backend), where that means exactly the case's leftovers.
set -u

T=""
KILL=0.5
OCAP=1048576
ECAP=65536
CWD=.
STRAYS=0
while getopts t:k:o:e:C:K opt; do
  case $opt in
    t) T=$OPTARG ;;
    k) KILL=$OPTARG ;;
    o) OCAP=$OPTARG ;;
    e) ECAP=$OPTARG ;;
    C) CWD=$OPTARG ;;
    K) STRAYS=1 ;;
    *) echo "batch driver: usage: batch.sh -t SECONDS [-k S] [-o N] [-e N] [-C DIR] [-K] < batch.tar" >&2; exit 2 ;;
  esac
done
[ -n "$T" ] || { echo "batch driver: -t SECONDS is required" >&2; exit 2; }

B=$(mktemp -d "${TMPDIR:-/tmp}/repozero-batch.XXXXXX") || { echo "batch driver: mktemp failed" >&2; exit 2; }
trap 'chmod -R u+rwx "$B" 2>/dev/null; rm -rf "$B"' EXIT
tar -x -f - -C "$B" || { echo "batch driver: cannot unpack the batch" >&2; exit 2; }
cd "$CWD" || { echo "batch driver: cannot cd to $CWD" >&2; exit 2; }

# arg FILE: the file's bytes as one argument (the x keeps trailing newlines from `$(...)`).
set --
j=0
while [ -e "$B/entry/$j" ]; do
  a=$(cat "$B/entry/$j" && printf x) || exit 2
  set -- "$@" "${a%x}"
  j=$((j + 1))
done
[ "$#" -gt 0 ] || { echo "batch driver: empty entry point" >&2; exit 2; }

run_case() {
  c=$B/cases/$1
  h=$B/home.$1
  shift
  j=0
  while [ -e "$c/argv/$j" ]; do
    a=$(cat "$c/argv/$j" && printf x) || exit 2
    set -- "$@" "${a%x}"
    j=$((j + 1))
  done
  in=/dev/null
  if [ -e "$c/stdin" ]; then in=$c/stdin; fi
  mkdir "$h" || exit 2
  t0=$(date +%s%N)
  { { env -i PATH="$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="$h" \
        timeout -k "$KILL" "$T" "$@" <"$in" 3>&-
      echo "$?" >"$B/rc"
    } 2>&1 1>&3 3>&- | head -c "$((ECAP + 1))" >"$B/err"
  } 3>&1 | head -c "$((OCAP + 1))" >"$B/out"
  t1=$(date +%s%N)
  if [ "$STRAYS" = 1 ] && [ "$$" = 2 ]; then kill -9 -1 2>/dev/null; fi
  rc=-1
  if [ -e "$B/rc" ]; then read -r rc <"$B/rc"; rm -f "$B/rc"; fi
  ol=$(wc -c <"$B/out")
  el=$(wc -c <"$B/err")
  printf 'case %s %s %s %s %s\n' "$i" "$rc" "$((t1 - t0))" "$((ol))" "$((el))"
  cat "$B/out" "$B/err"
}

i=0
while [ -d "$B/cases/$i" ]; do
  run_case "$i" "$@"
  i=$((i + 1))
done
printf 'done %s\n' "$i"
