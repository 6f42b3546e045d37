"""`open_early`: the coder sandbox opens while the episode's first model call is in flight."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from repozero.kernel.errors import SandboxError
from repozero.orchestrator.engine.early import open_early
from repozero.sandbox import ExecResult, SandboxSpec
from repozero.sandbox.base import BackendDefaults
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.local import LocalBackend

pytestmark = pytest.mark.anyio
SPEC = SandboxSpec(run_id="early-tests", sample="s", role="coder")


class GatedSandbox:
    """Opens only once `gate` is set (or fails to, with `fail`); records what happened to it."""

    def __init__(self, gate: anyio.Event, fail: bool, log: list[str]) -> None:
        self.id, self.workdir, self.gate, self.fail, self.log = "gated", "/work", gate, fail, log

    async def __aenter__(self) -> GatedSandbox:
        await self.gate.wait()
        if self.fail:
            raise SandboxError("no room for another sandbox")
        self.log.append("opened")
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.log.append("closed")

    async def shell(self, command: str, **kwargs: Any) -> ExecResult:
        self.log.append(f"shell {command}")
        return ExecResult(stdout=b"", stderr=b"", exit_code=0, wall_s=0.0)


class GatedBackend(BackendDefaults):
    name = "gated"

    def __init__(self, *, planned: bool = True, fail: bool = False) -> None:
        self.gate, self.log, self.fail = anyio.Event(), [], fail
        self.planned = planned

    async def planned_workdir(self, spec: SandboxSpec) -> str | None:
        return "/work" if self.planned else None

    def open(self, spec: SandboxSpec) -> GatedSandbox:
        return GatedSandbox(self.gate, self.fail, self.log)


async def test_the_body_runs_before_the_sandbox_is_open() -> None:
    backend = GatedBackend()
    with anyio.fail_after(5):  # opened first, the body could never set the gate: a deadlock
        async with open_early(backend, SPEC, warm_shell=True) as box:
            assert box.workdir == "/work" and backend.log == []
            backend.gate.set()  # "the model answered"; now the first command waits for the sandbox
            await box.shell("echo hi")
    assert backend.log == ["opened", "shell true", "shell echo hi", "closed"]


async def test_a_failed_open_cancels_the_body_and_is_what_the_episode_raises() -> None:
    backend = GatedBackend(fail=True)
    reached = False
    with anyio.fail_after(5), pytest.raises(SandboxError, match="no room"):
        async with open_early(backend, SPEC, warm_shell=False):
            backend.gate.set()
            await anyio.sleep(30)  # the model call in flight: cancelled, not waited out
            reached = True
    assert not reached


async def test_an_error_in_the_body_comes_out_unwrapped_and_the_sandbox_is_closed() -> None:
    backend = GatedBackend()
    backend.gate.set()
    with anyio.fail_after(5), pytest.raises(KeyError):
        async with open_early(backend, SPEC, warm_shell=False) as box:
            await box.shell("ls")
            raise KeyError("the agent's bug")
    assert backend.log == ["opened", "shell ls", "closed"]


async def test_without_a_planned_workdir_the_sandbox_opens_first() -> None:
    backend = GatedBackend(planned=False)
    backend.gate.set()
    async with open_early(backend, SPEC, warm_shell=True) as box:
        assert backend.log == ["opened"] and box.id == "gated"
    assert backend.log == ["opened", "closed"]


async def test_a_local_sandbox_opens_early_where_it_said_with_its_shell_started(tmp_path: Any) -> None:
    backend = LocalBackend(SandboxConfig(local_root=str(tmp_path)))
    planned = await backend.planned_workdir(SPEC)
    async with open_early(backend, SPEC, warm_shell=True) as box:
        assert box.workdir == (planned or box.workdir)
        result = await box.shell("pwd; echo hi > f && cat f")
        assert result.stdout.decode().split() == [box.workdir, "hi"]
        assert box.id.startswith("sbx-")
    assert list(tmp_path.glob("sbx-*")) == []
