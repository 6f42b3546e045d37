"""The per-container supervisor: a root shell (CAP_KILL only) that ends command trees without forking.

A timed-out or cancelled command must leave nothing behind, even a grandchild in its own session or a fork
bomb at the pids limit; the host cannot do that through the Docker API (there is no "kill exec"), and a new
`docker exec` cannot start once the pids limit is reached. So each container keeps this one process alive
from the start and asks it, over its stdin, to kill (see `drivers/docker_supervisor.sh`).
"""

from __future__ import annotations

from pathlib import Path

import anyio

from repozero.kernel.errors import SandboxError
from repozero.sandbox.docker_client import DockerClient
from repozero.sandbox.docker_exec import BACKSTOP_S, DockerExecProcess

__all__ = ["SUPERVISOR_SCRIPT", "Supervisor"]

SUPERVISOR_SCRIPT = (Path(__file__).parent / "drivers" / "docker_supervisor.sh").read_text()
_BOOT = ["/bin/sh", "-c", 'read -r n && s=$(head -c "$n") && eval "$s"', "repozero-supervisor"]
"""The script arrives on stdin (no request is sent before it answers "ready"), so `ps` shows a short line."""


class Supervisor:
    """Requests to the container's supervisor, one at a time (a lock keeps request and reply paired)."""

    def __init__(self, proc: DockerExecProcess) -> None:
        self._proc = proc
        self._lock = anyio.Lock()
        self._buffer = bytearray()

    @classmethod
    async def start(cls, client: DockerClient, container_id: str) -> Supervisor:
        proc = await DockerExecProcess.start(client, container_id, _BOOT, user="0:0", killer=None)
        supervisor = cls(proc)
        try:
            try:
                with anyio.fail_after(BACKSTOP_S * 2):
                    script = SUPERVISOR_SCRIPT.encode()
                    await proc.send(b"%d\n%s" % (len(script), script))
                    ready = await supervisor._line()
            except TimeoutError:  # a SandboxError, so a pool backs off and an episode fails as infra:
                raise SandboxError(  # a bare TimeoutError took a whole run down (the chaos soak, loaded)
                    f"docker supervisor did not report ready within {BACKSTOP_S * 2:g} s "
                    f"(a loaded machine or daemon?): {bytes(proc.stderr)[-300:]!r}"
                ) from None
            if not ready.startswith("ready "):
                raise SandboxError(
                    f"docker supervisor did not start: {ready!r} {bytes(proc.stderr)[-300:]!r}"
                )
        except BaseException:
            with anyio.CancelScope(shield=True):
                await proc.aclose()
            raise
        return supervisor

    async def _line(self) -> str:
        while b"\n" not in self._buffer:
            chunk = await self._proc.receive()
            if not chunk:
                raise SandboxError(f"docker supervisor exited: {bytes(self._proc.stderr)[-300:]!r}")
            self._buffer += chunk
        line, _, rest = bytes(self._buffer).partition(b"\n")
        self._buffer = bytearray(rest)
        return line.decode(errors="replace")

    async def request(self, line: str) -> int:
        """Send one request; the number in its `ok N` reply."""
        async with self._lock:
            with anyio.CancelScope(shield=True), anyio.fail_after(BACKSTOP_S * 4):
                await self._proc.send(line.encode() + b"\n")
                reply = await self._line()
        status, _, value = reply.partition(" ")
        if status != "ok":
            raise SandboxError(f"docker supervisor: {line!r} failed: {reply!r}")
        return int(value)

    async def kill_tree(self, pid: int, start_ticks: int) -> None:
        """End `pid`, its descendants and every orphan started since it (shielded: cleanup must finish)."""
        await self.request(f"kill {pid} {start_ticks}")

    async def kill_strays(self, pid: int, start_ticks: int) -> None:
        """Like `kill_tree`, but `pid` itself is spared (a persistent shell whose command timed out)."""
        await self.request(f"strays {pid} {start_ticks}")

    async def oom_kills(self) -> int:
        """OOM kills in the container's memory cgroup so far (-1 when the cgroup is not readable)."""
        return await self.request("oom")

    async def held_bytes(self) -> int:
        """Bytes the container's memory cgroup holds beyond reclaim: anonymous memory and tmpfs pages (-1
        when the cgroup is not readable)."""
        return await self.request("held")

    async def aclose(self) -> None:
        await self._proc.aclose()
