"""Cases of a batch run at once inside the sandbox (bounded by its CPU quota), and a batch may stop after K
consecutive timeouts or K consecutive crashes of one kind: the records are those of a one-at-a-time run
either way, in case order.

The driver is run straight on the host under POSIX shells (dash, bash --posix), and through
`Sandbox.run_cases` on every backend.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.sandbox import CaseInput, CaseRun, ExecResult, SandboxBackend, create_backend
from repozero.sandbox.batch import (
    BatchStops,
    case_jobs,
    driver_argv,
    pack_batch,
    parse_records,
    rerun_oom_alone,
)
from repozero.sandbox.config import SandboxConfig

from .sandbox_fixtures import BACKEND_PARAMS, SMALL_SPEC

pytestmark = pytest.mark.anyio

SHELLS = [pytest.param(["dash"], id="dash"), pytest.param(["bash", "--posix"], id="bash-posix")]
HANG = "sleep 30"


def _host_batch(
    shell: list[str],
    cases: list[CaseInput],
    *,
    jobs: int,
    stop: int = 0,
    crashes: int = 0,
    timeout_s: float = 0.5,
    cwd: str = ".",
) -> list[CaseRun]:
    argv = driver_argv(
        timeout_s=timeout_s, output_cap=5000, stderr_cap=100, kill_after_s=0.2, cwd=cwd, kill_strays=True,
        jobs=jobs, stops=BatchStops(timeouts=stop, crashes=crashes),
    )  # fmt: skip
    done = subprocess.run(
        [*shell, *argv[1:]],
        input=pack_batch(["sh", "-c"], cases),
        capture_output=True,
        env={"PATH": os.environ["PATH"]},
        timeout=120,
        check=False,
    )
    result = ExecResult(stdout=done.stdout, stderr=done.stderr, exit_code=done.returncode, wall_s=0.0)
    return parse_records(result, cases, timeout_s=timeout_s, output_cap=5000, stderr_cap=100)


def _facts(runs: Sequence[CaseRun]) -> list[tuple[object, ...]]:
    """Everything about a run but its wall time (which concurrency may change)."""
    return [(r.id, r.stdout, r.stderr, r.exit_code, r.timed_out, r.truncated, r.oom, r.not_run) for r in runs]


MIXED = [
    CaseInput(id="cat", argv=["cat"], stdin=bytes(range(256)) * 4),
    CaseInput(id="exit3", argv=["sleep 0.05; echo out; echo err >&2; exit 3"]),
    CaseInput(id="hang", argv=[HANG]),
    CaseInput(id="segv", argv=["kill -SEGV $$"]),
    CaseInput(id="exit124", argv=["exit 124"]),
    CaseInput(id="ignores-term", argv=["trap '' TERM; sleep 30"]),
    CaseInput(id="flood", argv=["yes"]),
    CaseInput(id="errflood", argv=["yes >&2"]),
    CaseInput(id="home", argv=['ls -A "$HOME"; basename "$HOME"; touch "$HOME/mine"']),
    *[CaseInput(id=f"echo{i}", argv=[f"sleep 0.0{i}; echo {i}"]) for i in range(8)],
]


# --- straight on the host ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shell", SHELLS)
def test_concurrent_records_equal_one_at_a_time(shell: list[str]) -> None:
    alone = _host_batch(shell, MIXED, jobs=1)
    assert [r.id for r in alone] == [c.id for c in MIXED]
    assert alone[2].timed_out and alone[4].exit_code == 124 and not alone[4].timed_out
    for jobs in (2, 5):
        assert _facts(_host_batch(shell, MIXED, jobs=jobs)) == _facts(alone), jobs


@pytest.mark.parametrize("shell", SHELLS)
def test_cases_do_run_at_once(shell: list[str], tmp_path: Path) -> None:
    # case 0 waits (within its timeout) for a mark that only case 1 makes
    cases = [
        CaseInput(id="waits", argv=["until [ -e mark ]; do sleep 0.02; done; echo met"]),
        CaseInput(id="marks", argv=["touch mark"]),
    ]
    together = _host_batch(shell, cases, jobs=2, timeout_s=5, cwd=str(tmp_path))
    assert together[0].stdout == b"met\n" and not together[0].timed_out
    (tmp_path / "mark").unlink()
    alone = _host_batch(shell, cases, jobs=1, timeout_s=1, cwd=str(tmp_path))
    assert alone[0].timed_out and alone[0].stdout == b""


# Timeouts at 1, 2, 4, 5, 6: with K = 2 the batch stops after case 2; with K = 3 after case 6.
STREAKS = [CaseInput(id=str(i), argv=[HANG if i in (1, 2, 4, 5, 6) else f"echo {i}"]) for i in range(10)]


@pytest.mark.slow
@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(("stop", "last_run"), [(2, 2), (3, 6), (4, 9)])
def test_stop_after_k_consecutive_timeouts_in_case_order(shell: list[str], stop: int, last_run: int) -> None:
    alone = _host_batch(shell, STREAKS, jobs=1, stop=stop)
    assert [r.not_run for r in alone] == [i > last_run for i in range(10)]
    assert [r.timed_out for r in alone] == [i in (1, 2, 4, 5, 6) and i <= last_run for i in range(10)]
    assert all(r.stdout == b"" and r.exit_code == 0 for r in alone if r.not_run)
    for jobs in (2, 4):
        assert _facts(_host_batch(shell, STREAKS, jobs=jobs, stop=stop)) == _facts(alone), jobs


@pytest.mark.parametrize("shell", SHELLS)
def test_an_exit_124_before_the_timeout_breaks_a_streak(shell: list[str]) -> None:
    cases = [
        CaseInput(id="h0", argv=[HANG]),
        CaseInput(id="own", argv=["exit 124"]),
        CaseInput(id="h2", argv=[HANG]),
    ]
    runs = _host_batch(shell, [*cases, CaseInput(id="last", argv=["echo last"])], jobs=2, stop=2)
    assert [r.not_run for r in runs] == [False] * 4 and runs[3].stdout == b"last\n"


# Crashes of one kind: SIGSEGV at 0-1, SIGABRT at 2, SIGSEGV at 3-5 (an exit 1 and a timeout between
# don't count as crashes); with K = 3 the batch stops after case 5.
CRASHES = [
    CaseInput(id=str(i), argv=[cmd])
    for i, cmd in enumerate(
        ["kill -SEGV $$", "kill -SEGV $$", "kill -ABRT $$", "kill -SEGV $$", "kill -SEGV $$", "kill -SEGV $$",
         "echo 6", "kill -SEGV $$"]
    )
]  # fmt: skip


@pytest.mark.parametrize("shell", SHELLS)
def test_stop_after_k_consecutive_crashes_of_one_kind(shell: list[str]) -> None:
    alone = _host_batch(shell, CRASHES, jobs=1, crashes=3)
    assert [r.not_run for r in alone] == [i > 5 for i in range(8)]
    assert [r.exit_code for r in alone[:6]] == [139, 139, 134, 139, 139, 139]
    assert _facts(_host_batch(shell, CRASHES, jobs=3, crashes=3)) == _facts(alone)
    # an ordinary failing exit, or a timeout, between crashes of one kind breaks the streak
    broken = [
        CRASHES[0],
        CaseInput(id="e", argv=["exit 1"]),
        CRASHES[1],
        CaseInput(id="h", argv=[HANG]),
        CRASHES[3],
    ]
    assert not any(r.not_run for r in _host_batch(shell, [*broken, CRASHES[6]], jobs=2, crashes=2))
    # the two stops are counted apart: two timeouts and two crashes interleaved stop neither at K = 3
    mixed = [CRASHES[0], CaseInput(id="h", argv=[HANG]), CRASHES[1], CaseInput(id="h2", argv=[HANG])]
    assert not any(r.not_run for r in _host_batch(shell, [*mixed, CRASHES[6]], jobs=1, stop=3, crashes=3))


@pytest.mark.parametrize("shell", SHELLS)
def test_a_stopped_batch_kills_the_cases_still_running(shell: list[str], tmp_path: Path) -> None:
    # K = 1: case 0 stops the batch; cases 1-3 were started beside it and must not outlive the driver
    cases = [CaseInput(id="h", argv=[HANG])] + [
        CaseInput(id=f"late{i}", argv=[f"echo > started{i}; sleep 30; echo > finished{i}"]) for i in range(3)
    ]
    runs = _host_batch(shell, cases, jobs=4, stop=1, cwd=str(tmp_path))
    assert runs[0].timed_out and [r.not_run for r in runs[1:]] == [True] * 3
    assert list(tmp_path.glob("started*")) and not list(tmp_path.glob("finished*"))
    left = subprocess.run(["pgrep", "-f", "sleep 30; echo > finished"], capture_output=True, check=False)
    assert left.stdout == b""


def test_the_cases_run_at_once_are_bounded_by_the_cpu_quota() -> None:
    assert [case_jobs(0, q) for q in (0.5, 1.0, 1.9, 2.0, 4.5)] == [1, 1, 1, 2, 4]
    assert [case_jobs(n, 2.0) for n in (1, 2, 3)] == [1, 2, 2]


async def test_a_case_that_died_of_memory_beside_others_runs_again_alone() -> None:
    batches: list[tuple[list[str], int, int]] = []

    async def run_batch(cases: Sequence[CaseInput], jobs: int, stops: BatchStops) -> list[CaseRun]:
        batches.append(([c.id for c in cases], jobs, stops.timeouts))
        together = jobs > 1
        return [
            CaseRun(id=c.id, stdout=b"" if together else b"ok", stderr=b"", exit_code=137 if together else 0,
                    wall_s=0.1, oom=together and c.id == "big")
            for c in cases
        ]  # fmt: skip

    cases = [CaseInput(id="small", argv=[]), CaseInput(id="big", argv=[])]
    runs = await rerun_oom_alone(run_batch, cases, jobs=2, stops=BatchStops(timeouts=3))
    assert batches == [(["small", "big"], 2, 3), (["big"], 1, 0)]
    assert (runs[1].oom, runs[1].stdout) == (False, b"ok") and runs[0].exit_code == 137
    batches.clear()
    await rerun_oom_alone(run_batch, cases, jobs=1, stops=BatchStops())
    assert len(batches) == 1


# --- through run_cases, on every backend --------------------------------------------------------------------
@asynccontextmanager
async def _backend(name: str, **settings: object) -> AsyncIterator[SandboxBackend]:
    backend = create_backend(SandboxConfig(backend=name, **settings), name)  # type: ignore[arg-type]
    if isinstance(backend, AbstractAsyncContextManager):
        async with backend:
            yield backend
    else:
        yield backend


async def _run(
    backend: SandboxBackend, cases: list[CaseInput], timeout_s: float, stop: int = 0
) -> list[CaseRun]:
    async with backend.open(SMALL_SPEC) as box:
        return await box.run_cases(["sh", "-c"], cases, timeout_s=timeout_s, stop_after_timeouts=stop)


@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_run_cases_runs_cases_at_once_up_to_the_quota(name: str) -> None:
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("needs 2 CPUs")
    cases = [
        CaseInput(id="waits", argv=["until [ -e mark ]; do sleep 0.02; done; echo met"]),
        CaseInput(id="marks", argv=["touch mark"]),
    ]
    with anyio.fail_after(120):
        async with _backend(name, docker_cpus=2.0) as backend:
            together = await _run(backend, cases, 10)
        async with _backend(name, docker_cpus=2.0, case_parallelism=1) as backend:
            alone = await _run(backend, cases, 1)
        async with _backend(name, docker_cpus=1.0) as backend:
            quota_one = await _run(backend, cases, 1)
    assert together[0].stdout == b"met\n"
    assert alone[0].timed_out
    if name == "docker":
        assert quota_one[0].timed_out  # one core of quota: one case at a time


@pytest.mark.slow
@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_run_cases_stops_after_consecutive_timeouts_as_one_at_a_time(name: str) -> None:
    with anyio.fail_after(180):
        async with _backend(name, docker_cpus=2.0) as backend:
            together = await _run(backend, STREAKS, 1, stop=3)
        async with _backend(name, docker_cpus=2.0, case_parallelism=1) as backend:
            alone = await _run(backend, STREAKS, 1, stop=3)
    assert [r.not_run for r in alone] == [i > 6 for i in range(10)]
    assert _facts(together) == _facts(alone)


@pytest.mark.slow
@pytest.mark.parametrize("name", BACKEND_PARAMS)
async def test_cases_that_fit_in_memory_only_one_at_a_time_give_one_at_a_time_runs(name: str) -> None:
    # each case holds 150 MB for a while: two at once exceed the sandbox's 256 MB, one alone fits
    hold = "const b = Buffer.alloc(150 * 1024 * 1024, 1); setTimeout(() => console.log(b[5]), 1500)"
    entry = ["node", "-e", hold]
    cases = [CaseInput(id=str(i), argv=[]) for i in range(3)]
    spec = msgspec.structs.replace(SMALL_SPEC, memory_mb=256)
    with anyio.fail_after(180):
        async with _backend(name, docker_cpus=2.0) as backend:
            async with backend.open(spec) as box:
                argv = driver_argv(timeout_s=10, output_cap=1000, stderr_cap=1000, kill_after_s=0.5,
                                   cwd=box.workdir, kill_strays=False, jobs=2)  # fmt: skip
                raw = await box.exec(argv, stdin=pack_batch(entry, cases), timeout_s=120, output_cap=1 << 20)
                together = await box.run_cases(entry, cases, timeout_s=10)
    killed = parse_records(raw, cases, timeout_s=10, output_cap=1000, stderr_cap=1000)
    assert any(r.exit_code == 137 for r in killed)  # the driver alone, two at a time: one died of memory
    assert [(r.exit_code, r.stdout, r.oom) for r in together] == [(0, b"1\n", False)] * 3
