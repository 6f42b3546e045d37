#!/usr/bin/env bash
# Docker for the docker sandbox backend: docker.io + debootstrap from Debian, dockerd started when it is not
# running (no systemd here), then the sandbox images built offline (`repozero images build`, cached by a
# content hash of each recipe, so a second run only checks). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
log() { printf '[setup docker] %s\n' "$*" >&2; }

# --- packages --------------------------------------------------------------------------------------
# docker.io pulls containerd, runc, tini (docker-init, for `Init: true`) and iptables.
PACKAGES=(docker.io debootstrap debian-archive-keyring ca-certificates)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's client (matches the daemon); another `docker` earlier on PATH also works (API negotiation).
DOCKER=/usr/bin/docker
[ -x "$DOCKER" ] || DOCKER=docker

# --- the daemon -----------------------------------------------------------------------------------
daemon_up() { $SUDO "$DOCKER" version --format '{{.Server.Version}}' >/dev/null 2>&1; }
# A daemon whose default bridge interface was deleted under it (another dockerd started with `--bridge none`
# deletes `docker0`, moby's removeDefaultBridgeInterface) runs containers but fails every `docker build` RUN
# step ("could not find bridge docker0") until it restarts and makes the bridge again.
if daemon_up && [ ! -e /sys/class/net/docker0 ] \
  && [ "$($SUDO "$DOCKER" network inspect bridge --format '{{index .Options "com.docker.network.bridge.name"}}' 2>/dev/null)" = docker0 ]; then
  log "dockerd's bridge docker0 is gone: restarting dockerd to make it again"
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    $SUDO systemctl restart docker || true
  elif [ -s /var/run/docker.pid ]; then
    $SUDO kill -TERM "$(cat /var/run/docker.pid)" || true
    for _ in $(seq 1 120); do daemon_up || break; sleep 0.5; done
  fi
fi
if ! daemon_up; then
  if command -v systemctl >/dev/null 2>&1 && [ -d /run/systemd/system ]; then
    log "starting dockerd (systemd)"
    $SUDO systemctl start docker || true
  fi
fi
if ! daemon_up; then
  DOCKERD_LOG=/var/log/repozero-dockerd.log
  log "starting dockerd in the background (log: $DOCKERD_LOG)"
  $SUDO rm -f /var/run/docker.pid
  # setsid + nohup: the daemon outlives this script (CI keeps running tests after setup returns).
  $SUDO setsid nohup dockerd --log-level=warn >"$DOCKERD_LOG" 2>&1 </dev/null &
  for _ in $(seq 1 120); do
    daemon_up && break
    sleep 0.5
  done
  if ! daemon_up; then
    log "dockerd did not come up within 60 s; last lines of its log:"
    tail -n 30 "$DOCKERD_LOG" >&2 || true
    exit 1
  fi
fi
log "dockerd $($SUDO "$DOCKER" version --format '{{.Server.Version}}') is up ($($SUDO "$DOCKER" info --format '{{.Driver}}'))"

# --- images (offline builder; cached by recipe hash) ---------------------------------------------
PYTHON="${PYTHON:-python3}"
$PYTHON -m repozero images build
