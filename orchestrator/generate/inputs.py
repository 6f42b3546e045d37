"""Checking proposed inputs against the program's declared interface, before anyone runs them.

A proposal that breaks the interface (an unknown `--name`, a value in the wrong format, stdin where none is
taken) is kept in the record with why (`invalid`) and dropped as `invalid_input`.
"""

from __future__ import annotations

import json

import msgspec

from repozero.datasets import Argument, Interface
from repozero.orchestrator.generate.records import CaseDraft

__all__ = ["check_inputs", "interface_text"]


def check_inputs(cases: list[CaseDraft], interface: Interface) -> list[CaseDraft]:
    """The proposals with `invalid` filled in where they break `interface`; duplicates are invalid too."""
    seen: set[tuple[tuple[str, ...], bytes | None]] = set()
    checked = []
    for case in cases:
        problem = case.invalid or _problem(case, interface)
        key = (tuple(case.argv), case.stdin)
        if not problem and key in seen:
            problem = "repeats an earlier input"
        seen.add(key)
        checked.append(msgspec.structs.replace(case, invalid=problem))
    return checked


def _problem(case: CaseDraft, interface: Interface) -> str:
    size = sum(len(a.encode()) for a in case.argv) + len(case.stdin or b"")
    if size > interface.max_input_bytes:
        return f"{size} bytes of input, more than max_input_bytes {interface.max_input_bytes}"
    if interface.stdin == "none" and case.stdin is not None:
        return "stdin given, but the program takes none"
    if interface.stdin == "required" and case.stdin is None:
        return "no stdin, but the program requires it"
    if interface.style == "free":
        return ""
    return _named_problem(case.argv, {a.name: a for a in interface.args})


def _named_problem(argv: list[str], args: dict[str, Argument]) -> str:
    if len(argv) % 2:
        return "argv is not --name value pairs"
    given = set()
    for key, value in zip(argv[::2], argv[1::2], strict=True):
        name = key.removeprefix("--")
        if not key.startswith("--") or name not in args:
            return f"unknown argument {key!r}"
        given.add(name)
        if not _fits(value, args[name].format):
            return f"{key} {value!r} is not a {args[name].format}"
    missing = [a for a in args if args[a].required and a not in given]
    return f"missing required --{missing[0]}" if missing else ""


def _fits(value: str, format: str) -> bool:
    try:
        if format == "int":
            int(value)
        elif format == "float":
            float(value)
        elif format == "json":
            json.loads(value)
        elif format == "bool":
            return value.lower() in ("true", "false", "1", "0", "yes", "no")
    except ValueError:
        return False
    return True


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
