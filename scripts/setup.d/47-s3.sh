#!/usr/bin/env bash
# `--ray-storage s3://…` (docs/ray.md) and its test (tests/test_ray_storage_s3.py): s3fs, fsspec's S3
# backend, and moto's standalone S3 server (`python -m moto.server`, the `server` extra) with boto3 to make
# the test's bucket. Runs after 45-ray.sh. Idempotent: when all of it imports it only checks.
#
# Two installs, in this order, so pip never backtracks: s3fs first (it pins the fsspec release it matches
# and pulls aiobotocore, which pins botocore to a narrow range), then boto3 no newer than that botocore
# (boto3 and botocore share version numbers, each boto3 needing its own botocore or newer) with moto.
# Asked for together, pip 23 walks back through every boto3 release newer than the pin: 8 minutes of CPU.
# A hand-installed awscli pinning an older botocore is left as it is (nothing here uses it).
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[setup s3] %s\n' "$*" >&2; }

PYTHON="${PYTHON:-python3}"
CHECK="import s3fs, boto3, moto.server, ray"  # moto.server imports flask and flask_cors: the extra is there
pip_install() {
  $PYTHON -m pip install -q --disable-pip-version-check "$@" 2>&1 \
    | grep -v -E "is ignored|as the 'root' user|dependency resolver|awscli .* requires botocore" || true
}

if $PYTHON -c "$CHECK" 2>/dev/null; then
  exit 0
fi
log "installing s3fs"
pip_install s3fs
BOTOCORE=$($PYTHON -c 'from importlib.metadata import version; print(version("botocore"))')
log "installing moto[server] and boto3 (<= botocore $BOTOCORE)"
pip_install "boto3<=$BOTOCORE" "botocore==$BOTOCORE" 'moto[server]>=5'
$PYTHON -c "$CHECK" || { log "s3fs, moto.server, boto3 or ray failed to import after install"; exit 1; }
