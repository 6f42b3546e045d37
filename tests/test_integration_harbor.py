"""`repozero export harbor` against the real `harbor` package: its task loader and linter, its `oracle`
agent on gold samples and its `nop` agent (an empty repository) on local Docker, the verifier's parity with
the grader, and a hidden-case audit of what the agent sees."""

from __future__ import annotations

import base64
import json
import os
import shlex
import shutil
import subprocess
from pathlib import Path

import anyio
import pytest

from repozero import load_config, load_dataset
from repozero.integrations.harbor import export_harbor
from repozero.integrations.harbor_run import harbor_venv, lint_tasks, load_tasks, run_harbor
from repozero.integrations.harbor_verify import judge

Rewards = dict[str, float] | None
DATASETS = {"builtin:py2js-lite": "roman-numerals", "builtin:c2rust-lite": "date-civil"}


def _missing() -> str | None:
    try:
        harbor_venv()
    except Exception as exc:
        return str(exc)
    if shutil.which("docker") is None or subprocess.run(["docker", "info"], capture_output=True).returncode:
        return "no docker daemon answers"
    if subprocess.run(["docker", "compose", "version"], capture_output=True).returncode:
        return "docker compose (Compose v2) is missing: scripts/setup.d/60-harbor.sh links it"
    return None


MISSING = _missing()
needs_harbor = pytest.mark.skipif(MISSING is not None and not os.environ.get("CI"), reason=str(MISSING))


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("harbor-tasks")
    for dataset, sample in DATASETS.items():
        export_harbor(load_config(), dataset, out, samples=sample)
    return out


def _hidden_needles(dataset: str, sample_id: str) -> list[str]:
    """Every way a hidden case could show: its argv as the prompt renders argv (JSON) and as a command
    line, its stdin and expected stdout raw and JSON-escaped — leaving out what a whitebox case, the test
    program or the API spec (both shown to the agent) show anyway, such as a constant error message."""
    data = load_dataset(dataset)
    sample = data.sample(sample_id)
    public = data.test_program(sample_id) + data.api_spec(sample_id)
    entry = sample.target.entry
    shown = {(tuple(c.argv), c.expected_stdout) for c in sample.whitebox}
    needles = []
    for case in sample.hidden:
        out = (case.expected_stdout or b"").decode(errors="replace")
        if (tuple(case.argv), case.expected_stdout) in shown:
            continue
        if case.argv:
            needles += [json.dumps(case.argv, ensure_ascii=False), shlex.join([*entry, *case.argv])]
        stdin = (case.stdin or b"").decode(errors="replace")
        if len(stdin.strip()) >= 12:
            needles += [stdin, json.dumps(stdin, ensure_ascii=False)]
        if len(out.strip()) >= 12 and all(
            out != (c.expected_stdout or b"").decode() for c in sample.whitebox
        ):
            needles += [out, json.dumps(out, ensure_ascii=False)]
    return [n for n in needles if n not in public]


def _leaks(task_dir: Path, needles: list[str]) -> list[str]:
    seen = [task_dir / "instruction.md", *sorted((task_dir / "environment").rglob("*"))]
    text = "\n".join(p.read_bytes().decode(errors="replace") for p in seen if p.is_file())
    return [n for n in needles if n in text]


def test_hidden_cases_never_reach_the_agent(exported: Path, tmp_path: Path) -> None:
    for dataset, sample_id in DATASETS.items():
        needles = _hidden_needles(dataset, sample_id)
        assert len(needles) > 20, "the audit must have hidden cases to look for"
        task = exported / sample_id
        assert _leaks(task, needles) == []
        # ...and the verifier has all of them, with their ground truth
        graded = json.loads((task / "tests" / "task.json").read_text())["cases"]
        hidden = {c.id: c for c in load_dataset(dataset).sample(sample_id).hidden}
        by_id = {c["id"]: c for c in graded}
        assert set(hidden) <= set(by_id)
        assert all(
            base64.b64decode(by_id[i]["expected_stdout"]) == c.expected_stdout for i, c in hidden.items()
        )
    # the audit itself catches a leak: one hidden case pasted into a copy of the prompt
    planted = tmp_path / "planted"
    shutil.copytree(exported / "roman-numerals", planted)
    case = load_dataset("builtin:py2js-lite").sample("roman-numerals").hidden[-1]
    with (planted / "instruction.md").open("a") as f:
        f.write(f"argv (JSON): {json.dumps(case.argv)}\n")
    assert _leaks(planted, _hidden_needles("builtin:py2js-lite", "roman-numerals"))


def test_instruction_is_our_coder_prompt(exported: Path) -> None:
    text = (exported / "roman-numerals" / "instruction.md").read_text()
    assert "# Task: re-implement `roman==4.2` in javascript" in text
    assert "## API specification" in text and "## Example cases (whitebox)" in text
    assert text.count("### Case ") == 4
    rust = (exported / "date-civil" / "instruction.md").read_text()
    assert "no build.rs, no .cargo/config" in rust and "target/release/date_civil" in rust


def test_verifier_judges_as_the_grader(exported: Path, tmp_path: Path) -> None:
    """The exported verify.py, run by a plain python3 from its own folder: the grader's rule modules
    flag a cheat; the judging turns driver records into the grader's statuses."""
    tests = exported / "roman-numerals" / "tests"
    tree = tmp_path / "target"
    tree.mkdir()
    (tree / "roman_numerals.mjs").write_text("import { execSync } from 'node:child_process';\n")
    (tree / "package.json").write_text('{"dependencies": {"roman": "1"}}')
    done = subprocess.run(
        ["python3", "-I", str(tests / "verify.py"), "scan", str(tree), str(tests / "task.json")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == {
        "flags": ["child_process", "external_dependency:dependencies"],
        "runnable": True,
    }
    task = json.loads((tests / "task.json").read_text())
    first, second = task["cases"][:2]
    task["cases"] = [first, second, first, second]
    good = base64.b64decode(first["expected_stdout"])
    records = (
        b"case 0 0 1000 %d 0\n" % len(good) + good
        + b"case 1 0 1000 3 0\nbad"
        + b"case 2 137 5000000000 0 0\n"
        + b"skip 3\ndone 4\n"
    )  # fmt: skip
    grade = judge(task, {"flags": [], "runnable": True}, records, "")
    assert [c["status"] for c in grade["cases"]] == ["pass", "wrong_output", "timeout", "not_run"]
    assert grade["failure_category"] == "whitebox_fail" and grade["passed"] is False
    assert grade["success_rate"] == 0.25
    assert judge(task, {"flags": [], "runnable": False}, None, "")["failure_category"] == "no_executable"


@needs_harbor
@pytest.mark.slow
def test_harbor_loads_and_lints_the_tasks(exported: Path) -> None:
    loaded = load_tasks([exported / s for s in DATASETS.values()])
    assert [t["name"] for t in loaded] == [
        "repozero/py2js-lite-roman-numerals",
        "repozero/c2rust-lite-date-civil",
    ]
    assert all(t["verifier_mode"] == "separate" and t["artifacts"] == ["/work"] for t in loaded)
    lint = lint_tasks([exported / s for s in DATASETS.values()])
    assert lint.returncode == 0, lint.stdout + lint.stderr


@needs_harbor
@pytest.mark.docker
@pytest.mark.slow
def test_harbor_oracle_solves_and_nop_fails(exported: Path, tmp_path: Path) -> None:
    """Harbor's own run on local Docker: the gold (oracle agent) earns 1.0 on both languages, an empty
    repository (nop agent) 0.0, as no_executable; the gold plus one forbidden import earns 0.0, as cheat.
    Harbor's trial results carry the case counts, its job metrics no per-case key, and each trial's
    verifier folder the per-case statuses (ctrf.json)."""
    tasks = tmp_path / "tasks"
    shutil.copytree(exported, tasks)
    cheat = tasks / "roman-cheat"
    shutil.copytree(tasks / "roman-numerals", cheat)
    toml = cheat / "task.toml"
    toml.write_text(toml.read_text().replace("py2js-lite-roman-numerals", "py2js-lite-roman-cheat"))
    entry = cheat / "solution" / "gold" / "roman_numerals.mjs"
    entry.write_text("import 'node:child_process';\n" + entry.read_text())
    results, rewards = {}, dict[str, dict[str, Rewards]]()

    async def one(agent: str, where: Path) -> None:
        trials = await run_harbor(where, agent, tmp_path / "jobs", job_name=agent, n_concurrent=2)
        assert all(t.exception is None for t in trials), trials
        results[agent] = {t.task.split("-lite-")[1]: t.rewards and t.rewards["reward"] for t in trials}
        rewards[agent] = {t.task.split("-lite-")[1]: t.rewards for t in trials}

    async def both() -> None:
        async with anyio.create_task_group() as tg:
            tg.start_soon(one, "oracle", tasks)
            tg.start_soon(one, "nop", exported)

    anyio.run(both)
    assert results["oracle"] == {"roman-numerals": 1, "date-civil": 1, "roman-cheat": 0}
    assert results["nop"] == {"roman-numerals": 0, "date-civil": 0}
    (cheated,) = (tmp_path / "jobs" / "oracle").glob("roman-cheat__*/verifier/grade.json")
    assert json.loads(cheated.read_text())["cheat_flags"] == ["child_process"]
    for trial in (tmp_path / "jobs" / "nop").glob("*/verifier/grade.json"):
        grade = json.loads(trial.read_text())
        assert grade["failure_category"] == "no_executable"
        assert {c["status"] for c in grade["cases"]} == {"not_run"}
    _check_case_counts(exported, tmp_path / "jobs", rewards)


def _check_case_counts(exported: Path, jobs: Path, rewards: dict[str, dict[str, Rewards]]) -> None:
    """Each trial's `passed_cases`/`total_cases` as Harbor read them, the keys of Harbor's job metrics (no
    per-case key), and the per-case statuses in one trial's `verifier/ctrf.json`."""
    totals = {
        s: len(json.loads((exported / s / "tests" / "task.json").read_text())["cases"])
        for s in DATASETS.values()
    }
    totals["roman-cheat"] = totals["roman-numerals"]
    counts = {
        (agent, sample): r and (r["passed_cases"], r["total_cases"])
        for agent, trials in rewards.items()
        for sample, r in trials.items()
    }
    assert counts == {
        **{("oracle", s): (n, n) for s, n in totals.items()},  # the cheat's cases pass; its flag zeroes PR
        **{("nop", s): (0, totals[s]) for s in DATASETS.values()},
    }
    (stats,) = json.loads((jobs / "oracle" / "result.json").read_text())["stats"]["evals"].values()
    assert sorted(stats["metrics"][0]) == sorted(
        ["reward", "pass_rate", "success_rate", "passed_cases", "total_cases"]
    )
    (report,) = (jobs / "oracle").glob("roman-numerals__*/verifier/ctrf.json")
    tests = json.loads(report.read_text())["results"]["tests"]
    assert len(tests) == totals["roman-numerals"] and {t["rawStatus"] for t in tests} == {"pass"}
