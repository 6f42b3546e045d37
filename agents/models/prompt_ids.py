"""A conversation's prompt token ids, read from each response in the time of what is new in them.

vLLM returns the whole prompt's token ids with every answer (`prompt_token_ids`, for exact RL traces). An
agent's prompt is its previous prompt, the previous answer and the new messages, so call k's array holds
call k-1's as a prefix; decoding all of it again costs in proportion to the whole conversation (measured:
125 µs of each call at 5,000 prompt tokens, 500 µs at 20,000 — a tenth of the orchestrator's CPU at 1,000
episodes). The codecs keep the array's JSON text as it came; `PromptIds`, one per conversation, compares it
with the last one's text (a byte compare) and decodes only the tail. Anything else — a prompt that does not
extend the last, a cut inside a number — is decoded whole. The ids are exactly those a whole decode gives.
"""

from __future__ import annotations

import msgspec

from repozero.agents.models.codec import BadResponse, Parsed

__all__ = ["PromptIds", "with_prompt_ids"]

_decoder = msgspec.json.Decoder(list[int] | None)
_COMMA, _CLOSE = ord(","), ord("]")


def _decode(text: bytes) -> list[int] | None:
    try:
        return _decoder.decode(text)
    except msgspec.DecodeError as exc:
        raise BadResponse(f"unreadable prompt_token_ids: {exc}") from None


class PromptIds:
    """The last prompt's ids and its JSON text without the closing bracket (`_stem`)."""

    __slots__ = ("_ids", "_stem")

    def __init__(self) -> None:
        self._stem = b""
        self._ids: list[int] = []

    def read(self, text: bytes) -> list[int] | None:
        """The ids of `text` (a JSON array of ints, or null), a list of the caller's own. Raises
        `BadResponse` when `text` is not one."""
        stem, n = self._stem, len(self._stem)
        if n and len(text) > n and text.startswith(stem) and text[n] in (_COMMA, _CLOSE):
            tail = _decode(b"[" + text[n + 1 :]) if text[n] == _COMMA else []
            if tail is None:  # "[" + "null]" cannot decode to None; a guard for the type checker
                raise BadResponse("unreadable prompt_token_ids")
            ids = self._ids + tail
        else:
            decoded = _decode(text)
            if decoded is None:
                return None
            ids = decoded
        self._stem, self._ids = text[:-1], ids
        return ids.copy()  # the caller may extend it in place; the next read must not see that


def with_prompt_ids(parsed: Parsed, memo: PromptIds | None) -> Parsed:
    """`parsed` with its prompt ids read from their JSON text, through the conversation's `memo` when
    there is one (else whole). Raises `BadResponse` like any unreadable part of a response."""
    text = parsed.prompt_ids_json
    if text is None:
        return parsed
    ids = (memo if memo is not None else PromptIds()).read(text)
    return msgspec.structs.replace(parsed, prompt_token_ids=ids, prompt_ids_json=None)
