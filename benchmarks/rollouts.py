"""What the rollout engine costs over a run of the same episodes: G groups of N through `RolloutEngine`
against the same G × N episodes through `repozero run`.

Both phases use the loopback model (`fake:steps:K`: K trivial commands, then a submission — K+1 calls per
episode — at `--latency-ms` per call), ACE rounds 0, the same concurrency, on a dataset of G samples made
here (copies of the fixture sample `fx-slug`, so every episode does the same work). Each phase runs in a
fresh process timed end to end (process start, session opened, episodes, parts closed):

- run: `repozero run --attempts N --concurrency C` over the G samples (results and traces written, as a
  run does);
- engine: a `Session` and `RolloutEngine.stream` over G `GroupRequest`s of N, every trajectory's token
  data assembled; nothing written (a trainer's usual session), or with `--engine-writes` a run directory
  written as the run writes it (the like-for-like comparison).

The last line is `rollout_overhead: <engine wall / run wall>` (target ≤ 1.05); episodes/s and CPU seconds
of both are printed above it. On a loaded machine `--repeats 2` (or more) alternates which phase goes
first and sums the walls.

    python benchmarks/rollouts.py [--groups 32] [--n 8] [--latency-ms 1000] [--concurrency 64] [--steps 3]
                                 [--repeats 1] [--engine-writes]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import aclosing
from pathlib import Path

import anyio

FIXTURE = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm"
SAMPLE = "fx-slug"


def make_dataset(root: Path, groups: int) -> list[str]:
    """`groups` copies of the fixture sample under ids g00, g01, …; returns the ids."""
    shutil.copy(FIXTURE / "dataset.toml", root / "dataset.toml")
    ids = [f"g{i:02d}" for i in range(groups)]
    for sample_id in ids:
        folder = root / "samples" / sample_id
        shutil.copytree(FIXTURE / "samples" / SAMPLE, folder)
        record = json.loads((folder / "sample.json").read_text(encoding="utf-8"))
        record["id"] = sample_id
        (folder / "sample.json").write_text(json.dumps(record), encoding="utf-8")
    return ids


def children_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and its children, its stdout)."""
    started, cpu = time.monotonic(), children_cpu_s()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return time.monotonic() - started, children_cpu_s() - cpu, proc.stdout


async def engine_phase(args: argparse.Namespace) -> None:
    """The engine phase, in its own process: prints the trajectories it got and how many were exact."""
    from repozero import RunSpec, Session, load_config
    from repozero.rollouts import GroupRequest, RolloutEngine

    config = load_config(overrides=[f"run.fake_latency_ms={args.latency_ms}", "traces.fsync=false"])
    spec = RunSpec(
        dataset=args.dataset, model=f"fake:steps:{args.steps}", ace_rounds=0, concurrency=args.concurrency
    )
    got = exact = 0
    run_dir = Path(args.out) if args.out else None
    async with Session.open(config, spec, run_dir=run_dir) as s, RolloutEngine(s) as engine:
        requests = [GroupRequest(sample_id=sample.id, n=args.n) for sample in s.dataset.samples]
        async with aclosing(engine.stream(requests)) as groups:
            async for group in groups:
                got += len(group.trajectories)
                exact += sum(t.token_fidelity == "exact" and not t.segmented for t in group.trajectories)
    print(json.dumps({"trajectories": got, "exact": exact}))


def commands(args: argparse.Namespace, root: Path) -> dict[str, list[str]]:
    """The two phases' command lines, over the dataset under `root`."""
    common = ["--set", f"run.fake_latency_ms={args.latency_ms}", "--set", "traces.fsync=false"]
    run_cmd = [sys.executable, "-m", "repozero", *common, "run", "--dataset", str(root / "data")]
    run_cmd += ["--model", f"fake:steps:{args.steps}", "--ace-rounds", "0", "--attempts", str(args.n)]
    run_cmd += ["--concurrency", str(args.concurrency), "--display", "off"]
    engine_cmd = [sys.executable, __file__, "--phase", "engine", "--dataset", str(root / "data")]
    engine_cmd += ["--n", str(args.n), "--latency-ms", str(args.latency_ms)]
    engine_cmd += ["--concurrency", str(args.concurrency), "--steps", str(args.steps)]
    return {"run": run_cmd, "engine": engine_cmd}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", type=int, default=32)
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=1000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument(
        "--repeats", type=int, default=1, help="pairs of phases, alternating which goes first"
    )
    parser.add_argument(
        "--engine-writes",
        action="store_true",
        help="give the engine's session a run directory (results, traces)",
    )
    parser.add_argument("--phase", choices=["engine"], help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    parser.add_argument("--dataset", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.phase == "engine":
        anyio.run(engine_phase, args, backend_options={"use_uvloop": True})  # as `repozero run` runs
        return
    episodes = args.groups * args.n
    wall = {"run": 0.0, "engine": 0.0}
    cpu = dict(wall)
    with tempfile.TemporaryDirectory(prefix="rz-rollouts-bench-") as tmp:
        root = Path(tmp)
        (root / "data").mkdir()
        make_dataset(root / "data", args.groups)
        cmds = commands(args, root)
        for repeat in range(args.repeats):
            for phase in ("run", "engine") if repeat % 2 == 0 else ("engine", "run"):
                writes = phase == "run" or args.engine_writes
                out_dir = ["--out", str(root / f"{phase}-{repeat}")] if writes else []
                seconds, cpu_s, out = timed(cmds[phase] + out_dir)
                wall[phase] += seconds
                cpu[phase] += cpu_s
                if phase == "engine":
                    got = json.loads(out.strip().splitlines()[-1])
                    if got["trajectories"] != episodes:
                        sys.exit(f"the engine returned {got['trajectories']} trajectories of {episodes}")
    print(
        f"episodes: {episodes} ({args.groups} groups of {args.n}) × {args.repeats} repeats, {args.steps + 1} "
        f"calls each at {args.latency_ms:.0f} ms, concurrency {args.concurrency}; exact single-stream "
        f"trajectories: {got['exact']}/{episodes}; the engine's session "
        + ("writes results and traces as the run does" if args.engine_writes else "writes nothing")
    )
    for phase in ("run", "engine"):
        rate = episodes * args.repeats / wall[phase]
        print(
            f"{phase}_wall_s: {wall[phase]:.1f}  {phase}_cpu_s: {cpu[phase]:.1f}  {phase}_episodes_per_s: {rate:.2f}"
        )
    print(f"rollout_cpu_ratio: {cpu['engine'] / cpu['run']:.3f}")
    print(f"rollout_overhead: {wall['engine'] / wall['run']:.3f}")


if __name__ == "__main__":
    main()
