"""What grading through another framework costs: one sample through each integration against `repozero eval`.

Workload: one sample (default `builtin:py2js-lite` / `roman-numerals`) and its gold reference as the target.
The baseline is `repozero eval --sample S --target GOLD --sandbox docker --json` (a process of its own: its
start-up counts, as Harbor's does). Each integration is one function taking the same sample and target and
returning its wall time and whether it passed; a run of each (baseline included) warms images, build caches
and Python imports before the timed run. A row fails if the integration's verdict differs from `eval`'s.

Rows (add one function per integration to INTEGRATIONS):
- harbor: `repozero export harbor` of the sample, then the real `harbor run -a oracle -e docker` (the
  oracle agent copies the gold in; the task's separate verifier container grades it). Its time includes
  Harbor's own work per trial: two `docker compose` projects (agent and verifier) built from cache,
  started and torn down, the artifact copy between them.

Prints one line per integration, then `integrations_overhead: <ratio>` last: the worst integration's wall
time over `repozero eval`'s.

    python benchmarks/integrations.py [--dataset D] [--sample ID] [--only harbor]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import anyio

from repozero import load_config, load_dataset


class Outcome(NamedTuple):
    wall_s: float
    passed: bool


def eval_baseline(dataset: str, sample: str, target: Path, work: Path) -> Outcome:
    """`repozero eval` of the target on the Docker backend, as a user runs it."""
    argv = ["repozero", "eval", "--dataset", dataset, "--sample", sample, "--target", str(target)]
    start = time.perf_counter()
    done = subprocess.run(
        [*argv, "--sandbox", "docker", "--json"], capture_output=True, text=True, check=True
    )
    wall = time.perf_counter() - start
    return Outcome(wall, bool(json.loads(done.stdout)["samples"][0]["pass"]))


def harbor(dataset: str, sample: str, target: Path, work: Path) -> Outcome:
    """Export the sample as a Harbor task whose solution is `target`, then `harbor run` its oracle agent."""
    from repozero.integrations.harbor import export_harbor
    from repozero.integrations.harbor_run import run_harbor

    tasks = work / "harbor-tasks"
    start = time.perf_counter()
    (task,) = export_harbor(load_config(), dataset, tasks, samples=sample)
    gold = task.path / "solution" / "gold"
    if target.resolve() != load_dataset(dataset).gold_dir(sample).resolve():
        subprocess.run(["rm", "-rf", str(gold)], check=True)
        subprocess.run(["cp", "-R", str(target), str(gold)], check=True)
    job = f"bench-{time.monotonic_ns()}"
    (trial,) = anyio.run(lambda: run_harbor(tasks, "oracle", work / "harbor-jobs", job_name=job))
    wall = time.perf_counter() - start
    if trial.exception is not None or trial.rewards is None:
        raise RuntimeError(f"harbor trial failed: {trial}")
    return Outcome(wall, trial.rewards["reward"] == 1)


INTEGRATIONS: dict[str, Callable[[str, str, Path, Path], Outcome]] = {"harbor": harbor}


def timed(run: Callable[[str, str, Path, Path], Outcome], args: argparse.Namespace, target: Path) -> Outcome:
    with tempfile.TemporaryDirectory(prefix="repozero-bench-") as tmp:
        run(args.dataset, args.sample, target, Path(tmp))  # warm-up: images, caches, imports
        return run(args.dataset, args.sample, target, Path(tmp))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="builtin:py2js-lite")
    parser.add_argument("--sample", default="roman-numerals")
    parser.add_argument("--only", choices=sorted(INTEGRATIONS), action="append", help="run only these rows")
    args = parser.parse_args()
    target = load_dataset(args.dataset).gold_dir(args.sample)
    base = timed(eval_baseline, args, target)
    print(f"repozero_eval_s: {base.wall_s:.2f} (pass={base.passed})")
    worst = 0.0
    for name in args.only or sorted(INTEGRATIONS):
        outcome = timed(INTEGRATIONS[name], args, target)
        ratio = outcome.wall_s / base.wall_s
        agree = outcome.passed == base.passed
        print(
            f"{name}: {outcome.wall_s:.2f} s, {ratio:.1f}x eval, pass={outcome.passed}, agrees_with_eval={agree}"
        )
        if not agree:
            print(f"{name}: verdict differs from repozero eval's", file=sys.stderr)
            return 1
        worst = max(worst, ratio)
    print(f"integrations_overhead: {worst:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
