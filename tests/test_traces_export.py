"""Exporting traces for trainers: every format loads with pyarrow and holds exactly what was captured;
only finished episodes (their last try) appear; filters, splits, token fidelity and prefix splits behave."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pyarrow.json as pj
import pyarrow.parquet as pq
import pytest

from repozero.kernel.errors import UsageError
from repozero.traces import (
    EpisodeFinished,
    EpisodeStarted,
    Event,
    ModelCall,
    ModelCalled,
    TokenTrace,
    TraceConfig,
    TraceReader,
    TraceWriter,
)
from repozero.traces.export import ExportFilters, ExportOptions, ExportSummary, export_runs
from repozero.traces.frames import FrameReader

from .synthetic_traces import episode_events, run_events

replace = msgspec.structs.replace


def write_traces(root: Path, events: list[Event]) -> Path:
    """A run directory holding `traces/` with these events (one writer, no fsync: test speed)."""

    async def go() -> None:
        with anyio.fail_after(30):
            async with TraceWriter(root / "traces", TraceConfig(fsync=False), writer_id="w0") as writer:
                for event in events:
                    writer.emit(event)

    anyio.run(go, backend="asyncio", backend_options={"use_uvloop": True})
    return root


def edit(events: list[Event], **fields: Any) -> list[Event]:
    """The episode with these fields changed on its start and end records (where they exist)."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, EpisodeFinished):
            e = EpisodeFinished(episode=replace(e.episode, **fields))
        elif isinstance(e, EpisodeStarted):
            known = {k: v for k, v in fields.items() if k in e.episode.__struct_fields__}
            e = EpisodeStarted(episode=replace(e.episode, **known))
        out.append(e)
    return out


def synthetic(n: int, *, steps: int = 3, token_ids: bool = True, seed: int = 3, run_id: str = "synthetic") -> list[list[Event]]:  # fmt: skip
    rng = random.Random(seed)
    return [episode_events(i, rng=rng, steps=steps, token_ids=token_ids, run_id=run_id) for i in range(n)]


def flat(episodes: list[list[Event]]) -> list[Event]:
    started, finished = run_events()
    return [started, *(e for ep in episodes for e in ep), finished]


def export(run: Path, out: Path, fmt: str, **options: Any) -> ExportSummary:
    filters = ExportFilters(**options.pop("filters", {}))
    return export_runs([run], out, ExportOptions(format=fmt, filters=filters, **options))  # type: ignore[arg-type]


def calls_by_episode(run: Path) -> dict[str, list[ModelCall]]:
    reader = TraceReader(run / "traces")
    return {e.episode_id: reader.episode(e).model_calls for e in reader.finished_episodes()}


def rows(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return pj.read_json(path).to_pylist()
    return pq.read_table(path).to_pylist()


def test_every_format_loads_and_holds_what_was_captured(tmp_path: Path) -> None:
    run = write_traces(tmp_path / "run", flat(synthetic(6, steps=4)))
    captured = calls_by_episode(run)
    total = sum(len(c) for c in captured.values())

    summary = export(run, tmp_path / "sft", "sft")
    sft = rows(tmp_path / "sft" / "train.jsonl")
    assert summary.files == {"train.jsonl": 6} and len(sft) == 6
    for row in sft:
        last = captured[row["episode_id"]][-1]
        assert [m["role"] for m in row["messages"]] == [m.role for m in [*last.messages, last.response]]
        assert row["messages"][-1]["content"] == last.response.content
        call = row["messages"][-1]["tool_calls"][0]
        assert call["type"] == "function"
        assert call["function"]["arguments"] == json.loads(last.response.tool_calls[0].arguments)
        assert {t["function"]["name"] for t in row["tools"]} == {"execute_bash", "finish"}
        assert row["num_calls"] == 4 and row["reward"] == 0.9

    export(run, tmp_path / "steps", "rl-steps")
    steps = rows(tmp_path / "steps" / "train.parquet")
    assert len(steps) == total
    for i, row in enumerate(steps):
        call = captured[row["episode_id"]][row["step_index"]]
        assert call.tokens is not None
        assert (
            row["prompt_ids"] == call.tokens.prompt_ids
            and row["completion_ids"] == call.tokens.completion_ids
        )
        assert row["logprobs"] == pytest.approx(call.tokens.completion_logprobs, abs=1e-6)
        assert row["loss_mask"] == [1] * len(call.tokens.completion_ids)
        assert row["is_last_step"] == (row["step_index"] == row["num_steps"] - 1)
        assert row["reward"] == (0.9 if row["is_last_step"] else 0.0)
        if row["step_index"]:  # the steps of a trajectory sit together, in order
            assert steps[i - 1]["trajectory_id"] == row["trajectory_id"]

    export(run, tmp_path / "merged", "rl-merged")
    merged = rows(tmp_path / "merged" / "train.parquet")
    assert len(merged) == 6
    for row in merged:
        calls = captured[row["episode_id"]]
        first, last = calls[0].tokens, calls[-1].tokens
        assert first is not None and last is not None and last.prompt_ids is not None
        assert row["prompt_ids"] == first.prompt_ids
        assert row["prompt_ids"] + row["response_ids"] == last.prompt_ids + last.completion_ids
        assert sum(row["loss_mask"]) == sum(len(c.tokens.completion_ids) for c in calls if c.tokens)
        trained = [lp for lp, m in zip(row["rollout_logprobs"], row["loss_mask"], strict=True) if m]
        sampled = [lp for c in calls if c.tokens for lp in c.tokens.completion_logprobs or []]
        assert trained == pytest.approx(sampled, abs=1e-6)

    summary = export(run, tmp_path / "pq", "parquet")
    assert summary.files == {"episodes.parquet": 6, "steps.parquet": total}
    episodes = rows(tmp_path / "pq" / "episodes.parquet")
    assert {e["episode_id"] for e in episodes} == set(captured)
    assert all(e["hidden_success_rate"] == [0.9] and e["model_calls"] == 4 for e in episodes)
    history: dict[str, list[dict[str, Any]]] = {}
    for row in rows(tmp_path / "pq" / "steps.parquet"):  # new messages rebuild every request
        call = captured[row["episode_id"]][row["step_index"]]
        so_far = history.get(row["trajectory_id"], [])[: row["messages_shared"]]
        request = so_far + json.loads(row["new_messages"])
        assert request == [msgspec.to_builtins(m) for m in call.messages]
        history[row["trajectory_id"]] = [*request, msgspec.to_builtins(call.response)]
        assert call.tokens is not None and call.tokens.prompt_ids is not None
        assert row["completion_ids"] == call.tokens.completion_ids
        assert row["prompt_ids_count"] == len(call.tokens.prompt_ids)
        assert row["response_tool_calls"] == [msgspec.to_builtins(c) for c in call.response.tool_calls]


def test_only_the_last_try_of_finished_episodes(tmp_path: Path) -> None:
    eps = synthetic(4)
    done, unfinished, retried, unlisted = eps
    first_try = [e for e in retried if not isinstance(e, EpisodeFinished)]
    marker = "FIRST-TRY-ONLY"
    first_try = [
        ModelCalled(call=replace(e.call, response=replace(e.call.response, content=marker)))
        if isinstance(e, ModelCalled)
        else e
        for e in first_try
    ]
    events = [*done, *unfinished[:-1], *first_try, *retried, *unlisted]
    run = write_traces(tmp_path / "run", events)
    manifest = next((run / "traces" / "manifest").glob("*.jsonl"))
    lines = manifest.read_bytes().splitlines(keepends=True)
    assert b"synthetic-ep3" in lines[-1]
    manifest.write_bytes(b"".join(lines[:-1]))  # a crash after the episode's lines, before its manifest line

    shard = next((run / "traces" / "shards").glob("*.zst"))
    assert marker.encode() in b"".join(payload for _, payload in FrameReader(shard))  # it was captured
    summary = export(run, tmp_path / "sft", "sft")
    assert summary.episodes_finished == 2
    text = (tmp_path / "sft" / "train.jsonl").read_text()
    assert marker not in text
    assert {r["episode_id"] for r in rows(tmp_path / "sft" / "train.jsonl")} == {
        "synthetic-ep0",
        "synthetic-ep2",
    }
    export(run, tmp_path / "steps", "rl-steps")
    steps = rows(tmp_path / "steps" / "train.parquet")
    assert Counter(r["episode_id"] for r in steps) == {"synthetic-ep0": 3, "synthetic-ep2": 3}


def _varied(tmp_path: Path) -> Path:
    """12 episodes in 3 groups of 4: rewards, statuses, roles, cheats and infra errors vary."""
    eps = synthetic(12)
    eps[0] = edit(eps[0], status="solved", reward=1.0)
    eps[1] = edit(eps[1], status="solved", reward=1.0)
    eps[2] = edit(eps[2], reward=0.2, cheat_flags=["reads_oracle"], failure_category="cheat")
    eps[3] = edit(eps[3], status="error", infra_error=True, reward=0.0, termination_reason="infra_error")
    for i in (4, 5, 6, 7):  # group g1: every attempt scored 0.9 -> zero variance
        eps[i] = edit(eps[i], reward=0.9)
    eps[10] = edit(eps[10], reward=0.5)
    eps[8] = edit(eps[8], protocol="other")
    tester = [
        ModelCalled(call=replace(e.call, role="tester", conversation_id="ep9-tester", model="small"))
        if isinstance(e, ModelCalled) and e.call.step == 0
        else e
        for e in eps[9]
    ]
    eps[9] = tester
    return write_traces(tmp_path / "run", flat(eps))


@pytest.mark.parametrize(
    ("filters", "expected", "reason"),
    [
        ({}, 11, {"episode:infra_error": 1}),
        ({"keep_infra": True}, 12, {}),
        ({"passed_only": True}, 2, {"episode:not_passed": 9}),
        ({"min_reward": 0.5}, 10, {"episode:below_min_reward": 1}),
        ({"protocols": ["p"]}, 10, {"episode:protocol": 1}),
        ({"drop_cheats": True}, 10, {"episode:cheat_flagged": 1}),
        ({"drop_zero_variance": True}, 7, {"episode:zero_variance_group": 4}),
        ({"roles": ["tester"]}, 1, {"trajectory:role": 11}),
        ({"models": ["sm*"]}, 1, {"episode:model": 10, "trajectory:model": 1}),
    ],
)
def test_filters(tmp_path: Path, filters: dict[str, Any], expected: int, reason: dict[str, int]) -> None:
    run = _varied(tmp_path)
    summary = export(run, tmp_path / "out", "rl-steps", filters=filters)
    assert summary.episodes_exported == expected
    for key, count in reason.items():
        assert summary.skipped[key] == count, summary.skipped
    steps = rows(tmp_path / "out" / "train.parquet")
    if filters.get("keep_infra"):
        infra = [r for r in steps if r["episode_id"] == "synthetic-ep3"]
        assert infra and all(set(r["loss_mask"]) == {0} for r in infra)  # kept, but trains nothing
    if "roles" in filters:
        assert {r["role"] for r in steps} == {"tester"} and len(steps) == 1


def test_dedup_keeps_the_first_of_identical_trajectories(tmp_path: Path) -> None:
    base = synthetic(2)
    copy = [e for e in synthetic(1)[0]]  # the same content as episode 0, under other ids
    renamed: list[Event] = []
    for e in copy:
        if isinstance(e, ModelCalled):
            e = ModelCalled(call=replace(e.call, episode_id="dup", conversation_id="dup-coder", call_id=e.call.call_id + "d"))  # fmt: skip
        elif isinstance(e, EpisodeStarted | EpisodeFinished):
            e = type(e)(episode=replace(e.episode, episode_id="dup"))  # type: ignore[call-arg]
        else:
            continue
        renamed.append(e)
    run = write_traces(tmp_path / "run", flat([*base, renamed]))
    for fmt, name in (("sft", "train.jsonl"), ("rl-steps", "train.parquet")):
        plain = export(run, tmp_path / f"{fmt}-all", fmt)
        deduped = export(run, tmp_path / f"{fmt}-dedup", fmt, filters={"dedup": True})
        assert plain.episodes_exported == 3 and deduped.episodes_exported == 2
        assert deduped.skipped == {"trajectory:duplicate": 1}
        assert "dup" not in {r["episode_id"] for r in rows(tmp_path / f"{fmt}-dedup" / name)}


def test_split_by_library_never_shares_a_library(tmp_path: Path) -> None:
    eps = [edit(ep, library=f"lib{i % 5}") for i, ep in enumerate(synthetic(20, steps=2))]
    run = write_traces(tmp_path / "run", flat(eps))
    first = export(run, tmp_path / "a", "sft", split_test=0.3, seed=7)
    again = export(run, tmp_path / "b", "sft", split_test=0.3, seed=7)
    assert first.splits == again.splits
    train, test = (rows(tmp_path / "a" / f"{s}.jsonl") for s in ("train", "test"))
    assert train and test and len(train) + len(test) == 20
    assert not {r["library"] for r in train} & {r["library"] for r in test}
    assert {r["library"] for r in test} == set(first.splits["test"].libraries)
    parquet = export(run, tmp_path / "pq", "parquet", split_test=0.3, seed=7)
    by_split = {(e["library"], e["split"]) for e in rows(tmp_path / "pq" / "episodes.parquet")}
    assert {lib for lib, s in by_split if s == "test"} == set(parquet.splits["test"].libraries)
    with pytest.raises(UsageError, match="--split-test 1.5"):
        export(run, tmp_path / "c", "sft", split_test=1.5)


def test_token_exports_refuse_or_mark_calls_without_exact_ids(tmp_path: Path) -> None:
    exact = synthetic(2)
    inexact = synthetic(2, token_ids=False, seed=9, run_id="closed")
    only_closed = write_traces(tmp_path / "closed", flat(inexact))
    for fmt in ("rl-steps", "rl-merged"):
        with pytest.raises(UsageError, match="never re-tokenised"):
            export(only_closed, tmp_path / fmt, fmt)
        assert (
            not (tmp_path / fmt / "export.json").exists() and not (tmp_path / fmt / "train.parquet").exists()
        )
    marked = export(only_closed, tmp_path / "marked", "rl-steps", keep_inexact=True)
    kept = rows(tmp_path / "marked" / "train.parquet")
    assert marked.rows == len(kept) == 6
    assert all(r["token_fidelity"] == "none" and r["prompt_ids"] is None for r in kept)

    mixed = write_traces(tmp_path / "mixed", flat([*exact, *inexact]))
    summary = export(mixed, tmp_path / "mixed-out", "rl-steps")
    assert summary.episodes_exported == 2 and summary.skipped == {"trajectory:inexact_token_ids": 2}
    assert export(mixed, tmp_path / "mixed-sft", "sft").episodes_exported == 4  # SFT needs no ids


def _break_prefix(events: list[Event], at_step: int) -> list[Event]:
    """From call `at_step` on, prompt ids start with an extra id: that call no longer extends the one
    before it (as when a chat template drops earlier reasoning); later calls extend it again."""
    out: list[Event] = []
    for e in events:
        if isinstance(e, ModelCalled) and e.call.step >= at_step and e.call.tokens is not None:
            t = e.call.tokens
            tokens = TokenTrace(prompt_ids=[7, *(t.prompt_ids or [])], completion_ids=t.completion_ids, completion_logprobs=t.completion_logprobs)  # fmt: skip
            e = ModelCalled(call=replace(e.call, tokens=tokens))
        out.append(e)
    return out


def test_rl_merged_splits_or_skips_where_prefixes_do_not_line_up(tmp_path: Path) -> None:
    eps = synthetic(2, steps=4)
    run = write_traces(tmp_path / "run", flat([_break_prefix(eps[0], 2), eps[1]]))
    split = export(run, tmp_path / "split", "rl-merged")
    merged = rows(tmp_path / "split" / "train.parquet")
    broken = [r for r in merged if r["episode_id"] == "synthetic-ep0"]
    assert [(r["segment"], r["num_calls"], r["is_last_segment"]) for r in broken] == [
        (0, 2, False),
        (1, 2, True),
    ]
    assert broken[1]["trajectory_id"].endswith("#1") and broken[1]["prompt_ids"][0] == 7
    assert [r["reward"] for r in broken] == [0.0, 0.9] and split.split_rows == 1
    skip = export(run, tmp_path / "skip", "rl-merged", on_mismatch="skip")
    assert skip.skipped == {"trajectory:prefix_mismatch": 1}
    assert {r["episode_id"] for r in rows(tmp_path / "skip" / "train.parquet")} == {"synthetic-ep1"}


def test_output_folder_is_never_half_written(tmp_path: Path) -> None:
    run = write_traces(tmp_path / "run", flat(synthetic(2)))
    export(run, tmp_path / "out", "sft")
    with pytest.raises(UsageError, match="--overwrite"):
        export(run, tmp_path / "out", "sft")
    summary = export_runs([run], tmp_path / "out", ExportOptions(format="sft"), overwrite=True)
    assert summary.rows == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["export.json", "train.jsonl"]
    saved = msgspec.json.decode((tmp_path / "out" / "export.json").read_bytes(), type=ExportSummary)
    assert saved == summary


def test_reward_formula_recomputes_from_named_rewards(tmp_path: Path) -> None:
    run = write_traces(tmp_path / "run", flat(synthetic(3)))
    summary = export(run, tmp_path / "out", "parquet", reward_formula="visible_passed")
    assert summary.rows == 3 + 9
    assert {e["reward"] for e in rows(tmp_path / "out" / "episodes.parquet")} == {1.0}  # visible solved
    with pytest.raises(UsageError, match="unknown"):
        export(run, tmp_path / "bad", "sft", reward_formula="nope")


def test_without_pyarrow_sft_works_and_the_others_say_how_to_install_it(tmp_path: Path) -> None:
    run = write_traces(tmp_path / "run", flat(synthetic(2)))
    script = (
        "import sys; sys.modules['pyarrow'] = None  # as if it were not installed\n"
        "from repozero.cli import main\n"
        "sys.exit(main(['--log-level', 'warning', 'traces', 'export', sys.argv[1], '--format', sys.argv[2], '--out', sys.argv[3]]))\n"
    )  # fmt: skip
    for fmt, code in (("sft", 0), ("parquet", 2), ("rl-steps", 2)):
        out = tmp_path / fmt
        proc = subprocess.run(
            [sys.executable, "-c", script, str(run), fmt, str(out)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == code, proc.stderr
        if code:
            assert "pip install 'repozero[export]'" in proc.stderr and "Traceback" not in proc.stderr
            assert not out.exists() or not any(out.iterdir())
        else:
            assert len((out / "train.jsonl").read_text().splitlines()) == 2


def test_mask_truncated_zeroes_completions_cut_by_the_token_limit(tmp_path: Path) -> None:
    (ep,) = synthetic(1)
    cut = [
        ModelCalled(call=replace(e.call, finish_reason="length"))
        if isinstance(e, ModelCalled) and e.call.step == 1
        else e
        for e in ep
    ]
    run = write_traces(tmp_path / "run", flat([cut]))
    for flag, expected in ((False, [1, 1, 1]), (True, [1, 0, 1])):
        export(run, tmp_path / f"steps-{flag}", "rl-steps", mask_truncated=flag)
        masks = [set(r["loss_mask"]) for r in rows(tmp_path / f"steps-{flag}" / "train.parquet")]
        assert masks == [{m} for m in expected]
    export(run, tmp_path / "merged", "rl-merged", mask_truncated=True)
    (row,) = rows(tmp_path / "merged" / "train.parquet")
    completions = [
        len(e.call.tokens.completion_ids) for e in cut if isinstance(e, ModelCalled) and e.call.tokens
    ]
    assert sum(row["loss_mask"]) == completions[0] + completions[2]
