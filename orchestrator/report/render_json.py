"""The report as JSON for scripts: every number unrounded (rates as fractions), cells tagged by type."""

from __future__ import annotations

import msgspec

from repozero.orchestrator.report.model import Report

__all__ = ["decode_report", "render_json"]

_decoder = msgspec.json.Decoder(Report)


def render_json(report: Report) -> str:
    return msgspec.json.format(msgspec.json.encode(report), indent=2).decode() + "\n"


def decode_report(text: str | bytes) -> Report:
    """Read a JSON report back (the schema is `Report`; cells are tagged "estimate" or "share")."""
    return _decoder.decode(text)
