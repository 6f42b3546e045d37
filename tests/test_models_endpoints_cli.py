"""`repozero endpoints check` against loopback replicas: one probe each, what came back, exit status."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero.agents.models.check import check_endpoints
from repozero.kernel.errors import UsageError


def _load_loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


lb = _load_loopback()


def _config(tmp_path: Path, vllm_urls: list[str], claude_url: str) -> Path:
    path = tmp_path / "endpoints.toml"
    path.write_text(
        "[endpoints.local]\n"
        'flavor = "vllm"\n'
        f"base_urls = {json.dumps(vllm_urls)}\n"
        'model = "qwen"\n'
        "extra_body = {return_token_ids = true, logprobs = true}\n"
        "[endpoints.claude]\n"
        'api = "anthropic"\n'
        f'base_urls = ["{claude_url}"]\n'
        'model = "claude-x"\n'
        'api_key_env = "RZ_TEST_CLAUDE_KEY"\n'
    )
    return path


@pytest.mark.anyio
async def test_check_reports_every_replica_and_fails_on_a_dead_one(tmp_path: Path) -> None:
    answer = lb.Answer(
        content="OK", prompt_token_ids=[1, 2], token_ids=[3], logprobs=[-0.1], model="qwen-served"
    )
    dead = f"http://127.0.0.1:{lb.free_port()}/v1"
    with anyio.fail_after(60):
        async with lb.serve(answer) as vllm, lb.serve(lb.Answer(content="OK", model="claude-x-1")) as claude:
            config = _config(tmp_path, [vllm.url + "/v1", dead], claude.url)
            env = {**os.environ, "RZ_TEST_CLAUDE_KEY": "k-123"}
            argv = [sys.executable, "-m", "repozero", "--config", str(config), "endpoints", "check", "--json"]
            done = await anyio.run_process(argv, env=env, check=False)
            only = await anyio.run_process([*argv[:-1], "claude", "--json"], env=env, check=False)
    rows = {(r["endpoint"], r["replica"]): r for r in json.loads(done.stdout)}
    assert done.returncode == 1, done.stderr.decode()
    live = rows[("local", vllm.url + "/v1")]
    assert (live["ok"], live["model"], live["token_ids"], live["prompt_token_ids"], live["logprobs"]) == (
        True,
        "qwen-served",
        True,
        True,
        True,
    )
    assert live["reply"] == "OK" and live["latency_s"] > 0
    down = rows[("local", dead)]
    assert not down["ok"] and "connection" in down["error"]
    hosted = rows[("claude", claude.url)]
    assert (hosted["ok"], hosted["model"], hosted["token_ids"], hosted["logprobs"]) == (
        True,
        "claude-x-1",
        False,
        False,
    )
    assert [s.body["max_tokens"] for s in vllm.seen] == [16]  # one tiny request, no retries
    assert claude.seen[0].headers["x-api-key"] == "k-123"
    assert only.returncode == 0 and [r["endpoint"] for r in json.loads(only.stdout)] == ["claude"]


@pytest.mark.anyio
async def test_check_of_an_unknown_endpoint_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="unknown endpoint 'nope'"):
        await check_endpoints({"a": lb.endpoint("http://127.0.0.1:9/v1")}, "nope")
