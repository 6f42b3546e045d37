"""A local sandbox's host-side state — a fresh uid, a size-limited tmpfs holding work/, tmp/ and home/,
cgroups — set up at open, torn down at close, and reaped at the next start if a run crashed."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import time
from pathlib import Path

import anyio
import anyio.lowlevel
import msgspec

from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.sandbox.base import SandboxSpec
from repozero.sandbox.cgroups import SandboxCgroups
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.exec_chain import Layout, sandbox_dirs
from repozero.sandbox.hostfs import HostView
from repozero.sandbox.isolation import Isolation
from repozero.sandbox.launcher_client import LauncherGone, launcher
from repozero.sandbox.mounts import mount_tmpfs, unmount
from repozero.sandbox.owner import my_start_time, owner_alive
from repozero.sandbox.private_tmpfs import PrivateTmpfs
from repozero.sandbox.uids import UID_CLAIMS, kill_uids, pick_uid, release_uid, take_stale_claims, write_new

__all__ = ["Workspace", "default_root", "reap_stale"]

log = get_logger(__name__)


def default_root() -> Path:
    return Path(os.environ.get("TMPDIR", "/tmp")) / "repozero-sbx"


class Workspace:
    """Host dirs, uid and cgroups of one local sandbox."""

    def __init__(
        self, sid: str, root: Path, layout: Layout, cgroups: SandboxCgroups | None, mounted: bool,
        private: PrivateTmpfs | None = None,
    ) -> None:  # fmt: skip
        self.id, self.root, self.layout, self.cgroups, self.mounted = sid, root, layout, cgroups, mounted
        self.private = private
        self.host_root = private.host_root if private else root
        """Where the host reaches the sandbox's files (through a descriptor when its tmpfs is private)."""
        self.logs = self.host_root / "logs"
        self.view: HostView | None = None

    @classmethod
    async def create(
        cls, iso: Isolation, cfg: SandboxConfig, spec: SandboxSpec, toolchain: Path
    ) -> Workspace:
        base = Path(cfg.local_root) if cfg.local_root else default_root()
        _make_base(str(base))
        sid = "sbx-" + secrets.token_hex(6)
        root = base / sid
        uid = pick_uid(cfg) if iso.privileged else os.getuid()
        gid = uid if iso.privileged else os.getgid()
        mounted, cgroups, private = False, None, None
        try:
            _write_owner(root, uid if iso.privileged else None)  # first: a reaper sees no dir without one
            root.mkdir(mode=0o711)
            if iso.tmpfs and iso.private_tmpfs and cfg.local_mount_namespace:
                private = await _private_tmpfs(root, spec.tmpfs_mb, launched=cfg.local_launcher)
            elif iso.tmpfs:
                await _mount_tmpfs(root, spec.tmpfs_mb)
                mounted = True
            if iso.cgroup_pids and iso.cgroup_memory:
                cgroups = SandboxCgroups.create(
                    iso.cgroup_pids,
                    iso.cgroup_memory,
                    _cgroup_name(sid),
                    pids=spec.pids,
                    memory_mb=spec.memory_mb,
                    cpuacct_parent=iso.cgroup_cpuacct,
                )
            host = private.host_root if private else root
            layout = _prepare(root, host, uid, gid, iso, spec, toolchain, cgroups)
            if private:
                layout = msgspec.structs.replace(layout, mount_ns=private.namespace)
        except BaseException:
            with anyio.CancelScope(shield=True):
                await _teardown(root, mounted, cgroups, private)  # nothing ran as the uid yet
            if iso.privileged:
                release_uid(uid)
            raise
        ws = cls(sid, root, layout, cgroups, mounted, private)
        workdir = sandbox_dirs(iso, layout)[0]
        mounts = _view_mounts(iso, layout, root, ws.host_root)
        ws.view = HostView(
            mounts, workdir=workdir, uid=uid if iso.privileged else None, gid=gid if iso.privileged else None
        )
        return ws

    def _own_uid(self) -> int | None:
        """The sandbox's own uid (None when it runs as the calling user)."""
        uid = self.layout.uid
        return uid if uid is not None and uid not in (0, os.getuid()) else None

    async def kill_all(self) -> bool:
        """Kill every process of the sandbox: through its cgroups (every process it starts joins them
        before anything else runs, and cannot leave), or by its uid (a scan of the host's processes) when
        there are no cgroups or something survived them. False if some process survived."""
        if self.cgroups is not None and await self.cgroups.kill_all():
            return True
        uid = self._own_uid()
        return await kill_uids({uid}) if uid is not None else self.cgroups is None

    async def destroy(self) -> None:
        killed = await self.kill_all()
        await _teardown(self.root, self.mounted, self.cgroups, self.private, killed=killed)
        uid = self._own_uid()
        if uid is not None and killed:
            release_uid(uid)  # else the claim stays: the next start reaps the uid once we are gone
        elif uid is not None:
            log.warning("sandbox_processes_survived", sandbox=self.id, uid=uid)


def _view_mounts(iso: Isolation, layout: Layout, root: Path, host: Path) -> dict[str, Path]:
    """In-sandbox dir → where the host reaches it (`root` seen as `host`)."""
    from repozero.sandbox.exec_chain import IN_HOME, IN_TMP, IN_WORK

    dirs = (layout.work, layout.tmp, layout.home)
    prefix, reach = str(root) + "/", str(host) + "/"
    reached = [Path(reach + d.removeprefix(prefix)) for d in dirs]
    return dict(zip((IN_WORK, IN_TMP, IN_HOME) if iso.namespaces else dirs, reached, strict=True))


_bases: set[str] = set()
"""`local_root` dirs this process has made (or found) and set to 0711: once each, not at every open."""


def _make_base(base: str) -> None:
    if base not in _bases or not os.path.isdir(base):
        os.makedirs(base, exist_ok=True)
        os.chmod(base, 0o711)
        _bases.add(base)


def _prepare(
    root: Path,
    host: Path,
    uid: int,
    gid: int,
    iso: Isolation,
    spec: SandboxSpec,
    toolchain: Path,
    cgroups: SandboxCgroups | None,
) -> Layout:
    """Make the sandbox's dirs (at `host`, the host's way to `root`); the layout names them under `root`.
    String paths and plain syscalls: this runs on the event loop at every open."""
    h, r = str(host), str(root)
    for name in ("work", "tmp", "home"):
        os.mkdir(f"{h}/{name}", 0o700)
        if iso.privileged:
            os.chown(f"{h}/{name}", uid, gid)
    os.mkdir(f"{h}/shm")
    os.chmod(f"{h}/shm", 0o1777)  # as /dev/shm is: the launcher (root, no DAC override) writes there too
    os.mkdir(f"{h}/etc", 0o755)
    os.mkdir(f"{h}/logs", 0o700)
    passwd = (
        f"root:x:0:0:root:/root:/usr/sbin/nologin\nsandbox:x:{uid}:{gid}:sandbox:/home/sandbox:/bin/bash\n"
    )
    write_new(f"{h}/etc/passwd", passwd.encode())
    write_new(f"{h}/etc/group", f"root:x:0:\nsandbox:x:{gid}:\n".encode())
    for path in (*spec.path_dirs, *spec.ro_paths):
        if not os.path.isabs(path) or not os.path.exists(path):
            raise SandboxError(f"sandbox spec: {path!r} must be an existing absolute host path")
    return Layout(
        toolchain=str(toolchain), work=f"{r}/work", tmp=f"{r}/tmp", home=f"{r}/home", etc=f"{r}/etc",
        shm=f"{r}/shm", uid=uid if iso.privileged else None, gid=gid if iso.privileged else None,
        cgroup_procs=cgroups.procs_files if cgroups else [], path_dirs=list(spec.path_dirs),
        ro_paths=list(spec.ro_paths),
    )  # fmt: skip


_MOUNT_THREADS = 4
_mount_slots: list[tuple[object, anyio.CapacityLimiter]] = []
"""Worker threads for mount calls, for the running event loop: the calls serialize in the kernel anyway,
and threads blocked there must not take all of anyio's default pool (trace fsyncs and tree copies share
it). One entry, replaced when another loop asks: a process runs its loops in turn; only the last is kept."""


def _mount_limiter() -> anyio.CapacityLimiter:
    token = anyio.lowlevel.current_token()
    if not _mount_slots or _mount_slots[0][0] != token:
        _mount_slots[:] = [(token, anyio.CapacityLimiter(_MOUNT_THREADS))]
    return _mount_slots[0][1]


async def _mount_tmpfs(root: Path, size_mb: int) -> None:
    """In a worker thread: mount(2) takes the kernel's one mount lock, which the bwrap processes of every
    open sandbox also take (each re-reads the mount table, one entry per open sandbox); with hundreds open
    the call waits for seconds, and on the event loop every episode would wait with it."""
    options = f"size={size_mb}m,nr_inodes=100k,mode=0711"
    try:
        await anyio.to_thread.run_sync(mount_tmpfs, root, "repozero-sbx", options, limiter=_mount_limiter())
    except OSError as exc:
        raise SandboxError(f"cannot mount the sandbox tmpfs at {root}: {exc.strerror}") from exc


async def _private_tmpfs(root: Path, size_mb: int, *, launched: bool) -> PrivateTmpfs:
    """The sandbox's tmpfs at `root` in a namespace of its own (the host's `root` stays an empty dir): made
    by the launcher (sandbox/launcher_client.py) when `launched`, else on a thread of this process."""
    options = f"size={size_mb}m,nr_inodes=100k,mode=0711"
    try:
        starter = launcher() if launched else None
        if starter is not None:
            try:
                return PrivateTmpfs(root, *await starter.private_tmpfs(root, "repozero-sbx", options))
            except LauncherGone as exc:
                log.warning("sandbox_launcher_lost", error=str(exc))
        return PrivateTmpfs.make(root, "repozero-sbx", options)  # on this thread: a few syscalls
    except OSError as exc:
        raise SandboxError(f"cannot mount the sandbox tmpfs at {root}: {exc.strerror}") from exc


async def _teardown(
    root: Path,
    mounted: bool,
    cgroups: SandboxCgroups | None,
    private: PrivateTmpfs | None = None,
    *,
    killed: bool = False,
) -> None:
    """Kill what is left (unless the caller just did), then let go of the rest in a worker thread: each
    step may block in the kernel — a cgroup's rmdir while its last processes exit, the namespace's
    teardown at its last close and umount2(2) on the mount lock every starting bwrap takes, the files'
    removal — and at a thousand sandboxes closing while others run, the event loop must not."""
    if cgroups is not None and not killed:
        await cgroups.kill_all()
    await anyio.to_thread.run_sync(_release, root, mounted, cgroups, private, limiter=_mount_limiter())


def _release(root: Path, mounted: bool, cgroups: SandboxCgroups | None, private: PrivateTmpfs | None) -> None:
    if cgroups is not None:
        cgroups.remove_blocking()
    if private is not None:  # the tmpfs goes with the last process in its namespace
        private.close()
    _remove_files(root, mounted)


def _remove_files(root: Path, mounted: bool) -> None:
    """Unmount and delete a sandbox's files (in a worker thread: umount2(2) waits on the same kernel mount
    lock as mount(2), see `_mount_tmpfs`)."""
    if mounted:
        unmount(root)
    shutil.rmtree(root, ignore_errors=True)
    _owner_file(root).unlink(missing_ok=True)


def _owner_file(root: Path) -> Path:
    """`<root>.json` beside the sandbox dir: who owns it (pid, start time) and its uid."""
    return root.with_name(root.name + ".json")


def _write_owner(root: Path, uid: int | None) -> None:
    record = {"pid": os.getpid(), "start": my_start_time(), "uid": uid}
    parent, name = os.path.split(root)
    staging = f"{parent}/.{name}.json"
    write_new(staging, json.dumps(record).encode())
    os.rename(staging, f"{parent}/{name}.json")


def _owners(base: Path) -> dict[Path, dict[str, object]]:
    """Every sandbox dir under `base` (or owner record without a dir yet) → its owner record ({} if none)."""
    found: dict[Path, dict[str, object]] = {}
    for entry in base.glob("sbx-*") if base.is_dir() else []:
        root = entry.with_suffix("") if entry.suffix == ".json" else entry
        if root in found:
            continue
        try:
            found[root] = json.loads(_owner_file(root).read_text())
        except (OSError, ValueError):
            found[root] = {}
    return found


def _cgroup_name(sid: str) -> str:
    """`<sandbox id>.<owner pid>.<owner start time>`: a crashed run's groups are found even without its dirs."""
    return f"{sid}.{os.getpid()}.{my_start_time()}"


def _stale_cgroups(iso: Isolation) -> list[Path]:
    """Per-sandbox cgroups (under any local_root) whose owning process is gone."""
    found = []
    for parent in (iso.cgroup_pids, iso.cgroup_memory, iso.cgroup_cpuacct):
        for group in Path(parent).glob("sbx-*.*.*") if parent else []:
            _, pid, start = group.name.split(".", 2)
            if pid.isdigit() and not owner_alive(int(pid), start):
                found.append(group)
    return found


def _stale(base: Path) -> list[tuple[Path, dict[str, object], bool]]:
    """(root, owner record, mounted) of every sandbox whose owning process is gone."""
    found: list[tuple[Path, dict[str, object], bool]] = []
    for root, owner in _owners(base).items():
        if not owner and root.exists() and time.time() - root.stat().st_mtime < 60:
            continue  # a dir without a record: left by an older version, or mid-removal; give it time
        pid = owner.get("pid")
        if not owner_alive(pid if isinstance(pid, int) else 0, owner.get("start")):
            found.append((root, owner, os.path.ismount(root)))
    return found


def _our_mounts() -> list[Path]:
    """Mount points of every sandbox tmpfs on this host (source `repozero-sbx`), under any local_root."""
    found = []
    with open("/proc/self/mountinfo") as info:
        for line in info:
            fields = line.split()
            dash = fields.index("-")
            if fields[dash + 1] == "tmpfs" and fields[dash + 2] == "repozero-sbx":
                found.append(Path(fields[4].encode().decode("unicode_escape")))
    return found


def _stale_elsewhere(base: Path) -> list[tuple[Path, dict[str, object], bool]]:
    """Sandboxes of a dead owner mounted outside `base` (another local_root, e.g. a killed test run)."""
    found: list[tuple[Path, dict[str, object], bool]] = []
    for root in _our_mounts():
        if root.parent == base:
            continue
        try:
            owner = json.loads(_owner_file(root).read_text())
        except (OSError, ValueError):
            continue  # not ours to judge without a record
        pid = owner.get("pid")
        if not owner_alive(pid if isinstance(pid, int) else 0, owner.get("start")):
            found.append((root, owner, True))
    return found


async def reap_stale(base: Path, iso: Isolation) -> int:
    """Tear down sandboxes whose owning process is gone (a crashed or killed run); returns how many.

    Their processes are found by uid (one scan of the host's processes for all of them) from the
    uid claims a dead process left (of any local_root; a claim outlives its sandbox's dir and owner record).
    Their cgroups are found by name."""
    stale = _stale(base) + _stale_elsewhere(base)
    claims = take_stale_claims()
    if claims:
        await kill_uids(set(claims))
    for root, _, mounted in stale:
        await _teardown(root, mounted, None)
    for uid in claims:
        (UID_CLAIMS / f".reaping.{uid}.{os.getpid()}").unlink(missing_ok=True)
    groups = _stale_cgroups(iso)
    if groups:
        cgroups = SandboxCgroups(groups)
        await cgroups.kill_all()
        await cgroups.remove()
    if stale or groups or claims:
        log.info("sandbox_reaped_stale", sandboxes=len(stale), cgroups=len(groups), uids=len(claims))
    return len(stale)
