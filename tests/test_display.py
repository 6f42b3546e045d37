"""The run's display: in-flight episodes and limiter queues in the progress counters, and where log events
go (stderr, `RUN_DIR/events.log`, quieted while a live panel owns the terminal). The panel itself, in a real
terminal, is tests/test_display_tty.py."""

from __future__ import annotations

import contextvars
import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import anyio
import anyio.lowlevel
import msgspec
import pytest
import structlog
from rich.console import Console

from repozero.agents.models.adaptive import AdaptiveLimiter
from repozero.kernel import log as rz_log
from repozero.kernel.log import configure_logging, run_log, terminal_panel
from repozero.orchestrator.engine import progress as progress_module
from repozero.orchestrator.engine.display import progress_fields, progress_panel
from repozero.orchestrator.engine.limits import AdaptiveGauge, LimiterQueue, queue_of
from repozero.orchestrator.engine.progress import SLOWEST, RunProgress
from repozero.orchestrator.sweeps import sweep_progress as sweep_progress_module
from repozero.traces import EpisodeFinished, ModelCalled

from .synthetic_traces import episode_events

# --- progress counters --------------------------------------------------------------------------------------


def test_in_flight_episodes_are_listed_oldest_first_with_their_round_calls_and_last_event() -> None:
    rng = random.Random(3)
    progress = RunProgress(total=9, saturation=lambda: {"episodes": LimiterQueue(7, 8, 2)})
    episodes = [episode_events(n, rng=rng, steps=n + 1) for n in range(8)]
    for events in episodes:
        progress.emit(events[0])  # eight start, in this order
    for n, events in enumerate(episodes):
        for event in events[1:-1]:  # every one works; none has finished yet
            if isinstance(event, ModelCalled) and n == 1:
                event = ModelCalled(call=msgspec.structs.replace(event.call, round=2))
            progress.emit(event)
    progress.emit(episodes[0][-1])  # the oldest finishes
    assert isinstance(episodes[0][-1], EpisodeFinished)
    snap = progress.snapshot()
    assert (snap.done, snap.running, snap.queued) == (1, 7, 1)
    ids = [f.episode_id for f in snap.slowest]
    assert ids == [f"synthetic-ep{n}" for n in range(1, 1 + SLOWEST)]
    calls = {f.episode_id: (f.model_calls, f.round, f.last_event) for f in snap.slowest}
    assert calls["synthetic-ep1"][:2] == (2, 2) and calls["synthetic-ep3"][:2] == (4, 0)
    assert calls["synthetic-ep2"][2] == episodes[2][-2].__struct_config__.tag
    assert all(f.age_s >= f.idle_s >= 0 for f in snap.slowest)
    fields = progress_fields(snap)
    assert fields["limit_episodes"] == "7/8" and fields["waiting_episodes"] == 2
    assert fields["slowest"].startswith("synthetic-ep1 ")


def test_a_retried_episode_keeps_its_first_start_and_leaves_once() -> None:
    rng = random.Random(4)
    progress = RunProgress(total=2)
    first, second = episode_events(0, rng=rng), episode_events(1, rng=rng)
    progress.emit(first[0])
    progress.emit(second[0])
    progress.emit(first[0])  # an infra retry starts the same episode again
    assert [f.episode_id for f in progress.snapshot().slowest] == ["synthetic-ep0", "synthetic-ep1"]
    progress.emit(first[-1])
    assert [f.episode_id for f in progress.snapshot().slowest] == ["synthetic-ep1"]
    assert progress.snapshot().running == 1


@pytest.mark.anyio
async def test_limiter_queues_count_the_tasks_waiting() -> None:
    limiter = anyio.CapacityLimiter(2)
    adaptive = AdaptiveLimiter("e", start=1, low=1, high=1)
    gauge = AdaptiveGauge(adaptive)
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            release = anyio.Event()

            async def hold() -> None:
                async with limiter, adaptive.slot():
                    await release.wait()

            for _ in range(5):
                tg.start_soon(hold)
            await anyio.wait_all_tasks_blocked()
            assert queue_of(limiter) == LimiterQueue(2, 2, 3)
            # the first task holds the endpoint's one slot; the other holder waits for it
            assert queue_of(gauge) == LimiterQueue(1, 1, 1)
            release.set()
    assert queue_of(limiter) == LimiterQueue(0, 2, 0) and queue_of(gauge).waiting == 0


def test_the_panel_shows_queues_pass_rate_eta_and_the_slowest() -> None:
    rng = random.Random(5)
    queues = {"episodes": LimiterQueue(3, 3, 4), "model:e": LimiterQueue(1, 16, None)}
    progress = RunProgress(total=8, saturation=lambda: queues)
    for n in range(4):
        events = episode_events(n, rng=rng, steps=2)
        for event in events if n == 0 else events[:-1]:
            progress.emit(event)
    console = Console(width=100, record=True, color_system=None)
    console.print(progress_panel(progress.snapshot(), "/runs/r1/events.log"))
    text = console.export_text()
    assert "1/8 done · 3 running · 4 queued" in text
    rate = progress.snapshot().pass_rate
    assert rate is not None and f"{rate:.1%}" in text and "eta " in text and "eta ?" not in text
    rows = {parts[1]: parts[2:4] for parts in map(str.split, text.splitlines()) if len(parts) == 5}
    assert rows["episodes"] == ["3/3", "4"] and rows["model:e"] == ["1/16", "—"]
    assert (
        "synthetic-ep1" in text
        and "synthetic-ep0" not in text
        and "info events → /runs/r1/events.log" in text
    )


def test_the_last_frame_of_a_stopped_run_lists_nothing_as_running() -> None:
    """Interrupted with 3 episodes in flight: the final frame counts them as interrupted, lists no
    slowest-in-flight and estimates no time left; a finished run's final frame is its last snapshot."""
    rng = random.Random(5)
    progress = RunProgress(total=8)
    for n in range(4):
        events = episode_events(n, rng=rng, steps=2)
        for event in events if n == 0 else events[:-1]:
            progress.emit(event)
    final = progress.final_snapshot()
    assert (final.running, final.stopped, final.slowest, final.eta_s) == (0, 3, [], None)
    console = Console(width=100, record=True, color_system=None)
    console.print(progress_panel(final, None))
    text = console.export_text()
    assert "1/8 done · 3 interrupted · 4 queued" in text and "synthetic-ep1" not in text
    done = RunProgress(total=1)
    for event in episode_events(0, rng=rng, steps=1):
        done.emit(event)
    last = done.final_snapshot()
    assert (last.done, last.running, last.stopped, last.eta_s) == (1, 0, 0, 0.0)


def test_the_eta_is_a_number_before_the_first_episode_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two of six episodes in flight for a minute, none finished, two ACE rounds each: one is in its second
    round (taken as 3/4 done: 80 s in all), the other in its first (1/4: 240 s). The four queued take the
    mean (160 s), on two slots beside what the two have left: (4 × 160 + 20 + 180) / 2 = 420 s."""
    clock = [100.0]
    monkeypatch.setattr(progress_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    rng = random.Random(7)
    progress = RunProgress(total=6, rounds=2)
    episodes = [episode_events(n, rng=rng, steps=2) for n in range(2)]
    for events in episodes:
        progress.emit(events[0])
    assert progress.snapshot().eta_s is None  # no time has passed: nothing to go on yet
    clock[0] += 60
    called = next(e for e in episodes[0] if isinstance(e, ModelCalled))
    progress.emit(ModelCalled(call=msgspec.structs.replace(called.call, round=1)))  # in round 2 of 2
    snap = progress.snapshot()
    assert snap.done == 0 and snap.eta_guessed and snap.eta_s == pytest.approx(420.0)
    console = Console(width=100, record=True, color_system=None)
    console.print(progress_panel(snap, None))
    text = console.export_text()
    assert "eta ~7m00s" in text and "eta ?" not in text
    assert progress_fields(snap)["eta"] == "~7m00s"
    for event in episodes[1][1:]:  # one finishes: from now on, the rate at which episodes finished
        progress.emit(event)
    clock[0] += 20
    after = progress.snapshot()
    assert (after.done, after.eta_guessed, after.eta_s) == (1, False, pytest.approx(5 * 80.0))
    assert "eta 6m40s" in _text(progress_panel(after, None))
    idle = RunProgress(total=3)  # nothing started: nothing to go on
    assert idle.snapshot().eta_s is None and "eta ?" in _text(progress_panel(idle.snapshot(), None))


def test_a_sweep_guesses_its_eta_from_every_cells_episodes_in_flight(monkeypatch: pytest.MonkeyPatch) -> None:
    from repozero.orchestrator.sweeps.sweep_progress import SweepProgress, sweep_panel

    clock = [100.0]
    monkeypatch.setattr(progress_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    monkeypatch.setattr(sweep_progress_module, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    rng = random.Random(8)
    sweep = SweepProgress(dict)
    one = sweep.add_cell("aaaaaaaa", {"ace_rounds": 0}, total=2, already_done=0, rounds=1)
    two = sweep.add_cell("bbbbbbbb", {"ace_rounds": 1}, total=2, already_done=0, rounds=2)
    one.emit(episode_events(0, rng=rng)[0])
    two.emit(episode_events(0, rng=rng)[0])
    clock[0] += 30  # one (1 round, taken halfway) lasts 60 s, two (2 rounds, in the first) 120 s
    snap = sweep.snapshot()
    assert snap.eta_guessed and snap.eta_s == pytest.approx((2 * 90 + 30 + 90) / 2)
    assert "eta ~2m30s" in _text(sweep_panel(sweep, None, 110))


def _text(renderable: object) -> str:
    console = Console(width=110, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


# --- where log events go ------------------------------------------------------------------------------------


@pytest.fixture
def fresh_logging() -> Iterator[None]:
    yield
    rz_log._settings = rz_log._Settings()
    structlog.reset_defaults()


def _events(stream: str) -> list[str]:
    return [json.loads(line)["event"] for line in stream.splitlines() if line.startswith("{")]


def test_run_log_keeps_info_while_a_panel_quiets_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fresh_logging: None
) -> None:
    configure_logging(json=True)
    log = structlog.get_logger()
    with run_log(tmp_path) as path:
        log.info("before_panel")
        with terminal_panel():
            log.info("episode_started", n=1)
            log.warning("rate_limited", n=2)
            log.error("sandbox_failed", n=3)
            log.debug("action_started")
        log.info("after_panel")
    log.info("no_run_log")
    assert path == tmp_path / "events.log"
    assert _events(path.read_text()) == [
        "before_panel", "episode_started", "rate_limited", "sandbox_failed", "after_panel",
    ]  # fmt: skip
    assert _events(capsys.readouterr().err) == [
        "before_panel", "rate_limited", "sandbox_failed", "after_panel", "no_run_log",
    ]  # fmt: skip


def test_an_explicit_log_level_is_kept_under_a_panel(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fresh_logging: None
) -> None:
    log = structlog.get_logger()
    configure_logging(json=True, level="info")
    with run_log(tmp_path) as path, terminal_panel():
        log.info("episode_started")
    assert _events(capsys.readouterr().err) == ["episode_started"] == _events(path.read_text())
    configure_logging(json=False, level="debug")
    (tmp_path / "plain").mkdir()
    with run_log(tmp_path / "plain") as plain:
        log.debug("action_started", action_id="a1")
    line = plain.read_text()
    assert "action_started" in line and "action_id=a1" in line and "\x1b[" not in line  # no colours in a file
    configure_logging(json=True, level="warning")
    with run_log(tmp_path) as path:
        log.info("episode_finished")
    assert _events(capsys.readouterr().err) == [] and _events(path.read_text())[-1] == "episode_finished"


def test_a_context_that_outlives_its_run_log_writes_nowhere(tmp_path: Path, fresh_logging: None) -> None:
    configure_logging(json=True, level="error")
    log = structlog.get_logger()
    with run_log(tmp_path) as path:
        left_behind = contextvars.copy_context()  # as a task still running after its run closed would hold
        log.info("inside")
    with (tmp_path / "next.log").open("w"):  # likely the closed descriptor's number again
        left_behind.run(log.info, "too_late")
    assert _events(path.read_text()) == ["inside"] and (tmp_path / "next.log").read_text() == ""


@pytest.mark.anyio
async def test_two_runs_in_one_process_keep_apart_logs(tmp_path: Path, fresh_logging: None) -> None:
    configure_logging(json=True, level="warning")
    log = structlog.get_logger()

    async def run(name: str) -> None:
        (tmp_path / name).mkdir()
        with run_log(tmp_path / name):
            for step in range(20):
                log.info("step", run=name, step=step)
                await anyio.lowlevel.checkpoint()

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run, "a")
            tg.start_soon(run, "b")
    for name in "ab":
        lines = [json.loads(x) for x in (tmp_path / name / "events.log").read_text().splitlines()]
        assert [(x["run"], x["step"]) for x in lines] == [(name, step) for step in range(20)]
