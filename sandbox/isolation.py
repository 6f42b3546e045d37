"""What this host lets the local backend do, found out once per process and logged once when degraded.

Layers, strongest first: bubblewrap namespaces (network, PID, mount, IPC, UTS), a fresh unprivileged uid
per sandbox (when started as root), a size-limited tmpfs per sandbox, and cgroup v1 `pids`/`memory`
limits (which also tell an OOM kill apart). Whatever is missing is named in one
`sandbox_isolation_degraded` warning.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Literal

import anyio
import anyio.lowlevel

from repozero.kernel.log import get_logger
from repozero.kernel.records import Record
from repozero.sandbox.mounts import mount_tmpfs, unmount
from repozero.sandbox.private_tmpfs import PrivateTmpfs

__all__ = ["CGROUP_V1", "Isolation", "detect_isolation", "reset_isolation_cache"]

log = get_logger(__name__)

CGROUP_V1 = Path("/sys/fs/cgroup")
CGROUP_PARENT = "repozero"


class Isolation(Record, kw_only=True):
    """The isolation the local backend applies on this host."""

    mode: Literal["bwrap", "plain"]
    privileged: bool
    """Started as root: per-sandbox uid, tmpfs mounts and cgroups are possible."""
    bwrap: str = ""
    setpriv: str = ""
    prlimit: str = ""
    tmpfs: bool = False
    nsenter: str = ""
    private_tmpfs: bool = False
    """A sandbox's tmpfs can live in a mount namespace of its own (sandbox/private_tmpfs.py): root, namespaces,
    `nsenter`, and a probe that mounted one."""
    cgroup_pids: str = ""
    """cgroup v1 `pids` parent dir for per-sandbox groups ("" if unavailable)."""
    cgroup_memory: str = ""
    cgroup_cpuacct: str = ""
    """cgroup v1 `cpuacct` parent dir: a sandbox's CPU seconds are counted there ("" if unavailable)."""
    missing: list[str] = []

    @property
    def namespaces(self) -> bool:
        """Network, PID and mount namespaces (bubblewrap)."""
        return self.mode == "bwrap"


_cache: dict[str, Isolation] = {}
_probing: dict[tuple[str, object], anyio.Event] = {}
"""Probes under way, per `want` and event loop: the others wait for it instead of starting their own."""


def reset_isolation_cache() -> None:
    _cache.clear()


async def detect_isolation(want: str = "auto") -> Isolation:
    """Probe once per `want` ("auto", "bwrap", "plain"); warn once when something is missing.

    One probe at a time per event loop: a run's episodes all ask at once when it starts, and a probe each
    (a bwrap spawn) was 1,000 spawns at 1,000 episodes — seconds of a loaded machine before the first
    sandbox opened. The waiters' event belongs to the loop that probes (a process may run several loops in
    turn, asyncio then trio, so nothing loop-bound outlives its loop); a cancelled probe wakes them and one
    of them probes again."""
    while want not in _cache:
        key = (want, anyio.lowlevel.current_token())
        underway = _probing.get(key)
        if underway is not None:
            await underway.wait()
            continue
        _probing[key] = done = anyio.Event()
        try:
            iso = await _probe(want)
        finally:
            del _probing[key]
            done.set()
        if _cache.setdefault(want, iso) is iso:
            if iso.missing:
                log.warning("sandbox_isolation_degraded", mode=iso.mode, missing=iso.missing)
            else:
                log.debug("sandbox_isolation", mode=iso.mode)
    return _cache[want]


async def _probe(want: str) -> Isolation:
    privileged = os.geteuid() == 0
    bwrap, setpriv, prlimit = (shutil.which(n) or "" for n in ("bwrap", "setpriv", "prlimit"))
    missing: list[str] = []
    mode: Literal["bwrap", "plain"] = "plain"
    if want == "plain":
        missing.append("namespaces (sandbox.local_isolation = plain)")
    else:
        problem = await _bwrap_problem(bwrap, setpriv, privileged)
        if problem:
            missing.append(f"namespaces ({problem})")
        else:
            mode = "bwrap"
    if not prlimit:
        missing.append("rlimits (prlimit not found)")
    if not privileged:
        missing.append("per-sandbox uid (not root)")
    tmpfs = privileged and await _tmpfs_works()
    if not tmpfs:
        missing.append("tmpfs work dir (needs root and mount)")
    nsenter = shutil.which("nsenter") or ""
    private_tmpfs = tmpfs and mode == "bwrap" and bool(nsenter) and _private_tmpfs_works()
    pids, memory, cpuacct = _cgroup_dir("pids"), _cgroup_dir("memory"), _cgroup_dir("cpuacct")
    if not (pids and memory):
        missing.append("cgroups (needs root and cgroup v1 pids+memory)")
    return Isolation(
        mode=mode, privileged=privileged, bwrap=bwrap, setpriv=setpriv, prlimit=prlimit, tmpfs=tmpfs,
        nsenter=nsenter, private_tmpfs=private_tmpfs, cgroup_pids=pids, cgroup_memory=memory,
        cgroup_cpuacct=cpuacct, missing=missing,
    )  # fmt: skip


def _bwrap_probe_argv(bwrap: str, setpriv: str, privileged: bool) -> list[str]:
    argv = [bwrap, "--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent"]
    if not privileged:
        argv.append("--unshare-user")
    argv += ["--ro-bind", "/usr", "/usr", "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib"]
    if Path("/usr/lib64").is_dir():
        argv += ["--symlink", "usr/lib64", "/lib64"]
    argv += ["--proc", "/proc", "--dev", "/dev", "--remount-ro", "/"]
    if privileged:
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID", "--", setpriv]
        argv += ["--reuid", "65534", "--regid", "65534", "--clear-groups", "--", "/bin/true"]
    else:
        argv += ["--", "/bin/true"]
    return argv


async def _bwrap_problem(bwrap: str, setpriv: str, privileged: bool) -> str:
    if not bwrap:
        return "bwrap not found; apt-get install bubblewrap"
    if privileged and not setpriv:
        return "setpriv not found; apt-get install util-linux"
    argv = _bwrap_probe_argv(bwrap, setpriv, privileged)
    try:
        result = await anyio.run_process(argv, check=False, stdin=None)
    except OSError as exc:
        return f"bwrap failed to start: {exc}"
    if result.returncode != 0:
        return "bwrap cannot create namespaces here: " + result.stderr.decode(errors="replace").strip()[:200]
    return ""


async def _tmpfs_works() -> bool:
    probe = Path(tempfile.mkdtemp(prefix="repozero-tmpfs-probe-"))
    try:
        mount_tmpfs(probe, "tmpfs", "size=1m")
    except OSError:
        return False
    else:
        unmount(probe, lazy=False)
        return True
    finally:
        os.rmdir(probe)


def _private_tmpfs_works() -> bool:
    """A 1 MiB tmpfs in a namespace of its own is seen there, and not in the host's namespace."""
    target = Path(tempfile.mkdtemp(prefix="repozero-tmpfs-probe-"))
    try:
        held = PrivateTmpfs.make(target, "tmpfs", "size=1m")
    except OSError:
        os.rmdir(target)
        return False
    try:
        return os.stat(held.host_root).st_dev != os.stat(target).st_dev and not os.path.ismount(target)
    finally:
        held.close()
        os.rmdir(target)


def _cgroup_dir(controller: str) -> str:
    """Our parent group under a cgroup v1 controller, created if we may; "" when unavailable."""
    base = CGROUP_V1 / controller
    if os.geteuid() != 0 or not (base / "cgroup.procs").is_file():
        return ""
    parent = base / CGROUP_PARENT
    try:
        parent.mkdir(exist_ok=True)
    except OSError:
        return ""
    return str(parent)
