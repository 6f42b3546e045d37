"""The Docker daemon restarts mid-run (`--sandbox docker`). The daemon here is a second dockerd of the test's
own (its own socket, data root and exec root; no bridge, no iptables), so the machine's shared daemon and
the other tests using it are never touched. Episodes whose containers vanished are retried as infra (bounded,
after a wait), the backend talks to the daemon again once it is back, nothing is scored as the model's
failure; a run killed with -9 leaves containers that the next start reaps. Then the invariant."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from repozero.sandbox.docker_client import LABEL_RUN
from repozero.sandbox.images import image_ref

H = sys.modules["repozero_chaos_helpers"]
pytestmark = pytest.mark.slow


class Daemon:
    """A private dockerd: started, stopped (SIGTERM, as `systemctl restart docker` does) and started again."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sock = root / "docker.sock"
        self.host = f"unix://{self.sock}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.bridge = f"rzchaos{os.getpid() % 100000}"  # an interface name has at most 15 characters

    def make_bridge(self) -> None:
        """A bridge of the test's own. `--bridge none` would not do: moby's `removeDefaultBridgeInterface`
        then deletes `docker0`, the host daemon's bridge, and every later `docker build` whose RUN step needs
        the default network fails ("could not find bridge docker0"), as the suite's Harbor test did in CI."""
        subprocess.run(["ip", "link", "add", self.bridge, "type", "bridge"], check=True)
        subprocess.run(["ip", "link", "set", self.bridge, "up"], check=True)

    def drop_bridge(self) -> None:
        subprocess.run(["ip", "link", "delete", self.bridge], capture_output=True)

    def start(self) -> None:
        argv = [
            "dockerd", "--host", self.host, "--data-root", str(self.root / "data"),
            "--exec-root", str(self.root / "exec"), "--pidfile", str(self.root / "docker.pid"),
            "--bridge", self.bridge, "--iptables=false", "--ip6tables=false",
        ]  # fmt: skip
        with (self.root / "dockerd.log").open("ab") as log:
            self.proc = subprocess.Popen(argv, stdout=log, stderr=log, start_new_session=True)
        deadline = time.monotonic() + 120
        while self.docker("version").returncode != 0:
            assert self.proc.poll() is None, (self.root / "dockerd.log").read_text()[-2000:]
            assert time.monotonic() < deadline, "the test's dockerd did not come up"
            time.sleep(0.2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=120)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def docker(self, *args: str, **kw: object) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(["docker", "--host", self.host, *args], capture_output=True, **kw)  # type: ignore[call-overload]

    def containers(self, run_id: str) -> list[str]:
        return self.docker("ps", "-aq", "--filter", f"label={LABEL_RUN}={run_id}").stdout.decode().split()


@pytest.fixture
def daemon() -> Iterator[Daemon]:
    if os.geteuid() != 0 or not shutil.which("dockerd"):
        pytest.skip("a private dockerd needs root and dockerd")
    node = image_ref("node")
    if subprocess.run(["docker", "image", "inspect", node], capture_output=True).returncode != 0:
        pytest.skip(f"{node} is not built here (repozero images build)")
    root = Path(f"/tmp/rz-dockerd-{os.getpid()}")  # short: the socket path has a length limit
    root.mkdir(exist_ok=True)
    d = Daemon(root)
    host_bridge = Path("/sys/class/net/docker0")
    had_host_bridge = host_bridge.exists()
    d.make_bridge()
    try:
        d.start()
        with subprocess.Popen(["docker", "save", node], stdout=subprocess.PIPE) as saved:
            loaded = d.docker("load", stdin=saved.stdout)
        assert loaded.returncode == 0, loaded.stderr
        yield d
    finally:
        d.stop()
        for mounted in (
            "exec",
            "data",
        ):  # dockerd mounts both; a clean stop unmounts them, a killed one may not
            subprocess.run(["umount", "-R", str(root / mounted)], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)
        d.drop_bridge()
    assert host_bridge.exists() or not had_host_bridge, "the test's dockerd removed the host daemon's docker0"


def _finished(run_dir: Path) -> int:
    return H.finished_count(run_dir)


@pytest.mark.timeout(900)  # its own deadlines allow 900 s on a loaded machine; 300 s cut it short
def test_dockerd_restart_mid_run_then_kill_9_and_reap(daemon: Daemon, tmp_path: Path) -> None:
    ds = H.make_dataset(tmp_path)
    run_dir = tmp_path / f"rz-dockerd-{os.getpid()}"
    flags = [
        "--sandbox", "docker", "--set", f"sandbox.docker_host={daemon.host}", "--set", "run.fake_latency_ms=300",
        "--set", "run.infra_retry_wait_s=4", "--display", "off",
    ]  # fmt: skip
    run = H.start(
        "run", "--dataset", str(ds), "--model", "fake:buggy-then-fix", "--ace-rounds", "1", "--attempts", "2",
        "--concurrency", "2", "--out", str(run_dir), *flags, log=tmp_path / "run.log",
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 900  # a loaded machine: minutes per episode
        while _finished(run_dir) < 1:
            assert run.poll() is None and time.monotonic() < deadline, (tmp_path / "run.log").read_text()[
                -3000:
            ]
            time.sleep(0.1)
        daemon.stop()  # containers of running episodes go with it
        time.sleep(2)
        daemon.start()
        while _finished(run_dir) < 3:  # it goes on against the daemon that came back
            assert run.poll() is None and time.monotonic() < deadline, (tmp_path / "run.log").read_text()[
                -3000:
            ]
            time.sleep(0.1)
        assert daemon.containers(run_dir.name), "no container of the live run to leave behind"
    finally:
        H.stop(run, signal.SIGKILL)
    left = daemon.containers(run_dir.name)
    assert left, "a run killed with -9 should leave its containers for the next start to reap"
    resumed = H.repozero("run", "--resume", str(run_dir), "--json", *flags)
    H.assert_no_traceback(resumed.stderr)
    assert resumed.returncode == 0, resumed.stderr[-3000:]
    assert "sandbox_orphans_reaped" in resumed.stderr or "sandbox_containers_reaped" in resumed.stderr
    assert not set(left) & set(daemon.docker("ps", "-aq").stdout.decode().split())
    statuses = H.assert_each_episode_once(run_dir)
    con = sqlite3.connect(run_dir / "results.sqlite")
    scored = con.execute("SELECT result FROM episodes WHERE status = 'finished'").fetchall()
    con.close()
    # nothing scored as the model's failure: buggy-then-fix always fixes its bug in round 1
    assert all('"passed":true' in r[0] for r in scored), scored
    assert set(statuses.values()) <= {"finished", "infra_error"}
