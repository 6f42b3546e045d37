"""The public RepoZero importer keeps every argv byte intact, as lists."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repozero.datasets import import_repozero, load_dataset
from repozero.kernel.errors import DatasetError


def test_round_trip_keeps_argv_intact(fixtures_dir: Path, tmp_path: Path) -> None:
    src = fixtures_dir / "repozero_public"
    out = tmp_path / "imported"
    assert import_repozero(src / "tests", src / "cases.jsonl", "demo==1.2.3", out) == 2
    dataset = load_dataset(out)
    first = dataset.sample("mylib-test1")
    assert [c.argv for c in first.cases] == [
        ["--a", "hello world", "--b", 'it\'s "quoted"'],
        ["--a", "`whoami` $PATH *", "--b", "line1\nline2"],
        ["--a", "héllo ✓ 日本", "--b", "1e-05"],
        ["--a", "True", "--b", "None"],
    ]
    second = dataset.sample("mylib-test14")
    # keys in line order, values as Python's str() prints them
    assert [c.argv for c in second.cases] == [
        ["--b", "[1, 'x', 2.5]", "--a", "{'k': 3}"],
        ["--a", "12345678901234567890", "--b", "0.1"],
    ]
    assert first.difficulty == "easy" and second.difficulty == "hard"
    assert "1-6 easy" in first.difficulty_rule
    assert first.target.entry == ["node", "test1.mjs"]
    assert second.target.entry == ["node", "test14.mjs"]
    assert all(c.expected_stdout is None for c in first.cases)
    assert (out / "samples" / "mylib-test1" / "program" / "test1.py").is_file()


def test_argv_survives_a_real_process(fixtures_dir: Path, tmp_path: Path) -> None:
    """The imported argv reaches a program byte for byte (no shell in between)."""
    src = fixtures_dir / "repozero_public"
    out = tmp_path / "imported"
    import_repozero(src / "tests", src / "cases.jsonl", "demo==1.2.3", out)
    dataset = load_dataset(out)
    for case in dataset.sample("mylib-test1").cases:
        echoed = subprocess.run(
            [sys.executable, "-c", "import sys; sys.stdout.write(repr(sys.argv[1:]))", *case.argv],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert echoed == repr(case.argv)


def test_bad_inputs_name_the_problem_and_write_nothing(fixtures_dir: Path, tmp_path: Path) -> None:
    src = fixtures_dir / "repozero_public"
    out = tmp_path / "imported"
    with pytest.raises(DatasetError, match="--source-package 'demo': expected NAME==VERSION"):
        import_repozero(src / "tests", src / "cases.jsonl", "demo", out)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"filename": "mylib/test1.py", "a": "x"}\n{"filename": "mylib/nope.py"}\n')
    with pytest.raises(DatasetError, match=r"bad.jsonl:2: \$.filename 'mylib/nope.py'"):
        import_repozero(src / "tests", bad, "demo==1", out)
    bad.write_text('{"filename": "mylib/test1.py"}\n{oops\n')
    with pytest.raises(DatasetError, match=r"bad.jsonl:2: invalid JSON"):
        import_repozero(src / "tests", bad, "demo==1", out)
    assert not out.exists()
    assert list(tmp_path.glob(".imported*")) == []


def test_cli_import(fixtures_dir: Path, tmp_path: Path) -> None:
    src = fixtures_dir / "repozero_public"
    out = tmp_path / "imported"
    cmd = [
        sys.executable,
        "-m",
        "repozero",
        "dataset",
        "import-repozero",
        "--tests",
        str(src / "tests"),
        "--cases",
        str(src / "cases.jsonl"),
        "--source-package",
        "demo==1.2.3",
        "--out",
        str(out),
    ]
    subprocess.run(cmd, check=True, capture_output=True)
    again = subprocess.run(cmd, capture_output=True, text=True)
    assert again.returncode == 2 and "already exists" in again.stderr
