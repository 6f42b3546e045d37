"""Hundreds of concurrent episodes on one machine: the orchestrator against a bare loop, same server, same run.

The loopback model server runs in its OWN process (`repozero fake-llm serve`, 1 s latency, policy
`steps:N-1`: N-1 trivial commands, `echo step K`, then the submission — N model calls per episode). Two
phases, each in a fresh process, drive E episodes at once against it:

- bare: the same HTTP client (`open_models`, token ids requested) and the same persistent shells in the
  same sandboxes, in a plain async loop — no events, no traces, no results store, no action log;
- orchestrator: `repozero run` in-process (`start_run`, `--ace-rounds 0`, `--concurrency E`, plain
  progress lines, info logging), one sample × E attempts, `limits.sandboxes.local=E` (the default cap,
  RAM / 48 MiB, is below 1,000 here: a second wave of episodes would measure the cap, not the run).

What is measured, plainly: `*_wall_s` is the agent phase — from the moment episodes may start (bare: the
backend and client are open; orchestrator: `RunStarted`, after the Docker pool was pre-warmed) until the
last agent submitted; it includes opening every sandbox and all steps. The policy writes no code, so
grading finds no entry point, runs no Node and opens no grading sandbox; the time from
the last submission to the end of the run — grading, snapshots, closing sandboxes, stores — is printed
apart as `orchestrator_tail_s` (and `bare_close_s` for the bare loop), not hidden in the ratio. Grading
throughput with Node is `benchmarks/grade_throughput.py`'s business. The ideal is N × latency.

RSS per in-flight episode: (peak RSS while episodes run − RSS when they may start) / peak in flight, in
each phase's own process (the server and the sandboxes' shells are other processes). Also printed: the
orchestrator's CPU seconds in the agent phase and its peak of open descriptors (against the soft limit the
run lifted it to) — what grows with the count besides time — and how busy the whole machine's cores were
over the agent phase (`*_machine_cpu_busy`, 0..1): near 1, the run waits for CPU, not for the model — and
the CPU the model server itself spent serving each phase (`model_server_cpu_s_*`: the ideal assumes a
server that costs nothing; on 2 cores it shares them with everyone). The CPU budget:
`*_machine_cpu_core_s` is the CPU the whole machine spent over the agent phase (every process and the
kernel: this one, the model server, the sandbox launcher, bwrap, the shells), `cpu_capacity_at_ideal_core_s`
what its cores give in the ideal wall, and `*_cpu_floor_over_ideal` their quotient — the wall over ideal
that the CPU spent needs by itself, scheduled perfectly: where it is above the target, no event loop
reaches the target on this machine.

    python benchmarks/concurrency.py [--episodes 250] [--steps 20] [--latency-ms 1000]
    python benchmarks/concurrency.py --docker          # 100 episodes in Docker sandboxes, pool pre-warmed
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import anyio

DATASET = str(Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm")
SAMPLE = "fx-slug"
_PAGE = os.sysconf("SC_PAGE_SIZE")


def cpu_s() -> float:
    """CPU seconds (user + system) of this process so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * _PAGE


def process_cpu_s(pid: int) -> float:
    """CPU seconds (user + system) another process of ours has used so far (the model server)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_jiffies() -> tuple[int, int]:
    """(busy, total) CPU time of the whole machine so far, in clock ticks, from /proc/stat."""
    with open("/proc/stat") as f:
        ticks = [int(v) for v in f.readline().split()[1:9]]
    return sum(ticks) - ticks[3] - ticks[4], sum(ticks)  # idle and iowait are not busy


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


class Sampler:
    """Peak RSS of this process, sampled every 50 ms by a thread (measurement only), and its peak count of
    open descriptors every 2 s (listing thousands of them costs milliseconds)."""

    def __init__(self) -> None:
        self.base = rss()
        self.peak = self.base
        self.fds_peak = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.cpu0 = self.cpu = 0.0
        self.machine0 = self.machine1 = (0, 0)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.cpu0 = cpu_s()
        self.machine0 = self.machine1 = machine_jiffies()
        self.base = self.peak = rss()
        self._thread.start()

    def _run(self) -> None:
        ticks = 0
        while not self._stop.wait(0.05):
            self.peak = max(self.peak, rss())
            ticks += 1
            if ticks % 40 == 0:
                self.fds_peak = max(self.fds_peak, open_fds())

    def stop(self) -> None:
        self.cpu = cpu_s() - self.cpu0
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, rss())

    def agent_done(self) -> None:
        self.machine1 = machine_jiffies()

    def machine_busy(self) -> float:
        """How busy the machine's cores were (0..1) from the start to the last agent's end: near 1, the
        run waits for CPU (everyone's: this process, the model server, the sandboxes' processes, the
        kernel), not for the model."""
        busy = self.machine1[0] - self.machine0[0]
        return busy / max(self.machine1[1] - self.machine0[1], 1)

    def machine_core_s(self) -> float:
        """CPU seconds the whole machine spent (all cores, every process, the kernel) over the same span:
        what the agent phase cost, wherever it ran."""
        return (self.machine1[0] - self.machine0[0]) / os.sysconf("SC_CLK_TCK")

    def per_episode_mib(self) -> float:
        return (self.peak - self.base) / max(self.peak_in_flight, 1) / (1 << 20)


def endpoint(url: str, steps: int, connections: int, token_ids: bool = True, stream: bool = True) -> Any:
    """The server as a configured endpoint; token ids and logprobs asked for, as RL capture does, and
    answers streamed (the default); `stream=False` asks for whole responses."""
    import msgspec

    from repozero.agents.fakellm import fake_endpoint

    config = fake_endpoint(url, f"steps:{steps - 1}", connections=connections)
    config = config if token_ids else msgspec.structs.replace(config, extra_body={})
    return config if stream else msgspec.structs.replace(config, stream=False)


# --- phase: bare loop --------------------------------------------------------------------------------------


async def bare_phase(
    url: str, episodes: int, steps: int, docker: bool, token_ids: bool, stream: bool = True
) -> dict[str, Any]:
    from repozero.agents.models import open_models
    from repozero.config_file import load_config
    from repozero.datasets import load_dataset
    from repozero.sandbox import SandboxSpec, open_backend

    config = load_config(None, _sandbox_overrides(docker, episodes))
    dataset = load_dataset(DATASET)
    sampler = Sampler()
    spec = SandboxSpec(toolchain="node", run_id=f"bare-{os.getpid()}", sample=SAMPLE, role="coder")
    async with (
        open_models({"bench": endpoint(url, steps, episodes, token_ids, stream)}) as models,
        open_backend(config.sandbox, "docker" if docker else "local", run_id=spec.run_id) as backend,
    ):
        if docker:
            await backend.prewarm(spec)  # type: ignore[attr-defined]
        sampler.start()
        started = time.monotonic()
        stats = Stats()
        async with anyio.create_task_group() as tg:
            for n in range(episodes):
                tg.start_soon(_bare_episode, models, backend, dataset, spec, n, sampler, stats)
        closed = time.monotonic()
        sampler.stop()
    return {
        "wall_s": max(stats.submitted) - started,
        "close_s": closed - max(stats.submitted),
        "episodes": len(stats.submitted),
        "model_calls": len(stats.call_s),
        "cpu_s": sampler.cpu,
        "model_call_mean_s": sum(stats.call_s) / len(stats.call_s),
        "sandboxes_open_after_s": max(stats.opened) - started,
        "machine_busy": sampler.machine_busy(),
        "machine_core_s": sampler.machine_core_s(),
        "rss_per_episode_mib": sampler.per_episode_mib(),
        "peak_in_flight": sampler.peak_in_flight,
        "rss_base_mib": sampler.base / (1 << 20),
        "fds_peak": sampler.fds_peak,
    }


class Stats:
    def __init__(self) -> None:
        self.submitted: list[float] = []
        self.opened: list[float] = []
        self.call_s: list[float] = []


async def _bare_episode(
    models: Any, backend: Any, dataset: Any, spec: Any, n: int, sampler: Sampler, stats: Stats
) -> None:
    from repozero.agents.models import Message
    from repozero.agents.roles import coder_system, coder_task, task_view
    from repozero.agents.scaffolds.bash import extract_blocks
    from repozero.agents.scaffolds.core import SUBMIT_COMMAND, render_exec

    async with backend.open(spec) as box:
        stats.opened.append(time.monotonic())
        sampler.in_flight += 1
        sampler.peak_in_flight = max(sampler.peak_in_flight, sampler.in_flight)
        task = coder_task(task_view(dataset, SAMPLE), scaffold="bash", workdir=box.workdir)
        messages = [
            Message(role="system", content=coder_system("bash", box.workdir)),
            Message(role="user", content=task),
        ]
        session = models.session("bench", f"bare-{n}")
        for _ in range(200):
            began = time.monotonic()
            response = await session.complete(messages)
            stats.call_s.append(time.monotonic() - began)
            messages.append(response.message)
            command = extract_blocks(response.message.content)[0].strip()
            if command == SUBMIT_COMMAND:
                break
            result = await box.shell(command, timeout_s=120)
            messages.append(Message(role="user", content=render_exec(result, 10_000)[0]))
        stats.submitted.append(time.monotonic())
        sampler.agent_done()
        sampler.in_flight -= 1


# --- phase: the orchestrator ---------------------------------------------------------------------------------


class Probe:
    """A sink on the run's bus: when episodes may start, agents' ends, episodes in flight."""

    def __init__(self, sampler: Sampler) -> None:
        self.sampler = sampler
        self.started = self.started_unix = 0.0
        self.agents_done: list[float] = []
        self.agents_cpu_s = 0.0
        """This process's CPU seconds from `RunStarted` to the last coder's end (the agent phase)."""

    def emit(self, event: Any) -> None:
        kind = type(event).__name__
        if kind == "RunStarted":
            self.sampler.start()
            self.started = time.monotonic()
            self.started_unix = time.time()
        elif kind == "AgentFinished" and event.agent.role == "coder":
            self.agents_done.append(time.monotonic())
            self.sampler.agent_done()
            self.agents_cpu_s = cpu_s() - self.sampler.cpu0
        elif kind == "EpisodeStarted":
            self.sampler.in_flight += 1
            self.sampler.peak_in_flight = max(self.sampler.peak_in_flight, self.sampler.in_flight)
        elif kind in ("EpisodeFinished", "EpisodeScored"):  # a run emits the subclass EpisodeScored
            self.sampler.in_flight -= 1


def orchestrator_phase(
    url: str, episodes: int, steps: int, docker: bool, out: Path, token_ids: bool = True, stream: bool = True
) -> dict[str, Any]:
    import msgspec

    from repozero.config_file import load_config
    from repozero.kernel.log import configure_logging
    from repozero.orchestrator.engine.results import ResultsStore
    from repozero.orchestrator.engine.run import start_run
    from repozero.orchestrator.engine.spec import RunSpec
    from repozero.traces import TraceReader

    configure_logging(level="info")
    config = load_config(None, _sandbox_overrides(docker, episodes))
    bench = endpoint(url, steps, episodes, token_ids, stream)
    config = msgspec.structs.replace(config, endpoints={"bench": bench})
    spec = RunSpec(
        dataset=DATASET, model="bench", scaffold="bash", ace_rounds=0, attempts=episodes, samples=SAMPLE,
        sandbox="docker" if docker else "local", out=str(out), concurrency=episodes,
    )  # fmt: skip
    sampler = Sampler()
    probe = Probe(sampler)
    summary = start_run(config, spec, display="plain", sinks=[probe])
    ended = time.monotonic()
    sampler.stop()
    store = ResultsStore.open_readonly(out / "results.sqlite")
    results = store.episode_results()
    store.close()
    grade_s = sum(r.timings.get("grade", 0.0) for r in results)
    calls, opened = _action_stats(out / "actions.jsonl", probe.started_unix)
    traced = len(list(TraceReader(out / "traces").finished_episodes()))
    return {
        "traced_episodes": traced,
        "model_call_mean_s": sum(calls) / len(calls),
        "model_calls": len(calls),
        "cpu_s": sampler.cpu,
        "agents_cpu_s": probe.agents_cpu_s,
        "sandboxes_open_after_s": opened,
        "machine_busy": sampler.machine_busy(),
        "machine_core_s": sampler.machine_core_s(),
        "wall_s": max(probe.agents_done) - probe.started,
        "tail_s": ended - max(probe.agents_done),
        "episodes": summary.finished,
        "infra_errors": summary.infra_errors,
        "grade_s_per_episode": grade_s / max(len(results), 1),
        "rss_per_episode_mib": sampler.per_episode_mib(),
        "peak_in_flight": sampler.peak_in_flight,
        "rss_base_mib": sampler.base / (1 << 20),
        "fds_peak": sampler.fds_peak,
        "fds_soft_limit": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
    }


def _action_stats(path: Path, started: float) -> tuple[list[float], float]:
    """Model-call durations, and when the last coder sandbox was open (s after start), from the action log."""
    begun: dict[str, tuple[str, float]] = {}
    calls, opened = [], 0.0
    for line in path.read_text().splitlines():
        record = json.loads(line)
        if "op" in record and (record["op"] == "model_call" or record.get("role") == "coder"):
            begun[record["a"]] = (record["op"], record["t"])
        elif "end" in record and record["a"] in begun:
            op, t = begun.pop(record["a"])
            if op == "model_call":
                calls.append(record["end"] - t)
            elif op == "sandbox_open":
                opened = max(opened, record["end"] - started)
    return calls, opened


def _sandbox_overrides(docker: bool, episodes: int) -> list[str]:
    """Every episode holds a sandbox at once: the default cap on open sandboxes (RAM / 48 MiB for local
    ones, 502 on a 23 GiB machine) would run 1,000 episodes in two waves, twice the ideal by itself."""
    if not docker:
        return [f"limits.sandboxes.local={episodes}"]
    return [f"sandbox.docker_pool_size={episodes}", "sandbox.docker_start_concurrency=8"]


# --- the driver ----------------------------------------------------------------------------------------------


def start_server(steps: int, latency_ms: float) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "repozero", "fake-llm", "serve", "--policy", f"steps:{steps - 1}"]
    cmd += ["--dataset", DATASET, "--latency-ms", str(latency_ms), "--log-level", "warning"]
    server = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    if not url.startswith("http://"):
        server.kill()
        raise SystemExit(f"the fake model server did not start (said {url!r})")
    return server, url


def run_phase(phase: str, args: argparse.Namespace, url: str, out: Path) -> dict[str, Any]:
    cmd = [sys.executable, __file__, "--phase", phase, "--url", url, "--episodes", str(args.episodes)]
    cmd += ["--steps", str(args.steps), "--out", str(out)] + (["--docker"] if args.docker else [])
    cmd += [] if getattr(args, "token_ids", True) else ["--no-token-ids"]
    cmd += [] if getattr(args, "stream", True) else ["--no-stream"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"phase {phase} failed:\n{proc.stderr[-4000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int)
    parser.add_argument("--steps", type=int, default=20, help="model calls per episode (the last submits)")
    parser.add_argument("--latency-ms", type=float, default=1000.0)
    parser.add_argument("--docker", action="store_true", help="Docker sandboxes (default 100 episodes)")
    parser.add_argument(
        "--no-token-ids", dest="token_ids", action="store_false", help="plain chat: no token ids or logprobs"
    )
    parser.add_argument(
        "--no-stream", dest="stream", action="store_false", help="whole responses, not streamed (SSE)"
    )
    parser.add_argument("--phase", choices=["bare", "orchestrator"], help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.episodes = args.episodes or (100 if args.docker else 250)
    if args.phase:  # a phase's process is the program's, as `repozero run`'s is (repozero.cli.entry)
        from repozero.kernel.runtime import tune_gc

        tune_gc()
    if args.phase == "bare":
        from repozero.kernel.runtime import run_async

        print(
            json.dumps(
                run_async(
                    bare_phase, args.url, args.episodes, args.steps, args.docker, args.token_ids, args.stream
                )
            )
        )
        return
    if args.phase == "orchestrator":
        phase = orchestrator_phase(
            args.url, args.episodes, args.steps, args.docker, args.out, args.token_ids, args.stream
        )
        print(json.dumps(phase))
        return
    report(args)


def report(args: argparse.Namespace) -> None:
    load = os.getloadavg()[0]
    server, url = start_server(args.steps, args.latency_ms)
    try:
        with tempfile.TemporaryDirectory(prefix="rz-bench-") as tmp:
            server_cpu = [process_cpu_s(server.pid)]
            bare = run_phase("bare", args, url, Path(tmp) / "bare")
            server_cpu.append(process_cpu_s(server.pid))
            orch = run_phase("orchestrator", args, url, Path(tmp) / "run")
            server_cpu.append(process_cpu_s(server.pid))
    finally:
        server.terminate()
        server.wait()
        if server.stdout is not None:
            server.stdout.close()
    ideal = args.steps * args.latency_ms / 1000
    kind = "docker" if args.docker else "local"
    print(f"sandbox_backend_docker: {int(args.docker)}")
    print(f"load_average_1m_before: {load:.2f}")
    print(f"cores: {os.cpu_count()}")
    print(f"episodes: {args.episodes}")
    print(f"model_calls_per_episode: {args.steps}")
    print(f"latency_bound_ideal_s: {ideal:.2f}")
    print(f"bare_wall_s: {bare['wall_s']:.2f}")
    print(f"bare_close_s: {bare['close_s']:.2f}")
    if ideal:
        print(f"bare_wall_over_ideal: {bare['wall_s'] / ideal:.3f}")
    print(f"bare_rss_per_inflight_episode_mib: {bare['rss_per_episode_mib']:.3f}")
    print(f"bare_model_call_mean_s: {bare['model_call_mean_s']:.3f}")
    print(f"bare_sandboxes_open_after_s: {bare['sandboxes_open_after_s']:.2f}")
    print(f"bare_cpu_ms_per_model_call: {1000 * bare['cpu_s'] / bare['model_calls']:.3f}")
    print(f"bare_machine_cpu_busy: {bare['machine_busy']:.3f}")
    print(f"bare_machine_cpu_core_s: {bare['machine_core_s']:.1f}")
    print(f"orchestrator_model_call_mean_s: {orch['model_call_mean_s']:.3f}")
    print(f"orchestrator_cpu_ms_per_model_call: {1000 * orch['cpu_s'] / orch['model_calls']:.3f}")
    print(f"orchestrator_sandboxes_open_after_s: {orch['sandboxes_open_after_s']:.2f}")
    print(f"orchestrator_wall_s: {orch['wall_s']:.2f}")
    print(f"orchestrator_tail_s: {orch['tail_s']:.2f}")
    print(f"orchestrator_grade_s_per_episode: {orch['grade_s_per_episode']:.3f}")
    print(f"orchestrator_episodes_finished: {orch['episodes']}")
    print(f"orchestrator_infra_errors: {orch['infra_errors']}")
    print(f"orchestrator_peak_inflight: {orch['peak_in_flight']}")
    print(f"orchestrator_cpu_s: {orch['cpu_s']:.1f}")
    print(f"model_server_cpu_s_bare: {server_cpu[1] - server_cpu[0]:.1f}")
    print(f"model_server_cpu_s_orchestrator: {server_cpu[2] - server_cpu[1]:.1f}")
    print(f"orchestrator_machine_cpu_busy: {orch['machine_busy']:.3f}")
    print(f"orchestrator_machine_cpu_core_s: {orch['machine_core_s']:.1f}")
    if ideal:
        cores = os.cpu_count() or 1
        print(f"cpu_capacity_at_ideal_core_s: {cores * ideal:.1f}")
        print(f"bare_cpu_floor_over_ideal: {bare['machine_core_s'] / cores / ideal:.3f}")
        print(f"orchestrator_cpu_floor_over_ideal: {orch['machine_core_s'] / cores / ideal:.3f}")
    print(f"orchestrator_fds_peak: {orch['fds_peak']} (soft limit {orch['fds_soft_limit']})")
    if ideal:
        print(f"orchestrator_wall_over_ideal: {orch['wall_s'] / ideal:.3f}")
    print(f"rss_per_inflight_episode_mib: {orch['rss_per_episode_mib']:.3f}")
    print(f"# {kind} sandboxes; load average after: {os.getloadavg()[0]:.2f}", file=sys.stderr)
    print(f"orchestrator_overhead: {orch['wall_s'] / bare['wall_s']:.3f}")


if __name__ == "__main__":
    main()
