"""What a sweep costs over a single run of the same episodes: E episodes over C cells against one run of E.

Both phases use the loopback model (`fake:steps:N`: N trivial commands then a submission, `--latency-ms`
per call), ACE rounds 0, one sample of the fixture dataset, the same total concurrency, each in a fresh
`repozero` process timed end to end (process start, sessions opened, episodes, stores closed):

- run: `repozero run --attempts E --concurrency K`;
- sweep: a spec whose C cells differ only in `agent.step_limit` (above N, so every episode does the same
  work), E / C attempts each, `run.concurrency = K` in `[infra]` — the same E episodes, K at once in all.

The last line is `sweep_overhead: <sweep wall / run wall>` (target ≤ 1.05).

    python benchmarks/sweep_overhead.py [--episodes 400] [--cells 8] [--latency-ms 1000] [--concurrency 200]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DATASET = str(Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm")
SAMPLE = "fx-slug"


def timed(cmd: list[str]) -> float:
    started = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--cells", type=int, default=8)
    parser.add_argument("--latency-ms", type=float, default=1000)
    parser.add_argument("--concurrency", type=int, default=200)
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    if args.episodes % args.cells:
        sys.exit("--episodes must be a multiple of --cells")
    model = f"fake:steps:{args.steps}"
    common = ["--set", f"run.fake_latency_ms={args.latency_ms}", "--set", "traces.fsync=false"]
    with tempfile.TemporaryDirectory(prefix="rz-sweep-bench-") as tmp:
        root = Path(tmp)
        run_cmd = [
            sys.executable,
            "-m",
            "repozero",
            *common,
            "run",
            "--dataset",
            DATASET,
            "--samples",
            SAMPLE,
        ]
        run_cmd += ["--model", model, "--ace-rounds", "0", "--attempts", str(args.episodes)]
        run_cmd += ["--concurrency", str(args.concurrency), "--display", "off", "--out", str(root / "run")]
        run_s = timed(run_cmd)
        limits = ", ".join(str(50 + n) for n in range(args.cells))
        spec = root / "spec.toml"
        spec.write_text(
            f'dataset = "{DATASET}"\nsamples = ["{SAMPLE}"]\nattempts = {args.episodes // args.cells}\n'
            f'[axes]\n"agent.step_limit" = [{limits}]\n[fixed]\nmodel = "{model}"\nace_rounds = 0\n'
            f'[infra]\n"run.concurrency" = {args.concurrency}\n'
        )
        sweep_s = timed(
            [sys.executable, "-m", "repozero", *common, "sweep", str(spec), "--out", str(root / "sweep")]
        )
    print(
        f"episodes: {args.episodes} ({args.cells} cells), latency {args.latency_ms:.0f} ms, concurrency {args.concurrency}"
    )
    print(f"run_wall_s: {run_s:.1f}")
    print(f"sweep_wall_s: {sweep_s:.1f}")
    print(f"sweep_overhead: {sweep_s / run_s:.3f}")


if __name__ == "__main__":
    main()
