"""The argv that starts one process inside a local sandbox, as a chain of small exec'ing wrappers.

    sh (root: join the sandbox's cgroups) → prlimit (rlimits) → nsenter (the mount namespace holding the
    sandbox's tmpfs, sandbox/private_tmpfs.py) → bwrap (namespaces, a minimal filesystem:
    the toolchain at /usr/bin, system libraries read-only, the sandbox's tmpfs dirs at /work, /tmp and
    /home/sandbox, nothing else of the host) → setpriv (root: the sandbox's own uid, no capabilities,
    no new privileges) → the command

Each link execs the next, so the pid the host holds is the sandbox's outermost process; killing it kills
the PID namespace and everything in it. Without bubblewrap ("plain") the chain is the same minus bwrap,
with host paths. With the launcher (sandbox/launcher_client.py), its forked child does the first three links
itself (`launch_plan`: what they do, and the argv from bwrap on).
"""

from __future__ import annotations

import glob
import resource
from functools import cache
from pathlib import Path

from repozero.kernel.records import Record
from repozero.sandbox.base import SandboxSpec
from repozero.sandbox.isolation import Isolation
from repozero.sandbox.toolchains import toolchain_paths

__all__ = [
    "IN_HOME", "IN_TMP", "IN_WORK", "Layout", "Prelude", "base_env", "launch_argv", "launch_plan", "sandbox_dirs",
]  # fmt: skip

IN_WORK, IN_TMP, IN_HOME = "/work", "/tmp", "/home/sandbox"
IN_LIBEXEC = "/usr/libexec/repozero"
AS_HEADROOM_MB = 2048
"""Address space allowed beyond `memory_mb`: V8 reserves ~1 GiB of virtual memory before running a line."""


class Layout(Record, kw_only=True):
    """Where one sandbox's pieces live on the host, and who runs in it."""

    toolchain: str
    """Host toolchain dir (bin/, libexec/)."""
    work: str
    tmp: str
    home: str
    etc: str
    """Host dir with the sandbox's passwd and group files."""
    shm: str = ""
    """Host dir (on the sandbox's tmpfs) seen as /dev/shm: POSIX semaphores and shared memory —
    Python's multiprocessing locks, libfaketime — need it writable, as in a container."""
    uid: int | None = None
    gid: int | None = None
    mount_ns: str = ""
    """The mount namespace the paths above are in, as a file `nsenter --mount=` opens (/proc/PID/fd/N,
    sandbox/private_tmpfs.py); "" for the host's."""
    cgroup_procs: list[str] = []
    path_dirs: list[str] = []
    ro_paths: list[str] = []


def sandbox_dirs(iso: Isolation, layout: Layout) -> tuple[str, str, str, str]:
    """(workdir, tmp, home, PATH) as the sandboxed process sees them."""
    if iso.namespaces:
        return IN_WORK, IN_TMP, IN_HOME, ":".join([*layout.path_dirs, "/usr/bin"])
    return layout.work, layout.tmp, layout.home, ":".join([*layout.path_dirs, f"{layout.toolchain}/bin"])


def base_env(iso: Isolation, layout: Layout) -> dict[str, str]:
    """The case-execution contract's environment: PATH, LANG, LC_ALL, TZ and a scratch HOME."""
    _, tmp, home, path = sandbox_dirs(iso, layout)
    env = {"PATH": path, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TZ": "UTC", "HOME": home}
    if not iso.namespaces:  # the host's /tmp is shared: point scratch files at the sandbox's own
        env["TMPDIR"] = tmp
    return env


def _cgroup_prefix(layout: Layout) -> list[str]:
    if not layout.cgroup_procs:
        return []
    n = len(layout.cgroup_procs)
    script = " && ".join(f'echo $$ >"${i}"' for i in range(1, n + 1)) + f' && shift {n} && exec "$@"'
    return ["/bin/sh", "-c", script, "repozero-enter", *layout.cgroup_procs]


class Prelude(Record, kw_only=True):
    """What the chain's links before bwrap do, for a launcher that does it itself (sandbox/launcher_client.py):
    join the cgroups, set the rlimits (soft = hard), enter the mount namespace."""

    cgroup_procs: list[str] = []
    rlimits: list[tuple[int, int]] = []
    """(resource.RLIMIT_*, value) pairs."""
    mount_ns: str = ""


def _rlimit_values(iso: Isolation, spec: SandboxSpec) -> list[tuple[str, int]]:
    """(prlimit option, value): the limits every sandboxed process starts under."""
    if not iso.prlimit:
        return []
    values = [("as", (spec.memory_mb + AS_HEADROOM_MB) << 20), ("cpu", spec.cpu_time_s)]
    values += [("fsize", spec.file_size_mb << 20), ("nofile", spec.open_files), ("core", 0)]
    if iso.privileged:  # RLIMIT_NPROC counts every process of the uid: only meaningful for our own uid
        values.append(("nproc", spec.pids))
    return values


def _rlimits(iso: Isolation, spec: SandboxSpec) -> list[str]:
    values = _rlimit_values(iso, spec)
    return [iso.prlimit, *(f"--{name}={value}" for name, value in values), "--"] if values else []


def _drop(iso: Isolation, layout: Layout, setpriv: str) -> list[str]:
    if not iso.privileged or layout.uid is None or layout.gid is None:
        return []
    return [
        setpriv,
        f"--reuid={layout.uid}",
        f"--regid={layout.gid}",
        "--clear-groups",
        "--inh-caps=-all",
        "--",
    ]


def _binds(layout: Layout, spec: SandboxSpec) -> list[tuple[str, str, str]]:
    """(option, host source, sandbox destination) for everything the sandbox may see."""
    tc = layout.toolchain
    binds = [("--ro-bind", f"{tc}/bin", "/usr/bin"), ("--ro-bind", f"{tc}/libexec", IN_LIBEXEC)]
    # System libraries, read-only: the multiarch dirs, ld.so, locales, zoneinfo; not /usr/lib at large.
    binds += [("--ro-bind", lib, lib) for lib in _multiarch_dirs()]
    for optional in ("/usr/lib64", "/usr/lib/locale", "/usr/share/zoneinfo", "/etc/ld.so.cache"):
        binds.append(("--ro-bind-try", optional, optional))
    binds += [
        ("--ro-bind", f"{layout.etc}/passwd", "/etc/passwd"),
        ("--ro-bind", f"{layout.etc}/group", "/etc/group"),
    ]
    binds += [
        ("--bind", layout.work, IN_WORK),
        ("--bind", layout.tmp, IN_TMP),
        ("--bind", layout.home, IN_HOME),
    ]
    extra = [*layout.path_dirs, *layout.ro_paths, *toolchain_paths(spec.toolchain)]
    binds += [("--ro-bind", path, path) for path in dict.fromkeys(extra)]
    return binds


@cache
def _multiarch_dirs() -> tuple[str, ...]:
    """The host's multiarch library dirs, listed once per process (a glob per sandbox process cost more
    than the rest of its argv)."""
    return tuple(sorted(glob.glob("/usr/lib/*-linux-gnu*")))


def _parents(dest: str) -> list[str]:
    """Ancestors of a destination, shallow first. Made with `--dir` right before the bind: bwrap would
    create them 0700 (unreadable for the sandbox's uid), and one under /tmp must be made after /tmp is."""
    parts = dest.strip("/").split("/")[:-1]
    return ["/" + "/".join(parts[: i + 1]) for i in range(len(parts))]


def _bwrap(iso: Isolation, layout: Layout, spec: SandboxSpec, cwd: str) -> list[str]:
    argv = [
        iso.bwrap,
        "--unshare-net",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
    ]
    argv += ["--die-with-parent", "--new-session", "--hostname", "sandbox"]
    if not iso.privileged:
        argv.append("--unshare-user")
    made: set[str] = set()
    for option, src, dest in _binds(layout, spec):
        for parent in _parents(dest):
            if parent not in made:
                argv += ["--dir", parent]
                made.add(parent)
        argv += [option, src, dest]
        made = {p for p in made if not (p == dest or p.startswith(dest + "/"))}  # now hidden by the bind
    for link, target in (("/bin", "usr/bin"), ("/lib", "usr/lib"), ("/lib64", "usr/lib64")):
        argv += ["--symlink", target, link]
    argv += ["--proc", "/proc", "--dev", "/dev"]
    if layout.shm:
        argv += ["--bind", layout.shm, "/dev/shm"]  # after --dev, which makes a fresh /dev
    argv += ["--remount-ro", "/", "--chdir", cwd]
    if iso.privileged:
        argv += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return [*argv, "--"]


def launch_plan(
    iso: Isolation, layout: Layout, spec: SandboxSpec, argv: list[str], cwd: str
) -> tuple[Prelude, list[str]]:
    """The chain for `argv` split in two: what its first links do, and the argv from bwrap on (namespaces
    only; `launch_argv` is the same chain as one argv)."""
    if not argv:
        raise ValueError("empty argv")
    limits = [
        (getattr(resource, f"RLIMIT_{name.upper()}"), value) for name, value in _rlimit_values(iso, spec)
    ]
    prelude = Prelude(cgroup_procs=list(layout.cgroup_procs), rlimits=limits, mount_ns=layout.mount_ns)
    rest = [*_bwrap(iso, layout, spec, cwd), *_drop(iso, layout, f"{IN_LIBEXEC}/setpriv"), *argv]
    return prelude, rest


def launch_argv(iso: Isolation, layout: Layout, spec: SandboxSpec, argv: list[str], cwd: str) -> list[str]:
    """The full chain for `argv` with in-sandbox working directory `cwd`."""
    if not argv:
        raise ValueError("empty argv")
    chain = [*_cgroup_prefix(layout), *_rlimits(iso, spec)]
    if iso.namespaces and layout.mount_ns:
        chain += [iso.nsenter, f"--mount={layout.mount_ns}", "--"]
    if iso.namespaces:
        chain += _bwrap(iso, layout, spec, cwd)
        chain += _drop(iso, layout, f"{IN_LIBEXEC}/setpriv")
    else:
        chain += _drop(iso, layout, str(Path(layout.toolchain) / "libexec" / "setpriv"))
    return [*chain, *argv]
