"""Fingerprint a C/C++ source environment and compile test programs in it (stdlib only, run inside it).

Run by the environment's own `python3` (on the host, or inside the source container), never importing
repozero::

    python3 nativeprobe.py fingerprint LANG PKG[=VERSION]...        -> JSON {entry: value} on stdout
    python3 nativeprobe.py compile LANG SRC OUT PKG[=VERSION]...    -> the compiler's exit status

The fingerprint holds the compiler (`gcc`/`g++ --version`), the exact flags, glibc's version and, per
Debian package — those asked for and those owning the shared libraries a program links against — its
version and a sha256 over dpkg's md5sums list (so a rebuilt or tampered package shows up). The libraries
to link are the `lib*.so` development links the asked-for packages ship (none for header-only ones),
linked with `--as-needed`. A missing package or another version than pinned exits 3 with a message.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import platform
import subprocess
import sys

__all__ = ["compile_argv", "fingerprint", "header_files", "link_libs"]

COMPILERS = {"c": "gcc", "cpp": "g++"}
FLAGS = {"c": ["-std=gnu17", "-O2", "-pipe", "-w"], "cpp": ["-std=gnu++17", "-O2", "-pipe", "-w"]}
_LIB_DIRS = ("/usr/lib/", "/lib/")
_MISSING = 3


class ProbeError(Exception):
    """The environment lacks what the sample asks for. (Not a `RepoZeroError`: this script runs in the
    Oracle's sandbox or container with the standard library only.)"""


def _dpkg(query: str, package: str) -> str:
    result = subprocess.run(
        ["dpkg-query", "-W", "-f", query, package], capture_output=True, text=True, check=False
    )
    return result.stdout if result.returncode == 0 else ""


def _installed(pin: str) -> str:
    """The installed package's name; ProbeError if it is not installed or not at the pinned version."""
    name, _, version = pin.partition("=")
    status = _dpkg("${Status} ${Version}", name)
    if not status.startswith("install ok installed"):
        raise ProbeError(f"Debian package {name} is not installed (apt-get install {name})")
    have = status.rsplit(" ", 1)[-1]
    if version and have != version:
        raise ProbeError(f"Debian package {name} is {have}, the sample pins {version}")
    return name


def _files(package: str) -> list[str]:
    return [line.strip() for line in _dpkg("${db-fsys:Files}", package).splitlines() if line.strip()]


def header_files(packages: list[str]) -> list[str]:
    """The packages' installed headers (regular files under an `include/` folder): a library's own code,
    for the lines-reached measure."""
    return sorted(
        path
        for package in packages
        for path in _files(package)
        if "/include/" in path and os.path.isfile(path)
    )


def link_libs(packages: list[str]) -> list[str]:
    """`-lNAME` for each `libNAME.so` development link the packages ship."""
    libs = []
    for package in packages:
        for path in _files(package):
            name = os.path.basename(path)
            if path.startswith(_LIB_DIRS) and name.startswith("lib") and name.endswith(".so"):
                libs.append(f"-l{name[3:-3]}")
    return sorted(set(libs))


def compile_argv(language: str, src: str, out: str, packages: list[str]) -> list[str]:
    names = [_installed(p) for p in packages]
    libs = link_libs(names)
    return [COMPILERS[language], *FLAGS[language], "-o", out, src, "-Wl,--as-needed", *libs]


def _owner(path: str) -> str:
    result = subprocess.run(["dpkg-query", "-S", path], capture_output=True, text=True, check=False)
    return result.stdout.split(":", 1)[0].strip() if result.returncode == 0 else ""


def _runtime_packages(packages: list[str]) -> list[str]:
    """Packages owning the real files behind the development links (libcjson-dev → libcjson1)."""
    owners = set()
    for package in packages:
        for path in _files(package):
            if path.startswith(_LIB_DIRS) and path.endswith(".so") and os.path.exists(path):
                owner = _owner(os.path.realpath(path))
                if owner:
                    owners.add(owner)
    return sorted(owners - set(packages))


def _package_entry(name: str) -> str:
    version = _dpkg("${Version}", name)
    info = "/var/lib/dpkg/info"
    lists = sorted(glob.glob(f"{info}/{name}.md5sums") + glob.glob(f"{info}/{name}:*.md5sums"))
    digest = hashlib.sha256()
    for path in lists:
        with open(path, "rb") as handle:
            digest.update(handle.read())
    return f"{version} sha256:{digest.hexdigest()}"


def _first_line(argv: list[str]) -> str:
    result = subprocess.run(argv, capture_output=True, text=True, check=False)
    lines = result.stdout.splitlines()
    return lines[0].strip() if lines else f"unknown (exit {result.returncode})"


def fingerprint(language: str, packages: list[str]) -> dict[str, str]:
    names = [_installed(p) for p in packages]
    entries = {
        "language": language,
        "compiler": _first_line([COMPILERS[language], "--version"]),
        "flags": " ".join([*FLAGS[language], "-Wl,--as-needed", *link_libs(names)]),
        "libc": os.confstr("CS_GNU_LIBC_VERSION") or "unknown",
        "platform": f"{platform.system().lower()}-{platform.machine()}",
    }
    for name in sorted({*names, *_runtime_packages(names)}):
        entries[f"deb:{name}"] = _package_entry(name)
    return entries


def main(argv: list[str]) -> int:
    try:
        if len(argv) >= 2 and argv[0] == "fingerprint" and argv[1] in COMPILERS:
            sys.stdout.write(json.dumps(fingerprint(argv[1], argv[2:]), sort_keys=True) + "\n")
            return 0
        if len(argv) >= 4 and argv[0] == "compile" and argv[1] in COMPILERS:
            command = compile_argv(argv[1], argv[2], argv[3], argv[4:])
            return subprocess.run(command, check=False).returncode
    except ProbeError as exc:
        sys.stderr.write(f"{exc}\n")
        return _MISSING
    sys.stderr.write("usage: nativeprobe.py fingerprint|compile LANG ...\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
