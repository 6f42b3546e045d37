"""C/C++ source environments in Docker: the `native-source` image (gcc/g++, the C2Rust libraries, python3
for the exec server), one container per environment.

The same `nativeprobe.py` fingerprints the container's compiler and packages and compiles each test
program there, and the same `execserver.py` runs the binary per case. A compiled binary is kept on the host
under `<cache>/oracle/native/<key>/exe` (the key as for local builds: fingerprint and program digest), so a
later container with the same image puts it in instead of compiling again — so verdicts are those of the local backends, from the image's packages (pinned to the
host's versions when the image was built).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
from pathlib import Path

import anyio

from repozero.kernel.errors import OracleError, SandboxError
from repozero.kernel.log import get_logger
from repozero.oracle.contract import case_env
from repozero.oracle.native_env import EXECSERVER, NATIVEPROBE, NativeSandboxes, build_key, child_env, perturb
from repozero.oracle.pruning import touch_used
from repozero.oracle.records import EnvSpec, Fingerprint, ProgramRef
from repozero.oracle.source_env import FORKSERVER
from repozero.sandbox import ProcessSandbox, SandboxProcess, SandboxSpec, leases

__all__ = ["DockerNativeEnvironment"]

log = get_logger(__name__)

TOOLS = "/work/.oracle"
BUILDS = "/work/builds"
_MISSING = 3
_ERROR_LINES = 20


class DockerNativeEnvironment:
    """Debian packages inside the `native-source` image; programs compiled and run in the container."""

    def __init__(self, spec: EnvSpec, provider: NativeSandboxes) -> None:
        self.spec = spec
        self._provider = provider
        self._box: ProcessSandbox | None = None
        self._fingerprint: Fingerprint | None = None
        self._staged: set[str] = set()
        self._faketime = ""
        self._opened = 0
        self._lock = anyio.Lock()

    async def _sandbox(self) -> ProcessSandbox:
        if self._box is None:
            spec = SandboxSpec(
                toolchain="native-source", sample=f"oracle-{self.spec.key}", role="oracle",
                memory_mb=self._provider.memory_mb or 4096, pids=1024, tmpfs_mb=2048,
            )  # fmt: skip
            self._box = await self._provider._hold(spec)
        return self._box

    async def _run(self, argv: list[str], what: str, cwd: str | None = None) -> bytes:
        result = await (await self._sandbox()).exec(argv, cwd=cwd, timeout_s=600)
        if result.exit_code == _MISSING:
            raise OracleError(
                f"native-source image: {result.stderr.decode(errors='replace').strip()} — add it to "
                "C2RUST_LIBRARIES in sandbox/images.py and rebuild (repozero images build)"
            )
        if result.exit_code != 0:
            lines = (result.stderr or result.stdout).decode(errors="replace").strip().splitlines()
            raise OracleError(f"{what} failed (exit {result.exit_code}):\n" + "\n".join(lines[:_ERROR_LINES]))
        return result.stdout

    async def prepare(self) -> Fingerprint:
        async with self._lock:
            if self._fingerprint is None:
                box = await self._sandbox()
                for tool in (NATIVEPROBE, EXECSERVER, FORKSERVER, FORKSERVER.with_name("forkchild.py")):
                    await box.write_file(f"{TOOLS}/{tool.name}", tool.read_bytes())
                probe = ["python3", "-I", f"{TOOLS}/nativeprobe.py", "fingerprint", self.spec.language]
                out = await self._run([*probe, *self.spec.requirements], "native fingerprint probe")
                entries = json.loads(out)
                self._fingerprint = Fingerprint(entries={str(k): str(v) for k, v in entries.items()})
                found = await box.exec(
                    "ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1; true"
                )
                self._faketime = found.stdout.decode().strip()
                log.info("oracle_env_ready", env=self.spec.key, backend="docker", language=self.spec.language)
        return self._fingerprint

    async def stage_program(self, program: ProgramRef) -> str:
        """Copy the program folder in with its binary: compiled once per (fingerprint, digest), kept on the host."""
        fingerprint = await self.prepare()
        target = f"{BUILDS}/{program.digest}"
        async with self._lock:
            if program.digest not in self._staged:
                box = await self._sandbox()
                await box.put_tree(Path(program.dir), f"{target}/src")
                kept = (
                    self._provider.cache_dir / "oracle" / "native" / build_key(fingerprint, program) / "exe"
                )
                # leased while it is read: `repozero cache prune` elsewhere cannot take it mid-read
                with leases.using(kept.parent, kept.is_file) as whole:
                    if whole:
                        touch_used(kept.parent)
                        await box.write_file(f"{target}/exe", kept.read_bytes(), mode=0o755)
                if not whole:
                    await self._compile(box, program, target, kept)
                self._staged.add(program.digest)
        return target

    async def _compile(self, box: ProcessSandbox, program: ProgramRef, target: str, kept: Path) -> None:
        argv = ["python3", "-I", f"{TOOLS}/nativeprobe.py", "compile", self.spec.language,
                f"{target}/src/{program.path}", f"{target}/exe", *self.spec.requirements]  # fmt: skip
        try:
            await self._run(argv, f"{program.path}: compiling the test program", cwd=f"{target}/src")
        except OracleError as exc:
            raise OracleError(f"{program.path}: the test program does not compile: {exc}") from None
        _keep(program, await box.read_file(f"{target}/exe"), kept)
        log.info("oracle_program_compiled", env=self.spec.key, program=program.path, backend="docker")

    def _faketime_env(self, clock_shift: str) -> dict[str, str]:
        if not clock_shift:
            return {}
        if not self._faketime:
            raise OracleError(
                "the native-source image has no libfaketime (rebuild it: repozero images build)"
            )
        return {
            "LD_PRELOAD": self._faketime,
            "FAKETIME": clock_shift,
            "FAKETIME_CACHE_DURATION": "1000000000",
        }

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        await self.prepare()
        box = await self._sandbox()
        scratch = f"/tmp/repozero-xs-{secrets.token_hex(6)}"
        faketime = self._faketime_env(clock_shift)
        self._opened += 1
        opts = {
            "scratch": scratch,
            "seed": seed,
            "child_env": child_env(scratch, perturb(self._opened - 1), faketime),
        }
        env = {**case_env([], scratch), **faketime}
        # `env -i`: exactly the contract's environment (Docker adds HOSTNAME to every process otherwise)
        argv = ["env", "-i", *(f"{k}={v}" for k, v in env.items()), "python3", "-I", f"{TOOLS}/execserver.py"]
        try:
            return await box.open_process([*argv, json.dumps(opts)])
        except SandboxError as exc:
            raise OracleError(
                f"docker source env {self.spec.key}: cannot start an exec server: {exc}"
            ) from exc


def _keep(program: ProgramRef, exe: bytes, kept: Path) -> None:
    """Store a build on the host in a local build's layout ({src/, exe}), atomically: an equal fingerprint
    on the host (same compiler and packages) may reuse it too."""
    kept.parent.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=kept.parent.parent, prefix=".stage-"))
    try:
        shutil.copytree(program.dir, stage / "src", symlinks=True)
        (stage / "exe").write_bytes(exe)
        (stage / "exe").chmod(0o755)
        stage.chmod(0o755)
        os.rename(stage, kept.parent)
    except OSError:
        if not kept.is_file():
            raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
