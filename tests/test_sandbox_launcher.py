"""The sandbox launcher (sandbox/launcher_client.py): processes it starts behave as the exec chain's did — pipes,
exit statuses, signals, rlimits, cgroups, no stray descriptors — and losing it costs a restart, not a run."""

from __future__ import annotations

import os
import resource
import signal

import anyio
import pytest

from repozero.sandbox import LocalBackend, SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.exec_chain import Prelude
from repozero.sandbox.launcher_client import LauncherProcess, launcher

pytestmark = [pytest.mark.anyio, pytest.mark.skipif(os.geteuid() != 0, reason="needs root (CI runs as root)")]

SPEC = SandboxSpec(run_id="pytest", sample="launcher-tests", tmpfs_mb=32, open_files=77)


async def test_a_launched_process_has_its_pipes_its_exit_status_and_its_signals() -> None:
    starter = launcher()
    assert starter is not None
    with anyio.fail_after(20):
        proc = await starter.spawn(
            Prelude(), ["/bin/sh", "-c", "read x; echo out $x; echo err >&2; exit 3"], cwd="/", env={}
        )
        assert isinstance(proc, LauncherProcess) and proc.returncode is None
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
        await proc.stdin.send(b"hi\n")
        assert await proc.stdout.receive() == b"out hi\n"
        assert await proc.stderr.receive() == b"err\n"
        assert await proc.wait() == 3 and proc.returncode == 3
        await proc.aclose()

        # SIGPIPE and SIGXFSZ at their defaults, as `subprocess` leaves them (Python ignores both)
        piped = await starter.spawn(Prelude(), ["/usr/bin/yes"], cwd="/", env={})
        assert piped.stdout is not None and (await piped.stdout.receive()).startswith(b"y\n")
        await piped.stdout.aclose()  # its next write: EPIPE and SIGPIPE
        assert await piped.wait() == -signal.SIGPIPE
        await piped.aclose()
        grows = await starter.spawn(
            Prelude(rlimits=[(resource.RLIMIT_FSIZE, 4096)]),
            ["/bin/sh", "-c", "head -c 8192 /dev/zero > /tmp/rz-launcher-fsize; echo $?"],
            cwd="/", env={},
        )  # fmt: skip
        assert (
            grows.stdout is not None
            and await grows.stdout.receive() == str(128 + signal.SIGXFSZ).encode() + b"\n"
        )
        await grows.aclose()
        os.unlink("/tmp/rz-launcher-fsize")

        sleeper = await starter.spawn(Prelude(), ["/bin/sleep", "300"], cwd="/", env={})
        sleeper.kill()
        assert await sleeper.wait() == -signal.SIGKILL
        sleeper.kill()  # reaped: a no-op, never a signal to a reused pid
        await sleeper.aclose()


async def test_a_child_that_cannot_start_is_an_error_naming_it_and_the_launcher_goes_on() -> None:
    starter = launcher()
    assert starter is not None
    with anyio.fail_after(20):
        with pytest.raises(OSError, match="/no/such/program"):
            await starter.spawn(Prelude(), ["/no/such/program"], cwd="/", env={})
        with pytest.raises(OSError, match="/no/such/cgroup.procs"):
            await starter.spawn(
                Prelude(cgroup_procs=["/no/such/cgroup.procs"]), ["/bin/true"], cwd="/", env={}
            )
        ok = await starter.spawn(Prelude(), ["/bin/true"], cwd="/", env={})
        assert await ok.wait() == 0
        await ok.aclose()
    assert launcher() is starter


async def test_the_prelude_sets_the_rlimits_and_enters_the_cgroups() -> None:
    """What `sh` (cgroups) and `prlimit` did in the exec chain, seen from inside a sandbox."""
    with anyio.fail_after(30):
        async with LocalBackend().open(SPEC) as box:
            ws = box._ws  # type: ignore[attr-defined]
            got = await box.exec(["sh", "-c", "ulimit -n"])
            assert got.exit_code == 0 and got.stdout == b"77\n", got
            sleeper = await box.open_process(["sleep", "300"])
            assert ws.cgroups is not None  # root on this host: the sandbox has its groups
            for folder in ws.cgroups.dirs:  # the outermost process (bwrap) joined before it ran
                members = {int(p) for p in (folder / "cgroup.procs").read_text().split()}
                assert sleeper.pid in members, (folder, members)


async def test_a_sandboxed_process_inherits_no_descriptor_of_ours_or_the_launchers() -> None:
    with anyio.fail_after(30):
        async with LocalBackend().open(SPEC) as box:
            got = await box.exec(["sh", "-c", "ls /proc/self/fd"])  # sh's 0-2, and ls's own dir fd
            assert got.stdout.decode().split() == ["0", "1", "2", "3"], got


async def test_a_lost_launcher_costs_the_shell_a_restart_and_the_next_call_starts_another() -> None:
    with anyio.fail_after(60):
        async with LocalBackend().open(SPEC) as box:
            assert (await box.shell("cd /tmp && echo before")).stdout == b"before\n"
            first = launcher()
            assert first is not None
            groups = box._ws.cgroups  # type: ignore[attr-defined]
            assert groups is not None and groups.pids()
            os.kill(first.pid, signal.SIGKILL)
            while groups.pids():  # noqa: ASYNC110 — its bwrap processes die with it (--die-with-parent)
                await anyio.sleep(0.01)
            again = await box.shell("echo after")
            assert again.exit_code == 0 and again.stdout == b"after\n" and again.restarted, again
            second = launcher()
            assert second is not None and second is not first and second.pid != first.pid
            assert (await box.exec(["echo", "exec"])).stdout == b"exec\n"


@pytest.mark.parametrize("launched", [True, False], ids=["launcher", "exec-chain"])
async def test_both_ways_of_starting_give_the_same_sandbox(launched: bool) -> None:
    """`sandbox.local_launcher = false` keeps the exec chain (sh → prlimit → nsenter → bwrap)."""
    backend = LocalBackend(SandboxConfig(local_launcher=launched))
    with anyio.fail_after(30):
        async with backend.open(SPEC) as box:
            await box.write_file("in.txt", b"host\n")
            got = await box.shell("cat in.txt; id -u; ulimit -n; pwd; echo made > out.txt")
            assert got.exit_code == 0, got
            text, uid, nofile, cwd = got.stdout.decode().splitlines()
            assert (text, nofile, cwd) == ("host", "77", "/work")
            assert int(uid) == box._ws.layout.uid  # type: ignore[attr-defined]
            assert await box.read_file("out.txt") == b"made\n"
            limits = await box.exec(["sh", "-c", "ulimit -c; ulimit -f"])
            assert limits.stdout.decode().split() == ["0", str((SPEC.file_size_mb << 20) // 512)]


def test_rlimit_numbers_match_this_platform() -> None:
    """The prelude sends resource.RLIMIT_* numbers; the launcher applies them as given."""
    from repozero.sandbox.exec_chain import launch_plan
    from repozero.sandbox.isolation import Isolation

    iso = Isolation(mode="bwrap", privileged=True, bwrap="/usr/bin/bwrap", prlimit="/usr/bin/prlimit")
    from repozero.sandbox.exec_chain import Layout

    layout = Layout(toolchain="/t", work="/w", tmp="/tmp", home="/h", etc="/e", uid=1, gid=1)
    prelude, rest = launch_plan(iso, layout, SPEC, ["true"], "/work")
    limits = dict(prelude.rlimits)
    assert limits[resource.RLIMIT_NOFILE] == 77 and limits[resource.RLIMIT_CORE] == 0
    assert limits[resource.RLIMIT_NPROC] == SPEC.pids
    assert rest[0] == "/usr/bin/bwrap" and rest[-1] == "true"


async def test_without_pidfds_sandboxes_start_through_the_exec_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """A kernel without pidfds (before 5.3) cannot use the launcher: no launcher, the exec chain instead."""
    from repozero.sandbox import launcher_client as launcher_module

    def no_pidfds(pid: int) -> int:
        raise OSError(38, "Function not implemented")

    launcher_module._pidfds_work.cache_clear()
    monkeypatch.setattr(os, "pidfd_open", no_pidfds)
    monkeypatch.setattr(launcher_module, "_current", [])
    try:
        assert launcher() is None
        with anyio.fail_after(30):
            async with LocalBackend().open(SPEC) as box:
                got = await box.shell("echo chain; ulimit -n")
                assert got.stdout == b"chain\n77\n", got
    finally:
        launcher_module._pidfds_work.cache_clear()
