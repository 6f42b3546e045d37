"""The rollout contracts run as written: docs/rollouts.md's first example and its per-role example each hold
an issue's snippet verbatim and run from an empty folder outside the checkout, writing nothing there."""

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

ROLES_CONTRACT = """import asyncio
from repozero import RunSpec, Session, load_config
from repozero.rollouts import RolloutEngine

async def main():
    spec = RunSpec(dataset="builtin:py2js-lite", model="fake:buggy-then-fix", scaffold="bash", ace_rounds=1)
    async with Session.open(load_config(), spec) as s:
        async with RolloutEngine(s, roles=("coder", "tester")) as engine:
            return await engine.run_group("base58-check", 4)

g = asyncio.run(main())
coder = [t for t in g.trajectories if t.role == "coder"]
tester = [t for t in g.trajectories if t.role == "tester"]
assert len(coder) == len(tester) == 4 and all(t.reward is not None for t in g.trajectories)
"""
"""Issue 41's contract (per-role trajectories), character for character."""


def run_block(block: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """Run a docs block as a script from an empty folder outside the checkout; it must write nothing."""
    script = tmp_path / "example.py"
    script.write_text(block, encoding="utf-8")
    work = tmp_path / "work"
    work.mkdir()
    proc = subprocess.run(
        [sys.executable, str(script)], cwd=work, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert os.listdir(work) == [] and "Traceback" not in proc.stderr
    return proc


def test_the_contract_runs_as_written_from_the_docs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    assert blocks and CONTRACT in blocks[0]
    proc = run_block(blocks[0], tmp_path)
    assert proc.stdout.split() == ["4", "[1.0,", "1.0,", "1.0,", "1.0]", "exact"]  # fixed after feedback


def test_the_per_role_contract_runs_as_written_from_the_docs(tmp_path: Path) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)
    (block,) = [b for b in blocks if ROLES_CONTRACT in b]
    proc = run_block(block, tmp_path)
    # the coder fixed its tree; the tester's three inputs exposed the bug: 3 of the 8 asked for
    assert proc.stdout.strip() == "[1.0, 1.0, 1.0, 1.0] [0.375, 0.375, 0.375, 0.375]"
