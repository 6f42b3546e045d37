"""`repozero traces export` on a real run (loopback fake model, real grading): a hidden case's canary never
reaches an exported file, token ids line up across ACE rounds, the split keeps libraries apart, and bad
input exits 2. `canary_run` is shared with the viewer tests (loaded by path)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import msgspec
import pyarrow.json as pj
import pyarrow.parquet as pq
import pytest

from repozero.cli import main
from repozero.datasets import Case, load_dataset
from repozero.datasets.disk import write_sample
from repozero.traces import EpisodeStartRecord, ManifestEntry, ModelCall, ModelCallRecord, TraceReader

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
CANARY = "CANARY-x3v9k2-hidden"
pytestmark = pytest.mark.slow


def canary_run(base: Path) -> Path:
    """A finished run (2 samples, 1 ACE round, buggy then fixed) whose fx-slug has a hidden
    case holding `CANARY`; made once under `base` and reused."""
    run_dir = base / "canary-run"
    if (run_dir / "traces" / "manifest").is_dir():
        return run_dir
    ds = base / "canary-ds"
    shutil.copytree(FIXTURE, ds)
    sample = load_dataset(ds).sample("fx-slug")
    hidden = Case(id="canary", argv=["--text", CANARY], expected_stdout=f"{CANARY.lower()}\n".encode())
    write_sample(ds, msgspec.structs.replace(sample, cases=[*sample.cases, hidden]))
    argv = ["run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--out", str(run_dir)]  # fmt: skip
    proc = subprocess.run(  # a real `repozero run` process, as a person would start it
        [sys.executable, "-m", "repozero", *argv], capture_output=True, text=True, timeout=240, check=False
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return run_dir


class Result(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def repozero(*args: str) -> Result:
    """The command line in this process (`main`, as the console script calls it): no start-up cost."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["--log-level", "warning", *args])
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return canary_run(tmp_path_factory.getbasetemp())


def _everything(out: Path) -> str:
    """Every exported value as text: JSON lines as they are, Parquet tables decoded, token ids as the
    bytes they stand for (the fake tokenizer has one id per byte)."""
    parts = []
    for path in sorted(out.iterdir()):
        if path.suffix == ".parquet":
            for row in pq.read_table(path).to_pylist():
                for key, value in row.items():
                    if key.endswith("_ids") and value:
                        parts.append(bytes(i for i in value if i < 256).decode("utf-8", "replace"))
                    else:
                        parts.append(json.dumps(value))
        else:
            parts.append(path.read_text())
    return "\n".join(parts)


def test_exports_never_hold_a_hidden_case(run_dir: Path, tmp_path: Path) -> None:
    for fmt in ("sft", "rl-steps", "rl-merged", "parquet"):
        proc = repozero(
            "traces", "export", str(run_dir), "--format", fmt, "--out", str(tmp_path / fmt), "--json"
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        summary = json.loads(proc.stdout)
        assert summary["episodes_exported"] == 2 and summary["skipped"] == {}
        text = _everything(tmp_path / fmt)
        assert CANARY not in text and CANARY.lower() not in text
        assert "--text" in text and "hello world" in text  # the search sees visible cases and prompts
    sft = pj.read_json(tmp_path / "sft" / "train.jsonl").to_pylist()
    assert {r["role"] for r in sft} == {"coder", "tester"}
    coder = [r for r in sft if r["role"] == "coder"]
    assert all(any("repozero: feedback" in (m["content"] or "") for m in r["messages"]) for r in coder)


def last_try_calls(reader: TraceReader, entry: ManifestEntry) -> list[ModelCall]:
    """The calls of an episode's last try (an infrastructure retry starts again with `episode_started`;
    a loaded machine makes retries happen), rebuilt by the reader from the episode's byte range."""
    lines = reader.records(entry.shard, start=entry.first_offset, end=entry.end_offset)
    mine = [r for r in lines if getattr(r, "episode_id", None) == entry.episode_id]
    last = max(i for i, r in enumerate(mine) if isinstance(r, EpisodeStartRecord))
    ids = {r.call_id for r in mine[last:] if isinstance(r, ModelCallRecord)}
    return [c for c in reader.model_calls(mine) if c.call_id in ids]


def test_token_ids_line_up_across_ace_rounds(run_dir: Path, tmp_path: Path) -> None:
    reader = TraceReader(run_dir / "traces")
    calls = {e.episode_id: last_try_calls(reader, e) for e in reader.finished_episodes()}
    assert repozero("traces", "export", str(run_dir), "--format", "rl-merged", "--out", str(tmp_path / "m")).returncode == 0  # fmt: skip
    merged = pq.read_table(tmp_path / "m" / "train.parquet").to_pylist()
    coder = [r for r in merged if r["role"] == "coder"]
    assert len(coder) == 2 and all(r["num_segments"] == 1 for r in coder)  # one row spans both rounds
    for row in coder:
        mine = [c for c in calls[row["episode_id"]] if c.role == "coder"]
        assert {c.round for c in mine} == {0, 1} and row["num_calls"] == len(mine)
        last = mine[-1].tokens
        assert last is not None and last.prompt_ids is not None
        assert row["prompt_ids"] + row["response_ids"] == last.prompt_ids + last.completion_ids
        assert sum(row["loss_mask"]) == sum(c.usage.completion_tokens for c in mine)


def test_split_by_library_and_bad_input(run_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "split"
    proc = repozero("traces", "export", str(run_dir), "--format", "sft", "--out", str(out), "--split-test", "0.5", "--seed", "3")  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    libraries = [
        {r["library"] for r in pj.read_json(out / f"{s}.jsonl").to_pylist()} for s in ("train", "test")
    ]
    assert libraries[0] and libraries[1] and not libraries[0] & libraries[1]
    again = repozero("traces", "export", str(run_dir), "--format", "sft", "--out", str(out))
    assert again.returncode == 2 and "--overwrite" in again.stderr
    bad: list[tuple[list[str], str]] = [
        (["--split-test", "2"], "--split-test 2"),
        (["--reward-formula", "nope"], "unknown"),
    ]
    for extra, message in bad:
        proc = repozero(
            "traces", "export", str(run_dir), "--format", "sft", "--out", str(tmp_path / "x"), *extra
        )
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    missing = repozero("traces", "export", str(tmp_path), "--format", "sft", "--out", str(tmp_path / "y"))
    assert missing.returncode == 2 and "not a run directory" in missing.stderr
