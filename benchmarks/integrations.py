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
- inspect: the real `inspect eval repozero/repozero` of the sample, its model the loopback server's `gold`
  policy (the agent writes the gold reference in a local `repozero` sandbox; the task's scorer grades it on
  Docker, as the baseline does, through `REPOZERO_CONFIG`). Gold targets only: the policy writes the gold.
- verifiers: the real `vf-eval repozero_verifiers` of the sample, the same way (the agent works in a Docker
  sandbox there, through the same config). Gold targets only.
  Both include their harness's start-up (imports, the log or trace files) and the agent's few model calls.

Prints one line per integration, then `integrations_overhead: <ratio>` last: the worst integration's wall
time over `repozero eval`'s.

    python benchmarks/integrations.py [--dataset D] [--sample ID] [--only harbor]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
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
    return Outcome(wall, bool(json.loads(done.stdout)["samples"][0]["passed"]))


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


def _gold_only(dataset: str, sample: str, target: Path) -> None:
    if target.resolve() != load_dataset(dataset).gold_dir(sample).resolve():
        raise SystemExit(
            "the inspect and verifiers rows grade the gold reference only (the gold policy writes it)"
        )


@contextlib.contextmanager
def _loopback(dataset: str, work: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """`repozero fake-llm serve --policy gold` for the row's run, and an environment whose RepoZero config
    grades on Docker: (base URL, environment)."""
    config = work / "docker.toml"
    config.write_text('[sandbox]\nbackend = "docker"\n')
    argv = ["repozero", "fake-llm", "serve", "--policy", "gold", "--dataset", dataset, "--port", "0"]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as server:
        try:
            assert server.stdout is not None
            url = server.stdout.readline().strip()
            yield url, {**os.environ, "REPOZERO_CONFIG": str(config)}
        finally:
            server.terminate()


def inspect_eval(dataset: str, sample: str, target: Path, work: Path) -> Outcome:
    """`inspect eval repozero/repozero --sample-id S` against the loopback server, read back with `inspect log dump`."""
    _gold_only(dataset, sample, target)
    venv = os.environ.get("REPOZERO_INSPECT_VENV") or str(
        Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
        / "repozero/venvs/inspect-ai"
    )
    logs = work / f"inspect-{time.monotonic_ns()}"
    start = time.perf_counter()
    with _loopback(dataset, work) as (url, env):
        env = {**env, "OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "unused"}
        subprocess.run(
            [f"{venv}/bin/inspect", "eval", "repozero/repozero", "-T", f"dataset={dataset}", "--sample-id", sample,
             "--model", "openai/fake-gold", "-M", "responses_api=false", "--log-dir", str(logs), "--display", "none"],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
    (log,) = logs.glob("*.eval")
    dump = subprocess.run([f"{venv}/bin/inspect", "log", "dump", str(log)], capture_output=True, check=True)
    wall = time.perf_counter() - start
    (scored,) = json.loads(dump.stdout)["samples"]
    return Outcome(wall, scored["scores"]["repozero_grader"]["value"]["passed"] == 1.0)


def verifiers_eval(dataset: str, sample: str, target: Path, work: Path) -> Outcome:
    """`vf-eval repozero_verifiers --select.include.ids S` against the loopback server, read from traces.jsonl."""
    _gold_only(dataset, sample, target)
    out = work / f"verifiers-{time.monotonic_ns()}"
    start = time.perf_counter()
    with _loopback(dataset, work) as (url, env):
        subprocess.run(
            ["vf-eval", "repozero_verifiers", "--env.taskset.dataset", dataset, "--select.include.ids", sample,
             "-m", "fake-gold", "--client.base-url", f"{url}/v1", "--client.api-key-var", "REPOZERO_NO_KEY",
             "--no-push", "-o", str(out)],
            env=env, check=True, capture_output=True,
        )  # fmt: skip
    wall = time.perf_counter() - start
    ((episode,),) = [[json.loads(line) for line in f.open()] for f in out.rglob("traces.jsonl")]
    if not episode["ok"]:
        raise RuntimeError(f"vf-eval episode failed: {episode['errors']}")
    return Outcome(wall, episode["traces"][0]["rewards"]["passed"]["score"] == 1.0)


INTEGRATIONS: dict[str, Callable[[str, str, Path, Path], Outcome]] = {
    "harbor": harbor,
    "inspect": inspect_eval,
    "verifiers": verifiers_eval,
}


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
