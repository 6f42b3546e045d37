"""The failing visible cases of a grade, as the coder's feedback shows them (byte-level diffs)."""

from __future__ import annotations

from collections.abc import Sequence

from repozero.agents.roles import Failure
from repozero.datasets import Case
from repozero.oracle.compare import byte_diff
from repozero.oracle.grading import SampleGrade

__all__ = ["visible_failures"]


def visible_failures(shown: Sequence[Case], grade: SampleGrade) -> list[Failure]:
    """Every case of `shown` (whitebox, the tester's grounded inputs) that `grade` did not pass, in grade
    order, with its output beside the Oracle's; cases outside `shown` (hidden ones) are never included."""
    cases = {c.id: c for c in shown}
    outputs = {o.id: o for o in grade.outputs}
    failures = []
    for result in grade.cases:
        if result.status == "pass" or result.id not in cases:
            continue
        case, out = cases[result.id], outputs.get(result.id)
        actual = out.stdout if out else b""
        failures.append(
            Failure(
                case_id=case.id,
                argv=case.argv,
                stdin=case.stdin,
                status=result.status,
                expected_stdout=case.expected_stdout or b"",
                actual_stdout=actual,
                expected_exit=case.expected_exit,
                actual_exit=result.exit_code,
                stderr=out.stderr if out else b"",
                diff=byte_diff(case.expected_stdout or b"", actual),
            )
        )
    return failures
