"""`Session`, the front door: episodes awaited from the caller's own event loop (plain asyncio, trio), with
nothing written where it runs; streams, whole plans and per-episode policies; `RunSpec.from_config`."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tarfile
from contextlib import aclosing
from pathlib import Path

import msgspec
import pytest
import trio

from repozero import EpisodeResult, RunSpec, Session, load_config
from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.kernel.errors import ConfigError, DatasetError, UsageError
from repozero.orchestrator.engine.config import Config

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = pytest.mark.slow


def spec(model: str = "fake:gold", **flags: object) -> RunSpec:
    return RunSpec(dataset=str(FIXTURE), model=model, **{"ace_rounds": 0, **flags})  # type: ignore[arg-type]


def test_two_episodes_on_a_plain_asyncio_loop_write_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)

    async def main() -> tuple[str, EpisodeResult, EpisodeResult]:
        loop = type(asyncio.get_running_loop()).__module__
        async with Session.open(load_config(), spec()) as s:
            a = await s.run_episode("fx-slug")
            b = await s.run_episode("fx-stats", attempt=1)
        return loop, a, b

    loop, a, b = asyncio.run(main())
    assert loop.startswith("asyncio")  # not uvloop: the session takes the loop it is given
    assert (a.sample, a.attempt, a.passed, b.sample, b.attempt, b.passed) == (
        "fx-slug",
        0,
        True,
        "fx-stats",
        1,
        True,
    )
    for r in (a, b):
        assert r.success_rate == 1.0 and r.reward == 1.0 and r.termination == "solved"
        assert len(r.rounds) == 1 and r.rounds[0].hidden_passed and r.rounds[0].visible_passed
        assert r.tokens == r.prompt_tokens + r.completion_tokens > 0 and r.cost_usd == 0.0
    assert os.listdir(tmp_path) == []


def test_an_episode_on_trio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)

    async def main() -> EpisodeResult:
        async with Session.open(load_config(), spec("fake:buggy-then-fix", ace_rounds=1)) as s:
            return await s.run_episode("fx-stats")

    result = trio.run(main)
    assert [r.hidden_passed for r in result.rounds] == [False, True]  # fixed after the round-0 feedback
    assert result.passed is True and result.termination == "solved"
    assert os.listdir(tmp_path) == []


def test_stream_yields_as_episodes_end_and_run_skips_what_the_store_has(tmp_path: Path) -> None:
    model = "fake:mix:gold@fx-slug,never@*"

    async def main() -> tuple[list[EpisodeResult], object, object]:
        async with Session.open(load_config(), spec(model, attempts=2), run_dir=tmp_path / "run") as s:
            async with aclosing(s.stream(["fx-slug", ("fx-stats", 0)])) as results:
                streamed = [r async for r in results]
            rest = await s.run()  # the plan is 2 samples × 2 attempts; two already finished
            again = await s.run()
        return streamed, rest, again

    streamed, rest, again = asyncio.run(main())
    assert sorted((r.sample, r.passed) for r in streamed) == [("fx-slug", True), ("fx-stats", False)]
    assert msgspec.structs.asdict(rest) == msgspec.structs.asdict(
        again
    )  # nothing left to run the second time
    assert rest.episodes == 4 and rest.finished == 4 and rest.pass_rate == 0.5  # type: ignore[attr-defined]
    assert (tmp_path / "run" / "results.sqlite").exists() and (tmp_path / "run" / "traces").is_dir()


def test_the_store_is_a_sink_on_the_bus_and_commits_before_other_sinks_see_an_event(tmp_path: Path) -> None:
    from repozero.orchestrator.engine.results import EpisodeScored, ResultsStore, RoundScored

    seen: list[tuple[str, object, object]] = []

    class Watcher:  # a subscriber: what does the store hold when an episode's or a round's event arrives?
        store: ResultsStore

        def emit(self, event: object) -> None:
            if isinstance(event, EpisodeScored):
                seen.append(("episode", event.result, self.store.episode_results()))
            elif isinstance(event, RoundScored):
                rounds = self.store.round_results(event.round.episode_id)
                seen.append(("round", event.result, rounds))

    watcher = Watcher()

    async def main() -> EpisodeResult:
        async with Session.open(
            load_config(),
            spec("fake:buggy-then-fix", ace_rounds=1),
            run_dir=tmp_path / "run",
            sinks=[watcher],
        ) as s:
            watcher.store = s.store
            return await s.run_episode("fx-stats")

    result = asyncio.run(main())
    assert [kind for kind, _, _ in seen] == ["round", "round", "episode"]
    assert seen[0][2] == [seen[0][1]] and seen[1][2] == [seen[0][1], seen[1][1]]  # committed, in order
    assert seen[2][2] == [result] and seen[2][1] == result  # the store's row is the result returned
    reopened = ResultsStore.open_readonly(tmp_path / "run" / "results.sqlite")
    try:
        assert reopened.episode_results() == [result]
        assert {c.kind for c in reopened.case_rows(result.episode_id)} >= {"hidden", "whitebox"}
    finally:
        reopened.close()


def test_an_episode_may_use_another_endpoint_as_its_policy(tmp_path: Path) -> None:
    async def main() -> tuple[EpisodeResult, EpisodeResult]:
        async with start_fake_server("never", str(FIXTURE)) as url:
            config = msgspec.structs.replace(load_config(), endpoints={"other": fake_endpoint(url, "never")})
            async with Session.open(config, spec()) as s:
                with pytest.raises(ConfigError, match="nowhere"):
                    await s.run_episode("fx-slug", policy="nowhere")
                with pytest.raises(DatasetError, match="no-such-sample"):
                    await s.run_episode("no-such-sample")
                return await s.run_episode("fx-slug"), await s.run_episode("fx-slug", policy="other")

    default, other = asyncio.run(main())
    assert default.passed is True and other.passed is False


def test_run_spec_from_config_reads_the_config_and_flags_win() -> None:
    config = load_config(
        None,
        ["run.ace_rounds=3", "run.attempts=2", "run.seed=9", "run.infra_retries=0", "agent.scaffold=tools"],
    )
    from_config = RunSpec.from_config(config, dataset="d", model="m", attempts=None)
    assert (from_config.ace_rounds, from_config.attempts, from_config.seed) == (3, 2, 9)
    assert (from_config.infra_retries, from_config.scaffold, from_config.sandbox) == (0, "tools", "local")
    flagged = RunSpec.from_config(config, dataset="d", model="m", ace_rounds=0, sandbox="docker")
    assert (flagged.ace_rounds, flagged.sandbox) == (0, "docker")
    with pytest.raises(UsageError, match="--attempts"):
        RunSpec.from_config(config, dataset="d", model="m", attempts=0)
    with pytest.raises(UsageError, match="rounds_per_day"):
        RunSpec.from_config(config, dataset="d", model="m", rounds_per_day=1)
    assert isinstance(config, Config)


def test_eval_under_the_public_protocol_reproduces_the_episodes_score(tmp_path: Path) -> None:
    """The oracle-error rule lives in the grading policy: `eval --protocol repozero-public` on the
    episode's own target gives the score the episode got (the sample has an input the Oracle failed on)."""
    public = RunSpec(
        dataset="builtin:py2js-lite", model="fake:gold", ace_rounds=0, protocol="repozero-public"
    )

    async def main() -> EpisodeResult:
        async with Session.open(load_config(), public, run_dir=tmp_path / "run") as s:
            return await s.run_episode("base58-check")

    episode = asyncio.run(main())
    target = tmp_path / "target"
    with tarfile.open(tmp_path / "run" / "targets" / "base58-check--a0" / "round-0.tar.gz") as tar:
        tar.extractall(target, filter="data")
    graded = {}
    for protocol in ("repozero-public", "repozero-strict"):
        proc = subprocess.run(
            [sys.executable, "-m", "repozero", "eval", "--dataset", "builtin:py2js-lite", "--sample", "base58-check",
             "--target", str(target), "--protocol", protocol, "--json"],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr[-2000:]
        graded[protocol] = json.loads(proc.stdout)["samples"][0]
    assert (
        episode.passed is False and 0 < episode.success_rate < 1
    )  # every case passes; the Oracle error counts
    assert (graded["repozero-public"]["passed"], graded["repozero-public"]["success_rate"]) == (
        episode.passed,
        episode.success_rate,
    )
    assert graded["repozero-strict"]["passed"] is True  # strict drops what the Oracle could not answer


def test_a_local_backend_is_ready_before_the_run_starts(tmp_path: Path) -> None:
    """The local backend's one-time work (isolation probe, reaping, toolchain) is done at open, before
    `RunStarted`, for the toolchain of the spec's samples: no episode's first step waits for it."""
    from repozero.sandbox import LocalBackend, SandboxSpec

    seen: list[str] = []

    class Recording(LocalBackend):
        async def prewarm(self, spec: SandboxSpec) -> None:
            seen.append(f"prewarm:{spec.toolchain}")
            await super().prewarm(spec)

    class Watcher:
        def emit(self, event: object) -> None:
            seen.append(type(event).__name__)

    async def main() -> None:
        async with Session.open(
            load_config(), spec(samples="fx-slug"), backend=Recording(), sinks=[Watcher()]
        ):
            pass

    asyncio.run(main())
    assert seen[:2] == ["prewarm:node", "RunStarted"]


def test_a_trainers_session_writes_a_manifest_that_report_reads(tmp_path: Path) -> None:
    """`Session.open(run_dir=…)` outside `repozero run` writes `manifest.json` (before, `repozero report`
    refused the directory)."""
    run_dir = tmp_path / "run"

    async def main() -> None:
        async with Session.open(load_config(), spec("fake:gold"), run_dir=run_dir) as s:
            await s.run_episode("fx-slug")

    asyncio.run(main())
    assert json.loads((run_dir / "manifest.json").read_text())["model"] == "fake:gold"
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "report", str(run_dir), "--format", "json", "--out", str(tmp_path / "r")],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "r" / "report.json").read_text())["runs"][0]["model"] == "fake:gold"
