# Wrapper of every process the Docker backend starts (one attached exec each). Before the command can write
# anything it reports its pid and start time as the first line on stderr ("RZPID PID START"), so the
# supervisor can later end the whole tree; then it changes directory and runs the command, under
# `timeout -k` when it has a deadline (enforced inside the container; the host keeps a backstop).
# With REPORT 1 (a command run to completion) it stays the command's parent and its last line on stderr is
# the exit status ("RZEXIT N" after a newline), so the host need not poll `exec inspect` for it, which is
# slow when the daemon is busy; killed before it can say, the host asks the daemon. With REPORT 0 (a
# long-lived process: the shell, fork servers) it becomes the command, so its pid is the process's own.
# Usage: sh -c "$WRAPPER" rz CWD TIMEOUT_S KILL_AFTER_S REPORT ARGV...   (TIMEOUT_S 0 = no deadline)
rz_header() {
  set -f
  set -- ${1##*) }
  printf 'RZPID %s %s\n' "$RZ_PID" "${20}" >&2
}
RZ_PID=$$
read -r rz_stat </proc/$$/stat
rz_header "$rz_stat"
cd -- "$1" || exit 126
rz_t=$2 rz_k=$3 rz_r=$4
shift 4
if [ "$rz_t" != 0 ]; then set -- timeout -k "$rz_k" "$rz_t" "$@"; fi
if [ "$rz_r" = 0 ]; then exec "$@"; fi
"$@"
rz_s=$?
printf '\nRZEXIT %s\n' "$rz_s" >&2
exit "$rz_s"
