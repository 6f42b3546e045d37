"""Sandbox command latency: a trivial command through the persistent shell vs a fresh sandboxed process per
command (what a `docker exec` per command is to a container), measured in the same run.

    python benchmarks/sandbox_latency.py [--part local|docker|all] [--shell-commands N] [--fresh-commands N]

Each part is an async function in `PARTS` returning `(metric, value)` pairs; `--part all` runs them in
order. Prints `<metric>: <number>` lines; with the local part the last line is `local_shell_speedup`
(fresh-process time per command / shell round trip).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Awaitable, Callable

import anyio

from repozero.log import configure_logging
from repozero.runtime import run_async
from repozero.sandbox import LocalBackend, Sandbox, SandboxSpec

Figures = list[tuple[str, float]]


async def _per_call_ms(call: Callable[[], Awaitable[object]], n: int) -> float:
    """Median wall time of `call`, in milliseconds, over `n` calls (after a few warm-up calls)."""
    for _ in range(min(5, n)):
        await call()
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        await call()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


async def _shell_vs_fresh(box: Sandbox, prefix: str, shell_n: int, fresh_n: int) -> Figures:
    async def shell() -> None:
        result = await box.shell("true")
        assert result.exit_code == 0 and not result.restarted, result

    async def fresh() -> None:
        result = await box.exec(["true"])
        assert result.exit_code == 0, result

    shell_ms = await _per_call_ms(shell, shell_n)
    fresh_ms = await _per_call_ms(fresh, fresh_n)
    return [
        (f"{prefix}_shell_roundtrip_ms", shell_ms),
        (f"{prefix}_fresh_process_ms", fresh_ms),
        (f"{prefix}_shell_speedup", fresh_ms / shell_ms),
    ]


async def local_part(args: argparse.Namespace) -> Figures:
    backend = LocalBackend()
    iso = await backend.isolation()

    async def host_process() -> None:
        await anyio.run_process(["true"])

    host_ms = await _per_call_ms(host_process, args.fresh_commands)
    async with backend.open(SandboxSpec(run_id="bench", sample="sandbox-latency")) as box:
        figures = await _shell_vs_fresh(box, "local", args.shell_commands, args.fresh_commands)
    speedup = figures.pop()
    return [
        ("local_isolation_namespaces", float(iso.namespaces)),
        ("local_unsandboxed_process_ms", host_ms),
        *figures,
        ("local_shell_vs_unsandboxed_process", host_ms / figures[0][1]),
        speedup,
    ]


PARTS: dict[str, Callable[[argparse.Namespace], Awaitable[Figures]]] = {
    "local": local_part,
}
"""Benchmark parts in the order `--part all` runs them (the Docker backend adds its own)."""


async def main(args: argparse.Namespace) -> None:
    parts = list(PARTS) if args.part == "all" else [args.part]
    for name in parts:
        for metric, value in await PARTS[name](args):
            print(f"{metric}: {value:.4g}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="local", help=f"one of {', '.join(PARTS)}, or all")
    parser.add_argument("--shell-commands", type=int, default=2000)
    parser.add_argument("--fresh-commands", type=int, default=100)
    arguments = parser.parse_args()
    if arguments.part != "all" and arguments.part not in PARTS:
        parser.error(f"--part: expected one of {', '.join(PARTS)} or all")
    configure_logging(level="warning")
    run_async(main, arguments)
