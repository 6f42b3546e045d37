"""Secrets kept off disk and off screens: config as written or printed, with credentials replaced, names kept.

What counts as a credential: every header value (`endpoints.NAME.headers`), any string under a key named
like one (`api_key`, `token`, `secret`, `password`, `authorization`, `cookie`, …, also inside `extra_body`
and as a dotted key of a sweep spec), and the user-info and credential query parameters of any URL
(`https://user:pw@host/v1?key=…`). `*_env` fields name environment variables and are kept.
"""

from __future__ import annotations

import json
import re
import tomllib
import urllib.parse
from typing import Any

__all__ = ["REDACTED", "redact_data", "redact_toml_text", "redact_url", "secret_name"]

REDACTED = "<redacted>"

_SECRET_NAME = re.compile(
    r"(?:^|[_\-])(?:api[_-]?key|apikey|key|secret|secret[_-]?key|password|passwd|pwd|token|auth|authorization"
    r"|credentials?|cookie|signature|sig)$",
    re.IGNORECASE,
)
_HEADERS = "headers"


def secret_name(name: str) -> bool:
    """True for a key or query-parameter name that holds a credential (`api_key`, `X-Amz-Signature`)."""
    return bool(_SECRET_NAME.search(name))


def redact_url(text: str) -> str:
    """`text` with a URL's user-info and credential query values replaced (other strings unchanged)."""
    if "://" not in text:
        return text
    try:
        parts = urllib.parse.urlsplit(text)
    except ValueError:
        return text
    netloc = parts.netloc
    if "@" in netloc:
        netloc = f"{REDACTED}@{netloc.rpartition('@')[2]}"
    query = "&".join(_redact_param(p) for p in parts.query.split("&")) if parts.query else ""
    if netloc == parts.netloc and query == parts.query:
        return text
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc, query=query))


def _redact_param(param: str) -> str:
    name, sep, _ = param.partition("=")
    return f"{name}={REDACTED}" if sep and secret_name(urllib.parse.unquote_plus(name)) else param


def redact_data(node: Any, path: tuple[str, ...] = ()) -> Any:
    """A copy of plain config data (dicts, lists, scalars) with every credential replaced by `REDACTED`.

    `path` is the key path so far; a dotted key (`"endpoints.e.headers.Authorization"`, as sweep specs
    write them) counts as its segments."""
    if isinstance(node, dict):
        return {key: redact_data(value, (*path, *str(key).split("."))) for key, value in node.items()}
    if isinstance(node, list):
        return [redact_data(value, path) for value in node]
    if isinstance(node, str):
        if any(part.endswith("_env") for part in path):  # names of environment variables, not values
            return node
        if node and path and (_HEADERS in path[:-1] or secret_name(path[-1])):
            return REDACTED
        return redact_url(node)
    return node


def redact_toml_text(text: str) -> str:
    """A TOML document as written when it holds no credential; else rendered again from its redacted data
    (comments and layout lost), so no secret of it reaches a copy."""
    data = tomllib.loads(text)
    redacted = redact_data(data)
    if redacted == data:
        return text
    lines = ["# redacted by repozero: credentials replaced, comments and layout not kept"]
    lines += [f"{_key(k)} = {_inline(v)}" for k, v in redacted.items() if not isinstance(v, dict)]
    for name, table in redacted.items():
        if isinstance(table, dict):
            lines.append(f"\n[{_key(name)}]")
            lines += [f"{_key(k)} = {_inline(v)}" for k, v in table.items()]
    return "\n".join(lines) + "\n"


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _string(name)


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def _inline(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + "}"
    return _string(str(value))
