"""Sandboxes: the contract (`Sandbox`, and its roles: `AgentSandbox`, `GradingSandbox`, `ProcessSandbox`), and
backends that implement it."""

from repozero.sandbox.backends import create_backend, open_backend
from repozero.sandbox.base import (
    DEFAULT_OUTPUT_CAP,
    AgentSandbox,
    BackendDefaults,
    CaseInput,
    CaseRun,
    ExecResult,
    GradingSandbox,
    ProcessSandbox,
    Sandbox,
    SandboxBackend,
    SandboxProcess,
    SandboxSpec,
)
from repozero.sandbox.local import LocalBackend, LocalSandbox
from repozero.sandbox.shell import ShellSession
from repozero.sandbox.toolchains import toolchain_versions

__all__ = [
    "DEFAULT_OUTPUT_CAP",
    "AgentSandbox",
    "BackendDefaults",
    "CaseInput",
    "CaseRun",
    "ExecResult",
    "GradingSandbox",
    "LocalBackend",
    "LocalSandbox",
    "ProcessSandbox",
    "Sandbox",
    "SandboxBackend",
    "SandboxProcess",
    "SandboxSpec",
    "ShellSession",
    "create_backend",
    "open_backend",
    "toolchain_versions",
]
