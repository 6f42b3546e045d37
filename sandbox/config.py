"""Sandbox settings (the `[sandbox]` config section)."""

from __future__ import annotations

from typing import Literal

from repozero.kernel.records import Record

__all__ = ["SandboxConfig"]


class SandboxConfig(Record, kw_only=True):
    """Which backend runs untrusted code, and its limits."""

    backend: Literal["local", "docker"] = "local"
    memory_mb: int = 2048
    pids: int = 256
    cpu_time_s: int = 600
    file_size_mb: int = 256
    open_files: int = 1024
    output_cap: int = 1 << 20
    stderr_cap: int = 64 << 10
    """Bytes of a case's stderr kept (feedback only; stdout is capped by `output_cap`)."""
    tmpfs_mb: int = 512
    """Size of the tmpfs holding a sandbox's work dir, /tmp and HOME."""
    case_kill_after_s: float = 0.5
    """Grace between TERM and KILL for a case past its timeout (`timeout -k` in the batch driver)."""
    case_parallelism: int = 0
    """Cases of one batch run at once inside a grading sandbox, never more than its CPU quota in whole
    cores (Docker: `docker_cpus`; local: the host's CPUs). 0: the quota; 1: one case at a time."""

    # --- local backend (sandbox/local.py; docs/sandbox.md) ----------------------------------------
    local_isolation: Literal["auto", "bwrap", "plain"] = "auto"
    """`auto`: bubblewrap namespaces when they work here, else plain processes (logged once)."""
    local_root: str = ""
    """Where per-sandbox directories (tmpfs mounts) go; "" means $TMPDIR/repozero-sbx."""
    toolchain_dir: str = ""
    """Where pinned toolchain dirs are assembled; "" means /var/cache/repozero/toolchains (root) or
    ~/.cache/repozero/toolchains."""
    local_mount_namespace: bool = True
    """Each sandbox's tmpfs in a mount namespace of its own (sandbox/private_tmpfs.py), not in the host's
    mount table, where every open sandbox slows every bwrap start (when the host allows it)."""
    local_launcher: bool = True
    """Sandbox processes and tmpfs namespaces made by a small launcher process of our own
    (sandbox/launcher_client.py) instead of an exec chain (`sh` → `prlimit` → `nsenter` → bwrap) started from the
    orchestrator: the event loop only sends a request. Where namespaces work (bubblewrap)."""
    local_uid_base: int = 600_000_000
    """First host uid of the range the local backend draws a fresh uid from per sandbox (when root)."""
    local_uid_count: int = 100_000

    # --- docker backend (sandbox/docker.py; docs/docker.md) ---------------------------------------
    docker_host: str = ""
    """Daemon address; "" means $DOCKER_HOST or /var/run/docker.sock."""
    docker_connections: int = 0
    """Cap on the shared client's connections (0: none). Every open sandbox holds 2 (shell + supervisor)
    plus one per running command, so a cap below that makes calls queue for a connection and fail with a
    connect timeout under load; API calls are bounded by `docker_api_concurrency` either way."""
    docker_api_concurrency: int = 16
    """Docker API calls in flight at once (create, start, exec create, remove)."""
    docker_cpus: float = 1.0
    """CPU quota per container, in cores."""
    docker_pool_size: int = 2
    """Warm containers kept ready per image (0 disables the pool: every sandbox is a cold start)."""
    docker_start_concurrency: int = 2
    """Container starts the pool runs at once while refilling."""
    docker_image_prefix: str = "repozero"
    """Repository prefix of the offline-built images (`<prefix>/<toolchain>:<recipe hash>`)."""
    docker_images: dict[str, str] = {}
    """Per-toolchain image override, e.g. {node = "registry/repozero-node:1"} (images built from Dockerfiles)."""
    docker_debian_mirror: str = "http://deb.debian.org/debian"
    """Debian mirror the offline image builder debootstraps from."""
    docker_kill_after_s: float = 2.0
    """Grace between TERM and KILL for a command past its deadline (`timeout -k`)."""
