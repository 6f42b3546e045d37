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
# -K: after each case, SIGKILL what it left behind — a background job, a grandchild in its own session —
# which `timeout` cannot reach: once the case's own process is gone, every leftover has been adopted by
# init (PID 1 of the namespace: bwrap locally, docker-init in a container), so the driver kills this
# user's processes adopted since the case began, round after round. Processes that were there before (a
# persistent shell, a fork server) are not touched. The driver waits for the case, not for end-of-file on
# its output, so a leftover holding the pipes cannot stall the batch either way.
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

# ticks: clock ticks since boot at which this (command-substitution) subshell started.
ticks() {
  read -r l </proc/self/stat
  set -- ${l##*) }
  echo "${20}"
}

# kill_adopted SINCE: SIGKILL this user's processes adopted by init (pid 1) that started at or after SINCE,
# round after round (their children are adopted in turn) until none is left.
kill_adopted() {
  since=$1 round=0
  while [ "$round" -lt 100 ]; do
    round=$((round + 1)) found=0
    for d in /proc/[0-9]*; do
      [ -O "$d" ] || continue
      read -r l 2>/dev/null <"$d/stat" || continue
      set -- ${l##*) }
      # never this driver itself: its parent may be init too, and it may have started in the same tick
      if [ "$2" = 1 ] && [ "$1" != Z ] && [ "${20}" -ge "$since" ] && [ "${d#/proc/}" != "$$" ]; then
        kill -9 "${d#/proc/}" 2>/dev/null && found=1
      fi
    done
    [ "$found" = 0 ] && return 0
  done
}

run_case() {
  c=$B/cases/$1
  h=$B/home.$1
  o=$B/o.$1
  e=$B/e.$1
  shift
  j=0
  while [ -e "$c/argv/$j" ]; do
    a=$(cat "$c/argv/$j" && printf x) || exit 2
    set -- "$@" "${a%x}"
    j=$((j + 1))
  done
  in=/dev/null
  if [ -e "$c/stdin" ]; then in=$c/stdin; fi
  mkfifo "$o" "$e" || exit 2
  # The readers stop after cap+1 bytes (a writer past the cap gets SIGPIPE).
  head -c "$((OCAP + 1))" <"$o" >"$B/out" &
  head -c "$((ECAP + 1))" <"$e" >"$B/err" &
  since=0
  if [ "$STRAYS" = 1 ]; then since=$(ticks); fi
  t0=$(date +%s%N)
  env -i PATH="$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="$h" \
    timeout -k "$KILL" "$T" "$@" <"$in" >"$o" 2>"$e"
  rc=$?
  t1=$(date +%s%N)
  if [ "$STRAYS" = 1 ]; then kill_adopted "$since"; fi
  wait
  rm -f "$o" "$e"
  set -- $(wc -c "$B/out" "$B/err")
  printf 'case %s %s %s %s %s\n' "$i" "$rc" "$((t1 - t0))" "$1" "$3"
  cat "$B/out" "$B/err"
}

# A fresh, empty HOME per case, all made at once (one mkdir, in a subshell: "$@" is the entry point).
n=0
while [ -d "$B/cases/$n" ]; do n=$((n + 1)); done
(
  cd "$B" || exit 2
  set --
  k=0
  while [ "$k" -lt "$n" ]; do set -- "$@" "home.$k"; k=$((k + 1)); done
  [ "$#" -eq 0 ] || mkdir -- "$@"
) || { echo "batch driver: cannot make the HOME dirs" >&2; exit 2; }

i=0
while [ "$i" -lt "$n" ]; do
  run_case "$i" "$@"
  i=$((i + 1))
done
printf 'done %s\n' "$i"
