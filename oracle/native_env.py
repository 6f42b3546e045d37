"""C/C++ source environments: a Debian library set and a compiler; test programs compiled once, run natively.

The Oracle sees the same `SourceEnvironment` as for Python: `prepare` fingerprints the environment
(`nativeprobe.py`: compiler, flags, glibc and every Debian package involved, with content hashes),
`stage_program` compiles a program folder once per (fingerprint, program digest) into
`<cache>/oracle/native/<key>/{src/,exe}` (published by rename, leased while this process lives, so
`repozero cache prune` in another process leaves it), and `open_server` starts `execserver.py`, which execs the binary
per case under the case-execution contract. Repeats must be able to disagree when a program reads
uninitialised memory, prints an address or reads the clock: every run is a fresh exec (ASLR), servers are
started with different `MALLOC_PERTURB_` values (none, then 0xa5, 0x5a, 0x3c in turn), and the odd ones
run under a shifted clock, as for Python.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Protocol

import anyio

from repozero.kernel.errors import OracleError, SandboxError
from repozero.kernel.log import get_logger
from repozero.oracle.contract import case_env
from repozero.oracle.host_process import HostProcess
from repozero.oracle.pruning import touch_used
from repozero.oracle.records import EnvSpec, Fingerprint, ProgramRef
from repozero.oracle.source_env import FORKSERVER, find_faketime, reopen_if_broken
from repozero.sandbox import ProcessSandbox, SandboxProcess, SandboxSpec, leases
from repozero.sandbox.toolchains import python_prefix

__all__ = [
    "EXECSERVER",
    "NATIVEPROBE",
    "LocalNativeEnvironment",
    "SandboxedNativeEnvironment",
    "build_key",
    "perturb",
]

log = get_logger(__name__)

EXECSERVER = FORKSERVER.with_name("execserver.py")
NATIVEPROBE = FORKSERVER.with_name("nativeprobe.py")
_PERTURB = (0, 0xA5, 0x5A, 0x3C)
_MISSING = 3
_ERROR_LINES = 20
_DAY_S = 86_400


def perturb(index: int) -> int:
    """The `MALLOC_PERTURB_` byte of the index-th server an environment opens (0: glibc's default)."""
    return _PERTURB[index % len(_PERTURB)]


def build_key(fingerprint: Fingerprint, program: ProgramRef) -> str:
    """A compiled program's identity: the environment (compiler, flags, packages) and the program folder."""
    return hashlib.sha256(f"{fingerprint.hash}\n{program.digest}".encode()).hexdigest()[:32]


def child_env(scratch: str, perturb_byte: int, faketime: dict[str, str]) -> dict[str, str]:
    """What each run gets besides HOME: the contract's environment plus the perturbation and the shifted
    clock — both must reach the exec'd binary, not only the server."""
    extra = {**({"MALLOC_PERTURB_": str(perturb_byte)} if perturb_byte else {}), **faketime}
    return {k: v for k, v in {**case_env([], scratch), **extra}.items() if k != "HOME"}


class LocalNativeEnvironment:
    """Debian packages installed on this machine; programs compiled and run on the host."""

    def __init__(self, spec: EnvSpec, cache_dir: Path, faketime_lib: str = "") -> None:
        self.spec = spec
        self.builds = cache_dir / "oracle" / "native"
        self.faketime_lib = faketime_lib
        self._fingerprint: Fingerprint | None = None
        self._opened = 0
        self._compiling = anyio.Lock()

    def _probe_argv(self, *args: str) -> list[str]:
        return [sys.executable, "-I", str(NATIVEPROBE), *args]

    async def prepare(self) -> Fingerprint:
        if self._fingerprint is None:
            language, packages = self.spec.language, list(self.spec.requirements)
            out = await _run(self._probe_argv("fingerprint", language, *packages), "fingerprint probe")
            try:
                entries = json.loads(out)
            except ValueError:
                raise OracleError(f"native fingerprint probe printed {out[:200]!r}") from None
            self._fingerprint = Fingerprint(entries={str(k): str(v) for k, v in entries.items()})
            log.info("oracle_env_ready", env=self.spec.key, language=language, packages=packages)
        return self._fingerprint

    async def stage_program(self, program: ProgramRef) -> str:
        """Compile the program folder's `path` once per environment fingerprint; the build's folder."""
        fingerprint = await self.prepare()
        target = self.builds / build_key(fingerprint, program)
        async with self._compiling:
            for _ in range(3):  # pruned between our build and our lease: build again
                # leased for this process's life: its exec servers run the binary from here
                if leases.hold(target, lambda: (target / "exe").is_file()):
                    touch_used(target)  # for `repozero cache prune`
                    return str(target)
                await self._publish(program, target)
        raise OracleError(f"native build {target} was removed three times while being leased")

    async def _publish(self, program: ProgramRef, target: Path) -> None:
        """Compile in a staging dir and rename it into place (atomic; one put there first wins)."""
        self.builds.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(dir=self.builds, prefix=".stage-"))
        try:
            await self._compile(program, stage)
            os.chmod(stage, 0o755)
            os.rename(stage, target)
        except OSError:
            if not (target / "exe").is_file():
                raise
        finally:
            shutil.rmtree(stage, ignore_errors=True)
        log.info("oracle_program_compiled", env=self.spec.key, program=program.path, build=target.name)

    async def _compile(self, program: ProgramRef, stage: Path) -> None:
        src = stage / "src"
        shutil.copytree(program.dir, src, symlinks=True)
        argv = self._probe_argv(
            "compile",
            self.spec.language,
            str(src / program.path),
            str(stage / "exe"),
            *self.spec.requirements,
        )
        result = await anyio.run_process(argv, cwd=src, check=False)
        if result.returncode != 0:
            lines = result.stderr.decode(errors="replace").strip().splitlines()[:_ERROR_LINES]
            raise OracleError(f"{program.path}: the test program does not compile:\n" + "\n".join(lines))
        for path in [src, *src.rglob("*")]:
            os.chmod(path, 0o755 if path.is_dir() else 0o644)

    def _next_perturb(self) -> int:
        self._opened += 1
        return perturb(self._opened - 1)

    def faketime_env(self, clock_shift: str) -> dict[str, str]:
        if not clock_shift:
            return {}
        lib = find_faketime(self.faketime_lib)
        if not lib:
            raise OracleError(
                "libfaketime is not installed (apt-get install libfaketime), needed for clock-shifted "
                "repeats; or set oracle.clock_shifts=[] to run without them"
            )
        return {"LD_PRELOAD": lib, "FAKETIME": clock_shift, "FAKETIME_CACHE_DURATION": "1000000000"}

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        scratch = tempfile.mkdtemp(prefix="repozero-xs-")
        faketime = self.faketime_env(clock_shift)
        env = {**case_env([], scratch), **faketime}
        opts = {
            "scratch": scratch,
            "seed": seed,
            "child_env": child_env(scratch, self._next_perturb(), faketime),
        }
        argv = [sys.executable, "-I", str(EXECSERVER), json.dumps(opts)]
        try:
            process = await anyio.open_process(
                argv, env=env, cwd=scratch, stderr=None, start_new_session=True
            )
        except OSError as exc:
            shutil.rmtree(scratch, ignore_errors=True)
            raise OracleError(f"cannot start the exec server: {exc}") from None
        return HostProcess(process, on_close=lambda: shutil.rmtree(scratch, ignore_errors=True))


class NativeSandboxes(Protocol):
    """What a native environment in a sandbox (local or Docker) needs of its provider."""

    memory_mb: int
    cache_dir: Path

    async def _hold(self, spec: SandboxSpec) -> ProcessSandbox: ...


class LocalSandboxes(NativeSandboxes, Protocol):
    async def sandboxed(self) -> bool:
        """Whether local sandboxes have namespaces (else the programs run on the host)."""
        ...


class SandboxedNativeEnvironment(LocalNativeEnvironment):
    """Compiled on the host; exec servers (and so every run) inside one local sandbox per environment."""

    def __init__(self, spec: EnvSpec, cache_dir: Path, faketime_lib: str, provider: LocalSandboxes) -> None:
        super().__init__(spec, cache_dir, faketime_lib)
        self._provider = provider
        self._box: ProcessSandbox | None = None
        self._opening = anyio.Lock()

    async def _sandbox(self) -> ProcessSandbox:
        async with self._opening:
            self._box = await reopen_if_broken(self._box, self.spec.key)
            if self._box is None:
                self.builds.mkdir(parents=True, exist_ok=True)
                visible = [self.builds, FORKSERVER.parent, python_prefix()]
                spec = SandboxSpec(
                    toolchain="python-source", sample=f"oracle-{self.spec.key}", role="oracle",
                    memory_mb=self._provider.memory_mb or 4096, pids=1024, tmpfs_mb=2048, cpu_time_s=_DAY_S,
                    open_files=4096, ro_paths=[str(p) for p in dict.fromkeys(visible)],
                )  # fmt: skip
                self._box = await self._provider._hold(spec)
        return self._box

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        if not await self._provider.sandboxed():
            return await super().open_server(seed, clock_shift)
        scratch = f"/tmp/repozero-xs-{seed}-{secrets.token_hex(4)}"
        faketime = self.faketime_env(clock_shift)
        opts = {
            "scratch": scratch,
            "seed": seed,
            "child_env": child_env(scratch, self._next_perturb(), faketime),
        }
        argv = ["python3", "-I", str(EXECSERVER), json.dumps(opts)]
        if faketime:  # preloaded into the server's chain from `env` on, as for Python (see sandboxed_env)
            argv = ["env", *(f"{k}={v}" for k, v in faketime.items()), *argv]
        try:
            return await (await self._sandbox()).open_process(argv, env=case_env([], scratch))
        except SandboxError as exc:
            raise OracleError(f"cannot start the exec server in its sandbox: {exc}") from None


async def _run(argv: list[str], what: str) -> str:
    result = await anyio.run_process(argv, check=False)
    if result.returncode == _MISSING:
        raise OracleError(result.stderr.decode(errors="replace").strip())
    if result.returncode != 0:
        tail = result.stderr.decode(errors="replace").strip()[-2000:]
        raise OracleError(f"{what} failed (exit {result.returncode}): {tail}")
    return result.stdout.decode()
