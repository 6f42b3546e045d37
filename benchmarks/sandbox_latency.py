"""Sandbox command latency: a trivial command through the persistent shell vs a fresh sandboxed process per
command (what a `docker exec` per command is to a container), measured in the same run.

    python benchmarks/sandbox_latency.py [--part local|docker|all] [--shell-commands N] [--fresh-commands N]

Each part is an async function in `PARTS` returning `(metric, value)` pairs; `--part all` runs them in
order. Prints `<metric>: <number>` lines; with the local part the last line is `local_shell_speedup`
(fresh-process time per command / shell round trip); with the docker part (last under `all`) it is
`shell_speedup_vs_docker_exec` (a `docker exec` through the Docker CLI / a persistent-shell round trip),
after the warm-pool acquire time against a cold container start. `--part storm` (not in `all`) opens N
sandboxes for each N in `--storm` and starts all their shells at once: wall and whole-machine CPU per
sandbox, what grows with the count; its last line is `local_first_shell_cpu_<last>_over_<first>`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import time
from collections.abc import Awaitable, Callable

import anyio

from repozero.kernel.log import configure_logging
from repozero.kernel.runtime import run_async
from repozero.sandbox import LocalBackend, Sandbox, SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker import DockerBackend

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


async def _open_close_ms(backend: LocalBackend, n: int) -> float:
    """Wall time per sandbox to open and close `n` sandboxes at once, each left with a background job."""

    async def one(i: int) -> None:
        async with backend.open(SandboxSpec(run_id="bench", sample=f"open-close-{i}")) as box:
            await box.exec(["sh", "-c", "sleep 30 & true"])

    start = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(n):
            tg.start_soon(one, i)
    return (time.perf_counter() - start) * 1000 / n


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
        ("local_open_close_200_concurrent_ms_per_sandbox", await _open_close_ms(backend, 200)),
        speedup,
    ]


def _machine_busy_ticks() -> int:
    """Clock ticks every core of the machine has been busy (not idle, not waiting on I/O) so far."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:9]]
    return sum(ticks) - ticks[3] - ticks[4]


async def _first_shells(backend: LocalBackend, n: int) -> tuple[float, float]:
    """Open `n` sandboxes; once all are open, every one runs its first shell command at once (each starts
    its shell: the launcher's fork, bwrap, bash). Returns (wall ms per sandbox until the last answered,
    the whole machine's CPU ms per sandbox over the same span)."""
    opened, answered, release = anyio.Event(), anyio.Event(), anyio.Event()
    counts = [0, 0]

    async def one(i: int) -> None:
        async with backend.open(SandboxSpec(run_id="bench", sample=f"storm-{i}")) as box:
            counts[0] += 1
            if counts[0] == n:
                opened.set()
            await opened.wait()
            result = await box.shell("echo ready", timeout_s=300)
            assert result.stdout == b"ready\n", result
            counts[1] += 1
            if counts[1] == n:
                answered.set()
            await release.wait()

    async with anyio.create_task_group() as tg:
        for i in range(n):
            tg.start_soon(one, i)
        await opened.wait()
        start, busy = time.perf_counter(), _machine_busy_ticks()
        await answered.wait()
        wall, busy = time.perf_counter() - start, _machine_busy_ticks() - busy
        release.set()
    return wall * 1000 / n, busy / os.sysconf("SC_CLK_TCK") * 1000 / n


async def storm_part(args: argparse.Namespace) -> Figures:
    """What grows with the count: N sandboxes' first shells at once, for each N in `--storm`."""
    backend = LocalBackend()
    figures: Figures = []
    for n in args.storm:
        wall_ms, cpu_ms = await _first_shells(backend, n)
        figures += [
            (f"local_first_shells_{n}_ms_per_sandbox", wall_ms),
            (f"local_first_shells_{n}_cpu_ms", cpu_ms),
        ]
    first, last = figures[1][1], figures[-1][1]
    return [*figures, (f"local_first_shell_cpu_{args.storm[-1]}_over_{args.storm[0]}", last / first)]


async def _acquire_ms(backend: DockerBackend, spec: SandboxSpec, n: int, *, warm: bool) -> float:
    """Median time to enter a sandbox: from a full warm pool, or a cold container start."""
    samples = []
    for _ in range(n):
        if warm:
            await backend.prewarm(spec)  # the pool is full again before each sample
        start = time.perf_counter()
        async with backend.open(spec) as box:
            samples.append(time.perf_counter() - start)
            assert box.id
    return statistics.median(samples) * 1000


async def docker_part(args: argparse.Namespace) -> Figures:
    """Docker: persistent shell vs a `docker exec` through the CLI; warm acquire vs a cold start."""
    spec = SandboxSpec(run_id="bench", sample="sandbox-latency")
    docker_cli = shutil.which("docker") or "docker"
    async with DockerBackend(SandboxConfig(docker_pool_size=2), run_id=f"bench-{os.getpid()}") as backend:
        async with backend.open(spec) as box:
            figures = await _shell_vs_fresh(box, "docker", args.shell_commands, args.fresh_commands)
            container = box.id

            async def cli_exec() -> None:
                result = await anyio.run_process([docker_cli, "exec", container, "true"])
                assert result.returncode == 0, result

            cli_ms = await _per_call_ms(cli_exec, args.fresh_commands)
        warm_ms = await _acquire_ms(backend, spec, args.acquires, warm=True)
    async with DockerBackend(SandboxConfig(docker_pool_size=0), run_id=f"bench-cold-{os.getpid()}") as cold:
        cold_ms = await _acquire_ms(cold, spec, args.acquires, warm=False)
    shell_ms = figures[0][1]
    return [
        *figures[:2],  # shell round trip, a fresh exec through the API
        ("docker_cli_exec_ms", cli_ms),
        ("docker_cold_start_ms", cold_ms),
        ("docker_warm_acquire_ms", warm_ms),
        ("docker_warm_vs_cold_speedup", cold_ms / warm_ms),
        ("shell_speedup_vs_docker_exec", cli_ms / shell_ms),
    ]


PARTS: dict[str, Callable[[argparse.Namespace], Awaitable[Figures]]] = {
    "local": local_part,
    "docker": docker_part,
    "storm": storm_part,
}
"""Benchmark parts in the order `--part all` runs them (the Docker backend adds its own)."""


async def main(args: argparse.Namespace) -> None:
    parts = [p for p in PARTS if p != "storm"] if args.part == "all" else [args.part]
    for name in parts:
        for metric, value in await PARTS[name](args):
            print(f"{metric}: {value:.4g}", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", default="local", help=f"one of {', '.join(PARTS)}, or all")
    parser.add_argument("--shell-commands", type=int, default=2000)
    parser.add_argument("--fresh-commands", type=int, default=100)
    parser.add_argument(
        "--acquires", type=int, default=10, help="docker: sandboxes entered, warm and cold each"
    )
    parser.add_argument(
        "--storm",
        type=lambda v: [int(n) for n in v.split(",")],
        default=[100, 300, 1000],
        help="storm: sandboxes whose first shells start at once, comma-separated (default 100,300,1000)",
    )
    arguments = parser.parse_args()
    if arguments.part != "all" and arguments.part not in PARTS:
        parser.error(f"--part: expected one of {', '.join(PARTS)} or all")
    configure_logging(level="warning")
    run_async(main, arguments)
