"""A toolchain removed under a running episode (issue 40, item 2): what another process's old toolchain code
did to live sandboxes — the dir renamed aside, then emptied — done here by renames only, to a run's own
toolchain dir (`sandbox.toolchain_dir`), once the first episode's coder sandbox is live. The coder's next
command finds `ls` gone; the episode ends as an infrastructure failure (not a model failure, not scored),
is retried with the toolchain built again, and the run scores as if nothing happened: both gold episodes
pass, 0 infra errors. Then the invariant."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

import pytest

H = sys.modules["repozero_chaos_helpers"]
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

KEYED = re.compile(r"node-.+-[0-9a-f]{16}")


def _wait(what: str, done: object, run: object, log: Path, deadline: float) -> None:
    while not done():  # type: ignore[operator]
        assert run.poll() is None, log.read_text()[-3000:]  # type: ignore[attr-defined]
        assert time.monotonic() < deadline, f"{what}: {log.read_text()[-3000:]}"
        time.sleep(0.02)


def _remove(toolchain: Path) -> None:
    """Rename the dir aside, then move its entries out of it (an rmtree without the loss)."""
    aside = toolchain.with_name(f".removed-{toolchain.name}")
    toolchain.rename(aside)
    attic = toolchain.with_name(f".attic-{toolchain.name}")
    attic.mkdir()
    for entry in (aside / "bin").iterdir():
        entry.rename(attic / entry.name)


def test_a_toolchain_removed_under_a_running_episode_is_infra_retried_and_scored_as_if_nothing_happened(
    tmp_path: Path,
) -> None:
    ds = H.make_dataset(tmp_path)
    run_dir, toolchains, boxes = tmp_path / "run", tmp_path / "toolchains", tmp_path / "sandboxes"
    log, out = tmp_path / "run.log", tmp_path / "out.json"
    run = H.start(
        "run", "--dataset", str(ds), "--model", "fake:gold", "--concurrency", "1", "--out", str(run_dir),
        "--sandbox", "local", "--set", f"sandbox.toolchain_dir={toolchains}",
        "--set", f"sandbox.local_root={boxes}", "--set", "run.fake_latency_ms=1500",
        "--set", "run.infra_retry_wait_s=1", "--display", "off", "--json", log=log, stdout=out,
    )  # fmt: skip
    deadline = time.monotonic() + 400
    try:
        _wait("no episode started", lambda: "episode_started" in log.read_text(), run, log, deadline)
        # the coder's sandbox is open (its first command waits 1.5 s for the model's answer)
        _wait("no live sandbox", lambda: boxes.is_dir() and any(boxes.glob("sbx-*")), run, log, deadline)
        (toolchain,) = [p for p in toolchains.iterdir() if KEYED.fullmatch(p.name)]
        _remove(toolchain)
        assert run.wait(timeout=max(1.0, deadline - time.monotonic())) == 0, log.read_text()[-3000:]
    finally:
        H.stop(run)
    text = log.read_text()
    H.assert_no_traceback(text)
    summary = json.loads(out.read_text())
    assert summary["finished"] == summary["scored"] == 2 and summary["infra_errors"] == 0, summary
    assert summary["pass_rate"] == summary["success_rate"] == 1.0, summary  # gold, as if nothing happened
    failures = [line for line in text.splitlines() if "episode_infra_error" in line]
    assert len(failures) == 1 and "toolchain" in failures[0], text[-3000:]  # the hit episode, once
    assert re.search(r"episode_started .*try_no=1", text), text[-3000:]  # and its retry
    assert "toolchain_rebuilt" in text
    assert (toolchain / "bin" / "node").is_file()  # built again at its content-keyed place
    statuses = H.assert_each_episode_once(run_dir)
    assert set(statuses.values()) == {"finished"}, statuses
