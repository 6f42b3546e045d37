"""`repozero fake-llm serve` as a real process: prints its URL, serves, stops cleanly on SIGINT/SIGTERM."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import anyio
import httpx
import pytest
from anyio.abc import Process

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
SERVE = [sys.executable, "-m", "repozero", "fake-llm", "serve", "--dataset", str(FIXTURE)]


async def read_url(process: Process) -> str:
    assert process.stdout is not None
    data = b""
    while not data.endswith(b"\n"):
        chunk = await process.stdout.receive(1)
        assert chunk, "the server exited before printing its URL"
        data += chunk
    return data.decode().strip()


@pytest.mark.anyio
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
async def test_serve_prints_the_url_answers_and_stops_on_signal(signum: signal.Signals) -> None:
    with anyio.fail_after(30):
        flags = ["--policy", "never", "--seed", "1", "--max-model-len", "4096", "--reasoning", "reasoning"]
        async with await anyio.open_process([*SERVE, *flags]) as process:
            url = await read_url(process)
            assert url.startswith("http://127.0.0.1:")
            async with httpx.AsyncClient(base_url=url) as client:
                health = (await client.get("/health")).json()
                models = (await client.get("/v1/models")).json()
                body = {"messages": [{"role": "user", "content": "<!-- repozero: sample=fx-slug -->"}]}
                answer = (await client.post("/chat/completions", json=body)).json()
            assert health["policy"] == "never" and health["dataset"] == "fakellm-fixture"
            assert (models["data"][0]["id"], models["data"][0]["max_model_len"]) == ("fake:never", 4096)
            assert "pwd && ls -la" in answer["choices"][0]["message"]["content"]
            assert answer["choices"][0]["message"]["reasoning"].startswith("Turn 1:")
            process.send_signal(signum)
            assert await process.wait() == 0


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--fault-rate", "2"], "--fault-rate"),
        (["--faults", "429,teapot"], "--faults: unknown fault kind 'teapot'"),
        (["--policy", "sometimes"], "unknown fake-model policy 'sometimes'"),
        (["--policy", "replay:/nonexistent/replay.jsonl"], "/nonexistent/replay.jsonl"),
        (["--latency-jitter", "gauss:3"], "--latency-jitter"),
        (["--dataset", "/nonexistent"], "/nonexistent: not a dataset folder"),
        (["--max-model-len", "0"], "--max-model-len: expected a positive integer"),
        (["--reasoning", "thoughts"], "--reasoning: invalid choice"),
        (["--stream-tokens", "0"], "--stream-tokens: expected a positive integer"),
        (["--stream-interval-ms", "-1"], "--stream-interval-ms: expected a non-negative number"),
    ],
)
def test_bad_input_exits_2_naming_the_flag_or_file(flags: list[str], message: str) -> None:
    done = subprocess.run([*SERVE, *flags], capture_output=True, text=True, timeout=30)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr


@pytest.mark.anyio
async def test_a_busy_port_is_a_usage_error() -> None:
    with anyio.fail_after(30):
        async with await anyio.open_process(SERVE) as first:
            port = (await read_url(first)).rsplit(":", 1)[1]
            second = await anyio.run_process([*SERVE, "--port", port], check=False)
            first.send_signal(signal.SIGTERM)
            await first.wait()
    assert second.returncode == 2
    assert f"--port {port}: cannot listen" in second.stderr.decode()
