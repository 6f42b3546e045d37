"""The live run panel in a real terminal: `repozero run` in a tmux pane (tmux from
scripts/setup.d/35-tmux.sh), read back with `capture-pane` — what a person watching the run sees.

On a terminal only warnings and errors print above the panel, and info events go to RUN_DIR/events.log;
`--log-level info` brings them back to the terminal; without a terminal stderr carries them as before.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"  # two samples
PANEL_TOP = "╭─ repozero run"
WAIT_S = 240.0
"""A guard against a hang (runs are slow on a loaded 2-core machine), never a measurement."""


class Pane:
    """One tmux server of our own (its own socket) holding one pane of a fixed size."""

    def __init__(self, socket: str) -> None:
        tmux = shutil.which("tmux")
        assert tmux, "tmux is not installed: run scripts/setup.d/35-tmux.sh"
        self.base = [tmux, "-L", socket, "-f", "/dev/null"]

    def start(self, argv: list[str], cwd: Path, width: int = 120, height: int = 50) -> None:
        """Run `argv` in a new pane; when it ends the pane shows `EXIT=<code>` and stays open."""
        # the shell traps ^C (its child gets the default back): it must outlive the run to print EXIT
        shell = f"trap : INT; cd {shlex.quote(str(cwd))} && {shlex.join(argv)}; echo EXIT=$?; sleep 3600"
        cmd = ["new-session", "-d", "-x", str(width), "-y", str(height), "sh", "-c", shell]
        # an explicit environment: a library's C-level setenv can leave COLUMNS=80 for children to inherit
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        subprocess.run([*self.base, *cmd], check=True, timeout=30, env=env)

    def text(self) -> str:
        """The pane's scrollback and screen as plain text (no escape codes)."""
        out = subprocess.run(
            [*self.base, "capture-pane", "-p", "-S", "-"], capture_output=True, text=True, timeout=30
        )
        return out.stdout

    def wait_for(self, done: Callable[[str], object]) -> str:
        deadline = time.monotonic() + WAIT_S
        while True:
            text = self.text()
            if done(text):
                return text
            assert time.monotonic() < deadline, f"the pane never got there; it shows:\n{text}"
            time.sleep(0.2)

    def keys(self, *keys: str) -> None:
        subprocess.run([*self.base, "send-keys", *keys], check=True, timeout=30)

    def close(self) -> None:
        subprocess.run([*self.base, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def pane(tmp_path: Path) -> Iterator[Pane]:
    p = Pane(f"repozero-test-{tmp_path.name}-{time.monotonic_ns()}")
    try:
        yield p
    finally:
        p.close()


def run_argv(run_dir: Path, *extra: str) -> list[str]:
    return [
        sys.executable, "-m", "repozero", "run", "--dataset", str(FIXTURE), "--model", "fake:gold",
        "--out", str(run_dir), *extra,
    ]  # fmt: skip


def events(run_dir: Path) -> list[str]:
    """The event names in the run log (readable lines: `<time> [<level>] <event> key=value ...`)."""
    return re.findall(r"^\S+Z \[\w+\s*\] (\w+)", (run_dir / "events.log").read_text(), re.MULTILINE)


def test_a_terminal_shows_the_panel_with_warnings_above_it_and_no_info_lines(
    pane: Pane, tmp_path: Path
) -> None:
    run_dir = tmp_path / "run"
    # one episode at a time, four episodes, a model that takes ten minutes per call: the run stays put
    argv = run_argv(run_dir, "--concurrency", "1", "--attempts", "2", "--set", "run.fake_latency_ms=600000")
    pane.start(argv, tmp_path)
    # the limiter full, three waiting; no episode can end, yet the ETA becomes a number (a guess: `~`)
    screen = pane.wait_for(lambda t: re.search(r"\bepisodes\s+1/1\s+3\b", t) and "eta ~" in t)
    assert "0/4 done · 1 running · 3 queued" in screen and re.search(r"eta ~\d+m\d\ds", screen)
    assert re.search(r"\bmodel:fake\s+1/1024\s+0\b", screen)  # the call in flight holds a connection
    assert re.search(r"fx-(slug|stats)--a[01]\s+\d+m\d\ds\s+0\s+0\s+episode_started \d+s ago", screen)
    assert "info events → run/events.log" in screen  # under the working directory: named relative to it
    assert "[info" not in screen and screen.count(PANEL_TOP) == 1

    pane.keys("C-c")  # SIGINT: the run stops, and says so with a warning
    screen = pane.wait_for(lambda t: "EXIT=" in t)
    lines = screen.splitlines()
    assert "EXIT=130" in screen and "interrupted: 0/4 episodes finished" in screen
    warning = next(i for i, line in enumerate(lines) if "[warning" in line and "run_interrupted" in line)
    assert warning < lines.index(next(x for x in lines if x.startswith(PANEL_TOP)))
    assert "[info" not in screen and screen.count(PANEL_TOP) == 1  # one frame, redrawn in place
    logged = events(run_dir)
    assert {"run_started", "episode_started", "run_interrupted"} <= set(logged)


def test_log_level_info_prints_info_events_above_the_panel(pane: Pane, tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    pane.start(run_argv(run_dir, "--log-level", "info"), tmp_path)
    screen = pane.wait_for(lambda t: "EXIT=" in t)
    assert "EXIT=0" in screen, screen
    assert screen.count(PANEL_TOP) == 1, screen  # one frame: no line printed past it left a ghost behind
    lines = screen.splitlines()
    top = lines.index(next(x for x in lines if x.startswith(PANEL_TOP)))
    above = [x for x in lines[:top] if "[info" in x]
    started, finished = (sum(event in x for x in above) for event in ("episode_started", "episode_finished"))
    assert started == finished == 2, screen
    assert "2/2 done · 0 running · 0 queued" in screen and "100.0% (2 solved of 2 scored)" in screen
    assert events(run_dir).count("episode_started") == 2  # the run log has them too


def test_without_a_terminal_stderr_carries_info_lines_and_no_panel(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    proc = subprocess.run(
        run_argv(run_dir), capture_output=True, text=True, timeout=WAIT_S, stdin=subprocess.DEVNULL
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stderr.count("episode_started") == 2 and "run_progress" in proc.stderr
    assert PANEL_TOP not in proc.stderr and "╰" not in proc.stderr
    logged = events(run_dir)
    assert logged.count("episode_started") == 2 and logged.count("episode_finished") == 2
