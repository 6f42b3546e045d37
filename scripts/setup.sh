#!/usr/bin/env bash
# Set up a fresh machine for RepoZero: system packages, the Python package, services and images.
# Idempotent: a second run only checks. Runs as root (as CI does) or with sudo available.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

log() { printf '[setup] %s\n' "$*" >&2; }

# --- Debian packages --------------------------------------------------------------------------
# faketime: the Oracle runs some repeats under a shifted clock.
# util-linux (unshare), bubblewrap: namespaces for the local sandbox.
APT_PACKAGES=(faketime libfaketime util-linux bubblewrap)
missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# --- the Python package -----------------------------------------------------------------------
PYTHON="${PYTHON:-python3}"
log "installing repozero (editable, with dev extras) into $($PYTHON -c 'import sys; print(sys.prefix)')"
$PYTHON -m pip install -q --disable-pip-version-check -e '.[dev]' 2>&1 | grep -v -E "is ignored|as the 'root' user" || true
$PYTHON -c "import repozero.cli" || { log "repozero failed to import after install"; exit 1; }

# --- extra steps (services, toolchains, images) --------------------------------------------------
for step in scripts/setup.d/*.sh; do
  [ -e "$step" ] || continue
  log "running $step"
  bash "$step"
done
log "ready"
