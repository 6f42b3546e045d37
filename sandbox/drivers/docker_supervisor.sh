# The Docker backend's supervisor: one process per container, run as root with CAP_KILL only, that ends
# command trees on request. Its loop uses shell builtins only (read, kill, test, echo), so it still works when
# the container's pids limit is exhausted (a fork bomb) and no new exec could start.
#
# Protocol: one request line on stdin, one reply line on stdout.
#   kill PID START  end PID's tree: PID itself (if it is still the process that started at START), its
#                   descendants, and every orphan (reparented to init) that started at or after START.
#                   START is /proc/PID/stat field 22 (clock ticks since boot). Reply "ok N" (N signalled).
#   strays PID START the same, but PID itself is spared (a persistent shell whose command timed out).
#   oom             reply "ok N": OOM kills in this container's memory cgroup so far (-1: not readable).
#   held            reply "ok N": bytes this container's memory cgroup holds that no reclaim takes back (its
#                   processes' anonymous memory and its tmpfs pages; -1: not readable).
#   ping            reply "ok 0".
ME=$$

stat_of() {  # PID -> S (state), P (parent), ST (start time); fails when the process is gone
  read -r line 2>/dev/null <"/proc/$1/stat" || return 1
  set -- ${line##*) }
  S=$1 P=$2 ST=${20}
}

scan() {  # one pass over /proc: add (and kill) every new member of the tree; sets GREW
  GREW=0
  for d in /proc/[0-9]*; do
    p=${d#/proc/}
    case $MEMBERS in *" $p "*) continue ;; esac
    if [ "$p" = "$ME" ] || [ "$p" = 1 ]; then continue; fi
    stat_of "$p" || continue
    [ "$S" = Z ] && continue
    case $MEMBERS in
      *" $P "*) ;;
      *) if [ "$P" != 1 ] || [ "$ST" -lt "$START" ]; then continue; fi ;;
    esac
    MEMBERS="$MEMBERS$p "
    kill -KILL "$p" 2>/dev/null && KILLED=$((KILLED + 1))
    GREW=1
  done
}

kill_tree() {  # PID START SPARE(0|1)
  START=$2 MEMBERS=" " KILLED=0 SPARE=
  if stat_of "$1" && [ "$ST" = "$START" ]; then
    MEMBERS=" $1 "
    if [ "$3" = 1 ]; then SPARE=$1; else kill -KILL "$1" 2>/dev/null && KILLED=1; fi
  fi
  rounds=0
  while [ $rounds -lt 200 ]; do
    rounds=$((rounds + 1))
    scan
    while [ $GREW = 1 ]; do scan; done
    alive=0
    for p in $MEMBERS; do
      [ "$p" = "$SPARE" ] && continue
      if stat_of "$p" && [ "$S" != Z ]; then kill -KILL "$p" 2>/dev/null; alive=1; fi
    done
    [ $alive = 0 ] && break
  done
  echo "ok $KILLED"
}

oom_count() {
  for f in /sys/fs/cgroup/memory/memory.oom_control /sys/fs/cgroup/memory.events; do
    [ -r "$f" ] || continue
    while read -r key value; do
      if [ "$key" = oom_kill ]; then echo "ok $value"; return; fi
    done <"$f"
  done
  echo "ok -1"
}

held_bytes() {
  f=/sys/fs/cgroup/memory/memory.stat keys="total_rss total_shmem"
  [ -r "$f" ] || f=/sys/fs/cgroup/memory.stat keys="anon shmem"
  [ -r "$f" ] || { echo "ok -1"; return; }
  N=0
  while read -r key value; do
    case " $keys " in *" $key "*) N=$((N + value)) ;; esac
  done <"$f"
  echo "ok $N"
}

echo "ready $ME"
while read -r cmd a b; do
  case $cmd in
    kill) kill_tree "$a" "$b" 0 ;;
    strays) kill_tree "$a" "$b" 1 ;;
    oom) oom_count ;;
    held) held_bytes ;;
    ping) echo "ok 0" ;;
    *) echo "err unknown request" ;;
  esac
done
