"""Whether an input fits a program's declared interface — one rule for every path that meets inputs.

`dataset generate` drops a proposal that breaks the interface as `invalid_input` before anyone runs it;
`dataset build` applies the same rule to a sample's inputs (kept and earlier dropped), so rebuilding a
generated dataset neither runs an input the pipeline refused nor turns its reason into another one.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from repozero.datasets.models import Argument, Interface

__all__ = ["input_problem", "input_problems"]


def input_problems(inputs: Iterable[tuple[list[str], bytes | None]], interface: Interface) -> list[str]:
    """For each (argv, stdin) in order, why it breaks `interface` ("" when it fits); a repeat of an earlier
    input is a problem too."""
    seen: set[tuple[tuple[str, ...], bytes | None]] = set()
    problems = []
    for argv, stdin in inputs:
        problem = input_problem(argv, stdin, interface)
        key = (tuple(argv), stdin)
        if not problem and key in seen:
            problem = "repeats an earlier input"
        seen.add(key)
        problems.append(problem)
    return problems


def input_problem(argv: list[str], stdin: bytes | None, interface: Interface) -> str:
    """Why this input breaks `interface`, or ""."""
    size = sum(len(a.encode()) for a in argv) + len(stdin or b"")
    if size > interface.max_input_bytes:
        return f"{size} bytes of input, more than max_input_bytes {interface.max_input_bytes}"
    if interface.stdin == "none" and stdin is not None:
        return "stdin given, but the program takes none"
    if interface.stdin == "required" and stdin is None:
        return "no stdin, but the program requires it"
    if interface.style == "free":
        return ""
    return _named_problem(argv, {a.name: a for a in interface.args})


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
