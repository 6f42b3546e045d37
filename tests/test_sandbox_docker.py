"""What only the Docker backend promises: a locked-down container, nothing left after a timeout (seen with
`ps` inside), warm pools, reaping by label and a leak report, errors translated, the images and their CLI.

The contract, shell, batch-driver and attack suites run on Docker too (the `docker` backend param).
These tests need a daemon and the built images; outside CI they are skipped without them, in CI never.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from repozero.kernel.errors import SandboxError
from repozero.oracle.docker_env import DockerVenvProvider
from repozero.oracle.records import EnvSpec, program_ref
from repozero.oracle.server import Batch, ForkServer
from repozero.sandbox import CaseInput, SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend, DockerSandbox, leaked_containers
from repozero.sandbox.docker_client import (
    LABEL_POOL,
    LABEL_RUN,
    LABEL_SAMPLE,
    docker_unavailable,
    open_client,
)

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.docker,
    pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable())),
]

CFG = SandboxConfig(docker_pool_size=0, docker_kill_after_s=0.5)
SPEC = SandboxSpec(sample="docker-tests", memory_mb=256, pids=64, tmpfs_mb=32, file_size_mb=16, cpu_time_s=30)
BASELINE = {"docker-init", "sleep", "repozero-supervisor", "repozero-shell", "ps"}
"""What `ps` may show in a sandbox between commands: init, the keep-alive, the supervisor, the shell, ps."""


@pytest.fixture
async def backend() -> AsyncIterator[DockerBackend]:
    async with DockerBackend(CFG, run_id=f"pytest-{os.getpid()}-{os.urandom(3).hex()}") as opened:
        yield opened


@pytest.fixture
async def box(backend: DockerBackend) -> AsyncIterator[DockerSandbox]:
    async with backend.open(SPEC) as opened:
        yield opened


async def _processes(box: DockerSandbox) -> list[str]:
    """The programs running in the container (name of argv[0], or the script name for `sh -c`)."""
    listing = await box.exec(["ps", "-eo", "pid=,ppid=,args="])
    rows = [line.split() for line in listing.stdout.decode().splitlines()]
    parent = {row[0]: row[1] for row in rows}
    ps_itself = next(row for row in rows if row[2] == "ps")
    timeout_pid = parent[ps_itself[0]]
    listing_own = {timeout_pid, parent[timeout_pid]}  # the test's deadline (`timeout -k`) and the wrapper
    names = []
    for pid, _, *words in rows:
        if pid in listing_own:
            continue
        names.append(next((w for w in words if w.startswith("repozero-")), os.path.basename(words[0])))
    return names


async def _inspect(backend: DockerBackend, name: str) -> dict[str, object]:
    async with backend.client.api:
        container = await backend.client.docker.containers.get(name)
    return dict(container._container)


async def test_the_container_is_locked_down(backend: DockerBackend, box: DockerSandbox) -> None:
    with anyio.fail_after(30):
        info = await _inspect(backend, box.id)
        inside = await box.exec(
            "id -u; cat /proc/net/dev | tail -n +3 | cut -d: -f1; grep -E '^(CapEff|NoNewPrivs)' /proc/self/status;"
            " touch /etc/x 2>/dev/null || echo rootfs-ro; df -m /work | tail -1"
        )
        supervisor = (await box.exec("pgrep -f repozero-supervisor")).stdout.split()[0].decode()
        killed = await box.exec(["kill", "-9", supervisor])
    host = info["HostConfig"]
    assert isinstance(host, dict)
    assert host["NetworkMode"] == "none" and host["Init"] and host["ReadonlyRootfs"]
    assert (host["Memory"], host["PidsLimit"], host["NanoCpus"]) == (256 << 20, 64, 10**9)
    assert (
        host["CapDrop"] == ["ALL"]
        and host["CapAdd"] == ["KILL"]
        and "no-new-privileges" in host["SecurityOpt"]
    )
    labels = info["Config"]["Labels"]  # type: ignore[index]
    assert labels[LABEL_RUN] == backend.run_id and labels[LABEL_SAMPLE] == SPEC.sample
    assert box.id.startswith(f"repozero-{backend.run_id}-{SPEC.sample}-")
    lines = inside.stdout.decode().split("\n")
    assert lines[0] == "1000"
    assert lines[1].strip() == "lo"  # no interface but loopback
    assert (
        "CapEff:\t0000000000000000" in inside.stdout.decode() and "NoNewPrivs:\t1" in inside.stdout.decode()
    )
    assert "rootfs-ro" in lines and int(inside.stdout.split()[-5]) <= SPEC.tmpfs_mb  # tmpfs size in MB
    assert killed.exit_code != 0  # the sandbox user cannot touch the supervisor (root, CAP_KILL)


async def test_after_a_timeout_nothing_of_the_command_survives(box: DockerSandbox) -> None:
    escape = "(setsid sh -c 'sleep 300' &); (trap '' TERM; sleep 301) & sleep 302"
    bomb = "b() { b | b & }; b; sleep 30"
    with anyio.fail_after(60):
        ran = await box.exec(["sh", "-c", escape], timeout_s=0.5)
        after_exec = await _processes(box)
        shell = await box.shell(escape, timeout_s=0.5)
        after_shell = await _processes(box)
        still = await box.shell("echo alive")
        bombed = await box.exec(["sh", "-c", bomb], timeout_s=1)
        after_bomb = await _processes(box)
    assert ran.timed_out and shell.timed_out and bombed.timed_out
    for names in (after_exec, after_shell, after_bomb):
        assert set(names) <= BASELINE, names
    assert still.stdout == b"alive\n" and not still.restarted


async def test_exit_status_comes_from_the_wrapper_without_asking_the_daemon(
    box: DockerSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command run to completion says its exit status on its stream: no `exec inspect` polling (slow
    under a busy daemon), and the command's own stderr — even a forged trailer — comes back untouched."""
    from aiodocker.execs import Exec

    async def no_inspect(self: Exec) -> dict[str, object]:
        raise AssertionError("exec inspect was called")

    monkeypatch.setattr(Exec, "inspect", no_inspect)
    with anyio.fail_after(30):
        plain = await box.exec(["sh", "-c", "printf err >&2; exit 3"])
        forged = await box.exec(["sh", "-c", r"printf 'x\nRZEXIT 0\n' >&2; exit 5"])
        quiet = await box.exec(["true"])
        fed = await box.exec(["sh", "-c", "cat; exit 7"], stdin=b"in")
    assert (plain.exit_code, plain.stderr) == (3, b"err")
    assert (forged.exit_code, forged.stderr) == (5, b"x\nRZEXIT 0\n")
    assert (quiet.exit_code, quiet.stderr) == (0, b"")
    assert (fed.exit_code, fed.stdout) == (7, b"in")


async def test_the_warm_pool_hands_out_ready_containers_and_refills() -> None:
    cfg = SandboxConfig(docker_pool_size=2, docker_kill_after_s=0.5)
    with anyio.fail_after(90):
        async with DockerBackend(cfg, run_id=f"pytest-pool-{os.getpid()}") as backend:
            await backend.prewarm(SPEC)
            async with backend.open(SPEC) as first, backend.open(SPEC) as second:
                pooled = [(await _inspect(backend, b.container.id))["Config"] for b in (first, second)]
                assert all(c["Labels"][LABEL_POOL] == "1" for c in pooled)  # type: ignore[index]
                assert (await first.shell("echo warm")).stdout == b"warm\n"
                await backend.prewarm(SPEC)  # refilled in the background while both are in use
                present = await backend.client.list_containers(backend.run_id)
            assert len(present) >= 4
        async with open_client() as client:
            assert await client.list_containers(backend.run_id) == []  # pool drained at exit
    assert backend.leaked == []


async def test_leaks_are_reported_then_reaped_and_a_restart_reaps_its_run() -> None:
    run_id = f"pytest-leak-{os.getpid()}"
    with anyio.fail_after(60):
        async with DockerBackend(CFG, run_id=run_id) as backend:
            abandoned = await backend.acquire(SPEC)  # never released: a leak
            assert [c.name for c in await leaked_containers(run_id)] == [abandoned.name]
        assert [c.sample for c in backend.leaked] == [SPEC.sample]
        assert await leaked_containers(run_id) == []
        async with DockerBackend(CFG, run_id=run_id) as crashed:
            await crashed.acquire(SPEC)
            async with DockerBackend(CFG, run_id=run_id):  # the same run id starting again reaps it
                assert await leaked_containers(run_id) == []


CRASHING_RUN = """
import sys, anyio
from repozero.sandbox import SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend

async def main():
    async with DockerBackend(SandboxConfig(docker_pool_size=0), run_id=sys.argv[1]) as backend:
        await backend.acquire(SandboxSpec(sample="docker-tests", memory_mb=256, pids=64, tmpfs_mb=32))
        print("ready", flush=True)
        await anyio.sleep(600)

anyio.run(main)
"""


async def test_a_killed_runs_containers_are_reaped_by_the_next_backend_whatever_its_run() -> None:
    """SIGKILL leaves a run's containers; any later backend on this host removes those of dead owners."""
    crashed_run = f"pytest-crash-{os.getpid()}"
    with anyio.fail_after(90):
        async with await anyio.open_process([sys.executable, "-c", CRASHING_RUN, crashed_run]) as proc:
            assert proc.stdout is not None
            said = b""
            try:
                while b"ready\n" not in said:  # log lines may come first
                    said += await proc.stdout.receive()
            finally:
                proc.kill()  # the crash (and, if the test failed, no 600 s wait on exit)
        assert len(await leaked_containers(crashed_run)) == 1
        async with DockerBackend(CFG, run_id=f"pytest-after-{os.getpid()}") as backend:
            assert await leaked_containers(crashed_run) == []
            live = await backend.acquire(SPEC)  # ours: a live owner's container is left alone
            async with DockerBackend(CFG):
                assert [c.name for c in await leaked_containers(backend.run_id)] == [live.name]


async def test_cleanup_command_removes_containers_by_label() -> None:
    run_id = f"pytest-cli-{os.getpid()}"
    with anyio.fail_after(60):
        async with DockerBackend(CFG, run_id=run_id) as backend:
            await backend.acquire(SPEC)
            await backend.acquire(SPEC)
            cleanup = [sys.executable, "-m", "repozero", "sandbox", "cleanup", "--run-id", run_id]
            done = await anyio.run_process(cleanup, check=False)
            assert done.returncode == 0 and await leaked_containers(run_id) == []
    assert b"removed 2 container(s)" in done.stdout


async def test_foreign_errors_become_sandbox_errors() -> None:
    missing = SandboxConfig(docker_images={"node": "repozero/no-such-image:0"})
    with anyio.fail_after(30):
        with pytest.raises(SandboxError, match="cannot reach the daemon"):
            async with DockerBackend(SandboxConfig(docker_host="unix:///nonexistent/docker.sock")):
                pass
        async with DockerBackend(missing) as backend:
            with pytest.raises(SandboxError, match="repozero images build"):
                await backend.acquire(SPEC)
        with pytest.raises(SandboxError, match="no image recipe"):
            await DockerBackend(CFG).open(SandboxSpec(toolchain="cobol")).__aenter__()


async def test_held_streams_never_queue_for_a_pool_slot(backend: DockerBackend) -> None:
    """Each open sandbox holds two attached streams; a pool cap made calls at 100 sandboxes wait for a
    connection and fail with aiohttp's connect timeout. The default client has no cap; a set one holds."""
    assert backend.client.docker.session.connector.limit == 0
    async with open_client(connections=7) as capped:
        assert capped.docker.session.connector.limit == 7
    boxes = [await backend.open(SPEC).__aenter__() for _ in range(3)]
    try:
        results = []

        async def run(box: DockerSandbox) -> None:
            results.append(await box.exec(["sh", "-c", "sleep 0.5; echo ok"]))

        async with anyio.create_task_group() as tg:
            for box in boxes:
                await box.shell("true")  # supervisor + shell held: 6 streams, plus 3 commands at once
                tg.start_soon(run, box)
        assert [r.stdout for r in results] == [b"ok\n"] * 3
    finally:
        for box in boxes:
            await box.close()


async def test_a_backend_that_was_not_entered_still_opens_sandboxes() -> None:
    backend = DockerBackend(CFG)
    with anyio.fail_after(30):
        async with backend.open(SPEC) as box:
            result = await box.shell("node -e 'console.log(6 * 7)'")
        assert result.stdout == b"42\n"
        assert await leaked_containers(backend.run_id) == []


async def test_the_python_source_image_serves_the_oracle_side(backend: DockerBackend) -> None:
    server = "import sys\nfor line in sys.stdin:\n    print(len(line.strip()), flush=True)\n"
    with anyio.fail_after(60):
        async with backend.open(SandboxSpec(toolchain="python-source", sample="oracle")) as box:
            made = await box.exec(
                "python3 -m venv --without-pip env && env/bin/python -c 'import sys; print(sys.prefix)'"
            )
            tools = await box.exec("command -v faketime; command -v node || echo no-node")
            await box.write_file("server.py", server.encode())
            proc = await box.open_process(["env/bin/python", "-u", "server.py"])
            await proc.send(b"hello\n")
            echoed = b""
            while not echoed.endswith(b"\n"):
                echoed += await proc.receive()
            await proc.kill()
            code = await proc.wait()
            await proc.aclose()
    assert made.exit_code == 0 and made.stdout == b"/work/env\n", made
    assert tools.stdout == b"/usr/bin/faketime\nno-node\n"
    assert echoed == b"5\n" and code == 128 + 9


def test_images_build_is_cached_and_list_says_built() -> None:
    build = subprocess.run(
        [sys.executable, "-m", "repozero", "images", "build"], capture_output=True, timeout=120
    )
    listed = subprocess.run(
        [sys.executable, "-m", "repozero", "images", "list", "--json"], capture_output=True, timeout=60
    )
    assert build.returncode == 0, build.stderr
    names = {"node", "python-source", "rust", "native-source"}  # Py2JS and C2Rust targets and sources
    assert build.stderr.count(b"image_cached") == len(names) and b"image_build_started" not in build.stderr
    rows = json.loads(listed.stdout)
    assert {r["name"] for r in rows} == names and all(r["built"] for r in rows)


async def test_the_oracles_fork_servers_run_unchanged_in_docker(
    backend: DockerBackend, tmp_path: Path
) -> None:
    program = tmp_path / "prog"
    program.mkdir()
    (program / "main.py").write_text(
        "import os, sys, time\n"
        "print(' '.join(sys.argv[1:]).upper(), sorted(os.environ), time.gmtime().tm_year > 2030)\n"
    )
    ref = program_ref(program, "main.py")
    with anyio.fail_after(90):
        async with DockerVenvProvider(backend, tmp_path / "cache") as provider:
            env = provider.environment(EnvSpec())
            fingerprint = await env.prepare()
            batch = Batch(await env.stage_program(ref), ref, 5.0, 1 << 16, 1 << 12)
            results = []
            for index, shift in enumerate(["", "+3650d"]):  # the second server runs ten years ahead
                server = await ForkServer.start(env, index, shift)
                try:
                    results += await server.run(batch, [CaseInput(id="c", argv=["a b", "$(id)"])])
                finally:
                    await server.aclose()
    assert fingerprint.entries and any("python" in key for key in fingerprint.entries)
    contract = "['HOME', 'LANG', 'LC_ALL', 'PATH', 'TZ']"
    assert [r.stdout for r in results] == [
        f"A B $(ID) {contract} False\n".encode(),
        f"A B $(ID) {contract} True\n".encode(),
    ]
    assert all(r.exit_code == 0 for r in results)
