"""A warmed interpreter that forks one child per case run, so a run costs a fork, not a Python start-up.

This file is run by the source environment's own interpreter (which holds only the pinned packages), so
it uses the standard library only and never imports repozero. Protocol: one JSON object per line on
stdin/stdout, bytes in base64::

    server -> host  {"op": "hello", "pid", "python", "hash_seed", "now"}
    host -> server  {"op": "run", "program": {"dir", "path", "digest"}, "timeout", "cap", "stderr_cap",
                     "runs": [{"id", "argv", "stdin"}]}
    server -> host  {"op": "ran", "results": [{"id", "stdout", "stderr", "exit", "wall", "timed_out",
                     "truncated"}]}  or  {"op": "error", "message"}

EOF on stdin ends the server. On first sight of a program the server imports what the program imports
(only modules that import cleanly and silently in a probe child). Each run forks a child that starts a
new session, copies the program folder to a fresh scratch dir, chdirs there, and runs the program as
`__main__` with argv, stdin and environment per the case-execution contract; the child then exits
through normal interpreter shutdown, as a fresh `python script.py` would. The server kills the child's
process group at the per-case timeout or as soon as stdout passes the cap; death by signal N is 128+N.

A forked child inherits the server's hash seed and memory layout: the caller must spread the repeats of
a case over several servers started with different PYTHONHASHSEED values.
"""
# ruff: noqa: E402

from __future__ import annotations

import sys

_STARTUP_MODULES = frozenset(sys.modules)

import ast
import base64
import builtins
import io
import json
import os
import select
import shutil
import signal
import time
import types
from typing import Any

_MAX_LINE = 1 << 30
_PROBE_TIMEOUT_S = 60.0
_DRAIN_GRACE_S = 1.0
_SETUP_FAILED = 125


class _Forked(BaseException):
    """Raised in a freshly forked child to unwind the server's frames before the program runs."""

    def __init__(self, job: dict[str, Any]) -> None:
        super().__init__()
        self.job = job


# ---------------------------------------------------------------------------------------------- server


class Server:
    """Reads run requests, forks one child per case, answers with what each child did."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.scratch = opts["scratch"]
        os.makedirs(self.scratch, exist_ok=True)
        self.child_env = opts["child_env"]
        self.proto_in = os.dup(0)
        self.proto_out = os.dup(1)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)  # a stray print during a pre-import must never reach the protocol pipe
        os.close(null)
        self.pending = b""
        self.warmed: set[str] = set()
        self.count = 0

    def serve(self) -> None:
        self.send(
            {
                "op": "hello",
                "pid": os.getpid(),
                "python": sys.version,
                "hash_seed": os.environ.get("PYTHONHASHSEED", ""),
                "now": time.time(),
            }
        )
        while True:
            line = self.read_line()
            if line is None:
                return
            try:
                request = json.loads(line)
                reply = {"op": "ran", "results": self.run_batch(request)}
            except Exception as exc:
                reply = {"op": "error", "message": f"{type(exc).__name__}: {exc}"}
            self.send(reply)

    def read_line(self) -> bytes | None:
        while b"\n" not in self.pending:
            chunk = os.read(self.proto_in, 1 << 16)
            if not chunk:
                return None
            self.pending += chunk
            if len(self.pending) > _MAX_LINE:
                raise SystemExit("forkserver: request line too long")
        line, _, self.pending = self.pending.partition(b"\n")
        return line

    def send(self, message: dict[str, Any]) -> None:
        data = memoryview(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        while data:
            data = data[os.write(self.proto_out, data) :]

    def run_batch(self, request: dict[str, Any]) -> list[dict[str, Any]]:
        if request.get("op") != "run":
            raise ValueError(f"unknown op {request.get('op')!r}")
        program = request["program"]
        self.warm(program)
        limits = (float(request["timeout"]), int(request["cap"]), int(request["stderr_cap"]))
        return [self.run_case(program, run, *limits) for run in request["runs"]]

    # ------------------------------------------------------------------------------------ one case

    def run_case(
        self, program: dict[str, Any], run: dict[str, Any], timeout: float, cap: int, stderr_cap: int
    ) -> dict[str, Any]:
        self.count += 1
        root = os.path.join(self.scratch, f"r{self.count}")
        os.mkdir(root)
        # the copy is made here, not in the child: the server's pages are warm, the child's copy-on-write
        shutil.copytree(program["dir"], os.path.join(root, "work"), symlinks=True)
        os.mkdir(os.path.join(root, "home"))
        stdin = None if run.get("stdin") is None else base64.b64decode(run["stdin"])
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            job = {
                "program": program,
                "argv": run["argv"],
                "stdin": stdin,
                "root": root,
                "env": self.child_env,
                "out": out_w,
                "err": err_w,
                "close": [out_r, err_r, self.proto_in, self.proto_out],
            }
            raise _Forked(job)
        os.close(out_w)
        os.close(err_w)
        try:
            result = _collect(pid, out_r, err_r, started + timeout, cap, stderr_cap)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        result["id"] = run["id"]
        result["wall"] = time.monotonic() - started
        return result

    # ------------------------------------------------------------------------------------ warming

    def warm(self, program: dict[str, Any]) -> None:
        """Import, once per program, the modules it imports — only those that import cleanly and silently."""
        if program["digest"] in self.warmed:
            return
        self.warmed.add(program["digest"])
        script_dir = os.path.dirname(os.path.join(program["dir"], program["path"]))
        local = _local_names(script_dir)
        wanted = [
            name
            for name in _scan_imports(program["dir"])
            if name.split(".")[0] not in local and name not in sys.modules
        ]
        for name in self.probe(wanted) if wanted else []:
            _quiet_import(name)

    def probe(self, names: list[str]) -> list[str]:
        """Try the imports in a throwaway child; return those that succeeded without printing anything."""
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                os.write(write_end, json.dumps(_clean_imports(names, self.scratch)).encode())
            finally:
                os._exit(0)
        os.close(write_end)
        result = _collect(pid, read_end, None, time.monotonic() + _PROBE_TIMEOUT_S, _MAX_LINE, 0)
        if result["exit"] != 0 or result["timed_out"]:
            return []
        try:
            return [str(n) for n in json.loads(base64.b64decode(result["stdout"]))]
        except ValueError:
            return []


def _scan_imports(folder: str) -> list[str]:
    """Absolute module names imported anywhere in the program's Python files, in first-seen order."""
    names: dict[str, None] = {}
    for base, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for file in sorted(f for f in files if f.endswith(".py")):
            try:
                with open(os.path.join(base, file), "rb") as handle:
                    tree = ast.parse(handle.read())
            except (SyntaxError, ValueError, OSError):
                continue
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names.update((alias.name, None) for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names[node.module] = None
    names.pop("__future__", None)
    return list(names)


def _local_names(folder: str) -> set[str]:
    """Top-level module names the script's own folder provides (they shadow installed ones)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return set()
    names = {e[:-3] for e in entries if e.endswith(".py")}
    names.update(e for e in entries if os.path.isdir(os.path.join(folder, e)))
    return names


def _clean_imports(names: list[str], scratch: str) -> list[str]:
    """(In a probe child.) Import each name with fds 1 and 2 on a file; keep those that wrote nothing."""
    sink = os.open(os.path.join(scratch, f"probe-{os.getpid()}"), os.O_RDWR | os.O_CREAT, 0o600)
    os.dup2(sink, 1)
    os.dup2(sink, 2)
    clean = []
    for name in names:
        before = os.fstat(sink).st_size
        try:
            __import__(name)
            ok = True
        except BaseException:
            ok = False
        _flush_std()
        if ok and os.fstat(sink).st_size == before:
            clean.append(name)
    os.unlink(os.path.join(scratch, f"probe-{os.getpid()}"))
    return clean


def _quiet_import(name: str) -> None:
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 2)
    try:
        __import__(name)
    except BaseException:
        pass
    finally:
        _flush_std()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass


# ---------------------------------------------------------------------------------------- collecting


def _collect(pid: int, out_r: int, err_r: int | None, deadline: float, cap: int, stderr_cap: int) -> dict:
    """Read the child's pipes until it exits (or the deadline or the cap), then kill its group and reap it."""
    fds = {out_r: bytearray()} if err_r is None else {out_r: bytearray(), err_r: bytearray()}
    caps = {out_r: cap, err_r: stderr_cap}
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    pidfd = _pidfd(pid)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    open_fds, exited, timed_out, truncated = set(fds), False, False, False
    while open_fds:
        now = time.monotonic()
        if now >= deadline:
            timed_out = not exited
            break
        wait = deadline - now if pidfd is not None else min(deadline - now, 0.01)
        for fd, _ in poller.poll(wait * 1000):
            if fd == pidfd:
                exited = True
                deadline = min(deadline, time.monotonic() + _DRAIN_GRACE_S)
                poller.unregister(pidfd)
                _kill_group(pid)  # leftover grandchildren must not hold the pipes open
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                poller.unregister(fd)
                open_fds.discard(fd)
            elif fd == out_r:
                fds[fd] += chunk
                if len(fds[fd]) > cap:
                    truncated = True
                    open_fds.clear()
                    break
            elif len(fds[fd]) < caps[fd]:
                fds[fd] += chunk[: caps[fd] - len(fds[fd])]
        if pidfd is None and not exited and _has_exited(pid):
            exited = True
            deadline = min(deadline, time.monotonic() + _DRAIN_GRACE_S)
            _kill_group(pid)
    _kill_group(pid)
    _, status = os.waitpid(pid, 0)
    for fd in [*fds, *([pidfd] if pidfd is not None else [])]:
        os.close(fd)
    code = os.waitstatus_to_exitcode(status)
    return {
        "stdout": base64.b64encode(bytes(fds[out_r][:cap])).decode(),
        "stderr": base64.b64encode(bytes(fds[err_r]) if err_r is not None else b"").decode(),
        "exit": 128 - code if code < 0 else code,
        "timed_out": timed_out,
        "truncated": truncated,
    }


def _pidfd(pid: int) -> int | None:
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def _has_exited(pid: int) -> bool:
    """Whether the child has exited, without reaping it (for kernels without pidfd)."""
    return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None


def _kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except OSError:
            pass


# ---------------------------------------------------------------------------------------------- child


def run_child(job: dict[str, Any]) -> None:
    """(In the forked child.) Become the program: session, fds, scratch cwd, env, argv, then run it."""
    os.setsid()
    for fd in job["close"]:
        os.close(fd)
    _wire_fds(job)
    try:
        script = _enter_scratch(job)
        source = _read(script)
    except BaseException as exc:  # e.g. the script is missing from the program folder
        os.write(2, f"forkserver: could not set up the run: {exc}\n".encode())
        os._exit(_SETUP_FAILED)
    _fresh_stdio()
    _run_as_main(script, source)


def _wire_fds(job: dict[str, Any]) -> None:
    if job["stdin"] is None:
        stdin = os.open(os.devnull, os.O_RDONLY)
    else:
        stdin = os.memfd_create("stdin") if hasattr(os, "memfd_create") else _temp_fd(job["root"])
        data = memoryview(job["stdin"])
        while data:
            data = data[os.write(stdin, data) :]
        os.lseek(stdin, 0, os.SEEK_SET)
    for fd, target in ((stdin, 0), (job["out"], 1), (job["err"], 2)):
        os.dup2(fd, target)
        os.close(fd)


def _temp_fd(root: str) -> int:
    path = os.path.join(root, "stdin")
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    os.unlink(path)
    return fd


def _enter_scratch(job: dict[str, Any]) -> str:
    program = job["program"]
    work = os.path.join(job["root"], "work")
    home = os.path.join(job["root"], "home")
    os.chdir(work)
    os.environ.clear()
    os.environ.update(job["env"])
    os.environ["HOME"] = home
    script = os.path.join(work, program["path"])
    script_dir = os.path.dirname(script)
    sys.argv = [program["path"], *job["argv"]]
    sys.path.insert(0, script_dir)
    for name in _local_names(script_dir):
        _forget(name)
    return script


def _forget(name: str) -> None:
    """Drop an already-imported module the script's folder shadows, as a fresh interpreter never saw it."""
    if name in _STARTUP_MODULES:
        return
    for key in [k for k in sys.modules if k == name or k.startswith(name + ".")]:
        del sys.modules[key]


def _read(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


_KEEP: list[Any] = []


def _fresh_stdio() -> None:
    """New stdin/stdout/stderr objects on fds 0-2, made as CPython makes them at start-up."""
    for name, fd, mode in (("stdin", 0, "rb"), ("stdout", 1, "wb"), ("stderr", 2, "wb")):
        old = getattr(sys, name)
        _KEEP.append(old)  # never finalised: its (empty) buffer must not be flushed into the new pipes
        buffered = open(fd, mode, buffering=-1, closefd=False)
        buffered.raw.name = f"<{name}>"  # type: ignore[attr-defined]
        stream = io.TextIOWrapper(
            buffered,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=old.line_buffering,
            write_through=getattr(old, "write_through", False),
        )
        stream.mode = mode[0]  # type: ignore[misc]
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _run_as_main(script: str, source: bytes) -> None:
    """Run the program as `__main__`, then leave as a fresh interpreter would (same exit code, same output)."""
    main = types.ModuleType("__main__")
    main.__file__ = script
    main.__builtins__ = builtins  # type: ignore[attr-defined]
    main.__cached__ = None  # type: ignore[attr-defined]
    sys.modules["__main__"] = main
    try:
        exec(compile(source, script, "exec", dont_inherit=True), main.__dict__)
        code = 0
    except SystemExit as exc:
        code = _system_exit_code(exc)
    except BaseException as exc:
        if exc.__traceback__ is not None:
            exc.__traceback__ = exc.__traceback__.tb_next  # start at the program's frame, as CPython does
        sys.excepthook(type(exc), exc, exc.__traceback__)
        code = -signal.SIGINT if isinstance(exc, KeyboardInterrupt) else 1
    _finish(code, main)


def _system_exit_code(exc: SystemExit) -> int:
    """What CPython exits with for an uncaught SystemExit (printing a non-integer code to stderr)."""
    if exc.code is None:
        return 0
    if isinstance(exc.code, int):
        return exc.code & 0xFF
    try:
        print(exc.code, file=sys.stderr)
    except BaseException:
        pass
    return 1


def _finish(code: int, main: types.ModuleType) -> None:
    """Interpreter shutdown, minus the part that costs ~15 ms after a fork (tearing down every object).

    Joins non-daemon threads, runs atexit handlers, flushes the std streams (a failed stdout flush exits
    120, as CPython does) and any file object bound to a name in `__main__`, then leaves with `os._exit`.
    """
    threading = sys.modules.get("threading")
    try:
        if threading is not None:
            threading._shutdown()  # type: ignore[attr-defined]
    except BaseException:
        pass
    try:
        import atexit

        atexit._run_exitfuncs()
    except BaseException:
        pass
    for value in list(vars(main).values()):
        if isinstance(value, io.IOBase) and value not in (sys.stdout, sys.stderr):
            _flush(value)
    if not _flush(sys.stdout) and code == 0:
        code = 120
    _flush(sys.stderr)
    if code < 0:  # KeyboardInterrupt: die of SIGINT, as CPython does
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _flush(stream: Any) -> bool:
    try:
        if stream is not None and not stream.closed:
            stream.flush()
        return True
    except BaseException:
        return False


# ----------------------------------------------------------------------------------------------- main


def main() -> None:
    del sys.path[0]  # this file's folder must not shadow anything the program imports
    opts = json.loads(sys.argv[1])
    server = Server(opts)
    job = None
    try:
        server.serve()
    except BrokenPipeError:
        pass  # the host went away
    except _Forked as forked:
        job = forked.job  # run outside the except block, so the program's errors chain to nothing
    if job is not None:
        run_child(job)  # returns only by raising SystemExit (or falling off the program's end)
        return
    shutil.rmtree(server.scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
