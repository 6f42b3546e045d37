"""A warmed interpreter that forks one child per case run, so a run costs a fork, not a Python start-up.

This file is run by the source environment's own interpreter (which holds only the pinned packages), so
it uses the standard library only and never imports repozero. Protocol: one JSON object per line on
stdin/stdout, bytes in base64::

    server -> host  {"op": "hello", "pid", "python", "hash_seed", "now"}
    host -> server  {"op": "probe", "program": {"dir", "path", "digest"}}
    server -> host  {"op": "probed", "clean": [module names]}
    host -> server  {"op": "run", "program": {...}, "preimport": [names] | null, "timeout", "cap",
                     "stderr_cap", "memory_mb" (0: no limit), "runs": [{"id", "argv", "stdin"}]}
    server -> host  {"op": "ran", "results": [{"id", "stdout", "stderr", "exit", "wall", "timed_out",
                     "truncated"}]}  or  {"op": "error", "message"}

EOF on stdin ends the server. On first sight of a program the server imports what the program imports —
only modules that import cleanly and print nothing, as found by a probe child (`probe`, run once per
program by the host on one server; the others get the list as `preimport`) — and compiles the script. Runs are
sequential: each copies the program folder to the server's scratch `work/` folder (the same path every
run, so one compiled code object serves them all), forks a child that becomes the program (see
`forkchild.py`), collects its stdout and stderr, kills its process group at the per-case timeout or as
soon as stdout passes the cap, and records death by signal N as 128+N.

The server's own environment is the contract's (set once at start-up, so children inherit it): a forked
child also inherits the server's hash seed and memory layout, which is why the caller spreads the
repeats of a case over several servers started with different PYTHONHASHSEED values.
"""
# ruff: noqa: E402

from __future__ import annotations

import sys

_STARTUP_MODULES = frozenset(sys.modules)

import binascii
import importlib.util
import json
import os
import resource
import select
import signal
import time

TYPE_CHECKING = False
if TYPE_CHECKING:  # no `typing` at run time: every module imported here is start-up cost for each server
    from typing import Any

__all__ = ["LineServer", "Program", "Server", "main"]

_MAX_LINE = 1 << 30
_PROBE_TIMEOUT_S = 60.0
_DRAIN_GRACE_S = 1.0
_STARTUP_SEED = os.environ.get("PYTHONHASHSEED", "")


def _load_child_module() -> Any:
    """`forkchild.py`, beside this file, under a name no program will import by accident."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "forkchild.py")
    spec = importlib.util.spec_from_file_location("_repozero_forkchild", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


child = _load_child_module()


class Program:
    """What the server knows about one program folder, computed once and shared by every child."""

    def __init__(self, spec: dict[str, Any], work: str) -> None:
        self.dir = spec["dir"]
        self.path = spec["path"]
        self.work = work
        self.script = os.path.join(work, self.path)
        self.script_dir = os.path.dirname(self.script)
        self.local = child.local_names(os.path.dirname(os.path.join(self.dir, self.path)))
        self.forget: list[str] = []
        self.clean: list[str] = []
        self.learned = False
        self.source: bytes | None = None
        self.code: Any = None
        self.missing = ""
        try:
            with open(os.path.join(self.dir, self.path), "rb") as handle:
                self.source = handle.read()
            self.code = compile(self.source, self.script, "exec", dont_inherit=True)
        except OSError as exc:
            self.missing = f"[Errno {exc.errno}] {exc.strerror}"
        except (SyntaxError, ValueError):
            pass  # the child compiles again and reports it as CPython would

    def shadowed(self) -> list[str]:
        """Modules already imported that the script's folder shadows (a fresh interpreter imports its own)."""
        tops = {name for name in self.local if name not in _STARTUP_MODULES}
        return [key for key in sys.modules if key.split(".")[0] in tops]


class LineServer:
    """The protocol loop of this server and of `execserver.py`: a hello, then one JSON request a line on the
    protocol pipe (the process's stdin and stdout, which then read and write /dev/null), one reply each, an
    exception in `handle` answered as an `error`; end of file ends it."""

    def __init__(self) -> None:
        self.proto_in = os.dup(0)
        self.proto_out = os.dup(1)
        null = os.open(os.devnull, os.O_RDWR)
        os.dup2(null, 0)
        os.dup2(null, 1)  # a stray print (a pre-import, a program) must never reach the protocol pipe
        os.close(null)
        self.pending = b""

    def hello(self) -> dict[str, Any]:
        raise NotImplementedError

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError

    def serve(self) -> None:
        self.send(self.hello())
        while True:
            line = self.read_line()
            if line is None:
                return
            try:
                reply = self.handle(json.loads(line))
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


class Server(LineServer):
    """Reads run requests, forks one child per case, answers with what each child did."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.scratch = opts["scratch"]
        self.work = os.path.join(self.scratch, "work")
        self.home = os.path.join(self.scratch, "home")
        os.makedirs(self.scratch, exist_ok=True)
        os.environ.clear()  # what children see: the contract's environment, nothing of the server's
        os.environ.update(opts["child_env"])
        os.environ["HOME"] = self.home
        super().__init__()
        self.programs: dict[str, Program] = {}
        self.imported: set[str] = set()

    def hello(self) -> dict[str, Any]:
        now = time.time()
        return {
            "op": "hello",
            "pid": os.getpid(),
            "python": sys.version,
            "now": now,
            "hash_seed": _STARTUP_SEED,
        }

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") == "probe":
            return {"op": "probed", "clean": self.program(request["program"], None).clean}
        if request.get("op") != "run":
            raise ValueError(f"unknown op {request.get('op')!r}")
        program = self.program(request["program"], request.get("preimport"))
        limits = (float(request["timeout"]), int(request["cap"]), int(request["stderr_cap"]))
        memory = int(request.get("memory_mb") or 0)
        results = [self.run_case(program, run, *limits, memory) for run in request["runs"]]
        return {"op": "ran", "results": results}

    def program(self, spec: dict[str, Any], preimport: list[str] | None) -> Program:
        program = self.programs.get(spec["digest"])
        if program is None:
            if not os.path.isdir(spec["dir"]):
                raise FileNotFoundError(f"program folder {spec['dir']} does not exist")
            program = Program(spec, self.work)
            program.clean = self.probe(self.wanted(program)) if preimport is None else preimport
            self.preimport(program.clean)
            program.forget = program.shadowed()
            self.programs[spec["digest"]] = program
        return program

    def run_case(
        self, program: Program, run: dict[str, Any], timeout: float, cap: int, stderr_cap: int, memory_mb: int
    ) -> dict:
        _copy_tree(program.dir, self.work)
        os.mkdir(self.home)
        stdin = None if run.get("stdin") is None else binascii.a2b_base64(run["stdin"])
        record = "" if program.learned else os.path.join(self.scratch, "imported.json")
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                if memory_mb:  # the run's own limit: the server (and its next children) keep theirs
                    resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
                close = [out_r, err_r, self.proto_in, self.proto_out]
                child.become(program, run["argv"], stdin, out_w, err_w, close, record)
            finally:
                os._exit(125)
        os.close(out_w)
        os.close(err_w)
        try:
            result = _collect(pid, out_r, err_r, started + timeout, cap, stderr_cap)
        finally:
            _remove_tree(self.work)
            _remove_tree(self.home)
        if record:
            self.learn(program, record)
        return {**result, "id": run["id"], "wall": time.monotonic() - started}

    def learn(self, program: Program, record: str) -> None:
        """After a program's first run here: import what that run imported lazily, if clean and silent."""
        program.learned = True
        try:
            with open(record) as handle:
                imported = [str(name) for name in json.load(handle)]
            os.unlink(record)
        except (OSError, ValueError):
            return
        fresh = [n for n in imported if n.split(".")[0] not in program.local and n not in sys.modules]
        self.preimport(self.probe(fresh))

    def preimport(self, names: list[str]) -> None:
        fresh = [name for name in names if name not in self.imported]
        for name in fresh:
            self.imported.add(name)
            child.quiet_import(name)
        if fresh:  # a new import may shadow-clash with another program's own modules
            for program in self.programs.values():
                program.forget = program.shadowed()

    def wanted(self, program: Program) -> list[str]:
        """Modules the program imports that are not the program's own and not imported yet."""
        return [
            name
            for name in child.scan_imports(program.dir)
            if name.split(".")[0] not in program.local and name not in sys.modules
        ]

    def probe(self, names: list[str]) -> list[str]:
        """Those of `names` that import without error and without printing, tried in a throwaway child."""
        if not names:
            return []
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.close(read_end)
                child.clean_imports(names, os.path.join(self.scratch, f"probe-{os.getpid()}"), write_end)
            finally:
                os._exit(0)
        os.close(write_end)
        result = _collect(pid, read_end, None, time.monotonic() + _PROBE_TIMEOUT_S, _MAX_LINE, 0)
        if result["exit"] != 0 or result["timed_out"]:
            return []
        try:
            return [str(n) for n in json.loads(binascii.a2b_base64(result["stdout"]))]
        except ValueError:
            return []


# ---------------------------------------------------------------------------------------- collecting


def _collect(pid: int, out_r: int, err_r: int | None, deadline: float, cap: int, stderr_cap: int) -> dict:
    """Read the child's pipes until it exits (or the deadline or the cap), then kill its group and reap it."""
    bufs = {out_r: bytearray()} if err_r is None else {out_r: bytearray(), err_r: bytearray()}
    poller = select.poll()
    for fd in bufs:
        poller.register(fd, select.POLLIN)
    pidfd = _pidfd(pid)
    if pidfd is not None:
        poller.register(pidfd, select.POLLIN)
    open_fds, exited, timed_out, truncated = set(bufs), False, False, False
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
                bufs[fd] += chunk
                if len(bufs[fd]) > cap:
                    truncated = True
                    open_fds.clear()
                    break
            elif len(bufs[fd]) < stderr_cap:
                bufs[fd] += chunk[: stderr_cap - len(bufs[fd])]
        if pidfd is None and not exited and _has_exited(pid):
            exited = True
            deadline = min(deadline, time.monotonic() + _DRAIN_GRACE_S)
            _kill_group(pid)
    _kill_group(pid)
    _, status = os.waitpid(pid, 0)
    for fd in [*bufs, *([pidfd] if pidfd is not None else [])]:
        os.close(fd)
    code = os.waitstatus_to_exitcode(status)
    return {
        "stdout": _b64(bytes(bufs[out_r][:cap])),
        "stderr": _b64(bytes(bufs[err_r]) if err_r is not None else b""),
        "exit": 128 - code if code < 0 else code,
        "timed_out": timed_out,
        "truncated": truncated,
    }


def _b64(data: bytes) -> str:
    return binascii.b2a_base64(data, newline=False).decode()


def _copy_tree(src: str, dst: str) -> None:
    """Copy a folder (files with their mode and times, symlinks as links); `shutil` costs start-up time."""
    os.mkdir(dst)
    with os.scandir(src) as entries:
        for entry in entries:
            target = os.path.join(dst, entry.name)
            if entry.is_symlink():
                os.symlink(os.readlink(entry.path), target)
            elif entry.is_dir():
                _copy_tree(entry.path, target)
            else:
                stat = entry.stat()
                with open(entry.path, "rb") as source, open(target, "wb") as sink:
                    sink.write(source.read())
                os.chmod(target, stat.st_mode & 0o7777)
                os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))


def _remove_tree(path: str) -> None:
    """Remove a folder the program may have filled with anything (read-only dirs included)."""
    try:
        entries = list(os.scandir(path))
    except FileNotFoundError:
        return
    except NotADirectoryError:
        os.unlink(path)
        return
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            try:
                os.chmod(entry.path, 0o700)
            except OSError:
                pass
            _remove_tree(entry.path)
        else:
            try:
                os.unlink(entry.path)
            except OSError:
                pass
    try:
        os.rmdir(path)
    except OSError:
        pass


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


def main() -> None:
    del sys.path[0]  # this file's folder must not shadow anything the program imports
    server = Server(json.loads(sys.argv[1]))
    try:
        server.serve()
    except BrokenPipeError:
        pass  # the host went away
    finally:
        _remove_tree(server.scratch)


if __name__ == "__main__":
    main()
