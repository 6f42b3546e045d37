"""tmpfs mounts through mount(2)/umount2(2) directly, not the `mount` program.

Every local sandbox mounts a tmpfs at open and unmounts it at close. Spawning `mount`/`umount` costs a
fork of this (large) process and an exec, ~3.6 ms even from a small one; the syscalls cost ~30 µs. At
hundreds of sandboxes opening at once that was most of the time before the first step.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import threading
from functools import cache
from pathlib import Path

__all__ = ["mount_tmpfs", "mount_tmpfs_in", "unmount"]

_MS_NOSUID, _MS_NODEV, _MS_REC, _MS_PRIVATE = 0x2, 0x4, 0x4000, 0x40000
_MNT_DETACH = 0x2
_CLONE_FS, _CLONE_NEWNS = 0x200, 0x20000


@cache
def _libc(*, keep_gil: bool = False) -> ctypes.CDLL:
    """libc for ctypes calls; `keep_gil`: calls that do not let go of the GIL (`ctypes.PyDLL`)."""
    kind = ctypes.PyDLL if keep_gil else ctypes.CDLL
    libc = kind(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.unshare.argtypes = [ctypes.c_int]
    libc.setns.argtypes = [ctypes.c_int, ctypes.c_int]
    return libc


def mount_tmpfs(target: Path, source: str, options: str, *, keep_gil: bool = False) -> None:
    """Mount a nosuid,nodev tmpfs named `source` at `target` with data `options` (size=…, mode=…).

    Raises OSError (with errno and the target) when the kernel refuses."""
    flags = _MS_NOSUID | _MS_NODEV
    if (
        _libc(keep_gil=keep_gil).mount(
            source.encode(), os.fsencode(target), b"tmpfs", flags, options.encode()
        )
        != 0
    ):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), str(target))


def unmount(target: Path, *, lazy: bool = True) -> bool:
    """Unmount `target` (detached when `lazy`: busy files keep it alive until closed); False if it failed."""
    return _libc().umount2(os.fsencode(target), _MNT_DETACH if lazy else 0) == 0


def _check(result: int, what: str) -> None:
    if result != 0:  # errno is kept per thread by ctypes (use_errno): this thread's last call
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), what)


def mount_tmpfs_in(namespace: str, target: Path, source: str, options: str) -> None:
    """`mount_tmpfs` inside the mount namespace `namespace` (a /proc/PID/ns/mnt file), made private first.

    Blocks the caller for the few syscalls (~0.3 ms; a tmpfs mount in a namespace of a few dozen mounts
    waits on nothing). They run on a thread of its own, started and ended here: setns(2) into a mount
    namespace needs a thread that shares no filesystem attributes (unshare CLONE_FS), which it then keeps
    for life, so a pool thread would carry that namespace, root and cwd into whatever it ran next. The
    thread holds the GIL throughout: a worker thread that let go of it at each call waited up to the
    interpreter's switch interval (5 ms) to take it back from a busy event loop, each time — ~25 ms per
    mount with hundreds of sandboxes opening."""
    failure: list[BaseException] = []

    def enter_and_mount() -> None:
        try:
            libc = _libc(keep_gil=True)
            _check(libc.unshare(_CLONE_FS), "unshare(CLONE_FS)")
            fd = os.open(namespace, os.O_RDONLY | os.O_CLOEXEC)
            try:
                _check(libc.setns(fd, _CLONE_NEWNS), namespace)
            finally:
                os.close(fd)
            _check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "/ (make private)")
            mount_tmpfs(target, source, options, keep_gil=True)
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=enter_and_mount, name="repozero-mount-ns")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
