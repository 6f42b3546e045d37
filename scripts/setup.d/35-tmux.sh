#!/usr/bin/env bash
# tmux: the live run panel is checked in a real terminal (tests/test_display_tty.py drives `repozero run`
# in a tmux pane and reads it back with capture-pane). Idempotent.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if dpkg-query -W -f='${Status}' tmux 2>/dev/null | grep -q "install ok installed"; then
  exit 0
fi
echo "[setup] installing Debian's tmux (live panel test)" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends tmux >/dev/null
