"""Episodes per second on a local Ray cluster with 1 and then 2 worker nodes, against the local executor.

The loopback model (`fake:steps:N`: N trivial commands then a submission, `--latency-ms` per call) on one
sample of the fixture dataset, ACE rounds 0: episodes wait on the model, so a second node should nearly
double the rate. Three phases in one process, each a whole `start_run` timed end to end (for Ray that
includes starting the node runners):

- local: the local executor, `--concurrency K`;
- ray, 1 node: a `ray.cluster_utils` cluster (head with no CPUs, one 1-CPU worker node), K per node;
- ray, 2 nodes: a second worker node added to the same cluster, K per node.

It also measures what a shared limiter actor would cost: the round trip of one call to an async actor
(a model call would pay two, acquire and release) against the model's latency.

Prints episodes/s of each phase, `ray_overhead_1_node` (local rate / 1-node rate) and, last,
`ray_scaling_2_nodes: <2-node rate / 1-node rate>` (target ≥ 1.7).

    python benchmarks/ray_scaling.py [--episodes 200] [--latency-ms 1000] [--steps 2] [--concurrency 16]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from repozero import RunSpec, load_config
from repozero.orchestrator.engine.run import start_run
from repozero.orchestrator.ray_executor import RayExecutor
from repozero.orchestrator.ray_executor.local_cluster import add_node, local_cluster

DATASET = str(Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "fakellm")
SAMPLE = "fx-slug"


def phase(name: str, out: Path, args: argparse.Namespace, executor: RayExecutor | None) -> float:
    """One whole run; returns episodes per second."""
    config = load_config(None, [f"run.fake_latency_ms={args.latency_ms}", "traces.enabled=false"])
    spec = RunSpec(
        dataset=DATASET,
        model=f"fake:steps:{args.steps}",
        ace_rounds=0,
        attempts=args.episodes,
        samples=SAMPLE,
        concurrency=args.concurrency,
        out=str(out / name),
    )
    started = time.monotonic()
    summary = start_run(config, spec, display="off", executor=executor)
    wall = time.monotonic() - started
    assert summary.finished == args.episodes, summary
    rate = args.episodes / wall
    print(f"{name}: {args.episodes} episodes in {wall:.1f} s = {rate:.2f} episodes/s", flush=True)
    return rate


def actor_round_trip_ms(calls: int = 200) -> float:
    """Median round trip of a trivial async actor call from the driver (what a shared limiter costs)."""
    import ray

    @ray.remote(num_cpus=0)
    class Probe:
        async def ping(self) -> int:
            return 1

    probe = Probe.remote()  # type: ignore[attr-defined]
    ray.get(probe.ping.remote())
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        ray.get(probe.ping.remote())
        times.append((time.perf_counter() - started) * 1000)
    ray.kill(probe)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--latency-ms", type=float, default=1000)
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rz-ray-scaling-") as tmp:
        out = Path(tmp)
        local = phase("local", out, args, None)
        with local_cluster(workers=1, cpus=1) as (cluster, _):
            one = phase("ray_1_node", out, args, RayExecutor(cluster.address))
            add_node(cluster, 1)  # its agent's port announced, as local_cluster's own nodes (docs/ray.md)
            cluster.wait_for_nodes()
            two = phase("ray_2_nodes", out, args, RayExecutor(cluster.address))
            trip = actor_round_trip_ms()
    print(
        f"shared limiter actor: {trip:.2f} ms per call round trip, x2 per model call "
        f"= {200 * trip / args.latency_ms:.2f}% of a {args.latency_ms:.0f} ms model call"
    )
    print(f"ray_overhead_1_node: {local / one:.3f}")
    print(f"ray_scaling_2_nodes: {two / one:.3f}")


if __name__ == "__main__":
    main()
