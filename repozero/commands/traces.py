"""`repozero traces stats|show`: what a trace directory holds, and one episode's records as JSON."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

import msgspec
from rich.console import Console
from rich.table import Table

from repozero.commands import add_command, group
from repozero.commands.common import print_json
from repozero.kernel.errors import UsageError
from repozero.traces import TraceReader


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    commands = group(subparsers, "traces", "inspect captured traces (RL/SFT)", parent)
    stats = add_command(
        commands, "stats", "count the records, episodes, torn tails and blobs of a trace dir", parent
    )
    stats.add_argument("dir", type=Path, help="a trace directory, or a run directory holding traces/")
    stats.add_argument("--json", action="store_true", help="print one JSON object")
    stats.set_defaults(func=_stats)
    show = add_command(commands, "show", "print one episode's records (model calls whole) as JSON", parent)
    show.add_argument("dir", type=Path, help="a trace directory, or a run directory holding traces/")
    show.add_argument("episode", help="episode id")
    show.add_argument("--resolve", action="store_true", help="inline blob contents in model calls")
    show.set_defaults(func=_show)


def _reader(path: Path) -> TraceReader:
    for root in (path, path / "traces"):
        if (root / "shards").is_dir():
            return TraceReader(root)
    raise UsageError(f"{path}: not a trace directory (no shards/ in it or in {path / 'traces'})")


def summarize(reader: TraceReader) -> dict[str, Any]:
    """Counts over every shard, the manifest and the blob folder."""
    kinds: Counter[str] = Counter()
    started: set[str] = set()
    reader.check_offsets()
    for record in reader.records():
        kind = type(record).__struct_config__.tag
        kinds[str(kind)] += 1
        if kind == "episode_started":
            started.add(record.episode_id)  # type: ignore[union-attr]
    finished = {e.episode_id for e in reader.finished_episodes()}
    blobs = list((reader.root / "blobs").rglob("*.zst"))
    return {
        "dir": str(reader.root),
        "shards": len(reader.shards()),
        "shard_bytes": sum(p.stat().st_size for p in reader.shards()),
        "records": dict(sorted(kinds.items())),
        "episodes_finished": len(finished),
        "episodes_unfinished": len(started - finished),
        "episodes_lost": sorted(e.episode_id for e in reader.lost_episodes()),
        "blobs": len(blobs),
        "blob_bytes": sum(p.stat().st_size for p in blobs),
        "torn_tails": reader.torn,
    }


def _stats(args: argparse.Namespace) -> int:
    summary = summarize(_reader(args.dir))
    if args.json:
        print_json(summary)
        return 0
    table = Table(title=f"traces in {summary['dir']}", show_header=False)
    for key, value in summary.items():
        if key == "records":
            for kind, count in value.items():
                table.add_row(f"records: {kind}", str(count))
        elif key != "dir":
            none = key in ("torn_tails", "episodes_lost")
            table.add_row(key, str(value or "none") if none else str(value))
    Console().print(table)
    return 0


def _show(args: argparse.Namespace) -> int:
    reader = _reader(args.dir)
    reader.check_offsets()
    episode = reader.episode(args.episode)
    if episode.start is None and episode.episode is None:
        raise UsageError(f"{args.dir}: no episode {args.episode!r} in these traces")
    if args.resolve:
        episode = msgspec.structs.replace(
            episode, model_calls=[reader.resolve(c) for c in episode.model_calls]
        )
    print_json(episode)
    return 0
