"""Token-in/token-out over vLLM's completions API: a token prompt out, text, ids and logprobs back.

With `prompt_format = "tokens"` an endpoint's calls go to `{base_url}/completions` with `prompt` as a
list of token ids (`TokenConversation` builds them) and `return_token_ids`, so the prompt the model saw
is exactly the ids we sent and the trajectory is exact by construction: no chat template re-tokenises
an earlier reply. The answer is text; tool calls are not parsed out of it (that needs the model's tool
parser), so token mode serves text scaffolds (`bash`). Streamed as vLLM streams completions (`stream`,
the default): each chunk's `text`, `token_ids` and logprobs appended in order, `prompt_token_ids` from
the first chunk, usage from the last.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import msgspec

from repozero.agents.config import EndpointConfig
from repozero.agents.models.codec import Assembler, BadResponse, Parsed, StreamBroken, unset_or
from repozero.agents.models.openai import _FINISH, _THINK, OpenAICodec, WireUsage, _usage
from repozero.agents.models.records import Choice, Message, SamplingParams, ToolSpec
from repozero.agents.models.sse import decode_events
from repozero.agents.models.template import ChatTemplate
from repozero.kernel.errors import ConfigError

__all__ = ["CompletionsCodec"]


class _Logprobs(msgspec.Struct):
    token_logprobs: list[float | None] = []


class _Choice(msgspec.Struct):
    index: int = 0
    text: str = ""
    finish_reason: str | None = None
    logprobs: _Logprobs | None = None
    token_ids: list[int] | None = None
    prompt_token_ids: list[int] | None = None


class _Completion(msgspec.Struct):
    id: str = ""
    object: str = ""
    model: str = ""
    choices: list[_Choice] = []
    usage: WireUsage | None = None
    error: Any = None
    """A server error mid-stream (then `[DONE]`)."""


_decoder = msgspec.json.Decoder(_Completion)
_batch = msgspec.json.Decoder(list[_Completion])


class CompletionsCodec(OpenAICodec):
    """Completions at `{base_url}/completions`, with a token prompt; sampling parameters as for chat."""

    path = "completions"

    def __init__(self, name: str, config: EndpointConfig, api_key: str | None) -> None:
        super().__init__(config, api_key)
        where = f"endpoints.{name}.tokenizer"
        if not config.tokenizer:
            raise ConfigError(
                f"{where}: prompt_format = 'tokens' needs the model's tokenizer folder (a local path)"
            )
        if not (Path(config.tokenizer) / "tokenizer_config.json").is_file():
            raise ConfigError(
                f"{where}: {config.tokenizer!r} is not a tokenizer folder (no tokenizer_config.json)"
            )
        self.name = name
        self._template: ChatTemplate | None = None
        self._loading = anyio.Lock()

    async def template(self) -> ChatTemplate:
        """The model's chat template and tokenizer, loaded once (in a worker thread: it takes seconds)."""
        async with self._loading:
            if self._template is None:
                self._template = await anyio.to_thread.run_sync(ChatTemplate.load, self.config.tokenizer)
        return self._template

    def build(
        self, messages: Sequence[Message], tools: Sequence[ToolSpec], params: SamplingParams
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """A lone call (the endpoint check): the messages rendered whole. A token session sends its own
        ids (`build_ids`); loading the template here blocks the loop once, which only a lone call may."""
        template = self._template or ChatTemplate.load(self.config.tokenizer)
        return self.build_ids(template.prompt_ids(messages, tools), params)

    def build_ids(
        self, prompt_ids: list[int], params: SamplingParams
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The request body for a token prompt, and what it sent besides the prompt (recorded)."""
        sent = self._sampling(params)
        if "max_completion_tokens" in sent:  # the completions API knows only max_tokens
            sent["max_tokens"] = sent.pop("max_completion_tokens")
        extra = dict(unset_or(params.extra_body, {}))
        top = extra.pop("top_logprobs", 0)
        if extra.get("logprobs") is not None and not isinstance(extra["logprobs"], int | float):
            extra["logprobs"] = int(top or 0) if extra["logprobs"] else None  # chat's bool is an int here
        extra["return_token_ids"] = True
        if extra.get("logprobs") is None:
            extra.pop("logprobs", None)
        body: dict[str, Any] = {"model": self.config.model, "prompt": prompt_ids, **sent, **extra}
        if self.config.stream:  # usage comes in a last chunk of its own, only when asked for
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return body, {**sent, **extra}

    def parse(self, body: bytes) -> Parsed:
        try:
            data = _decoder.decode(body)
        except msgspec.DecodeError as exc:
            raise BadResponse(f"unreadable completion: {exc}") from None
        return self.parsed(data)

    def parsed(self, data: _Completion) -> Parsed:  # type: ignore[override]  # the completions shape
        if not data.choices:
            raise BadResponse("completion without choices")
        return Parsed(
            choices=[self._text_choice(c) for c in data.choices],
            usage=_usage(data.usage),
            model=data.model,
            request_id=data.id,
            prompt_token_ids=data.choices[0].prompt_token_ids,
        )

    def _text_choice(self, c: _Choice) -> Choice:
        content, reasoning = c.text, None
        if self.config.split_think_tags and (found := _THINK.match(content)):
            reasoning, content = found.group(1).strip(), content[found.end() :]
        logprobs = c.logprobs.token_logprobs if c.logprobs is not None else None
        return Choice(
            message=Message(role="assistant", content=content, reasoning=reasoning),
            finish_reason=_FINISH.get(c.finish_reason or "", "other"),
            completion_token_ids=c.token_ids,
            logprobs=[lp if lp is not None else float("nan") for lp in logprobs]
            if logprobs is not None
            else None,
        )

    def assembler(self) -> Assembler:
        return _CompletionsStream(self)


class _CompletionsStream:
    """A streamed completion assembled into the one a whole response would be: texts, ids and logprobs
    of the chunks in order (every generated token is in exactly one chunk)."""

    def __init__(self, codec: CompletionsCodec) -> None:
        self.codec, self.done = codec, False
        self.whole = _Completion()
        self.choice = _Choice(logprobs=_Logprobs())
        self.texts: list[str] = []

    def feed(self, events: list[bytes]) -> tuple[int, int] | None:
        if self.done:
            return None
        if b"[DONE]" in events:
            events, self.done = events[: events.index(b"[DONE]")], True
        first = last = -1
        chunks = decode_events(events, _decoder, _batch, "chunk of a streamed completion") if events else []
        for i, chunk in enumerate(chunks):
            if self._take(chunk):
                first, last = (i if first < 0 else first), i
        return None if first < 0 else (first, last)

    def _take(self, chunk: _Completion) -> bool:
        if chunk.error is not None or chunk.object == "error":
            raise StreamBroken("server", f"error event mid-stream: {str(chunk.error)[:500]}")
        whole, mine = self.whole, self.choice
        whole.id, whole.model = whole.id or chunk.id, whole.model or chunk.model
        whole.usage = chunk.usage or whole.usage
        carried = False
        for c in chunk.choices:
            if c.index != 0:
                raise BadResponse("a streamed completion with more than one choice (n > 1)")
            mine.prompt_token_ids = c.prompt_token_ids or mine.prompt_token_ids
            mine.finish_reason = c.finish_reason or mine.finish_reason
            self.texts.append(c.text)
            if c.token_ids:
                mine.token_ids = (mine.token_ids or []) + c.token_ids
                carried = True
            if c.logprobs is not None and mine.logprobs is not None:
                mine.logprobs.token_logprobs += c.logprobs.token_logprobs
            elif c.token_ids or c.text:
                mine.logprobs = None  # a chunk without logprobs: the answer has none
        return carried or bool(chunk.choices and any(c.text for c in chunk.choices))

    def result(self) -> Parsed:
        mine = self.choice
        mine.text = "".join(self.texts)
        if mine.logprobs is not None and mine.token_ids is not None:
            if len(mine.logprobs.token_logprobs) != len(mine.token_ids):
                raise BadResponse("a streamed completion whose ids and logprobs differ in length")
        if not self.texts and mine.finish_reason is None:
            raise BadResponse("a streamed completion without choices")
        return self.codec.parsed(msgspec.structs.replace(self.whole, choices=[mine]))
