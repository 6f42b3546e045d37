"""Reading the models' answers: fenced blocks and JSON objects, each malformed answer a reason, never raised.

The answer formats are documented in docs/generate.md; the fake policies write the same shapes.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

import msgspec

from repozero.datasets import Interface, Vote
from repozero.kernel.errors import RepoZeroError
from repozero.orchestrator.generate.records import CATEGORIES, DIFFICULTIES, CaseDraft, Draft

__all__ = ["AnswerError", "parse_ballot", "parse_cases", "parse_draft"]

_FENCE = re.compile(r"^(`{3,})([\w.+-]*)[ \t]*\n(.*?)^\1[ \t]*$", re.MULTILINE | re.DOTALL)
"""A fenced block: three or more backticks, closed by the same run (so a spec may hold ``` fences)."""


class AnswerError(RepoZeroError, ValueError):
    """The answer is not in the documented format; the message says what is missing."""


def fenced(text: str) -> dict[str, str]:
    """The first fenced block of each language tag (`python`, `json`, `markdown`, …)."""
    blocks: dict[str, str] = {}
    for _, tag, body in _FENCE.findall(text):
        blocks.setdefault(tag.lower() or "text", body)
    return blocks


def json_object(text: str) -> dict[str, Any]:
    """The answer's JSON object: its ```json block, else the whole text."""
    return _object(fenced(text).get("json", text).strip())


def _object(body: str) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except ValueError as exc:
        raise AnswerError(f"not valid JSON: {exc}") from None
    if not isinstance(value, dict):
        raise AnswerError(f"expected a JSON object, got {type(value).__name__}")
    return value


def parse_draft(text: str, language: str = "python") -> Draft:
    """A sample writer's answer: a program (```python, ```c or ```cpp), a ```json interface, a ```markdown
    API spec."""
    blocks = fenced(text)
    for tag in (language, "json", "markdown"):
        if tag not in blocks:
            raise AnswerError(f"no ```{tag} block")
    meta = _object(blocks["json"])
    try:
        interface = msgspec.convert(meta.get("interface", {}), Interface)
    except msgspec.ValidationError as exc:
        raise AnswerError(f"interface: {exc}") from None
    calls = meta.get("api_calls", [])
    if not isinstance(calls, list) or not all(isinstance(c, str) for c in calls):
        raise AnswerError("api_calls: expected a list of strings")
    category = meta.get("category")
    if category is not None and category not in CATEGORIES:
        raise AnswerError(f"category {category!r} is not one of {', '.join(CATEGORIES)}")
    return Draft(
        program=blocks[language], interface=interface, api_spec=blocks["markdown"], api_calls=calls,
        category=category,
    )  # fmt: skip


def parse_cases(text: str, limit: int) -> list[CaseDraft]:
    """A case writer's answer: `{"cases": [{"argv": [...], "stdin": str|null, "description": str}]}`."""
    raw = json_object(text).get("cases")
    if not isinstance(raw, list) or not raw:
        raise AnswerError('expected {"cases": [...]} with at least one case')
    drafts = []
    for index, item in enumerate(raw[:limit]):
        if not isinstance(item, dict):
            raise AnswerError(f"cases[{index}]: expected an object")
        drafts.append(_case(index, item))
    return drafts


def _case(index: int, item: dict[str, Any]) -> CaseDraft:
    argv, stdin = item.get("argv"), item.get("stdin")
    case_id = f"c{index:03d}"
    if not isinstance(argv, list) or not all(isinstance(a, str) for a in argv):
        return CaseDraft(id=case_id, argv=[], invalid="argv is not a list of strings")
    if (bad := _not_utf8(argv)) is not None:
        # a lone surrogate ("\udcff" in the JSON) is no byte string a process can be given
        return CaseDraft(id=case_id, argv=[], invalid=f"argv[{bad}] is not UTF-8 text")
    data: bytes | None = None
    if isinstance(stdin, str):
        if _not_utf8([stdin]) is not None:
            return CaseDraft(
                id=case_id, argv=argv, invalid="stdin is not UTF-8 text (use stdin_b64 for bytes)"
            )
        data = stdin.encode()
    elif isinstance(item.get("stdin_b64"), str):
        try:
            data = base64.b64decode(item["stdin_b64"], validate=True)
        except binascii.Error:
            return CaseDraft(id=case_id, argv=argv, invalid="stdin_b64 is not base64")
    elif stdin is not None:
        return CaseDraft(id=case_id, argv=argv, invalid="stdin is neither a string nor null")
    return CaseDraft(id=case_id, argv=argv, stdin=data, description=str(item.get("description", "")))


def _not_utf8(texts: list[str]) -> int | None:
    """The index of the first text that cannot be encoded as UTF-8, or None."""
    for n, text in enumerate(texts):
        try:
            text.encode()
        except UnicodeEncodeError:
            return n
    return None


def parse_ballot(text: str, voter: str) -> Vote:
    """A voter's answer: difficulty, category from the fixed list, ratings 1–3, a short reason."""
    raw = json_object(text)
    difficulty, category = raw.get("difficulty"), raw.get("category")
    if difficulty not in DIFFICULTIES:
        raise AnswerError(f"difficulty {difficulty!r} is not one of {', '.join(DIFFICULTIES)}")
    if category not in CATEGORIES:
        raise AnswerError(f"category {category!r} is not one of {', '.join(CATEGORIES)}")
    ratings = raw.get("ratings", {})
    if not isinstance(ratings, dict) or not all(isinstance(v, int) for v in ratings.values()):
        raise AnswerError("ratings: expected an object of integers")
    return Vote(
        voter=voter,
        difficulty=difficulty,
        category=category,
        ratings=ratings,
        reason=str(raw.get("reason", "")),
    )
