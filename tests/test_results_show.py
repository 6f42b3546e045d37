"""`repozero results RUN` and the report's per-sample table: which samples failed, and how (a scripted run
with one planted failure: `fake:mix:never@roman-numerals,gold@*`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repozero.cli import main

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("results") / "run"
    code = main([
        "run", "--dataset", "builtin:py2js-lite", "--model", "fake:mix:never@roman-numerals,gold@*",
        "--samples", "roman-*", "--ace-rounds", "1", "--display", "off", "--out", str(out), "--json",
    ])  # fmt: skip
    assert code == 0
    return out


def test_failed_lists_exactly_the_planted_failure(run_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["results", str(run_dir), "--failed", "--json"]) == 0
    (line,) = json.loads(capsys.readouterr().out)
    assert (line["sample"], line["passed"], line["attempts"], line["rounds_to_pass"]) == (
        "roman-numerals",
        0,
        1,
        None,
    )
    assert line["failure"] and line["episodes"] == ["roman-numerals--a0"]
    assert main(["results", "show", str(run_dir), "--sample", "roman-b*", "--json"]) == 0
    (passing,) = json.loads(capsys.readouterr().out)
    assert (passing["sample"], passing["passed"], passing["rounds_to_pass"]) == ("roman-batch", 1, 0)
    assert main(["results", str(run_dir)]) == 0
    text = capsys.readouterr().out
    assert "roman-numerals" in text and "roman-batch" in text


def test_the_report_has_a_per_sample_table(
    run_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(run_dir), "--format", "json", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "report.json").read_text())
    (table,) = [t for t in report["tables"] if t["id"] == "per_sample"]
    cells = {row["label"].split(" ")[0]: row["cells"][0] for row in table["rows"]}
    assert cells["roman-batch"].startswith("1/1 · SR 1.00 · passed at round 0")
    assert cells["roman-numerals"].startswith("0/1 ·") and "roman-numerals--a0" in cells["roman-numerals"]
