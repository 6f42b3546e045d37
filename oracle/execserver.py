"""The fork server's native counterpart: runs a compiled test program once per case (stdlib only).

Speaks `forkserver.py`'s protocol (hello / probe / run, one JSON line each way) so the Oracle's pool,
filter and cache treat C/C++ sources exactly as Python ones. A program's `dir` here is a staged build:
`dir/src/` (the program folder, copied to a scratch `work/` as each run's cwd) and `dir/exe` (the binary).
Each run is a fresh `execve` of the binary — a new address space, so ASLR differs between runs — with
argv `[NAME, *case argv]` (NAME the program file's stem), the case's stdin (or /dev/null), the contract's
environment plus what this server adds to every run: `MALLOC_PERTURB_` when the host gave one (glibc then
fills fresh and freed heap with that byte, so a read of uninitialised memory shows) and libfaketime's
variables when the server runs under a shifted clock. Limits, the stdout cap, the timeout, killing the
process group and 128+N for death by signal N are `forkserver.py`'s own code, loaded from beside this file.
"""

from __future__ import annotations

import binascii
import importlib.util
import json
import os
import resource
import sys
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from repozero.oracle.forkserver import LineServer

__all__ = ["ExecServer", "main"]

_SETUP_FAILED = 125


def _load(name: str) -> Any:
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"_repozero_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


fs = _load("forkserver")
if not TYPE_CHECKING:  # run by path, stdlib only: the class from the forkserver.py beside this file
    LineServer = fs.LineServer


class ExecServer(LineServer):
    """Reads run requests and execs the program's binary once per case."""

    def __init__(self, opts: dict[str, Any]) -> None:
        self.scratch = opts["scratch"]
        self.seed = str(opts["seed"])
        self.work = os.path.join(self.scratch, "work")
        self.home = os.path.join(self.scratch, "home")
        os.makedirs(self.scratch, exist_ok=True)
        self.env = {**opts["child_env"], "HOME": self.home}
        self.faketime_pair: list[str] = []
        if "LD_PRELOAD" in self.env:
            self._share_faketime(
                f"repozero_ft_{self.seed}_{os.getpid()}_{binascii.hexlify(os.urandom(4)).decode()}"
            )
        super().__init__()

    def _share_faketime(self, name: str) -> None:
        """Give every run libfaketime's semaphore and shared memory under a name of our own (FAKETIME_SHARED).

        Without it each run's libfaketime creates a pair named by its PID, exclusively, and exits 1 before
        main when the memory's name is taken: by a killed faketime'd process, which never removes its pair
        (once PIDs wrap, the run drawing that PID failed), or by a live process of the same PID number in
        another PID namespace sharing this /dev/shm (the exec servers of one Oracle sandbox each have their
        own). One repeat then disagreed with its 19 siblings and the case was dropped as nondeterministic, in
        one build and not the next. The memory is laid out as libfaketime's own `ft_shm_create` leaves it:
        zeros (ticks, file index) and -1 in the start time's nanoseconds, so the first run records the start.
        """
        import ctypes  # here, not at the top: a server without a shifted clock pays nothing for it

        libc = ctypes.CDLL(None, use_errno=True)
        libc.sem_open.restype = ctypes.c_void_p
        libc.sem_open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_uint, ctypes.c_uint]
        sem, shm = f"/{name}_sem", f"/{name}_shm"
        if not libc.sem_open(sem.encode(), os.O_CREAT | os.O_EXCL, 0o600, 1):
            raise OSError(ctypes.get_errno(), f"sem_open {sem}: {os.strerror(ctypes.get_errno())}")
        self.faketime_pair = [f"/dev/shm/sem.{sem[1:]}", f"/dev/shm{shm}"]
        fd = os.open(self.faketime_pair[1], os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
        try:
            memory = bytearray(4096)  # larger than any libfaketime's struct ft_shared_s
            memory[24:32] = (-1).to_bytes(8, sys.byteorder, signed=True)  # start_time.real.tv_nsec
            os.write(fd, bytes(memory))
        finally:
            os.close(fd)
        self.env["FAKETIME_SHARED"] = f"{sem} {shm}"

    def hello(self) -> dict[str, Any]:
        now = time.time()
        return {"op": "hello", "pid": os.getpid(), "python": "native", "now": now, "hash_seed": self.seed}

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("op") == "probe":
            return {"op": "probed", "clean": []}  # nothing to warm up: every run is a fresh exec
        if request.get("op") != "run":
            raise ValueError(f"unknown op {request.get('op')!r}")
        program = request["program"]
        if not os.path.isfile(os.path.join(program["dir"], "exe")):
            raise FileNotFoundError(f"no compiled program in {program['dir']}")
        limits = (float(request["timeout"]), int(request["cap"]), int(request["stderr_cap"]))
        memory = int(request.get("memory_mb") or 0)
        return {"op": "ran", "results": [self.run_case(program, r, *limits, memory) for r in request["runs"]]}

    def run_case(
        self, program: dict[str, Any], run: dict[str, Any], timeout: float, cap: int, stderr_cap: int,
        memory_mb: int,
    ) -> dict:  # fmt: skip
        fs._copy_tree(os.path.join(program["dir"], "src"), self.work)
        os.mkdir(self.home)
        stdin = None if run.get("stdin") is None else binascii.a2b_base64(run["stdin"])
        name = os.path.splitext(os.path.basename(program["path"]))[0]
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            self._become(os.path.join(program["dir"], "exe"), [name, *run["argv"]], stdin, out_w, err_w,
                         [out_r, err_r], memory_mb)  # fmt: skip
        os.close(out_w)
        os.close(err_w)
        try:
            result = fs._collect(pid, out_r, err_r, started + timeout, cap, stderr_cap)
        finally:
            fs._remove_tree(self.work)
            fs._remove_tree(self.home)
        return {**result, "id": run["id"], "wall": time.monotonic() - started}

    def _become(
        self, exe: str, argv: list[str], stdin: bytes | None, out_w: int, err_w: int, close: list[int],
        memory_mb: int,
    ) -> None:  # fmt: skip
        """(In the forked child.) New session, limits, fds 0-2, then exec; never returns."""
        try:
            os.setsid()
            if memory_mb:
                resource.setrlimit(resource.RLIMIT_AS, (memory_mb << 20, memory_mb << 20))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            for fd in [*close, self.proto_in, self.proto_out]:
                os.close(fd)
            fs.child._wire_fds(stdin, out_w, err_w)
            os.chdir(self.work)
            os.execve(exe, argv, self.env)
        except BaseException as exc:
            os.write(2, f"execserver: could not start the program: {exc!r}\n".encode())
        finally:
            os._exit(_SETUP_FAILED)


def main() -> None:
    del sys.path[0]
    server = ExecServer(json.loads(sys.argv[1]))
    try:
        server.serve()
    except BrokenPipeError:
        pass
    finally:
        fs._remove_tree(server.scratch)
        for path in server.faketime_pair:
            try:
                os.unlink(path)
            except OSError:
                pass


if __name__ == "__main__":
    main()
