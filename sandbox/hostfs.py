"""File access to a local sandbox from the host that never follows a link out of it.

Untrusted code can plant `/work/x -> /etc/shadow`; a host that opened the path naively would read its own
file. Here every component is opened relative to its parent's fd with O_NOFOLLOW, and a symlink is resolved
the way the sandbox itself would see it (an in-sandbox path, mapped again through the sandbox's mounts), so
a link can only lead to another place inside the sandbox's writable dirs — or to a clear `SandboxError`.
"""

from __future__ import annotations

import errno
import os
import posixpath
import stat
from collections.abc import Mapping
from pathlib import Path

from repozero.kernel.errors import RepoZeroError, SandboxError

__all__ = ["HostView"]

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_MAX_HOPS = 40
_CHUNK = 1 << 20


class _Redirect(RepoZeroError):
    """A symlink was met: continue from this in-sandbox path."""

    def __init__(self, path: str) -> None:
        self.path = path


class HostView:
    """The host's view of a sandbox's writable dirs: in-sandbox absolute path prefix → host dir."""

    def __init__(self, mounts: Mapping[str, Path], *, workdir: str, uid: int | None, gid: int | None) -> None:
        self.mounts = dict(sorted(mounts.items(), key=lambda kv: -len(kv[0])))
        self.workdir = workdir
        self.uid, self.gid = uid, gid

    def absolute(self, path: str) -> str:
        """An in-sandbox path made absolute (relative paths are under the work dir) and normalised."""
        return posixpath.normpath(posixpath.join(self.workdir, path))

    def host_path(self, path: str) -> Path:
        """Lexical mapping only (no symlink checks): for paths we create ourselves, like a cwd."""
        prefix, rest = self._mount_of(self.absolute(path))
        return self.mounts[prefix].joinpath(*rest)

    def _mount_of(self, path: str) -> tuple[str, list[str]]:
        for prefix in self.mounts:
            if path == prefix or path.startswith(prefix.rstrip("/") + "/"):
                rest = path[len(prefix) :].strip("/")
                return prefix, [p for p in rest.split("/") if p]
        raise SandboxError(f"{path}: outside the sandbox's writable dirs ({', '.join(self.mounts)})")

    # --- resolution ---------------------------------------------------------------------------------
    def _chown(self, name: str, dir_fd: int) -> None:
        if self.uid is not None and self.gid is not None:
            os.chown(name, self.uid, self.gid, dir_fd=dir_fd, follow_symlinks=False)

    def _step(self, fd: int, comp: str, here: str, rest: list[str], *, create: bool) -> int:
        """Open one directory component below `fd`; raise _Redirect on a symlink."""
        try:
            return os.open(comp, _DIR_FLAGS, dir_fd=fd)
        except FileNotFoundError:
            if not create:
                raise SandboxError(f"{posixpath.join(here, comp)}: no such directory") from None
            os.mkdir(comp, 0o755, dir_fd=fd)
            self._chown(comp, fd)
            return os.open(comp, _DIR_FLAGS, dir_fd=fd)
        except OSError as exc:
            if exc.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise
            target = _readlink(comp, fd)
            if target is None:
                raise SandboxError(f"{posixpath.join(here, comp)}: not a directory") from None
            raise _Redirect(posixpath.normpath(posixpath.join(here, target, *rest))) from None

    def _open_dir(self, path: str, *, create: bool = False) -> tuple[int, str]:
        """An fd for the in-sandbox dir `path` (resolved inside the sandbox), and its resolved path."""
        path = self.absolute(path)
        for _ in range(_MAX_HOPS):
            prefix, parts = self._mount_of(path)
            fd = os.open(self.mounts[prefix], _DIR_FLAGS)
            here = prefix
            try:
                for i, comp in enumerate(parts):
                    child = self._step(fd, comp, here, parts[i + 1 :], create=create)
                    os.close(fd)
                    fd, here = child, posixpath.join(here, comp)
                return fd, here
            except _Redirect as hop:
                os.close(fd)
                path = hop.path
            except BaseException:
                os.close(fd)
                raise
        raise SandboxError(f"{path}: too many levels of symbolic links")

    def _open_file(
        self, path: str, flags: int, mode: int = 0o644, *, create: bool = False
    ) -> tuple[int, int, str]:
        """(parent dir fd, file fd, resolved path) for a file, following links inside the sandbox only."""
        path = self.absolute(path)
        for _ in range(_MAX_HOPS):
            head, name = posixpath.split(path)
            if not name:
                raise SandboxError(f"{path}: is a directory")
            dir_fd, here = self._open_dir(head, create=create)
            try:
                return dir_fd, os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode, dir_fd=dir_fd), here
            except OSError as exc:
                target = _readlink(name, dir_fd) if exc.errno in (errno.ELOOP, errno.EISDIR) else None
                os.close(dir_fd)
                if target is None:
                    raise SandboxError(f"{path}: {exc.strerror}") from None
                path = posixpath.normpath(posixpath.join(here, target))
        raise SandboxError(f"{path}: too many levels of symbolic links")

    # --- files --------------------------------------------------------------------------------------
    def read_file(self, path: str, *, max_bytes: int | None = None) -> bytes:
        dir_fd, fd, _ = self._open_file(path, os.O_RDONLY | os.O_NONBLOCK)
        os.close(dir_fd)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SandboxError(f"{path}: not a regular file")
            chunks, left = [], max_bytes if max_bytes is not None else -1
            while left != 0:
                chunk = os.read(fd, _CHUNK if left < 0 else min(left, _CHUNK))
                if not chunk:
                    break
                chunks.append(chunk)
                left = left - len(chunk) if left > 0 else left
            return b"".join(chunks)
        finally:
            os.close(fd)

    def write_file(self, path: str, data: bytes, *, mode: int = 0o644) -> None:
        dir_fd, fd, _ = self._open_file(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode, create=True)
        os.close(dir_fd)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise SandboxError(f"{path}: not a regular file")
            self._own(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
        finally:
            os.close(fd)

    def _own(self, fd: int, mode: int) -> None:
        if self.uid is not None and self.gid is not None:
            os.fchown(fd, self.uid, self.gid)
        os.fchmod(fd, mode & 0o7777)

    def mkdir(self, path: str) -> None:
        os.close(self._open_dir(path, create=True)[0])

    # --- trees --------------------------------------------------------------------------------------
    def put_tree(self, src: Path, dest: str) -> None:
        """Copy a host folder into the sandbox (symlinks copied as symlinks)."""
        if not src.is_dir():
            raise SandboxError(f"put_tree: {src} is not a directory")
        fd, _ = self._open_dir(dest, create=True)
        try:
            self._put_dir(src, fd)
        finally:
            os.close(fd)

    def _put_dir(self, src: Path, fd: int) -> None:
        for entry in os.scandir(src):
            name = entry.name
            if entry.is_symlink():
                _remove_entry(name, fd)
                os.symlink(os.readlink(entry.path), name, dir_fd=fd)
                self._chown(name, fd)
            elif entry.is_dir():
                try:
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                except OSError:
                    _remove_entry(name, fd)
                    os.mkdir(name, 0o755, dir_fd=fd)
                    self._chown(name, fd)
                    child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                try:
                    self._put_dir(Path(entry.path), child)
                finally:
                    os.close(child)
            elif entry.is_file():
                self._put_file(Path(entry.path), name, fd)

    def _put_file(self, src: Path, name: str, fd: int) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            out = os.open(name, flags, 0o600, dir_fd=fd)
        except OSError:
            _remove_entry(name, fd)
            out = os.open(name, flags, 0o600, dir_fd=fd)
        try:
            self._own(out, src.stat().st_mode & 0o777)
            with open(src, "rb") as handle:
                while chunk := handle.read(_CHUNK):
                    os.write(out, chunk)
        finally:
            os.close(out)

    def get_tree(self, src: str, dest: Path) -> None:
        """Copy a sandbox folder out to the host; symlinks stay symlinks, specials are skipped."""
        fd, _ = self._open_dir(src)
        try:
            dest.mkdir(parents=True, exist_ok=True)
            _get_dir(fd, dest)
        finally:
            os.close(fd)


def _readlink(name: str, dir_fd: int) -> str | None:
    try:
        return os.readlink(name, dir_fd=dir_fd)
    except OSError:
        return None


def _remove_entry(name: str, dir_fd: int) -> None:
    """Make room for `name` in a sandbox dir (the sandbox may have put a link or a dir there)."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise SandboxError(f"put_tree: {name} is a directory in the sandbox but a file on the host")
    os.unlink(name, dir_fd=dir_fd)


def _get_dir(fd: int, dest: Path) -> None:
    for entry in os.scandir(fd):
        name, target = entry.name, dest / entry.name
        if entry.is_symlink():
            os.symlink(os.readlink(name, dir_fd=fd), target)
        elif entry.is_dir(follow_symlinks=False):
            child = os.open(name, _DIR_FLAGS, dir_fd=fd)
            try:
                target.mkdir(exist_ok=True)
                _get_dir(child, target)
            finally:
                os.close(child)
        elif entry.is_file(follow_symlinks=False):
            src = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=fd)
            try:
                st = os.fstat(src)
                if stat.S_ISREG(st.st_mode):
                    with open(target, "wb") as out:
                        while chunk := os.read(src, _CHUNK):
                            out.write(chunk)
                    os.chmod(target, st.st_mode & 0o777)
            finally:
                os.close(src)
