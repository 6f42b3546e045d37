"""Reading trace lines an older schema wrote, under today's names.

Schema 2 gave each fact one name, the one the rest of the package uses (docs/design.md, "One word per
fact"): a grade's `pass_rate` (a case rate, SR) became `success_rate` and its `solved` (PR) `passed`, the
case count `passed` became `passed_cases`; the rewards' `*_pass_rate`/`*_solved` became `*_success_rate`/
`*_passed` (and the reward formulas with them, `rewards.FORMERLY`); `infra_failure(s)` became
`infra_error(s)`. Traces written before are data people keep, so they still read.

Today's decoder runs first over a whole frame: current traces pay nothing. Only when it fails are the lines
decoded one by one, and a line that says `schema_version` 1 is renamed and decoded again by today's decoder
(still strict: a field no schema had is refused as before, naming the line).
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from .records import ManifestEntry, TraceRecord
from .rewards import formula_name

__all__ = ["UpgradingDecoder", "manifest_decoder", "record_decoder", "upgraded"]

T = TypeVar("T")

_RENAMED_V1 = {
    "infra_failure": "infra_error",
    "infra_failures": "infra_errors",
    "hidden_pass_rate": "hidden_success_rate",
    "hidden_solved": "hidden_passed",
    "visible_pass_rate": "visible_success_rate",
    "visible_solved": "visible_passed",
}
_GRADE_FIELDS = ("visible", "hidden", "summary")
"""Where a `GradeSummary` sits: a round's two grades, a grade record's summary."""


def upgraded(raw: Any) -> Any | None:
    """A schema-1 line (decoded as plain data) under schema 2's names; None if it is not a schema-1 line."""
    if not isinstance(raw, dict) or raw.get("schema_version") != 1:
        return None
    out = {_RENAMED_V1.get(k, k): v for k, v in raw.items()}
    out["schema_version"] = 2
    if isinstance(out.get("rewards"), dict):
        out["rewards"] = {_RENAMED_V1.get(k, k): v for k, v in out["rewards"].items()}
    if isinstance(out.get("reward_formula"), str):
        out["reward_formula"] = formula_name(out["reward_formula"])
    for name in _GRADE_FIELDS:
        grade = out.get(name)
        if isinstance(grade, dict) and "pass_rate" in grade:
            grade = dict(grade)
            rate, solved, count = grade.pop("pass_rate"), grade.pop("solved", None), grade.pop("passed", None)
            out[name] = {"passed": solved, "success_rate": rate, "passed_cases": count, **grade}
    return out


class UpgradingDecoder(Generic[T]):
    """A msgspec JSON decoder (`decode`, `decode_lines`) that also reads schema-1 lines (see the module)."""

    def __init__(self, decoder: msgspec.json.Decoder[T]) -> None:
        self._decoder = decoder

    def decode(self, line: bytes) -> T:
        try:
            return self._decoder.decode(line)
        except msgspec.ValidationError:
            raw = upgraded(msgspec.json.decode(line))
            if raw is None:
                raise
            return self._decoder.decode(msgspec.json.encode(raw))

    def decode_lines(self, payload: bytes) -> list[T]:
        try:
            return self._decoder.decode_lines(payload)
        except msgspec.ValidationError:
            return [self.decode(line) for line in payload.split(b"\n") if line.strip()]


def record_decoder() -> UpgradingDecoder[TraceRecord]:
    """A decoder for shard lines (build once, reuse: `decode_lines` takes a whole frame)."""
    return UpgradingDecoder(msgspec.json.Decoder(TraceRecord))  # type: ignore[arg-type]


def manifest_decoder() -> UpgradingDecoder[ManifestEntry]:
    return UpgradingDecoder(msgspec.json.Decoder(ManifestEntry))
