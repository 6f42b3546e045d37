"""A run's report lists the sandbox containers its backend found still running at close."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import SimpleNamespace

from repozero.orchestrator.engine.run import write_leaks
from repozero.orchestrator.report.load import load_run
from repozero.sandbox.docker_client import LeakedContainer
from repozero.sandbox.local import LocalBackend

from .synthetic_report import random_episodes, write_run


def test_leaks_are_written_and_reported(tmp_path: Path) -> None:
    run_dir = write_run(
        tmp_path / "run", random_episodes(random.Random(1), skill=0.5, libraries=2, per_library=2)
    )
    assert write_leaks(run_dir, SimpleNamespace(leaked=[])) == []
    assert json.loads((run_dir / "leaked.json").read_text()) == []
    assert not any("leaked" in note for note in load_run(run_dir).missing)
    leak = LeakedContainer(
        id="abc", name="repozero-r-s1-1", run_id="r", sample="s1", toolchain="node", state="running"
    )
    assert len(write_leaks(run_dir, SimpleNamespace(leaked=[leak]))) == 1
    notes = load_run(run_dir).missing
    assert any("1 sandbox container(s) leaked" in n and "repozero-r-s1-1" in n for n in notes), notes
    assert write_leaks(run_dir, LocalBackend()) == []  # the local backend has no containers to leak
