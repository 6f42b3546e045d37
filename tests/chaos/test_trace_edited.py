"""A trace shard edited by hand (`zstd -dc`, edit, `zstd`): a line with a wrong type, a wrong type in a
nested field, a line that is not JSON, or the same lines merely re-compressed. `traces stats`, `traces show`,
`traces export`, `report` and `run --resume` each exit 2 naming the shard and, when a line does not decode,
its line number (as `zstd -dc` prints it) and field; none writes anything to the run, none raises past the
CLI's error mapping (a traceback). One real run is shared by the cases (each edits a copy); the commands run
in this process (`repozero.cli.main`), which saves an interpreter start per command."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from repozero.cli import main

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("edited")
    ds = H.make_dataset(root)
    run_dir = root / "run"
    proc = H.repozero(
        "run", "--dataset", str(ds), "--model", "fake:gold", "--ace-rounds", "0", "--out", str(run_dir),
        "--display", "off",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    shutil.rmtree(run_dir / "targets", ignore_errors=True)
    return run_dir


def _episode_line(lines: list[str], edit: Callable[[dict], None]) -> int:
    """Edit the first `episode` line's record in place; its 1-based line number."""
    i = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "episode")
    record = json.loads(lines[i])
    edit(record)
    lines[i] = json.dumps(record)
    return i + 1


def _wrong_type(lines: list[str]) -> tuple[int, str]:
    return _episode_line(
        lines, lambda r: r.update(reward="lots")
    ), "Expected `float`, got `str` - at `$.reward`"


def _nested(lines: list[str]) -> tuple[int, str]:
    n = _episode_line(lines, lambda r: r["timings"].update(wall_s="slow"))
    return n, "at `$.timings.wall_s`"


def _not_json(lines: list[str]) -> tuple[int, str]:
    i = next(i for i, line in enumerate(lines) if json.loads(line)["kind"] == "round")
    lines[i] = lines[i][:60]  # cut mid-line by an editor
    return i + 1, "invalid JSON"


def _recompressed(lines: list[str]) -> tuple[int, str]:
    return 0, "changed after it was written (re-compressed or edited by hand?)"


@pytest.mark.parametrize("edit", [_wrong_type, _nested, _not_json, _recompressed], ids=lambda f: f.__name__)
def test_a_shard_edited_by_hand_is_named_with_its_line_and_nothing_is_written(
    finished_run: Path,
    tmp_path: Path,
    edit: Callable[[list[str]], tuple[int, str]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(finished_run, run_dir)
    (shard,) = (run_dir / "traces" / "shards").glob("*.jsonl.zst")
    with zstandard.ZstdDecompressor().stream_reader(shard.open("rb"), read_across_frames=True) as frames:
        lines = frames.read().decode().splitlines()  # `zstd -dc`: every frame
    assert sum(json.loads(line)["kind"] == "episode" for line in lines) == 2
    line, why = edit(lines)
    shard.write_bytes(zstandard.ZstdCompressor().compress(("\n".join(lines) + "\n").encode()))  # one frame
    before = _files(run_dir)
    for argv in (
        ["traces", "stats", str(run_dir)],
        ["traces", "show", str(run_dir), "fx-slug--a0"],
        ["traces", "export", str(run_dir), "--format", "sft", "--out", str(tmp_path / "sft")],
        ["report", str(run_dir), "--out", str(tmp_path / "report")],
        ["run", "--resume", str(run_dir), "--display", "off"],
    ):
        code = main(argv)
        stderr = capsys.readouterr().err
        assert code == 2, (argv, stderr[-2000:])
        error = stderr.strip().splitlines()[-1]
        assert error.startswith(
            (f"repozero: error: {shard}: ", f"repozero: error: {shard} (frame at byte ")
        ), (
            argv,
            error,
        )
        assert why in error, (argv, error)
        if line:
            assert f"line {line} (`zstd -dc {shard.name}`)" in error, (argv, error)
        assert "restore the shard from a copy" in error
    assert _files(run_dir) == before
    assert not (tmp_path / "sft").exists() and not (tmp_path / "report").exists()


def _files(run_dir: Path) -> dict[str, bytes]:
    """Every file of the run (SQLite's -shm/-wal side files aside: a reader may make them)."""
    return {
        str(p.relative_to(run_dir)): p.read_bytes()
        for p in run_dir.rglob("*")
        if p.is_file() and p.suffix not in (".sqlite-shm", ".sqlite-wal")
    }
