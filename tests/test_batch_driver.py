"""The batch driver: argv bytes arrive intact, the case-execution contract holds (env, HOME, cwd, stdin),
per-case timeouts and caps give the right record, and a batch is one round trip.

The driver is run two ways: straight on the host under POSIX shells (dash, bash --posix), and through
`Sandbox.run_cases` on every backend.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from repozero.sandbox import CaseInput, ExecResult, LocalBackend, Sandbox, SandboxSpec
from repozero.sandbox.batch import driver_argv, pack_batch, parse_records

pytestmark = pytest.mark.anyio

TRICKY = [
    "plain", "two words", "", "  lead and trail  ", "'single'", '"double"', "`id`", "$(id)", "$HOME", "*", "?",
    "[a]", "~", "\\", "a\\nb", "line1\nline2", "trailing newlines\n\n", "\ttab", "--flag=1", "-e", ";|&<>",
    "ünï €", "日本語", "\x01\x1f\x7f", "\x81\x82\x88",
]  # fmt: skip
ALL_BYTES = "".join(chr(b) for b in range(1, 256))  # every byte but NUL (as code points; sent as UTF-8)
PY_ECHO = "import sys, json; sys.stdout.write(json.dumps(sys.argv[1:]))"
NODE_ECHO = "process.stdout.write(JSON.stringify(process.argv.slice(1)))"
SHELLS = [pytest.param(["dash"], id="dash"), pytest.param(["bash", "--posix"], id="bash-posix")]


def _host_batch(shell: list[str], entry: list[str], cases: list[CaseInput], *, timeout_s: float = 5, cwd: str = ".",
                output_cap: int = 1 << 20, stderr_cap: int = 4096) -> list:  # fmt: skip
    argv = driver_argv(
        timeout_s=timeout_s,
        output_cap=output_cap,
        stderr_cap=stderr_cap,
        kill_after_s=0.2,
        cwd=cwd,
        kill_strays=True,
    )
    assert argv[:2] == ["sh", "-c"]
    env = {"PATH": os.environ["PATH"], "SECRET_HOST_VAR": "leak", "HOME": "/root"}
    done = subprocess.run(
        [*shell, *argv[1:]],
        input=pack_batch(entry, cases),
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    result = ExecResult(stdout=done.stdout, stderr=done.stderr, exit_code=done.returncode, wall_s=0.0)
    return parse_records(result, cases, timeout_s=timeout_s, output_cap=output_cap, stderr_cap=stderr_cap)


# --- straight on the host ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shell", SHELLS)
def test_argv_bytes_arrive_intact(shell: list[str]) -> None:
    cases = [
        CaseInput(id="tricky", argv=TRICKY),
        CaseInput(id="all-bytes", argv=[ALL_BYTES, ALL_BYTES[::-1]]),
        CaseInput(id="empty-alone", argv=[""]),
        CaseInput(id="newlines-alone", argv=["\n\n"]),
        CaseInput(id="no-args", argv=[]),
    ]
    runs = _host_batch(shell, [sys.executable, "-S", "-c", PY_ECHO], cases)
    assert [run.id for run in runs] == [case.id for case in cases]
    for case, run in zip(cases, runs, strict=True):
        assert run.exit_code == 0, run
        assert json.loads(run.stdout) == case.argv


@pytest.mark.parametrize("shell", SHELLS)
def test_env_is_exactly_the_contract_with_a_fresh_home_and_the_given_cwd(
    shell: list[str], tmp_path: Path
) -> None:
    show = "import os, json; print(json.dumps(dict(os.environ))); print(os.getcwd()); print(os.listdir(os.environ['HOME']))"
    touch = "import os; open(os.path.join(os.environ['HOME'], 'left-behind'), 'w').close()"
    cases = [CaseInput(id="touch", argv=["-c", touch]), CaseInput(id="show", argv=["-c", show])]
    runs = _host_batch(shell, [sys.executable, "-S"], cases, cwd=str(tmp_path))
    env_line, cwd_line, home_line = runs[1].stdout.decode().splitlines()
    env = json.loads(env_line)
    assert set(env) - {"PWD"} == {"PATH", "LANG", "LC_ALL", "TZ", "HOME"}
    assert (env["LANG"], env["LC_ALL"], env["TZ"]) == ("C.UTF-8", "C.UTF-8", "UTC")
    assert cwd_line == str(tmp_path) and home_line == "[]"


@pytest.mark.parametrize("shell", SHELLS)
def test_stdin_exit_codes_signals_timeouts_and_caps(shell: list[str]) -> None:
    stdin = bytes(range(256)) * 10
    cases = [
        CaseInput(id="cat", argv=["-c", "cat"], stdin=stdin),
        CaseInput(id="devnull", argv=["-c", "cat; echo end"]),
        CaseInput(id="exit3", argv=["-c", "echo out; echo err >&2; exit 3"]),
        CaseInput(id="segv", argv=["-c", "kill -SEGV $$"]),
        CaseInput(id="sleep", argv=["-c", "sleep 30"]),
        CaseInput(id="ignores-term", argv=["-c", "trap '' TERM; sleep 30"]),
        CaseInput(id="exit124", argv=["-c", "exit 124"]),
        CaseInput(id="flood", argv=["-c", "yes"]),
        CaseInput(id="errflood", argv=["-c", "yes >&2"]),
    ]
    runs = {
        run.id: run
        for run in _host_batch(shell, ["sh"], cases, timeout_s=0.5, output_cap=5000, stderr_cap=100)
    }
    assert runs["cat"].stdout == stdin
    assert runs["devnull"].stdout == b"end\n"
    assert (runs["exit3"].exit_code, runs["exit3"].stdout, runs["exit3"].stderr) == (3, b"out\n", b"err\n")
    assert runs["segv"].exit_code == 139 and not runs["segv"].timed_out
    assert runs["sleep"].timed_out and runs["sleep"].exit_code == 124
    assert runs["ignores-term"].timed_out and runs["ignores-term"].exit_code == 137
    assert runs["exit124"].exit_code == 124 and not runs["exit124"].timed_out
    assert runs["flood"].truncated and runs["flood"].stdout == b"y\n" * 2500 and not runs["flood"].timed_out
    assert runs["errflood"].stderr == (b"y\n" * 50) and not runs["errflood"].truncated
    assert all(run.wall_s < 3 for run in runs.values())


def test_the_driver_is_posix_sh_with_no_python() -> None:
    text = (Path(__file__).parent.parent / "sandbox" / "drivers" / "batch.sh").read_text()
    code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    assert "python" not in code and "eval" not in code
    checkbashisms = shutil.which("checkbashisms")
    if checkbashisms:
        assert subprocess.run([checkbashisms, "-f", "-"], input=text.encode(), check=False).returncode == 0


# --- through run_cases, on every backend --------------------------------------------------------------------
async def test_run_cases_keeps_argv_and_stdin_intact(sandbox: Sandbox) -> None:
    cases = [
        CaseInput(id="tricky", argv=TRICKY),
        CaseInput(id="bytes", argv=[ALL_BYTES]),
        CaseInput(id="empty-alone", argv=[""]),
        CaseInput(id="stdin", argv=["-e", "process.stdin.pipe(process.stdout)"], stdin=b"\x00\xff in"),
    ]
    with anyio.fail_after(60):
        runs = await sandbox.run_cases(["node", "-e", NODE_ECHO], cases[:-1], timeout_s=10)
        piped = await sandbox.run_cases(["node"], cases[-1:], timeout_s=10)
    for case, run in zip(cases, runs, strict=False):
        assert json.loads(run.stdout) == case.argv, case.id
    assert piped[0].stdout == b"\x00\xff in"


async def test_run_cases_follows_the_contract_env_home_and_cwd(sandbox: Sandbox) -> None:
    show = "console.log(JSON.stringify(process.env)); console.log(process.cwd()); console.log(require('fs').readdirSync(process.env.HOME).length)"
    touch = "require('fs').writeFileSync(process.env.HOME + '/left-behind', 'x')"
    with anyio.fail_after(30):
        await sandbox.write_file("sub/.keep", b"")
        runs = await sandbox.run_cases(["node", "-e"], [CaseInput(id="t", argv=[touch]), CaseInput(id="s", argv=[show])], timeout_s=10, cwd="sub")  # fmt: skip
    env_line, cwd_line, home_count = runs[1].stdout.decode().splitlines()
    env = json.loads(env_line)
    assert set(env) - {"PWD"} == {"PATH", "LANG", "LC_ALL", "TZ", "HOME"}
    assert (env["LANG"], env["LC_ALL"], env["TZ"]) == ("C.UTF-8", "C.UTF-8", "UTC")
    assert cwd_line == f"{sandbox.workdir}/sub" and home_count == "0"


async def test_a_case_is_its_memory_groups_first_oom_victim_not_the_driver(sandbox: Sandbox) -> None:
    """Each case runs at oom_score_adj 1000, the driver that runs it (the case's `timeout`'s parent) at what
    it had: a memory group full while a runaway case was dying made the kernel kill bwrap, and the batch."""
    show = (
        "const fs = require('fs'); const adj = p => fs.readFileSync(`/proc/${p}/oom_score_adj`, 'utf8').trim();"
        "const driver = fs.readFileSync(`/proc/${process.ppid}/stat`, 'utf8').split(') ')[1].split(' ')[1];"
        "console.log(adj('self'), adj(process.ppid), adj(driver))"
    )
    with anyio.fail_after(30):
        [run] = await sandbox.run_cases(["node", "-e", show], [CaseInput(id="adj", argv=[])], timeout_s=10)
    case, timeout, driver = run.stdout.decode().split()
    assert (case, timeout) == ("1000", "1000") and int(driver) < 1000, run


async def test_run_cases_statuses(sandbox: Sandbox) -> None:
    cases = [
        CaseInput(id="ok", argv=["console.log('ok')"]),
        CaseInput(id="throws", argv=["throw new Error('boom')"]),
        CaseInput(id="exit", argv=["process.exit(4)"]),
        CaseInput(id="abort", argv=["process.kill(process.pid, 'SIGABRT')"]),
        CaseInput(id="loop", argv=["for(;;){}"]),
        CaseInput(id="flood", argv=["for(;;) process.stdout.write('x'.repeat(65536))"]),
    ]
    with anyio.fail_after(60):
        runs = {
            r.id: r for r in await sandbox.run_cases(["node", "-e"], cases, timeout_s=1.5, output_cap=10000)
        }
    assert (runs["ok"].exit_code, runs["ok"].stdout) == (0, b"ok\n")
    assert runs["throws"].exit_code == 1 and b"boom" in runs["throws"].stderr
    assert runs["exit"].exit_code == 4
    assert runs["abort"].exit_code == 128 + 6 and not runs["abort"].timed_out
    assert runs["loop"].timed_out and runs["loop"].stdout == b""
    assert runs["flood"].truncated and len(runs["flood"].stdout) == 10000


async def test_a_batch_is_one_round_trip() -> None:
    calls = []
    cases = [CaseInput(id=str(i), argv=[f"echo $(({i} * 2))"]) for i in range(40)]
    with anyio.fail_after(60):
        async with LocalBackend().open(SandboxSpec()) as box:
            real_exec = box.exec

            async def counting_exec(*args: object, **kwargs: object) -> ExecResult:
                calls.append(args)
                return await real_exec(*args, **kwargs)  # type: ignore[arg-type]

            box.exec = counting_exec  # type: ignore[method-assign]
            runs = await box.run_cases(["sh", "-c"], cases, timeout_s=5)
            assert await box.run_cases(["sh"], [], timeout_s=5) == []
    assert len(calls) == 1
    assert [(r.id, r.stdout) for r in runs] == [(str(i), f"{i * 2}\n".encode()) for i in range(40)]
