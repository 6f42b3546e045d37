"""Synthetic run directories with known contents: for tests, benchmarks and trying reports without models.

They are written through the real `write_manifest` and `ResultsStore`, exactly as `repozero run` writes,
so a report cannot tell them from real runs. `python tests/synthetic_report.py OUT`
writes three demo runs (two models, one under another protocol) to look at.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from repozero.orchestrator.engine.manifest import RunManifest, write_manifest
from repozero.orchestrator.engine.protocols import get_protocol
from repozero.orchestrator.engine.results import CaseRow, EpisodeResult, ResultsStore, RoundResult
from repozero.orchestrator.report.load import RESULTS_NAME

__all__ = ["SynthEpisode", "demo_runs", "random_episodes", "write_run"]


@dataclass
class SynthEpisode:
    """One episode to write. `rounds` holds (hidden_passed, hidden_success_rate) per recorded round.

    `status` other than finished/infra_error (running, interrupted) writes no result, as a live or
    killed run leaves it.
    """

    sample: str
    attempt: int = 0
    library: str = "lib"
    subset: str = "py2js"
    difficulty: str = "easy"
    category: str = "utility"
    passed: bool = False
    success_rate: float = 0.0
    failure_category: str | None = "mismatch"
    rounds: list[tuple[bool, float]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    status: str = "finished"


def write_run(
    run_dir: Path,
    episodes: Sequence[SynthEpisode],
    *,
    model: str = "fake:mix",
    scaffold: str = "bash",
    protocol: str = "repozero-strict",
    dataset_hash: str = "sha256:" + "0" * 64,
    ace_rounds: int = 0,
    attempts: int = 1,
    samples: Sequence[str] | None = None,
    run_id: str | None = None,
) -> Path:
    """Write a manifest and a results store holding `episodes`; returns `run_dir`."""
    run_dir.mkdir(parents=True, exist_ok=True)
    planned = sorted({e.sample for e in episodes}) if samples is None else list(samples)
    write_manifest(
        run_dir,
        _manifest(run_dir, model, scaffold, protocol, dataset_hash, ace_rounds, attempts, planned, run_id),
    )
    store = ResultsStore(run_dir / RESULTS_NAME)
    try:
        interrupted = [e for e in episodes if e.status == "interrupted"]
        for episode in interrupted:
            _write_episode(store, episode)
        if interrupted:
            store.mark_interrupted()
        for episode in episodes:
            if episode.status != "interrupted":
                _write_episode(store, episode)
    finally:
        store.close()
    return run_dir


def _manifest(
    run_dir: Path,
    model: str,
    scaffold: str,
    protocol: str,
    dataset_hash: str,
    ace_rounds: int,
    attempts: int,
    samples: list[str],
    run_id: str | None,
) -> RunManifest:
    return RunManifest(
        run_id=run_id or run_dir.name,
        created_at=0.0,
        dataset_name="synthetic",
        dataset_path="synthetic",
        dataset_hash=dataset_hash,
        samples=samples,
        model=model,
        scaffold=scaffold,
        ace_rounds=ace_rounds,
        attempts=attempts,
        protocol=msgspec.to_builtins(get_protocol(protocol)),
        grader_version="synthetic",
        config={},
        config_hash="",
    )


def _write_episode(store: ResultsStore, e: SynthEpisode) -> None:
    episode_id = f"{e.sample}#{e.attempt}"
    store.start_episode(episode_id, e.sample, e.attempt, group_id=e.sample)
    for index, (passed, rate) in enumerate(e.rounds):
        result = RoundResult(
            round=index,
            coder_exit="submitted",
            visible_passed=passed,
            visible_success_rate=rate,
            hidden_passed=passed,
            hidden_success_rate=rate,
            failure_category=None if passed else e.failure_category,
        )
        store.record_round(
            episode_id,
            result,
            [CaseRow(case_id="h1", kind="hidden", status="pass" if passed else "wrong_output")],
        )
    if e.status not in ("finished", "infra_error"):
        return
    store.finish_episode(_result(episode_id, e), status=e.status)


def _result(episode_id: str, e: SynthEpisode) -> EpisodeResult:
    return EpisodeResult(
        episode_id=episode_id,
        sample=e.sample,
        attempt=e.attempt,
        passed=e.passed,
        success_rate=e.success_rate,
        failure_category=None if e.passed else e.failure_category,
        cheat_flags=["child_process"] if e.failure_category == "cheat" else [],
        infra_error=e.status == "infra_error",
        infra_detail="sandbox died" if e.status == "infra_error" else "",
        rounds_used=max(len(e.rounds) - 1, 0),
        exit_status="submitted",
        prompt_tokens=e.prompt_tokens,
        completion_tokens=e.completion_tokens,
        cost_usd=e.cost_usd,
        library=e.library,
        difficulty=e.difficulty,
        category=e.category,
        subset=e.subset,
    )


_CATEGORIES = ("math", "text", "data", "date", "utility")
_FAILURES = ("no_executable", "cheat", "whitebox_fail", "runtime_error", "mismatch")


def random_episodes(
    rng: random.Random,
    *,
    skill: float,
    libraries: int = 6,
    per_library: int = 6,
    attempts: int = 1,
    ace_rounds: int = 2,
) -> list[SynthEpisode]:
    """Plausible episodes: libraries differ in difficulty, ACE rounds help, harder samples fail more."""
    out = []
    for lib in range(libraries):
        subset = "py2js" if lib % 3 else "c2rust"
        lib_skill = min(max(skill + rng.uniform(-0.3, 0.3), 0.02), 0.98)
        for j in range(per_library):
            difficulty = ("easy", "medium", "hard")[j % 3]
            sample = f"lib{lib}/test{j + 1}"
            for attempt in range(attempts):
                out.append(
                    _random_episode(
                        rng, sample, attempt, f"lib{lib}", subset, difficulty, lib_skill, lib, ace_rounds
                    )
                )
    return out


def _random_episode(
    rng: random.Random,
    sample: str,
    attempt: int,
    library: str,
    subset: str,
    difficulty: str,
    p: float,
    lib: int,
    ace_rounds: int,
) -> SynthEpisode:
    p *= {"easy": 1.0, "medium": 0.75, "hard": 0.5}[difficulty]
    rounds: list[tuple[bool, float]] = []
    rate = 0.0
    for _ in range(ace_rounds + 1):
        passed = rng.random() < p
        rate = 1.0 if passed else rng.uniform(rate, 0.95)
        rounds.append((passed, rate))
        if passed:
            break
        p = min(p + 0.08, 0.95)
    passed, rate = rounds[-1]
    tokens = int(rng.uniform(20_000, 90_000) * len(rounds))
    return SynthEpisode(
        sample=sample,
        attempt=attempt,
        library=library,
        subset=subset,
        difficulty=difficulty,
        category=_CATEGORIES[lib % len(_CATEGORIES)],
        passed=passed,
        success_rate=rate,
        failure_category=None if passed else rng.choice(_FAILURES[:-1] + _FAILURES[-1:] * 4),
        rounds=rounds,
        prompt_tokens=tokens,
        completion_tokens=tokens // 8,
        cost_usd=tokens * 2.5e-6,
    )


def demo_runs(out: Path, seed: int = 7) -> list[Path]:
    """Three demo runs under `out`: a weak and a strong model, and the strong one under repozero-public."""
    rng = random.Random(seed)
    specs = [
        ("fake:weak", "bash", "repozero-strict", 0.12),
        ("fake:strong", "tools", "repozero-strict", 0.3),
        ("fake:strong", "tools", "repozero-public", 0.38),
    ]
    paths = []
    for i, (model, scaffold, protocol, skill) in enumerate(specs):
        episodes = random_episodes(rng, skill=skill, attempts=3, ace_rounds=2)
        paths.append(
            write_run(
                out / f"run{i + 1}",
                episodes,
                model=model,
                scaffold=scaffold,
                protocol=protocol,
                ace_rounds=2,
                attempts=3,
            )
        )
    return paths


if __name__ == "__main__":
    for path in demo_runs(Path(sys.argv[1] if len(sys.argv) > 1 else "demo-runs")):
        print(path)
