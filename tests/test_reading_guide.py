"""docs/architecture.md's reading guide is true: the modules its first section lists are the ones one
episode's own control flow passes through on its way to the grade and the trace file (recorded under a
profiler by tests/episode_path.py), there are at most twelve, and each exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "architecture.md"


def listed_path() -> list[str]:
    """The modules the numbered rows of the guide's first section (before its first `##` heading) name."""
    first = GUIDE.read_text().split("\n## ", 1)[0]
    rows = "\n".join(line for line in first.splitlines() if re.match(r"\| \d+ \|", line))
    names: list[str] = []
    for name in re.findall(r"`([\w/]+\.py)`", rows):
        if name not in names:
            names.append(name)
    return names


def test_the_guide_lists_at_most_twelve_modules_that_exist() -> None:
    modules = listed_path()
    assert 1 <= len(modules) <= 12, modules
    assert [m for m in modules if not (ROOT / m).is_file()] == []


@pytest.mark.slow
def test_the_guide_is_the_path_one_episode_takes(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "tests" / "episode_path.py"), "run", "--dataset", "builtin:py2js-lite",
         "--samples", "base58-check", "--model", "fake:gold", "--ace-rounds", "1", "--display", "off",
         "--out", str(tmp_path / "run")],
        capture_output=True, text=True, timeout=600, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    recorded = [line.removeprefix("path: ") for line in proc.stdout.splitlines() if line.startswith("path: ")]
    assert "oracle/grading.py" in recorded and "traces/store.py" in recorded  # the recorder saw both ends
    assert sorted(recorded) == sorted(listed_path())
