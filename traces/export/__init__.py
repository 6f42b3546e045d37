"""Captured traces → the files trainers read: TRL SFT rows, step-wise and merged RL rows, Parquet tables."""

from .export import export_runs
from .options import FORMATS, ExportFilters, ExportOptions, ExportSummary, Format, SplitSummary
from .source import ALL_KINDS, EXPORT_KINDS, FinishedEpisode, RunSource, open_runs
from .trajectories import Trajectory, trajectories

__all__ = [
    "ALL_KINDS",
    "EXPORT_KINDS",
    "FORMATS",
    "ExportFilters",
    "ExportOptions",
    "ExportSummary",
    "FinishedEpisode",
    "Format",
    "RunSource",
    "SplitSummary",
    "Trajectory",
    "export_runs",
    "open_runs",
    "trajectories",
]
