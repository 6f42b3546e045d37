"""Sandboxes: the one contract (`Sandbox`), and backends that implement it."""

from repozero.sandbox.backends import create_backend
from repozero.sandbox.base import (
    DEFAULT_OUTPUT_CAP,
    CaseInput,
    CaseRun,
    ExecResult,
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
    "CaseInput",
    "CaseRun",
    "ExecResult",
    "LocalBackend",
    "LocalSandbox",
    "Sandbox",
    "SandboxBackend",
    "SandboxProcess",
    "SandboxSpec",
    "ShellSession",
    "create_backend",
    "toolchain_versions",
]
