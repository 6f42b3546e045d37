"""Sandboxes: the one contract (`Sandbox`), and backends that implement it."""

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

__all__ = [
    "DEFAULT_OUTPUT_CAP",
    "CaseInput",
    "CaseRun",
    "ExecResult",
    "Sandbox",
    "SandboxBackend",
    "SandboxProcess",
    "SandboxSpec",
]
