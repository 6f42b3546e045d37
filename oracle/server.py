"""The host side of the fork servers: one client per server process, and the pool an environment keeps.

Every server is a fresh interpreter with its own random PYTHONHASHSEED; odd-numbered servers run under a
shifted clock. The filter sends the repeats of a case to distinct servers: forks of one server share its
hash seed and memory layout, and would agree on set order and id().
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass

import anyio
import msgspec

from repozero.kernel.errors import OracleError
from repozero.kernel.log import get_logger
from repozero.oracle.groups import plain_errors
from repozero.oracle.records import ProgramRef, RunResult
from repozero.oracle.source_env import SourceEnvironment
from repozero.sandbox import CaseInput, SandboxProcess

__all__ = ["Batch", "ForkServer", "ServerPool", "shift_seconds"]

log = get_logger(__name__)

_START_TIMEOUT_S = 60.0
_PROBE_TIMEOUT_S = 90.0
_CLOCK_TOLERANCE_S = 300.0
_SHIFT = re.compile(r"^([+-])(\d+(?:\.\d+)?)([smhdy]?)$")
_UNIT_S = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "y": 365 * 86400}


def shift_seconds(shift: str) -> float:
    """Seconds of a libfaketime relative offset such as "+1d" or "+34304461s"."""
    match = _SHIFT.match(shift.strip())
    if match is None:
        raise OracleError(f"oracle.clock_shifts: {shift!r} is not a relative offset like '+1d' or '+90061s'")
    sign = -1 if match.group(1) == "-" else 1
    return sign * float(match.group(2)) * _UNIT_S[match.group(3)]


@dataclass(frozen=True)
class Batch:
    """Cases of one program to run once each, with their limits; `staged` is the folder in the environment."""

    staged: str
    program: ProgramRef
    timeout_s: float
    output_cap: int
    stderr_cap: int
    memory_mb: int = 0
    """Address-space limit of each run (0: none)."""


class _Program(msgspec.Struct):
    dir: str
    path: str
    digest: str


class _RunMessage(msgspec.Struct):
    program: _Program
    preimport: list[str] | None
    timeout: float
    cap: int
    stderr_cap: int
    runs: list[CaseInput]
    memory_mb: int = 0
    op: str = "run"


class _ProbeMessage(msgspec.Struct):
    program: _Program
    op: str = "probe"


class _Hello(msgspec.Struct, tag="hello", tag_field="op"):
    pid: int
    python: str
    hash_seed: str
    now: float


class _Result(msgspec.Struct):
    id: str
    stdout: bytes
    stderr: bytes
    exit: int
    wall: float
    timed_out: bool
    truncated: bool


class _Ran(msgspec.Struct, tag="ran", tag_field="op"):
    results: list[_Result]


class _Probed(msgspec.Struct, tag="probed", tag_field="op"):
    clean: list[str]


class _Error(msgspec.Struct, tag="error", tag_field="op"):
    message: str


_Reply = _Hello | _Ran | _Probed | _Error
_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(_Reply)


def _program(batch: Batch) -> _Program:
    return _Program(batch.staged, batch.program.path, batch.program.digest)


_START_ATTEMPTS = 3
"""How often a server that breaks while starting is started (ForkServer.start)."""


class ForkServer:
    """A client for one running `forkserver.py`: one request in flight at a time."""

    def __init__(self, index: int, seed: int, clock_shift: str, process: SandboxProcess) -> None:
        self.index = index
        self.seed = seed
        self.clock_shift = clock_shift
        self._process = process
        self._buffer = b""
        self._lock = anyio.Lock()

    @classmethod
    async def start(cls, env: SourceEnvironment, index: int, clock_shift: str) -> ForkServer:
        """Start a server; a server that breaks while starting is started again (twice at most).

        Why again: a start can fail for a reason of its process rather than of the environment — under a
        shifted clock libfaketime exits 1 before Python starts when a dead process left shared memory named
        after the PID the server drew (`faketime_shm_PID`); a new process draws another PID.
        """
        for attempt in range(_START_ATTEMPTS):
            try:
                return await cls._start(env, index, clock_shift)
            except OracleError as exc:
                if attempt == _START_ATTEMPTS - 1:
                    raise
                log.warning("oracle_server_start_retry", env=env.spec.key, server=index, error=str(exc))
        raise AssertionError("unreachable")

    @classmethod
    async def _start(cls, env: SourceEnvironment, index: int, clock_shift: str) -> ForkServer:
        seed = secrets.randbelow(2**32 - 1) + 1
        server = cls(index, seed, clock_shift, await env.open_server(seed, clock_shift))
        try:
            with anyio.fail_after(_START_TIMEOUT_S):
                hello = await server._read()
            server._check_hello(hello)
        except BaseException:
            await server.aclose()
            raise
        return server

    def _check_hello(self, hello: object) -> None:
        if not isinstance(hello, _Hello) or hello.hash_seed != str(self.seed):
            raise OracleError(f"fork server {self.index}: unexpected greeting {hello!r}")
        skew = hello.now - time.time() - (shift_seconds(self.clock_shift) if self.clock_shift else 0.0)
        if abs(skew) > _CLOCK_TOLERANCE_S:
            raise OracleError(
                f"fork server {self.index}: clock shift {self.clock_shift or 'none'} not in effect "
                f"(server clock off by {skew:.0f} s from what was asked)"
            )

    async def probe(self, batch: Batch) -> list[str]:
        """Modules the program imports that import cleanly and silently (the server imports them too)."""
        reply = await self._ask(_ProbeMessage(_program(batch)), _PROBE_TIMEOUT_S)
        if not isinstance(reply, _Probed):
            raise OracleError(f"fork server {self.index}: unexpected reply {type(reply).__name__}")
        return reply.clean

    async def run(
        self, batch: Batch, runs: list[CaseInput], preimport: list[str] | None = None
    ) -> list[RunResult]:
        """Run each case once (sequentially, in forked children); raises OracleError if the server breaks.

        `preimport` is what to import before the first run of a new program (None: the server probes).
        """
        message = _RunMessage(
            _program(batch),
            preimport,
            batch.timeout_s,
            batch.output_cap,
            batch.stderr_cap,
            runs,
            batch.memory_mb,
        )
        reply = await self._ask(message, len(runs) * (batch.timeout_s + 2.0) + _PROBE_TIMEOUT_S)
        if not isinstance(reply, _Ran) or len(reply.results) != len(runs):
            raise OracleError(f"fork server {self.index}: unexpected reply {type(reply).__name__}")
        return [self._result(r) for r in reply.results]

    async def _ask(self, message: _RunMessage | _ProbeMessage, backstop_s: float) -> _Reply:
        async with self._lock:
            try:
                with anyio.fail_after(
                    backstop_s
                ):  # the server enforces per-case timeouts; this is the backstop
                    await self._process.send(_encoder.encode(message) + b"\n")
                    reply = await self._read()
            except (TimeoutError, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
                raise OracleError(f"fork server {self.index}: {type(exc).__name__} {exc}") from None
        if isinstance(reply, _Error):
            raise OracleError(f"fork server {self.index}: {reply.message}")
        return reply

    def _result(self, r: _Result) -> RunResult:
        return RunResult(
            id=r.id,
            stdout=r.stdout,
            stderr=r.stderr,
            exit_code=r.exit,
            wall_s=r.wall,
            timed_out=r.timed_out,
            truncated=r.truncated,
            server=self.index,
            hash_seed=self.seed,
            clock_shift=self.clock_shift,
        )

    async def _read(self) -> _Reply:
        while b"\n" not in self._buffer:
            chunk = await self._process.receive(1 << 20)
            if not chunk:
                raise OracleError(f"fork server {self.index} exited (exit {await self._process.wait()})")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            return _decoder.decode(line)
        except msgspec.DecodeError as exc:
            raise OracleError(f"fork server {self.index}: garbled reply ({exc})") from None

    async def aclose(self) -> None:
        await self._process.aclose()


class ServerPool:
    """The fork servers of one environment, started on demand and restarted (new seed) if one breaks."""

    def __init__(
        self, env: SourceEnvironment, clock_shifts: list[str], limiter: anyio.CapacityLimiter
    ) -> None:
        for shift in clock_shifts:
            shift_seconds(shift)  # reject a bad offset before starting anything
        self.env = env
        self.clock_shifts = clock_shifts
        self.limiter = limiter
        self.servers: list[ForkServer] = []
        self._preimports: dict[str, list[str]] = {}
        self._probing: dict[str, anyio.Lock] = {}

    def clock_shift(self, index: int) -> str:
        """Even servers keep the real clock; odd ones cycle through the configured shifts."""
        if index % 2 == 0 or not self.clock_shifts:
            return ""
        return self.clock_shifts[(index // 2) % len(self.clock_shifts)]

    async def ensure(self, count: int) -> None:
        """Start servers until there are `count` (concurrently)."""
        missing = range(len(self.servers), count)
        if not missing:
            return
        started: dict[int, ForkServer] = {}

        async def start(index: int) -> None:
            started[index] = await ForkServer.start(self.env, index, self.clock_shift(index))

        try:
            with plain_errors():
                async with anyio.create_task_group() as tg:
                    for index in missing:
                        tg.start_soon(start, index)
        except BaseException:
            with anyio.CancelScope(shield=True):
                for server in started.values():
                    await server.aclose()
            raise
        self.servers.extend(started[i] for i in missing)
        log.debug("oracle_servers_started", env=self.env.spec.key, servers=len(self.servers))

    async def run(self, index: int, batch: Batch, runs: list[CaseInput]) -> list[RunResult]:
        """Run a batch on server `index` under the shared limiter; one restart and retry if it breaks."""
        preimport = await self._preimport(batch)
        async with self.limiter:
            try:
                return await self.servers[index].run(batch, runs, preimport)
            except OracleError as exc:
                log.warning("oracle_server_restart", env=self.env.spec.key, server=index, error=str(exc))
                await self._restart(index)
            return await self.servers[index].run(batch, runs, preimport)

    async def _preimport(self, batch: Batch) -> list[str]:
        """What servers pre-import for a program: probed once, on server 0, and shared with the others."""
        async with self._probing.setdefault(batch.program.digest, anyio.Lock()):
            if batch.program.digest not in self._preimports:
                async with self.limiter:
                    self._preimports[batch.program.digest] = await self.servers[0].probe(batch)
            return self._preimports[batch.program.digest]

    async def _restart(self, index: int) -> None:
        old = self.servers[index]
        await old.aclose()
        self.servers[index] = await ForkServer.start(self.env, index, old.clock_shift)

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):
            for server in self.servers:
                await server.aclose()
            self.servers.clear()
