"""Check c2rust-lite samples without the Oracle or the grader: the C/C++ program vs the gold Rust port vs
the buggy port, on every case and tester input.

Usage: python datasets/builtin/tools/c2rust/check_gold.py [--sample ID ...]

Per sample: compiles the program as the Oracle does (oracle/nativeprobe.py's flags and libraries), builds the
gold and the patched gold with `cargo build --release --offline` (cached under ~/.cache/repozero/c2rust-check),
runs every case under the case-execution contract (argv list, stdin bytes or /dev/null, a minimal env) and
checks: gold == program on every case the program does not reject as a usage error (exit 2); the buggy port
passes the first four such cases (the whitebox set), fails a later one, and fails some tester input (none of
which is a case). Exits 0 only when every sample holds. The real pipeline is `repozero dataset build` +
`repozero eval --gold`; this is the fast loop while writing a sample.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from repozero.oracle.nativeprobe import compile_argv

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

from make_c2rust_lite import ROOT, load_defs  # noqa: E402

CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "repozero" / "c2rust-check"
ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}

Run = tuple[bytes, int]


def run(binary: Path, argv: list[str], stdin: bytes | None, cwd: Path) -> Run:
    """One case: its stdout bytes and exit status."""
    proc = subprocess.run(
        [str(binary), *argv], input=stdin if stdin is not None else b"", capture_output=True,
        env={**ENV, "HOME": str(cwd)}, cwd=cwd, timeout=20,
    )  # fmt: skip
    return proc.stdout, proc.returncode


def cargo_build(tree: Path, name: str, stem: str) -> Path:
    """Build a Cargo tree in a cached copy; the release binary's path."""
    work = CACHE / name
    if work.exists():
        for item in work.iterdir():
            if item.name != "target":
                shutil.rmtree(item) if item.is_dir() else item.unlink()
    shutil.copytree(tree, work, dirs_exist_ok=True)
    subprocess.run(["cargo", "build", "--release", "--offline", "-q"], cwd=work, check=True)
    return work / "target" / "release" / stem


def patched(gold: Path, patch: Path, out: Path) -> Path:
    shutil.copytree(gold, out)
    subprocess.run(["patch", "-s", "-p1", "-i", str(patch)], cwd=out, check=True)
    return out


def check(sample_id: str, defn: object, scratch: Path) -> list[str]:
    """Problems found for one sample (empty when it holds)."""
    folder = ROOT / "samples" / sample_id
    stem, language = defn.stem, defn.language  # type: ignore[attr-defined]
    program = scratch / "program"
    shutil.copytree(folder / "program", program)
    binary = scratch / stem
    cmd = compile_argv(language, str(program / defn.program), str(binary), [defn.package])  # type: ignore[attr-defined]
    subprocess.run(cmd, check=True)
    gold = cargo_build(folder / "gold", f"{sample_id}-gold", stem)
    buggy = cargo_build(
        patched(folder / "gold", folder / "buggy.patch", scratch / "buggy"), f"{sample_id}-bug", stem
    )
    problems, kept, bug_fails = [], 0, []
    for i, case in enumerate(defn.cases):  # type: ignore[attr-defined]
        stdin = None if case.stdin is None else case.stdin.encode()
        want = run(binary, case.argv, stdin, program)
        if want[1] == 2:
            continue
        if run(binary, case.argv, stdin, program) != want:
            problems.append(f"c{i:03d}: the program is not deterministic")
        if run(gold, case.argv, stdin, scratch) != want:
            problems.append(f"c{i:03d} ({case.desc}): gold differs")
        if run(buggy, case.argv, stdin, scratch) != want:
            bug_fails.append(kept)
        kept += 1
    if kept < 20:
        problems.append(f"only {kept} cases kept")
    if any(k < 4 for k in bug_fails):
        problems.append(f"the bug shows on a whitebox case ({bug_fails})")
    if not any(k >= 4 for k in bug_fails):
        problems.append("no hidden case reveals the bug")
    known = {(tuple(cd.argv), cd.stdin) for cd in defn.cases}  # type: ignore[attr-defined]
    tester = json.loads((folder / "tester_inputs.json").read_text())["inputs"]
    revealed = False
    for item in tester:
        if (tuple(item["argv"]), item["stdin"]) in known:
            problems.append(f"tester input {item} is a case")
        stdin = None if item["stdin"] is None else item["stdin"].encode()
        want = run(binary, item["argv"], stdin, program)
        revealed |= want[1] != 2 and run(buggy, item["argv"], stdin, scratch) != want
    if not revealed:
        problems.append("no tester input reveals the bug")
    print(f"{sample_id}: {kept} kept, bug fails {len(bug_fails)}: {'ok' if not problems else problems}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", nargs="*", default=None)
    args = parser.parse_args(argv)
    bad = 0
    for defn in load_defs():
        if args.sample and defn.id not in args.sample:
            continue
        with tempfile.TemporaryDirectory() as scratch:
            bad += bool(check(defn.id, defn, Path(scratch)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
