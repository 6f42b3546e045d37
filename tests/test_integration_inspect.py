"""inspect-ai, for real: `inspect eval repozero/repozero` (found by our entry point) in the `repozero` sandbox
against the loopback server, gold → 1.0 on three samples and never → 0.0 on three others (one run), read
back with `inspect log dump`; and no hidden case reaches a message the agent sees.

inspect-ai lives in its own virtual environment (scripts/setup.d/61-inspect-verifiers.sh), so it runs as a
command, as a user runs it.
"""

from __future__ import annotations

import json
import os
import shlex
from pathlib import Path
from typing import Any

import anyio
import pytest

from repozero import load_dataset
from repozero.agents.fakellm import start_fake_server
from repozero.agents.roles import ShownCase, render_cases

DATA = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
VENV = Path(os.environ.get("REPOZERO_INSPECT_VENV") or DATA / "repozero" / "venvs" / "inspect-ai")
INSPECT = VENV / "bin" / "inspect"
SAMPLES = ["base58-check", "roman-numerals", "slugify-basic"]
NEVER = ["base58-text", "roman-batch", "slugify-options"]
MIX = "mix:" + ",".join(f"gold@{s}" for s in SAMPLES) + ",never@*"
"""One inspect run: the loopback server plays `gold` on SAMPLES and `never` on NEVER (one start-up, not two)."""
MISSING = None if INSPECT.exists() else f"{INSPECT} missing: run scripts/setup.d/61-inspect-verifiers.sh"
needs_inspect = pytest.mark.skipif(MISSING is not None and not os.environ.get("CI"), reason=str(MISSING))


def _forms(case: Any, entry: list[str]) -> set[str]:
    """The shapes a prompt would show a case in: the task text's JSON argv and command line, its stdin and
    expected stdout as JSON strings, and the raw stdout when it is long enough to be its own (short ones such
    as `1` are everywhere)."""
    out = (case.expected_stdout or b"").decode("utf-8", "replace")
    stdin = (case.stdin or b"").decode("utf-8", "replace")
    # a command line counts where a line ends with it (`node x.mjs --mode decode` also begins longer commands)
    command = shlex.join([*entry, *case.argv]) + "\n"
    forms = {json.dumps(case.argv, ensure_ascii=False), command} if case.argv else set()
    forms |= {json.dumps(text, ensure_ascii=False) for text in (out, stdin) if len(text) >= 12}
    return forms | ({out} if len(out) >= 40 else set())


def hidden_leaks(dataset_name: str, sample_ids: list[str], texts: list[str]) -> list[str]:
    """Each hidden case with a form (`_forms`) in `texts` (what an agent saw), one line each. A form a
    whitebox case shares (another case with the same output) is the whitebox case's, not a leak."""
    dataset = load_dataset(dataset_name)
    seen = "\n".join(texts)
    leaks = []
    for sample_id in sample_ids:
        sample = dataset.sample(sample_id)
        entry = sample.target.entry
        shown = set().union(*(_forms(c, entry) for c in sample.cases if c.visibility != "hidden"))
        for case in sample.cases:
            if case.visibility == "hidden":
                found = [f for f in _forms(case, entry) - shown if f in seen]
                leaks += [f"{sample_id}/{case.id}: {form[:60]!r}" for form in sorted(found)]
    return leaks


def test_the_audit_finds_every_hidden_case_shown() -> None:
    """The audit below is not vacuous: each hidden case, rendered as the task text renders cases, is found."""
    dataset = load_dataset("builtin:py2js-lite")
    for sample_id in SAMPLES:
        sample = dataset.sample(sample_id)
        hidden = [c for c in sample.cases if c.visibility == "hidden"]
        shown = [
            ShownCase(argv=c.argv, stdin=c.stdin, expected_stdout=c.expected_stdout or b"") for c in hidden
        ]
        leaks = hidden_leaks("builtin:py2js-lite", [sample_id], [render_cases(shown, sample.target.entry)])
        whitebox = set().union(*(_forms(c, sample.target.entry) for c in sample.whitebox))
        findable = {f"{sample_id}/{c.id}" for c in hidden if _forms(c, sample.target.entry) - whitebox}
        assert (
            len(findable) > len(hidden) * 0.8
        )  # only a case with no argv and a short stdout and output is not
        assert {line.split(":")[0] for line in leaks} == findable
        assert (
            hidden_leaks("builtin:py2js-lite", [sample_id], [render_cases(shown[:0], sample.target.entry)])
            == []
        )


async def _eval(logs: Path) -> dict[str, Any]:
    async with start_fake_server(MIX, "builtin:py2js-lite") as url:
        env = {**os.environ, "OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "unused"}
        await anyio.run_process(
            [str(INSPECT), "eval", "repozero/repozero", "--sample-id", ",".join(SAMPLES + NEVER),
             "--model", "openai/fake-mix", "-M", "responses_api=false",
             "--log-dir", str(logs), "--display", "none"],
            env=env, check=True,
        )  # fmt: skip
    [log] = [path async for path in anyio.Path(logs).glob("*.eval")]
    dump = await anyio.run_process([str(INSPECT), "log", "dump", str(log)], check=True)
    return dict(json.loads(dump.stdout))


def _texts(log: dict[str, Any]) -> list[str]:
    """Every message of every sample, as the agent saw it (system, task, tool results)."""
    out = []
    for sample in log["samples"]:
        for message in sample["messages"]:
            content = message["content"]
            out.append(content if isinstance(content, str) else json.dumps(content, ensure_ascii=False))
    return out


@needs_inspect
@pytest.mark.slow
@pytest.mark.anyio
async def test_inspect_eval_gold_scores_one_never_zero_and_hides_hidden_cases(tmp_path: Path) -> None:
    with anyio.fail_after(240):
        log = await _eval(tmp_path / "logs")
    assert log["status"] == "success", log.get("error")
    assert sorted(s["id"] for s in log["samples"]) == sorted(SAMPLES + NEVER)
    metrics = {s["name"]: s["metrics"]["mean"]["value"] for s in log["results"]["scores"]}
    assert metrics["passed"] == 0.5  # three golds at 1.0, three nevers at 0.0
    for sample in log["samples"]:
        score = sample["scores"]["repozero_grader"]
        gold = sample["id"] in SAMPLES
        assert score["value"]["passed"] == (1.0 if gold else 0.0), sample["id"]
        assert (score["value"]["success_rate"] == 1.0) is gold  # the planted bugs fail some cases, not all
        assert (score["metadata"]["failure_category"] is None) is gold
        assert sample["messages"][1]["content"].startswith(f"<!-- repozero: sample={sample['id']} ")
    assert hidden_leaks("builtin:py2js-lite", SAMPLES + NEVER, _texts(log)) == []
