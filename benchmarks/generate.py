"""How much `repozero dataset generate` gains by running programs × cases concurrently.

Generates a 10-program dataset of `roman==4.2` with the loopback model (`fake:generate`, writer and three
voters) answering every call after 1 s (`run.fake_latency_ms=1000`), through the real Oracle (20 repeats).
The baseline is what the same model calls would cost one after another: the sum of their latencies, read
from the run's own traces. The Oracle's work (verdict cache off: new programs never hit it) counts in the
wall time but not in the baseline, so on a loaded machine the ratio understates the model-side gain.

    python benchmarks/generate.py               # --files 10 --cases 20
    python benchmarks/generate.py --quick       # --files 4 --cases 12, a smoke run
    python benchmarks/generate.py --reference   # also the same run with instant answers (Oracle alone)

The last line is `generate_parallel_speedup: <serial model latency sum / wall time>`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import msgspec

from repozero.config_file import load_config
from repozero.kernel.log import configure_logging
from repozero.kernel.runtime import run_async
from repozero.orchestrator.generate import GenerateSettings, GenerateSummary, generate_dataset
from repozero.traces import TraceReader
from repozero.traces.records import ModelCallRecord

VOTERS = ["fake:generate"] * 3


async def _generate(out: Path, files: int, cases: int, latency_ms: int) -> tuple[GenerateSummary, float]:
    config = load_config(None, [f"run.fake_latency_ms={latency_ms}", "oracle.cache=false"])
    settings = GenerateSettings(
        source="roman==4.2", model="fake:generate", voters=VOTERS, files=files, api_calls=(1, 10), cases=cases,
        repeats=config.oracle.repeats,
    )  # fmt: skip
    started = time.monotonic()
    summary = await generate_dataset(config, settings, out, display="off")
    return summary, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--reference", action="store_true", help="also run once with instant answers")
    args = parser.parse_args()
    files, cases = (4, 12) if args.quick else (10, 20)
    configure_logging(level="warning")
    with tempfile.TemporaryDirectory(prefix="rz-bench-generate-") as tmp:
        out = Path(tmp) / "roman"
        summary, wall = run_async(_generate, out, files, cases, 1000)
        reference = (
            run_async(_generate, Path(tmp) / "instant", files, cases, 0)[1] if args.reference else None
        )
        reader = TraceReader(out.with_name("roman.generate") / "traces")
        calls = [r for s in reader.shards() for r in reader.records(s) if isinstance(r, ModelCallRecord)]
    serial = sum(c.timing.latency_s for c in calls)
    print(f"programs: {files} written, {summary.kept} kept; cases kept {summary.cases.get('kept', 0)}")
    print(
        f"model calls: {len(calls)} (summary {summary.model_calls}); their latencies, summed: {serial:.1f} s"
    )
    print(
        f"wall time (Oracle included, verdict cache off): {wall:.1f} s; load average {os.getloadavg()[0]:.1f}"
    )
    if reference is not None:
        print(
            f"the same with instant answers: {reference:.1f} s (model calls added {wall - reference:.1f} s)"
        )
    print(msgspec.json.encode(summary.stages).decode(), file=sys.stderr)
    print(f"generate_parallel_speedup: {serial / wall:.2f}")


if __name__ == "__main__":
    main()
