"""repozero.orchestrator.report: the paper's tables and figures from run directories, side by side."""

from repozero.orchestrator.report.estimates import DEFAULT_RESAMPLES, Estimate, Unit, bootstrap, pass_at_k
from repozero.orchestrator.report.load import RunData, load_run
from repozero.orchestrator.report.model import Report, Row, RunInfo, Settings, Share, Table
from repozero.orchestrator.report.tables import build_report

__all__ = [
    "DEFAULT_RESAMPLES",
    "Estimate",
    "Report",
    "Row",
    "RunData",
    "RunInfo",
    "Settings",
    "Share",
    "Table",
    "Unit",
    "bootstrap",
    "build_report",
    "load_run",
    "pass_at_k",
]
