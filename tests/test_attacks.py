"""The attack suite: each test is one attack, run against every backend, and must be contained and reported
with the right status while the host stays unaffected (checked on the host: a marker a killed process would
have written later, a listener that must see no connection, host files that must not change).

Where a backend cannot contain an attack, `UNCONTAINED` says so and why; the test is then a strict xfail,
so the day it becomes contained the suite says so too. `local-plain` is the local backend without
namespaces (a host without bubblewrap): its entries document what that mode loses.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import anyio
import anyio.abc
import pytest

from repozero.kernel.errors import SandboxError
from repozero.sandbox import CaseInput, Sandbox, SandboxBackend

_fixtures = sys.modules["repozero_tests_sandbox_fixtures"]
SMALL_SPEC = _fixtures.SMALL_SPEC

pytestmark = pytest.mark.anyio

NO_NAMESPACES = "no mount namespace without bubblewrap"
UNCONTAINED: dict[str, dict[str, str]] = {
    "local-plain": {
        "network_access": "no network namespace without bubblewrap",
        "grandchild_in_its_own_session_escaping_the_timeout": (
            "no PID namespace: a grandchild in its own session outlives its exec (it dies when the sandbox closes)"
        ),
        "writing_outside_the_work_directory": f"{NO_NAMESPACES}: world-writable host dirs are writable",
        "reading_host_files": f"{NO_NAMESPACES}: world-readable host files are readable",
        "spawning_a_python_interpreter": f"{NO_NAMESPACES}: /usr/bin/python3 is reachable by its absolute path",
    },
}

PYTHONS = ["python3", "python", "/usr/bin/python3", sys.executable, os.path.realpath(sys.executable)]
PYTHONS += [found] if (found := shutil.which("python3")) else []
GRANDCHILD = (
    "const fs = require('fs'), m = '{marker}';"
    " require('child_process').spawn('sh', ['-c', `echo up > ${{m}}.started; sleep 1.5; echo escaped > ${{m}}`],"
    " {{detached: true, stdio: 'ignore'}}).unref();"
    " const t = setInterval(() => {{ if (fs.existsSync(m + '.started')) {{ clearInterval(t); {then} }} }}, 10);"
)
"""Node starts a grandchild in its own session (setsid) that says it is up, then writes `marker` 1.5 s later
unless it was killed (later than any deadline the tests set); node waits until it is up, then does `then`."""


@pytest.fixture(params=[*_fixtures.BACKEND_PARAMS, _fixtures.LOCAL_PLAIN])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[SandboxBackend]:
    """The backend under attack; marks the test a strict xfail where that backend cannot contain it."""
    attack = request.function.__name__.removeprefix("test_")
    reason = UNCONTAINED.get(request.param, {}).get(attack)
    if reason:
        request.applymarker(pytest.mark.xfail(strict=True, reason=reason))
    async with _fixtures.open_backend(request.param) as opened:
        yield opened


@pytest.fixture
async def box(backend: SandboxBackend) -> AsyncIterator[Sandbox]:
    async with backend.open(SMALL_SPEC) as opened:
        yield opened


@pytest.fixture
def host_dir() -> Iterator[Path]:
    """A host dir any user can reach (pytest's tmp_path sits under a 0700 dir): only isolation, not file
    permissions, may keep it from the sandbox."""
    folder = Path(tempfile.mkdtemp(prefix="repozero-attack-", dir="/tmp"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def host_secret(host_dir: Path) -> tuple[Path, str]:
    """A world-readable secret file on the host."""
    token = "SECRET-" + secrets.token_hex(8)
    path = host_dir / "secret.txt"
    path.write_text(token + "\n")
    path.chmod(0o644)
    return path, token


@pytest.fixture
def open_to_all(host_dir: Path) -> Path:
    """A world-writable host dir."""
    folder = host_dir / "open-to-all"
    folder.mkdir()
    folder.chmod(0o777)
    return folder


def _read(path: str) -> bytes:
    return Path(path).read_bytes()


def _exists(path: Path) -> bool:
    return path.exists()


def _host_procs_with(needle: bytes) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if needle in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _host_ip() -> str | None:
    """This host's address on its default route (no packet is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            return str(probe.getsockname()[0])
    except OSError:
        return None


# --- the attacks ------------------------------------------------------------------------------------------
async def test_network_access(box: Sandbox) -> None:
    accepted: list[object] = []
    listener = await anyio.create_tcp_listener(local_host="0.0.0.0", local_port=0)
    port = listener.extra(anyio.abc.SocketAttribute.local_port)
    targets = [f"127.0.0.1:{port}", *([f"{ip}:{port}"] if (ip := _host_ip()) else []), "151.101.0.223:443"]
    dial = (
        "const net = require('net'); for (const t of process.argv.slice(1)) { const [host, port] = t.split(':');"
        " const s = net.connect({host, port: +port, timeout: 1500}); s.on('connect', () => { console.log('CONNECTED', t);"
        " s.destroy(); }); s.on('timeout', () => { console.log('blocked', t, 'timeout'); s.destroy(); });"
        " s.on('error', e => console.log('blocked', t, e.code)); }"
    )

    async def serve(stream: anyio.abc.SocketStream) -> None:
        accepted.append(stream)
        await stream.aclose()

    with anyio.fail_after(30):
        async with listener, anyio.create_task_group() as tg:
            tg.start_soon(listener.serve, serve)
            result = await box.exec(["node", "-e", dial, *targets], timeout_s=10)
            await anyio.sleep(0.2)
            tg.cancel_scope.cancel()
    assert b"CONNECTED" not in result.stdout, result.stdout
    assert result.stdout.count(b"blocked") == len(targets)
    assert accepted == []


async def test_fork_bomb(box: Sandbox) -> None:
    with anyio.fail_after(30):
        result = await box.exec(["bash", "-c", ":(){ :|:& };:; sleep 10"], timeout_s=1)
        alive = await box.exec(["echo", "still alive"])
    assert result.timed_out and result.wall_s < 6, result
    assert alive.stdout == b"still alive\n"
    assert len(_host_procs_with(b":|:&")) <= SMALL_SPEC.pids  # the bomb, if still there, stayed under its cap


async def test_memory_bomb(box: Sandbox) -> None:
    bomb = "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1));"
    with anyio.fail_after(60):
        result = await box.exec(["node", "-e", bomb], timeout_s=20)
        cases = await box.run_cases(["node", "-e", bomb], [CaseInput(id="bomb", argv=[])], timeout_s=20)
    assert result.oom and result.exit_code != 0 and not result.timed_out, result
    assert cases[0].oom and cases[0].exit_code != 0 and not cases[0].timed_out, cases[0]


async def test_memory_bomb_in_the_shell(box: Sandbox) -> None:
    """In the persistent shell too: the command's SIGKILL is read as the memory group's (`oom`), and a
    SIGKILL that was not (the command killing itself) is not."""
    bomb = "const a = []; for (;;) a.push(Buffer.alloc(16 << 20, 1));"
    with anyio.fail_after(60):
        killed = await box.shell("sh -c 'kill -9 $$'", timeout_s=20)
        result = await box.shell(f"node -e '{bomb}'", timeout_s=20)
        after = await box.shell("echo still here", timeout_s=20)
    assert (killed.exit_code, killed.oom) == (137, False), killed
    assert result.oom and result.exit_code == 137 and not result.timed_out, result
    assert (after.stdout, after.oom, after.restarted) == (b"still here\n", False, False), after


async def test_disk_fill(box: Sandbox) -> None:
    fill = 'i=0; while head -c 4194304 /dev/zero > "$1/f$i"; do i=$((i + 1)); done; echo "wrote $i"'
    with anyio.fail_after(60):
        big = await box.exec(["sh", "-c", "head -c 200000000 /dev/zero > big"], timeout_s=20)
        many = await box.exec(["sh", "-c", fill, "fill", "."], timeout_s=20)
        tmp = await box.exec(["sh", "-c", "fill() { " + fill + '; }; fill "${TMPDIR:-/tmp}"'], timeout_s=20)
        cleaned = await box.exec(
            ["sh", "-c", 'rm -f big f* "${TMPDIR:-/tmp}"/f* && echo ok > after.txt && cat after.txt']
        )
    assert big.exit_code != 0  # SIGXFSZ (file size limit) or ENOSPC
    budget = SMALL_SPEC.tmpfs_mb // 4 + 1
    for result in (many, tmp):
        written = int(result.stdout.split()[-1])
        assert written <= budget, result
    assert cleaned.stdout == b"ok\n"


async def test_infinite_loop(box: Sandbox) -> None:
    with anyio.fail_after(30):
        result = await box.exec(["node", "-e", "for (;;) {}"], timeout_s=0.5)
        cases = await box.run_cases(
            ["node", "-e"], [CaseInput(id="loop", argv=["for (;;) {}"])], timeout_s=0.5
        )
    assert result.timed_out and result.wall_s < 5
    assert cases[0].timed_out and cases[0].wall_s < 5


async def test_grandchild_in_its_own_session_escaping_the_timeout(box: Sandbox) -> None:
    linger = GRANDCHILD.format(marker=f"{box.workdir}/exec-marker", then="setTimeout(() => {}, 60000)")
    leave = GRANDCHILD.format(marker=f"{box.workdir}/case-marker", then="process.exit(0)")
    with anyio.fail_after(30):
        result = await box.exec(["node", "-e", linger], timeout_s=1)
        cases = await box.run_cases(["node", "-e", leave], [CaseInput(id="leave", argv=[])], timeout_s=5)
        await anyio.sleep(1.7)
        started = await box.exec(["sh", "-c", "ls *-marker.started"])
        markers = await box.exec(["sh", "-c", "ls *-marker"])
    assert result.timed_out and cases[0].exit_code == 0
    assert started.stdout.split() == [b"case-marker.started", b"exec-marker.started"], (
        started
    )  # the attack ran
    assert markers.exit_code != 0, f"a grandchild outlived its command: {markers.stdout!r}"


async def test_huge_stdout(box: Sandbox) -> None:
    flood = "for (;;) process.stdout.write('x'.repeat(1 << 16))"
    with anyio.fail_after(30):
        result = await box.exec(["yes"], timeout_s=10, output_cap=1 << 16)
        yes = await box.run_cases(["yes"], [CaseInput(id="yes", argv=[])], timeout_s=5, output_cap=1 << 16)
        node = await box.run_cases(["node", "-e", flood], [CaseInput(id="node", argv=[])], timeout_s=1, output_cap=1 << 16)  # fmt: skip
        shell = await box.shell("yes", timeout_s=0.5, output_cap=1 << 16)
    assert result.truncated and not result.timed_out and len(result.stdout) < (1 << 16) + 200
    assert yes[0].truncated and yes[0].exit_code == 128 + 13 and len(yes[0].stdout) == 1 << 16  # SIGPIPE
    # Node ignores SIGPIPE and queues writes after EPIPE: it ends truncated, or dies for memory first — or,
    # when its first write filled the pipe before the reader ran (one CPU), it spins until its deadline.
    assert (node[0].truncated or node[0].oom or node[0].timed_out) and len(node[0].stdout) <= 1 << 16
    assert shell.truncated and len(shell.stdout) < (1 << 16) + 200


async def test_writing_outside_the_work_directory(box: Sandbox, open_to_all: Path) -> None:
    outside = open_to_all
    targets = [str(outside / "pwned"), "/pwned", "/usr/bin/pwned", "/etc/pwned", "/home/pwned"]
    write = 'for t; do (echo x > "$t") 2>/dev/null && echo "WROTE $t"; done; true'
    with anyio.fail_after(30):
        result = await box.exec(["sh", "-c", write, "write", *targets])
    assert b"WROTE" not in result.stdout, result.stdout
    assert not _exists(outside / "pwned")


async def test_symlink_escape(
    box: Sandbox, host_secret: tuple[Path, str], open_to_all: Path, tmp_path: Path
) -> None:
    secret, token = host_secret
    outside = open_to_all
    links = f"ln -s {secret} link && ln -s / root && ln -s ../../../../../../../..{secret} rel && ln -s {outside}/made wlink"
    with anyio.fail_after(30):
        made = await box.exec(["sh", "-c", links])
        assert made.exit_code == 0, made
        for name in ("link", "rel", "root/etc/passwd"):
            try:
                data = await box.read_file(name)
            except SandboxError:
                continue
            assert token.encode() not in data and data != _read("/etc/passwd")
        try:
            await box.write_file("wlink", b"x")
        except SandboxError:
            pass
        await box.get_tree(".", tmp_path / "copy")
    assert not _exists(outside / "made")
    copied = [p for p in (tmp_path / "copy").rglob("*") if p.is_file() and not p.is_symlink()]
    assert all(token.encode() not in p.read_bytes() for p in copied)


async def test_reading_host_files(box: Sandbox, host_secret: tuple[Path, str]) -> None:
    secret, token = host_secret
    script = f"cat {secret}; cat /etc/shadow; ls {secret.parent}; cat /proc/1/environ; true"
    with anyio.fail_after(30):
        result = await box.exec(["sh", "-c", script])
        node = await box.exec(["node", "-e", f"try {{ console.log(require('fs').readFileSync('{secret}', 'utf8')) }} catch (e) {{ console.log(e.code) }}"])  # fmt: skip
    assert token.encode() not in result.stdout + result.stderr
    assert token.encode() not in node.stdout


async def test_spawning_a_python_interpreter(box: Sandbox) -> None:
    candidates = dict.fromkeys(PYTHONS)
    script = 'for p; do "$p" -c "print(6 * 7)" 2>/dev/null && echo "RAN $p"; done; true'
    spawn = "try { console.log(require('child_process').execFileSync('python3', ['-c', 'print(6*7)']).toString()) } catch (e) { console.log(e.code) }"
    with anyio.fail_after(30):
        result = await box.exec(["sh", "-c", script, "try", *candidates])
        node = await box.exec(["node", "-e", spawn])
    assert b"RAN" not in result.stdout and b"42" not in result.stdout, result.stdout
    assert b"42" not in node.stdout


async def test_sleeping_past_the_deadline(box: Sandbox) -> None:
    with anyio.fail_after(30):
        result = await box.exec(["sleep", "31.5"], timeout_s=0.5)
        cases = await box.run_cases(["sleep"], [CaseInput(id="nap", argv=["31.5"])], timeout_s=0.5)
        await anyio.sleep(0.2)
        left = _host_procs_with(b"31.5")
    assert result.timed_out and result.wall_s < 5 and result.exit_code in (124, 137)
    assert cases[0].timed_out and cases[0].wall_s < 5
    assert left == [], "a sleeper outlived its deadline"
