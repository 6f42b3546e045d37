"""A trainer's cancel scope around a `Session` ends it promptly, whatever is in flight.

`Session.open` closes its parts with an `AsyncExitStack`. On CPython 3.11 a stack that re-raises the
cancellation a task group gave it can make that `CancelledError` its own `__context__`; anyio then walks the
chain forever and the caller hangs after Ctrl-C (seen with `dataset generate`, whose runner now nests its
`async with`s instead). Here the cancellation lands from inside the run — from a sink, as the first event of
a kind arrives — so it hits an Oracle call, a sandbox command or a grade in flight. Each case runs in its own
process: a hang is a timeout of that process, not of the suite.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
pytestmark = pytest.mark.slow

SCRIPT = textwrap.dedent(
    """
    import sys, time, anyio
    from repozero import RunSpec, Session, load_config

    FIXTURE, EVENT, BACKEND = sys.argv[1], sys.argv[2], sys.argv[3]

    async def main():
        spec = RunSpec(dataset=FIXTURE, model="fake:buggy-then-fix", ace_rounds=1, attempts=3, concurrency=6)
        seen = []
        with anyio.CancelScope() as scope:
            class CancelOn:
                def emit(self, event):
                    if type(event).__name__ == EVENT and not seen:
                        seen.append(time.monotonic())
                        scope.cancel()
            async with Session.open(load_config(), spec, sinks=[CancelOn()]) as s:
                await s.run()
        assert seen, f"no {EVENT} before the run ended"
        print(f"cancelled_after_s={time.monotonic() - seen[0]:.2f}")

    backend = {"asyncio": ("asyncio", {"use_uvloop": True}), "trio": ("trio", {})}[BACKEND]
    anyio.run(main, backend=backend[0], backend_options=backend[1])
    """
)


@pytest.mark.parametrize(
    ("event", "backend"),
    [
        ("OracleAnswered", "asyncio"),  # the tester's inputs at the Oracle; other episodes mid-call
        ("ToolExecuted", "asyncio"),  # a sandbox command in flight
        ("VisibleCasesGraded", "trio"),  # grading in flight, on the other backend
    ],
)
def test_cancelling_a_session_mid_run_returns_promptly(event: str, backend: str, tmp_path: Path) -> None:
    try:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT, str(FIXTURE), event, backend],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the session hung after a cancel on {event}: {exc.stderr!r}"[-3000:])
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr, done.stderr[-3000:]  # a cancelled run is quiet, server too
    assert "cancelled_after_s=" in done.stdout
    assert list(tmp_path.iterdir()) == []  # nothing written where it ran, even when cut short
