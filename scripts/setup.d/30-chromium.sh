#!/usr/bin/env bash
# Headless Chromium for the HTML report test (tests/test_report_browser.py). Idempotent.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q "install ok installed"; then
  exit 0
fi
echo "[setup] installing Debian's chromium (headless report test)" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
