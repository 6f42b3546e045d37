"""A local sandbox's tmpfs in a mount namespace of its own, held open by a keeper process.

A tmpfs mounted in the host's namespace is one more entry that every bwrap start copies and re-reads
(~13 reads of /proc/self/mountinfo per start, under the kernel's one mount lock): with N sandboxes open,
starting N of them costs N². Measured here: one bwrap start took 121 ms with no extra mounts and
1,384 ms with 1,000. So each sandbox's tmpfs lives in a namespace that is the host's plus that one
mount: a keeper (`unshare --mount` → `setpriv --pdeathsig KILL` → `sleep infinity`) holds it, the
sandbox's processes enter it (`nsenter --mount`) before bwrap, and the host reaches its files through
/proc/KEEPER/root. Killing the keeper (or the run dying: the keeper gets SIGKILL with its parent) frees
the tmpfs once the last process inside is gone; nothing is left in the host's mount table to reap.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import anyio

from repozero import spawn
from repozero.sandbox.mounts import mount_tmpfs_in

__all__ = ["Keeper", "keeper_works"]

_READY_POLL_S = (0.0005, 0.02)
_READY_TIMEOUT_S = 30.0
"""A keeper that has not reached `sleep` by then is stuck (a loaded host execs three programs in ms)."""


class Keeper:
    """One sandbox's mount namespace, alive as long as its keeper process is."""

    def __init__(self, proc: spawn.Process) -> None:
        self._proc = proc
        self.pid = proc.pid
        self.namespace = f"/proc/{self.pid}/ns/mnt"
        """The file `nsenter --mount=` and setns(2) take."""

    @classmethod
    async def start(cls, unshare: str, setpriv: str) -> Keeper:
        """Start a keeper and wait until it holds a private namespace of its own. Raises OSError."""
        argv = [unshare, "--mount", "--propagation", "private", "--"]
        argv += [setpriv, "--pdeathsig", "KILL", "--", "sleep", "infinity"]
        proc = await spawn.open_process(argv, stdin=spawn.DEVNULL, stdout=spawn.DEVNULL, stderr=spawn.DEVNULL)
        keeper = cls(proc)
        try:
            await keeper._ready()
        except BaseException:
            with anyio.CancelScope(shield=True):
                await keeper.stop()
            raise
        return keeper

    async def _ready(self) -> None:
        pause = _READY_POLL_S[0]
        with anyio.fail_after(_READY_TIMEOUT_S):
            while _comm(self.pid) != "sleep":
                if self._proc.returncode is not None:
                    raise OSError(f"the sandbox's namespace keeper exited with code {self._proc.returncode}")
                await anyio.sleep(pause)
                pause = min(pause * 2, _READY_POLL_S[1])

    def host_path(self, path: Path) -> Path:
        """Where the host reaches `path` of the keeper's namespace."""
        return Path(f"/proc/{self.pid}/root", path.relative_to("/"))

    def mount_tmpfs(self, target: Path, source: str, options: str) -> None:
        """Mount a tmpfs at `target` inside the namespace (blocks for a few syscalls; see mount_tmpfs_in)."""
        mount_tmpfs_in(self.namespace, target, source, options)

    async def stop(self) -> None:
        """Kill the keeper and reap it (shielded: its pid must not be left a zombie)."""
        with anyio.CancelScope(shield=True):
            self._proc.kill()
            await self._proc.wait()


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return ""


def _only_inside(keeper: Keeper, target: Path) -> bool:
    """The mount is seen in the keeper's namespace, and not in the host's."""
    return os.path.ismount(keeper.host_path(target)) and not os.path.ismount(target)


async def keeper_works(unshare: str, setpriv: str) -> bool:
    """Can this host hold a sandbox's tmpfs in a namespace of its own? (A keeper and a 1 MiB mount.)"""
    if not (unshare and setpriv):
        return False
    target = Path(tempfile.mkdtemp(prefix="repozero-keeper-probe-"))
    try:
        keeper = await Keeper.start(unshare, setpriv)
        try:
            keeper.mount_tmpfs(target, "tmpfs", "size=1m")
            return _only_inside(keeper, target)
        finally:
            await keeper.stop()
    except OSError:
        return False
    finally:
        os.rmdir(target)
