"""The grader on a fixture sample with a hand-written JS reference and broken variants of it.

Runs once per sandbox backend (local, and Docker where a daemon runs — always in CI).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.datasets import load_dataset
from repozero.oracle.evaluate import GradeJob, grade_many, summarise, target_job
from repozero.oracle.grading import GradingPolicy, SampleGrade
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.sandbox import SandboxBackend

FIXTURE = Path(__file__).parent / "fixtures" / "grader"
DATASET = FIXTURE / "dataset"
POLICY = GradingPolicy(timeout_s=2.0, output_cap=64 * 1024)
GOOD = (FIXTURE / "good" / "wordstat.mjs").read_text()

pytestmark = pytest.mark.anyio


def variant(
    tmp_path: Path, name: str, edit: Callable[[str], str], extra: dict[str, str] | None = None
) -> Path:
    root = tmp_path / name
    root.mkdir()
    (root / "wordstat.mjs").write_text(edit(GOOD))
    for rel, text in (extra or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def prepend(code: str) -> Callable[[str], str]:
    return lambda src: code + "\n" + src


async def grade(backend: SandboxBackend, target: Path) -> SampleGrade:
    job = target_job(load_dataset(DATASET), "wordstat", target)
    with anyio.fail_after(60):
        return (await grade_many(backend, [job], POLICY))[0]


async def test_reference_passes(sandbox_backend: SandboxBackend) -> None:
    g = await grade(sandbox_backend, FIXTURE / "good")
    assert g.passed and g.success_rate == 1.0 and g.failure_category is None and not g.cheat_flags
    assert {c.status for c in g.cases} == {"pass"}
    assert len(g.cases) == 12 and g.outputs == []  # no outputs unless asked for (hidden stay hidden)


SECRET = "/etc/repozero-grader-secret"

BROKEN: dict[str, tuple[Callable[[str], str], dict[str, str], str | None, dict[str, str], list[str]]] = {
    # name: (edit, extra files, category, {case id: status}, flags that must be present)
    "wrong_line": (
        lambda s: s.replace("toUpperCase()", "toLowerCase()"),
        {},
        "whitebox_fail",
        {"c01": "wrong_output", "c00": "pass"},
        [],
    ),
    "missing_trailing_newline": (
        lambda s: s.replace(
            "console.log(String(words.length));", "process.stdout.write(String(words.length));"
        ),
        {},
        "whitebox_fail",
        {"c00": "wrong_output", "c01": "pass"},
        [],
    ),
    "wrong_exit_code": (
        lambda s: s.replace("process.exitCode = 3", "process.exitCode = 0"),
        {},
        "mismatch",
        {"c08": "wrong_output", "c00": "pass"},
        [],
    ),
    "crash": (
        lambda s: s.replace('if (mode === "count") {', 'if (mode === "count") { null.x;'),
        {},
        "whitebox_fail",
        {"c00": "runtime_error", "c01": "pass"},
        [],
    ),
    "timeout": (
        lambda s: s.replace('} else if (mode === "reverse") {', '} else if (mode === "reverse") { for(;;){}'),
        {},
        "whitebox_fail",
        {"c02": "timeout", "c00": "pass"},
        [],
    ),
    "endless_output": (
        lambda s: s.replace(
            '} else if (mode === "fail") {',
            '} else if (mode === "fail") { for(;;) console.log("y".repeat(1000));',
        ),
        {},
        "runtime_error",
        {"c00": "pass"},
        [],
    ),
    "spawns_python": (
        prepend(
            "import { execFileSync } from 'node:child_process';\n"
            "if (process.argv.includes('upper')) console.log(execFileSync('python3', ['-c', 'print(1)']).toString());"
        ),
        {},
        "cheat",
        {},
        ["child_process"],
    ),
    "spawns_node_other_file": (
        prepend(
            "const cp = await import('child' + '_process');\n"
            "cp.execFileSync(process.execPath, ['other.mjs']);"
        ),
        {"other.mjs": "console.log('hi');\n"},
        "cheat",
        {},
        ["runtime_denied:ChildProcess"],
    ),
    "requires_npm_package": (
        prepend("import _ from 'lodash';"),
        {"package.json": json.dumps({"dependencies": {"lodash": "^4"}})},
        "cheat",
        {},
        ["external_dependency:dependencies", "non_builtin_import:lodash"],
    ),
    "reads_outside_repo": (
        prepend(
            "import fs from 'node:fs';\nconst p = ['', 'etc', 'hostname'].join('/');\n"
            "try { fs.readFileSync(p); } catch (e) { console.error(e); }"
        ),
        {},
        "cheat",
        {},
        ["runtime_denied:FileSystemRead"],
    ),
    "syntax_error": (
        lambda s: s.replace("const args", "const const args"),
        {},
        "whitebox_fail",
        {"c00": "runtime_error", "c05": "runtime_error"},
        [],
    ),
}


@pytest.mark.parametrize("name", list(BROKEN))
async def test_broken_variants(sandbox_backend: SandboxBackend, tmp_path: Path, name: str) -> None:
    edit, extra, category, statuses, flags = BROKEN[name]
    g = await grade(sandbox_backend, variant(tmp_path, name, edit, extra))
    assert not g.infra_error, g.infra_detail
    assert not g.passed
    assert g.failure_category == category, (
        g.failure_category,
        g.cheat_flags,
        [(c.id, c.status) for c in g.cases],
    )
    got = {c.id: c.status for c in g.cases}
    for case_id, status in statuses.items():
        assert got[case_id] == status, (case_id, got)
    for flag in flags:
        assert flag in g.cheat_flags, g.cheat_flags
    if category == "cheat":
        assert g.success_rate == 0.0


HOG = "const big = []; for (;;) big.push('x'.repeat(1 << 20));"
"""A runaway allocation at Node's garbage collector's pace (a case of issue 40: 291 s to grade uncapped)."""
MEMORY_POLICY = msgspec.structs.replace(
    POLICY, timeout_s=20.0, case_memory_mb=get_protocol("repozero-strict").case_memory_mb
)
"""The strict protocol's per-case memory; a timeout long enough that only the cap can end a hog (a loaded
machine slows the hog too): a grade that still says `timeout` had no cap."""


async def test_a_memory_hog_dies_of_its_case_cap(sandbox_backend: SandboxBackend, tmp_path: Path) -> None:
    hog = variant(
        tmp_path, "hog", lambda s: s.replace('if (mode === "upper") {', 'if (mode === "upper") { ' + HOG)
    )
    job = target_job(load_dataset(DATASET), "wordstat", hog)
    with anyio.fail_after(240):
        g = (await grade_many(sandbox_backend, [job], MEMORY_POLICY))[0]
    got = {c.id: c.status for c in g.cases}
    assert {got[i] for i in ("c01", "c04", "c06", "c11")} == {"oom"}, got  # the `upper` cases
    assert {s for i, s in got.items() if i not in ("c01", "c04", "c06", "c11")} == {"pass"}, got
    assert g.failure_category == "whitebox_fail" and not g.infra_error


async def test_a_grade_stops_after_k_crashes_of_one_kind(
    sandbox_backend: SandboxBackend, tmp_path: Path
) -> None:
    """Every case a hog: three `oom` deaths, then the rest `not_run` (as after three timeouts)."""
    job = target_job(load_dataset(DATASET), "wordstat", variant(tmp_path, "hog", prepend(HOG)))
    policy = msgspec.structs.replace(MEMORY_POLICY, stop_after_crashes=3)
    with anyio.fail_after(240):
        g = (await grade_many(sandbox_backend, [job], policy))[0]
    assert [c.status for c in g.cases] == ["oom"] * 3 + ["not_run"] * 9, [c.status for c in g.cases]
    assert g.failure_category == "whitebox_fail" and g.success_rate == 0.0


async def test_endless_output_is_capped_not_stored(sandbox_backend: SandboxBackend, tmp_path: Path) -> None:
    edit = BROKEN["endless_output"][0]
    g = await grade(sandbox_backend, variant(tmp_path, "endless", edit))
    status = {c.id: c.status for c in g.cases}["c08"]
    assert status in ("runtime_error", "timeout")


async def test_no_executable(sandbox_backend: SandboxBackend, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README.md").write_text("nothing here\n")
    g = await grade(sandbox_backend, empty)
    assert g.failure_category == "no_executable"
    assert {c.status for c in g.cases} == {"not_run"}


async def test_a_target_without_entry_point_takes_no_grading_slot(tmp_path: Path) -> None:
    """The grading limiter bounds grading sandboxes; a tree with nothing to run opens none and must not queue
    behind them (a run's episodes all ending at once waited seconds each for a slot they never used)."""
    from repozero.sandbox import LocalBackend

    (tmp_path / "README.md").write_text("nothing here\n")
    job = target_job(load_dataset(DATASET), "wordstat", tmp_path)
    slots = anyio.CapacityLimiter(1)
    async with slots:  # every grading slot busy
        with anyio.fail_after(20):
            g = (await grade_many(LocalBackend(), [job], POLICY, limiter=slots))[0]
    assert g.failure_category == "no_executable"


async def test_visible_outputs_only_for_visible_ids(sandbox_backend: SandboxBackend) -> None:
    sample = load_dataset(DATASET).sample("wordstat")
    job = GradeJob(
        sample=sample,
        cases=sample.kept_cases,
        target_dir=str(FIXTURE / "good"),
        visible_ids=frozenset({"c00", "c01"}),
    )
    with anyio.fail_after(60):
        g = (await grade_many(sandbox_backend, [job], POLICY))[0]
    assert [o.id for o in g.outputs] == ["c00", "c01"]
    assert g.outputs[1].stdout == b"HELLO WORLD\n"


async def test_many_samples_concurrently_in_order(sandbox_backend: SandboxBackend, tmp_path: Path) -> None:
    dataset = load_dataset(DATASET)
    bad = variant(tmp_path, "bad", BROKEN["wrong_line"][0])
    jobs = [target_job(dataset, "wordstat", FIXTURE / "good" if i % 2 == 0 else bad) for i in range(4)]
    with anyio.fail_after(120):
        grades = await grade_many(sandbox_backend, jobs, POLICY)
    assert [g.passed for g in grades] == [True, False, True, False]
    summary = summarise(grades)
    assert summary.pass_rate == 0.5 and summary.infra_errors == 0


def test_cli_json_and_exit_codes(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "repozero", "eval", "--dataset", str(DATASET), "--sample", "wordstat"]
    out = subprocess.run([*cmd, "--target", str(FIXTURE / "good"), "--json"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"samples", "pass_rate", "success_rate", "infra_errors", "grader_version"}
    assert set(data["samples"][0]) == {
        "sample",
        "passed",
        "success_rate",
        "failure_category",
        "cheat_flags",
        "infra_error",
        "cases",
    }
    assert data["pass_rate"] == 1.0 and data["samples"][0]["cases"][0] == {"id": "c00", "status": "pass"}
    bad = subprocess.run([*cmd, "--target", str(tmp_path / "missing")], capture_output=True, text=True)
    assert bad.returncode == 2 and "--target" in bad.stderr and "Traceback" not in bad.stderr
    wrong = variant(tmp_path, "w", BROKEN["wrong_line"][0])
    scored = subprocess.run([*cmd, "--target", str(wrong), "--json"], capture_output=True, text=True)
    assert scored.returncode == 0 and json.loads(scored.stdout)["pass_rate"] == 0.0


def test_gold_cli(tmp_path: Path) -> None:
    ds = tmp_path / "ds"
    shutil.copytree(DATASET, ds)
    shutil.copytree(FIXTURE / "good", ds / "samples" / "wordstat" / "gold")
    out = subprocess.run(
        [sys.executable, "-m", "repozero", "eval", "--dataset", str(ds), "--gold", "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["pass_rate"] == 1.0
