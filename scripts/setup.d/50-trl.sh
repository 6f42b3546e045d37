#!/usr/bin/env bash
# The `[trl]` extra: TRL's GRPOTrainer for repozero.rollouts.trl and its real CPU test (tests/test_rollouts_trl.py,
# examples/trl_grpo_step.py). torch is installed first, pinned to the release whose CPU wheel lies on this
# machine's disk (pip prefers `2.13.0+cpu` over PyPI's CUDA `2.13.0` for `torch==2.13.0`), so the extra does not
# pull a multi-GB CUDA build. Idempotent: when the pinned versions are there it only checks (no import of torch).
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[setup trl] %s\n' "$*" >&2; }

PYTHON="${PYTHON:-python3}"
TORCH_VERSION=2.13.0

installed() {
  $PYTHON - "$TORCH_VERSION" <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version

try:
    ok = version("torch").split("+")[0] == sys.argv[1] and version("trl").startswith("1.16.")
    version("tokenizers")
except PackageNotFoundError:
    ok = False
sys.exit(0 if ok else 1)
PY
}

if installed; then
  log "torch $($PYTHON -c 'from importlib.metadata import version; print(version("torch"))'), trl $($PYTHON -c 'from importlib.metadata import version; print(version("trl"))') already installed"
  exit 0
fi
pip_quiet() { $PYTHON -m pip install -q --disable-pip-version-check "$@" 2>&1 | grep -v -E "is ignored|as the 'root' user" || true; }
log "installing torch==$TORCH_VERSION (CPU wheel)"
pip_quiet "torch==$TORCH_VERSION"
log "installing the [trl] extra"
pip_quiet -e ".[trl]"
installed || { log "torch $TORCH_VERSION / trl 1.16 missing after install"; exit 1; }
log "torch $($PYTHON -c 'from importlib.metadata import version; print(version("torch"))'), trl $($PYTHON -c 'from importlib.metadata import version; print(version("trl"))') installed"
