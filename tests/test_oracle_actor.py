"""The Oracle actor: many callers at once, batched per environment; failures reach only the callers concerned."""

from __future__ import annotations

import uuid
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.kernel.errors import OracleError
from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, Verdict, open_oracle, program_ref
from repozero.sandbox import CaseInput

pytestmark = pytest.mark.anyio


@pytest.fixture
def config(tmp_path_factory: pytest.TempPathFactory) -> OracleConfig:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    return OracleConfig(cache_dir=str(cache), cache=False, servers=3, timeout_s=5.0)


def _program(root: Path, name: str) -> Path:
    folder = root / name
    folder.mkdir()
    (folder / "main.py").write_text(f"# {uuid.uuid4()}\nimport sys\nprint({name!r}, *sys.argv[1:])\n")
    return folder


def _request(folder: Path, n: int, env: EnvSpec | None = None) -> GroundTruthRequest:
    return GroundTruthRequest(
        env=env or EnvSpec(),
        program=program_ref(folder, "main.py"),
        cases=[CaseInput(id=f"c{i}", argv=[str(i)]) for i in range(n)],
        repeats=3,
        timeout_s=5.0,
        output_cap=1 << 16,
    )


async def test_many_concurrent_callers_each_get_their_own_answers(
    config: OracleConfig, tmp_path: Path
) -> None:
    answers: dict[str, list[Verdict]] = {}
    async with open_oracle(config) as oracle:

        async def caller(name: str, n: int) -> None:
            answers[name] = await oracle.ground_truth(_request(_program(tmp_path, name), n))

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                for k in range(12):
                    tg.start_soon(caller, f"p{k}", 1 + k % 4)
    for k in range(12):
        got = answers[f"p{k}"]
        assert [v.stdout for v in got] == [f"p{k} {i}\n".encode() for i in range(1 + k % 4)]
    assert oracle.stats.requests == 12
    assert oracle.stats.batches < 12, "concurrent requests should share batches"


async def test_a_cancelled_caller_does_not_break_the_actor(config: OracleConfig, tmp_path: Path) -> None:
    slow = tmp_path / "slow"
    slow.mkdir()
    (slow / "main.py").write_text("import time\ntime.sleep(0.5)\nprint('done')\n")
    async with open_oracle(config) as oracle:
        with anyio.move_on_after(0.2):
            await oracle.ground_truth(_request(slow, 1))
        with anyio.fail_after(60):
            verdicts = await oracle.ground_truth(_request(_program(tmp_path, "after"), 2))
    assert [v.stdout for v in verdicts] == [b"after 0\n", b"after 1\n"]


async def test_a_broken_environment_fails_only_its_callers(config: OracleConfig, tmp_path: Path) -> None:
    good = _program(tmp_path, "good")
    async with open_oracle(config) as oracle:
        with anyio.fail_after(60):
            with pytest.raises(OracleError, match="python2.9"):
                await oracle.ground_truth(_request(good, 1, EnvSpec(python="2.9")))
            verdicts = await oracle.ground_truth(_request(good, 1))
    assert verdicts[0].stdout == b"good 0\n"


async def test_idle_servers_stop_and_come_back(config: OracleConfig, tmp_path: Path) -> None:
    idle = msgspec.structs.replace(config, server_idle_s=0.2)
    program = _program(tmp_path, "idle")
    async with open_oracle(idle) as oracle:
        with anyio.fail_after(60):
            await oracle.ground_truth(_request(program, 1))
            assert oracle.running_servers == 3
            for _ in range(100):
                await anyio.sleep(0.05)
                if oracle.running_servers == 0:
                    break
            assert oracle.running_servers == 0
            verdicts = await oracle.ground_truth(_request(program, 2))
    assert [v.stdout for v in verdicts] == [b"idle 0\n", b"idle 1\n"]
