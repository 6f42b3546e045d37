"""What a scripted agent does in one turn, and how that turn is spelled in each scaffold.

Bash scaffold: a thought and exactly one fenced bash block (files written with heredocs, submit by
`echo REPOZERO_SUBMIT`). Tools scaffold: a thought and one tool call (`execute_bash`, `file_editor`,
`finish`, `propose_inputs`), falling back to `execute_bash` when the request does not offer a tool.
"""

from __future__ import annotations

import base64
import json
import shlex
from typing import Any

from repozero.agents.fakellm.chat import ChatRequest, Reply, ToolCall
from repozero.kernel.records import Record

__all__ = [
    "SUBMIT_COMMAND",
    "Action",
    "Propose",
    "Replace",
    "Say",
    "Shell",
    "Submit",
    "Write",
    "dump_args",
    "render",
    "write_command",
]

SUBMIT_COMMAND = "echo REPOZERO_SUBMIT"


class Shell(Record, tag=True):
    command: str
    thought: str


class Write(Record, tag=True, kw_only=True):
    path: str
    content: bytes
    thought: str
    overwrite: bool = False
    """The file may exist already: the tools form uses `execute_bash` (an editor's `create` may refuse)."""


class Replace(Record, tag=True):
    path: str
    old: str
    new: str
    thought: str


class Submit(Record, tag=True):
    thought: str


class Propose(Record, tag=True):
    inputs: list[dict[str, Any]]
    thought: str


class Say(Record, tag=True):
    text: str


Action = Shell | Write | Replace | Submit | Propose | Say


def dump_args(arguments: Any) -> str:
    """The JSON spelling of tool arguments (also used to re-spell Anthropic `input` objects)."""
    return json.dumps(arguments, ensure_ascii=False)


def _delimiter(text: str) -> str:
    lines = set(text.splitlines())
    delimiter, n = "RZEOF", 0
    while delimiter in lines:
        n += 1
        delimiter = f"RZEOF{n}"
    return delimiter


def write_command(path: str, content: bytes) -> str:
    """A POSIX shell command (coreutils only) that writes `content` to `path` byte for byte."""
    quoted = shlex.quote(path)
    parent = path.rsplit("/", 1)[0] if "/" in path else ""
    prefix = f"mkdir -p {shlex.quote(parent)} && " if parent else ""
    if not content:
        return f"{prefix}: > {quoted}"
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is None or "```" in text or "\r" in text:
        encoded = base64.encodebytes(content).decode("ascii")
        return f"{prefix}base64 -d > {quoted} <<'RZEOF'\n{encoded}RZEOF"
    body = text if text.endswith("\n") else text + "\n"
    delimiter = _delimiter(text)
    command = f"{prefix}cat > {quoted} <<'{delimiter}'\n{body}{delimiter}"
    return command if text.endswith("\n") else f"{command}\ntruncate -s -1 {quoted}"


def _text_form(action: Action, inputs_block: bool = True) -> Reply:
    match action:
        case Shell(command=command, thought=thought):
            return Reply(text=f"THOUGHT: {thought}\n\n```bash\n{command}\n```")
        case Write(path=path, content=content, thought=thought):
            return _text_form(Shell(command=write_command(path, content), thought=thought))
        case Replace():
            raise ValueError("Replace has no bash-scaffold form; policies write whole files there")
        case Submit(thought=thought):
            return _text_form(Shell(command=SUBMIT_COMMAND, thought=thought))
        case Propose(inputs=inputs, thought=thought):
            block = json.dumps({"inputs": inputs}, indent=2, ensure_ascii=False)
            return Reply(text=f"THOUGHT: {thought}\n\n```json\n{block}\n```")
        case Say(text=text):
            return Reply(text=text)


def _absolute(path: str, workdir: str | None) -> str:
    return f"{workdir.rstrip('/')}/{path}" if workdir and not path.startswith("/") else path


def _tool_form(action: Action, request: ChatRequest, workdir: str | None) -> tuple[str, str, dict[str, Any]]:
    """(thought, tool name, arguments), falling back to execute_bash for tools the request lacks."""
    editor = request.tool("file_editor") is not None
    match action:
        case Write(path=path, content=content, thought=thought, overwrite=False) if editor and _is_text(
            content
        ):
            args = {"command": "create", "path": _absolute(path, workdir), "file_text": content.decode()}
            return thought, "file_editor", args
        case Write(path=path, content=content, thought=thought):
            return thought, "execute_bash", {"command": write_command(path, content)}
        case Replace(path=path, old=old, new=new, thought=thought):
            args = {
                "command": "str_replace",
                "path": _absolute(path, workdir),
                "old_str": old,
                "new_str": new,
            }
            return thought, "file_editor", args
        case Submit(thought=thought) if request.tool("finish") is not None:
            return thought, "finish", {"message": thought}
        case Submit(thought=thought):
            return thought, "execute_bash", {"command": SUBMIT_COMMAND}
        case Propose(inputs=inputs, thought=thought):
            return thought, "propose_inputs", {"inputs": inputs}
        case Shell(command=command, thought=thought):
            return thought, "execute_bash", {"command": command}
    raise ValueError(f"no tool form for {type(action).__name__}")


def _is_text(content: bytes) -> bool:
    try:
        content.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def render(action: Action, request: ChatRequest, *, workdir: str | None = None) -> Reply:
    """The reply that performs `action`: tool calls when the request offers tools, else text."""
    if isinstance(action, Say):
        return Reply(text=action.text)
    wants_text = not request.tools or (isinstance(action, Propose) and request.tool("propose_inputs") is None)
    if wants_text or (request.tool("execute_bash") is None and not isinstance(action, Propose)):
        return _text_form(action)
    thought, name, arguments = _tool_form(action, request, workdir)
    call = ToolCall(id=f"call_rz{request.assistant_turns}_0", name=name, arguments=dump_args(arguments))
    return Reply(text=thought, tool_calls=[call], finish_reason="tool_calls")
