"""The scripted coder: which action comes next, derived from the conversation alone (a stateless server).

A conversation is split into phases at feedback messages. Each phase has a script — look around, write
files, run the whitebox cases, submit — and the position in it is the number of *effective* assistant
turns in the phase (turns the scaffold could act on; a reply broken by an injected fault does not count,
so the action is sent again). Past the end of a script the agent submits again.
"""

from __future__ import annotations

import base64
import difflib
import json
import re
import shlex
from collections.abc import Callable, Sequence

from repozero.agents.fakellm.agent_actions import Action, Replace, Shell, Submit, Write
from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, feedback_counts
from repozero.agents.fakellm.material import SampleMaterial
from repozero.datasets import Case

__all__ = ["LOOK_COMMAND", "Variant", "coder_action", "effective_turns", "run_cases_command"]

LOOK_COMMAND = "pwd && ls -la"
Variant = Callable[[Sequence[int]], str]
"""Which tree to write ("gold" or "buggy"), given the failing counts of the feedback seen so far."""

_BLOCK = re.compile(r"```(?:bash|json)[ \t]*\n.*?\n```", re.DOTALL)
_ABS_LINE = re.compile(r"^\s*(/[^\s<>]*)\s*$", re.MULTILINE)


def _stdin_prefix(stdin: bytes) -> str:
    try:
        text = stdin.decode("utf-8")
        if "\x00" not in text:
            return f"printf '%s' {shlex.quote(text)} | "
    except UnicodeDecodeError:
        pass
    return f"printf '%s' {base64.b64encode(stdin).decode()} | base64 -d | "


def _case_command(entry: str, case: Case) -> str:
    command = " ".join([entry, *(shlex.quote(a) for a in case.argv)])
    if case.stdin is None:
        command = f"{command} </dev/null"
    else:
        command = _stdin_prefix(case.stdin) + command
    return f'echo {shlex.quote("--- " + case.id)}; {command}; echo "[exit $?]"'


def run_cases_command(material: SampleMaterial) -> str:
    """Build the target if its language needs it, then run the (at most four) whitebox cases the prompt
    shows, or just the entry point."""
    entry = " ".join(shlex.quote(a) for a in material.entry)
    build = [f"{shlex.join(material.build)} 2>&1 | tail -n 20"] if material.build else []
    if not material.whitebox:
        return "\n".join([*build, f'{entry} </dev/null; echo "[exit $?]"'])
    return "\n".join([*build, *(_case_command(entry, case) for case in material.whitebox[:4])])


def _full_script(
    files: dict[str, bytes], material: SampleMaterial, look: str, *, overwrite: bool
) -> list[Action]:
    script: list[Action] = [Shell(command=LOOK_COMMAND, thought=look)]
    for path in sorted(files):
        lines = files[path].count(b"\n")
        thought = f"I will write `{path}` ({lines} lines)."
        script.append(Write(path=path, content=files[path], thought=thought, overwrite=overwrite))
    return [*script, *_finish(material)]


def _finish(material: SampleMaterial) -> list[Action]:
    return [
        Shell(command=run_cases_command(material), thought="Run the whitebox cases from the task."),
        Submit(thought="The implementation is complete and the whitebox cases run; submitting."),
    ]


def replacements(old: str, new: str) -> list[tuple[str, str]] | None:
    """`str_replace` edits turning `old` into `new`, bottom-up, each `old_str` unique when applied."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    content, edits = old, []
    for index in range(len(ops) - 1, -1, -1):
        _, i1, i2, j1, j2 = ops[index]
        limit = ops[index + 1][1] if index + 1 < len(ops) else len(a)
        edit = _unique_edit(content, a, b[j1:j2], i1, i2, limit)
        if edit is None:
            return None
        content = content.replace(edit[0], edit[1], 1)
        edits.append(edit)
    return edits if content == new else None


def _unique_edit(
    content: str, a: list[str], replacement: list[str], i1: int, i2: int, limit: int
) -> tuple[str, str] | None:
    """Grow the context around a[i1:i2] (up freely, down within the unchanged run) until it is unique."""
    lo, hi = i1, i2
    while True:
        old = "".join(a[lo:hi])
        if old and content.count(old) == 1:
            return old, "".join(a[lo:i1] + replacement + a[i2:hi])
        if lo == 0 and hi >= limit:
            return None
        lo, hi = max(lo - 1, 0), min(hi + 1, limit)


def _edits(path: str, old: bytes, new: bytes) -> list[Action] | None:
    try:
        pairs = replacements(old.decode("utf-8"), new.decode("utf-8"))
    except UnicodeDecodeError:
        return None
    if pairs is None:
        return None
    return [Replace(path=path, old=o, new=n, thought=f"Fix the bug in `{path}`.") for o, n in pairs]


def _incremental_script(
    before: dict[str, bytes], after: dict[str, bytes], material: SampleMaterial, can_replace: bool
) -> list[Action]:
    script: list[Action] = [
        Shell(
            command=LOOK_COMMAND, thought="The feedback lists failing cases; let me look at the files again."
        )
    ]
    for path in sorted(set(before) | set(after)):
        if before.get(path) == after.get(path):
            continue
        if path not in after:
            script.append(Shell(command=f"rm -f {shlex.quote(path)}", thought=f"`{path}` is not needed."))
            continue
        edits = _edits(path, before[path], after[path]) if can_replace and path in before else None
        thought = f"Rewrite `{path}` with the fix."
        script += edits or [Write(path=path, content=after[path], thought=thought, overwrite=path in before)]
    return [*script, *_finish(material)]


def _is_effective(message: ChatMessage, request: ChatRequest) -> bool:
    """Could the scaffold act on this assistant turn? (A fenced block, or well-formed tool calls.)"""
    if message.tool_calls:
        return all(_call_ok(call.name, call.arguments, request) for call in message.tool_calls)
    return _BLOCK.search(message.text) is not None


def _call_ok(name: str, arguments: str, request: ChatRequest) -> bool:
    spec = request.tool(name)
    try:
        parsed = json.loads(arguments)
    except ValueError:
        return False
    return spec is not None and isinstance(parsed, dict) and all(r in parsed for r in spec.required)


def effective_turns(messages: Sequence[ChatMessage], request: ChatRequest) -> int:
    return sum(1 for m in messages if m.role == "assistant" and _is_effective(m, request))


def _workdir(messages: Sequence[ChatMessage]) -> str | None:
    """The absolute path printed by the latest `pwd`, read from the observation that followed it."""
    found, after_look = None, False
    for message in messages:
        if message.role == "assistant":
            spelled = message.text + "".join(c.arguments for c in message.tool_calls)
            after_look = LOOK_COMMAND in spelled
        elif after_look and (match := _ABS_LINE.search(message.text)) is not None:
            found, after_look = match.group(1), False
    return found


def coder_action(
    request: ChatRequest, material: SampleMaterial, variant: Variant
) -> tuple[Action, str | None]:
    """The next action of a scripted coder whose written tree follows `variant`, and the work dir."""
    messages = request.messages
    counted = [(i, feedback_counts(m)) for i, m in enumerate(messages)]
    marks = [(i, counts[-1]) for i, counts in counted if counts]
    failing = [n for _, n in marks]
    trees = {"gold": material.gold, "buggy": material.buggy}
    current = trees[variant(failing)]
    start = marks[-1][0] if marks else -1
    resumed = bool(marks) and any(m.role == "assistant" for m in messages[:start])
    if resumed:
        can_replace = request.tool("file_editor") is not None and request.tool("execute_bash") is not None
        previous = trees[variant(failing[:-1])]
        script = _incremental_script(previous, current, material, can_replace)
    else:
        look = "Let me look at the working directory before writing code."
        script = _full_script(current, material, look, overwrite=bool(marks))
    step = effective_turns(messages[start + 1 :], request)
    return script[min(step, len(script) - 1)], _workdir(messages)
