"""`dataset build` and `dataset validate`: ground truth, whitebox choice, sample status, content hash, drift."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import anyio
import msgspec
import pytest
import structlog

from repozero.cli import main
from repozero.datasets import content_hash, load_dataset, write_dataset_info, write_sample
from repozero.kernel.errors import OracleError
from repozero.oracle import OracleConfig, build_dataset, open_oracle, validate_dataset

MINI = Path(__file__).parent / "fixtures" / "oracle" / "mini"


@pytest.fixture
def config(tmp_path_factory: pytest.TempPathFactory) -> OracleConfig:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    return OracleConfig(cache_dir=str(cache), repeats=4, servers=4, timeout_s=5.0, validate_cases=100)


@pytest.fixture
def dataset(tmp_path: Path) -> Path:
    return Path(shutil.copytree(MINI, tmp_path / "mini"))


async def _build(root: Path, config: OracleConfig, **kwargs: object) -> tuple[object, object]:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(120):
            report = await build_dataset(root, oracle, config, **kwargs)  # type: ignore[arg-type]
    return report, oracle.stats


async def _validate(root: Path, config: OracleConfig) -> object:
    async with open_oracle(config) as oracle:
        with anyio.fail_after(120):
            return await validate_dataset(root, oracle, config, seed=7)


@pytest.mark.anyio
async def test_build_records_ground_truth_and_provenance(dataset: Path, config: OracleConfig) -> None:
    report, _ = await _build(dataset, config)
    built = load_dataset(dataset)
    statuses = {s.id: s.status for s in built.samples}
    assert statuses == {
        "calc": "live",
        "jsonpath": "live",
        "roman-convert": "live",
        "tiny": "dropped",
        "wordfreq": "live",
    }
    for sample in built.samples:
        inputs = len(load_dataset(MINI).sample(sample.id).cases)
        assert len(sample.cases) + len(sample.provenance.dropped) == inputs
        assert all(c.expected_stdout is not None and c.expected_exit == 0 for c in sample.cases)
        assert sample.provenance.repeats == 4 and sample.provenance.fingerprint_hash.startswith("sha256:")
        if sample.status == "live":
            assert len(sample.whitebox) == 4
    jsonpath = built.sample("jsonpath")
    assert "c05" in {c.id for c in jsonpath.whitebox}, "a case the sample marks whitebox stays whitebox"
    assert [c.id for c in built.sample("calc").whitebox] == ["c00", "c01", "c03", "c04"]
    dropped = {d.id: d for d in built.sample("calc").provenance.dropped}
    assert dropped["c05"].reason == "oracle_error" and dropped["c05"].detail.endswith("error: Fraction(1, 0)")
    roman = built.sample("roman-convert")
    assert roman.cases[0].expected_stdout == b"MCMLXXXVII\n"
    assert roman.provenance.fingerprint["dist:roman"].startswith("4.2 ")
    assert built.info.content_hash == content_hash(built) == report.content_hash  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_rebuild_is_free_and_identical(dataset: Path, config: OracleConfig) -> None:
    first, _ = await _build(dataset, config)
    again, stats = await _build(dataset, config)
    assert again.content_hash == first.content_hash  # type: ignore[attr-defined]
    assert stats.runs == 0  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_validate_passes_then_catches_tampering_and_drift(dataset: Path, config: OracleConfig) -> None:
    await _build(dataset, config)
    report = await _validate(dataset, config)
    assert report.ok, report.problems  # type: ignore[attr-defined]
    assert report.rechecked > 30  # type: ignore[attr-defined]

    built = load_dataset(dataset)
    calc = built.sample("calc")
    tampered = msgspec.structs.replace(calc.cases[0], expected_stdout=b"1/2 0.5 (wrong)\n")
    write_sample(dataset, msgspec.structs.replace(calc, cases=[tampered, *calc.cases[1:]]))
    report = await _validate(dataset, config)
    problems = " | ".join(report.problems)  # type: ignore[attr-defined]
    assert not report.ok and "content_hash" in problems and "calc/c00: drift" in problems  # type: ignore[attr-defined]

    program = dataset / "samples" / "wordfreq" / "program" / "wordfreq.py"
    program.write_text(program.read_text().replace('f"total', 'f"sum'))
    reloaded = load_dataset(dataset)
    write_dataset_info(dataset, msgspec.structs.replace(reloaded.info, content_hash=content_hash(reloaded)))
    report = await _validate(dataset, config)
    assert any(p.startswith("wordfreq/") and "drift" in p for p in report.problems)  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_validate_rejects_wrong_counts(dataset: Path, config: OracleConfig) -> None:
    await _build(dataset, config, samples="jsonpath")
    built = load_dataset(dataset)
    sample = built.sample("jsonpath")
    hidden = [msgspec.structs.replace(c, visibility="hidden") if c.id == "c05" else c for c in sample.cases]
    write_sample(dataset, msgspec.structs.replace(sample, cases=hidden))
    reloaded = load_dataset(dataset)
    write_dataset_info(dataset, msgspec.structs.replace(reloaded.info, content_hash=content_hash(reloaded)))
    report = await _validate(dataset, config)
    problems = " | ".join(report.problems)  # type: ignore[attr-defined]
    assert "jsonpath: 3 whitebox cases, expected exactly 4" in problems
    assert "calc: status is pending" in problems


@pytest.mark.anyio
async def test_failed_build_writes_nothing(dataset: Path, config: OracleConfig) -> None:
    path = dataset / "samples" / "tiny" / "sample.json"
    data = json.loads(path.read_text())
    data["source"]["python"] = "2.9"
    path.write_text(json.dumps(data))
    before = _snapshot(dataset)
    with pytest.raises(OracleError, match="python2.9"):
        await _build(dataset, config)
    assert _snapshot(dataset) == before


def _snapshot(root: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.fixture
def fresh_logging() -> Iterator[None]:
    """`main` points structlog at the captured stderr of this test; later tests must not write there."""
    yield
    structlog.reset_defaults()


@pytest.mark.usefixtures("fresh_logging")
def test_cli_build_and_validate(
    dataset: Path, config: OracleConfig, capsys: pytest.CaptureFixture[str]
) -> None:
    common = ["--set", f"oracle.cache_dir={config.cache_dir}", "--set", "oracle.servers=3"]
    assert (
        main(["dataset", "build", str(dataset), "--repeats", "3", "--samples", "calc", "--json", *common])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert [s["id"] for s in report["samples"]] == ["calc"] and report["repeats"] == 3
    assert main(["dataset", "validate", str(dataset), *common]) == 1  # the other samples are still pending
    assert "status is pending" in capsys.readouterr().out
    assert main(["dataset", "build", str(dataset), "--repeats", "3", *common]) == 0
    capsys.readouterr()
    assert main(["dataset", "validate", str(dataset), "--json", *common]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["dataset", "build", str(dataset), "--samples", "nope*", *common]) == 2
    assert "matches no sample" in capsys.readouterr().err
