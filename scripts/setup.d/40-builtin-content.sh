#!/usr/bin/env bash
# GNU patch: applies each py2js-lite buggy.patch (datasets/builtin/tools/check_gold.py, the content test,
# the scripted policies). Idempotent.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if dpkg-query -W -f='${Status}' patch 2>/dev/null | grep -q "install ok installed"; then
  exit 0
fi
echo "[setup] installing Debian's patch (py2js-lite planted bugs)" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends patch >/dev/null
