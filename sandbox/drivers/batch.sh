#!/bin/sh
# RepoZero batch driver: runs a batch of cases inside a sandbox, one round trip for the whole batch.
# POSIX sh + coreutils + tar only (target images have no Python).
#
#   sh batch.sh -t SECONDS [-k SECONDS] [-o OUT_CAP] [-e ERR_CAP] [-C CWD] [-K] [-j JOBS] [-s K] [-c K] [-w NS] < batch.tar
#
# The batch arrives as a tar archive on stdin:
#   entry/0 .. entry/M-1    the entry point's argv, one file per argument (the bytes as they are)
#   cases/I/argv/0 ..       case I's arguments (cases numbered 0..N-1)
#   cases/I/stdin           case I's stdin (absent: /dev/null)
# Arguments are read from files, never parsed out of a shell string: any bytes but NUL arrive intact.
#
# Each case runs under the case-execution contract: env exactly PATH (the driver's), LANG=C.UTF-8,
# LC_ALL=C.UTF-8, TZ=UTC and a fresh empty HOME; cwd CWD; `timeout -k KILL T`; stdout cut after OUT_CAP+1
# bytes and stderr after ERR_CAP+1 (a writer past the cap gets SIGPIPE). One record per case on stdout, in
# case order:
#   "case I EXIT WALL_NS OUT_LEN ERR_LEN\n" then OUT_LEN bytes of stdout, then ERR_LEN bytes of stderr
# and "done N\n" after the last case. EXIT is 128+N for death by signal N; when the time ran out,
# `timeout` makes it 124 (TERM was enough) or 137 (KILL was needed).
#
# -j JOBS: run up to JOBS cases at once (workers claim cases in case order; the host sets JOBS from the
# sandbox's CPU quota). Records still come out in case order, each as soon as every case before it is done.
#
# -s K -w NS: stop after K consecutive timed-out cases, counted in case order (a case timed out when its
# EXIT is 124 or 137 and its WALL_NS is at least NS, the host's rule). Once cases I-K+1..I all timed out,
# every later case gets "skip J\n" instead of a record — also one that already ran or was running beside
# them (it is killed): the records are exactly those of a one-at-a-time run, whatever JOBS is.
#
# -c K -w NS: the same after K consecutive crashes of one kind: cases that died by the same signal (EXIT
# 132 SIGILL, 134 SIGABRT, 135 SIGBUS, 136 SIGFPE, 137 SIGKILL — the memory cap's — or 139 SIGSEGV) and did
# not time out. A target that exhausts its memory on every input costs K deaths, not one per case.
#
# -K: after each case, SIGKILL what it left behind — a background job, a grandchild in its own session —
# which `timeout` cannot reach: once the case's own process is gone, every leftover has been adopted by
# init (PID 1 of the namespace: bwrap locally, docker-init in a container), so the driver kills this
# user's processes adopted since the case began, round after round. Processes that were there before (a
# persistent shell, a fork server) are not touched, nor those still in the process group of a case that
# is running beside it. The driver waits for the case, not for end-of-file on its output, so a leftover
# holding the pipes cannot stall the batch either way.
set -u

T=""
KILL=0.5
OCAP=1048576
ECAP=65536
CWD=.
STRAYS=0
JOBS=1
STOP=0
CSTOP=0
TONS=""
while getopts t:k:o:e:C:Kj:s:c:w: opt; do
  case $opt in
    t) T=$OPTARG ;;
    k) KILL=$OPTARG ;;
    o) OCAP=$OPTARG ;;
    e) ECAP=$OPTARG ;;
    C) CWD=$OPTARG ;;
    K) STRAYS=1 ;;
    j) JOBS=$OPTARG ;;
    s) STOP=$OPTARG ;;
    c) CSTOP=$OPTARG ;;
    w) TONS=$OPTARG ;;
    *) echo "batch driver: usage: batch.sh -t SECONDS [-k S] [-o N] [-e N] [-C DIR] [-K] [-j N] [-s K] [-c K] [-w NS] < batch.tar" >&2; exit 2 ;;
  esac
done
[ -n "$T" ] || { echo "batch driver: -t SECONDS is required" >&2; exit 2; }
[ "$JOBS" -ge 1 ] 2>/dev/null || { echo "batch driver: -j JOBS must be a number >= 1" >&2; exit 2; }
[ "$STOP" -ge 0 ] 2>/dev/null || { echo "batch driver: -s K must be a number >= 0" >&2; exit 2; }
[ "$CSTOP" -ge 0 ] 2>/dev/null || { echo "batch driver: -c K must be a number >= 0" >&2; exit 2; }
[ "$STOP$CSTOP" = 00 ] || [ "$TONS" -ge 0 ] 2>/dev/null || { echo "batch driver: -s and -c need -w NS" >&2; exit 2; }

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
# round after round (their children are adopted in turn) until none is left. A process still in the
# process group of a running case ($B/run/PGID) belongs to that case, not to a finished one.
kill_adopted() {
  since=$1 round=0
  while [ "$round" -lt 100 ]; do
    round=$((round + 1)) found=0
    for d in /proc/[0-9]*; do
      [ -O "$d" ] || continue
      read -r l 2>/dev/null <"$d/stat" || continue
      set -- ${l##*) }
      # never this driver itself: its parent may be init too, and it may have started in the same tick
      if [ "$2" = 1 ] && [ "$1" != Z ] && [ "${20}" -ge "$since" ] && [ "${d#/proc/}" != "$$" ] \
        && [ ! -e "$B/run/$3" ]; then
        kill -9 "${d#/proc/}" 2>/dev/null && found=1
      fi
    done
    [ "$found" = 0 ] && return 0
  done
}

# run_case I ENTRY...: run case I; its record is left in $B/o.I, $B/e.I and last $B/h.I (the header line).
# While it runs, $B/run/PGID names its process group (`timeout` makes its own), so it can be ended from
# outside. Fd 3 (the workers' channel to the main loop) is closed for the case.
run_case() {
  k=$1
  c=$B/cases/$k
  shift
  j=0
  while [ -e "$c/argv/$j" ]; do
    a=$(cat "$c/argv/$j" && printf x) || return 2
    set -- "$@" "${a%x}"
    j=$((j + 1))
  done
  in=/dev/null
  if [ -e "$c/stdin" ]; then in=$c/stdin; fi
  mkfifo "$B/po.$k" "$B/pe.$k" || return 2
  # The readers stop after cap+1 bytes (a writer past the cap gets SIGPIPE).
  head -c "$((OCAP + 1))" <"$B/po.$k" >"$B/o.$k" 3>&- &
  head -c "$((ECAP + 1))" <"$B/pe.$k" >"$B/e.$k" 3>&- &
  since=0
  if [ "$STRAYS" = 1 ]; then since=$(ticks); fi
  t0=$(date +%s%N)
  # The case is the memory group's first choice when it is full (oom_score_adj 1000, which any process may
  # raise): a case that hits the cap dies of it, not the driver, a reader or bwrap — which the kernel
  # picked when the runaway case was already dying but not yet gone, and the whole batch was lost.
  { echo 1000 2>/dev/null >/proc/self/oom_score_adj
    exec env -i PATH="$PATH" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC HOME="$B/home.$k" \
      timeout -k "$KILL" "$T" "$@"; } <"$in" >"$B/po.$k" 2>"$B/pe.$k" 3>&- &
  tp=$!
  : >"$B/run/$tp"
  # the main loop may have stopped the batch before it could see this case: end it at once
  if [ -e "$B/stop" ]; then kill -s KILL -- "-$tp" "$tp" 2>/dev/null; fi
  wait "$tp"
  rc=$?
  t1=$(date +%s%N)
  # a case killed before it opened both pipes would leave a reader waiting for a writer: be one, briefly
  : 0<>"$B/po.$k" 1<>"$B/pe.$k"
  rm -f "$B/run/$tp" "$B/po.$k" "$B/pe.$k"
  if [ "$STRAYS" = 1 ]; then kill_adopted "$since"; fi
  wait
  set -- $(wc -c "$B/o.$k" "$B/e.$k")
  printf 'case %s %s %s %s %s\n' "$k" "$rc" "$((t1 - t0))" "$1" "$3" >"$B/h.$k.new" || return 2
  mv "$B/h.$k.new" "$B/h.$k" || return 2
}

# worker ENTRY...: claim cases in case order (a claim is an atomic mkdir) until none is left or the batch
# stopped; tell the main loop on fd 3 of each case done ("I"), of a failure ("x") and of its own end ("e").
worker() {
  w=0
  while [ "$w" -lt "$n" ] && [ ! -e "$B/stop" ]; do
    if [ "$JOBS" = 1 ] || mkdir "$B/claim.$w" 2>/dev/null; then
      run_case "$w" "$@" || { echo x >&3; exit 2; }
      echo "$w" >&3
    elif [ ! -d "$B/claim.$w" ]; then
      echo x >&3  # not claimed by another worker either (a full disk): nobody would run it
      exit 2
    fi
    w=$((w + 1))
  done
  echo e >&3
}

# A fresh, empty HOME per case, all made at once (one mkdir, in a subshell: "$@" is the entry point).
n=0
while [ -d "$B/cases/$n" ]; do n=$((n + 1)); done
(
  cd "$B" || exit 2
  set -- run
  k=0
  while [ "$k" -lt "$n" ]; do set -- "$@" "home.$k"; k=$((k + 1)); done
  mkdir -- "$@"
) || { echo "batch driver: cannot make the HOME dirs" >&2; exit 2; }
{ mkfifo "$B/notify" && exec 3<>"$B/notify"; } || { echo "batch driver: cannot make its fifo" >&2; exit 2; }

workers=0
while [ "$workers" -lt "$JOBS" ] && [ "$workers" -lt "$n" ]; do
  worker "$@" &
  workers=$((workers + 1))
done

# halt: no worker claims another case, and the running ones are killed (a worker that starts one after
# this sees the stop itself).
halt() {
  : >"$B/stop"
  for f in "$B"/run/*; do
    if [ -e "$f" ]; then kill -s KILL -- "-${f##*/}" "${f##*/}" 2>/dev/null; fi
  done
}

# note: read one line from the workers; count ended workers, give up on a failed one.
ended=0
note() {
  read -r got <&3 || got=x
  case $got in
    e) ended=$((ended + 1)) ;;
    x) echo "batch driver: a case could not be set up" >&2; halt; exit 2 ;;
  esac
}

i=0 streak=0 crashes=0 last=""
while [ "$i" -lt "$n" ]; do
  if [ ! -e "$B/h.$i" ]; then
    note
    continue
  fi
  read -r _ _ rc wall _ <"$B/h.$i"
  cat "$B/h.$i" "$B/o.$i" "$B/e.$i"
  rm -f "$B/h.$i" "$B/o.$i" "$B/e.$i"
  i=$((i + 1))
  if [ "$STOP$CSTOP" != 00 ]; then
    if { [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && [ "$wall" -ge "$TONS" ]; then
      streak=$((streak + 1)) crashes=0 last=""
    else
      streak=0
      case $rc in
        132 | 134 | 135 | 136 | 137 | 139)
          if [ "$rc" = "$last" ]; then crashes=$((crashes + 1)); else crashes=1; fi
          last=$rc ;;
        *) crashes=0 last="" ;;
      esac
    fi
    [ "$STOP" -gt 0 ] && [ "$streak" -ge "$STOP" ] && break
    [ "$CSTOP" -gt 0 ] && [ "$crashes" -ge "$CSTOP" ] && break
  fi
done

if [ "$i" -lt "$n" ]; then
  # Stopped: the rest are reported as not run, once every worker has ended.
  halt
  while [ "$ended" -lt "$workers" ]; do note; done
  while [ "$i" -lt "$n" ]; do
    printf 'skip %s\n' "$i"
    i=$((i + 1))
  done
fi
wait
printf 'done %s\n' "$n"
