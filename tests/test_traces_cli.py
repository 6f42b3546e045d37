"""`repozero traces stats|show` on a real trace directory, as a person runs them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from repozero.traces import EpisodeFinished, TraceConfig, TraceWriter

from .synthetic_traces import episode_events


def _repozero(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """A run folder whose traces/ holds one finished and one unfinished episode, one blob."""
    rng = random.Random(3)
    events = [*episode_events(0, rng=rng, steps=2, big_output_at=0), *episode_events(1, rng=rng, steps=2)]
    events = [
        e for e in events if not (isinstance(e, EpisodeFinished) and e.episode.episode_id.endswith("ep1"))
    ]

    async def write() -> None:
        async with TraceWriter(tmp_path / "traces", TraceConfig(fsync=False)) as writer:
            for event in events:
                writer.emit(event)

    anyio.run(write)
    return tmp_path


def test_stats_counts_what_is_there(run_dir: Path) -> None:
    proc = _repozero("traces", "stats", str(run_dir), "--json")
    assert proc.returncode == 0, proc.stderr
    stats = json.loads(proc.stdout)
    assert stats["records"]["model_call"] == 4 and stats["records"]["shard"] == 1
    assert stats["episodes_finished"] == 1 and stats["episodes_unfinished"] == 1
    assert stats["blobs"] == 1 and stats["torn_tails"] == {}
    table = _repozero("traces", "stats", str(run_dir / "traces"))
    assert table.returncode == 0 and "episodes_unfinished" in table.stdout


def test_show_prints_an_episode_with_whole_calls(run_dir: Path) -> None:
    proc = _repozero("traces", "show", str(run_dir), "synthetic-ep0", "--resolve")
    assert proc.returncode == 0, proc.stderr
    episode = json.loads(proc.stdout)
    assert episode["episode"]["episode_id"] == "synthetic-ep0"
    last = episode["model_calls"][-1]
    assert [m["role"] for m in last["messages"]] == ["system", "user", "assistant", "tool"]
    assert last["messages"][-1]["content"] == "x" * 200_000  # the blob, inlined


def test_bad_input_exits_2_naming_the_path_or_episode(run_dir: Path, tmp_path: Path) -> None:
    missing = _repozero("traces", "stats", str(tmp_path / "nope"))
    assert missing.returncode == 2 and "not a trace directory" in missing.stderr
    assert "Traceback" not in missing.stderr
    unknown = _repozero("traces", "show", str(run_dir), "ep-404")
    assert unknown.returncode == 2 and "no episode 'ep-404'" in unknown.stderr
