"""Every key of the config schema is read by some code: a setting nothing reads is removed, not kept as a
promise (a key only ever written to the manifest would be exactly such a promise)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import msgspec

from repozero.agents.config import EndpointConfig
from repozero.orchestrator.engine.config import Config

ROOT = Path(__file__).resolve().parent.parent
_SCHEMA_FILES = {"config.py"}  # where sections are declared: a declaration is not a read


def _leaves(kind: type, prefix: str) -> Iterator[tuple[str, str]]:
    for field in msgspec.structs.fields(kind):
        sub = field.type
        if isinstance(sub, type) and issubclass(sub, msgspec.Struct):
            yield from _leaves(sub, f"{prefix}{field.name}.")
        else:
            yield f"{prefix}{field.name}", field.name


def _sources() -> list[str]:
    skip = {"tests", "benchmarks", "builtin", ".git"}
    return [
        p.read_text(encoding="utf-8")
        for p in ROOT.rglob("*.py")
        if not skip & set(p.relative_to(ROOT).parts) and p.name not in _SCHEMA_FILES
    ]


def test_every_config_key_is_read() -> None:
    sources = "\n".join(_sources())
    keys = [*_leaves(Config, ""), *_leaves(EndpointConfig, "endpoints.NAME.")]
    assert len(keys) > 40  # the walk found the schema
    unread = [
        key
        for key, name in keys
        # an attribute read, or a name looked up as a string (sampling params are sent by name)
        if not re.search(rf"\.{name}\b|[\"']{name}[\"']", sources)
    ]
    assert not unread, f"config keys nothing reads (read them or remove them): {unread}"
