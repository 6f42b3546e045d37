"""`repozero fake-llm serve`: the loopback model server with scripted policies, from the command line."""

from __future__ import annotations

import argparse
import signal
import sys
from typing import TYPE_CHECKING, Any

import anyio

from repozero.agents.fakellm import DEFAULT_DATASET, FAULT_KINDS, FakeLLMConfig
from repozero.agents.fakellm.faults import parse_faults
from repozero.commands import add_command, group
from repozero.kernel.errors import UsageError
from repozero.kernel.log import get_logger
from repozero.kernel.runtime import run_async

if TYPE_CHECKING:  # the server (aiohttp) is imported when one is served, not by every CLI start
    from repozero.agents.fakellm import FakeServer

log = get_logger("repozero.fakellm")


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "fake-llm", "a loopback model server playing scripted policies", parent)
    serve = add_command(
        commands,
        "serve",
        "serve OpenAI- and Anthropic-shaped APIs on 127.0.0.1 with a scripted policy",
        parent,
    )
    serve.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    serve.add_argument(
        "--policy", default="gold", help="gold | buggy-then-fix | never | tester | mix:P@GLOB,… | replay:FILE"
    )
    serve.add_argument(
        "--dataset", default=DEFAULT_DATASET, help=f"DIR or builtin:NAME (default {DEFAULT_DATASET})"
    )
    serve.add_argument("--latency-ms", type=float, default=0.0, help="base response delay (default 0)")
    serve.add_argument("--latency-jitter", default="none", help="none | uniform:MS | lognormal:SIGMA")
    serve.add_argument("--fault-rate", type=float, default=0.0, help="share of requests given a fault (0–1)")
    serve.add_argument(
        "--faults", default=",".join(FAULT_KINDS), help="fault kinds to draw from (comma list)"
    )
    serve.add_argument("--seed", type=int, help="seed for latency and fault draws (default: random)")
    serve.add_argument("--hang-s", type=float, default=120.0, help="how long a hang fault holds a request")
    serve.add_argument("--retry-after", type=int, default=1, help="Retry-After seconds sent with 429")
    serve.add_argument(
        "--stream-tokens", type=int, default=16, help="completion tokens per streamed chunk (default 16)"
    )
    serve.add_argument(
        "--stream-interval-ms", type=float, default=0.0, help="pause between streamed events (default 0)"
    )
    serve.add_argument(
        "--enforce-max-tokens", action="store_true", help="cut replies at the request's max_tokens"
    )
    serve.add_argument(
        "--max-model-len",
        type=int,
        help="a context window enforced as vLLM does (400s worded as vLLM's; /v1/models reports it)",
    )
    serve.add_argument(
        "--reasoning",
        choices=("none", "reasoning", "reasoning_content"),
        default="none",
        help="give replies reasoning in this field (vLLM >= 0.11: reasoning); Anthropic: thinking blocks",
    )
    serve.set_defaults(func=_serve)


def _serve(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port: expected 0–65535, got {args.port}")
    config = FakeLLMConfig(
        policy=args.policy,
        dataset=args.dataset,
        latency_ms=args.latency_ms,
        latency_jitter=args.latency_jitter,
        fault_rate=args.fault_rate,
        faults=parse_faults(args.faults),
        seed=args.seed,
        hang_s=args.hang_s,
        retry_after_s=args.retry_after,
        stream_tokens=args.stream_tokens,
        stream_interval_ms=args.stream_interval_ms,
        enforce_max_tokens=args.enforce_max_tokens,
        max_model_len=args.max_model_len,
        reasoning=args.reasoning,
    )
    from repozero.agents.fakellm import FakeServer

    return run_async(_run, FakeServer(config), args.port)


async def _run(server: FakeServer, port: int) -> int:
    with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
        try:
            async with server.running(port) as url:
                print(url, flush=True)
                print(
                    f"scripted policy {server.config.policy!r} on dataset {server.shelf.dataset.name}: "
                    f"OpenAI base URL {url}/v1, Anthropic base URL {url}; Ctrl-C stops",
                    file=sys.stderr,
                    flush=True,
                )
                async for signum in signals:
                    log.info("fake_llm_stopping", signal=signal.Signals(signum).name)
                    break
        except OSError as exc:
            raise UsageError(f"--port {port}: cannot listen on 127.0.0.1: {exc.strerror}") from None
    return 0
