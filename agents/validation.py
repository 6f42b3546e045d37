"""Checking proposed inputs against a sample's interface before anyone runs them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from repozero.datasets import Interface
from repozero.kernel.records import Record

__all__ = ["ProposedInput", "validate_proposals"]


class ProposedInput(Record, kw_only=True):
    argv: list[str]
    stdin: bytes | None = None

    def key(self) -> tuple[tuple[str, ...], bytes | None]:
        return tuple(self.argv), self.stdin


def _check_value(fmt: str, value: str) -> str | None:
    try:
        if fmt == "int":
            int(value)
        elif fmt == "float":
            float(value)
        elif fmt == "bool" and value not in {"True", "False", "true", "false", "1", "0"}:
            return "expected a boolean (True/False)"
        elif fmt == "json":
            json.loads(value)
    except ValueError:
        return f"expected {fmt}"
    return None


def _check_named(argv: list[str], interface: Interface) -> str | None:
    formats = {a.name: a.format for a in interface.args}
    if len(argv) % 2:
        return "named arguments come in pairs: --name value"
    seen = set()
    for key, value in zip(argv[0::2], argv[1::2], strict=True):
        name = key.removeprefix("--")
        if not key.startswith("--") or name not in formats:
            return (
                f"{key!r} is not an argument of this program (known: {', '.join('--' + n for n in formats)})"
            )
        if name in seen:
            return f"--{name} is given twice"
        seen.add(name)
        if (problem := _check_value(formats[name], value)) is not None:
            return f"--{name} {value!r}: {problem}"
    missing = [a.name for a in interface.args if a.required and a.name not in seen]
    return f"missing required argument(s): {', '.join('--' + m for m in missing)}" if missing else None


def _check_one(raw: Any, interface: Interface) -> ProposedInput | str:
    if not isinstance(raw, dict):
        return 'expected an object {"argv": [...], "stdin": null}'
    argv, stdin = raw.get("argv"), raw.get("stdin")
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        return "`argv` must be a list of strings"
    if stdin is not None and not isinstance(stdin, str):
        return "`stdin` must be a string or null"
    if any("\0" in a for a in argv):
        return "arguments cannot contain NUL bytes"
    size = sum(len(a.encode()) for a in argv) + len((stdin or "").encode())
    if size > interface.max_input_bytes:
        return f"input is {size} bytes; at most {interface.max_input_bytes}"
    if interface.stdin == "none" and stdin is not None:
        return "this program does not read stdin; use null"
    if interface.stdin == "required" and stdin is None:
        return "this program reads stdin; give `stdin`"
    if interface.style == "named" and (problem := _check_named(argv, interface)) is not None:
        return problem
    return ProposedInput(argv=argv, stdin=None if stdin is None else stdin.encode())


def validate_proposals(
    raw: Any, interface: Interface, known: Iterable[tuple[tuple[str, ...], bytes | None]] = ()
) -> tuple[list[ProposedInput], list[str]]:
    """Accepted inputs (new, valid, de-duplicated) and one reason per rejected one."""
    items = raw.get("inputs") if isinstance(raw, dict) else raw
    if not isinstance(items, list):
        return [], ['expected {"inputs": [{"argv": [...], "stdin": null}, ...]}']
    seen = set(known)
    accepted: list[ProposedInput] = []
    rejected: list[str] = []
    for index, item in enumerate(items, start=1):
        checked = _check_one(item, interface)
        if isinstance(checked, str):
            rejected.append(f"input {index}: {checked}")
        elif checked.key() in seen:
            rejected.append(f"input {index}: already known; propose something new")
        else:
            seen.add(checked.key())
            accepted.append(checked)
    return accepted, rejected
