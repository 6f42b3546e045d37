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
def _libc() -> ctypes.CDLL:
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
    libc.umount2.argtypes = [ctypes.c_char_p, ctypes.c_int]
    libc.unshare.argtypes = [ctypes.c_int]
    libc.setns.argtypes = [ctypes.c_int, ctypes.c_int]
    return libc


def mount_tmpfs(target: Path, source: str, options: str) -> None:
    """Mount a nosuid,nodev tmpfs named `source` at `target` with data `options` (size=…, mode=…).

    Raises OSError (with errno and the target) when the kernel refuses."""
    flags = _MS_NOSUID | _MS_NODEV
    if _libc().mount(source.encode(), os.fsencode(target), b"tmpfs", flags, options.encode()) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), str(target))


def unmount(target: Path, *, lazy: bool = True) -> bool:
    """Unmount `target` (detached when `lazy`: busy files keep it alive until closed); False if it failed."""
    return _libc().umount2(os.fsencode(target), _MNT_DETACH if lazy else 0) == 0


def _check(result: int, what: str) -> None:
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), what)


def mount_tmpfs_in(namespace: str, target: Path, source: str, options: str) -> None:
    """`mount_tmpfs` inside the mount namespace `namespace` (a /proc/PID/ns/mnt file), made private first.

    Runs on a thread of its own, started and ended here: setns(2) into a mount namespace needs a thread
    that shares no filesystem attributes (unshare CLONE_FS), which it then keeps for life; a pool thread
    would carry that namespace, root and cwd into whatever it runs next."""
    failure: list[BaseException] = []

    def enter_and_mount() -> None:
        try:
            libc = _libc()
            _check(libc.unshare(_CLONE_FS), "unshare(CLONE_FS)")
            fd = os.open(namespace, os.O_RDONLY | os.O_CLOEXEC)
            try:
                _check(libc.setns(fd, _CLONE_NEWNS), namespace)
            finally:
                os.close(fd)
            _check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "/ (make private)")
            mount_tmpfs(target, source, options)
        except BaseException as exc:  # handed to the caller's thread
            failure.append(exc)

    thread = threading.Thread(target=enter_and_mount, name="repozero-mount-ns")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
