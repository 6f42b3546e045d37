"""The server's context window, enforced as vLLM (and Anthropic) enforce it, refusals worded as theirs.

vLLM (0.12 and later) checks `max_tokens` against `max_model_len` first, then the prompt beside it; it
stops counting the prompt at `max_model_len - max_tokens + 1` tokens, hence "at least". Without a
`max_tokens`, the completion may use whatever the prompt leaves.
"""

from __future__ import annotations

from repozero.agents.fakellm.chat import ChatRequest, Reply
from repozero.agents.fakellm.faults import cut_to_bytes

__all__ = ["completion_room", "fit_reply", "refusal"]


def refusal(chat: ChatRequest, prompt_tokens: int, max_model_len: int) -> str | None:
    """The 400 message a real server gives this request, or None when it fits."""
    asked = chat.max_tokens
    if chat.api == "anthropic":
        return _anthropic(asked or 0, prompt_tokens, max_model_len)
    if asked is not None and asked > max_model_len:
        return (
            f"{chat.max_tokens_field}={asked} cannot be greater than max_model_len=max_total_tokens="
            f"{max_model_len}. Please request fewer output tokens."
        )
    output = asked or 0
    if prompt_tokens + output <= max_model_len and prompt_tokens < max_model_len:
        return None
    counted = max_model_len - output + 1  # where vLLM stops counting: the prompt is "at least" this long
    return (
        f"This model's maximum context length is {max_model_len} tokens. However, you requested {output} "
        f"output tokens and your prompt contains at least {counted} input tokens, for a total of at least "
        f"{counted + output} tokens. Please reduce the length of the input prompt or the number of "
        "requested output tokens."
    )


def _anthropic(asked: int, prompt_tokens: int, max_model_len: int) -> str | None:
    if asked > max_model_len:
        return (
            f"max_tokens: {asked} > {max_model_len}, which is the maximum allowed number of output tokens "
            "for this model"
        )
    if prompt_tokens >= max_model_len:
        return f"prompt is too long: {prompt_tokens} tokens > {max_model_len} maximum"
    if prompt_tokens + asked > max_model_len:
        return (
            f"input length and `max_tokens` exceed context limit: {prompt_tokens} + {asked} > "
            f"{max_model_len}, decrease input length or `max_tokens` and try again"
        )
    return None


def completion_room(chat: ChatRequest, prompt_tokens: int, max_model_len: int) -> int:
    """Completion tokens the reply may use: `max_tokens`, or what the prompt leaves of the context."""
    left = max_model_len - prompt_tokens
    return min(chat.max_tokens, left) if chat.max_tokens is not None else left


def fit_reply(reply: Reply, room: int) -> Reply:
    """The reply cut so its completion tokens (reasoning spelled `<think>…</think>`) fit in `room`."""
    thought = len(f"<think>{reply.reasoning}</think>".encode()) if reply.reasoning else 0
    if thought <= room - 1:
        cut = cut_to_bytes(reply, room - thought)
        return (
            cut if cut is reply else Reply(text=cut.text, finish_reason="length", reasoning=reply.reasoning)
        )
    words = reply.reasoning.encode()[: max(room - len(b"<think></think>"), 0)]
    return Reply(reasoning=words.decode("utf-8", errors="ignore"), finish_reason="length")
