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

__all__ = ["mount_tmpfs", "tmpfs_in_new_namespace", "unmount"]

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
    return libc


def mount_tmpfs(target: Path, source: str, options: str, *, keep_gil: bool = False) -> None:
    """Mount a nosuid,nodev tmpfs named `source` at `target` with data `options` (size=…, mode=…).

    Raises OSError (with errno and the target) when the kernel refuses."""
    flags = _MS_NOSUID | _MS_NODEV
    libc = _libc(keep_gil=keep_gil)
    _check(libc.mount(source.encode(), os.fsencode(target), b"tmpfs", flags, options.encode()), str(target))


def unmount(target: Path, *, lazy: bool = True) -> bool:
    """Unmount `target` (detached when `lazy`: busy files keep it alive until closed); False if it failed."""
    return _libc().umount2(os.fsencode(target), _MNT_DETACH if lazy else 0) == 0


def _check(result: int, what: str) -> None:
    if result != 0:  # errno is kept per thread by ctypes (use_errno): this thread's last call
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), what)


def tmpfs_in_new_namespace(target: Path, source: str, options: str) -> tuple[int, int]:
    """A new private mount namespace holding a tmpfs at `target`: (an fd of the namespace, an O_PATH fd
    of the tmpfs's root). The two descriptors keep both alive — no process needs to stay in there — until
    they are closed (or this process ends).

    Blocks the caller for a few syscalls (~0.3 ms). They run on a thread of its own, started and ended here:
    unshare(2) of the mount namespace needs a thread that shares no filesystem attributes (CLONE_FS), and
    the thread then lives in the new namespace, so a pool thread would carry it into whatever it ran next.
    The thread holds the GIL throughout: a worker thread that let go of it at each call waited up to the
    interpreter's switch interval (5 ms) to take it back from a busy event loop, each time — ~25 ms per
    mount with hundreds of sandboxes opening."""
    result: list[int] = []
    failure: list[BaseException] = []

    def unshare_and_mount() -> None:
        try:
            libc = _libc(keep_gil=True)
            _check(libc.unshare(_CLONE_FS), "unshare(CLONE_FS)")
            _check(libc.unshare(_CLONE_NEWNS), "unshare(CLONE_NEWNS)")
            _check(libc.mount(b"none", b"/", None, _MS_REC | _MS_PRIVATE, None), "/ (make private)")
            mount_tmpfs(target, source, options, keep_gil=True)
            result.append(os.open("/proc/thread-self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC))
            result.append(os.open(target, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC))
        except BaseException as exc:  # handed to the caller's thread
            for fd in result:
                os.close(fd)
            failure.append(exc)

    thread = threading.Thread(target=unshare_and_mount, name="repozero-mount-ns")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0], result[1]
