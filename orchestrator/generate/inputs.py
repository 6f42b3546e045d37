"""Checking proposed inputs against the program's declared interface, before anyone runs them.

A proposal that breaks the interface (an unknown `--name`, a value in the wrong format, stdin where none is
taken) is kept in the record with why (`invalid`) and dropped as `invalid_input`.
"""

from __future__ import annotations

import msgspec

from repozero.datasets import Interface
from repozero.datasets.interface import input_problems
from repozero.orchestrator.generate.records import CaseDraft

__all__ = ["check_inputs", "interface_text"]


def check_inputs(cases: list[CaseDraft], interface: Interface) -> list[CaseDraft]:
    """The proposals with `invalid` filled in where they break `interface` (`datasets/interface.py`, the
    rule `dataset build` applies too); duplicates are invalid too."""
    problems = input_problems(((c.argv, c.stdin) for c in cases), interface)
    return [
        msgspec.structs.replace(case, invalid=case.invalid or problem)
        for case, problem in zip(cases, problems, strict=True)
    ]


def interface_text(interface: Interface) -> str:
    """The interface as a prompt shows it."""
    if interface.style == "free":
        lines = ["argv: any list of strings"]
    else:
        lines = [
            f"--{a.name} <{a.format}>{' (required)' if a.required else ''}: {a.description}"
            for a in interface.args
        ] or ["(no named arguments)"]
    return "\n".join([*lines, f"stdin: {interface.stdin}"])
