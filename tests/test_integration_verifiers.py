"""verifiers, for real: `load_environment` builds the environment, verifiers' own `vf-eval` runs it against
the loopback server — gold → reward 1.0 on three samples, never → 0.0 on three others (one run), with our
sandbox and grader — an ACE
round brings the visible-case feedback back into the conversation, and no hidden case reaches a message the
agent sees.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero.agents.fakellm import start_fake_server

VF_EVAL = shutil.which("vf-eval")
MISSING = None if VF_EVAL else "vf-eval missing: run scripts/setup.d/61-inspect-verifiers.sh"
needs_verifiers = pytest.mark.skipif(MISSING is not None and not os.environ.get("CI"), reason=str(MISSING))
SAMPLES = ["base58-check", "roman-numerals", "slugify-basic"]
NEVER = ["base58-text", "roman-batch", "slugify-options"]
MIX = "mix:" + ",".join(f"gold@{s}" for s in SAMPLES) + ",never@*"
"""One vf-eval run: the loopback server plays `gold` on SAMPLES and `never` on NEVER (one start-up, not two)."""


def _audit() -> Any:
    """`hidden_leaks` of the inspect test (one audit for both harnesses), loaded by path."""
    spec = importlib.util.spec_from_file_location(
        "repozero_tests_audit", Path(__file__).with_name("test_integration_inspect.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.hidden_leaks


@needs_verifiers
@pytest.mark.slow
def test_load_environment_selects_samples_and_refuses_a_missing_split() -> None:
    from repozero.integrations.verifiers_env import RepoZeroEnv, load_environment

    env = load_environment(dataset="builtin:py2js-lite", samples="roman-*", ace_rounds=2)
    assert isinstance(env, RepoZeroEnv)
    tasks = list(env.taskset)
    assert [t.data.id for t in tasks] == ["roman-batch", "roman-numerals"]
    assert all(t.data.ace_rounds == 2 and t.data.prompt.startswith("<!-- repozero: sample=") for t in tasks)
    with pytest.raises(Exception, match="split 'dev'"):
        list(load_environment(dataset="builtin:py2js-lite", split="dev").taskset)


async def _vf_eval(url: str, out: Path, model: str, *args: str) -> list[dict[str, Any]]:
    await anyio.run_process(
        [str(VF_EVAL), "repozero_verifiers", "-m", model, "--client.base-url", f"{url}/v1",
         "--client.api-key-var", "REPOZERO_NO_KEY", "--no-push", "-o", str(out), *args],
        check=True,
    )  # fmt: skip
    files = [path async for path in anyio.Path(out).rglob("traces.jsonl")]
    return [json.loads(line) for path in files for line in (await path.read_text()).splitlines()]


def _texts(episodes: list[dict[str, Any]]) -> list[str]:
    out = []
    for episode in episodes:
        data = episode["task"]["data"]
        out += [data["prompt"], data["system_prompt"]]
        for node in episode["traces"][0]["nodes"]:
            content = node.get("message", {}).get("content")
            out.append(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
    return out


@needs_verifiers
@pytest.mark.slow
@pytest.mark.anyio
async def test_vf_eval_gold_one_never_zero_and_no_hidden_case_shown(tmp_path: Path) -> None:
    args = ["--select.include.ids", *SAMPLES, *NEVER, "--env.taskset.ace-rounds", "1"]
    with anyio.fail_after(240):
        async with start_fake_server(MIX, "builtin:py2js-lite") as url:
            episodes = await _vf_eval(url, tmp_path / "out", "fake-mix", *args)
    assert sorted(e["task"]["data"]["id"] for e in episodes) == sorted(SAMPLES + NEVER)
    for episode in episodes:
        assert episode["ok"], episode["errors"]
        trace, gold = episode["traces"][0], episode["task"]["data"]["id"] in SAMPLES
        assert trace["rewards"]["passed"]["score"] == (1.0 if gold else 0.0)
        assert trace["info"]["repozero_grade"]["passed"] is gold
        assert (trace["metrics"]["success_rate"] == 1.0) is gold
    assert _audit()("builtin:py2js-lite", SAMPLES + NEVER, _texts(episodes)) == []


REPLAY = [
    {"role": "coder", "step": 0, "tool_calls": [{"name": "execute_bash", "arguments": {
        "command": "echo 'console.log(\"wrong\")' > roman_numerals.mjs"}}]},
    {"role": "coder", "step": 1, "tool_calls": [{"name": "finish", "arguments": {"message": "done"}}]},
    {"role": "coder", "step": 2, "tool_calls": [{"name": "execute_bash", "arguments": {"command": "ls"}}]},
    {"role": "coder", "step": 3, "tool_calls": [{"name": "finish", "arguments": {"message": "again"}}]},
]  # fmt: skip


@needs_verifiers
@pytest.mark.slow
@pytest.mark.anyio
async def test_an_ace_round_feeds_failing_visible_cases_back(tmp_path: Path) -> None:
    """A coder that writes a wrong entry point and finishes gets our feedback (its marker, the failing
    whitebox cases) as the next user message when a round is left, and is done at once when none is."""
    book = tmp_path / "replay.jsonl"
    book.write_text("\n".join(json.dumps(line) for line in REPLAY) + "\n")
    ids = ["--select.include.ids", "roman-numerals"]
    with anyio.fail_after(180):
        runs: dict[str, dict[str, Any]] = {}

        async def run(rounds: str) -> None:
            out = tmp_path / f"rounds-{rounds}"
            [runs[rounds]] = await _vf_eval(url, out, "fake-replay", *ids, "--env.taskset.ace-rounds", rounds)

        async with (
            start_fake_server(f"replay:{book}", "builtin:py2js-lite") as url,
            anyio.create_task_group() as tg,
        ):
            tg.start_soon(run, "1")
            tg.start_soon(run, "0")
    one, none = runs["1"], runs["0"]

    def users(episode: dict[str, Any]) -> list[str]:
        messages = [node.get("message", {}) for node in episode["traces"][0]["nodes"]]
        return [m["content"] for m in messages if m.get("role") == "user"]

    assert len(one["traces"][0]["calls"]) == 4 and len(none["traces"][0]["calls"]) == 2
    assert users(one)[1].startswith("<!-- repozero: feedback failing=4 -->")
    assert len(users(none)) == 1
    assert one["traces"][0]["rewards"]["passed"]["score"] == 0.0
