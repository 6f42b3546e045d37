"""`repozero traces view` in headless Chromium (Debian's, scripts/setup.d/30-chromium.sh): what a person
sees of a real run — the runs and the solve matrix, the episode list and its filter, one episode's
timeline, and the byte-level diff of a failing case (DOM dumped after the page's JS ran; a screenshot
decoded and checked for the colours the timeline and the diff are drawn in)."""

from __future__ import annotations

import importlib.util
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from .test_report_browser import decode_png  # its stdlib PNG decoder

pytestmark = pytest.mark.slow

WIDTH, HEIGHT = 1280, 4200
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=5000",
    f"--window-size={WIDTH},{HEIGHT}",
]


def _load(name: str) -> ModuleType:
    """A sibling test module loaded by path (importlib mode keeps tests/ off sys.path)."""
    spec = importlib.util.spec_from_file_location(f"repozero_tests_{name}", Path(__file__).with_name(f"{name}.py"))  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


RUN = _load("test_traces_export_run")


@pytest.fixture(scope="module")
def viewer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`repozero traces view RUN --port 0` in its own process; yields the page's URL."""
    run_dir = RUN.canary_run(tmp_path_factory.getbasetemp())
    argv = [sys.executable, "-m", "repozero", "traces", "view", str(run_dir), "--port", "0"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+/\?token=[\w-]+", line)
        assert found, f"no URL in {line!r}"
        yield found.group(0)
    finally:
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=20)
        if proc.stdout is not None:
            proc.stdout.close()
    assert code == 0  # stopped cleanly by Ctrl-C


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    path = shutil.which("chromium")
    assert path, "chromium is not installed: run scripts/setup.d/30-chromium.sh"
    profile = tmp_path / f"profile-{len(list(tmp_path.glob('profile-*')))}"
    profile.mkdir()
    result = subprocess.run([path, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, timeout=120, check=False)  # fmt: skip
    assert result.returncode == 0, result.stderr.decode(errors="replace")[-2000:]
    return result


def dom(tmp_path: Path, url: str) -> str:
    return chromium(tmp_path, "--dump-dom", url).stdout.decode()


def test_runs_matrix_and_the_episode_list(viewer: str, tmp_path: Path) -> None:
    home = dom(tmp_path, viewer + "#/")
    assert 'id="runs"' in home and "fake:buggy-then-fix" in home
    assert home.count('class="cell solved"') == 2  # fx-slug and fx-stats, solved in this run
    listing = dom(tmp_path, viewer + "#/run/0")
    assert 'id="episodes"' in listing and "showing 1–2 of 2" in listing
    for episode in ("fx-slug--a0", "fx-stats--a0"):
        assert f'href="#/episode/0/{episode}"' in listing
    filtered = dom(tmp_path, viewer + "#/run/0?sample=stats")
    assert "showing 1–1 of 1" in filtered and "fx-stats--a0" in filtered and "fx-slug--a0" not in filtered


def test_one_episode_timeline_and_diff(viewer: str, tmp_path: Path) -> None:
    page = dom(tmp_path, viewer + "#/episode/0/fx-stats--a0")
    assert 'id="round-0"' in page and 'id="round-1"' in page
    assert page.count('class="event model_call role-coder"') == 9  # 5 calls, then 4 after feedback
    assert page.count('class="event model_call role-tester"') == 1
    assert page.count('class="event command') >= 6 and "node test.mjs --nums" in page
    assert "feedback:" in page  # round 1's first call opens with the feedback the coder got
    diff = page[page.index('id="diff-c1"') :]
    diff = diff[: diff.index("</div></div>")]
    assert "first difference at byte 8" in diff
    assert '<mark class="chg">5</mark>' in diff and '<mark class="chg">1</mark>' in diff  # max=5 vs max=1
    slug = dom(tmp_path, viewer + "#/episode/0/fx-slug--a0")
    assert re.search(r'<span class="case status-\w+" title="\w+">canary</span>', slug)  # id and status only
    assert RUN.CANARY not in slug and RUN.CANARY.lower() not in slug


def test_screenshot_shows_timeline_and_diff(viewer: str, tmp_path: Path) -> None:
    shot = tmp_path / "episode.png"
    chromium(tmp_path, f"--screenshot={shot}", viewer + "#/episode/0/fx-stats--a0")
    width, height, rows, bpp = decode_png(shot.read_bytes())
    assert (width, height) == (WIDTH, HEIGHT)
    rgb = bytes.fromhex

    def count(colour: str) -> int:  # pixels of this colour (a 3-byte pattern is distinctive enough)
        return sum(row.count(rgb(colour)) for row in rows) if bpp == 3 else sum(row.count(rgb(colour) + b"\xff") for row in rows)  # fmt: skip

    assert count("3366cc") > 2_000  # coder calls' timeline bars
    assert count("1d2330") > 20_000  # commands (and the page header)
    assert count("fde7e9") > 2_000 and count("e6f4ea") > 2_000  # expected / actual lines
    assert count("f4a7ae") > 20 and count("93d3a2") > 20  # the differing bytes
