"""`repozero.kernel.spawn`: vfork'd children behind anyio's Process interface, on uvloop (the conftest backend)."""

from __future__ import annotations

import os
import signal

import anyio
import anyio.lowlevel
import pytest

from repozero.kernel.spawn import DEVNULL, PIPE, open_process

pytestmark = pytest.mark.anyio


async def _read_all(stream: anyio.abc.ByteReceiveStream) -> bytes:
    chunks = []
    try:
        while True:
            chunks.append(await stream.receive())
    except anyio.EndOfStream:
        return b"".join(chunks)


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


async def test_round_trip_larger_than_a_pipe_buffer_both_ways() -> None:
    payload = os.urandom(3 << 20)  # 3 MiB: the writer must wait for the reader, and back
    proc = await open_process(["cat"])
    assert proc.stdin is not None and proc.stdout is not None

    async def feed() -> None:
        assert proc.stdin is not None
        await proc.stdin.send(payload)
        await proc.stdin.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(feed)
        echoed = await _read_all(proc.stdout)
    assert echoed == payload
    assert await proc.wait() == 0
    await proc.aclose()


async def test_stderr_exit_code_cwd_and_env(tmp_path: os.PathLike[str]) -> None:
    script = 'printf "%s|%s" "$PWD" "$GREETING" >&2; exit 3'
    proc = await open_process(
        ["sh", "-c", script], stdin=DEVNULL, stdout=DEVNULL, cwd=str(tmp_path), env={"GREETING": "hi"}
    )
    assert proc.stdin is None and proc.stdout is None and proc.stderr is not None
    assert await _read_all(proc.stderr) == f"{tmp_path}|hi".encode()
    assert await proc.wait() == 3
    assert proc.returncode == 3
    await proc.aclose()


async def test_kill_is_seen_as_a_negative_signal_and_concurrent_waiters_agree() -> None:
    proc = await open_process(["sleep", "30"], stdin=DEVNULL, stdout=DEVNULL, stderr=DEVNULL)
    codes: list[int] = []

    async def waiter() -> None:
        codes.append(await proc.wait())

    async with anyio.create_task_group() as tg:
        for _ in range(3):
            tg.start_soon(waiter)
        await anyio.sleep(0.05)
        assert proc.returncode is None
        proc.kill()
    assert codes == [-signal.SIGKILL] * 3
    proc.kill()  # reaped: a no-op, never a signal to a reused pid
    await proc.aclose()


async def test_new_session_and_a_reader_gone_is_a_broken_resource() -> None:
    proc = await open_process(["sh", "-c", "ps -o sid= -p $$; exec 0<&-; sleep 0.1"], start_new_session=True)
    assert proc.stdout is not None and proc.stdin is not None
    assert int(await _read_all(proc.stdout)) == proc.pid  # its own session leader
    await proc.wait()
    with pytest.raises(anyio.BrokenResourceError):
        await proc.stdin.send(b"x" * 100_000)
    await proc.aclose()


async def test_cancelled_reader_and_aclose_leave_no_fds() -> None:
    before = _open_fds()
    proc = await open_process(["sleep", "30"])
    assert proc.stdout is not None
    with anyio.move_on_after(0.05):
        await proc.stdout.receive()  # nothing comes: cancelled while waiting on the fd
    proc.kill()
    await proc.aclose()
    with pytest.raises(anyio.ClosedResourceError):
        await proc.stdout.receive()
    assert _open_fds() == before


async def test_a_missing_program_raises_and_leaks_no_pipe() -> None:
    before = _open_fds()
    with pytest.raises(FileNotFoundError):
        await open_process(["/nonexistent/program"], stdin=PIPE, stdout=PIPE, stderr=PIPE)
    assert _open_fds() == before


async def test_a_child_writing_without_pause_does_not_starve_the_loop() -> None:
    proc = await open_process(["yes"], stdin=DEVNULL, stderr=DEVNULL)
    assert proc.stdout is not None
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tg:
        tg.start_soon(ticker)
        for _ in range(20_000):
            await proc.stdout.receive(1)  # the pipe always holds more: no wait on the fd
        tg.cancel_scope.cancel()
    assert ticks > 1000
    proc.kill()
    await proc.aclose()
