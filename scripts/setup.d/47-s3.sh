#!/usr/bin/env bash
# `--ray-storage s3://…` (docs/ray.md) and its test (tests/test_ray_storage_s3.py): s3fs, fsspec's S3
# backend, and moto's standalone S3 server (`python -m moto.server`, the `server` extra) with boto3 to make
# the test's bucket. Runs after 45-ray.sh: s3fs pins the fsspec release it matches and pulls aiobotocore,
# which pins botocore to a narrow range (boto3 moves with it; a hand-installed awscli pinning an older
# botocore is left as it is — nothing here uses it). Idempotent: when all of it imports it only checks.
set -euo pipefail
cd "$(dirname "$0")/../.."
log() { printf '[setup s3] %s\n' "$*" >&2; }

PYTHON="${PYTHON:-python3}"
CHECK="import s3fs, boto3, moto.server, ray"  # moto.server imports flask and flask_cors: the extra is there

if $PYTHON -c "$CHECK" 2>/dev/null; then
  exit 0
fi
log "installing s3fs, moto[server] and boto3"
$PYTHON -m pip install -q --disable-pip-version-check s3fs 'moto[server]>=5' boto3 2>&1 \
  | grep -v -E "is ignored|as the 'root' user|dependency resolver|awscli .* requires botocore" || true
$PYTHON -c "$CHECK" || { log "s3fs, moto.server, boto3 or ray failed to import after install"; exit 1; }
