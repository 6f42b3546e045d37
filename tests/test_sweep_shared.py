"""A sweep's cells share what only their settings tell apart: one sandbox backend per sandbox settings (its
start-up reaping of stale sandboxes runs once, not once per cell; on Docker one client and warm pool)."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

import anyio
import pytest

from repozero import load_config
from repozero.orchestrator.sweeps.sweep import open_sweep
from repozero.orchestrator.sweeps.sweep_parts import shared_backend
from repozero.sandbox import SandboxBackend

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"


@pytest.mark.anyio
async def test_cells_with_the_same_sandbox_settings_share_one_backend(tmp_path: Path) -> None:
    spec = tmp_path / "spec.toml"
    spec.write_text(
        f'dataset = "{FIXTURE}"\n[axes]\nmodel = ["fake:gold"]\n"agent.step_limit" = [50, 51]\n'
        '"sandbox.memory_mb" = [512, 1024]\n'
    )
    sweep = open_sweep(load_config(), spec, str(tmp_path / "out"))
    assert len(sweep.cells) == 4
    with anyio.fail_after(30):
        async with AsyncExitStack() as stack:
            backends: dict[str, SandboxBackend] = {}
            got = {c.key: await shared_backend(stack, backends, c, "sweep-s") for c in sweep.cells}
    assert len(backends) == 2
    by_memory: dict[int, set[int]] = {}
    for cell in sweep.cells:
        by_memory.setdefault(cell.config.sandbox.memory_mb, set()).add(id(got[cell.key]))
    assert sorted(len(ids) for ids in by_memory.values()) == [1, 1]  # one backend per memory setting
    assert len(set().union(*by_memory.values())) == 2
