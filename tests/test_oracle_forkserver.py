"""The fork server under the case-execution contract: inputs arrive intact, outcomes are data, limits hold."""

from __future__ import annotations

import json
import os
import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import pytest

from repozero.kernel.errors import OracleError
from repozero.oracle.direct import run_fresh
from repozero.oracle.records import EnvSpec, ProgramRef, program_ref
from repozero.oracle.server import Batch, ForkServer
from repozero.oracle.source_env import LocalVenvEnvironment
from repozero.sandbox import CaseInput

PLANTED = Path(__file__).parent / "fixtures" / "oracle" / "planted"
MINI = Path(__file__).parent / "fixtures" / "oracle" / "mini" / "samples"

pytestmark = pytest.mark.anyio


@pytest.fixture
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.getbasetemp() / "oracle-cache"


@pytest.fixture
async def env(cache_dir: Path) -> LocalVenvEnvironment:
    environment = LocalVenvEnvironment(EnvSpec(), cache_dir)
    with anyio.fail_after(60):
        await environment.prepare()
    return environment


@pytest.fixture
async def server(env: LocalVenvEnvironment) -> AsyncIterator[ForkServer]:
    with anyio.fail_after(30):
        started = await ForkServer.start(env, 0, "")
    try:
        yield started
    finally:
        await started.aclose()


async def _run(server: ForkServer, env: LocalVenvEnvironment, script: str, *cases: CaseInput, limit_s: float = 5.0,
               cap: int = 1 << 20, folder: Path = PLANTED, memory_mb: int = 0) -> list:  # fmt: skip
    ref = program_ref(folder, script)
    batch = Batch(await env.stage_program(ref), ref, limit_s, cap, 4096, memory_mb)
    with anyio.fail_after(60):
        return await server.run(batch, list(cases))


NASTY_ARGV = [
    "$(touch {marker})",
    "`touch {marker}`",
    "; touch {marker}",
    "a | b && c > /dev/null",
    "'single' \"double\" \\back",
    "line1\nline2",
    "",
    "--flag=value with spaces",
    "-",
    "héllo wörld ✓ 😀 עברית",
    "*",
    "~",
]


async def test_argv_stdin_and_env_reach_the_program_intact(
    server: ForkServer, env: LocalVenvEnvironment
) -> None:
    marker = f"repozero-pwned-{uuid.uuid4().hex}"
    argv = [a.format(marker=f"/tmp/{marker}") for a in NASTY_ARGV]
    stdin = "€ $(echo hi) `id`\n".encode() + bytes(range(256))
    (result,) = await _run(server, env, "echo.py", CaseInput(id="x", argv=argv, stdin=stdin))
    assert result.exit_code == 0, result.stderr
    seen = json.loads(result.stdout)
    assert seen["argv"] == ["echo.py", *argv]
    assert bytes.fromhex(seen["stdin"]) == stdin
    assert seen["env_keys"] == ["HOME", "LANG", "LC_ALL", "PATH", "TZ"]
    assert seen["env"] == {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC"}
    assert seen["name"] == "__main__"
    assert "echo.py" in seen["cwd_files"] and "set_order.py" in seen["cwd_files"]  # the whole folder, copied
    assert marker not in os.listdir("/tmp"), "an argument was interpreted by a shell"


async def test_no_stdin_means_dev_null(server: ForkServer, env: LocalVenvEnvironment) -> None:
    (result,) = await _run(server, env, "echo.py", CaseInput(id="x", argv=[]))
    assert json.loads(result.stdout)["stdin"] == ""


async def test_scratch_copy_is_private_to_each_run(
    server: ForkServer, env: LocalVenvEnvironment, tmp_path: Path
) -> None:
    program = tmp_path / "prog"
    program.mkdir()
    (program / "mutate.py").write_text(
        "import os\nprint(sorted(os.listdir('.')))\nopen('left-behind.txt', 'w').write('x')\n"
    )
    results = await _run(
        server, env, "mutate.py", *(CaseInput(id=str(i), argv=[]) for i in range(3)), folder=program
    )
    assert [r.stdout for r in results] == [b"['mutate.py']\n"] * 3
    assert sorted(os.listdir(program)) == ["mutate.py"]


async def test_raising_program_exits_1_with_its_own_traceback(
    server: ForkServer, env: LocalVenvEnvironment
) -> None:
    (result,) = await _run(server, env, "raising.py", CaseInput(id="x", argv=[]))
    assert result.exit_code == 1
    assert result.stdout == b"before the error\n"
    lines = result.stderr.decode().splitlines()
    assert lines[0] == "Traceback (most recent call last):"
    assert lines[1].startswith('  File "') and lines[1].split('"')[1].endswith("/raising.py")
    assert "forkserver" not in result.stderr.decode()
    assert lines[-1].startswith("ValueError: invalid literal for int()")


async def test_exit_codes_and_signals(server: ForkServer, env: LocalVenvEnvironment) -> None:
    (three,) = await _run(server, env, "exit_three.py", CaseInput(id="x", argv=[]))
    (killed,) = await _run(server, env, "killed.py", CaseInput(id="x", argv=[]))
    assert (three.exit_code, three.stdout) == (3, b"partial\n")
    assert (killed.exit_code, killed.stdout) == (128 + 15, b"about to die\n")


async def test_timeout_kills_the_whole_process_group(server: ForkServer, env: LocalVenvEnvironment) -> None:
    token = uuid.uuid4().hex
    (result,) = await _run(server, env, "sleeper.py", CaseInput(id="x", argv=[token]), limit_s=1.5)
    assert result.timed_out and result.exit_code == 128 + 9
    assert 1.5 <= result.wall_s < 10
    word, pid = result.stdout.split()
    assert word == b"sleeping" and int(pid) > 0  # the program did start a process of its own
    for _ in range(100):  # SIGKILL delivery is asynchronous; the group must be gone shortly
        if not _processes_with(token):
            break
        await anyio.sleep(0.05)
    assert not _processes_with(token)


def _processes_with(token: str) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if token.encode() in cmdline:
            found.append(pid)
    return found


async def test_memory_limit_fails_the_run_not_the_host(server: ForkServer, env: LocalVenvEnvironment) -> None:
    """A proposed input that allocates without bound ends in a MemoryError of its own run; the limit is per
    run, so the server and a modest run after it are unaffected."""
    big, small = CaseInput(id="big", argv=["2048"]), CaseInput(id="small", argv=["64"])
    limited = await _run(server, env, "hog.py", big, small, memory_mb=1024)
    assert limited[0].exit_code == 1 and b"MemoryError" in limited[0].stderr
    assert (limited[1].exit_code, limited[1].stdout) == (0, b"allocated 64 MiB\n")
    unlimited = await _run(
        server, env, "hog.py", big, limit_s=30.0
    )  # touching 2 GiB of pages: seconds under load
    assert (unlimited[0].exit_code, unlimited[0].stdout) == (0, b"allocated 2048 MiB\n")


async def test_output_cap_truncates_and_stops_the_program(
    server: ForkServer, env: LocalVenvEnvironment
) -> None:
    (result,) = await _run(server, env, "huge.py", CaseInput(id="x", argv=[]), cap=100_000)
    assert result.truncated
    assert len(result.stdout) == 100_000 and set(result.stdout) <= set(b"x\n")
    assert result.wall_s < 5


async def test_server_survives_many_runs_and_a_bad_request(
    server: ForkServer, env: LocalVenvEnvironment
) -> None:
    bad = ProgramRef(dir="/nonexistent/folder", path="x.py", digest="nope")
    with pytest.raises(OracleError, match="fork server 0: FileNotFoundError"):
        with anyio.fail_after(30):
            await server.run(Batch(bad.dir, bad, 5.0, 1000, 1000), [CaseInput(id="x", argv=[])])
    results = await _run(server, env, "echo.py", *(CaseInput(id=str(i), argv=[str(i)]) for i in range(40)))
    assert [json.loads(r.stdout)["argv"][1] for r in results] == [str(i) for i in range(40)]


async def test_forks_of_one_server_share_the_hash_seed_fresh_servers_do_not(
    env: LocalVenvEnvironment,
) -> None:
    """The reason the filter spreads repeats over servers: forks inherit the parent's hash seed."""
    ref = program_ref(PLANTED, "set_order.py")
    batch = Batch(await env.stage_program(ref), ref, 5.0, 1000, 100)
    with anyio.fail_after(60):
        one = await ForkServer.start(env, 0, "")
        try:
            same = await one.run(batch, [CaseInput(id=str(i), argv=[]) for i in range(10)])
        finally:
            await one.aclose()
        orders = set()
        for index in range(6):
            fresh = await ForkServer.start(env, index, "")
            try:
                (result,) = await fresh.run(batch, [CaseInput(id="0", argv=[])])
            finally:
                await fresh.aclose()
            orders.add(result.stdout)
    assert len({r.stdout for r in same}) == 1
    assert len({r.hash_seed for r in same}) == 1
    assert len(orders) > 1


async def test_clock_shift_moves_the_date(env: LocalVenvEnvironment) -> None:
    ref = program_ref(PLANTED, "today.py")
    batch = Batch(await env.stage_program(ref), ref, 5.0, 1000, 100)
    days = []
    with anyio.fail_after(60):
        for shift in ("", "+1d"):
            server = await ForkServer.start(env, 0, shift)
            try:
                (result,) = await server.run(batch, [CaseInput(id="0", argv=[])])
            finally:
                await server.aclose()
            days.append(result.stdout)
    assert days[0] != days[1]


async def test_fork_and_fresh_interpreter_print_the_same_bytes(
    server: ForkServer, env: LocalVenvEnvironment
) -> None:
    cases = [
        ("wordfreq", "wordfreq.py", CaseInput(id="a", argv=["--top", "2"], stdin="b a b ü\n".encode())),
        ("calc", "calc.py", CaseInput(id="b", argv=["--a", "1/3", "--b", "2", "--op", "div"])),
        ("calc", "calc.py", CaseInput(id="c", argv=["--a", "x", "--b", "2", "--op", "div"])),
        ("jsonpath", "jsonpath.py", CaseInput(id="d", argv=["--data", '{"a": ["é", 2]}', "--path", "a"])),
        ("jsonpath", "jsonpath.py", CaseInput(id="e", argv=["--data", "[1]", "--path", "5"])),
    ]
    for sample, script, case in cases:
        folder = MINI / sample / "program"
        (forked,) = await _run(server, env, script, case, folder=folder)
        with anyio.fail_after(30):
            fresh = await run_fresh(env, program_ref(folder, script), case, timeout_s=5, output_cap=1 << 20,
                                    stderr_cap=4096)  # fmt: skip
        assert (forked.stdout, forked.exit_code) == (fresh.stdout, fresh.exit_code), case.id
        assert _scrub(forked.stderr) == _scrub(fresh.stderr), case.id  # tracebacks too, frame for frame


def _scrub(stderr: bytes) -> bytes:
    """Scratch folders differ per run; everything else in a traceback must not."""
    return re.sub(rb"/tmp/[^\"]*/work/", b"WORK/", stderr)


@pytest.mark.parametrize("script", ["raising.py", "exit_three.py", "killed.py", "huge.py", "sleeper.py"])
async def test_fork_and_fresh_interpreter_agree_on_outcomes(
    server: ForkServer, env: LocalVenvEnvironment, script: str
) -> None:
    case = CaseInput(id="x", argv=[uuid.uuid4().hex])
    (forked,) = await _run(server, env, script, case, limit_s=1.0, cap=50_000)
    with anyio.fail_after(30):
        fresh = await run_fresh(env, program_ref(PLANTED, script), case, timeout_s=1.0, output_cap=50_000,
                                stderr_cap=4096)  # fmt: skip
    outcome = ("exit_code", "timed_out", "truncated")
    assert [getattr(forked, k) for k in outcome] == [getattr(fresh, k) for k in outcome]
    if script != "sleeper.py":  # it prints the pid of its own child
        assert forked.stdout == fresh.stdout


async def test_program_modules_shadow_what_the_server_imported(
    server: ForkServer, env: LocalVenvEnvironment, tmp_path: Path
) -> None:
    """The server itself uses `json`; a program with its own json.py must get its own, as when run fresh."""
    folder = tmp_path / "shadow"
    folder.mkdir()
    (folder / "json.py").write_text("def dumps(value):\n    return f'local {value}'\n")
    (folder / "main.py").write_text("import json\nimport os\nprint(json.dumps(1), os.sep)\n")
    case = CaseInput(id="x", argv=[])
    (forked,) = await _run(server, env, "main.py", case, folder=folder)
    with anyio.fail_after(30):
        fresh = await run_fresh(env, program_ref(folder, "main.py"), case, timeout_s=5, output_cap=4096,
                                stderr_cap=4096)  # fmt: skip
    assert forked.stdout == fresh.stdout == b"local 1 /\n"
