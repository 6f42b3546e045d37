"""Source environments: where the Oracle runs the source. One Protocol; a cached venv per package set here.

The Docker backend plugs in by implementing `SourceEnvironment` (and `EnvironmentProvider`): the Oracle
only ever calls `prepare`, `stage_program` and `open_server`, and talks to servers through the
`SandboxProcess` byte-pipe protocol.
"""

from __future__ import annotations

import contextlib
import fcntl
import glob
import json
import os
import re
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Protocol

import anyio

from repozero.kernel.errors import DatasetError, OracleError
from repozero.kernel.log import get_logger
from repozero.oracle.contract import case_env
from repozero.oracle.host_process import HostProcess
from repozero.oracle.pruning import touch_used
from repozero.oracle.records import EnvSpec, Fingerprint, ProgramRef
from repozero.sandbox import ProcessSandbox, SandboxProcess, leases

__all__ = [
    "FORKSERVER",
    "EnvironmentProvider",
    "LocalVenvEnvironment",
    "LocalVenvProvider",
    "SourceEnvironment",
    "find_faketime",
    "reopen_if_broken",
]

log = get_logger(__name__)

FORKSERVER = Path(__file__).with_name("forkserver.py")
ENVPROBE = Path(__file__).with_name("envprobe.py")
_READY = ".repozero-env.json"
_FAKETIME_GLOBS = ("/usr/lib/*/faketime/libfaketime.so.1", "/usr/lib/faketime/libfaketime.so.1")


class SourceEnvironment(Protocol):
    """A place holding one pinned package set and its interpreter, able to start fork servers."""

    spec: EnvSpec

    async def prepare(self) -> Fingerprint:
        """Create the environment if needed (cached) and say what it actually holds."""
        ...

    async def stage_program(self, program: ProgramRef) -> str:
        """Copy a program folder into the environment (once per digest); its path there."""
        ...

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        """Start `forkserver.py` under PYTHONHASHSEED=seed, with the clock shifted (libfaketime) if asked."""
        ...


class EnvironmentProvider(Protocol):
    """Makes the environment for a package set; `open_oracle` picks local or Docker."""

    name: str

    def environment(self, spec: EnvSpec) -> SourceEnvironment: ...


def find_faketime(configured: str = "") -> str:
    """The libfaketime preload library, or "" when it is not installed."""
    if configured:
        return configured if Path(configured).is_file() else ""
    found = sorted(p for pattern in _FAKETIME_GLOBS for p in glob.glob(pattern))
    return found[0] if found else ""


class LocalVenvProvider:
    """One cached venv per distinct (requirements, python) under `<cache>/oracle/venvs/<key>`."""

    name = "local"

    def __init__(self, cache_dir: Path, faketime_lib: str = "") -> None:
        self.cache_dir = cache_dir
        self.faketime_lib = faketime_lib
        self._envs: dict[str, SourceEnvironment] = {}

    def environment(self, spec: EnvSpec) -> SourceEnvironment:
        """A venv for Python sources; a compiler and Debian packages on the host for C/C++ ones."""
        if spec.key not in self._envs:
            if spec.native:
                from repozero.oracle.native_env import LocalNativeEnvironment  # it builds on this module

                self._envs[spec.key] = LocalNativeEnvironment(spec, self.cache_dir, self.faketime_lib)
            else:
                self._envs[spec.key] = LocalVenvEnvironment(spec, self.cache_dir, self.faketime_lib)
        return self._envs[spec.key]


class LocalVenvEnvironment:
    """A venv (no pip inside: only the pinned packages) created once, fingerprinted on every prepare."""

    def __init__(self, spec: EnvSpec, cache_dir: Path, faketime_lib: str = "") -> None:
        self.spec = spec
        self.root = cache_dir / "oracle" / "venvs" / spec.key
        self.programs = cache_dir / "oracle" / "programs"
        self.faketime_lib = faketime_lib
        self._fingerprint: Fingerprint | None = None

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    async def prepare(self) -> Fingerprint:
        if self._fingerprint is None:
            async with _file_lock(self.root.with_name(self.root.name + ".lock")):
                if not self._is_ready():
                    await self._create()
                touch_used(self.root)  # for `repozero cache prune`
                leases.hold(self.root)  # and while this process lives, prune leaves it alone
            self._fingerprint = await self._probe()
            log.info("oracle_env_ready", env=self.spec.key, requirements=list(self.spec.requirements))
        return self._fingerprint

    def _is_ready(self) -> bool:
        marker = self.root / _READY
        try:
            recorded = json.loads(marker.read_text())
        except (OSError, ValueError):
            return False
        return recorded == {"requirements": list(self.spec.requirements), "python": self.spec.python}

    async def _create(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)
        self.root.parent.mkdir(parents=True, exist_ok=True)
        log.info("oracle_env_create", env=self.spec.key, requirements=list(self.spec.requirements))
        await _run([_base_python(self.spec.python), "-m", "venv", "--without-pip", str(self.root)], "venv")
        if self.spec.requirements:
            await _run(
                [sys.executable, "-m", "pip", "--python", str(self.python), "install", "--no-input",
                 "--disable-pip-version-check", "--no-warn-script-location", "--quiet",
                 *self.spec.requirements],
                f"pip install {' '.join(self.spec.requirements)}",
            )  # fmt: skip
        marker = {"requirements": list(self.spec.requirements), "python": self.spec.python}
        (self.root / _READY).write_text(json.dumps(marker))

    async def _probe(self) -> Fingerprint:
        out = await _run([str(self.python), "-I", str(ENVPROBE)], "fingerprint probe")
        try:
            entries = json.loads(out)
        except ValueError:
            raise OracleError(f"{self.root}: fingerprint probe printed {out[:200]!r}") from None
        return Fingerprint(entries={str(k): str(v) for k, v in entries.items()})

    async def stage_program(self, program: ProgramRef) -> str:
        """The program folder's copy keyed by its digest, leased while this process lives (its fork
        servers import from it)."""
        target = self.programs / program.digest
        for _ in range(3):  # pruned between our copy and our lease: copy again
            if leases.hold(target, target.is_dir):
                touch_used(target)
                return str(target)
            self.programs.mkdir(parents=True, exist_ok=True)
            stage = Path(tempfile.mkdtemp(dir=self.programs, prefix=".stage-"))
            shutil.copytree(
                program.dir, stage / "p", symlinks=True, ignore=shutil.ignore_patterns("__pycache__")
            )
            try:
                os.rename(stage / "p", target)
            except OSError:
                if not target.is_dir():
                    raise
            shutil.rmtree(stage, ignore_errors=True)
        raise OracleError(f"staged program {target} was removed three times while being leased")

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        scratch = tempfile.mkdtemp(prefix="repozero-fs-")
        child_env = case_env([str(self.python.parent)], scratch)
        env = {**child_env, "PYTHONHASHSEED": str(seed)}
        if clock_shift:
            env.update(self.faketime_env(clock_shift))
        opts = {"scratch": scratch, "child_env": {k: v for k, v in child_env.items() if k != "HOME"}}
        argv = [str(self.python), str(FORKSERVER), json.dumps(opts)]
        try:
            process = await anyio.open_process(
                argv, env=env, cwd=scratch, stderr=None, start_new_session=True
            )
        except OSError as exc:
            shutil.rmtree(scratch, ignore_errors=True)
            raise OracleError(f"{self.python}: cannot start the fork server: {exc}") from None
        return HostProcess(process, on_close=lambda: shutil.rmtree(scratch, ignore_errors=True))

    def faketime_env(self, clock_shift: str) -> dict[str, str]:
        lib = find_faketime(self.faketime_lib)
        if not lib:
            raise OracleError(
                "libfaketime is not installed (apt-get install libfaketime), needed for clock-shifted "
                "repeats; or set oracle.clock_shifts=[] to run without them"
            )
        # a long cache: the child clears its environment, and libfaketime would re-read FAKETIME later
        return {"LD_PRELOAD": lib, "FAKETIME": clock_shift, "FAKETIME_CACHE_DURATION": "1000000000"}


def _base_python(version: str) -> str:
    """An interpreter of the requested major.minor version: ours if it matches, else `pythonX.Y`."""
    if f"{sys.version_info.major}.{sys.version_info.minor}" == version:
        return getattr(sys, "_base_executable", None) or sys.executable
    found = shutil.which(f"python{version}")
    if found is None:
        raise OracleError(f"source.python = {version!r}: no python{version} on PATH")
    return found


_NO_DISTRIBUTION = re.compile(r"No matching distribution found for (\S+)")
_UNREACHABLE = ("NewConnectionError", "Max retries exceeded", "Could not fetch URL", "Temporary failure")


async def _run(argv: list[str], what: str) -> str:
    result = await anyio.run_process(argv, check=False)
    if result.returncode != 0:
        tail = result.stderr.decode(errors="replace").strip()
        missing = _NO_DISTRIBUTION.search(tail)
        if missing and not any(sign in tail for sign in _UNREACHABLE):  # the index answered: it has none
            raise DatasetError(f"{missing[1]}: no such package or version on the package index")
        raise OracleError(f"{what} failed (exit {result.returncode}): {tail[-2000:]}")
    return result.stdout.decode()


@contextlib.asynccontextmanager
async def _file_lock(path: Path) -> AsyncIterator[None]:
    """An exclusive lock shared with other processes building the same environment (polled: no threads)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                await anyio.sleep(0.2)
        yield
    finally:
        os.close(fd)


async def reopen_if_broken(box: ProcessSandbox | None, env: str) -> ProcessSandbox | None:
    """`box`, or None (closed) when its toolchain went under it (`environment_problem`, local sandboxes):
    an environment's sandbox is held for the whole run, and a new one gets the toolchain built again,
    where this one would fail every server it starts from now on (issue 40)."""
    problem = getattr(box, "environment_problem", lambda: "")()
    if box is None or not problem:
        return box
    log.warning("oracle_sandbox_reopened", env=env, problem=problem)
    with anyio.CancelScope(shield=True):
        await box.close()
    return None
