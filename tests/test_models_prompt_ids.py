"""Prompt token ids read against the conversation's last ones (agents/models/prompt_ids.py): the same ids a
whole decode gives, for prompts that extend the last one and for those that do not, over a real stream."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.agents.fakellm import fake_endpoint, start_fake_server
from repozero.agents.models import Message, open_models
from repozero.agents.models.codec import BadResponse
from repozero.agents.models.prompt_ids import PromptIds

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


def text(ids: list[int], sep: str = ",") -> bytes:
    return ("[" + sep.join(map(str, ids)) + "]").encode()


@pytest.mark.parametrize(
    "first, second",
    [
        ([1, 2, 3], [1, 2, 3, 4, 5]),  # extends: only the tail is decoded
        ([1, 2, 3], [1, 2, 3]),  # the same prompt again
        ([1, 2, 3], [1, 2, 34]),  # the byte prefix ends inside a number: not an extension
        ([1, 2, 3], [9, 2, 3, 4]),  # another conversation
        ([], [5, 6]),
        ([7], []),
    ],
)
def test_each_read_gives_what_a_whole_decode_gives(first: list[int], second: list[int]) -> None:
    memo = PromptIds()
    assert memo.read(text(first)) == first
    assert memo.read(text(second)) == second
    assert memo.read(text([*second, 11], ", ")) == [*second, 11]  # another spelling: decoded whole
    assert memo.read(text([*second, 11, 12], ", ")) == [*second, 11, 12]


def test_null_is_none_and_leaves_the_last_prompt_in_place() -> None:
    memo = PromptIds()
    assert memo.read(text([1, 2])) == [1, 2]
    assert memo.read(b"null") is None
    assert memo.read(text([1, 2, 3])) == [1, 2, 3]


@pytest.mark.parametrize("bad", [b'"x"', b"[1,2", b"[1,2,3.5]", b'{"a":1}'])
def test_what_is_not_an_array_of_ints_is_a_bad_response(bad: bytes) -> None:
    memo = PromptIds()
    memo.read(text([1, 2]))
    with pytest.raises(BadResponse, match="prompt_token_ids"):
        memo.read(bad)


def test_a_tail_that_is_not_ints_is_a_bad_response() -> None:
    memo = PromptIds()
    memo.read(text([1, 2]))
    with pytest.raises(BadResponse, match="prompt_token_ids"):
        memo.read(b'[1,2,"three"]')


def test_the_caller_may_change_its_list_without_changing_the_next_read() -> None:
    memo = PromptIds()
    ids = memo.read(text([1, 2]))
    assert ids is not None
    ids += [99]  # a trainer appending the completion in place
    assert memo.read(text([1, 2, 3])) == [1, 2, 3]


@pytest.mark.parametrize("stream", [True, False])
def test_a_session_over_the_loopback_server_gets_what_a_whole_decode_gets(stream: bool) -> None:
    """Five calls of one conversation, streamed and whole: each response's prompt ids equal those of the
    same call from a fresh session (decoded whole), and each prompt extends the previous one, so all
    but the first were read as a tail."""

    async def main() -> list[tuple[list[int] | None, list[int] | None]]:
        async with start_fake_server("steps:6", FIXTURE) as url:
            config = msgspec.structs.replace(fake_endpoint(url, "steps:6"), stream=stream)
            async with open_models({"fake": config}) as models:
                session = models.session("fake", "s1")
                header = "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->\nSolve it."
                messages = [Message(role="system", content=header), Message(role="user", content="go")]
                seen = []
                for n in range(5):
                    response = await session.complete(messages)
                    whole = await models.session("fake", f"fresh-{n}").complete(messages)
                    seen.append((response.prompt_token_ids, whole.prompt_token_ids))
                    messages = [*messages, response.message, Message(role="user", content=f"ok {n}")]
                return seen

    seen = anyio.run(main)
    for (got, want), (previous, _) in zip(seen, [([], None), *seen], strict=False):
        assert got is not None and got == want
        assert previous is not None and got[: len(previous)] == previous and len(got) > len(previous)


def test_json_texts_from_the_server_are_read_the_same_whichever_way() -> None:
    """The memo's byte comparison holds for the server's own spelling of a growing array."""
    memo = PromptIds()
    ids: list[int] = []
    for n in range(50):
        ids = ids + list(range(n * 7, n * 7 + n % 5))
        assert memo.read(json.dumps(ids).encode()) == ids
        assert memo.read(msgspec.json.encode(ids)) == ids
