"""`Session`: the one front door — a run's parts opened once, in the caller's event loop.

The CLI, resume, benchmarks and trainers all stand on it: `start_run` is `anyio.run` + signals + display
over a session with a run directory; a trainer opens one without (nothing written, targets in a temporary
folder) and awaits episodes from its own asyncio or trio loop.
"""

from __future__ import annotations

import math
import secrets
import tempfile
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import TypeAlias

import anyio
import msgspec
import structlog

from repozero.agents.provider import ModelProvider, open_provider
from repozero.datasets import Dataset
from repozero.kernel.errors import RepoZeroError
from repozero.kernel.log import EVENTS_FILE, configure_logging, only_run_log, run_log
from repozero.kernel.vocabulary import EpisodeState
from repozero.oracle import Oracle, open_oracle
from repozero.orchestrator.engine.actions import ACTIONS_FILE, ActionLog
from repozero.orchestrator.engine.branch_spec import BranchSpec, ace_tree
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.context import EpisodeInfraError, Limiters, RunContext
from repozero.orchestrator.engine.diskspace import disk_full_error
from repozero.orchestrator.engine.episode import Episode
from repozero.orchestrator.engine.events import (
    REWARD_FORMULA,
    EpisodeTag,
    episode_finished_event,
    episode_rewards,
    episode_started_event,
)
from repozero.orchestrator.engine.limits import effective_config
from repozero.orchestrator.engine.manifest import MANIFEST_NAME, run_record, write_manifest
from repozero.orchestrator.engine.observe import ObservedBackend, ObservedOracle, ObservedProvider
from repozero.orchestrator.engine.parts import (
    Prepared,
    fake_settings,
    prepare,
    prepare_backend,
    prewarm,
    run_context,
    run_limiters,
    session_manifest,
)
from repozero.orchestrator.engine.results import EpisodeResult, ResultsStore, RunSummary, summarize
from repozero.orchestrator.engine.runlock import RunLock, held_here
from repozero.orchestrator.engine.spec import EpisodeKey, RunSpec, chosen_samples, plan_episodes, seeded_order
from repozero.orchestrator.engine.tracing import EventBus
from repozero.sandbox import SandboxBackend, open_backend
from repozero.traces import RunFinished, RunFinishedRecord, RunStarted, TraceSink, TraceWriter, compute_reward

__all__ = ["Session"]

log = structlog.get_logger()

EpisodeRef: TypeAlias = EpisodeKey | tuple[str, int] | str
"""An episode to run: a key, a (sample, attempt) pair, or a sample id (attempt 0)."""


class Session:
    """The backend, the Oracle, the models, the limiters, the event bus and the stores of one run.

    Open it with `async with Session.open(config, spec) as s:`; then `await s.run_episode(...)`,
    `s.stream(...)` or `await s.run()`.
    """

    def __init__(self, ctx: RunContext, spec: RunSpec, actions: ActionLog) -> None:
        self.ctx = ctx
        self.spec = spec
        self.actions = actions
        self.interrupted = False
        """Set by a caller that cancelled the work (a signal): the run ends as `interrupted`."""
        self.planned = 0
        self.events_path: Path | None = None
        """This run's `events.log` (episodes log there alone: `only_run_log`); None without a run dir."""

    # -- opening --------------------------------------------------------------------------------------
    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        config: Config,
        spec: RunSpec,
        *,
        run_dir: Path | None = None,
        sinks: Sequence[TraceSink] = (),
        provider: ModelProvider | None = None,
        oracle: Oracle | None = None,
        limiters: Limiters | None = None,
        backend: SandboxBackend | None = None,
        prepared: Prepared | None = None,
    ) -> AsyncIterator[Session]:
        """Open every part of a run in the caller's event loop; close them all on exit.

        `run_dir`: where results, traces, actions and target snapshots go (its manifest, when there is
        one, names the run); None writes nothing but a temporary folder removed at exit. Its lock
        (`RUN_DIR/run.lock`) is held to the end, unless this process holds it already (`repozero run`):
        a second session or run on the directory is refused (UsageError naming the owner). `sinks` also
        receive every event. `provider`, `oracle`, `limiters`, `backend`: parts already open that several
        sessions share (a sweep's cells on one endpoint share its connection limiter, cells with the same
        sandbox settings one backend); the caller closes them. `prepared`: the run as `start_run` prepared it.
        """
        if not structlog.is_configured():  # unconfigured structlog prints debug lines: a library stays quiet
            configure_logging(level="warning")
        dataset, protocol, resolved, endpoint, sizes = prepared or prepare(config, spec)
        manifest = session_manifest(config, spec, dataset, protocol, run_dir, sizes)
        if run_dir is not None:
            await anyio.Path(run_dir).mkdir(parents=True, exist_ok=True)
        async with AsyncExitStack() as stack:
            if run_dir is not None and not held_here(run_dir):  # a trainer's session: one per directory
                stack.enter_context(RunLock(run_dir, flag="run_dir"))
            if run_dir is not None and not (run_dir / MANIFEST_NAME).exists():  # a trainer's session, locked:
                write_manifest(run_dir, manifest)  # `repozero report` reads its directory like a run's
            scratch = run_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="rz-session-")))
            actions = stack.enter_context(
                ActionLog(run_dir / ACTIONS_FILE if run_dir else None, manifest.run_id)
            )
            if run_dir is not None:  # this run's info events, also when a live panel quiets stderr
                stack.enter_context(run_log(run_dir))
            own_sinks: list[TraceSink] = []
            if run_dir is not None and config.traces.enabled:
                writer_id = f"w{int(time.time())}-{secrets.token_hex(3)}"
                own_sinks.append(
                    await stack.enter_async_context(
                        TraceWriter(run_dir / "traces", config.traces, writer_id=writer_id)
                    )
                )
            effective = effective_config(resolved)
            if backend is None:
                backend = await stack.enter_async_context(
                    open_backend(effective.sandbox, spec.sandbox, run_id=manifest.run_id)
                )
            if oracle is None:
                oracle = await stack.enter_async_context(open_oracle(config.oracle, sandbox=config.sandbox))
            if provider is None:
                fake = fake_settings(config, spec)
                provider = await stack.enter_async_context(
                    open_provider(effective.endpoints, endpoint, spec.model, dataset, **fake)
                )
            observed = ObservedBackend(backend, actions)
            oprovider = ObservedProvider(provider, actions)
            store = ResultsStore(run_dir / "results.sqlite" if run_dir else Path(":memory:"))
            stack.callback(store.close)
            ctx = run_context(
                config,
                spec,
                dataset,
                protocol,
                manifest.run_id,
                scratch,
                manifest.dataset_hash,
                backend=observed,
                oracle=ObservedOracle(oracle, actions),
                provider=oprovider,
                bus=EventBus([store, *own_sinks, *sinks]),  # the store first: see results.py
                store=store,
                limiters=limiters if limiters is not None else run_limiters(sizes, observed, oprovider),
            )
            ctx.archive = run_dir is not None
            session = cls(ctx, spec, actions)
            session.events_path = run_dir / EVENTS_FILE if run_dir is not None else None
            await prepare_backend(observed, dataset, spec, manifest.run_id)
            ctx.bus.emit(RunStarted(run=run_record(manifest)))
            with structlog.contextvars.bound_contextvars(run_id=manifest.run_id):
                yield session
            session._finish()

    # -- episodes -------------------------------------------------------------------------------------
    async def run_episode(
        self,
        sample: str,
        *,
        attempt: int = 0,
        policy: str | None = None,
        models: ModelProvider | None = None,
        ace_rounds: int | None = None,
        deadline_s: float | None = None,
        branch: BranchSpec | None = None,
    ) -> EpisodeResult:
        """One episode of `sample` to its end (scored, labelled infra after bounded retries, or truncated).

        `policy`: another configured endpoint for this episode's agents (default: the spec's model).
        `models`: the agents' models themselves (a trainer's, following its policy call by call; `policy`
        then only names them). `ace_rounds`: this episode's ACE budget (default: the spec's).
        `deadline_s`: cut the episode that long after it leaves the queue (retries included); a cut
        episode is recorded once as `truncated` (reward masked, never a 0) and not run again on resume.
        `branch`: fork the episode (`BranchSpec`; default: the spec's `ace_branches` tree, if any); the
        result is the chosen path's, with the whole tree's spend and every branch in `result.branches`.
        """
        self.ctx.dataset.sample(sample)  # an unknown id fails here, naming the dataset
        ctx = self._episode_context(policy, models, ace_rounds)
        if branch is not None:
            branch.check(ctx.ace_rounds)
            ctx = replace(ctx, branch=branch)
        self.planned += 1
        key = EpisodeKey(sample=sample, attempt=attempt)
        with structlog.contextvars.bound_contextvars(run_id=ctx.run_id), only_run_log(self.events_path):
            async with ctx.limiters.episodes:
                with anyio.move_on_after(math.inf if deadline_s is None else deadline_s):
                    for try_no in range(self.spec.infra_retries + 1):
                        if try_no:  # the fault may pass (a daemon restarting): not every try in one second
                            await anyio.sleep(min(60.0, self.spec.infra_retry_wait_s * 4 ** (try_no - 1)))
                        result = await _try_episode(ctx, key, try_no)
                        if not result.infra_error:
                            return result
                    return _record_infra_error(ctx, key, result.infra_detail)
                return _truncated(ctx, key)

    def _episode_context(
        self, policy: str | None, models: ModelProvider | None, ace_rounds: int | None
    ) -> RunContext:
        """The run's context as one episode sees it: its models, their name, its ACE budget."""
        ctx = self.ctx
        other = policy if policy is not None and policy != self.spec.model else None
        if models is not None:
            ctx = replace(ctx, provider=models)
        elif other is not None:
            assert isinstance(ctx.provider, ObservedProvider)
            ctx = replace(ctx, provider=ctx.provider.on(other))
        if other is not None:
            ctx = replace(ctx, model_name=other)
        if ace_rounds is not None:
            ctx = replace(ctx, ace_rounds=ace_rounds, branch=ace_tree(self.spec.ace_branches, ace_rounds))
        return ctx

    async def stream(self, episodes: Iterable[EpisodeRef]) -> AsyncIterator[EpisodeResult]:
        """Run `episodes` concurrently (at most `spec.concurrency` at once); yield each result as it ends.

        Consume it to the end, or close it in the same task (`contextlib.aclosing`)."""
        keys = [_key(e) for e in episodes]
        send, receive = anyio.create_memory_object_stream[EpisodeResult](max(len(keys), 1))
        async with anyio.create_task_group() as tg, receive:

            async def one(key: EpisodeKey, out: anyio.abc.ObjectSendStream[EpisodeResult]) -> None:
                async with out:
                    await out.send(await self.run_episode(key.sample, attempt=key.attempt))

            async with send:
                for key in keys:
                    tg.start_soon(one, key, send.clone())
            async for result in receive:
                yield result

    async def run(self, episodes: Iterable[EpisodeRef] | None = None) -> RunSummary:
        """The whole plan (the spec's samples × attempts, or `episodes`), skipping episodes the results
        store has finished; the order they start in is seeded (`spec.seed`). Each result is in the store
        (`s.store`) and on the bus; none is held here, so a run of any length stays flat in memory."""
        planned = (
            [_key(e) for e in episodes]
            if episodes is not None
            else plan_episodes(self.ctx.dataset, self.spec.samples, self.spec.attempts, self.spec.split)
        )
        done = self.ctx.store.finished_ids()
        todo = seeded_order([k for k in planned if k.episode_id not in done], self.spec.seed)
        self.planned += len(planned) - len(todo)
        await prewarm(self.ctx.backend, self.ctx, todo, self.actions)
        async with anyio.create_task_group() as tg:
            for key in todo:
                tg.start_soon(self._one, key)
        return summarize(self.ctx.store, len(planned), self.interrupted)

    async def _one(self, key: EpisodeKey) -> None:
        await self.run_episode(key.sample, attempt=key.attempt)

    # -- what the caller reads ------------------------------------------------------------------------
    @property
    def run_id(self) -> str:
        return self.ctx.run_id

    @property
    def dataset(self) -> Dataset:
        return self.ctx.dataset

    @property
    def store(self) -> ResultsStore:
        return self.ctx.store

    @property
    def sample_ids(self) -> list[str]:
        """The live samples this session's spec selects (its `split` and `samples` glob), in id order: what
        a trainer draws prompts from."""
        return [s.id for s in chosen_samples(self.ctx.dataset, self.spec.samples, self.spec.split)]

    def subscribe(self, sink: TraceSink) -> None:
        """Also send every later event to `sink` (a progress display, a trainer's collector)."""
        self.ctx.bus.subscribe(sink)

    def _finish(self) -> None:
        solved = sum(r.passed is True for r in self.ctx.store.episode_results())
        self.ctx.bus.emit(
            RunFinished(
                run=RunFinishedRecord(
                    run_id=self.ctx.run_id,
                    finished_at=time.time(),
                    status="interrupted" if self.interrupted else "completed",
                    episodes=self.planned,
                    solved=solved,
                )
            )
        )


async def _try_episode(ctx: RunContext, key: EpisodeKey, try_no: int) -> EpisodeResult:
    """One try of an episode, recorded once if it ends; an infrastructure failure comes back as an
    unrecorded infra result (the caller retries). The only place, with the run, that catches broad
    exceptions: anything but cancellation that escapes an episode is infrastructure, never the model's
    failure."""
    eid = key.episode_id
    tag = EpisodeTag(run_id=ctx.run_id, model=ctx.model_name, protocol=ctx.protocol.name)
    started = time.time()
    ctx.bus.emit(episode_started_event(tag, key, ctx.dataset.sample(key.sample).library, started))
    with structlog.contextvars.bound_contextvars(episode_id=eid, sample=key.sample, attempt=key.attempt):
        log.info("episode_started", try_no=try_no)
        episode = Episode(ctx, key.sample, key.attempt, eid)
        try:
            result = await episode.run()
        except anyio.get_cancelled_exc_class():
            raise
        except Exception as exc:
            _stop_on_full_disk(ctx, exc)
            expected = isinstance(exc, EpisodeInfraError | RepoZeroError)
            error = str(exc) if expected else f"{type(exc).__name__}: {exc}"
            if expected:
                log.warning("episode_infra_error", try_no=try_no, error=error)
            else:  # an unexpected bug is still infrastructure, not the model's failure
                log.exception("episode_crashed", try_no=try_no)
            return _infra_result(ctx, key, error)
    result = _record(ctx, msgspec.structs.replace(result, rounds=episode.rounds), started)
    log.info("episode_finished", episode_id=eid, passed=result.passed, rounds=result.rounds_used)
    return result


def _record(
    ctx: RunContext, result: EpisodeResult, started: float, status: EpisodeState = "finished"
) -> EpisodeResult:
    """The episode's rewards and its reward, computed once, into its trace record and (when it finished) its
    result; the event goes on the bus, whose results store commits it first. An infrastructure failure or a
    truncated episode keeps its result's reward masked (None)."""
    rewards = episode_rewards(result, result.rounds)
    reward = compute_reward(REWARD_FORMULA, rewards)
    if status == "finished":
        result = msgspec.structs.replace(result, reward=reward)
    tag = EpisodeTag(run_id=ctx.run_id, model=ctx.model_name, protocol=ctx.protocol.name)
    ctx.bus.emit(episode_finished_event(tag, result, rewards, reward, started, status))
    return result


def _infra_result(ctx: RunContext, key: EpisodeKey, error: str) -> EpisodeResult:
    sample = ctx.dataset.sample(key.sample)
    return EpisodeResult(
        episode_id=key.episode_id,
        sample=key.sample,
        attempt=key.attempt,
        passed=None,
        success_rate=0.0,
        failure_category=None,
        cheat_flags=[],
        infra_error=True,
        infra_detail=error,
        rounds_used=0,
        exit_status="infra_error",
        library=sample.library,
        difficulty=sample.difficulty,
        category=sample.category,
        subset=sample.subset,
    )


def _record_infra_error(ctx: RunContext, key: EpisodeKey, error: str) -> EpisodeResult:
    """Every try failed for infrastructure reasons: recorded once, apart, never scored."""
    return _record(ctx, _infra_result(ctx, key, error), time.time(), status="infra_error")


def _truncated(ctx: RunContext, key: EpisodeKey) -> EpisodeResult:
    """Cut at its deadline: recorded once, `truncated`, its reward masked (neither scored nor infra)."""
    result = msgspec.structs.replace(_infra_result(ctx, key, ""), infra_error=False, exit_status="truncated")
    result = _record(ctx, result, time.time(), status="truncated")
    log.info("episode_truncated", episode_id=key.episode_id)
    return result


def _stop_on_full_disk(ctx: RunContext, exc: BaseException) -> None:
    """A full disk is the run's failure, not the episode's: stop the run (resumable), label nothing."""
    full = disk_full_error(exc, ctx.run_dir)
    if full is not None:
        raise full from None


def _key(ref: EpisodeRef) -> EpisodeKey:
    if isinstance(ref, EpisodeKey):
        return ref
    if isinstance(ref, str):
        return EpisodeKey(sample=ref, attempt=0)
    sample, attempt = ref
    return EpisodeKey(sample=sample, attempt=attempt)
