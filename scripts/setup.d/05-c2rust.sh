#!/usr/bin/env bash
# C2Rust: the C/C++ compilers and the Debian libraries the Oracle's C/C++ sources use, and the pinned Rust
# toolchain targets are built with. Debian 12's own rustc/cargo are 1.63 (too old for what agents write);
# its rustc-web/cargo-web packages (bookworm-security) carry a current release (1.96 at the time of
# writing) and install it as /usr/bin/rustc and /usr/bin/cargo. Idempotent: a second run only checks.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
log() { printf '[setup c2rust] %s\n' "$*" >&2; }

# gcc/g++: compile test programs; libc6-dev comes with them. The libraries: two the public C2Rust benchmark
# uses (header-only C++: date, hopscotch-map) and two plain C ones (cJSON, inih); then those of builtin:c2rust
# (header-only C++: utfcpp, cxxopts, nlohmann-json, glm, msgpack-cxx, fmt, rapidjson; C: xxhash, libmd, jansson,
# iniparser, libbsd, libcsv).
PACKAGES=(gcc g++ libc6-dev libcjson-dev libinih-dev libhowardhinnant-date-dev libtsl-hopscotch-map-dev
          rustc-web cargo-web
          libutfcpp-dev libcxxopts-dev nlohmann-json3-dev libglm-dev libmsgpack-cxx-dev libfmt-dev rapidjson-dev
          libxxhash-dev libmd-dev libjansson-dev libiniparser-dev libbsd-dev libcsv-dev)
missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
log "rustc: $(/usr/bin/rustc --version); cargo: $(/usr/bin/cargo --version); g++: $(g++ -dumpfullversion)"
