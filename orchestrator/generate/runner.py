"""`repozero dataset generate`, opened: the Oracle, the writer's and voters' models, the trace writer, the
live display and the resume state, around every program slot run concurrently; then the dataset, written
whole, and the summary."""

from __future__ import annotations

import secrets
import shutil
import time
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import partial
from pathlib import Path

import anyio

from repozero.agents.fakellm import fake_policy
from repozero.agents.provider import ModelProvider, open_model
from repozero.datasets import load_dataset
from repozero.kernel.errors import UsageError
from repozero.kernel.log import get_logger, run_log
from repozero.kernel.records import Record
from repozero.oracle import open_oracle
from repozero.oracle.actor import Oracle
from repozero.orchestrator.engine.config import Config
from repozero.orchestrator.engine.display import DisplayMode, RunProgress, show_progress
from repozero.orchestrator.engine.limits import AdaptiveGauge, LimiterQueue, queue_of
from repozero.orchestrator.engine.tracing import EventBus
from repozero.orchestrator.generate.assemble import write_generated
from repozero.orchestrator.generate.calls import prompt_versions
from repozero.orchestrator.generate.gen_context import GenContext, slot_names
from repozero.orchestrator.generate.native import HeaderListing, list_headers
from repozero.orchestrator.generate.oracle_stages import ApiListing, list_api
from repozero.orchestrator.generate.pipeline import run_programs
from repozero.orchestrator.generate.records import GenerateSettings, ProgramOutcome
from repozero.orchestrator.generate.state import GenerateState
from repozero.orchestrator.generate.summary import GenerateSummary, summarize
from repozero.traces import TraceSink, TraceWriter

__all__ = ["NATIVE_DATASET", "generate_dataset"]

NATIVE_DATASET = "builtin:c2rust-lite"
"""What a `fake:` model serves when the run generates from a Debian package (`fake:generate` scripts its
packages; the default, py2js-lite, has the PyPI ones)."""

log = get_logger(__name__)


class _Api(Record, kw_only=True):
    modules: list[str]
    text: str
    names: list[str] = []


async def generate_dataset(
    config: Config, settings: GenerateSettings, out: Path, *, resume: bool = False,
    display: DisplayMode = "auto", concurrency: int | None = None, sinks: tuple[TraceSink, ...] = (),
) -> GenerateSummary:  # fmt: skip
    """Generate a dataset at `out` (resuming the run `OUT.generate/` holds, with `resume`).

    Runs in the caller's event loop and installs no signal handler: a caller that cancels it loses only
    the stages in flight (every finished one is saved), and `resume=True` continues."""
    headers = await list_headers(settings.source) if settings.language != "python" else None  # fails early
    state = GenerateState.open(out, settings, resume)
    try:
        return await _generate(config, settings, out, state, headers, display, concurrency, sinks)
    except UsageError:
        if not resume and not (state.root / "programs").exists():  # bad input before any stage: no run left
            shutil.rmtree(state.root, ignore_errors=True)
        raise


async def _generate(
    config: Config, settings: GenerateSettings, out: Path, state: GenerateState, headers: HeaderListing | None,
    display: DisplayMode, concurrency: int | None, sinks: tuple[TraceSink, ...],
) -> GenerateSummary:  # fmt: skip
    started = time.monotonic()
    names = list(dict.fromkeys([settings.model, *settings.voters]))
    # nested `async with`, not an AsyncExitStack: when the Oracle's task group re-raises the cancellation
    # it was given, the stack's context fix-up makes that CancelledError its own __context__, and anyio's
    # task_done then walks the chain forever (a hang after Ctrl-C, seen with CPython 3.11)
    with run_log(state.root):
        async with (
            open_oracle(config.oracle, sandbox=config.sandbox) as oracle,
            _providers(config, names, settings) as providers,
            _trace_writer(config, state) as own,
        ):
            ctx = GenContext(
                settings=settings, state=state, oracle=oracle, oracle_config=config.oracle,
                writer=providers[settings.model], voters=[providers[v] for v in settings.voters],
                api=await _api(state, oracle, settings, headers), bus=EventBus([*own, *sinks]),
                programs=anyio.CapacityLimiter(concurrency or config.run.concurrency or settings.files),
                session=state.next_session(), prompts=prompt_versions(), run_id=f"gen-{state.root.name}",
            )  # fmt: skip
            outcomes = await _run_with_display(ctx, config, display)
    digest = write_generated(ctx, out, outcomes)
    calls = ctx.bus.counts["ModelCalled"]
    log.info("dataset_generated", out=str(out), kept=sum(o.kept for o in outcomes.values()), calls=calls)
    return summarize(settings.source, str(out), digest, outcomes, calls, time.monotonic() - started)


@asynccontextmanager
async def _providers(
    config: Config, names: list[str], settings: GenerateSettings
) -> AsyncIterator[dict[str, ModelProvider]]:
    """Every distinct model the run names, opened (nested, one after another)."""
    if not names:
        yield {}
        return
    async with (
        _open(config, names[0], settings) as first,
        _providers(config, names[1:], settings) as rest,
    ):
        yield {names[0]: first, **rest}


@asynccontextmanager
async def _trace_writer(config: Config, state: GenerateState) -> AsyncIterator[list[TraceSink]]:
    """The run's trace writer (`OUT.generate/traces/`), when `traces.enabled`."""
    if not config.traces.enabled:
        yield []
        return
    writer_id = f"w{int(time.time())}-{secrets.token_hex(3)}"
    async with TraceWriter(state.root / "traces", config.traces, writer_id=writer_id) as writer:
        yield [writer]


def _open(
    config: Config, name: str, settings: GenerateSettings
) -> AbstractAsyncContextManager[ModelProvider]:
    """A model by name; a `fake:POLICY` one gets the run's latency (`run.fake_latency_ms`) and seed, and
    serves c2rust-lite (whose Debian packages `fake:generate` scripts) when the run generates from C/C++."""
    fake: dict[str, object] = {}
    if fake_policy(name) is None:
        return open_model(config.endpoints, name, None)
    fake = {
        "seed": settings.seed,
        **({"latency_ms": config.run.fake_latency_ms} if config.run.fake_latency_ms else {}),
    }
    served = load_dataset(NATIVE_DATASET) if settings.language != "python" else None
    return open_model(config.endpoints, name, served, **fake)


async def _api(
    state: GenerateState, oracle: Oracle, settings: GenerateSettings, headers: HeaderListing | None
) -> ApiListing:
    """The package's API listing, read once per run and kept (a resumed run shows the writer the same)."""
    saved = state.load_root("api", _Api)
    if saved is None:
        if headers is None:
            listing = await list_api(oracle, settings, state.root)
        else:
            listing = ApiListing(headers.includes, headers.text, headers.names)
        saved = _Api(modules=listing.modules, text=listing.text, names=listing.names)
        state.save_root("api", saved)
    return ApiListing(saved.modules, saved.text, saved.names)


def _saturation(ctx: GenContext) -> dict[str, LimiterQueue]:
    queues = {"programs": queue_of(ctx.programs), "votes": queue_of(ctx.votes_limiter)}
    for provider in dict.fromkeys([ctx.writer, *ctx.voters]):
        gauge = AdaptiveGauge(provider.models.endpoint(provider.endpoint).limiter)
        queues[f"model:{provider.label}"] = queue_of(gauge)
    return queues


async def _run_with_display(
    ctx: GenContext, config: Config, display: DisplayMode
) -> dict[str, ProgramOutcome]:
    programs = slot_names(ctx.settings.source, ctx.settings.files)
    done = sum(ctx.state.load(p, "outcome", ProgramOutcome) is not None for p in programs)
    progress = RunProgress(len(programs), done, partial(_saturation, ctx))
    ctx.bus.subscribe(progress)
    async with anyio.create_task_group() as tg:
        tg.start_soon(show_progress, progress, display, config.run.progress_interval_s)
        outcomes = await run_programs(ctx, programs)
        tg.cancel_scope.cancel()
    return outcomes
