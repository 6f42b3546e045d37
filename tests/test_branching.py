"""Branching episodes (orchestrator/engine/branching.py): a fork copies the work dir, the conversation and the
rounds; each branch spends on its own and the prefix is counted once; the branch that goes on is chosen on
visible grades alone — a hidden grade turned upside down changes nothing; `--ace-branches` on the CLI."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tarfile
from pathlib import Path

import msgspec
import pytest

from repozero import BranchSpec, EpisodeResult, RunSpec, Session, load_config
from repozero.kernel.errors import UsageError
from repozero.oracle.grading import CaseResult, SampleGrade
from repozero.orchestrator.engine.branching import best_visible
from repozero.orchestrator.engine.episode import Episode
from repozero.sandbox.docker_client import docker_unavailable
from repozero.traces import Event, ModelCalled

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
SAMPLE = "fx-stats"


def _grade(statuses: dict[str, str]) -> SampleGrade:
    cases = [CaseResult(id=i, visibility="whitebox", status=s) for i, s in statuses.items()]  # type: ignore[arg-type]
    passed = sum(s == "pass" for s in statuses.values())
    return SampleGrade(
        sample="s",
        passed=passed == len(cases),
        success_rate=passed / len(cases),
        failure_category=None,
        cheat_flags=[],
        infra_error=False,
        cases=cases,
    )


def test_best_visible_ranks_on_shared_cases_first() -> None:
    # b0 passes more of its own (fresh) cases; b1 more of the cases both were graded on: b1 goes on
    b0 = _grade({"w1": "pass", "w2": "wrong_output", "f0a": "pass", "f0b": "pass", "f0c": "pass"})
    b1 = _grade({"w1": "pass", "w2": "pass", "f1a": "wrong_output"})
    assert best_visible([b0, b1]) == 1
    # a tie on the shared cases: the better own pass rate, then the lower index
    b2 = _grade({"w1": "pass", "w2": "pass", "f2a": "pass"})
    assert best_visible([b1, b2]) == 1 and best_visible([b2, b2]) == 0


def test_a_fork_needs_a_round_after_it() -> None:
    with pytest.raises(UsageError, match="at_round"):
        BranchSpec(at_round=2, n=2).check(2)
    with pytest.raises(UsageError, match="repeat"):
        BranchSpec(at_round=0, n=2, keep="all", repeat=True).check(2)
    with pytest.raises(UsageError, match="--ace-branches"):
        RunSpec(dataset="d", model="m", ace_branches=0).check()


class _Calls:
    def __init__(self) -> None:
        self.calls: list[ModelCalled] = []

    def emit(self, event: Event) -> None:
        if isinstance(event, ModelCalled):
            self.calls.append(event)

    async def aclose(self) -> None:
        pass


def _members(archive: Path) -> dict[str, bytes]:
    with tarfile.open(archive) as tar:
        return {m.name: tar.extractfile(m).read() for m in tar.getmembers() if m.isfile()}  # type: ignore[union-attr]


BACKENDS = [
    pytest.param("local", id="local"),
    pytest.param(
        "docker",
        id="docker",
        marks=[pytest.mark.docker, pytest.mark.skipif(docker_unavailable() is not None, reason="no docker")],
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_every_branch_starts_from_the_prefix(tmp_path: Path, backend: str) -> None:
    """Fork after round 1 into 4: each branch's first call carries the prefix's whole conversation, its
    repository is the prefix's (the scripted coder writes nothing new: `never` rewrites the same tree), and
    the tree's spend is the prefix once plus each branch's own."""
    calls = _Calls()
    spec = RunSpec(dataset=str(FIXTURE), model="fake:never", ace_rounds=2, sandbox=backend)

    async def main() -> EpisodeResult:
        async with Session.open(load_config(), spec, run_dir=tmp_path / "run", sinks=[calls]) as s:
            return await s.run_episode(SAMPLE, branch=BranchSpec(at_round=1, n=4, keep="all"))

    result = asyncio.run(main())
    eid = f"{SAMPLE}--a0"
    assert [b.branch_id for b in result.branches] == [f"{eid}~b{i}" for i in range(4)]
    assert all(b.parent == eid and b.first_round == 2 and b.rounds == 1 for b in result.branches)
    assert [r.round for r in result.rounds] == [0, 1, 2] and sum(b.kept for b in result.branches) == 1
    prefix = result.rounds[1].tokens
    assert result.tokens == prefix + sum(b.tokens for b in result.branches) == result.rounds[2].tokens
    own_cpu = [b.sandbox_cpu_s for b in result.branches]  # each branch's sandboxes, read from their cgroups
    assert all(c is not None and c > 0 for c in own_cpu)
    assert result.timings["sandbox_cpu"] > sum(c for c in own_cpu if c is not None)  # + the prefix's
    coder = [c.call for c in calls.calls if c.call.role == "coder"]
    last_prefix = [c for c in coder if c.episode_id == eid and c.round == 1][-1]
    targets = tmp_path / "run" / "targets"
    before = _members(targets / eid / "round-1.tar.gz")
    assert before  # the prefix wrote a repository
    conversations = set()
    for b in result.branches:
        first = next(c for c in coder if c.episode_id == b.branch_id)
        assert first.round == 2 and first.messages[: len(last_prefix.messages)] == last_prefix.messages
        assert first.conversation_id == f"{last_prefix.conversation_id}~b{b.branch_id[-1]}"
        conversations.add(first.conversation_id)
        assert _members(targets / b.branch_id / "round-2.tar.gz") == before
    assert len(conversations) == 4


def _tree(run_dir: Path, monkeypatch: pytest.MonkeyPatch | None) -> EpisodeResult:
    spec = RunSpec(dataset=str(FIXTURE), model="fake:flaky-fix:0.5", ace_rounds=3, ace_branches=3, seed=7)
    if monkeypatch is not None:  # every hidden grade turned upside down: a pass fails, a failure passes
        views = Episode.grade_views

        async def upside_down(self: Episode, snapshot: Path) -> tuple[SampleGrade, SampleGrade]:
            hidden, visible = await views(self, snapshot)
            flipped = [
                msgspec.structs.replace(c, status="wrong_output" if c.status == "pass" else "pass")
                for c in hidden.cases
            ]
            rate = sum(c.status == "pass" for c in flipped) / max(len(flipped), 1)
            hidden = msgspec.structs.replace(
                hidden, cases=flipped, passed=not hidden.passed, success_rate=rate, failure_category=None
            )
            return hidden, visible

        monkeypatch.setattr(Episode, "grade_views", upside_down)

    async def main() -> EpisodeResult:
        async with Session.open(load_config(), spec, run_dir=run_dir) as s:
            return await s.run_episode(SAMPLE)

    return asyncio.run(main())


@pytest.mark.slow
def test_hidden_grades_cannot_steer_which_branch_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = _tree(tmp_path / "plain", None)
    flipped = _tree(tmp_path / "flipped", monkeypatch)
    assert len(plain.branches) >= 3  # it forked
    path = [(b.branch_id, b.kept, b.visible_success_rate, b.tokens) for b in plain.branches]
    assert path == [(b.branch_id, b.kept, b.visible_success_rate, b.tokens) for b in flipped.branches]
    assert [r.visible_success_rate for r in plain.rounds] == [r.visible_success_rate for r in flipped.rounds]
    assert [r.hidden_passed for r in plain.rounds] == [not r.hidden_passed for r in flipped.rounds]


@pytest.mark.slow
def test_the_cli_runs_an_ace_tree(tmp_path: Path) -> None:
    out = tmp_path / "run"
    argv = [
        sys.executable, "-m", "repozero", "run", "--dataset", "builtin:py2js-lite", "--model", "fake:buggy-then-fix",
        "--ace-rounds", "2", "--ace-branches", "2", "--samples", "base58-check", "--out", str(out), "--json",
    ]  # fmt: skip
    done = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["pass_rate"] == 1.0 and summary["episodes"] == 1
    assert json.loads((out / "manifest.json").read_text())["ace_branches"] == 2
    bad = subprocess.run([*argv[:-3], "--ace-branches", "0"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--ace-branches" in bad.stderr and "Traceback" not in bad.stderr
