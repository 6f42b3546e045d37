"""The persistent shell: sentinel framing, cwd/env kept, exact output bytes, caps, deadlines that kill what
a command started, and transparent restarts — on every backend, and over a bare host process."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence

import anyio
import anyio.abc
import pytest

from repozero.sandbox import Sandbox, SandboxProcess, ShellSession
from repozero.sandbox.process import LocalProcess

pytestmark = pytest.mark.anyio

GRANDCHILD = (
    "require('child_process').spawn('sh', ['-c', 'echo up > {marker}.started; sleep 1.5; echo escaped > {marker}'],"
    " {{detached: true, stdio: 'ignore'}}).unref()"
)


async def test_cwd_env_and_functions_persist_between_commands(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        await sandbox.shell("mkdir -p sub/dir && cd sub/dir && export GREETING='hi there'")
        await sandbox.shell('greet() { echo "$GREETING from $(pwd)"; }')
        result = await sandbox.shell("greet")
    assert result.stdout == f"hi there from {sandbox.workdir}/sub/dir\n".encode()
    assert result.exit_code == 0 and not result.restarted


async def test_exit_codes_and_exact_output_bytes(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        failing = await sandbox.shell("false")
        sub = await sandbox.shell("(exit 7)")
        no_newline = await sandbox.shell("printf abc")
        binary = await sandbox.shell("printf '\\377\\000x\\n\\n'")
        unicode = await sandbox.shell("echo 'ünï €' && echo err >&2")
    assert (failing.exit_code, sub.exit_code) == (1, 7)
    assert no_newline.stdout == b"abc"
    assert binary.stdout == b"\xff\x00x\n\n"
    assert unicode.stdout == "ünï €\nerr\n".encode()  # stderr is merged, in order


async def test_multiline_commands_and_heredocs(sandbox: Sandbox) -> None:
    command = "cat > notes.txt <<'EOF'\nline $1 `x`\n\tsecond\nEOF\nwc -l < notes.txt\ncat notes.txt"
    with anyio.fail_after(20):
        result = await sandbox.shell(command)
    assert result.stdout == b"2\nline $1 `x`\n\tsecond\n"


async def test_a_command_reading_stdin_gets_eof_not_the_protocol(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        read = await sandbox.shell("cat; echo done")
        after = await sandbox.shell("echo next")
    assert read.stdout == b"done\n" and after.stdout == b"next\n"


async def test_output_cap_keeps_head_and_tail(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        result = await sandbox.shell("seq 1 100000", output_cap=1000)
    assert result.truncated and result.exit_code == 0
    assert result.stdout.startswith(b"1\n2\n3\n") and result.stdout.endswith(b"99999\n100000\n")
    assert b"bytes omitted" in result.stdout and len(result.stdout) < 1200


async def test_deadline_kills_the_command_and_its_detached_grandchild(sandbox: Sandbox) -> None:
    marker = f"{sandbox.workdir}/escaped.txt"
    with anyio.fail_after(30):
        await sandbox.shell("export KEPT=yes; cd /tmp")
        result = await sandbox.shell(
            f'node -e "{GRANDCHILD.format(marker=marker)}"; until [ -e {marker}.started ]; do sleep 0.02; done;'
            " sleep 30 & sleep 30",
            timeout_s=1,
        )
        assert result.timed_out and result.wall_s < 5
        await anyio.sleep(1.7)
        started = await sandbox.shell(f"ls {marker}.started")
        after = await sandbox.shell("echo $KEPT $(pwd); ls " + marker)
    assert started.exit_code == 0, "the grandchild never started: the test proved nothing"
    assert after.exit_code != 0, "the detached grandchild outlived the deadline and wrote its marker"
    if not result.restarted:  # the shell survived: its state is intact
        assert after.stdout.startswith(b"yes /tmp\n")


async def test_a_shell_that_cannot_be_interrupted_is_restarted(sandbox: Sandbox) -> None:
    with anyio.fail_after(30):
        await sandbox.shell("cd /tmp")
        stuck = await sandbox.shell("while :; do :; done", timeout_s=0.5)
        after = await sandbox.shell("pwd")
    assert stuck.timed_out and stuck.restarted
    assert after.stdout == f"{sandbox.workdir}\n".encode() and not after.restarted


async def test_exit_restarts_the_session(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        gone = await sandbox.shell("echo bye; exit 5")
        after = await sandbox.shell("echo back")
    assert (gone.exit_code, gone.stdout, gone.restarted) == (5, b"bye\n", True)
    assert after.stdout == b"back\n" and not after.restarted


async def test_a_shell_killed_between_commands_is_restarted_for_the_next(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        await sandbox.shell("cd /tmp; (sleep 0.2; kill -9 $$) >/dev/null 2>&1 &")
        await anyio.sleep(0.8)
        after = await sandbox.shell("pwd")
        again = await sandbox.shell("pwd")
    assert after.stdout == f"{sandbox.workdir}\n".encode() and after.restarted
    assert not again.restarted


async def test_outer_cancellation_is_said_in_the_next_result(sandbox: Sandbox) -> None:
    with anyio.fail_after(20):
        with anyio.move_on_after(0.5):
            await sandbox.shell("sleep 30")
        after = await sandbox.shell("echo ok")
    assert after.stdout == b"ok\n" and after.restarted


async def test_concurrent_callers_are_served_one_at_a_time(sandbox: Sandbox) -> None:
    results: dict[int, bytes] = {}

    async def one(i: int) -> None:
        results[i] = (await sandbox.shell(f"sleep 0.0{i}; echo {i}")).stdout

    with anyio.fail_after(20):
        async with anyio.create_task_group() as tg:
            for i in range(5):
                tg.start_soon(one, i)
    assert results == {i: f"{i}\n".encode() for i in range(5)}


async def test_nul_bytes_are_refused(sandbox: Sandbox) -> None:
    with pytest.raises(ValueError):
        await sandbox.shell("echo a\0b")


# --- generic over any SandboxProcess: a bare host bash, no sandbox, no stray-killer ----------------------
async def _host_process(argv: Sequence[str]) -> SandboxProcess:
    proc = await anyio.open_process(
        list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True
    )
    return LocalProcess(proc)


async def test_session_over_a_host_process_restarts_when_it_has_no_stray_killer() -> None:
    session = ShellSession(_host_process)
    try:
        with anyio.fail_after(20):
            first = await session.run("export X=1; echo $X")
            late = await session.run("sleep 30", timeout_s=0.5)
            after = await session.run("echo ${X:-unset}")
    finally:
        await session.aclose()
    assert first.stdout == b"1\n"
    assert late.timed_out and late.restarted and late.exit_code == 137
    assert after.stdout == b"unset\n"
