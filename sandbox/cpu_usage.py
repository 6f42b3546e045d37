"""CPU seconds a sandbox's processes used, read from its cgroup: the sandbox side of an episode's compute.

Local sandboxes get a cgroup v1 `cpuacct` group of their own (sandbox/cgroups.py) when the host allows one;
a Docker container's group is the daemon's (cgroupfs or systemd driver, cgroup v1 or v2), read on the same
host. Where neither is readable (no root, a remote daemon) a sandbox's CPU is unknown: None, never a guess.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CGROUP_ROOT", "container_cpu_s", "cpuacct_s"]

CGROUP_ROOT = Path("/sys/fs/cgroup")


def cpuacct_s(group: Path) -> float | None:
    """A cgroup v1 cpuacct group's CPU seconds (`cpuacct.usage`, nanoseconds), or None if unreadable."""
    try:
        return int((group / "cpuacct.usage").read_text()) / 1e9
    except (OSError, ValueError):
        return None


def _cpu_stat_s(group: Path) -> float | None:
    """A cgroup v2 group's CPU seconds (`usage_usec` of `cpu.stat`), or None if unreadable."""
    try:
        for line in (group / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
    except (OSError, ValueError):
        return None
    return None


def container_cpu_s(container_id: str) -> float | None:
    """CPU seconds of a Docker container on this host so far (every process it ran), or None."""
    if not container_id:
        return None
    for group in (
        CGROUP_ROOT / "cpuacct" / "docker" / container_id,
        CGROUP_ROOT / "cpuacct" / "system.slice" / f"docker-{container_id}.scope",
    ):
        if (seconds := cpuacct_s(group)) is not None:
            return seconds
    for group in (
        CGROUP_ROOT / "system.slice" / f"docker-{container_id}.scope",
        CGROUP_ROOT / "docker" / container_id,
    ):
        if (seconds := _cpu_stat_s(group)) is not None:
            return seconds
    return None
