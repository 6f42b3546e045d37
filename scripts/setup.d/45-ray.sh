#!/usr/bin/env bash
# Ray: `repozero run|sweep --executor ray` and its tests (tests/test_ray*.py, a real local cluster through
# ray.cluster_utils) need the `[ray]` extra — plain `ray`, no dashboard. Idempotent: an importable ray is kept.
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON="${PYTHON:-python3}"
if $PYTHON -c "import ray, fsspec" 2>/dev/null; then
  exit 0
fi
echo "[setup] installing the [ray] extra (plain ray)" >&2
$PYTHON -m pip install -q --disable-pip-version-check -e '.[ray]' 2>&1 | grep -v -E "is ignored|as the 'root' user" || true
$PYTHON -c "import ray, fsspec" || { echo "[setup] ray failed to import after install" >&2; exit 1; }
