"""The built-in py2js-lite dataset: its shape (fast, offline) and, for a few samples, gold vs Python."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import anyio
import pytest

from repozero.datasets import load_dataset

ROOT = Path(__file__).resolve().parent.parent / "datasets" / "builtin"
DATASET = ROOT / "py2js-lite"
TOOLS = ROOT / "tools"


def _tool(name: str):
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location(f"py2js_lite_{name}", TOOLS / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOLS))


def test_builtin_dataset_loads_with_enough_samples_packages_and_cases() -> None:
    dataset = load_dataset("builtin:py2js-lite")
    assert dataset.info.name == "py2js-lite"
    assert len(dataset.samples) >= 20
    assert len({s.library for s in dataset.samples}) >= 8
    assert len({s.category for s in dataset.samples}) == 5
    assert {s.difficulty for s in dataset.samples} == {"easy", "medium", "hard"}
    for sample in dataset.samples:
        assert "==" in sample.source.package and sample.source.package in sample.source.requirements
        assert len(sample.cases) + len(sample.provenance.dropped) >= 30, sample.id
        assert len(sample.kept_cases) >= 20 or sample.status == "pending", sample.id
        assert sample.target.language == "javascript" and sample.target.entry[0] == "node"
        assert (dataset.gold_dir(sample.id) / sample.target.entry[1]).is_file(), sample.id
        assert (dataset.sample_dir(sample.id) / "buggy.patch").is_file(), sample.id


def test_difficulty_labels_follow_the_written_rule() -> None:
    casekit = _tool("casekit")
    reach = json.loads((TOOLS / "reach.json").read_text())
    make = _tool("make_py2js_lite")
    for definition in make.load_defs():
        sample = load_dataset("builtin:py2js-lite").sample(definition.id)
        assert sample.difficulty_rule == casekit.DIFFICULTY_RULE
        expected = casekit.difficulty(len(definition.api), reach[definition.id]["reach"])
        assert sample.difficulty == expected, definition.id


def test_the_split_is_by_library_as_the_make_script_says() -> None:
    make = _tool("make_py2js_lite")
    samples = load_dataset("builtin:py2js-lite").samples
    assert make.TRAIN <= {s.library for s in samples}
    for sample in samples:
        assert sample.split == ("train" if sample.library in make.TRAIN else "test"), sample.id
    train = {s.id for s in samples if s.split == "train"}
    assert sorted(train) == [
        "humanize-numbers", "humanize-size", "jsonpointer-resolve", "moreitertools-combinatorics",
        "moreitertools-windows", "roman-batch", "roman-numerals",
    ]  # fmt: skip
    assert len(samples) - len(train) == 13


def test_tester_inputs_are_not_cases_and_specs_exist() -> None:
    dataset = load_dataset("builtin:py2js-lite")
    for sample in dataset.samples:
        raw = json.loads((dataset.sample_dir(sample.id) / "tester_inputs.json").read_text())["inputs"]
        assert raw, sample.id
        known = {(tuple(c.argv), c.stdin) for c in sample.cases}
        for item in raw:
            stdin = None if item["stdin"] is None else item["stdin"].encode()
            assert (tuple(item["argv"]), stdin) not in known, sample.id
        assert len(dataset.api_spec(sample.id)) > 500, sample.id


@pytest.mark.slow
def test_gold_matches_python_and_the_planted_bug_hides_from_whitebox() -> None:
    """Real venvs (PyPI on first run, then cached), real Python and Node 24 processes."""
    check_gold = _tool("check_gold")
    dataset = load_dataset(DATASET)
    wanted = ["roman-numerals", "inflection-ordinal"]
    reports = anyio.run(check_gold.check_all, dataset, wanted, 2)
    assert sorted(r.sample for r in reports) == sorted(wanted)
    for report in reports:
        assert report.ok, (report.sample, report.problems)
