"""The driver's side of the cluster: connecting, finding the nodes that can run episodes, one node runner
pinned to each, the per-endpoint limits split between them, and stopping them cleanly."""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import time
from pathlib import Path
from typing import Any

import anyio
import msgspec
import ray
import structlog
from ray._private.services import canonicalize_bootstrap_address  # what ray.init resolves (no public API)
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from repozero.kernel.errors import UsageError
from repozero.orchestrator.engine.parts import run_sizes
from repozero.orchestrator.ray_executor.coordinator import Runner
from repozero.orchestrator.ray_executor.node import NodeRunner
from repozero.orchestrator.ray_executor.secret_env import env_referenced
from repozero.orchestrator.ray_executor.storage import storage_env
from repozero.orchestrator.ray_executor.units import CellJob, NodeClosed, decode, encode

__all__ = [
    "ASYNCIO_NODE_LABEL",
    "RUNNER_ENV",
    "auth_hint",
    "connect",
    "job_payload",
    "probe_head",
    "split_limits",
    "start_runners",
    "stop_runners",
    "worker_nodes",
]

log = structlog.get_logger()

RUNNER_ENV = {"RAY_USE_UVLOOP": "0"}
"""The node runner's loop is the stock asyncio one, not uvloop (Ray's default when it is installed): the
actor's loop runs in a thread of Ray's, not the main thread, and the runner spawns thousands of child
processes (shells, graders, the Oracle's fork servers) — CPython's pidfd child watcher is the path our
suite runs in every thread; uvloop's child handling off the main thread is not (docs/ray.md)."""

ASYNCIO_NODE_LABEL = "repozero-asyncio-workers"
"""A node whose environment already holds `RUNNER_ENV` says so with this label set to "true"
(`RAY_USE_UVLOOP=0 ray start … --labels repozero-asyncio-workers=true`). A runner there gets no runtime
env, so Ray can give it one of the node's prestarted workers (`RAY_enable_worker_prestart=1`) instead of
starting a worker process for it: measured here, a runner ready 0.9 s after it is asked for instead of
3.5–4 s (two at once, load 7; docs/ray.md)."""

PROBE_TIMEOUT_S = 10.0
"""How long joining a cluster waits for the head's port to accept a connection."""

STOP_TIMEOUT_S = 120.0
"""How long a node runner gets to close its sessions (sandboxes reaped, trace shard flushed)."""


def connect(address: str | None) -> bool:
    """Join the cluster at `address` (`auto`, HOST:PORT, or None: RAY_ADDRESS or a new local instance).
    True when this call connected (the caller shuts down); a process already connected keeps its link."""
    if ray.is_initialized():
        return False
    try:
        probe_head(address)
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False, configure_logging=False)
    except (OSError, ValueError, RuntimeError) as exc:  # ConnectionError, TimeoutError: no cluster there
        raise UsageError(
            f"--ray-address {address or '(none)'}: cannot join a Ray cluster: {exc}{auth_hint(address)}"
        ) from None
    return True


def auth_hint(address: str | None) -> str:
    """What to add to a failed join when the cluster may want a token the driver did not send.

    Ray 2.60 turns token authentication on for a head started where a token exists (`~/.ray/auth_token`,
    `RAY_AUTH_TOKEN`), but a driver given an explicit address sends it only with `RAY_AUTH_MODE=token`
    (`auto` finds it alone); without it the join fails after ~20 s saying only that it could not connect."""
    if address in (None, "auto") or os.environ.get("RAY_AUTH_MODE"):
        return ""
    token_file = Path(os.environ.get("RAY_AUTH_TOKEN_PATH") or Path.home() / ".ray" / "auth_token")
    if not (os.environ.get("RAY_AUTH_TOKEN") or token_file.exists()):
        return ""
    return "; a Ray auth token exists here: if the cluster uses token authentication, set RAY_AUTH_MODE=token"


def probe_head(address: str | None) -> None:
    """Fail fast when nothing answers at the head's address: `ray.init` retries an unreachable GCS for
    minutes (Ray 2.60: 20 attempts of about 35 s each, `RAY_NUM_REDIS_GET_RETRIES`) before it raises.

    The address is the one `ray.init` would use (`auto` and RAY_ADDRESS read the same way, localhost
    resolved to the node's address); None when Ray would start a local instance: nothing to probe."""
    given = address or os.environ.get("RAY_ADDRESS")  # neither: Ray starts an instance of its own
    if not given or "://" in given:  # a Ray Client address (ray://…) goes through its own proxy
        return
    head = canonicalize_bootstrap_address(given)
    if head is None:
        return
    host, _, port = head.rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_TIMEOUT_S).close()
    except OSError as exc:
        raise ConnectionError(
            f"no Ray head answers at {head} within {PROBE_TIMEOUT_S:.0f} s ({exc})"
        ) from None


def worker_nodes(address: str | None) -> list[dict[str, Any]]:
    """Alive nodes with CPUs (a head started with `--num-cpus 0` runs the driver only), in a stable order."""
    nodes = sorted(
        (n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0),
        key=lambda n: str(n["NodeID"]),
    )
    if not nodes:
        raise UsageError(f"--ray-address {address or '(none)'}: the cluster has no alive node with CPUs")
    return nodes


def node_name(node: dict[str, Any], started: int) -> str:
    """`node-<id>-<driver start>`: a resumed run's runner on the same node gets folders of its own (the
    killed driver's runner may not have gone yet)."""
    return f"node-{str(node['NodeID'])[:12]}-{started}"


def split_limits(job: CellJob, nodes: int) -> CellJob:
    """The job as each node runs it: the model endpoint's connection limit split evenly (at least one per
    node), so the cluster together stays under what one machine would open against the endpoint."""
    sizes = run_sizes(job.config, job.spec)[2]
    endpoint, size = next((k[len("model:") :], v) for k, v in sizes.items() if k.startswith("model:"))
    share = max(1, size // nodes)
    limits = msgspec.structs.replace(
        job.config.limits, model_connections={**job.config.limits.model_connections, endpoint: share}
    )
    return msgspec.structs.replace(job, config=msgspec.structs.replace(job.config, limits=limits))


def start_runners(nodes: list[dict[str, Any]], jobs: list[CellJob], window: int) -> list[Runner]:
    """One runner actor per node, pinned there (hard node affinity), `serve` sent at once. With
    `--ray-storage` the driver's storage settings go into the runners' environment (`storage_env`)."""
    actor_class = ray.remote(NodeRunner)
    shared, env = job_payload(jobs, len(nodes))
    runners = []
    started = int(time.time())
    for node in nodes:
        name = node_name(node, started)
        actor = actor_class.options(  # type: ignore[attr-defined]
            scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=node["NodeID"], soft=False),
            num_cpus=0,
            max_concurrency=window + 8,
            max_restarts=0,
            **runner_env(node, env),
        ).remote(name, shared)
        runners.append(Runner(node=name, actor=actor, serve_ref=actor.serve.remote()))  # type: ignore[attr-defined]
    return runners


def job_payload(jobs: list[CellJob], nodes: int) -> tuple[bytes, dict[str, str]]:
    """What each runner is given: the jobs (each endpoint's limit split over `nodes`, every credential
    replaced by a reference to an environment variable: secret_env.py) and the variables for its
    environment (those credentials; with `--ray-storage`, the storage settings)."""
    secrets: dict[str, str] = {}
    shipped = [msgspec.structs.replace(j, config=env_referenced(j.config, secrets)) for j in jobs]
    storage = storage_env() if any(j.storage for j in jobs) else {}
    return encode([split_limits(j, nodes) for j in shipped]), {**storage, **secrets}


def runner_env(node: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    """The runner's actor options for its environment: none on a node labelled `ASYNCIO_NODE_LABEL` when
    no variables (storage settings, credentials) must be passed on, else a runtime env with `RUNNER_ENV`
    and those variables."""
    if not env and node.get("Labels", {}).get(ASYNCIO_NODE_LABEL) == "true":
        return {}
    return {"runtime_env": {"env_vars": {**env, **RUNNER_ENV}}}


async def stop_runners(runners: list[Runner]) -> dict[str, NodeClosed]:
    """Cancel units still in flight (an interrupted run), let each runner close its sessions, then end it.
    Returns what each runner said once closed (`NodeClosed`); one lost, or whose close failed or took
    longer than `STOP_TIMEOUT_S`, is not in it."""
    closed: dict[str, NodeClosed] = {}
    with anyio.CancelScope(shield=True):
        alive = [r for r in runners if not r.lost]
        for runner in alive:
            for ref in runner.leased.values():
                with contextlib.suppress(Exception):  # already done, or its node gone
                    ray.cancel(ref)
            runner.actor.stop.remote()
        with anyio.move_on_after(STOP_TIMEOUT_S):
            for runner in alive:
                try:
                    closed[runner.node] = decode(await runner.serve_ref, NodeClosed)
                except Exception as exc:  # its node went away meanwhile: nothing left to close
                    log.warning("ray_node_close_failed", node=runner.node, error=str(exc).splitlines()[0])
                    continue
                if closed[runner.node].error:
                    log.warning("ray_node_close_failed", node=runner.node, error=closed[runner.node].error)
        for runner in runners:
            try:
                ray.kill(runner.actor, no_restart=True)
            except Exception:  # gone with its node
                pass
    return closed
