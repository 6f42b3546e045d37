"""The built-in c2rust-lite dataset: its shape and difficulty labels (fast, offline), then — on a subset of
samples, to keep CI lean — `dataset build` from scratch reproducing the shipped ground truth byte for byte
(real gcc and Debian's libraries) and, on one sample, ACE lifting `fake:buggy-then-fix` (real cargo). The
whole dataset's rebuild (5.6 min) and lift (0.0 -> 1.0) were measured once by the CLI (docs/builtin-datasets.md).

Every gold and every planted bug of the whole dataset goes through tests/test_builtin_grading.py.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from repozero.datasets import builtin_root, content_hash, load_dataset, write_dataset_info

TOOLS = Path(__file__).resolve().parent.parent / "datasets" / "builtin" / "tools" / "c2rust"
SUBSET = ["cjson-minify", "inih-sections"]  # one per C library, the cheapest to build


def _maker():
    sys.path.insert(0, str(TOOLS))
    try:
        spec = importlib.util.spec_from_file_location("c2rust_lite_maker", TOOLS / "make_c2rust_lite.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOLS))


def test_dataset_is_live_with_cases_specs_golds_and_bugs() -> None:
    dataset = load_dataset("builtin:c2rust-lite")
    assert dataset.info.name == "c2rust-lite"
    packages = {s.source.package for s in dataset.samples}
    assert len(dataset.samples) >= 12 and len(packages) >= 4
    assert {
        "libcjson-dev",
        "libinih-dev",
        "libhowardhinnant-date-dev",
        "libtsl-hopscotch-map-dev",
    } <= packages
    assert {s.source.language for s in dataset.samples} == {"c", "cpp"}
    labels = [s.difficulty for s in dataset.samples]
    assert set(labels) == {"easy", "medium", "hard"} and labels.count("hard") >= 3
    for sample in dataset.samples:
        assert sample.subset == "c2rust" and sample.status == "live", sample.id
        assert len(sample.kept_cases) >= 20 and len(sample.whitebox) == 4, sample.id
        assert sample.target.language == "rust" and sample.target.entry[0].startswith("target/release/")
        gold = dataset.gold_dir(sample.id)
        assert (gold / "Cargo.toml").is_file() and not (gold / "target").exists(), sample.id
        assert "[dependencies]\n[" not in (gold / "Cargo.toml").read_text(), sample.id
        assert (dataset.sample_dir(sample.id) / "buggy.patch").is_file(), sample.id
        assert len(dataset.api_spec(sample.id)) > 500, sample.id
        raw = json.loads((dataset.sample_dir(sample.id) / "tester_inputs.json").read_text())["inputs"]
        known = {(tuple(c.argv), c.stdin) for c in sample.cases}
        assert raw and all(
            (tuple(r["argv"]), None if r.get("stdin") is None else r["stdin"].encode()) not in known
            for r in raw
        ), sample.id


def test_difficulty_labels_follow_the_written_rule() -> None:
    maker = _maker()
    reach = json.loads((TOOLS / "reach.json").read_text())
    dataset = load_dataset("builtin:c2rust-lite")
    defs = maker.load_defs()
    assert sorted(d.id for d in defs) == sorted(s.id for s in dataset.samples)
    for definition in defs:
        sample = dataset.sample(definition.id)
        rule = sys.modules["ckit"]
        assert sample.difficulty_rule == rule.DIFFICULTY_RULE
        assert reach[definition.id]["calls"] == len(definition.api), definition.id
        assert sample.difficulty == rule.difficulty(len(definition.api), reach[definition.id]["reach"])
        assert sample.category == definition.category


def test_the_split_is_by_library_as_the_make_script_says() -> None:
    maker = _maker()
    samples = load_dataset("builtin:c2rust-lite").samples
    assert maker.TRAIN <= {s.library for s in samples}
    for sample in samples:
        assert sample.split == ("train" if sample.library in maker.TRAIN else "test"), sample.id
    train = sorted(s.id for s in samples if s.split == "train")
    assert train == ["cjson-build", "cjson-minify", "cjson-parse-print", "cjson-query"]
    assert len(samples) - len(train) == 8


def _cli(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "repozero", *args], capture_output=True, text=True, env=env, timeout=900
    )


@pytest.fixture(scope="module")
def subset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the dataset holding only SUBSET (so `run` and `build` touch nothing else)."""
    if shutil.which("cargo", path="/usr/bin") is None or not Path("/usr/include/cjson/cJSON.h").is_file():
        pytest.skip("needs cargo-web and the C libraries (scripts/setup.d/05-c2rust.sh)")
    root = tmp_path_factory.mktemp("c2rust-lite") / "ds"
    source = builtin_root() / "c2rust-lite"
    (root / "samples").mkdir(parents=True)
    shutil.copy(source / "dataset.toml", root / "dataset.toml")
    for sample_id in SUBSET:
        shutil.copytree(source / "samples" / sample_id, root / "samples" / sample_id)
    dataset = load_dataset(root)  # the subset's own content hash, as `dataset build` would record it
    write_dataset_info(root, msgspec.structs.replace(dataset.info, content_hash=content_hash(dataset)))
    return root


@pytest.mark.slow
def test_build_from_scratch_reproduces_the_shipped_ground_truth(subset: Path, tmp_path: Path) -> None:
    shipped = load_dataset(subset)
    out = _cli("dataset", "build", str(subset), "--no-cache", "--json", cache=tmp_path / "cache")
    assert out.returncode == 0, out.stderr
    for sample_id in SUBSET:
        before = (builtin_root() / "c2rust-lite" / "samples" / sample_id / "sample.json").read_bytes()
        after = json.loads((subset / "samples" / sample_id / "sample.json").read_bytes())
        expected = json.loads(before)
        for record in (after, expected):
            record["provenance"].pop("built_at")
        assert after == expected, sample_id
        assert len(shipped.sample(sample_id).kept_cases) >= 20


@pytest.mark.slow
def test_ace_lifts_buggy_then_fix_from_zero_to_one(subset: Path, tmp_path: Path) -> None:
    rates = {}
    for rounds in (0, 1):
        out = _cli(
            "run", "--dataset", str(subset), "--samples", "cjson-minify", "--model", "fake:buggy-then-fix",
            "--ace-rounds", str(rounds), "--out", str(tmp_path / f"run{rounds}"), "--json", cache=tmp_path / "cache",
        )  # fmt: skip
        assert out.returncode == 0, out.stderr
        rates[rounds] = json.loads(out.stdout.strip().splitlines()[-1])["pass_rate"]
    assert rates == {0: 0.0, 1: 1.0}
