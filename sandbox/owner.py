"""Who owns a sandbox — a process, named so that another process can tell later whether it is still alive.

A run that is SIGKILLed leaves its sandboxes behind. The local backend records its owner beside each
sandbox dir; the Docker backend puts the same token on each container as a label. A pid alone is not
enough (pids are reused): the token adds the process's start time, the host and the boot.
"""

from __future__ import annotations

import os
import socket
from functools import cache
from pathlib import Path

__all__ = ["my_start_time", "owner_alive", "owner_token", "start_time", "token_alive"]


def start_time(pid: int) -> str:
    """A process's start time (field 22 of /proc/PID/stat): tells a live owner from a reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[19]


@cache
def _start_of(pid: int) -> str:
    return start_time(pid)


def my_start_time() -> str:
    """This process's start time, read once (a forked child has a pid of its own, so reads its own)."""
    return _start_of(os.getpid())


def owner_alive(pid: int, start: object) -> bool:
    """Whether process `pid`, started at `start`, is still running on this host."""
    return bool(pid) and start_time(pid) == start


@cache
def _host_and_boot() -> tuple[str, str]:
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        boot = ""
    return socket.gethostname(), boot


def owner_token() -> str:
    """This process as `host/boot/pid/start`."""
    host, boot = _host_and_boot()
    return f"{host}/{boot}/{os.getpid()}/{my_start_time()}"


def token_alive(token: str) -> bool | None:
    """Whether the owner a token names is alive: None when it is another host's (not ours to judge)."""
    parts = token.split("/")
    if len(parts) != 4 or not parts[2].isdigit():
        return None
    host, boot = _host_and_boot()
    if parts[0] != host:
        return None
    if parts[1] != boot:
        return False  # this host has rebooted since: every process of that boot is gone
    return owner_alive(int(parts[2]), parts[3])
