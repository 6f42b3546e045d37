"""Dataset loading: malformed files fail whole, naming the file, the JSON path and the expectation."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from repozero.datasets import (
    Case,
    DatasetInfo,
    Sample,
    Source,
    Target,
    TestProgram,
    content_hash,
    load_dataset,
    write_dataset_info,
    write_sample,
)
from repozero.kernel.errors import DatasetError


def make_dataset(root: Path, cases: int = 3) -> Path:
    sample = Sample(
        id="s1",
        source=Source(package="demo==1.0"),
        test_program=TestProgram(path="test1.py"),
        target=Target(entry=["node", "test1.mjs"]),
        cases=[
            Case(id=f"c{i}", argv=["--a", str(i)], expected_stdout=f"{i}\n".encode()) for i in range(cases)
        ],
    )
    folder = root / "samples" / "s1"
    (folder / "program").mkdir(parents=True)
    (folder / "program" / "test1.py").write_text("print(1)\n")
    (folder / "api_spec.md").write_text("# spec\n")
    write_sample(root, sample)
    write_dataset_info(root, DatasetInfo(name="demo"))
    return root


def test_round_trip(tmp_path: Path) -> None:
    dataset = load_dataset(make_dataset(tmp_path))
    assert dataset.name == "demo"
    assert [c.expected_stdout for c in dataset.sample("s1").cases] == [b"0\n", b"1\n", b"2\n"]


def _edit(root: Path, fn) -> None:  # type: ignore[no-untyped-def]
    path = root / "samples" / "s1" / "sample.json"
    data = json.loads(path.read_text())
    fn(data)
    path.write_text(json.dumps(data))


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (
            lambda d: d["cases"][1].__setitem__("argv", ["--a", 5]),
            r"Expected `str`, got `int` - at `\$.cases\[1\].argv\[1\]`",
        ),
        (lambda d: d.pop("target"), r"missing required field `target`"),
        (
            lambda d: d["cases"][0].__setitem__("visiblity", "hidden"),
            r"unknown field `visiblity` - at `\$.cases\[0\]`",
        ),
        (
            lambda d: d.__setitem__("difficulty", "insane"),
            r"Invalid enum value 'insane' - at `\$.difficulty` \(expected one of: 'easy', 'medium', 'hard'\)",
        ),
        (lambda d: d["cases"][2].__setitem__("id", "c0"), r"\$.cases\[2\].id 'c0' repeats"),
        (lambda d: d.__setitem__("id", "other"), r"\$.id is 'other' but the folder is named 's1'"),
    ],
)
def test_malformed_sample_names_file_and_path(tmp_path: Path, mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    root = make_dataset(tmp_path)
    _edit(root, mutate)
    with pytest.raises(DatasetError, match=expected) as info:
        load_dataset(root)
    assert str(root / "samples" / "s1" / "sample.json") in str(info.value)


def test_invalid_json_and_toml(tmp_path: Path) -> None:
    root = make_dataset(tmp_path)
    (root / "samples" / "s1" / "sample.json").write_text("{not json")
    with pytest.raises(DatasetError, match="sample.json: invalid JSON"):
        load_dataset(root)
    (root / "dataset.toml").write_text("name = \n")
    with pytest.raises(DatasetError, match="dataset.toml: invalid TOML"):
        load_dataset(root)


def test_missing_program_is_named(tmp_path: Path) -> None:
    root = make_dataset(tmp_path)
    (root / "samples" / "s1" / "program" / "test1.py").unlink()
    with pytest.raises(DatasetError, match=r"\$.test_program.path names .*test1.py, which does not exist"):
        load_dataset(root)


def test_content_hash_tracks_what_scores(tmp_path: Path) -> None:
    root = make_dataset(tmp_path)
    before = content_hash(load_dataset(root))
    assert before == content_hash(load_dataset(root))
    _edit(root, lambda d: d.__setitem__("difficulty", "hard"))  # a label, not a score input
    assert content_hash(load_dataset(root)) == before
    _edit(root, lambda d: d["cases"][0].__setitem__("expected_stdout", "eA=="))
    changed = content_hash(load_dataset(root))
    assert changed != before
    (root / "samples" / "s1" / "program" / "test1.py").write_text("print(2)\n")
    assert content_hash(load_dataset(root)) != changed


def test_cli_list_json_and_bad_dataset(tmp_path: Path) -> None:
    root = make_dataset(tmp_path / "ds")
    out = subprocess.run(
        [sys.executable, "-m", "repozero", "dataset", "list", str(root), "--json"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out) == [
        {
            "id": "s1",
            "library": "demo",
            "subset": "py2js",
            "difficulty": "medium",
            "category": "uncategorized",
            "split": None,
            "kept_cases": 3,
            "dropped_cases": 0,
        }
    ]
    _edit(root, lambda d: d.pop("target"))
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "dataset", "list", str(root), "--json"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and "sample.json" in proc.stderr
