"""Seeds that work (issue 21): a cell re-run on a scripted model writes the same traces; every model call
carries its own derived seed; the tester's surplus proposals are a seeded choice; the loopback server's
draws come from the request's seed, whatever order requests arrive in."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest

from repozero import RunSpec, Session, load_config
from repozero.agents.provider import open_provider
from repozero.agents.roles import task_view
from repozero.agents.scaffolds import AgentLimits, Conversation
from repozero.agents.tester import InputProposer
from repozero.datasets import content_hash, load_dataset
from repozero.orchestrator.engine.config import Config, model_endpoint
from repozero.orchestrator.engine.limits import effective_config
from repozero.orchestrator.engine.science import cell_key, science
from repozero.orchestrator.engine.seeds import SeededModel, call_seed, episode_seed
from repozero.traces.reader import TraceReader

from .scripted_model import ScriptedModel, reply

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


def _snapshots() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_snapshot", Path(__file__).with_name("run_snapshot.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_seeds_depend_on_every_part_and_nothing_else() -> None:
    base = episode_seed(7, "abc", "s", 0)
    assert base == episode_seed(7, "abc", "s", 0)
    others = {episode_seed(8, "abc", "s", 0), episode_seed(7, "abd", "s", 0), episode_seed(7, "abc", "t", 0)}
    others |= {episode_seed(7, "abc", "s", 1)}
    assert base not in others and len(others) == 4
    calls = {call_seed(base, role, r, i) for role in ("coder", "tester") for r in range(3) for i in range(5)}
    assert len(calls) == 30 and all(0 <= c < 2**31 for c in calls)


@pytest.mark.anyio
async def test_each_call_carries_its_seed_and_a_retry_keeps_it() -> None:
    inner = ScriptedModel([reply("a")])
    seen: list[int] = []

    class Recording:
        async def complete(self, messages: Any, tools: Any = (), params: Any = None) -> Any:
            seen.append(params.seed)
            return await inner.complete(messages, tools, params)

    model = SeededModel(Recording(), 99, "coder", 2)  # type: ignore[arg-type]
    for _ in range(3):
        await model.complete([])
    assert seen == [call_seed(99, "coder", 2, i) for i in range(3)]


@pytest.mark.anyio
async def test_the_tester_keeps_a_seeded_choice_of_surplus_proposals_in_their_order() -> None:
    dataset = load_dataset(FIXTURE)
    view = task_view(dataset, "fx-slug", show_test_program=True, whitebox=4)
    proposals = [{"argv": ["--text", f"word {i}"], "stdin": None} for i in range(6)]
    payload = '```json\n{"inputs": ' + str(proposals).replace("'", '"').replace("None", "null") + "}\n```"

    async def kept(seed: int | None) -> list[str]:
        choice = None if seed is None else random.Random(seed)
        tester = InputProposer(ScriptedModel([reply(payload)]), "bash", AgentLimits(), choice=choice)
        out = await tester.propose(view, Conversation("t"), count=3, known=[], failures=[])
        return [p.argv[1] for p in out.accepted]

    assert await kept(None) == ["word 0", "word 1", "word 2"]
    first = await kept(1)
    assert first == await kept(1) and len(first) == 3
    assert first == sorted(first, key=lambda w: int(w.split()[1]))  # in the order proposed
    assert len({tuple(await kept(s)) for s in range(12)}) > 1  # the draw depends on the seed


async def _run_cell(config: Config, spec: RunSpec, run_dir: Path) -> None:
    """One cell on a loopback server that injects faults (errors, truncated replies, broken tool calls)."""
    dataset = load_dataset(spec.dataset)
    resolved, endpoint = model_endpoint(config, spec.model)
    faults = ("500", "truncated", "bad-tool-args")
    with anyio.fail_after(300):
        async with open_provider(
            effective_config(resolved).endpoints,
            endpoint,
            spec.model,
            dataset,
            fault_rate=0.25,
            faults=faults,
            seed=3,
        ) as provider:
            async with Session.open(config, spec, run_dir=run_dir, provider=provider) as session:
                await session.run()


def _model_calls(run_dir: Path) -> list[dict[str, Any]]:
    import msgspec

    return [
        msgspec.to_builtins(r)
        for r in TraceReader(run_dir / "traces").records()
        if type(r).__name__ == "ModelCallRecord"
    ]


@pytest.mark.slow
def test_a_cell_run_again_writes_the_same_traces_whatever_its_concurrency(tmp_path: Path) -> None:
    config = load_config()
    spec = RunSpec(dataset=str(FIXTURE), model="fake:buggy-then-fix", ace_rounds=1, attempts=2, seed=5)
    runs = {}
    for concurrency in (4, 1):  # an infra setting: the same cell, its requests in another order
        run_dir = tmp_path / f"c{concurrency}"
        anyio.run(_run_cell, config, msgspec_replace(spec, concurrency=concurrency), run_dir)
        runs[concurrency] = run_dir
    snap = _snapshots()
    first, again = snap.snapshot(runs[4]), snap.snapshot(runs[1])
    assert first["records"] and first == again

    calls = _model_calls(runs[4])
    assert any(c["retries"] for c in calls)  # faults struck, and struck the same calls both times
    seeds = [c["params"]["seed"] for c in calls]
    assert len(set(seeds)) == len(seeds)  # one seed per call, never shared
    key = cell_key(science(config, spec, content_hash(load_dataset(FIXTURE))))
    first_coder = next(c for c in calls if c["episode_id"] == "fx-slug--a1" and c["role"] == "coder")
    assert first_coder["round"] == 0
    expected = call_seed(episode_seed(5, key, "fx-slug", 1), "coder", 0, 0)
    assert first_coder["params"]["seed"] == expected


def msgspec_replace(spec: RunSpec, **changes: Any) -> RunSpec:
    import msgspec

    return msgspec.structs.replace(spec, **changes)
