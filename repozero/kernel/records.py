"""The base of every record that crosses a boundary: frozen, keyword-only, strict on unknown fields.

A leaf module (imports nothing of ours) so every subpackage can build its records on it.
"""

from __future__ import annotations

import re
import types
from typing import Any, Literal, TypeVar, Union, dataclass_transform, get_args, get_origin

import msgspec

__all__ = ["Record", "explain", "json_decoder", "json_encoder"]

T = TypeVar("T")


@dataclass_transform(frozen_default=True, kw_only_default=True)
class Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=False):
    """Base for persisted and exchanged records; subclasses add `schema_version` where persisted.

    msgspec does not inherit `kw_only`: a subclass with a required field after an optional one says
    `kw_only=True` itself.
    """


json_encoder = msgspec.json.Encoder(order="deterministic")


def json_decoder(kind: type[T]) -> msgspec.json.Decoder[T]:
    """A decoder for `kind`, built once by the caller and reused."""
    return msgspec.json.Decoder(kind)


_PATH_PART = re.compile(r"\.(\w+)|\[(\d+)\]|\[\.\.\.\]")


def _field_type(kind: Any, path: str) -> Any:
    """The annotation at a msgspec error path such as `$.cases[2].visibility`, or None."""
    tp: Any = kind
    for match in _PATH_PART.finditer(path.removeprefix("$")):
        name = match.group(1)
        tp = _unwrap(tp)
        if name is not None:
            if isinstance(tp, type) and issubclass(tp, msgspec.Struct):
                fields = {f.name: f.type for f in msgspec.structs.fields(tp)}
                tp = fields.get(name)
            elif get_origin(tp) is dict:
                tp = get_args(tp)[1]
            else:
                return None
        else:
            args = get_args(tp)
            tp = args[0] if args else None
    return tp


def _unwrap(tp: Any) -> Any:
    if get_origin(tp) in (Union, types.UnionType):
        rest = [a for a in get_args(tp) if a is not type(None)]
        return rest[0] if len(rest) == 1 else tp
    return tp


def explain(exc: msgspec.ValidationError, kind: type) -> str:
    """msgspec's message, plus the allowed values when an enum-like field got something else."""
    text = str(exc)
    found = re.search(r"at `(\$[^`]*)`", text)
    if "Invalid enum value" in text and found:
        tp = _unwrap(_field_type(kind, found.group(1)))
        if get_origin(tp) is Literal:
            text += f" (expected one of: {', '.join(repr(a) for a in get_args(tp))})"
    return text
