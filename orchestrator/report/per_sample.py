"""Which samples failed, and how: one line per sample and run (or sweep cell), as inspect-ai and the
SWE-bench harness show results per instance — for `repozero results show` and the report's last table.

A line folds a sample's scored attempts in one run: passes of attempts (PR as k/n), mean success rate, the
most common failure category among the failed attempts, the first ACE round at which an attempt passed
(fewest rounds to pass over attempts), and the episode ids (to open their traces).
"""

from __future__ import annotations

import fnmatch
from collections import Counter
from pathlib import Path

from repozero.kernel.records import Record
from repozero.orchestrator.report.load import RunData, load_run
from repozero.orchestrator.report.model import Row, Table
from repozero.orchestrator.report.results_table import run_dirs

__all__ = ["SampleLine", "per_sample_lines", "per_sample_table", "sample_lines_of"]


class SampleLine(Record, kw_only=True):
    run: str
    """The run's id, or the sweep cell's key."""
    sample: str
    library: str
    difficulty: str
    category: str
    attempts: int
    """Scored attempts (infrastructure failures are not scored: `infra` counts them)."""
    passed: int
    success_rate: float
    failure: str | None
    rounds_to_pass: int | None
    """The first ACE round (0 = before any feedback) at which an attempt passed; None if none did."""
    infra: int
    episodes: list[str]

    @property
    def failed(self) -> bool:
        return self.passed < self.attempts or (self.attempts == 0 and self.infra > 0)


def sample_lines_of(run: RunData, name: str) -> list[SampleLine]:
    """One line per sample the run scored or lost to infrastructure failures, by sample id."""
    by_sample: dict[str, list] = {}
    for episode in [*run.scored, *run.infra]:
        by_sample.setdefault(episode.sample, []).append(episode)
    lines = []
    for sample, episodes in sorted(by_sample.items()):
        scored = [e for e in episodes if not e.infra_error]
        failures = Counter(e.failure_category or "other" for e in scored if e.passed is not True)
        firsts = [_first_pass(run, e.episode_id) for e in scored if e.passed]
        first = episodes[0]
        lines.append(SampleLine(
            run=name, sample=sample, library=first.library, difficulty=first.difficulty,
            category=first.category, attempts=len(scored), passed=sum(e.passed is True for e in scored),
            success_rate=round(sum(e.success_rate for e in scored) / len(scored), 4) if scored else 0.0,
            failure=failures.most_common(1)[0][0] if failures else None,
            rounds_to_pass=min((f for f in firsts if f is not None), default=None),
            infra=len(episodes) - len(scored), episodes=sorted(e.episode_id for e in episodes),
        ))  # fmt: skip
    return lines


def _first_pass(run: RunData, episode_id: str) -> int | None:
    return next((r.round for r in run.rounds.get(episode_id, []) if r.hidden_passed), None)


def per_sample_lines(path: Path, *, failed: bool = False, sample: str | None = None) -> list[SampleLine]:
    """The lines of a run directory or of every cell of a sweep directory, filtered."""
    lines = []
    for key, _, run_dir in run_dirs(path):
        lines += sample_lines_of(load_run(run_dir), key)
    return [
        line
        for line in lines
        if (not failed or line.failed) and (sample is None or fnmatch.fnmatchcase(line.sample, sample))
    ]


def per_sample_table(runs: list[RunData], columns: list[str]) -> Table:
    """The report's per-sample table: a row per sample, a cell per run (`k/n · SR · failure · round`)."""
    cells: dict[str, dict[int, SampleLine]] = {}
    labels: dict[str, str] = {}
    for index, run in enumerate(runs):
        for line in sample_lines_of(run, run.manifest.run_id):
            cells.setdefault(line.sample, {})[index] = line
            labels[line.sample] = f"{line.sample} ({line.difficulty}, {line.category})"
    rows = [
        Row(label=labels[sample], cells=[_cell(by_run.get(i)) for i in range(len(runs))], unit="text")
        for sample, by_run in sorted(cells.items())
    ]
    caption = (
        "Per sample and run: passes of scored attempts (k/n), mean success rate, the most common failure "
        "category of the failed attempts, the first ACE round an attempt passed at, and the first episode "
        "(`repozero traces show RUN_DIR EPISODE`, or the viewer: `repozero traces view RUN_DIR`)."
    )
    return Table(id="per_sample", title="Results per sample", caption=caption, columns=columns, rows=rows)


def _cell(line: SampleLine | None) -> str:
    if line is None:
        return "—"
    if line.attempts == 0:
        return f"infra failure ×{line.infra}"
    parts = [f"{line.passed}/{line.attempts}", f"SR {line.success_rate:.2f}"]
    if line.failure:
        parts.append(line.failure)
    if line.rounds_to_pass is not None:
        parts.append(f"passed at round {line.rounds_to_pass}")
    return " · ".join(parts) + f" · {line.episodes[0]}"
