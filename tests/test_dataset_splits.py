"""Splits, `dataset stats` and the pieces the generated built-in datasets are made with: the replay folder,
no voters, the writer's category (fast: no Oracle; the pipeline end to end is in test_generate_e2e.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from repozero.agents.fakellm.chat import Header
from repozero.agents.fakellm.replay import ReplayBook
from repozero.cli import main
from repozero.datasets import (
    Case,
    DatasetInfo,
    Generation,
    Provenance,
    Sample,
    Source,
    Target,
    TestProgram,
    load_dataset,
    write_dataset_info,
    write_sample,
)
from repozero.datasets.stats import dataset_stats
from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.spec import plan_episodes
from repozero.orchestrator.generate.answers import AnswerError, parse_draft
from repozero.orchestrator.generate.voting import decide


def _sample(
    sid: str, package: str, split: str | None, calls: list[str], kept: int, difficulty: str
) -> Sample:
    generation = Generation(
        model="fake:replay:x", voters=[], prompts="", seed=0, api_calls=calls, lines_reached=40
    )
    return Sample(
        id=sid, source=Source(package=package), test_program=TestProgram(path="t.py"),
        target=Target(entry=["node", "t.mjs"]), status="live", split=split, difficulty=difficulty,  # type: ignore[arg-type]
        category="encoding", provenance=Provenance(generation=generation),
        cases=[Case(id=f"c{i:03d}", argv=["--n", str(i)], expected_stdout=b"x\n") for i in range(kept)],
    )  # fmt: skip


def _dataset(root: Path) -> Path:
    samples = [
        _sample("a-g01", "alpha==1.0", "train", ["alpha.f"], 20, "easy"),
        _sample("a-g02", "alpha==1.0", "train", ["alpha.g", "alpha.h", "alpha.f", "alpha.k"], 30, "medium"),
        _sample("b-g01", "beta==2.0", "test", [f"beta.f{i}" for i in range(10)], 40, "hard"),
        _sample("b-g02", "beta==2.0", "test", ["beta.f0", "beta.f1", "beta.x"], 25, "easy"),
    ]
    for sample in samples:
        (root / "samples" / sample.id / "program").mkdir(parents=True)
        (root / "samples" / sample.id / "program" / "t.py").write_text("print(1)\n")
        (root / "samples" / sample.id / "api_spec.md").write_text("# spec\n")
        write_sample(root, sample)
    write_dataset_info(root, DatasetInfo(name="splitty"))
    return root


def test_stats_counts_what_a_reader_would(tmp_path: Path) -> None:
    dataset = load_dataset(_dataset(tmp_path / "ds"))
    stats = dataset_stats(dataset, "sha256:x")
    assert (stats.samples, stats.libraries) == (4, 2)
    assert stats.difficulty == {"easy": 2, "medium": 1, "hard": 1}
    assert (stats.split, stats.split_libraries) == ({"test": 2, "train": 2}, {"test": 1, "train": 1})
    assert (stats.kept_cases.min, stats.kept_cases.mean, stats.kept_cases.max) == (20, 28.75, 40)
    assert stats.api_call_buckets == {"1-3": 2, "4-8": 1, "9-20": 1, "21+": 0}
    by_lib = {lib.library: lib for lib in stats.per_library}
    # alpha: {f} within {g,h,f,k}: 1 of min(1, 4) = 1.0; beta: {f0,f1} of min(10, 3) = 0.667
    assert (by_lib["alpha"].max_overlap, by_lib["beta"].max_overlap) == (1.0, 0.667)
    assert by_lib["beta"].overlap_pair == ["b-g01", "b-g02"] and stats.max_overlap == 1.0


def test_stats_command_and_list_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _dataset(tmp_path / "ds")
    assert main(["dataset", "stats", str(root)]) == 0
    text = capsys.readouterr().out
    assert "4 live samples over 2 libraries" in text and "alpha==1.0" in text and "easy 2 (50 %)" in text
    assert main(["dataset", "list", str(root), "--json"]) == 0
    assert '"split":"train"' in capsys.readouterr().out


def test_plan_by_split(tmp_path: Path) -> None:
    dataset = load_dataset(_dataset(tmp_path / "ds"))
    assert [k.sample for k in plan_episodes(dataset, None, 1, "test")] == ["b-g01", "b-g02"]
    assert [k.sample for k in plan_episodes(dataset, "a-*", 1, "train")] == ["a-g01", "a-g02"]
    assert len(plan_episodes(dataset, None, 1)) == 4
    with pytest.raises(
        UsageError, match=r"--split 'dev': no live sample of splitty .*its splits: test, train"
    ):
        plan_episodes(dataset, None, 1, "dev")


def test_eval_split_needs_gold(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _dataset(tmp_path / "ds")
    code = main(
        ["eval", "--dataset", str(root), "--sample", "a-g01", "--target", str(tmp_path), "--split", "x"]
    )
    assert code == 2 and "--split chooses among the gold references" in capsys.readouterr().err


def test_no_voters_decide_by_the_measured_rule() -> None:
    assert decide([], 2, 100, declared="text", voters=0) == ("easy", "text", "no voters: measured")
    assert decide([], 9, 10, declared=None, voters=0) == ("hard", "other", "no voters: measured")
    assert decide([], 5, 10, voters=0)[0] == "medium"
    # with voters asked and none answering, the old rule stands (measured label, category `other`)
    assert decide([], 2, 100, declared="text", voters=3) == ("easy", "other", "no votes: measured")


def test_writer_declares_a_category_from_the_list() -> None:
    meta = '{"interface": {"args": []}, "category": "%s"}'
    answer = "```python\nimport x\n```\n```json\n" + meta + "\n```\n```markdown\nspec\n```\n"
    assert parse_draft(answer % "math/numbers").category == "math/numbers"
    with pytest.raises(AnswerError, match="category 'maths' is not one of"):
        parse_draft(answer % "maths")


def test_replay_folder(tmp_path: Path) -> None:
    (tmp_path / "lib-g01.sample_writer.md").write_text("first")
    (tmp_path / "lib-g01.sample_writer.1.md").write_text("rewrite")
    (tmp_path / "lib-g01.case_writer.json").write_text('{"cases": []}')
    (tmp_path / "README.md").write_text("not an answer")
    (tmp_path / "_draft.sample_writer.md").write_text("skipped")
    book = ReplayBook.load(tmp_path)
    assert len(book.responses) == 3
    writer = Header(sample="lib-g01", role="sample_writer", scaffold="none")
    assert [book.find(writer, step).text for step in (0, 1)] == ["first", "rewrite"]  # type: ignore[union-attr]
    assert book.find(writer, 2) is None
    assert book.find(Header(sample="lib-g02", role="sample_writer", scaffold="none"), 0) is None
    assert book.find(Header(sample="lib-g01", role="case_writer", scaffold="none"), 0).text == '{"cases": []}'  # type: ignore[union-attr]
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UsageError, match="no answer files"):
        ReplayBook.load(empty)
