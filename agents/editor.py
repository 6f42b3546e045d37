"""The `file_editor` tool, run on the host through the sandbox's `read_file`/`write_file`.

Target sandboxes have no Python, so the OpenHands-style editor cannot run inside them; its commands
(`view`, `create`, `str_replace`, `insert`) are done here on bytes moved in and out.
"""

from __future__ import annotations

import posixpath
import shlex
from typing import Any

from repozero.kernel.errors import RepoZeroError, SandboxError
from repozero.sandbox import AgentSandbox

__all__ = ["EDITOR_SCHEMA", "EditorError", "run_editor"]

EDITOR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert"]},
        "path": {
            "type": "string",
            "description": "file or folder, relative to the repository root or absolute",
        },
        "file_text": {"type": "string", "description": "create: the whole content"},
        "old_str": {"type": "string", "description": "str_replace: text that occurs exactly once"},
        "new_str": {"type": "string", "description": "str_replace / insert: the new text"},
        "insert_line": {"type": "integer", "description": "insert: after this line (0 = at the top)"},
        "view_range": {"type": "array", "items": {"type": "integer"}, "description": "view: [first, last]"},
    },
    "required": ["command", "path"],
}
_MAX_FILE = 4 << 20


class EditorError(RepoZeroError, ValueError):
    """A command the editor refuses; its message goes back to the model."""


def _resolve(sandbox: AgentSandbox, path: str) -> str:
    full = posixpath.normpath(path if path.startswith("/") else posixpath.join(sandbox.workdir, path))
    if not (full == sandbox.workdir or full.startswith(sandbox.workdir.rstrip("/") + "/")):
        raise EditorError(f"{path}: outside the repository ({sandbox.workdir})")
    return full


async def _read(sandbox: AgentSandbox, path: str) -> str | None:
    try:
        data = await sandbox.read_file(path, max_bytes=_MAX_FILE)
    except (SandboxError, FileNotFoundError, IsADirectoryError):
        return None
    return data.decode("utf-8", errors="replace")


def _numbered(text: str, first: int, last: int | None) -> str:
    lines = text.split("\n")
    last = len(lines) if last is None or last < 0 else min(last, len(lines))
    return "\n".join(f"{n:6}\t{lines[n - 1]}" for n in range(max(first, 1), last + 1))


async def run_editor(sandbox: AgentSandbox, args: dict[str, Any]) -> str:
    """Do one editor command; returns the observation (raises EditorError for a refused command)."""
    command, path = args.get("command"), args.get("path")
    if not isinstance(path, str) or not path:
        raise EditorError("`path` is required")
    full = _resolve(sandbox, path)
    current = await _read(sandbox, full)
    if command == "view":
        return await _view(sandbox, full, current, args.get("view_range"))
    if command == "create":
        if current is not None:
            raise EditorError(f"{path}: already exists; use str_replace or insert to change it")
        await sandbox.write_file(full, str(args.get("file_text", "")).encode())
        return f"created {path}"
    if current is None:
        raise EditorError(f"{path}: no such file")
    if command == "str_replace":
        return await _replace(sandbox, full, current, args)
    if command == "insert":
        return await _insert(sandbox, full, current, args)
    raise EditorError(f"unknown command {command!r} (view, create, str_replace, insert)")


async def _view(sandbox: AgentSandbox, full: str, current: str | None, view_range: Any) -> str:
    if current is not None:
        first, last = [*view_range, None][:2] if isinstance(view_range, list) and view_range else (1, None)
        return _numbered(current, int(first or 1), None if last is None else int(last))
    listing = await sandbox.shell(
        f"find {shlex.quote(full)} -maxdepth 2 -not -path '*/.*' | sort | head -200"
    )
    if listing.exit_code != 0:
        raise EditorError(f"{full}: no such file or folder")
    return listing.stdout.decode("utf-8", errors="replace")


async def _replace(sandbox: AgentSandbox, full: str, current: str, args: dict[str, Any]) -> str:
    old, new = args.get("old_str"), args.get("new_str", "")
    if not isinstance(old, str) or not old:
        raise EditorError("str_replace needs a non-empty `old_str`")
    count = current.count(old)
    if count != 1:
        raise EditorError(f"`old_str` occurs {count} times in {full}; it must occur exactly once")
    await sandbox.write_file(full, current.replace(old, str(new)).encode())
    return f"replaced 1 occurrence in {full}"


async def _insert(sandbox: AgentSandbox, full: str, current: str, args: dict[str, Any]) -> str:
    line, new = args.get("insert_line"), args.get("new_str")
    lines = current.split("\n")
    if not isinstance(line, int) or not 0 <= line <= len(lines):
        raise EditorError(f"`insert_line` must be an integer from 0 to {len(lines)}")
    if not isinstance(new, str):
        raise EditorError("insert needs `new_str`")
    lines[line:line] = new.split("\n")
    await sandbox.write_file(full, "\n".join(lines).encode())
    return f"inserted {len(new.split(chr(10)))} line(s) after line {line} of {full}"
