"""Measure each c2rust-lite sample's reach: distinct library source lines executed over all its cases (gcov).

Usage: python datasets/builtin/tools/c2rust/measure_reach.py [--sample ID ...] [--libsrc DIR]

The program is compiled with `--coverage -O0`. A `reach_files` entry `libsrc:NAME/FILE.c` compiles that
library source into the build (instead of linking Debian's .so) and counts its lines; an absolute path or glob
(header-only libraries) counts the lines of those headers. `--libsrc` (default ~/.cache/repozero/c2rust-libsrc)
holds the library sources; they are not committed. The ones used for the shipped reach.json: cJSON from
Debian's source package cjson 1.7.15-1+deb12u4 (orig tarball + debian/patches applied); inih from upstream
tag r55 (Debian's libinih 55-1 adds runtime option globals the samples do not touch; its source tarball was
not on the mirror). Writes reach.json (merged with what is there).
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from ckit import CSampleDef  # noqa: E402
from make_c2rust_lite import REACH, ROOT, load_defs  # noqa: E402

DEFAULT_LIBSRC = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "repozero" / "c2rust-libsrc"
COMPILER = {"c": ["gcc", "-std=gnu17"], "cpp": ["g++", "-std=gnu++17"]}


def build(d: CSampleDef, work: Path, libsrc: Path) -> tuple[Path, list[str]]:
    """Compile the program (and any library source) with coverage; the binary and the counted-file patterns."""
    sources = [str(ROOT / "samples" / d.id / "program" / d.program)]
    patterns = []
    for entry in d.reach_files:
        if entry.startswith("libsrc:"):
            path = libsrc / entry.removeprefix("libsrc:")
            if not path.is_file():
                raise SystemExit(f"{d.id}: {path} missing (see --libsrc)")
            sources.append(str(path))
            patterns.append(str(path))
        else:
            patterns.append(entry)
    binary = work / d.stem
    libs = [] if any(e.startswith("libsrc:") for e in d.reach_files) else _link_libs(d)
    cmd = [*COMPILER[d.language], "--coverage", "-O0", "-w", "-o", str(binary), *sources, *libs, "-lm"]
    subprocess.run(cmd, cwd=work, check=True)
    return binary, patterns


def _link_libs(d: CSampleDef) -> list[str]:
    from repozero.oracle.nativeprobe import link_libs

    return link_libs([d.package.partition("=")[0], *d.requirements])


def reached_lines(work: Path, patterns: list[str]) -> int:
    """Distinct (file, line) pairs with a non-zero count in files matching the patterns."""
    gcdas = [str(p) for p in work.glob("*.gcda")]
    out = subprocess.run(
        ["gcov", "--json-format", "--stdout", *gcdas], cwd=work, capture_output=True, check=True
    ).stdout
    hit: set[tuple[str, int]] = set()
    for chunk in out.decode().splitlines():
        if not chunk.strip():
            continue
        for entry in json.loads(chunk)["files"]:
            name = os.path.realpath(entry["file"] if os.path.isabs(entry["file"]) else work / entry["file"])
            if any(fnmatch.fnmatch(name, os.path.realpath(p)) for p in patterns):
                hit.update((name, ln["line_number"]) for ln in entry["lines"] if ln["count"] > 0)
    return len(hit)


def measure(d: CSampleDef, libsrc: Path) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        binary, patterns = build(d, work, libsrc)
        for case in d.cases:
            stdin = b"" if case.stdin is None else case.stdin.encode()
            subprocess.run([str(binary), *case.argv], input=stdin, capture_output=True, cwd=work, timeout=30)
        return reached_lines(work, patterns)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", nargs="*", default=None)
    parser.add_argument("--libsrc", type=Path, default=DEFAULT_LIBSRC)
    args = parser.parse_args(argv)
    data = json.loads(REACH.read_text()) if REACH.is_file() else {}
    for d in load_defs():
        if args.sample and d.id not in args.sample:
            continue
        reach = measure(d, args.libsrc)
        data[d.id] = {"calls": len(d.api), "reach": reach}
        print(f"{d.id}: calls {len(d.api)}, reach {reach}")
    REACH.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
