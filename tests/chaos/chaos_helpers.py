"""What every chaos test checks after its fault: each planned episode ended exactly once, nothing lost or
duplicated in the results store or the traces, and how to start real `repozero` processes on a run."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import msgspec

from repozero.datasets import load_dataset
from repozero.datasets.disk import write_sample
from repozero.oracle.verdict_cache import ResultCache
from repozero.orchestrator.engine.manifest import read_manifest
from repozero.orchestrator.engine.results import ResultsStore
from repozero.traces import TraceReader

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "fakellm"


def make_dataset(tmp_path: Path, copies: int = 1) -> Path:
    """The fake-LLM fixture (fx-slug, fx-stats), each sample copied `copies` times under new ids (…-cN)."""
    root = tmp_path / "ds"
    shutil.copytree(FIXTURE, root)
    for sample in load_dataset(root).samples:
        for n in range(1, copies):
            new_id = f"{sample.id}-c{n}"
            shutil.copytree(root / "samples" / sample.id, root / "samples" / new_id)
            write_sample(root, msgspec.structs.replace(sample, id=new_id))
    return root


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "repozero", *args]


def repozero(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command(*args), capture_output=True, text=True, timeout=timeout)


def start(*args: str, log: Path, stdout: Path | None = None) -> subprocess.Popen[bytes]:
    """A `repozero` process in its own session (killed as a group), stderr to `log` (stdout to `stdout`)."""
    return _spawn(command(*args), log, stdout)


def start_script(script: Path, *args: str, log: Path) -> subprocess.Popen[bytes]:
    """A Python script in its own session, stderr and stdout to `log`."""
    return _spawn([sys.executable, str(script), *args], log, log)


def _spawn(argv: list[str], log: Path, stdout: Path | None) -> subprocess.Popen[bytes]:
    with log.open("ab") as err, (stdout or Path(os.devnull)).open("ab") as out:
        return subprocess.Popen(argv, stdout=out, stderr=err, start_new_session=True)


def finished_count(run_dir: Path) -> int:
    db = run_dir / "results.sqlite"
    if not db.exists():
        return 0
    con = sqlite3.connect(db, timeout=10)
    try:
        return int(
            con.execute(
                "SELECT COUNT(*) FROM episodes WHERE status IN ('finished', 'infra_error')"
            ).fetchone()[0]
        )
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
    finally:
        con.close()


def ended_ids(run_dir: Path) -> set[str]:
    """Episodes the results store has ended (finished or infra_error)."""
    con = sqlite3.connect(run_dir / "results.sqlite", timeout=10)
    try:
        rows = con.execute("SELECT episode_id FROM episodes WHERE status IN ('finished', 'infra_error')")
        return {r[0] for r in rows}
    except sqlite3.OperationalError:  # the schema's commit was lost too
        return set()
    finally:
        con.close()


def assert_no_traceback(text: str) -> None:
    assert "Traceback (most recent call last)" not in text, text[-3000:]


def assert_each_episode_once(
    run_dir: Path, *, lost: set[str] | frozenset[str] = frozenset(), superseded_ok: bool = False
) -> dict[str, str]:
    """The invariant: every planned episode ended exactly once (scored or infra) in the results store and in
    the traces, with every round recorded once. Returns episode id → status.

    `lost`: finished episodes whose trace a test cut off on purpose (named by `lost_episodes`, not read).
    `superseded_ok`: an episode the store lost (a cut write-ahead log) ran again; its older trace entry
    stays in the trace manifest, and the latest one counts (as exporters read it)."""
    manifest = read_manifest(run_dir)
    planned = {f"{s}--a{a}" for s in manifest.samples for a in range(manifest.attempts)}
    store = ResultsStore.open_readonly(run_dir / "results.sqlite")
    try:
        rows = store.episode_rows()
        all_rounds = store.all_rounds()
    finally:
        store.close()
    statuses = {r.episode_id: r.status for r in rows}
    assert len(rows) == len(statuses) == len(planned) and set(statuses) == planned, (statuses, planned)
    assert set(statuses.values()) <= {"finished", "infra_error"}, statuses
    for row in rows:
        assert row.result is not None and row.result.episode_id == row.episode_id
        if row.status == "finished":
            stored = [r.round for r in all_rounds.get(row.episode_id, [])]
            assert stored == list(range(row.result.rounds_used)), (row.episode_id, stored)
            assert [r.round for r in row.result.rounds] == stored
    reader = TraceReader(run_dir / "traces")
    entries = Counter(e.episode_id for e in reader.finished_episodes())
    assert set(entries) == planned, entries
    assert superseded_ok or set(entries.values()) == {1}, entries
    assert {e.episode_id for e in reader.lost_episodes()} == set(lost)
    latest = {e.episode_id: e for e in sorted(reader.finished_episodes(), key=lambda e: e.finished_at)}
    for entry in latest.values():
        if entry.episode_id in lost:
            continue
        trace = reader.episode(entry)
        assert trace.episode is not None and trace.start is not None, entry.episode_id
        assert trace.episode.infra_error == (statuses[entry.episode_id] == "infra_error")
    return statuses


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, timeout: float = 60) -> None:
    """Until something accepts connections on 127.0.0.1:`port`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


def serve_fake(
    port: int, dataset: Path, log: Path, *flags: str, policy: str = "buggy-then-fix"
) -> subprocess.Popen[bytes]:
    """`repozero fake-llm serve` on `port` (a real loopback model server, its own process group)."""
    proc = start(
        "fake-llm",
        "serve",
        "--port",
        str(port),
        "--policy",
        policy,
        "--dataset",
        str(dataset),
        *flags,
        log=log,
    )
    wait_listening(port)
    return proc


def stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
    """Signal `proc`'s process group and reap it."""
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass
    proc.wait(timeout=60)


def endpoint_config(path: Path, name: str, port: int, **settings: object) -> Path:
    """A config file with one OpenAI-style endpoint `name` on 127.0.0.1:`port` (TOML; `settings` are
    `[endpoints.NAME]` keys, `agent__KEY` ones go to `[agent]`)."""
    agent = {k.removeprefix("agent__"): v for k, v in settings.items() if k.startswith("agent__")}
    endpoint = {k: v for k, v in settings.items() if not k.startswith("agent__")}
    lines = [f"[endpoints.{name}]", f'base_urls = ["http://127.0.0.1:{port}/v1"]']
    lines += [f"{k} = {_toml(v)}" for k, v in endpoint.items()]
    if agent:
        lines += ["[agent]", *(f"{k} = {_toml(v)}" for k, v in agent.items())]
    path.write_text("\n".join(lines) + "\n")
    return path


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def descendants(root: int) -> dict[int, str]:
    """Every live process under `root` (by parent pid, whatever its session), pid → start time."""
    parents: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = (int(fields[1]), fields[19])
    found: dict[int, str] = {}
    frontier = [root]
    while frontier:
        pid = frontier.pop()
        for child, (ppid, start) in parents.items():
            if ppid == pid and child not in found:
                found[child] = start
                frontier.append(child)
    return found


def alive(procs: dict[int, str]) -> dict[int, str]:
    """Those of `procs` still running (same pid and start time, so not a reused pid), with their command."""
    alive = {}
    for pid, start in procs.items():
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if stat[19] == start and stat[0] != "Z":
            alive[pid] = cmd[:200]
    return alive


def check_oracle_cache(cache: Path) -> None:
    """Every result-cache line whole (a torn one would be skipped, never misread); every environment the
    cache shows as ready is whole (its ready marker parses)."""
    results = cache / "oracle" / "results"
    for file in results.glob("*.jsonl") if results.is_dir() else []:
        data = file.read_bytes()
        assert not data or data.endswith(b"\n"), f"{file}: torn last entry"
        for line in data.splitlines():
            json.loads(line)
        table = ResultCache(results)._load(file.stem)  # what the next run would read
        assert len(table) == len(set(json.loads(line)["key"] for line in data.splitlines()))
    for marker in (cache / "oracle" / "venvs").glob("*/.repozero-env.json"):
        json.loads(marker.read_text())
