"""`repozero report` end to end through the CLI: formats, files, and bad run directories (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repozero.cli import main
from repozero.orchestrator.report.estimates import Estimate
from repozero.orchestrator.report.render_json import decode_report

from .synthetic_report import SynthEpisode, write_run


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    episodes = [
        SynthEpisode(
            sample=f"s{i}", library=f"lib{i % 3}", passed=i % 2 == 0, success_rate=0.5 + (i % 2 == 0) / 2
        )
        for i in range(9)
    ]
    return [
        write_run(tmp_path / "a", episodes, model="model-a"),
        write_run(tmp_path / "b", episodes, model="model-b", protocol="repozero-public"),
    ]


def test_markdown_on_stdout_by_default(runs: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", *map(str, runs), "--resamples", "50"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# RepoZero report")
    assert "| PR · micro (mean over samples) | 55.6 ± " in out
    assert "model-a · bash · repozero-strict | model-b · bash · repozero-public |" in out
    assert "**Note:** Runs differ in protocol" in out
    assert "i.i.d. ±" in out and "seed 0" in out


def test_json_on_stdout_round_trips_with_seed_recorded(
    runs: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(runs[0]), "--format", "json", "--resamples", "40", "--seed", "9"]) == 0
    report = decode_report(capsys.readouterr().out)
    assert (report.settings.resamples, report.settings.seed) == (40, 9)
    pr = report.tables[0].rows[1].cells[0]
    assert isinstance(pr, Estimate) and pr.mean == pytest.approx(5 / 9)
    # the same seed gives the same numbers; another seed other intervals
    assert main(["report", str(runs[0]), "--format", "json", "--resamples", "40", "--seed", "9"]) == 0
    assert decode_report(capsys.readouterr().out) == report
    assert main(["report", str(runs[0]), "--format", "json", "--resamples", "40", "--seed", "10"]) == 0
    assert decode_report(capsys.readouterr().out).tables[0].rows[1].cells[0] != pr


def test_out_dir_gets_every_format(
    runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reports" / "x"
    assert main(["report", *map(str, runs), "--out", str(out), "--resamples", "20"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["report.html", "report.json", "report.md"]
    assert capsys.readouterr().out.split() == [str(out / f"report.{f}") for f in ("md", "html", "json")]
    html = (out / "report.html").read_text()
    assert html.count("<svg") >= 6 and html.count("<table") >= 9
    assert (
        main(["report", str(runs[0]), "--out", str(out / "only"), "--format", "html", "--resamples", "20"])
        == 0
    )
    assert [p.name for p in (out / "only").iterdir()] == ["report.html"]


def test_bad_run_directories_exit_2_naming_the_path(
    runs: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    empty = tmp_path / "empty"
    empty.mkdir()
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "manifest.json").write_text("{not json")
    corrupt = write_run(tmp_path / "corrupt", [SynthEpisode(sample="s")])
    for extra in ("results.sqlite-wal", "results.sqlite-shm"):
        (corrupt / extra).unlink(missing_ok=True)
    (corrupt / "results.sqlite").write_bytes(b"this is not a database" * 100)
    for bad, path in [
        (missing, missing),
        (empty, empty),
        (broken, broken / "manifest.json"),
        (corrupt, corrupt),
    ]:
        assert main(["report", str(runs[0]), str(bad)]) == 2
        err = capsys.readouterr().err
        assert str(path) in err and "Traceback" not in err


def test_bad_flags_exit_2(runs: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", str(runs[0]), "--format", "html"]) == 2
    assert "--out" in capsys.readouterr().err
    assert main(["report", str(runs[0]), "--resamples", "1"]) == 2
    assert "--resamples" in capsys.readouterr().err
