"""A trainer's `Session.open(..., run_dir=D)` holds D's run lock as `repozero run` does: a second session on
D (in this process or another) and a `repozero run --out D` are refused naming its pid; `repozero run`
itself opens its session under the lock it took (lent), and a closed session leaves no owner."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import sys
from pathlib import Path

import anyio
import pytest

from repozero import RunSpec, Session, load_config
from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.runlock import LOCK_NAME, owner_of

H = sys.modules["repozero_chaos_helpers"]


def test_a_session_with_a_run_dir_holds_its_lock(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    spec = RunSpec(dataset=str(H.FIXTURE), model="fake:gold", ace_rounds=0)
    me = f"pid {os.getpid()} on host {socket.gethostname()}"

    async def main() -> tuple[int, str]:
        async with Session.open(load_config(), spec, run_dir=run_dir):
            owner = owner_of(run_dir / LOCK_NAME)
            assert owner is not None and owner.pid == os.getpid()
            with pytest.raises(UsageError, match=me):
                async with Session.open(load_config(), spec, run_dir=run_dir):
                    pass
            other = await anyio.run_process(
                H.command("run", "--dataset", str(H.FIXTURE), "--model", "fake:gold", "--out", str(run_dir)),
                check=False,
            )
        async with Session.open(load_config(), spec, run_dir=run_dir) as again:  # free once closed
            await again.run_episode("fx-slug")
        return other.returncode, other.stderr.decode()

    code, err = asyncio.run(main())
    assert code == 2, err[-2000:]
    H.assert_no_traceback(err)
    assert me in err and "--out" in err
    # the refused run wrote nothing: the manifest is the sessions' own (Session.open writes one, so that
    # `repozero report` reads a trainer's run directory), and the lock is free
    assert json.loads((run_dir / "manifest.json").read_text())["run_id"] == "run"
    assert (run_dir / LOCK_NAME).read_bytes() == b""
