"""The determinism filter through the fast path (fork servers): planted programs are dropped for the right reason."""

from __future__ import annotations

import re
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.oracle import (
    EnvSpec,
    GroundTruthRequest,
    OracleConfig,
    RunResult,
    decide,
    open_oracle,
    program_ref,
)
from repozero.sandbox import CaseInput

PLANTED = Path(__file__).parent / "fixtures" / "oracle" / "planted"

pytestmark = pytest.mark.anyio


@pytest.fixture
def config(tmp_path_factory: pytest.TempPathFactory) -> OracleConfig:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    return OracleConfig(cache_dir=str(cache), cache=False, servers=6, timeout_s=2.0, output_cap=1 << 16)


def _request(script: str, config: OracleConfig, repeats: int = 6, cases: list[CaseInput] | None = None) -> GroundTruthRequest:  # fmt: skip
    return GroundTruthRequest(
        env=EnvSpec(),
        program=program_ref(PLANTED, script),
        cases=cases or [CaseInput(id="only", argv=[])],
        repeats=repeats,
        timeout_s=config.timeout_s,
        output_cap=config.output_cap,
    )


PLANTED_REASONS = {
    "random_unseeded.py": "nondeterministic",
    "time_subsecond.py": "nondeterministic",
    "id_object.py": "nondeterministic",
    "set_order.py": "nondeterministic",
    "today.py": "nondeterministic",
    "flaky_exit.py": "nondeterministic",
    "raising.py": "oracle_error",
    "exit_three.py": "oracle_error",
    "killed.py": "oracle_error",
    "huge.py": "oracle_error",
    "sleeper.py": "oracle_timeout",
}


async def test_planted_programs_are_dropped_with_the_right_reason(config: OracleConfig) -> None:
    async with open_oracle(config) as oracle:
        results: dict[str, object] = {}

        async def ask(script: str) -> None:
            (results[script],) = await oracle.ground_truth(_request(script, config))

        with anyio.fail_after(90):
            async with anyio.create_task_group() as tg:
                for script in [*PLANTED_REASONS, "echo.py"]:
                    tg.start_soon(ask, script)
    got = {script: verdict.reason for script, verdict in results.items()}  # type: ignore[attr-defined]
    assert got == {**PLANTED_REASONS, "echo.py": None}
    assert "passed the output cap" in results["huge.py"].detail  # type: ignore[attr-defined]
    assert "exit 143" in results["killed.py"].detail  # type: ignore[attr-defined]
    assert b"ValueError" in results["raising.py"].stderr  # type: ignore[attr-defined]
    assert results["echo.py"].stdout.startswith(b'{"argv": ["echo.py"]')  # type: ignore[attr-defined]


async def test_date_dependence_is_caught_only_by_the_shifted_clock(config: OracleConfig) -> None:
    """Without clock shifts, many runs of today.py agree (within one day): the shift is what catches it."""
    plain = msgspec.structs.replace(config, clock_shifts=[])
    for cfg, expected in ((plain, None), (config, "nondeterministic")):
        async with open_oracle(cfg) as oracle:
            with anyio.fail_after(60):
                (verdict,) = await oracle.ground_truth(_request("today.py", cfg))
        if verdict.reason != expected and expected is None and "differs" in verdict.detail:
            pytest.skip("the date changed during the test (midnight UTC)")
        assert verdict.reason == expected, verdict.detail
    assert "clock +" in verdict.detail


async def test_every_repeat_runs_on_its_own_server(config: OracleConfig) -> None:
    """set_order.py agrees on every fork of one server: the repeats must not share one."""
    cases = [CaseInput(id=f"c{i}", argv=[str(i)]) for i in range(3)]
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            verdicts = await oracle.ground_truth(_request("echo.py", config, repeats=6, cases=cases))
            (order,) = await oracle.ground_truth(_request("set_order.py", config, repeats=6))
    assert [v.reason for v in verdicts] == [None, None, None]
    assert all(v.repeats == 6 for v in verdicts)
    assert order.reason == "nondeterministic"
    first, second = re.findall(r"server (\d+) \(hash seed (\d+)", order.detail)
    assert first != second


async def test_unstable_case_is_dropped_after_the_first_pass(config: OracleConfig) -> None:
    config = msgspec.structs.replace(config, timeout_s=1.0)
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            (verdict,) = await oracle.ground_truth(_request("sleeper.py", config, repeats=20))
        assert verdict.reason == "oracle_timeout"
        assert verdict.repeats == config.probe_repeats
        assert oracle.stats.runs == config.probe_repeats


def _run(stdout: bytes, exit_code: int = 0, server: int = 0, **flags: bool) -> RunResult:
    return RunResult(
        id="r", stdout=stdout, stderr=b"", exit_code=exit_code, wall_s=0.01, server=server, **flags
    )


@pytest.mark.parametrize(
    ("runs", "reason"),
    [
        ([_run(b"a"), _run(b"a", server=1)], None),
        ([_run(b"a"), _run(b"b", server=1)], "nondeterministic"),
        ([_run(b"a"), _run(b"a", 1, server=1)], "nondeterministic"),
        ([_run(b"a", 2), _run(b"b", 2, server=1)], "oracle_error"),
        ([_run(b"a"), _run(b"", 137, server=1, timed_out=True)], "oracle_timeout"),
        ([_run(b"a"), _run(b"a" * 10, 137, server=1, truncated=True)], "oracle_error"),
        ([_run(b"a", 3), _run(b"a", 3, server=1)], "oracle_error"),
    ],
)
def test_decide_precedence(runs: list[RunResult], reason: str | None) -> None:
    verdict = decide("c", runs, timeout_s=1.0, cap=5)
    assert verdict.reason == reason
    assert (verdict.stdout is not None) == (reason is None)
