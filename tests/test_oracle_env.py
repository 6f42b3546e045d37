"""Source environments: a cached venv per pinned package set (a real PyPI package), fingerprinted by content."""

from __future__ import annotations

import shutil
from pathlib import Path

import anyio
import pytest

from repozero.datasets import Source
from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, env_spec, open_oracle, program_ref
from repozero.oracle.source_env import LocalVenvEnvironment
from repozero.sandbox import CaseInput

ROMAN = EnvSpec(requirements=("roman==4.2",))
PROGRAM = Path(__file__).parent / "fixtures" / "oracle" / "mini" / "samples" / "roman-convert" / "program"

pytestmark = pytest.mark.anyio


@pytest.fixture
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.getbasetemp() / "oracle-cache"


def test_env_identity_is_the_sorted_requirement_set() -> None:
    a = env_spec(Source(package="x", requirements=["b==1", "a==2"]))
    b = env_spec(Source(package="x", requirements=["a==2", "b==1", "a==2"]))
    assert a == b and a.key == b.key
    assert env_spec(Source(package="roman==4.2")).requirements == ("roman==4.2",)
    assert env_spec(Source(package="stdlib")).requirements == ()
    assert EnvSpec(python="3.12").key != EnvSpec().key


async def test_venv_holds_exactly_the_pinned_packages(cache_dir: Path) -> None:
    env = LocalVenvEnvironment(ROMAN, cache_dir)
    with anyio.fail_after(120):
        fingerprint = await env.prepare()
    dists = {k: v for k, v in fingerprint.entries.items() if k.startswith("dist:")}
    assert list(dists) == ["dist:roman"]
    assert dists["dist:roman"].startswith("4.2 sha256:")
    assert fingerprint.entries["python"].count(".") == 2
    assert fingerprint.hash.startswith("sha256:")


async def test_venv_is_created_once_and_reused(cache_dir: Path) -> None:
    first = LocalVenvEnvironment(ROMAN, cache_dir)
    with anyio.fail_after(120):
        one = await first.prepare()
    marker = first.root / ".repozero-env.json"
    created = marker.stat().st_mtime_ns
    with anyio.fail_after(60):
        two = await LocalVenvEnvironment(ROMAN, cache_dir).prepare()
    assert marker.stat().st_mtime_ns == created
    assert one == two


async def test_fingerprint_sees_a_changed_installed_file(tmp_path: Path, cache_dir: Path) -> None:
    shared = LocalVenvEnvironment(ROMAN, cache_dir)
    with anyio.fail_after(120):
        await shared.prepare()
    private = tmp_path / "cache"
    shutil.copytree(shared.root, private / "oracle" / "venvs" / ROMAN.key, symlinks=True)
    env = LocalVenvEnvironment(ROMAN, private)
    with anyio.fail_after(60):
        before = await env.prepare()
    module = next((env.root / "lib").glob("python*/site-packages/roman.py"))
    module.write_text(module.read_text() + "\n# tampered\n")
    with anyio.fail_after(60):
        after = await LocalVenvEnvironment(ROMAN, private).prepare()
    assert before.entries["dist:roman"] != after.entries["dist:roman"]
    assert before.hash != after.hash


async def test_program_using_the_package_gets_ground_truth(cache_dir: Path) -> None:
    config = OracleConfig(cache_dir=str(cache_dir), cache=False, servers=4)
    request = GroundTruthRequest(
        env=ROMAN,
        program=program_ref(PROGRAM, "roman_convert.py"),
        cases=[
            CaseInput(id="a", argv=["--number", "1987"]),
            CaseInput(id="b", argv=["--numeral", "mmxxiv"]),
            CaseInput(id="c", argv=["--number", "5000"]),
        ],
        repeats=4,
        timeout_s=5.0,
        output_cap=4096,
    )
    async with open_oracle(config) as oracle:
        with anyio.fail_after(120):
            verdicts = await oracle.ground_truth(request)
    assert [v.stdout for v in verdicts[:2]] == [b"MCMLXXXVII\n", b"2024\n"]
    assert verdicts[2].reason == "oracle_error" and b"OutOfRangeError" in verdicts[2].stderr
