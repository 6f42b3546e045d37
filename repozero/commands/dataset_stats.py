"""The terminal view of `repozero dataset stats` (the figures are `repozero.datasets.stats`)."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from repozero.datasets.stats import DatasetStats, Spread

__all__ = ["print_stats"]


def _spread(spread: Spread | None) -> str:
    return "—" if spread is None else f"{spread.min:g} / {spread.mean:g} / {spread.max:g}"


def _short(spread: Spread | None) -> str:
    return "—" if spread is None else f"{spread.min:g}-{spread.max:g}, {spread.mean:.0f}"


def _counts(counts: dict[str, int], total: int) -> str:
    return ", ".join(f"{k} {v} ({100 * v / total:.0f} %)" for k, v in counts.items()) if total else "—"


def print_stats(stats: DatasetStats) -> None:
    console = Console(highlight=False)
    console.print(f"[bold]{stats.name}[/bold]: {stats.samples} live samples over {stats.libraries} libraries")
    console.print(f"difficulty: {_counts(stats.difficulty, stats.samples)}")
    console.print(f"category: {_counts(stats.category, stats.samples)}")
    split = ", ".join(
        f"{k} {v} samples / {stats.split_libraries.get(k, 0)} libraries" for k, v in stats.split.items()
    )
    console.print(f"split: {split}")
    console.print(f"kept cases per sample (min / mean / max): {_spread(stats.kept_cases)}")
    console.print(f"API calls per program (min / mean / max): {_spread(stats.api_calls)}; "
                  + ", ".join(f"{k}: {v}" for k, v in stats.api_call_buckets.items()))  # fmt: skip
    console.print(f"lines reached (min / mean / max): {_spread(stats.lines_reached)}")
    overlap = "—" if stats.max_overlap is None else f"{stats.max_overlap:.2f}"
    console.print(f"largest API-call overlap between two programs of one library: {overlap}")
    table = Table(title="per library (kept cases and API calls: min-max, mean)")
    for column in ("library", "split", "n", "e/m/h", "kept", "calls", "overlap"):
        table.add_column(column, no_wrap=True)
    for lib in stats.per_library:
        mix = "/".join(str(lib.difficulty.get(d, 0)) for d in ("easy", "medium", "hard"))
        overlap = "—" if lib.max_overlap is None else f"{lib.max_overlap:.2f}"
        table.add_row(lib.pin, lib.split or "—", str(lib.samples), mix, _short(lib.kept_cases),
                      _short(lib.api_calls), overlap)  # fmt: skip
    console.print(table)
    console.print(f"content_hash: {stats.content_hash}")
