"""The rollout contract runs as written: docs/rollouts.md's first example holds the issue's snippet verbatim
and runs from an empty folder outside the checkout, writing nothing there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parent.parent / "docs" / "rollouts.md"
pytestmark = pytest.mark.slow

CONTRACT = """from repozero import RunSpec, Session, load_config
from repozero.rollouts import RolloutEngine

async def main():
    spec = RunSpec(dataset="builtin:py2js-lite", model="fake:buggy-then-fix", scaffold="bash", ace_rounds=1)
    async with Session.open(load_config(), spec) as s:
        async with RolloutEngine(s) as engine:
            group = await engine.run_group("base58-check", 4)
    for t in group.trajectories:        # prompt_ids, response_ids, response_mask, response_logprobs, reward, …
        assert len(t.response_ids) == len(t.response_mask) == len(t.response_logprobs)
"""
"""The issue's contract, character for character."""


def test_the_contract_runs_as_written_from_the_docs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert blocks and CONTRACT in blocks[0]
    script = tmp_path / "example.py"
    script.write_text(blocks[0], encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=work, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["4", "[1.0,", "1.0,", "1.0,", "1.0]", "exact"]  # fixed after feedback
    assert os.listdir(work) == [] and "Traceback" not in proc.stderr
