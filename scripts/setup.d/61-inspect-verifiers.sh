#!/usr/bin/env bash
# The inspect-ai and verifiers integrations (docs/integrations.md) and their tests
# (tests/test_integration_inspect.py, tests/test_integration_verifiers.py).
#
# - verifiers 0.4.0 goes into this Python (its dependencies change no version we already depend on), with
#   `repozero_verifiers`, a one-module package: vf-eval imports a taskset by a top-level module name, and that
#   module is an alias of repozero.integrations.verifiers_env.
# - inspect-ai cannot: every recent release caps fsspec (<= 2026.6.0, below the fsspec and s3fs that
#   `--ray-storage` uses) and its OpenAI provider wants openai >= 3.4 where verifiers wants < 3. It goes into
#   a virtual environment of its own that sees this Python's packages (--system-site-packages: `repozero`
#   itself, editable, with its `inspect_ai` entry point), at $REPOZERO_INSPECT_VENV, by default
#   ${XDG_DATA_HOME:-~/.local/share}/repozero/venvs/inspect-ai; `inspect` is its bin/inspect.
# Idempotent: when the pinned versions are there it only checks.
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[setup inspect-verifiers] %s\n' "$*" >&2; }

PYTHON="${PYTHON:-python3}"
VERIFIERS_VERSION=0.4.0
INSPECT_VERSION=0.3.285
INSPECT_OPENAI_VERSION=3.63.0
INSPECT_FSSPEC_VERSION=2026.6.0
VENV="${REPOZERO_INSPECT_VENV:-${XDG_DATA_HOME:-$HOME/.local/share}/repozero/venvs/inspect-ai}"

pip_quiet() { "$@" 2>&1 | grep -v -E "is ignored|as the 'root' user|dependency resolver|requires .*, but you have" || true; }
has() { # has PYTHON DIST VERSION
  "$1" - "$2" "$3" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version

try:
    sys.exit(0 if version(sys.argv[1]) == sys.argv[2] else 1)
except PackageNotFoundError:
    sys.exit(1)
PY
}

# --- verifiers, in this Python ---------------------------------------------------------------------------
if ! has "$PYTHON" verifiers "$VERIFIERS_VERSION"; then
  log "installing verifiers==$VERIFIERS_VERSION"
  pip_quiet $PYTHON -m pip install -q --disable-pip-version-check "verifiers==$VERIFIERS_VERSION"
fi
if ! has "$PYTHON" repozero-verifiers 0.1.0; then
  log "installing repozero_verifiers (the vf-eval taskset id)"
  SHIM=$(mktemp -d "${TMPDIR:-/tmp}/repozero-verifiers.XXXXXX")
  trap 'rm -rf "$SHIM"' EXIT
  cat > "$SHIM/pyproject.toml" <<'EOF'
[build-system]
requires = ["setuptools>=69"]
build-backend = "setuptools.build_meta"

[project]
name = "repozero-verifiers"
version = "0.1.0"
description = "vf-eval's taskset id for RepoZero: an alias of repozero.integrations.verifiers_env"

[tool.setuptools]
py-modules = ["repozero_verifiers"]
EOF
  cat > "$SHIM/repozero_verifiers.py" <<'EOF'
"""`vf-eval repozero_verifiers`: verifiers imports a taskset by a top-level module name; this is RepoZero's."""

import sys

from repozero.integrations import verifiers_env

sys.modules[__name__] = verifiers_env
EOF
  pip_quiet $PYTHON -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation "$SHIM"
fi
$PYTHON -c "import repozero_verifiers, verifiers.v1; assert repozero_verifiers.TASKSET_ID == 'repozero_verifiers'" \
  || { log "repozero_verifiers failed to import after install"; exit 1; }
command -v vf-eval >/dev/null || { log "vf-eval is not on PATH after installing verifiers"; exit 1; }

# --- inspect-ai, in its own virtual environment -------------------------------------------------------------
if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV (--system-site-packages)"
  mkdir -p "$(dirname "$VENV")"
  $PYTHON -m venv --system-site-packages "$VENV"
fi
if ! has "$VENV/bin/python" inspect-ai "$INSPECT_VERSION" || ! has "$VENV/bin/python" openai "$INSPECT_OPENAI_VERSION"; then
  SETUPTOOLS=$($PYTHON -c 'from importlib.metadata import version; print(version("setuptools"))')
  log "installing inspect-ai==$INSPECT_VERSION, openai==$INSPECT_OPENAI_VERSION into $VENV"
  pip_quiet "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "inspect-ai==$INSPECT_VERSION" "openai==$INSPECT_OPENAI_VERSION" \
    "fsspec==$INSPECT_FSSPEC_VERSION" "s3fs==$INSPECT_FSSPEC_VERSION" "setuptools==$SETUPTOOLS"
fi
"$VENV/bin/python" - <<'PY' || { log "inspect-ai in $VENV cannot see the repozero task"; exit 1; }
from importlib.metadata import entry_points

import inspect_ai  # noqa: F401
import repozero

assert any(ep.name == "repozero" for ep in entry_points(group="inspect_ai")), "no inspect_ai entry point"
PY
log "verifiers $VERIFIERS_VERSION (vf-eval), inspect-ai $INSPECT_VERSION ($VENV/bin/inspect) ready"
