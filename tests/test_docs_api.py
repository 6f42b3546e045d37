"""docs/api.md's example is a contract: it runs as written, from an empty folder outside the checkout,
and writes nothing there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
pytestmark = pytest.mark.slow


def test_the_api_example_runs_as_written_and_writes_nothing(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert blocks, "docs/api.md has no python example"
    script = tmp_path / "example.py"
    script.write_text(blocks[0], encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=work, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["base58-check", "True", "1.0", "1.0", *proc.stdout.split()[4:5], "solved"]
    assert os.listdir(work) == []
    assert "Traceback" not in proc.stderr
