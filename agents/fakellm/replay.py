"""Recorded responses for the `replay:FILE` policy: a JSON-lines file, one response per line.

Each line: ``{"role": "coder", "step": 0, "sample": "*", "scaffold": "*", "content": "…",
"tool_calls": [{"name": "execute_bash", "arguments": {"command": "ls"}}], "finish_reason": "stop"}``.
`step` is required (the number of assistant turns before the answer); the rest are optional (`role`,
`sample` (a glob) and `scaffold` default to "*"). `arguments` may be an object or a string, sent verbatim
(so a recording can hold invalid JSON on purpose). Blank lines and lines starting with `#` are skipped.
The first line that matches a request answers it.

A *folder* is the same book with one answer per file, for answers long enough to be read as written (a
whole program, sixty inputs): `SAMPLE.ROLE[.STEP].EXT`, e.g. `base58-g01.sample_writer.md`,
`base58-g01.case_writer.json`, `base58-g03.sample_writer.1.md` (a rewrite), the file's text the answer
verbatim. `SAMPLE` is a glob as in a line; `STEP` defaults to 0; any extension; files whose names start
with `.` or `_`, or that do not have this shape (a README), are not answers.
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any, Literal

import msgspec

from repozero.agents.fakellm.agent_actions import dump_args
from repozero.agents.fakellm.chat import Header, Reply, ToolCall
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record, explain
from repozero.kernel.textio import decode_text

__all__ = ["RecordedCall", "RecordedResponse", "ReplayBook"]


class RecordedCall(Record):
    name: str
    arguments: dict[str, Any] | str = {}


class RecordedResponse(Record, kw_only=True):
    step: int
    role: str = "*"
    sample: str = "*"
    scaffold: str = "*"
    content: str = ""
    tool_calls: list[RecordedCall] = []
    finish_reason: Literal["stop", "tool_calls", "length"] | None = None

    def matches(self, header: Header, step: int) -> bool:
        return (
            self.step == step
            and self.role in ("*", header.role)
            and self.scaffold in ("*", header.scaffold)
            and fnmatch.fnmatchcase(header.sample, self.sample)
        )

    def reply(self, step: int) -> Reply:
        calls = [
            ToolCall(
                id=f"call_rz{step}_{k}",
                name=c.name,
                arguments=c.arguments if isinstance(c.arguments, str) else dump_args(c.arguments),
            )
            for k, c in enumerate(self.tool_calls)
        ]
        finish = self.finish_reason or ("tool_calls" if calls else "stop")
        return Reply(text=self.content, tool_calls=calls, finish_reason=finish)


_decoder = msgspec.json.Decoder(RecordedResponse)


class ReplayBook:
    """The parsed recording."""

    def __init__(self, path: Path, responses: list[RecordedResponse]) -> None:
        self.path = path
        self.responses = responses

    @classmethod
    def load(cls, path: Path) -> ReplayBook:
        """Read and validate a recording; UsageError naming the file and line when it is wrong."""
        if path.is_dir():
            return cls(path, _folder_answers(path))
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise UsageError(f"{path}: cannot read the replay file: {exc.strerror}") from None
        responses = []
        for number, line in enumerate(decode_text(data, path).split("\n"), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            try:
                responses.append(_decoder.decode(line))
            except msgspec.ValidationError as exc:
                raise UsageError(f"{path}:{number}: {explain(exc, RecordedResponse)}") from None
            except msgspec.DecodeError as exc:
                raise UsageError(f"{path}:{number}: invalid JSON: {exc}") from None
        return cls(path, responses)

    def find(self, header: Header, step: int) -> Reply | None:
        for response in self.responses:
            if response.matches(header, step):
                return response.reply(step)
        return None


_ANSWER_FILE = re.compile(r"(?P<sample>[^.]+)\.(?P<role>[a-z_]+)(?:\.(?P<step>\d+))?\.[A-Za-z0-9]+")


def _folder_answers(folder: Path) -> list[RecordedResponse]:
    """One response per answer file, in name order (so a glob's file is matched after exact ones only if
    named so; exact sample names are the usual case)."""
    responses = []
    for path in sorted(folder.iterdir()):
        found = _ANSWER_FILE.fullmatch(path.name)
        if found is None or path.name[0] in "._" or not path.is_file():
            continue
        try:
            content = decode_text(path.read_bytes(), path)
        except OSError as exc:
            raise UsageError(f"{path}: cannot read the answer file: {exc.strerror}") from None
        responses.append(RecordedResponse(
            step=int(found["step"] or 0), role=found["role"], sample=found["sample"], content=content,
        ))  # fmt: skip
    if not responses:
        raise UsageError(f"{folder}: no answer files (SAMPLE.ROLE[.STEP].EXT) in the replay folder")
    return responses
