"""Oracle throughput: fork servers against one fresh interpreter per run, on the same workload and filter.

Workload: every case of a fixed set of samples (default: `slugify-basic` and `humanize-numbers` of the
built-in `py2js-lite`, real pinned PyPI packages; `--dataset tests/fixtures/oracle/mini --samples '*'`
runs the Oracle's small stdlib-only fixture instead), N = 20, cache off. Both paths use the same venvs,
the same two-pass filter (two repeats, then the rest for survivors), the same clock shifts on odd
repeats and the same parallelism (one run per CPU); both must reach identical verdicts and identical
stdout bytes. Servers start inside the timed window; creating the venvs does not (both paths share them).

Also measured: why repeats must not share a server — 20 forks of one server against 20 fresh servers,
counting distinct outputs of a set-order program and an id() program.

The fork path runs as the Oracle runs by default — its servers in a local sandbox per environment; the
same fork servers on the host are run too (`sandbox_cost_ratio`: sandboxed over host time per run), and
all three paths must agree.

Native line (`--native`, on by default): the C2Rust fixture's C program (`tests/fixtures/c2rust`, real
gcc and Debian's inih) grounded by the Oracle — compiled once before the clock, exec servers started inside
the timed window, N repeats of every case through the same filter — against a bare shell loop that execs
the same binary the same number of times (stdin from a file, stdout discarded). Prints
`native_oracle_overhead` (Oracle wall time over the loop's; lower is better): there is no interpreter
start-up to amortise, so this is the price of the filter, the protocol and the sandbox.

Prints `<metric>: <number>` lines; the last is `oracle_speedup` (wall time per run, exec over fork).
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import resource
import shlex
import sys
import tempfile
import time
from pathlib import Path

import anyio
from msgspec.structs import replace

from repozero.datasets import Dataset, Sample, load_dataset
from repozero.kernel.runtime import run_async
from repozero.oracle import (
    GroundTruthRequest,
    OracleConfig,
    Verdict,
    env_spec,
    open_oracle,
    program_ref,
    sample_request,
)
from repozero.oracle.config import cache_root
from repozero.oracle.direct import run_fresh
from repozero.oracle.filter import decide, early_drop
from repozero.oracle.native_env import LocalNativeEnvironment
from repozero.oracle.server import Batch, ForkServer
from repozero.oracle.source_env import LocalVenvEnvironment, LocalVenvProvider
from repozero.sandbox import CaseInput

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "oracle"
Key = tuple[str, str]


def _request(dataset: Dataset, sample: Sample, config: OracleConfig, repeats: int) -> GroundTruthRequest:
    return sample_request(
        dataset,
        sample,
        sample.cases,
        repeats=repeats,
        timeout_s=config.timeout_s,
        output_cap=config.output_cap,
    )


async def via_oracle(
    dataset: Dataset, config: OracleConfig, repeats: int
) -> tuple[dict[Key, Verdict], int, float]:
    verdicts: dict[Key, Verdict] = {}
    async with open_oracle(config) as oracle:
        for sample in dataset.samples:  # venvs exist before the clock starts (shared with the exec path)
            await oracle.fingerprint(env_spec(sample.source))

        async def one(sample: Sample) -> None:
            request = _request(dataset, sample, config, repeats)
            for case, verdict in zip(
                request.cases, await oracle.ground_truth(request, use_cache=False), strict=True
            ):
                verdicts[(sample.id, case.id)] = verdict

        started = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for sample in dataset.samples:
                tg.start_soon(one, sample)
        elapsed = time.perf_counter() - started
    return verdicts, oracle.stats.runs, elapsed


async def via_exec(
    dataset: Dataset, config: OracleConfig, repeats: int
) -> tuple[dict[Key, Verdict], int, float]:
    provider = LocalVenvProvider(cache_root(config), config.faketime_lib)
    limiter = anyio.CapacityLimiter(config.parallel or os.cpu_count() or 1)
    verdicts: dict[Key, Verdict] = {}
    runs = 0

    async def repeat(
        env: LocalVenvEnvironment, request: GroundTruthRequest, case: CaseInput, r: int, out: list
    ) -> None:
        nonlocal runs
        shift = (
            config.clock_shifts[(r // 2) % len(config.clock_shifts)] if r % 2 and config.clock_shifts else ""
        )
        async with limiter:
            out.append(
                await run_fresh(env, request.program, case, timeout_s=request.timeout_s,
                                output_cap=request.output_cap, stderr_cap=config.stderr_cap, clock_shift=shift)
            )  # fmt: skip
        runs += 1

    async def one_case(
        env: LocalVenvEnvironment, request: GroundTruthRequest, sample: Sample, case: CaseInput
    ) -> None:
        results: list = []
        first = min(config.probe_repeats, repeats)
        for span in (range(first), range(first, repeats)):
            async with anyio.create_task_group() as tg:
                for r in span:
                    tg.start_soon(repeat, env, request, case, r, results)
            dropped = early_drop(case.id, results, request.timeout_s, request.output_cap)
            if dropped is not None:
                verdicts[(sample.id, case.id)] = dropped
                return
        verdicts[(sample.id, case.id)] = decide(case.id, results, request.timeout_s, request.output_cap)

    requests = [(s, _request(dataset, s, config, repeats)) for s in dataset.samples]
    envs = {s.id: provider.environment(env_spec(s.source)) for s in dataset.samples}
    for env in envs.values():
        await env.prepare()
    started = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for sample, request in requests:
            for case in request.cases:
                tg.start_soon(one_case, envs[sample.id], request, sample, case)
    return verdicts, runs, time.perf_counter() - started


async def fork_effect(config: OracleConfig, script: str, count: int) -> tuple[int, int]:
    """Distinct outputs: `count` forks of one server, then one run on each of `count` fresh servers."""
    env = LocalVenvProvider(cache_root(config)).environment(
        env_spec(load_dataset(FIXTURES / "mini").samples[0].source)
    )
    await env.prepare()
    ref = program_ref(FIXTURES / "planted", script)
    batch = Batch(await env.stage_program(ref), ref, 5.0, 4096, 4096)
    cases = [CaseInput(id=str(i), argv=[]) for i in range(count)]
    one = await ForkServer.start(env, 0, "")
    try:
        same = {r.stdout for r in await one.run(batch, cases)}
    finally:
        await one.aclose()
    spread = set()
    for index in range(count):
        server = await ForkServer.start(env, index, "")
        try:
            spread.update(r.stdout for r in await server.run(batch, cases[:1]))
        finally:
            await server.aclose()
    return len(same), len(spread)


def _same(a: Verdict, b: Verdict) -> bool:
    return (a.reason, a.stdout, a.exit_code) == (b.reason, b.stdout, b.exit_code)


def _cpu_s() -> float:
    """CPU seconds of this process and of every descendant it has reaped (servers reap their forks)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


async def native_overhead(config: OracleConfig, repeats: int) -> tuple[int, float, float, bool]:
    """(runs, Oracle seconds, bare exec loop seconds, all kept) on the C2Rust fixture's C program."""
    dataset = load_dataset(ROOT / "tests" / "fixtures" / "c2rust")
    sample = dataset.samples[0]
    request = sample_request(dataset, sample, sample.kept_cases, repeats=repeats, timeout_s=config.timeout_s,
                             output_cap=config.output_cap)  # fmt: skip
    async with open_oracle(config) as oracle:  # compile (cached by content) before the clock starts
        await oracle.ground_truth(replace(request, cases=request.cases[:1], repeats=1), use_cache=False)
    async with open_oracle(config) as oracle:
        started = time.perf_counter()
        verdicts = await oracle.ground_truth(request, use_cache=False)
        oracle_s = time.perf_counter() - started
    env = LocalNativeEnvironment(request.env, cache_root(config))
    exe = Path(await env.stage_program(request.program)) / "exe"
    with tempfile.TemporaryDirectory() as scratch:
        lines = []
        for case in request.cases:
            stdin = Path(scratch) / f"{case.id}.in"
            stdin.write_bytes(case.stdin or b"")
            line = " ".join(shlex.quote(a) for a in [str(exe), *case.argv]) + f" <{stdin} >/dev/null"
            lines += [line] * repeats
        script = Path(scratch) / "loop.sh"
        script.write_text("\n".join(lines) + "\n")
        started = time.perf_counter()
        await anyio.run_process(["sh", str(script)], cwd=scratch, check=True)
        loop_s = time.perf_counter() - started
    return len(request.cases) * repeats, oracle_s, loop_s, all(v.kept for v in verdicts)


async def main(args: argparse.Namespace) -> int:
    config = OracleConfig(cache=False, servers=max(20, args.repeats), cache_dir=args.cache_dir or "")
    dataset = load_dataset(args.dataset)
    if args.samples:
        wanted = args.samples.split(",")
        dataset.samples = [s for s in dataset.samples if any(fnmatch.fnmatchcase(s.id, w) for w in wanted)]
    cpu = _cpu_s()
    fork, fork_runs, fork_s = await via_oracle(dataset, config, args.repeats)
    fork_cpu, cpu = _cpu_s() - cpu, _cpu_s()
    fresh, exec_runs, exec_s = await via_exec(dataset, config, args.repeats)
    exec_cpu = _cpu_s() - cpu
    on_host, host_runs, host_s = await via_oracle(dataset, replace(config, isolation="host"), args.repeats)
    identical = fork.keys() == fresh.keys() and all(_same(fork[k], fresh[k]) for k in fork)
    identical = identical and all(_same(fork[k], on_host[k]) for k in fork)
    kept = sum(v.kept for v in fork.values())
    print(f"workload_samples: {len(dataset.samples)}")
    print(f"workload_cases: {len(fork)}")
    print(f"workload_kept: {kept}")
    print(f"repeats: {args.repeats}")
    print(f"runs_fork: {fork_runs}")
    print(f"runs_exec: {exec_runs}")
    print(f"verdicts_and_bytes_identical: {int(identical)}")
    for script, name in (("set_order.py", "set_orders"), ("id_object.py", "ids")):
        same, spread = await fork_effect(config, script, args.effect_runs)
        print(f"distinct_{name}_forks_of_one_server: {same}")
        print(f"distinct_{name}_fresh_servers: {spread}")
    print(f"cpu_ms_per_run_fork: {fork_cpu / fork_runs * 1000:.2f}")
    print(f"cpu_ms_per_run_exec: {exec_cpu / exec_runs * 1000:.2f}")
    print(f"cpu_speedup: {(exec_cpu / exec_runs) / (fork_cpu / fork_runs):.1f}")
    print(f"seconds_fork: {fork_s:.2f}")
    print(f"seconds_exec: {exec_s:.2f}")
    print(f"ms_per_run_fork: {fork_s / fork_runs * 1000:.2f}")
    print(f"ms_per_run_exec: {exec_s / exec_runs * 1000:.2f}")
    print(f"ms_per_run_fork_on_host: {host_s / host_runs * 1000:.2f}")
    print(f"sandbox_cost_ratio: {(fork_s / fork_runs) / (host_s / host_runs):.2f}")
    if args.native:
        runs, oracle_s, loop_s, native_kept = await native_overhead(config, args.repeats)
        identical = identical and native_kept
        print(f"native_runs: {runs}")
        print(f"native_seconds_oracle: {oracle_s:.2f}")
        print(f"native_seconds_exec_loop: {loop_s:.2f}")
        print(f"native_oracle_overhead: {oracle_s / loop_s:.2f}")
    print(f"oracle_speedup: {(exec_s / exec_runs) / (fork_s / fork_runs):.1f}")
    return 0 if identical else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dataset", default="builtin:py2js-lite", help="dataset folder or builtin:NAME")
    parser.add_argument(
        "--samples", default="slugify-basic,humanize-numbers", help="comma-separated globs of sample ids"
    )
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--effect-runs", type=int, default=20)
    parser.add_argument(
        "--native", action=argparse.BooleanOptionalAction, default=True, help="also the C2Rust native line"
    )
    parser.add_argument("--cache-dir", help="venv cache (default: the Oracle's usual cache dir)")
    from repozero.kernel.log import configure_logging

    configure_logging(level="warning")
    sys.exit(run_async(main, parser.parse_args()))
