"""`export_runs`: finished episodes of one or more runs → the files a trainer reads, in one streaming pass.

Episodes come only from the trace manifests (an interrupted or retried try never leaks in); filters and
the split by library are decided before the first row; files appear under their names only once the
whole export succeeded, with `export.json` saying what was written and what was left out, and why.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from repozero.kernel.errors import UsageError
from repozero.kernel.log import get_logger

from .formats import writer_for
from .options import ExportOptions, ExportSummary, SplitSummary
from .output import ExportOutput
from .select import Selector
from .source import EXPORT_KINDS, open_runs

__all__ = ["export_runs"]

log = get_logger("repozero.traces.export")


def export_runs(
    paths: Iterable[str | os.PathLike[str]], out: str | os.PathLike[str], options: ExportOptions, *, overwrite: bool = False
) -> ExportSummary:  # fmt: skip
    """Export the finished episodes of the run (or trace) directories `paths` into the folder `out`."""
    options.check()
    runs = open_runs(paths)
    selector = Selector(runs, options)
    output = ExportOutput(Path(out), overwrite=overwrite)
    skipped: Counter[str] = Counter()
    per_split = {"train": SplitSummary(libraries=selector.train_units)}
    if selector.test_units:
        per_split["test"] = SplitSummary(libraries=sorted(selector.test_units))
    episodes: Counter[str] = Counter()
    rows: Counter[str] = Counter()
    finished = 0
    try:
        writer = writer_for(output, selector, options)
        for run in runs:
            for ep in run.episodes(EXPORT_KINDS, tokens=options.format.startswith("rl-")):
                finished += 1
                reason = selector.episode_reason(run, ep)
                if reason is not None:
                    skipped[f"episode:{reason}"] += 1
                    continue
                split = selector.split(ep)
                written = writer.add(run, ep, selector.reward(run, ep), split)
                if written:
                    episodes[split] += 1
                    rows[split] += written
        files = output.close()
        skipped.update(writer.skipped)
        _refuse_empty_token_export(options, sum(rows.values()), skipped)
        summary = ExportSummary(
            format=options.format, runs=[str(r.path) for r in runs], out=str(output.out), files=files,
            episodes_finished=finished, episodes_exported=sum(episodes.values()), rows=sum(files.values()),
            skipped=dict(sorted(skipped.items())), split_rows=writer.split_rows, options=options,
            splits={
                name: SplitSummary(libraries=s.libraries, episodes=episodes[name], rows=rows[name])
                for name, s in per_split.items()
            },
        )  # fmt: skip
        output.commit(summary)
    except BaseException:
        output.abort()
        raise
    log.info("traces_exported", format=options.format, out=str(output.out), rows=summary.rows, skipped=summary.skipped)  # fmt: skip
    return summary


def _refuse_empty_token_export(options: ExportOptions, rows: int, skipped: Counter[str]) -> None:
    inexact = skipped.get("trajectory:inexact_token_ids", 0)
    if options.format.startswith("rl-") and rows == 0 and inexact:
        hint = " or pass --keep-inexact" if options.format == "rl-steps" else ""
        raise UsageError(
            f"--format {options.format}: none of the {inexact} trajectories has exact token ids "
            "(token_fidelity=exact needs a server that returns prompt and completion ids, e.g. vLLM "
            f"with return_token_ids); ids are never re-tokenised: export --format sft instead{hint}"
        )
