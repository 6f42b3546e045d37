"""What a sweep costs over a single run of the same episodes: E episodes over C cells against one run of E.

Both phases use the loopback model (`fake:steps:N`: N trivial commands then a submission, `--latency-ms`
per call), ACE rounds 0, one sample of the fixture dataset, the same total concurrency, each in a fresh
`repozero` process timed end to end (process start, sessions opened, episodes, stores closed):

- run: `repozero run --attempts E --concurrency K`;
- sweep: a spec whose C cells differ only in `agent.step_limit` (above N, so every episode does the same
  work), E / C attempts each, `run.concurrency = K` in `[infra]` — the same E episodes, K at once in all.

The phases alternate (run, sweep, run, sweep, …, `--repeat` pairs) so a change in the machine's load
hits both alike; each pair gives a wall ratio, and the CPU seconds each process used (user + system,
from `getrusage`), which a loaded machine disturbs far less than wall time. The last line is
`sweep_overhead: <median over pairs of sweep wall / run wall>` (target ≤ 1.05).

    python benchmarks/sweep_overhead.py [--episodes 400] [--cells 8] [--latency-ms 1000] [--concurrency 200]
                                        [--repeat 3]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATASET = str(Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm")
SAMPLE = "fx-slug"


def timed(cmd: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - started
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--cells", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=1000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3, help="run/sweep pairs, alternating")
    args = parser.parse_args()
    if args.episodes % args.cells:
        sys.exit("--episodes must be a multiple of --cells")
    model = f"fake:steps:{args.steps}"
    common = ["--set", f"run.fake_latency_ms={args.latency_ms}", "--set", "traces.fsync=false"]
    pairs = []
    for rep in range(args.repeat):
        with tempfile.TemporaryDirectory(prefix="rz-sweep-bench-") as tmp:
            root = Path(tmp)
            run = timed(_run_cmd(args, model, common, root / "run"))
            sweep = timed(_sweep_cmd(args, model, common, root))
        pairs.append((run, sweep))
        print(
            f"pair {rep}: run {run[0]:.1f} s wall {run[1]:.1f} s cpu · sweep {sweep[0]:.1f} s wall "
            f"{sweep[1]:.1f} s cpu · ratio {sweep[0] / run[0]:.3f} wall {sweep[1] / run[1]:.3f} cpu",
            flush=True,
        )
    print(
        f"episodes: {args.episodes} ({args.cells} cells), latency {args.latency_ms:.0f} ms, "
        f"concurrency {args.concurrency}, {args.repeat} pairs"
    )
    print(f"run_wall_s (median): {statistics.median(r[0] for r, _ in pairs):.1f}")
    print(f"sweep_wall_s (median): {statistics.median(s[0] for _, s in pairs):.1f}")
    print(f"sweep_cpu_ratio (median): {statistics.median(s[1] / r[1] for r, s in pairs):.3f}")
    print(f"sweep_overhead: {statistics.median(s[0] / r[0] for r, s in pairs):.3f}")


def _run_cmd(args: argparse.Namespace, model: str, common: list[str], out: Path) -> list[str]:
    cmd = [sys.executable, "-m", "repozero", *common, "run", "--dataset", DATASET, "--samples", SAMPLE]
    cmd += ["--model", model, "--ace-rounds", "0", "--attempts", str(args.episodes)]
    return [*cmd, "--concurrency", str(args.concurrency), "--display", "off", "--out", str(out)]


def _sweep_cmd(args: argparse.Namespace, model: str, common: list[str], root: Path) -> list[str]:
    limits = ", ".join(str(50 + n) for n in range(args.cells))
    spec = root / "spec.toml"
    spec.write_text(
        f'dataset = "{DATASET}"\nsamples = ["{SAMPLE}"]\nattempts = {args.episodes // args.cells}\n'
        f'[axes]\n"agent.step_limit" = [{limits}]\n[fixed]\nmodel = "{model}"\nace_rounds = 0\n'
        f'[infra]\n"run.concurrency" = {args.concurrency}\n'
    )
    cmd = [sys.executable, "-m", "repozero", *common, "sweep", str(spec), "--out", str(root / "sweep")]
    return [*cmd, "--display", "off"]


if __name__ == "__main__":
    main()
