"""RepoZero's sandbox offered to inspect-ai as the sandbox environment `repozero`.

Why: any inspect task — ours or someone else's — can then run its tools in the same isolation our agents
and grader use (bubblewrap namespaces, no network, a fresh uid, memory and process caps; docs/sandbox.md)
without Docker. Use it with `sandbox="repozero"` (the `node` toolchain) or `sandbox=("repozero", "rust")`.

One sandbox per sample, opened in `sample_init` and closed in `sample_cleanup` (inspect calls both from the
same task). The backend is the local one, opened once per process with the `[sandbox]` settings of the
RepoZero config (the TOML file `REPOZERO_CONFIG` names, when set).
"""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any, Literal, overload

from inspect_ai.util import (
    ExecResult,
    SandboxEnvironment,
    SandboxEnvironmentConfigType,
    SandboxUserUnsupportedError,
    sandboxenv,
)
from pydantic import BaseModel

from repozero.integrations.inspect_verifiers_common import SandboxError, integration_config, quiet_logging
from repozero.sandbox import Sandbox, SandboxBackend, SandboxSpec, create_backend

__all__ = ["RepoZeroSandboxConfig", "RepoZeroSandboxEnvironment"]

_backend: SandboxBackend | None = None


class RepoZeroSandboxConfig(BaseModel, frozen=True):
    """`sandbox=("repozero", RepoZeroSandboxConfig(toolchain="rust"))`; a plain string names the toolchain."""

    toolchain: str = "node"
    memory_mb: int = 2048


def backend() -> SandboxBackend:
    """The process's local sandbox backend."""
    global _backend
    if _backend is None:
        quiet_logging()
        _backend = create_backend(integration_config().sandbox, "local")
    return _backend


def _settings(config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]) -> RepoZeroSandboxConfig:
    if isinstance(config, RepoZeroSandboxConfig):
        return config
    if isinstance(config, str) and config:
        return RepoZeroSandboxConfig(toolchain=config)
    return RepoZeroSandboxConfig(toolchain=metadata.get("repozero_toolchain", "node"))


@sandboxenv(name="repozero")
class RepoZeroSandboxEnvironment(SandboxEnvironment):
    """One RepoZero sandbox; relative paths and the default cwd are its work directory."""

    def __init__(self, box: Sandbox, stack: AsyncExitStack) -> None:
        super().__init__()
        self.box = box
        self._stack = stack

    @classmethod
    def config_deserialize(cls, config: dict[str, Any]) -> BaseModel:
        return RepoZeroSandboxConfig(**config)

    @classmethod
    async def sample_init(
        cls, task_name: str, config: SandboxEnvironmentConfigType | None, metadata: dict[str, str]
    ) -> dict[str, SandboxEnvironment]:
        settings = _settings(config, metadata)
        spec = SandboxSpec(
            toolchain=settings.toolchain,
            run_id=f"inspect-{task_name}",
            sample=str(metadata.get("sample", "")),
            role="agent",
            memory_mb=settings.memory_mb,
        )
        async with AsyncExitStack() as stack:
            box = await stack.enter_async_context(backend().open(spec))
            return {"default": cls(box, stack.pop_all())}

    @classmethod
    async def sample_cleanup(
        cls,
        task_name: str,
        config: SandboxEnvironmentConfigType | None,
        environments: dict[str, SandboxEnvironment],
        interrupted: bool,
    ) -> None:
        for environment in environments.values():
            await environment.as_type(RepoZeroSandboxEnvironment)._stack.aclose()

    async def exec(
        self,
        cmd: list[str],
        input: str | bytes | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
        user: str | None = None,
        timeout: int | None = None,  # noqa: ASYNC109 - inspect's signature
        timeout_retry: bool = True,
        concurrency: bool = True,
    ) -> ExecResult[str]:
        if user is not None:
            raise SandboxUserUnsupportedError("the repozero sandbox runs every command as its own user")
        stdin = input.encode() if isinstance(input, str) else input
        result = await self.box.exec(cmd, cwd=cwd, env=env, stdin=stdin, timeout_s=timeout)
        if result.timed_out:
            raise TimeoutError(f"command timed out after {timeout} s: {cmd[:1]}")
        return ExecResult(
            success=result.exit_code == 0,
            returncode=result.exit_code,
            stdout=result.stdout.decode("utf-8", errors="replace"),
            stderr=result.stderr.decode("utf-8", errors="replace"),
        )

    async def write_file(self, file: str, contents: str | bytes) -> None:
        data = contents.encode() if isinstance(contents, str) else contents
        await self.box.write_file(self._path(file), data)

    @overload
    async def read_file(self, file: str, text: Literal[True] = True) -> str: ...

    @overload
    async def read_file(self, file: str, text: Literal[False]) -> bytes: ...

    async def read_file(self, file: str, text: bool = True) -> str | bytes:
        try:
            data = await self.box.read_file(self._path(file))
        except SandboxError as exc:
            if "no such" in str(exc).lower():
                raise FileNotFoundError(file) from exc
            raise
        return data.decode("utf-8") if text else data

    def _path(self, file: str) -> str:
        return file if file.startswith("/") else f"{self.box.workdir.rstrip('/')}/{file}"
