"""The generated built-in datasets (`builtin:py2js`, `builtin:c2rust`): fast, offline checks of what CI can
check without the Oracle — the schema and hash, the paper's shape, and that every sample is what
`repozero dataset generate` wrote from the committed answers. The full rebuild is the slow test below."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from repozero.datasets import Generation, builtin_root, content_hash, load_dataset
from repozero.datasets.stats import dataset_stats
from repozero.orchestrator.generate.voting import MEASURED_RULE, measured_difficulty

REPO = Path(__file__).resolve().parent.parent
PAPER = {"py2js": (240, 24, 6), "c2rust": (100, 10, 5)}
"""(live samples, libraries, programs per library) each dataset must reach (issues 37 and 38)."""
SHIPPED = [name for name in PAPER if (builtin_root() / name / "dataset.toml").is_file()]


@pytest.fixture(scope="module", params=SHIPPED)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_both_datasets_ship() -> None:
    missing = sorted(set(PAPER) - set(SHIPPED))
    assert not missing, f"missing: python datasets/builtin/tools/make_generated.py {' '.join(missing)}"


def test_loads_and_the_hash_is_the_recorded_one(name: str) -> None:
    dataset = load_dataset(f"builtin:{name}")
    assert dataset.info.name == name and content_hash(dataset) == dataset.info.content_hash


def test_the_papers_shape(name: str) -> None:
    samples, libraries, per_library = PAPER[name]
    stats = dataset_stats(load_dataset(f"builtin:{name}"), "")
    assert stats.samples >= samples and stats.libraries >= libraries
    assert min(lib.samples for lib in stats.per_library) >= per_library
    assert stats.kept_cases.min >= 20
    for level in ("easy", "medium", "hard"):
        assert stats.difficulty[level] >= 0.25 * stats.samples, (level, stats.difficulty)
    assert set(stats.category) == {"encoding", "text", "math/numbers", "data structures",
                                   "parsing/serialization", "other"}  # fmt: skip
    assert stats.split.get("train", 0) >= 0.25 * stats.samples and set(stats.split) == {"train", "test"}
    assert stats.max_overlap is not None and stats.max_overlap <= 0.5, stats.max_overlap
    assert stats.api_calls is not None and stats.api_calls.min >= 1 and stats.api_calls.max <= 20


def test_every_sample_is_what_generate_wrote(name: str) -> None:
    """Made by the pipeline from the committed answers, labelled by the measured rule, split by library,
    and gold for every library."""
    dataset = load_dataset(f"builtin:{name}")
    generation = builtin_root() / name / "generation"
    libraries = {p.parent.name: tomllib.loads(p.read_text()) for p in generation.glob("*/library.toml")}
    splits: dict[str, set[str | None]] = {}
    for sample in dataset.samples:
        made = sample.provenance.generation
        assert isinstance(made, Generation) and sample.status == "live", sample.id
        library = made.model.removeprefix(f"fake:replay:datasets/builtin/{name}/generation/").split("/")[0]
        assert made.model == f"fake:replay:datasets/builtin/{name}/generation/{library}/answers", made.model
        assert (
            (generation / library / "answers").is_dir()
            and made.voters == []
            and made.decided.startswith("no voters")
        )
        assert sample.difficulty_rule == f"dataset generate: {MEASURED_RULE}"
        assert sample.difficulty == measured_difficulty(len(made.api_calls), made.lines_reached), sample.id
        assert sample.split == libraries[library]["split"]
        splits.setdefault(sample.library, set()).add(sample.split)
    assert all(len(s) == 1 for s in splits.values())  # no library in both splits
    gold = {sample.library for sample in dataset.samples if dataset.gold_dir(sample.id).is_dir()}
    assert gold == {s.library for s in dataset.samples}, "a library without a gold sample"


def test_summaries_account_for_every_program(name: str) -> None:
    """The committed generate summaries (docs/builtin-datasets.md's table) agree with the dataset."""
    dataset = load_dataset(f"builtin:{name}")
    kept = 0
    for path in (builtin_root() / name / "generation").glob("*/summary.json"):
        summary = json.loads(path.read_text())
        kept += summary["kept"]
        assert summary["content_hash"] and summary["files"] == summary["kept"] + summary["dropped"]
    assert kept == len(dataset.samples)


@pytest.mark.slow
def test_a_rebuild_of_one_library_gives_the_same_samples(name: str, tmp_path: Path) -> None:
    """The documented rebuild, for one library, on an empty Oracle cache: every sample's hash as shipped
    (the whole dataset's rebuild is `make_generated.py NAME --check`, measured in docs/builtin-datasets.md)."""
    libs = sorted(p.parent.name for p in (builtin_root() / name / "generation").glob("*/library.toml"))[:1]
    tool = REPO / "datasets" / "builtin" / "tools" / "make_generated.py"
    done = subprocess.run(
        [sys.executable, str(tool), name, "--only", *libs, "--check", "--set", f"oracle.cache_dir={tmp_path / 'c'}"],
        capture_output=True, text=True, timeout=1800, check=False, cwd=REPO,
    )  # fmt: skip
    assert done.returncode == 0 and "all match" in done.stdout, done.stdout + done.stderr[-3000:]
