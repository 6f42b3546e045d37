"""A run's progress as counters, fed by the event bus: what the display draws and `run_progress` logs.

`RunProgress` is a sink on the bus: an event costs a few counter updates and a dict lookup. Memory is
bounded by the episodes in flight (one small record each, kept to name the slowest), never by the run's
length.
"""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from repozero.kernel.records import Record
from repozero.orchestrator.engine.limits import LimiterQueue
from repozero.traces import (
    EpisodeFinished,
    EpisodeStarted,
    Event,
    ModelCalled,
    ModelCallFailed,
    RunStarted,
    record_of,
)

__all__ = ["CallCounts", "InFlight", "ProgressSnapshot", "RunProgress", "Saturation", "estimate_eta"]

Saturation = Callable[[], dict[str, LimiterQueue]]
SLOWEST = 5
"""In-flight episodes a snapshot names, oldest first."""


class InFlight(msgspec.Struct, kw_only=True):
    """One running episode, as the display lists it."""

    episode_id: str
    age_s: float
    round: int
    model_calls: int
    last_event: str
    idle_s: float
    """Seconds since its last event: a long idle is an episode waiting on something."""


class ProgressSnapshot(msgspec.Struct, kw_only=True):
    elapsed_s: float
    total: int
    done: int
    running: int
    queued: int
    solved: int
    scored: int
    """Episodes finished by this process and not infra errors (the pass rate's denominator)."""
    infra_errors: int
    pass_rate: float | None
    tokens: int
    cost_usd: float
    model_calls: int
    failed_calls: int
    rate_limit_waits: int
    rate_limit_wait_s: float
    limiters: dict[str, LimiterQueue]
    eta_s: float | None
    eta_guessed: bool = False
    """No episode has finished yet: `eta_s` is guessed from the episodes in flight (`estimate_eta`)."""
    slowest: list[InFlight] = []
    """The longest-running episodes in flight, oldest first (at most `SLOWEST`)."""
    stopped: int = 0
    """In the last frame: episodes that were in flight when the run stopped (interrupted, not running)."""


class CallCounts(Record, kw_only=True):
    """A process's model-call counters so far: what a Ray node runner sends back with each unit's result
    (orchestrator/ray_executor), so the driver's panel counts calls it never sees as events."""

    model_calls: int = 0
    failed_calls: int = 0
    rate_limit_waits: int = 0
    rate_limit_wait_s: float = 0.0


@dataclass
class _Flight:
    started: float
    last_at: float
    last_event: str = "episode_started"
    round: int = 0
    calls: int = 0


def estimate_eta(
    left: int, elapsed_s: float, finished: int, in_flight: list[tuple[float, float]]
) -> float | None:
    """Seconds until the `left` episodes (those in flight among them) are done; None with nothing to go on.

    Once episodes have finished, at the rate they finished: `left × elapsed / finished`. Before the first
    one ends, from the episodes in flight, given as (age in seconds, fraction done; None while none has
    run yet): each is taken to last `age / fraction`, the queued ones as long as their mean, the ones in
    flight what their own estimate has left, run as many at once as are in flight now. A guess that
    firms up as rounds pass (a fraction counts ACE rounds: `RunProgress.fraction`); the panel marks it
    `~`."""
    if finished:
        return left * elapsed_s / finished
    if not in_flight or not max(age for age, _ in in_flight):
        return None
    lasts = [age / fraction for age, fraction in in_flight]
    mean = sum(lasts) / len(lasts)
    queued = max(left - len(in_flight), 0)
    work = queued * mean + sum(last - age for last, (age, _) in zip(lasts, in_flight, strict=True))
    return work / len(in_flight)


class RunProgress:
    """Counters of one run, fed by the event bus (a `TraceSink`); memory is bounded by episodes in flight."""

    def __init__(
        self, total: int, already_done: int = 0, saturation: Saturation | None = None, rounds: int = 1
    ) -> None:
        self.total, self.already_done = total, already_done
        self.rounds = max(rounds, 1)
        """ACE rounds an episode may run (`ace_rounds + 1`): how far along an episode in flight is."""
        self.saturation = saturation or dict
        self.started_at = time.monotonic()
        self.flights: dict[str, _Flight] = {}
        self.finished = self.solved = self.scored = self.infra = 0
        self.tokens = self.calls = self.failed_calls = self.rate_limit_waits = 0
        self.cost = self.rate_limit_wait_s = 0.0
        self.remote: dict[str, CallCounts] = {}
        """Each Ray node runner's counters, as its last unit result carried them (`remote_calls`)."""

    def emit(self, event: Event) -> None:
        match event:
            case ModelCalled(call=call):
                self.calls += 1
                self.tokens += call.usage.prompt_tokens + call.usage.completion_tokens
                self.cost += call.usage.cost_usd
                for retry in call.retries:
                    if retry.status == 429 or retry.error.startswith("rate_limit"):
                        self.rate_limit_waits += 1
                        self.rate_limit_wait_s += retry.wait_s
            case ModelCallFailed():
                self.failed_calls += 1
            case RunStarted():  # the clock (and the ETA) starts when episodes can start
                self.started_at = time.monotonic()
            case EpisodeStarted(episode=ep):
                self.started(ep.episode_id)
                return
            case EpisodeFinished(episode=ep):
                self.ended(ep.episode_id, infra_error=ep.infra_error, solved=ep.status == "solved")
                return
        self._touch(event)

    def started(self, episode_id: str) -> None:
        """An episode began; an infra retry starts again, and its age counts from the first try."""
        now = time.monotonic()
        self.flights.setdefault(episode_id, _Flight(started=now, last_at=now))

    def ended(
        self, episode_id: str, *, infra_error: bool, solved: bool, tokens: int = 0, cost_usd: float = 0.0
    ) -> None:
        """An episode finished. `tokens`, `cost_usd`: its usage, when no `ModelCalled` events counted it
        (a Ray run's driver sees only each episode's result, orchestrator/ray_executor)."""
        self.flights.pop(episode_id, None)
        self.finished += 1
        self.tokens += tokens
        self.cost += cost_usd
        if infra_error:
            self.infra += 1
        else:
            self.scored += 1
            self.solved += solved

    def call_counts(self) -> CallCounts:
        """This process's own counters (a node runner's, sent to the driver)."""
        return CallCounts(
            model_calls=self.calls,
            failed_calls=self.failed_calls,
            rate_limit_waits=self.rate_limit_waits,
            rate_limit_wait_s=self.rate_limit_wait_s,
        )

    def remote_calls(self, source: str, counts: CallCounts) -> None:
        """A node runner's counters so far. Results can arrive out of order, so the larger of each stays:
        they only grow."""
        old = self.remote.get(source, CallCounts())
        self.remote[source] = CallCounts(
            model_calls=max(old.model_calls, counts.model_calls),
            failed_calls=max(old.failed_calls, counts.failed_calls),
            rate_limit_waits=max(old.rate_limit_waits, counts.rate_limit_waits),
            rate_limit_wait_s=max(old.rate_limit_wait_s, counts.rate_limit_wait_s),
        )

    def reopened(self, *, infra_error: bool, solved: bool) -> None:
        """An episode counted finished that will run again (its node's traces never reached the run
        directory): no longer done. Its tokens and cost stay counted: they were spent."""
        self.finished -= 1
        if infra_error:
            self.infra -= 1
        else:
            self.scored -= 1
            self.solved -= solved

    def heard(self, flights: list[InFlight]) -> None:
        """What a Ray node runner says of the episodes it runs (the driver sees none of their events):
        each one's round, model calls and last event, for those this counter still has in flight. Its
        age stays the driver's (from the lease); its idle time is counted from the node's clock."""
        now = time.monotonic()
        for remote in flights:
            flight = self.flights.get(remote.episode_id)
            if flight is not None:
                flight.round = max(flight.round, remote.round)
                flight.calls = max(flight.calls, remote.model_calls)
                flight.last_event, flight.last_at = remote.last_event, now - remote.idle_s

    def given_back(self, episode_id: str) -> None:
        """An episode in flight that will start again elsewhere (a Ray node lost): queued, not running."""
        self.flights.pop(episode_id, None)

    def _touch(self, event: Event) -> None:
        """The episode's last sign of life: which event, when, in which round, after how many calls."""
        record = record_of(event)
        flight = self.flights.get(getattr(record, "episode_id", ""))
        if flight is None:
            return
        flight.last_at, flight.last_event = time.monotonic(), str(event.__struct_config__.tag)
        flight.round = max(flight.round, getattr(record, "round", 0))  # rounds only move on
        flight.calls += isinstance(event, ModelCalled)

    def fraction(self, round_: int) -> float:
        """How far along an episode in its `round_` (0-based) is taken to be: halfway through that round,
        the expected share of a round done when it is looked at, its length unknown."""
        return min((round_ + 0.5) / self.rounds, 1.0)

    def in_flight(self, now: float) -> list[tuple[float, float]]:
        """Each episode in flight as (age in seconds, fraction done): what `estimate_eta` reads."""
        return [(max(now - f.started, 0.0), self.fraction(f.round)) for f in self.flights.values()]

    def snapshot(self) -> ProgressSnapshot:
        now = time.monotonic()
        elapsed = now - self.started_at
        done = self.already_done + self.finished
        left = max(self.total - done, 0)
        eta = estimate_eta(left, elapsed, self.finished, self.in_flight(now))
        return ProgressSnapshot(
            elapsed_s=elapsed,
            total=self.total,
            done=done,
            running=len(self.flights),
            queued=max(left - len(self.flights), 0),
            solved=self.solved,
            scored=self.scored,
            infra_errors=self.infra,
            pass_rate=self.solved / self.scored if self.scored else None,
            tokens=self.tokens,
            cost_usd=self.cost,
            model_calls=self.calls + sum(r.model_calls for r in self.remote.values()),
            failed_calls=self.failed_calls + sum(r.failed_calls for r in self.remote.values()),
            rate_limit_waits=self.rate_limit_waits + sum(r.rate_limit_waits for r in self.remote.values()),
            rate_limit_wait_s=self.rate_limit_wait_s + sum(r.rate_limit_wait_s for r in self.remote.values()),
            limiters=self.saturation(),
            eta_s=eta,
            eta_guessed=eta is not None and not self.finished,
            slowest=self.oldest(now),
        )

    def final_snapshot(self) -> ProgressSnapshot:
        """The last frame: what was still in flight has stopped with the run — counted as `stopped`, not
        shown as running, and no time left to estimate."""
        snap = self.snapshot()
        if not snap.running:
            return snap
        return msgspec.structs.replace(
            snap, running=0, slowest=[], stopped=snap.running, eta_s=None, eta_guessed=False
        )

    def oldest(self, now: float, n: int = SLOWEST) -> list[InFlight]:
        """The `n` episodes in flight that started first, oldest first (a Ray node runner sends all of
        its own to the driver: `heard`)."""
        oldest = heapq.nsmallest(n, self.flights.items(), key=lambda item: item[1].started)
        return [
            InFlight(
                episode_id=episode_id,
                age_s=now - f.started,
                round=f.round,
                model_calls=f.calls,
                last_event=f.last_event,
                idle_s=now - f.last_at,
            )
            for episode_id, f in oldest
        ]
