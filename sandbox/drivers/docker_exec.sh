# Wrapper of every process the Docker backend starts (one attached exec each). Before the command can write
# anything it reports its pid and start time as the first line on stderr ("RZPID PID START"), so the
# supervisor can later end the whole tree; then it changes directory and runs the command, under
# `timeout -k` when it has a deadline (enforced inside the container; the host keeps a backstop).
# Usage: sh -c "$WRAPPER" rz CWD TIMEOUT_S KILL_AFTER_S ARGV...   (TIMEOUT_S 0 = no deadline)
rz_header() {
  set -f
  set -- ${1##*) }
  printf 'RZPID %s %s\n' "$RZ_PID" "${20}" >&2
}
RZ_PID=$$
read -r rz_stat </proc/$$/stat
rz_header "$rz_stat"
cd -- "$1" || exit 126
rz_t=$2 rz_k=$3
shift 3
if [ "$rz_t" = 0 ]; then exec "$@"; fi
exec timeout -k "$rz_k" "$rz_t" "$@"
