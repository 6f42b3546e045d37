"""The Sandbox contract on every backend (exec, files, trees, processes), and what only the local backend
promises: namespaces, a fresh uid, a PATH of just the toolchain, cleanup and reaping after a crash."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import anyio
import pytest
from structlog.testing import capture_logs

from repozero.kernel.errors import SandboxError
from repozero.sandbox import LocalBackend, Sandbox, SandboxSpec, toolchain_versions
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.isolation import detect_isolation, reset_isolation_cache

pytestmark = pytest.mark.anyio

CONTRACT_ENV = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
ROOT_ONLY = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (CI runs as root)")


def _read_host(path: str) -> bytes:
    return Path(path).read_bytes()


def _exists(path: str | Path) -> bool:
    return Path(path).exists()


def _env(output: bytes) -> dict[str, str]:
    return dict(line.split("=", 1) for line in output.decode().splitlines() if "=" in line)


# --- the contract, on every backend ------------------------------------------------------------------
async def test_exec_runs_argv_in_the_workdir_with_the_contract_env(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        result = await sandbox.exec(["sh", "-c", 'env; echo "cwd=$(pwd)"'])
    env = _env(result.stdout)
    assert result.exit_code == 0, result
    assert {k: env[k] for k in CONTRACT_ENV} == CONTRACT_ENV
    assert env["cwd"] == sandbox.workdir
    assert env["HOME"] and env["PATH"]


async def test_exec_reports_exit_codes_signals_and_separate_stderr(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        plain = await sandbox.exec("echo out; echo err >&2; exit 3")
        killed = await sandbox.exec(["sh", "-c", "kill -SEGV $$"])
    assert (plain.exit_code, plain.stdout, plain.stderr) == (3, b"out\n", b"err\n")
    assert killed.exit_code == 128 + 11 and not killed.timed_out


async def test_exec_passes_stdin_bytes_and_argv_intact(sandbox: Sandbox) -> None:
    data = bytes(range(256)) * 4
    tricky = ["a b", "'\"", "`id`", "$HOME", "*", "line1\nline2\n", "ünï €", ""]
    with anyio.fail_after(20):
        echoed = await sandbox.exec(["cat"], stdin=data)
        argv = await sandbox.exec(
            ["node", "-e", "console.log(JSON.stringify(process.argv.slice(1)))", *tricky]
        )
    assert echoed.stdout == data
    assert argv.stdout.decode().strip() == __import__("json").dumps(
        tricky, ensure_ascii=False, separators=(",", ":")
    )


async def test_exec_timeout_is_a_result_but_the_callers_deadline_raises(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        result = await sandbox.exec(["sleep", "30"], timeout_s=0.5)
        assert result.timed_out and result.wall_s < 5
        with pytest.raises(TimeoutError):
            with anyio.fail_after(0.5):
                await sandbox.exec(["sleep", "30"])
        after = await sandbox.exec(["echo", "still usable"])
    assert after.stdout == b"still usable\n"


async def test_exec_output_cap_cuts_and_marks(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        result = await sandbox.exec("head -c 100000 /dev/zero | tr '\\0' a", output_cap=1000)
    assert result.truncated
    assert result.stdout.startswith(b"a" * 1000) and b"truncated" in result.stdout[1000:]


async def test_files_round_trip_with_modes_and_new_parent_dirs(sandbox: Sandbox) -> None:
    payload = bytes(range(256))
    with anyio.fail_after(20):
        await sandbox.write_file("deep/er/data.bin", payload)
        await sandbox.write_file("run.sh", b"#!/bin/sh\necho ran\n", mode=0o755)
        ran = await sandbox.exec(["./run.sh"])
        assert await sandbox.read_file("deep/er/data.bin") == payload
        assert await sandbox.read_file(f"{sandbox.workdir}/deep/er/data.bin", max_bytes=10) == payload[:10]
        with pytest.raises(SandboxError):
            await sandbox.read_file("missing.txt")
    assert ran.stdout == b"ran\n"


async def test_links_inside_the_sandbox_resolve_as_the_sandbox_sees_them(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        await sandbox.write_file("real/target.txt", b"inside\n")
        await sandbox.exec(
            ["sh", "-c", f"ln -s real/target.txt rel && ln -s {sandbox.workdir}/real abs && ln -s /tmp tmp"]
        )
        assert await sandbox.read_file("rel") == b"inside\n"
        assert await sandbox.read_file("abs/target.txt") == b"inside\n"
        await sandbox.write_file("tmp/through-link.txt", b"via link\n")
        seen = await sandbox.exec(["cat", "/tmp/through-link.txt"])
        try:  # the sandbox's own /etc/passwd (docker) or refused (local: outside its writable dirs)
            climbed = await sandbox.read_file("../../../../etc/passwd")
        except SandboxError:
            climbed = b""
    assert seen.stdout == b"via link\n"
    assert climbed != _read_host("/etc/passwd")


async def test_trees_copy_in_and_out_keeping_links_and_modes(sandbox: Sandbox, tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "mod.mjs").write_text("export const x = 1;\n")
    (src / "tool").write_text("#!/bin/sh\necho tool\n")
    (src / "tool").chmod(0o755)
    (src / "link").symlink_to("pkg/mod.mjs")
    with anyio.fail_after(20):
        await sandbox.put_tree(src, "repo")
        listed = await sandbox.exec("cat link && ./tool && echo new > made.txt", cwd="repo")
        await sandbox.get_tree("repo", tmp_path / "out")
    out = tmp_path / "out"
    assert listed.stdout == b"export const x = 1;\ntool\n"
    assert (out / "made.txt").read_text() == "new\n"
    assert (out / "link").is_symlink() and os.readlink(out / "link") == "pkg/mod.mjs"
    assert os.access(out / "tool", os.X_OK)


async def test_open_process_talks_over_pipes_until_killed(sandbox: Sandbox) -> None:
    server = "process.stdin.on('data', d => process.stdout.write('echo:' + d));"
    with anyio.fail_after(20):
        proc = await sandbox.open_process(["node", "-e", server])
        await proc.send(b"ping\n")
        assert await proc.receive() == b"echo:ping\n"
        await proc.kill()
        assert await proc.wait() == 128 + 9
        await proc.aclose()


# --- the local backend ---------------------------------------------------------------------------------
@ROOT_ONLY
async def test_local_isolation_here_is_full() -> None:
    with anyio.fail_after(20):
        iso = await LocalBackend().isolation()
    assert iso.namespaces and iso.privileged and iso.tmpfs and iso.cgroup_pids and not iso.missing
    assert iso.private_tmpfs and iso.nsenter


async def test_degraded_isolation_is_logged_once() -> None:
    reset_isolation_cache()
    with capture_logs() as logs, anyio.fail_after(20):
        first = await detect_isolation("plain")
        again = await detect_isolation("plain")
    warnings = [e for e in logs if e["event"] == "sandbox_isolation_degraded"]
    assert first is again and first.mode == "plain"
    assert len(warnings) == 1 and any("namespaces" in m for m in warnings[0]["missing"])


async def test_callers_racing_the_first_probe_share_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A run's episodes all ask at once; each probing spawned a bwrap per episode before any sandbox opened."""
    from repozero.sandbox import isolation

    probes: list[str] = []
    real_probe = isolation._probe

    async def counted(want: str) -> isolation.Isolation:
        probes.append(want)
        return await real_probe(want)

    monkeypatch.setattr(isolation, "_probe", counted)
    reset_isolation_cache()
    got: list[isolation.Isolation] = []

    async def ask() -> None:
        got.append(await detect_isolation("auto"))

    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:
            for _ in range(50):
                tg.start_soon(ask)
    assert probes == ["auto"] and len(got) == 50 and all(iso is got[0] for iso in got)
    reset_isolation_cache()


@ROOT_ONLY
async def test_each_sandbox_runs_as_its_own_unprivileged_uid() -> None:
    backend = LocalBackend()
    with anyio.fail_after(20):
        async with backend.open(SandboxSpec()) as one, backend.open(SandboxSpec()) as two:
            ids = [int((await box.exec(["id", "-u"])).stdout) for box in (one, two)]
            await one.exec("echo x > mine.txt")
            owner = os.stat(one._ws.view.host_path("mine.txt")).st_uid  # type: ignore[attr-defined]
    assert 0 not in ids and ids[0] != ids[1] and owner == ids[0]


async def test_path_holds_the_pinned_node_and_no_python_or_npm() -> None:
    with anyio.fail_after(20):
        async with LocalBackend().open(SandboxSpec()) as box:
            version = await box.exec(["node", "--version"])
            tools = await box.exec(
                "for t in node sh bash timeout python3 python npm npx pip; do command -v $t || echo no-$t; done"
            )
    assert version.stdout.decode().strip() == "v" + toolchain_versions()["node"]
    found = tools.stdout.decode().split()
    assert {"no-python3", "no-python", "no-npm", "no-npx", "no-pip"} <= set(found)
    assert not any(line.startswith("no-") for line in found[:4])


def _tool_dir(tmp_path: Path) -> Path:
    tmp_path.chmod(0o755)  # exposed paths keep their modes: the sandbox's uid must be able to read them
    tools = tmp_path / "venvbin"
    tools.mkdir()
    (tools / "hello-tool").write_text("#!/bin/sh\necho hello from path_dirs\n")
    (tools / "hello-tool").chmod(0o755)
    return tools


@ROOT_ONLY
async def test_python_source_toolchain_sees_a_python_and_its_path_dirs(tmp_path: Path) -> None:
    tools = _tool_dir(tmp_path)
    spec = SandboxSpec(toolchain="python-source", path_dirs=[str(tools)], ro_paths=[str(tmp_path)])
    with anyio.fail_after(20):
        async with LocalBackend().open(spec) as box:
            py = await box.exec(["python3", "-c", "import sys; print(sys.version_info[:2])"])
            hello = await box.exec(["hello-tool"])
            write = await box.exec(["sh", "-c", f"echo x > {tools}/new"])
    assert py.stdout.decode().strip() == str(sys.version_info[:2]), py
    assert hello.stdout == b"hello from path_dirs\n", hello
    assert write.exit_code != 0 and not _exists(tools / "new")


@ROOT_ONLY
async def test_close_kills_everything_and_removes_the_workspace() -> None:
    with anyio.fail_after(20):
        async with LocalBackend().open(SandboxSpec()) as box:
            ws = box._ws  # type: ignore[attr-defined]
            await box.open_process(["sleep", "300"])
            await box.shell("sleep 300 &")
            uid = ws.layout.uid
            cgroups = list(ws.cgroups.dirs)
        assert not _exists(ws.root)
        assert not any(_exists(d) for d in cgroups)
    from repozero.sandbox.uids import procs_of_uid as _procs_of_uid

    assert _procs_of_uid(uid) == []


def _host_sandbox_mounts() -> int:
    with open("/proc/self/mountinfo") as info:
        return sum(" repozero-sbx " in line for line in info)


@ROOT_ONLY
async def test_each_tmpfs_lives_in_a_namespace_of_its_own_not_the_hosts() -> None:
    """Open sandboxes add nothing to the host's mount table (every bwrap start re-reads it); each still
    has a tmpfs of its own, seen by the host's file calls and its processes alike, gone at close."""
    spec = SandboxSpec(tmpfs_mb=32)
    before = _host_sandbox_mounts()
    with anyio.fail_after(30):
        async with LocalBackend().open(spec) as one, LocalBackend().open(spec) as two:
            assert _host_sandbox_mounts() == before
            await one.write_file("from-host.txt", b"host\n")
            made = await one.shell("cat from-host.txt && echo sandbox > made.txt && cat /proc/mounts")
            assert made.exit_code == 0 and made.stdout.startswith(b"host\n"), made
            assert f"/work tmpfs rw,nosuid,nodev,relatime,size={32 * 1024}k".encode() in made.stdout
            assert await one.read_file("made.txt") == b"sandbox\n"
            assert (await two.exec(["cat", "/work/from-host.txt"])).exit_code != 0
            namespace = os.readlink(one._ws.private.namespace)  # type: ignore[attr-defined]
            assert namespace in _held_namespaces()
    assert namespace not in _held_namespaces()  # let go of: the tmpfs went with it
    assert _host_sandbox_mounts() == before


@ROOT_ONLY
async def test_without_a_mount_namespace_the_tmpfs_is_mounted_on_the_host() -> None:
    """`sandbox.local_mount_namespace = false`: the host-mounted tmpfs of before, unmounted at close."""
    before = _host_sandbox_mounts()
    with anyio.fail_after(30):
        async with LocalBackend(SandboxConfig(local_mount_namespace=False)).open(SandboxSpec()) as box:
            assert _host_sandbox_mounts() == before + 1
            await box.write_file("a.txt", b"x")
            assert (await box.shell("cat a.txt")).stdout == b"x"
    assert _host_sandbox_mounts() == before


CRASHER = textwrap.dedent(
    """
    import anyio, os, sys
    from repozero.sandbox import LocalBackend, SandboxSpec
    from repozero.sandbox.config import SandboxConfig

    async def main():
        async with LocalBackend(SandboxConfig(local_root=sys.argv[1])).open(SandboxSpec()) as box:
            await box.shell("sleep 300 &")
            ns = os.readlink(box._ws.private.namespace)
            print("SANDBOX", box._ws.root, box._ws.layout.uid, ns, flush=True)
            await anyio.sleep(300)

    anyio.run(main)
    """
)


@ROOT_ONLY
@pytest.mark.parametrize("reaper_root", ["same", "other"])
async def test_a_crashed_runs_sandboxes_are_reaped_at_the_next_start(
    tmp_path: Path, reaper_root: str
) -> None:
    """Its tmpfs dies with it (nothing holds its namespace once it and its processes are gone); the next
    backend reaps its
    processes, uid and cgroups whether it uses the crashed run's local_root or another one, and its
    (empty) dir under its own local_root."""
    from repozero.sandbox.uids import procs_of_uid as _procs_of_uid
    from repozero.sandbox.workspace import reap_stale

    base = tmp_path / "sbx"
    backend = LocalBackend(
        SandboxConfig(local_root=str(base if reaper_root == "same" else tmp_path / "other"))
    )
    try:
        with anyio.fail_after(30):
            root, uid, namespace = await _crash_a_run(base)
            assert _exists(root) and not _is_mount(root)  # never mounted in the host's namespace
            await _wait_let_go(namespace)
            groups = bool((await backend.isolation()).cgroup_pids)
            assert bool(_groups_of(root.name)) == groups
            async with backend.open(SandboxSpec()) as box:
                await box.exec(["true"])
        assert _exists(root) == (reaper_root == "other")  # another root's empty dir waits for its own reaper
        assert _procs_of_uid(uid) == [] and _groups_of(root.name) == []
    finally:
        with anyio.CancelScope(shield=True):
            await reap_stale(base, await backend.isolation())  # a failed assertion must not leave a mount


def _groups_of(sid: str) -> list[Path]:
    """The cgroups of sandbox `sid` (named `<sid>.<owner pid>.<owner start>`)."""
    return [g for c in ("pids", "memory") for g in Path(f"/sys/fs/cgroup/{c}/repozero").glob(f"{sid}.*")]


def _held_namespaces() -> set[str]:
    """Every mount namespace a process on the host is in or holds a descriptor of ("mnt:[inode]")."""
    held = set()
    for pid in (d for d in os.listdir("/proc") if d.isdigit()):
        try:
            held.add(os.readlink(f"/proc/{pid}/ns/mnt"))
            for fd in os.listdir(f"/proc/{pid}/fd"):
                link = os.readlink(f"/proc/{pid}/fd/{fd}")
                if link.startswith("mnt:["):
                    held.add(link)
        except OSError:
            continue  # gone meanwhile
    return held


async def _wait_let_go(namespace: str) -> None:
    """Until no process is in `namespace` or holds it (the crashed run's sandbox processes die with it,
    a moment later)."""
    for _ in range(1000):
        if namespace not in _held_namespaces():
            return
        await anyio.sleep(0.01)
    raise AssertionError(f"{namespace} is still held")


def _is_mount(path: Path) -> bool:
    return os.path.ismount(path)


async def _crash_a_run(base: Path) -> tuple[Path, int, str]:
    """Start a process that opens a sandbox (with a background job), SIGKILL it; where it left things."""
    argv = [sys.executable, "-c", CRASHER, str(base)]
    async with await anyio.open_process(argv, stderr=subprocess.DEVNULL) as crasher:
        assert crasher.stdout is not None
        seen = b""
        try:
            while b"\n" not in seen.partition(b"SANDBOX ")[2]:
                seen += await crasher.stdout.receive()
        finally:
            crasher.kill()
            await crasher.wait()
    root, uid, namespace = seen.partition(b"SANDBOX ")[2].decode().split()[:3]
    return Path(root), int(uid), namespace
