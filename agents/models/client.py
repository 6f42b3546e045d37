"""One endpoint's client: replica choice, adaptive concurrency, retries, accounting — over any codec.

`EndpointClient.complete` is shared by every session of the endpoint; `ModelSession` is one agent
session's `Model`: it sticks to one replica (prefix-cache affinity) and keeps the episode's totals.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Sequence
from typing import Literal

import anyio
import httpx
import msgspec
from msgspec import UNSET

from repozero.agents.config import EndpointConfig, SamplingParams
from repozero.agents.models.account import CallAccount
from repozero.agents.models.adaptive import AdaptiveLimiter
from repozero.agents.models.anthropic import AnthropicCodec
from repozero.agents.models.budget import MAX_REFITS, TokenBudget, TokenLimit, explain_overflow, read_limit
from repozero.agents.models.codec import BadResponse, Codec, Parsed, StreamBroken
from repozero.agents.models.completions import CompletionsCodec
from repozero.agents.models.endpoint_settings import api_key, check_endpoint, with_env_headers
from repozero.agents.models.errors import ModelConfigError, ModelRequestError, ModelUnavailableError
from repozero.agents.models.http import HttpPool, HttpReply, transport_errors
from repozero.agents.models.openai import OpenAICodec
from repozero.agents.models.pricing import Ledger, cost_of, price_on
from repozero.agents.models.prompt_ids import PromptIds, with_prompt_ids
from repozero.agents.models.records import (
    Choice,
    Message,
    ModelResponse,
    ToolSpec,
    Totals,
    Usage,
    Wait,
)
from repozero.agents.models.replicas import Replica, ReplicaSet
from repozero.agents.models.retry import backoff_s, classify, error_detail, retry_after_s
from repozero.agents.models.streaming import Streamed, fetch_stream
from repozero.agents.models.tokens import TokenConversation
from repozero.kernel.log import get_logger

__all__ = ["EndpointClient", "ModelSession"]

log = get_logger(__name__)
_encode = msgspec.json.Encoder().encode
_NO_RESPONSE = (httpx.RequestError, OSError)
"""No answer came (aiohttp's `ClientError` joins these through `transport_errors`)."""


class _Failure(msgspec.Struct):
    kind: Literal["rate_limit", "server", "connection", "timeout"]
    detail: str
    status: int | None = None
    retry_after: float | None = None


class _TooMany(msgspec.Struct):
    """The server cannot hold the `max_tokens` asked for, though the prompt may fit."""

    limit: TokenLimit
    detail: str


class EndpointClient:
    """Calls to one configured endpoint, from any number of sessions at once."""

    def __init__(self, name: str, config: EndpointConfig, pool: HttpPool) -> None:
        check_endpoint(name, config)
        config = with_env_headers(name, config)
        self.name, self.config, self.pool = name, config, pool
        key = api_key(name, config)
        self.codec: Codec = (
            AnthropicCodec(config, key)
            if config.api == "anthropic"
            else CompletionsCodec(name, config, key)
            if config.prompt_format == "tokens"
            else OpenAICodec(config, key)
        )
        self.replicas = ReplicaSet(
            name, config.base_urls, self.codec.path, config.eject_after_failures, config.eject_s
        )
        self.limiter = AdaptiveLimiter(
            name,
            config.start_connections,
            config.min_connections,
            config.max_connections,
            config.adaptive_connections,
        )
        self.ledger = Ledger()
        self.budget = TokenBudget(name)
        extra = {**config.extra_body, **(config.params.extra_body or {})}
        self._defaults = msgspec.structs.replace(config.params, extra_body=extra)

    def session(self, session_id: str | None = None) -> ModelSession:
        """A `Model` for one agent session (calls stick to one replica); the id defaults to a fresh one."""
        return ModelSession(self, session_id or uuid.uuid4().hex)

    def totals(self) -> Totals:
        return self.ledger.totals()

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
        *,
        session: str | None = None,
        replica: Replica | None = None,
        ledger: Ledger | None = None,
        used: int = 0,
        prompt_ids: list[int] | None = None,
        memo: PromptIds | None = None,
    ) -> ModelResponse:
        """One call with retries; `replica` pins it (the endpoint check), else the session picks.

        `used`: tokens the conversation held after its previous call, so an unset `max_tokens` leaves
        room for the prompt on a server whose context is known (see budget.py). `prompt_ids`: a token
        session's prompt, sent as it is (`prompt_format = "tokens"`). `memo`: the session's last prompt ids,
        against which the server's are read (prompt_ids.py).
        """
        resolved = params.over(self._defaults) if params else self._defaults
        explicit = resolved.max_tokens is not UNSET
        if explicit:
            self._check_max_tokens(int(resolved.max_tokens), ledger)  # type: ignore[arg-type]
        else:
            resolved = msgspec.structs.replace(resolved, max_tokens=self.budget.default(used))
        body, sent = self._build(messages, tools, resolved, prompt_ids)
        payload = _encode(body)
        call = CallAccount()
        failures = refits = 0
        while True:
            target = replica or self.replicas.pick(session)
            try:
                outcome = await self._attempt(target, payload, call, memo)
                if isinstance(outcome, _TooMany):
                    fitted = self._refit(outcome, resolved, explicit, refits)
                    if isinstance(fitted, int):
                        refits += 1
                        resolved = msgspec.structs.replace(resolved, max_tokens=fitted)
                        body, sent = self._build(messages, tools, resolved, prompt_ids)
                        payload = _encode(body)
                        continue
                    outcome = fitted
            except ModelRequestError:
                self._count_failure(call, failures + refits, ledger)
                raise
            if isinstance(outcome, _Failure):
                failures += 1
                if failures > self.config.max_retries:
                    self._count_failure(call, failures - 1 + refits, ledger)
                    raise ModelUnavailableError(self.name, failures, _describe(outcome))
                await self._wait(failures, outcome, target, call)
                continue
            response = self._response(outcome, target, call, failures + refits, sent)
            self.ledger.add(response)
            if ledger is not None:
                ledger.add(response)
            return response

    def _build(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec],
        params: SamplingParams,
        ids: list[int] | None,
    ) -> tuple[dict, dict]:
        if ids is not None and isinstance(self.codec, CompletionsCodec):
            return self.codec.build_ids(ids, params)
        return self.codec.build(messages, tools, params)

    def _check_max_tokens(self, configured: int, ledger: Ledger | None) -> None:
        try:
            self.budget.check(configured)
        except ModelConfigError:
            self._count_failure(CallAccount(), 0, ledger)
            raise

    def _refit(self, too_many: _TooMany, params: SamplingParams, explicit: bool, refits: int) -> int | Parsed:
        """A smaller `max_tokens` to retry with, or the context-length outcome; raises `ModelConfigError`
        when the configured `max_tokens` can never fit."""
        sent = int(params.max_tokens)  # type: ignore[arg-type]
        fitted = self.budget.refit(too_many.limit, sent, explicit)
        if fitted is None or refits >= MAX_REFITS:
            limit = too_many.limit
            why = explain_overflow(self.name, limit, sent) if explicit and limit.prompt is not None else ""
            return _context_parsed(f"{why}: {too_many.detail}" if why else too_many.detail)
        log.info(
            "model_max_tokens_refit",
            endpoint=self.name,
            max_tokens=sent,
            refit=fitted,
            max_model_len=too_many.limit.context,
        )
        return fitted

    async def _attempt(
        self, replica: Replica, payload: bytes, call: CallAccount, memo: PromptIds | None = None
    ) -> Parsed | _Failure | _TooMany:
        queued = time.monotonic()
        async with self.limiter.slot():
            began = time.monotonic()
            call.queue_s += began - queued
            try:
                reply = await self._send(replica, payload)
                if isinstance(reply, Streamed):
                    reply = msgspec.structs.replace(reply, parsed=with_prompt_ids(reply.parsed, memo))
            except transport_errors(*_NO_RESPONSE) as exc:
                return self._no_response(replica, exc)
            except StreamBroken as exc:
                self.replicas.failed(replica, f"stream_{exc.kind}")
                return _Failure(kind=exc.kind, detail=exc.detail)
            except BadResponse as exc:  # an event that cannot be read
                self.replicas.failed(replica, "bad_response")
                return _Failure(kind="server", detail=str(exc))
            finally:
                call.latency_s = time.monotonic() - began
                call.request_s += call.latency_s
        if isinstance(reply, Streamed):
            call.streamed = reply
            return self._accepted(replica, reply.parsed, call)
        call.streamed = None
        return self._judge(replica, reply, call, memo)

    async def _send(self, replica: Replica, payload: bytes) -> HttpReply | Streamed:
        if self.config.stream:
            return await fetch_stream(self.pool, replica.target, payload, self.codec, self.config)
        return await self.pool.post(
            replica.target,
            payload,
            self.codec.headers,
            self.config.connect_timeout_s,
            min(self.config.request_timeout_s, self.config.call_timeout_s),
        )

    def _accepted(self, replica: Replica, parsed: Parsed, call: CallAccount) -> Parsed:
        self.replicas.succeeded(replica)
        if not call.rate_limited:
            self.limiter.succeeded()
        return parsed

    def _no_response(self, replica: Replica, exc: BaseException) -> _Failure:
        """A dropped connection or a read timeout (told apart by the aiohttp error under httpx's)."""
        cause = exc.__cause__ or exc
        kind: Literal["connection", "timeout"] = (
            "timeout" if isinstance(cause, TimeoutError | httpx.TimeoutException) else "connection"
        )
        self.replicas.failed(replica, kind)
        return _Failure(kind=kind, detail=f"{type(cause).__name__}: {cause}".strip(": "))

    def _judge(
        self, replica: Replica, reply: HttpReply, call: CallAccount, memo: PromptIds | None = None
    ) -> Parsed | _Failure | _TooMany:
        verdict = classify(reply)
        if verdict == "ok":
            try:
                parsed = with_prompt_ids(self.codec.parse(reply.body), memo)
            except BadResponse as exc:
                self.replicas.failed(replica, "bad_response")
                return _Failure(kind="server", detail=str(exc), status=reply.status)
            return self._accepted(replica, parsed, call)
        detail = error_detail(reply.body)
        if verdict == "context_length":
            self.replicas.succeeded(replica)
            return _context_parsed(detail)
        if verdict == "max_tokens" and (limit := read_limit(detail)) is not None:
            self.replicas.succeeded(replica)
            return _TooMany(limit=limit, detail=detail)
        if verdict == "refused":
            raise ModelRequestError(self.name, reply.status, f"{detail} (POST {replica.target})")
        if verdict == "rate_limit":
            call.rate_limited = True
            self.limiter.rate_limited()
            return _Failure(
                kind="rate_limit", detail=detail, status=reply.status, retry_after=retry_after_s(reply)
            )
        self.replicas.failed(replica, f"http_{reply.status}")
        return _Failure(kind="server", detail=detail, status=reply.status, retry_after=retry_after_s(reply))

    async def _wait(self, attempt: int, failure: _Failure, replica: Replica, call: CallAccount) -> None:
        seconds = backoff_s(
            attempt, self.config.retry_initial_s, self.config.retry_max_s, failure.retry_after
        )
        call.waits.append(
            Wait(
                attempt=attempt,
                kind=failure.kind,
                seconds=seconds,
                error=_describe(failure),
                status=failure.status,
                retry_after_s=failure.retry_after,
                replica=replica.url,
            )
        )
        log.warning(
            "model_retry",
            endpoint=self.name,
            replica=replica.url,
            attempt=attempt,
            kind=failure.kind,
            status=failure.status,
            wait_s=round(seconds, 3),
        )
        began = time.monotonic()
        await anyio.sleep(seconds)
        call.retry_wait_s += time.monotonic() - began

    def _response(
        self, parsed: Parsed, replica: Replica, call: CallAccount, retries: int, sent: dict
    ) -> ModelResponse:
        priced = price_on(self.config.prices, dt.datetime.now(dt.UTC).date())
        completion_ids = all(c.completion_token_ids is not None for c in parsed.choices)
        fidelity: Literal["exact", "completion_only", "none"] = (
            "none"
            if not completion_ids
            else "exact"
            if parsed.prompt_token_ids is not None
            else "completion_only"
        )
        return ModelResponse(
            choices=parsed.choices,
            usage=parsed.usage,
            cost_usd=cost_of(parsed.usage, priced[1]) if priced else 0.0,
            price_date=priced[0] if priced else None,
            timings=call.timings(parsed.usage.completion_tokens),
            retries=retries,
            waits=call.waits,
            prompt_token_ids=parsed.prompt_token_ids,
            token_fidelity=fidelity,
            endpoint=self.name,
            replica=replica.url,
            model=parsed.model or self.config.model,
            request_id=parsed.request_id,
            params=sent,
            error=parsed.error,
            reasoning_history=self.config.reasoning_history,
        )

    def _count_failure(self, call: CallAccount, retries: int, ledger: Ledger | None) -> None:
        for book in (self.ledger, ledger):
            if book is not None:
                book.add_failure(retries, call.queue_s, call.retry_wait_s, call.request_s)


class ModelSession:
    """One agent session's `Model`: sticky replica, episode totals."""

    def __init__(self, client: EndpointClient, session_id: str) -> None:
        self.client = client
        self.session_id = session_id
        self.ledger = Ledger()
        self.used = 0
        """Tokens the conversation held after the last call: its next prompt is at least this long."""
        codec = client.codec
        self.tokens = TokenConversation(codec) if isinstance(codec, CompletionsCodec) else None
        self.prompt_ids = PromptIds()

    async def complete(
        self,
        messages: Sequence[Message],
        tools: Sequence[ToolSpec] = (),
        params: SamplingParams | None = None,
    ) -> ModelResponse:
        ids = await self.tokens.next_prompt(messages, tools) if self.tokens is not None else None
        response = await self.client.complete(
            messages,
            tools,
            params,
            session=self.session_id,
            ledger=self.ledger,
            used=self.used,
            prompt_ids=ids,
            memo=self.prompt_ids,
        )
        if self.tokens is not None:
            self.tokens.record(messages, tools, response)
        usage = response.usage
        self.used = usage.prompt_tokens + usage.completion_tokens // max(1, len(response.choices))
        return response

    def totals(self) -> Totals:
        """This episode's calls so far."""
        return self.ledger.totals()


def _context_parsed(detail: str) -> Parsed:
    """The context-length outcome: an empty answer with finish reason `context_length`."""
    choice = Choice(message=Message(role="assistant"), finish_reason="context_length")
    return Parsed(choices=[choice], usage=Usage(), error=detail)


def _describe(failure: _Failure) -> str:
    status = f"HTTP {failure.status} " if failure.status is not None else ""
    return f"{failure.kind} {status}{failure.detail}".strip()
