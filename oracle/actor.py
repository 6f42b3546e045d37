"""The Oracle as actors: one task owns each source environment and answers requests from its inbox.

Callers (a dataset build, many ACE episodes at once) send a `GroundTruthRequest` with a reply stream; the
environment's actor takes everything queued, answers from the cache what it can, runs the rest through the
determinism filter in one batch (so the fork servers stay busy), and replies to each caller.
"""

from __future__ import annotations

import os
import secrets
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import anyio
import msgspec
from anyio.abc import TaskGroup, TaskStatus
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

from repozero.kernel.errors import OracleError, SandboxError
from repozero.kernel.log import get_logger
from repozero.oracle.config import OracleConfig, cache_root
from repozero.oracle.docker_env import DockerVenvProvider
from repozero.oracle.filter import FilterItem, run_filter
from repozero.oracle.groups import plain_errors
from repozero.oracle.native_coverage import coverage_lines
from repozero.oracle.native_env import LocalNativeEnvironment
from repozero.oracle.records import CaseInput, EnvSpec, Fingerprint, GroundTruthRequest, ProgramRef, Verdict
from repozero.oracle.sandboxed_env import SandboxedVenvProvider
from repozero.oracle.server import Batch, ServerPool
from repozero.oracle.source_env import EnvironmentProvider, LocalVenvProvider, SourceEnvironment
from repozero.oracle.verdict_cache import ResultCache, cache_key
from repozero.sandbox.backends import create_backend
from repozero.sandbox.config import SandboxConfig

__all__ = ["Oracle", "OracleService", "OracleStats", "open_oracle"]

log = get_logger(__name__)

_INBOX = 64
_LINGER_S = 0.005
_Reply = tuple[Fingerprint, list[Verdict]] | OracleError


class Oracle(Protocol):
    """Ground truth for case inputs of a program in a source environment."""

    async def ground_truth(self, request: GroundTruthRequest, *, use_cache: bool = True) -> list[Verdict]: ...

    async def fingerprint(self, env: EnvSpec) -> Fingerprint: ...


@dataclass
class OracleStats:
    """Counters, for benchmarks and tests (never for verdicts)."""

    requests: int = 0
    batches: int = 0
    cases: int = 0
    cache_hits: int = 0
    runs: int = 0


@dataclass
class _Job:
    request: GroundTruthRequest
    use_cache: bool
    reply: MemoryObjectSendStream[_Reply]


class OracleService:
    """The Oracle: enter with `async with`; `ground_truth` may be called from many tasks at once."""

    def __init__(
        self,
        provider: EnvironmentProvider,
        config: OracleConfig,
        cache: ResultCache,
        *,
        owned: AbstractAsyncContextManager[Any] | None = None,
    ) -> None:
        """`owned`: a provider this service made itself, closed after its servers (with its sandboxes)."""
        self.provider = provider
        self.config = config
        self.cache = cache
        self.stats = OracleStats()
        self.limiter = anyio.CapacityLimiter(config.parallel or os.cpu_count() or 1)
        self._inboxes: dict[str, MemoryObjectSendStream[_Job]] = {}
        self._pools: dict[str, ServerPool] = {}
        self._starting = anyio.Lock()
        self._tg: TaskGroup | None = None
        self._owned = owned

    async def __aenter__(self) -> OracleService:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> bool | None:
        for inbox in self._inboxes.values():
            inbox.close()  # each actor finishes its queue, closes its servers and ends
        assert self._tg is not None
        try:
            with plain_errors():
                return await self._tg.__aexit__(kind, exc, tb)
        except BaseExceptionGroup as group:
            if exc is not None and list(group.exceptions) == [exc]:
                raise exc from None  # only the body failed: let its own exception through
            raise
        finally:
            if self._owned is not None:  # the sandboxes the servers ran in, once every server is closed
                with anyio.CancelScope(shield=True):
                    await self._owned.__aexit__(None, None, None)

    async def ground_truth(self, request: GroundTruthRequest, *, use_cache: bool = True) -> list[Verdict]:
        """Verdicts for `request.cases`, in order. Raises OracleError only for broken infrastructure."""
        return (await self._ask(request, use_cache))[1]

    @property
    def running_servers(self) -> int:
        """Fork servers alive right now, over all environments."""
        return sum(len(pool.servers) for pool in self._pools.values())

    async def fingerprint(self, env: EnvSpec) -> Fingerprint:
        """What the environment holds (prepares it if needed)."""
        return await self.provider.environment(env).prepare()

    async def native_lines(self, env: EnvSpec, program: ProgramRef, cases: list[CaseInput]) -> int | None:
        """Lines of a C/C++ library's headers `program` reaches over `cases`, by gcov (`native_coverage.py`);
        None where the environment cannot measure it (a Python one, Docker's native one)."""
        environment = self.provider.environment(env)
        if not isinstance(environment, LocalNativeEnvironment):
            return None
        async with self.limiter:
            return await coverage_lines(environment, program, cases)

    async def _ask(self, request: GroundTruthRequest, use_cache: bool) -> tuple[Fingerprint, list[Verdict]]:
        inbox = await self._inbox(request.env)
        send, receive = anyio.create_memory_object_stream[_Reply](1)
        job = _Job(request, use_cache, send)  # the actor closes the reply stream once it has answered
        async with receive:
            try:
                await inbox.send(job)
            except BaseException:
                job.reply.close()
                raise
            try:
                reply = await receive.receive()
            except anyio.EndOfStream:
                raise OracleError(f"the Oracle's actor for environment {request.env.key} stopped") from None
        if isinstance(reply, OracleError):
            raise OracleError(str(reply))
        return reply

    async def _inbox(self, env: EnvSpec) -> MemoryObjectSendStream[_Job]:
        async with self._starting:
            if env.key not in self._inboxes:
                if self._tg is None:
                    raise RuntimeError("OracleService used outside `async with`")
                environment = self.provider.environment(env)
                self._inboxes[env.key] = await self._tg.start(self._serve, environment)
            return self._inboxes[env.key]

    async def _serve(
        self, env: SourceEnvironment, *, task_status: TaskStatus[MemoryObjectSendStream[_Job]]
    ) -> None:
        """The actor of one environment: owns its server pool; ends when its inbox closes."""
        send, inbox = anyio.create_memory_object_stream[_Job](_INBOX)
        task_status.started(send)
        pool = self._pools[env.spec.key] = ServerPool(env, list(self.config.clock_shifts), self.limiter)
        busy = anyio.Lock()
        last_used = [anyio.current_time()]
        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(self._stop_idle_servers, pool, busy, last_used)
                async with inbox:
                    async for job in inbox:
                        await anyio.sleep(_LINGER_S)  # let callers that ask at the same moment join the batch
                        async with busy:
                            await self._answer([job, *_drain(inbox, self.config.batch_max - 1)], env, pool)
                            last_used[0] = anyio.current_time()
                tg.cancel_scope.cancel()
        finally:
            for job in _drain(inbox, _INBOX):  # cancelled with requests still queued
                job.reply.close()
            await pool.aclose()

    async def _stop_idle_servers(self, pool: ServerPool, busy: anyio.Lock, last_used: list[float]) -> None:
        """Stop the servers after `server_idle_s` without requests (fresh ones start on the next request)."""
        idle_s = self.config.server_idle_s
        while True:
            await anyio.sleep(max(idle_s / 4, 0.05))
            async with busy:
                if pool.servers and anyio.current_time() - last_used[0] >= idle_s:
                    await pool.aclose()

    async def _answer(self, jobs: list[_Job], env: SourceEnvironment, pool: ServerPool) -> None:
        self.stats.requests += len(jobs)
        self.stats.batches += 1
        try:
            try:
                fingerprint = await env.prepare()
                verdicts = await self._verdicts(jobs, env, pool, fingerprint)
                replies: list[_Reply] = [(fingerprint, v) for v in verdicts]
            except OracleError as exc:
                replies = [exc] * len(jobs)
            except SandboxError as exc:  # the environment's sandbox failed (its start retried already)
                # an infrastructure fault of this batch, answered as such (each caller's episode: infra
                # error, retried); the actor lives on, and the next request prepares the environment again
                log.warning("oracle_sandbox_failed", env=env.spec.key, error=str(exc))
                replies = [OracleError(f"the Oracle's sandbox for environment {env.spec.key}: {exc}")] * len(
                    jobs
                )
            for job, reply in zip(jobs, replies, strict=True):
                try:
                    job.reply.send_nowait(reply)  # room for one: never blocks
                except (anyio.BrokenResourceError, anyio.WouldBlock):
                    pass  # the caller was cancelled; its answer is cached all the same
        finally:
            for job in jobs:
                job.reply.close()

    async def _verdicts(
        self, jobs: list[_Job], env: SourceEnvironment, pool: ServerPool, fingerprint: Fingerprint
    ) -> list[list[Verdict]]:
        answers: list[list[Verdict | None]] = [[None] * len(job.request.cases) for job in jobs]
        todo: list[tuple[int, int, str, FilterItem]] = []
        for j, job in enumerate(jobs):
            request = job.request
            batch = Batch(await env.stage_program(request.program), request.program, request.timeout_s,
                          request.output_cap, self.config.stderr_cap, self.config.memory_mb)  # fmt: skip
            for c, case in enumerate(request.cases):
                key = cache_key(
                    fingerprint.hash,
                    request.program,
                    case,
                    request.repeats,
                    request.timeout_s,
                    request.output_cap,
                    self.config.memory_mb,
                )
                hit = self.cache.get(fingerprint.hash, key) if job.use_cache and self.config.cache else None
                if hit is not None:
                    self.stats.cache_hits += 1
                    answers[j][c] = msgspec.structs.replace(hit, id=case.id)
                    continue
                item = FilterItem(batch, case, request.repeats)
                todo.append((j, c, key, item))
        self.stats.cases += sum(len(a) for a in answers)
        await run_filter(
            pool, [t[3] for t in todo], servers=self.config.servers, probe_repeats=self.config.probe_repeats
        )
        for j, c, key, item in todo:
            assert item.verdict is not None
            self.stats.runs += len(item.runs)
            self.cache.put(fingerprint.hash, key, item.verdict)
            answers[j][c] = item.verdict
        log.debug("oracle_batch", env=env.spec.key, requests=len(jobs), ran=len(todo))
        return [[v for v in a if v is not None] for a in answers]


def _drain(inbox: MemoryObjectReceiveStream[_Job], limit: int) -> list[_Job]:
    """Everything already queued (up to `limit`), without waiting."""
    jobs: list[_Job] = []
    while len(jobs) < limit:
        try:
            jobs.append(inbox.receive_nowait())
        except (anyio.WouldBlock, anyio.EndOfStream, anyio.ClosedResourceError):
            break
    return jobs


def open_oracle(
    config: OracleConfig, provider: EnvironmentProvider | None = None, *, sandbox: SandboxConfig | None = None
) -> OracleService:
    """The Oracle with its cache. Unless the caller passes a provider, `oracle.isolation` picks:
    "sandbox" — host venvs whose fork servers run in a local sandbox per environment; "docker" — a venv
    and its servers in a container per environment; "host" — on the host. `sandbox` configures either."""
    root = cache_root(config)
    cache = ResultCache(root / "oracle" / "results" if config.cache else None)
    if provider is not None:
        return OracleService(provider, config, cache)
    if config.isolation == "host":
        return OracleService(LocalVenvProvider(root, config.faketime_lib), config, cache)
    owned: SandboxedVenvProvider | DockerVenvProvider
    backend = create_backend(
        sandbox or SandboxConfig(), "docker" if config.isolation == "docker" else "local",
        run_id=f"oracle-{secrets.token_hex(4)}",
    )  # fmt: skip
    if config.isolation == "docker":
        owned = DockerVenvProvider(backend, root, memory_mb=config.memory_mb or 4096)  # type: ignore[arg-type]
    else:
        owned = SandboxedVenvProvider(backend, root, config.faketime_lib, memory_mb=config.memory_mb)  # type: ignore[arg-type]
    return OracleService(owned, config, cache, owned=owned)
