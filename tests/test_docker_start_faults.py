"""dockerd failing a container start or an exec start for reasons of its own ("failed to create shim task",
"context deadline exceeded", seen under load).

The fault is injected at the aiodocker boundary, the one place a test can make the daemon say it on cue:
the real client, whose container starts (or exec starts) answer dockerd's own HTTP 500 for the next N. Everything
else is the real daemon — each attempt's container is really created (and must be removed), the start
that succeeds runs commands, and the Oracle's environment is a real venv in a real container.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiodocker
import anyio
import pytest
from structlog.testing import capture_logs

from repozero.kernel.errors import OracleError, SandboxError
from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, program_ref
from repozero.oracle.actor import OracleService
from repozero.oracle.docker_env import DockerVenvProvider
from repozero.oracle.verdict_cache import ResultCache
from repozero.sandbox import CaseInput, SandboxSpec, docker_container, docker_exec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend
from repozero.sandbox.docker_client import DockerClient, docker_unavailable, transient_daemon_error

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.docker,
    pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable())),
]

SHIM = "failed to create shim task: ttrpc: closed: unknown"
"""dockerd's words when the start failed in the suite at load 5 (notes of session 6)."""
NOT_FOUND = (
    "failed to create task for container: failed to create shim task: OCI runtime create failed: runc create "
    'failed: unable to start container process: exec: "sleep": executable file not found in $PATH: unknown'
)
"""A start that fails every time (no such program in the image), in the same shim words: ours to fix."""
EXEC_BUSY = (
    "OCI runtime exec failed: exec failed: unable to start container process: error executing setns process: "
    "context deadline exceeded: unknown"
)
"""An exec start the daemon refused while busy (containerd not answering in time; moby#29369 saw it for
execs as for starts)."""
EXEC_STOPPED = "OCI runtime exec failed: exec failed: cannot exec a container that has stopped: unknown"
"""An exec into a container that is gone: not passing trouble, not retried."""
CFG = SandboxConfig(docker_pool_size=0, docker_kill_after_s=0.5)
SPEC = SandboxSpec(sample="start-faults", memory_mb=256, pids=64, tmpfs_mb=32, file_size_mb=16, cpu_time_s=30)


class StartFaults:
    """The daemon's answer to the next `left` container starts: HTTP 500 with `message`."""

    def __init__(self, left: int, message: str = SHIM) -> None:
        self.left = left
        self.message = message
        self.starts = 0

    def on_start(self) -> None:
        self.starts += 1
        if self.left > 0:
            self.left -= 1
            raise aiodocker.DockerError(500, self.message)


class _Proxy:
    def __init__(self, real: Any, faults: StartFaults) -> None:
        self._real = real
        self._faults = faults

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


class _Container(_Proxy):
    async def start(self, **kwargs: Any) -> Any:
        self._faults.on_start()
        return await self._real.start(**kwargs)


class _Stream(_Proxy):
    async def __aenter__(self) -> Any:
        self._faults.on_start()
        return await self._real.__aenter__()


class _Exec(_Proxy):
    def start(self, **kwargs: Any) -> _Stream:
        return _Stream(self._real.start(**kwargs), self._faults)


class _ContainerRef(_Proxy):
    async def exec(self, *args: Any, **kwargs: Any) -> _Exec:
        return _Exec(await self._real.exec(*args, **kwargs), self._faults)


class _Containers(_Proxy):
    def __init__(self, real: Any, faults: StartFaults, exec_faults: StartFaults) -> None:
        super().__init__(real, faults)
        self._exec_faults = exec_faults

    async def create(self, config: dict[str, Any], **kwargs: Any) -> _Container:
        return _Container(await self._real.create(config, **kwargs), self._faults)

    def container(self, container_id: str) -> _ContainerRef:
        return _ContainerRef(self._real.container(container_id), self._exec_faults)


class _Docker(_Proxy):
    def __init__(self, real: Any, faults: StartFaults, exec_faults: StartFaults) -> None:
        super().__init__(real, faults)
        self._exec_faults = exec_faults

    @property
    def containers(self) -> _Containers:
        return _Containers(self._real.containers, self._faults, self._exec_faults)


class FaultyStarts(DockerBackend):
    """The Docker backend over a client whose container starts meet `faults` and whose exec starts (every
    command, the supervisor's and the shell's included) meet `exec_faults` (the backend's own seam)."""

    def __init__(self, faults: StartFaults, exec_faults: StartFaults | None = None) -> None:
        super().__init__(CFG, run_id=f"pytest-faults-{os.getpid()}-{os.urandom(3).hex()}")
        self.faults = faults
        self.exec_faults = exec_faults or StartFaults(0)

    @asynccontextmanager
    async def new_client(self) -> AsyncIterator[DockerClient]:
        async with super().new_client() as client:
            client.docker = _Docker(client.docker, self.faults, self.exec_faults)  # type: ignore[assignment]
            yield client


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """The policy unchanged, its waits shortened (0.05, 0.1, 0.2 s): the tests read the waits it logged."""
    monkeypatch.setattr(docker_container, "START_BACKOFF_S", 0.05)
    monkeypatch.setattr(docker_exec, "EXEC_BACKOFF_S", 0.05)


async def _ours(backend: DockerBackend) -> list[dict[str, Any]]:
    return await backend.client.list_containers(backend.run_id)


async def test_a_shim_failure_is_retried_with_backoff_and_each_failed_container_removed() -> None:
    faults = StartFaults(2)
    with anyio.fail_after(60), capture_logs() as logs:
        async with FaultyStarts(faults) as backend, backend.open(SPEC) as box:
            result = await box.exec(["echo", "started"])
            alive = await _ours(backend)
    assert result.exit_code == 0 and result.stdout == b"started\n", result
    assert faults.starts == 3 and len(alive) == 1, alive  # the two failed attempts' containers are gone
    retries = [e for e in logs if e["event"] == "sandbox_container_start_retry"]
    assert [(e["attempt"], e["transient"], e["wait_s"]) for e in retries] == [(1, True, 0.05), (2, True, 0.1)]


@pytest.mark.parametrize(("message", "attempts"), [(SHIM, 4), (NOT_FOUND, 2)], ids=["shim", "not-found"])
async def test_a_failure_that_persists_is_a_sandbox_error_after_bounded_attempts(
    message: str, attempts: int
) -> None:
    faults = StartFaults(100, message)
    with anyio.fail_after(60):
        async with FaultyStarts(faults) as backend:
            with pytest.raises(SandboxError, match=f"{message[:30]}.*after {attempts} attempts"):
                async with backend.open(SPEC):
                    pass
            left = await _ours(backend)
    assert faults.starts == attempts and left == [], left


@pytest.mark.parametrize(
    ("message", "transient"),
    [
        (SHIM, True),
        ("failed to create shim task: OCI runtime create failed: runc create failed: unable to start container "
         "process: error during container init: read init-p: connection reset by peer: unknown", True),
        ("failed to create shim task: context deadline exceeded: unknown", True),
        ("OCI runtime create failed: runc create failed: unable to start container process: fork/exec: "
         "resource temporarily unavailable: unknown", True),
        (NOT_FOUND, False),
        ("No such image: repozero/node:0", False),
        ("Conflict. The container name is already in use", False),
    ],
)  # fmt: skip
def test_which_start_failures_are_the_daemons_passing_trouble(message: str, transient: bool) -> None:
    assert transient_daemon_error(message) is transient


@pytest.mark.parametrize(("message", "transient"), [(EXEC_BUSY, True), (EXEC_STOPPED, False)])
def test_which_exec_failures_are_the_daemons_passing_trouble(message: str, transient: bool) -> None:
    assert transient_daemon_error(message) is transient


async def test_an_exec_start_the_busy_daemon_refused_is_retried_with_backoff() -> None:
    """A command, and a batch of graded cases, whose exec start dockerd refused twice: both run, once each."""
    exec_faults = StartFaults(0, EXEC_BUSY)
    with anyio.fail_after(60), capture_logs() as logs:
        async with FaultyStarts(StartFaults(0), exec_faults) as backend, backend.open(SPEC) as box:
            exec_faults.left = 2
            result = await box.exec(["sh", "-c", "echo ran >> once; cat once"])
            exec_faults.left = 2
            (case,) = await box.run_cases(
                ["sh", "-c"], [CaseInput(id="c", argv=["echo graded"])], timeout_s=10
            )
    assert result.exit_code == 0 and result.stdout == b"ran\n", result  # the refused starts ran nothing
    assert case.stdout == b"graded\n" and case.exit_code == 0, case
    retries = [e for e in logs if e["event"] == "docker_exec_start_retry"]
    assert [(e["attempt"], e["wait_s"]) for e in retries] == [(1, 0.05), (2, 0.1)] * 2


@pytest.mark.parametrize(
    ("message", "attempts"), [(EXEC_BUSY, 4), (EXEC_STOPPED, 1)], ids=["busy", "stopped"]
)
async def test_an_exec_start_refused_for_good_is_a_sandbox_error_after_bounded_attempts(
    message: str, attempts: int
) -> None:
    exec_faults = StartFaults(0, message)
    with anyio.fail_after(60):
        async with FaultyStarts(StartFaults(0), exec_faults) as backend, backend.open(SPEC) as box:
            exec_faults.left, exec_faults.starts = 100, 0
            with pytest.raises(SandboxError, match="exec start") as raised:
                await box.exec(["echo", "never"])
            exec_faults.left = 0
            after = await box.exec(["echo", "after"])
    assert exec_faults.starts == attempts + 1, exec_faults.starts  # the refused tries, then `after`
    assert (f"after {attempts} attempts" in str(raised.value)) is (attempts > 1), raised.value
    assert after.stdout == b"after\n"


def _upper_request(tmp_path: Path) -> GroundTruthRequest:
    """Ground truth for a one-line program that prints its argument upper-cased (no requirements)."""
    program = tmp_path / "prog"
    program.mkdir()
    (program / "main.py").write_text("import sys\nprint(sys.argv[1].upper())\n")
    return GroundTruthRequest(
        env=EnvSpec(), program=program_ref(program, "main.py"), cases=[CaseInput(id="c", argv=["ok"])],
        repeats=2, timeout_s=10.0, output_cap=1 << 16,
    )  # fmt: skip


async def test_the_oracle_answers_a_persisting_start_failure_as_infra_and_serves_the_next_request(
    tmp_path: Path,
) -> None:
    """The environment's container never starts: every caller gets an OracleError (their episode's infra
    error, retried) instead of the actor dying with the whole Oracle; once the daemon recovers, the same
    Oracle answers."""
    request = _upper_request(tmp_path)
    config = OracleConfig(cache=False, servers=1, clock_shifts=[])
    faults = StartFaults(docker_container.TRANSIENT_START_ATTEMPTS)  # one start's every attempt
    with anyio.fail_after(120):
        async with (
            FaultyStarts(faults) as backend,
            DockerVenvProvider(backend, tmp_path / "cache") as provider,
            OracleService(provider, config, ResultCache(None)) as oracle,
        ):
            with pytest.raises(OracleError, match="sandbox for environment .*failed to create shim task"):
                await oracle.ground_truth(request)
            (verdict,) = await oracle.ground_truth(request)
    assert verdict.kept and verdict.stdout == b"OK\n", verdict
    assert faults.starts == docker_container.TRANSIENT_START_ATTEMPTS + 1


async def test_an_environment_whose_setup_failed_is_built_again_in_a_new_container(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The container started, but a step of the venv's setup failed (here its `python3 -m venv`, answered
    with exit 1 once): that container is removed, and the next request — the episode's retry — builds the
    environment in a new one instead of reusing a half-made venv or a container in trouble."""
    from repozero.oracle import docker_env

    request = _upper_request(tmp_path)
    real_run, boxes = docker_env.DockerVenvEnvironment._run, []

    async def run(self: Any, box: Any, argv: Any, what: str, timeout_s: float = 600) -> bytes:
        if what == "venv":
            boxes.append(box)
            if len(boxes) == 1:  # the first setup's venv step fails, as a real exit 1 from the container
                argv = ["sh", "-c", "echo 'Error: cannot create the venv' >&2; exit 1"]
        return await real_run(self, box, argv, what, timeout_s)

    monkeypatch.setattr(docker_env.DockerVenvEnvironment, "_run", run)
    config = OracleConfig(cache=False, servers=1, clock_shifts=[])
    with anyio.fail_after(120):
        async with (
            FaultyStarts(StartFaults(0)) as backend,
            DockerVenvProvider(backend, tmp_path / "cache") as provider,
            OracleService(provider, config, ResultCache(None)) as oracle,
        ):
            with pytest.raises(OracleError, match="venv failed .*cannot create the venv"):
                await oracle.ground_truth(request)
            gone = boxes[0].id
            (verdict,) = await oracle.ground_truth(request)
            alive = [name.lstrip("/") for c in await _ours(backend) for name in c["Names"]]
    assert verdict.kept and verdict.stdout == b"OK\n", verdict
    assert len(boxes) == 2 and boxes[1].id != gone, boxes
    assert alive == [boxes[1].id] and gone not in alive, (gone, alive)  # the failed one was removed
