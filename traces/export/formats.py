"""One writer per export format: which files it makes, and how one kept episode becomes rows in them.

Every writer applies the trajectory-level filters (role, model, token fidelity, duplicates) and counts
what it leaves out under `trajectory:<reason>`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from .options import ExportOptions
from .output import ExportOutput, JsonlFile, ParquetFile
from .parquet_tables import EPISODE_COLUMNS, STEP_COLUMNS, episode_row
from .parquet_tables import step_rows as table_step_rows
from .rl import RL_MERGED_COLUMNS, RL_STEPS_COLUMNS, exact, merged_rows, step_rows, token_parts
from .select import Selector
from .sft import InvalidToolArguments, sft_rows
from .source import FinishedEpisode, RunSource
from .trajectories import Trajectory, reward_of, trajectories

__all__ = ["FormatWriter", "writer_for"]

_encode = msgspec.json.Encoder().encode


class FormatWriter:
    """Base: per-split files, the trajectory filters, and the counters."""

    def __init__(self, output: ExportOutput, selector: Selector, options: ExportOptions) -> None:
        self.output, self.selector, self.options = output, selector, options
        self.skipped: Counter[str] = Counter()
        self.split_rows = 0
        self.splits = ["train", "test"] if selector.test_units else ["train"]

    def add(self, run: RunSource, ep: FinishedEpisode, reward: float, split: str) -> int:
        """Write the episode's rows; returns how many."""
        raise NotImplementedError

    def kept(self, ep: FinishedEpisode) -> list[Trajectory]:
        out = []
        for traj in trajectories(ep):
            if not self.selector.keeps_role(traj.role):
                self.skipped["trajectory:role"] += 1
            elif not self.selector.keeps_model(traj.model, ep.record.policy_model):
                self.skipped["trajectory:model"] += 1
            else:
                out.append(traj)
        return out

    def masked(self, ep: FinishedEpisode) -> bool:
        """Kept infrastructure failures train nothing."""
        return ep.record.infra_error


class SftWriter(FormatWriter):
    def __init__(self, output: ExportOutput, selector: Selector, options: ExportOptions) -> None:
        super().__init__(output, selector, options)
        self.files: dict[str, JsonlFile] = {s: output.jsonl(f"{s}.jsonl") for s in self.splits}

    def add(self, run: RunSource, ep: FinishedEpisode, reward: float, split: str) -> int:
        written = 0
        for traj in self.kept(ep):
            try:
                rows = sft_rows(run, traj, reward_of(traj, reward), self.options.tool_arguments)
            except InvalidToolArguments:
                self.skipped["trajectory:invalid_tool_arguments"] += 1
                continue
            if self.selector.duplicate(_encode([r["messages"], r["tools"]]) for r in rows):
                self.skipped["trajectory:duplicate"] += 1
                continue
            for row in rows:
                self.files[split].write(row)
            self.split_rows += len(rows) - 1
            written += len(rows)
        return written


class RlWriter(FormatWriter):
    """`rl-steps` and `rl-merged`: token ids only from calls with exact fidelity (unless kept, marked)."""

    def __init__(self, output: ExportOutput, selector: Selector, options: ExportOptions) -> None:
        super().__init__(output, selector, options)
        columns = RL_STEPS_COLUMNS if options.format == "rl-steps" else RL_MERGED_COLUMNS
        self.files: dict[str, ParquetFile] = {s: output.parquet(f"{s}.parquet", columns) for s in self.splits}
        self.inexact_ok = options.keep_inexact and options.format == "rl-steps"

    def add(self, run: RunSource, ep: FinishedEpisode, reward: float, split: str) -> int:
        written, opts = 0, self.options
        for traj in self.kept(ep):
            if not self.inexact_ok and not all(exact(c) for c in traj.calls):
                self.skipped["trajectory:inexact_token_ids"] += 1
                continue
            if self.selector.duplicate(token_parts(traj)):
                self.skipped["trajectory:duplicate"] += 1
                continue
            masks: dict[str, Any] = {"masked": self.masked(ep), "mask_truncated": opts.mask_truncated}
            own = reward_of(traj, reward)
            if opts.format == "rl-steps":
                written += step_rows(self.files[split], run.run_id, traj, own, **masks)
                continue
            rows = merged_rows(
                self.files[split], run.run_id, traj, own, skip_mismatch=opts.on_mismatch == "skip", **masks
            )
            if rows == 0:
                self.skipped["trajectory:prefix_mismatch"] += 1
            self.split_rows += max(rows - 1, 0)
            written += rows
        return written


class TablesWriter(FormatWriter):
    """`episodes.parquet` and `steps.parquet`, with a `split` column; `--dedup` drops whole episodes."""

    def __init__(self, output: ExportOutput, selector: Selector, options: ExportOptions) -> None:
        super().__init__(output, selector, options)
        self.episodes = output.parquet("episodes.parquet", EPISODE_COLUMNS)
        self.steps = output.parquet("steps.parquet", STEP_COLUMNS)

    def add(self, run: RunSource, ep: FinishedEpisode, reward: float, split: str) -> int:
        if self.selector.duplicate(_encode([d.delta, d.response]) for d in ep.deltas):
            self.skipped["episode:duplicate"] += 1
            return 0
        episode_row(self.episodes, run.run_id, ep, reward, split)
        return 1 + sum(
            table_step_rows(self.steps, run.blobs, run.run_id, traj, reward_of(traj, reward), split)
            for traj in self.kept(ep)
        )


def writer_for(output: ExportOutput, selector: Selector, options: ExportOptions) -> FormatWriter:
    kinds: dict[str, type[FormatWriter]] = {
        "sft": SftWriter, "rl-steps": RlWriter, "rl-merged": RlWriter, "parquet": TablesWriter,
    }  # fmt: skip
    return kinds[options.format](output, selector, options)
