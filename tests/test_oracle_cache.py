"""The result cache: repeated questions are free, and an answer is only ever served for the same question."""

from __future__ import annotations

import uuid
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, open_oracle, program_ref
from repozero.sandbox import CaseInput

pytestmark = pytest.mark.anyio


@pytest.fixture
def config(tmp_path_factory: pytest.TempPathFactory) -> OracleConfig:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    return OracleConfig(cache_dir=str(cache), servers=4, timeout_s=5.0)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    """A program with unique bytes, so no other test's cached verdicts can match it."""
    folder = tmp_path / "prog"
    folder.mkdir()
    (folder / "main.py").write_text(f"# {uuid.uuid4()}\nimport sys\nprint('|'.join(sys.argv[1:]))\n")
    return folder


def _request(
    folder: Path, config: OracleConfig, repeats: int, n: int = 3, **limits: float
) -> GroundTruthRequest:
    return GroundTruthRequest(
        env=EnvSpec(),
        program=program_ref(folder, "main.py"),
        cases=[CaseInput(id=f"c{i}", argv=["x", str(i)]) for i in range(n)],
        repeats=repeats,
        timeout_s=limits.get("timeout_s", config.timeout_s),
        output_cap=int(limits.get("output_cap", config.output_cap)),
    )


async def test_repeated_question_is_answered_without_running(config: OracleConfig, program: Path) -> None:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            first = await oracle.ground_truth(_request(program, config, 4))
            runs = oracle.stats.runs
            again = await oracle.ground_truth(_request(program, config, 4))
    assert runs == 3 * 4
    assert oracle.stats.runs == runs and oracle.stats.cache_hits == 3
    assert again == first and [v.stdout for v in again] == [b"x|0\n", b"x|1\n", b"x|2\n"]


async def test_cache_survives_the_process_and_serves_renamed_cases(
    config: OracleConfig, program: Path
) -> None:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            await oracle.ground_truth(_request(program, config, 3))
    request = _request(program, config, 3)
    renamed = msgspec.structs.replace(
        request, cases=[msgspec.structs.replace(c, id="new-" + c.id) for c in request.cases]
    )
    async with open_oracle(config) as fresh:
        with anyio.fail_after(60):
            verdicts = await fresh.ground_truth(renamed)
    assert fresh.stats.runs == 0 and fresh.stats.cache_hits == 3
    assert [v.id for v in verdicts] == ["new-c0", "new-c1", "new-c2"]


async def test_low_n_answer_is_never_served_for_a_high_n_question(
    config: OracleConfig, program: Path
) -> None:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            await oracle.ground_truth(_request(program, config, 2))
            assert oracle.stats.runs == 3 * 2
            high = await oracle.ground_truth(_request(program, config, 4))
            assert oracle.stats.runs == 3 * 2 + 3 * 4
            assert all(v.repeats == 4 for v in high)
            await oracle.ground_truth(_request(program, config, 4, timeout_s=3.0))
            await oracle.ground_truth(_request(program, config, 4, output_cap=4096))
    assert oracle.stats.cache_hits == 0


async def test_editing_the_program_invalidates(config: OracleConfig, program: Path) -> None:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            before = await oracle.ground_truth(_request(program, config, 2, n=1))
            (program / "main.py").write_text((program / "main.py").read_text().replace("'|'", "'+'"))
            after = await oracle.ground_truth(_request(program, config, 2, n=1))
    assert (before[0].stdout, after[0].stdout) == (b"x|0\n", b"x+0\n")
    assert oracle.stats.cache_hits == 0


async def test_cache_off_runs_every_time(config: OracleConfig, program: Path) -> None:
    off = msgspec.structs.replace(config, cache=False)
    async with open_oracle(off) as oracle:
        with anyio.fail_after(60):
            await oracle.ground_truth(_request(program, off, 2))
            await oracle.ground_truth(_request(program, off, 2))
            await oracle.ground_truth(_request(program, config, 2), use_cache=False)
    assert oracle.stats.cache_hits == 0 and oracle.stats.runs == 3 * 3 * 2


async def test_a_torn_cache_line_is_skipped(config: OracleConfig, program: Path) -> None:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            await oracle.ground_truth(_request(program, config, 2))
            fingerprint = await oracle.fingerprint(EnvSpec())
    path = oracle.cache._path(fingerprint.hash)
    assert path is not None
    with path.open("ab") as handle:
        handle.write(b'{"key": "abc", "verdict": {"id": "tor')
    async with open_oracle(config) as fresh:
        with anyio.fail_after(60):
            await fresh.ground_truth(_request(program, config, 2))
    assert fresh.stats.cache_hits == 3
