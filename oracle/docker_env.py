"""Source environments in Docker: the Oracle's `SourceEnvironment` over a `python-source` sandbox.

The Oracle code is unchanged: the same `forkserver.py`/`forkchild.py`/`envprobe.py` run inside the
container, and the fork servers speak the same `SandboxProcess` byte protocol. Packages are fetched on the
host (`pip download`, which needs only PyPI) and installed inside from that wheelhouse with no network —
the sandbox itself never gets one. One sandbox per environment, kept open until the provider is closed.

    async with DockerBackend(cfg.sandbox, run_id=run) as backend, DockerVenvProvider(backend, cache) as provider:
        service = open_oracle(cfg.oracle, provider)
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import anyio

from repozero.kernel.errors import OracleError, SandboxError
from repozero.kernel.log import get_logger
from repozero.oracle.contract import case_env
from repozero.oracle.docker_native_env import DockerNativeEnvironment
from repozero.oracle.pruning import touch_used
from repozero.oracle.records import EnvSpec, Fingerprint, ProgramRef
from repozero.oracle.sandboxed_env import SandboxHolder
from repozero.oracle.source_env import ENVPROBE, FORKSERVER, SourceEnvironment
from repozero.sandbox import ProcessSandbox, SandboxBackend, SandboxProcess, SandboxSpec, leases

__all__ = ["DockerVenvEnvironment", "DockerVenvProvider"]

log = get_logger(__name__)

VENV = "/work/env"
TOOLS = "/work/.oracle"
PROGRAMS = "/work/programs"
WHEELS = "/work/wheels"
_PIP = "/usr/share/python-wheels/pip-*-py3-none-any.whl"
"""Debian's bundled pip wheel (python3-venv): run from the wheel to install into a venv that has no pip."""


class DockerVenvProvider(SandboxHolder):
    """One `python-source` sandbox (and venv) per package set; enter it to close them all at the end."""

    name = "docker"

    def __init__(self, backend: SandboxBackend, cache_dir: Path, *, memory_mb: int = 4096) -> None:
        super().__init__()
        self.backend = backend
        self.cache_dir = cache_dir
        self.memory_mb = memory_mb
        self._envs: dict[str, SourceEnvironment] = {}

    def environment(self, spec: EnvSpec) -> SourceEnvironment:
        """A venv in a `python-source` container, or a `native-source` container for C/C++ sources."""
        if spec.key not in self._envs:
            if spec.native:
                self._envs[spec.key] = DockerNativeEnvironment(spec, self)
            else:
                self._envs[spec.key] = DockerVenvEnvironment(spec, self)
        return self._envs[spec.key]

    async def _open(self, spec: EnvSpec) -> ProcessSandbox:
        sandbox_spec = SandboxSpec(
            toolchain="python-source", sample=f"oracle-{spec.key}", role="oracle", memory_mb=self.memory_mb,
            pids=1024, tmpfs_mb=2048,
        )  # fmt: skip
        return await self._hold(sandbox_spec)


class DockerVenvEnvironment:
    """A venv at /work/env inside its own container, built from a host-side wheelhouse."""

    def __init__(self, spec: EnvSpec, provider: DockerVenvProvider) -> None:
        self.spec = spec
        self._provider = provider
        self._box: ProcessSandbox | None = None
        self._fingerprint: Fingerprint | None = None
        self._staged: set[str] = set()
        self._faketime = ""
        self._lock = anyio.Lock()

    async def _sandbox(self) -> ProcessSandbox:
        if self._box is None:
            self._box = await self._provider._open(self.spec)
        return self._box

    async def _run(
        self, box: ProcessSandbox, argv: list[str] | str, what: str, timeout_s: float = 600
    ) -> bytes:
        result = await box.exec(argv, timeout_s=timeout_s)
        if result.exit_code != 0:
            tail = (result.stderr or result.stdout).decode(errors="replace").strip()[-2000:]
            raise OracleError(
                f"docker source env {self.spec.key}: {what} failed (exit {result.exit_code}): {tail}"
            )
        return result.stdout

    async def prepare(self) -> Fingerprint:
        async with self._lock:
            if self._fingerprint is None:
                box = await self._sandbox()
                try:
                    await self._create(box)
                    probe = await self._run(
                        box, [f"{VENV}/bin/python", "-I", f"{TOOLS}/envprobe.py"], "fingerprint probe"
                    )
                except BaseException:
                    await self._discard(box)
                    raise
                entries = json.loads(probe)
                self._fingerprint = Fingerprint(entries={str(k): str(v) for k, v in entries.items()})
                log.info("oracle_env_ready", env=self.spec.key, backend="docker", sandbox=box.id)
        return self._fingerprint

    async def _discard(self, box: ProcessSandbox) -> None:
        """A setup that failed leaves a half-made venv, or a container in trouble: closed (removed), so the
        next `prepare` — the episode's retry — builds the environment again in a new container."""
        self._box, self._staged = None, set()
        with anyio.CancelScope(shield=True):
            await box.close()

    async def _create(self, box: ProcessSandbox) -> None:
        for tool in (FORKSERVER, FORKSERVER.with_name("forkchild.py"), ENVPROBE):
            await box.write_file(f"{TOOLS}/{tool.name}", tool.read_bytes())
        await self._run(box, ["python3", "-m", "venv", "--without-pip", VENV], "venv")
        if self.spec.requirements:
            async with self._wheelhouse() as wheels:
                await box.put_tree(wheels, WHEELS)
            install = (
                # pip run by the venv's interpreter installs into the venv; run by python3 with --python,
                # it refuses (PEP 668: the image's Debian Python is externally managed)
                f'pip=$(ls {_PIP} | tail -n 1) && {VENV}/bin/python "$pip/pip" install'
                f" --no-index --find-links {WHEELS} --no-input --disable-pip-version-check --quiet"
                ' --no-warn-script-location "$@"'
            )
            await self._run(box, ["sh", "-c", install, "install", *self.spec.requirements], "pip install")
        found = await self._run(
            box, "ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1; true", "faketime"
        )
        self._faketime = found.decode().strip()

    @contextlib.asynccontextmanager
    async def _wheelhouse(self) -> AsyncIterator[Path]:
        """The requirements as wheels for the image's interpreter, downloaded once on the host (into a
        staging dir, renamed into place) and leased while the block copies them in: shared by every process
        on the machine, so never half-written where another reads, nor pruned while read."""
        folder = self._provider.cache_dir / "oracle" / "wheels" / self.spec.key
        marker = folder / ".complete"
        for _ in range(3):  # pruned between our download and our lease: download again
            with leases.using(folder, marker.is_file) as whole:
                if whole:
                    touch_used(folder)  # for `repozero cache prune`
                    yield folder
                    return
            if folder.exists():  # an older release's download, cut short: set aside
                leases.set_aside(folder, lambda: not marker.is_file())
            await self._download(folder)
        raise OracleError(f"wheelhouse {folder} was removed three times while being leased")

    async def _download(self, folder: Path) -> None:
        folder.parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".stage-{folder.name}-"))
        try:
            argv = [
                sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
                "--only-binary=:all:", "--python-version", self.spec.python, "--implementation", "cp",
                "--platform", "manylinux2014_x86_64", "--platform", "linux_x86_64", "--platform", "any",
                "--dest", str(stage), *self.spec.requirements,
            ]  # fmt: skip
            result = await anyio.run_process(argv, check=False)
            if result.returncode != 0:
                tail = result.stderr.decode(errors="replace").strip()[-2000:]
                raise OracleError(f"pip download {' '.join(self.spec.requirements)} failed: {tail}")
            (stage / ".complete").write_text("ok\n")
            os.chmod(stage, 0o755)
            try:
                os.rename(stage, folder)  # atomic; one put there first wins
            except OSError:
                if not (folder / ".complete").is_file():
                    raise
        finally:
            shutil.rmtree(stage, ignore_errors=True)

    async def stage_program(self, program: ProgramRef) -> str:
        target = f"{PROGRAMS}/{program.digest}"
        if program.digest not in self._staged:
            await (await self._sandbox()).put_tree(Path(program.dir), target)
            self._staged.add(program.digest)
        return target

    async def open_server(self, seed: int, clock_shift: str) -> SandboxProcess:
        box = await self._sandbox()
        scratch = f"/tmp/repozero-fs-{secrets.token_hex(6)}"
        await self._run(box, ["mkdir", "-p", scratch], "scratch dir")
        child_env = case_env([f"{VENV}/bin"], scratch)
        env = {**child_env, "PYTHONHASHSEED": str(seed)}
        if clock_shift:
            if not self._faketime:
                raise OracleError(
                    "the python-source image has no libfaketime (rebuild it: repozero images build)"
                )
            env.update(
                {
                    "LD_PRELOAD": self._faketime,
                    "FAKETIME": clock_shift,
                    "FAKETIME_CACHE_DURATION": "1000000000",
                }
            )
        opts = {"scratch": scratch, "child_env": {k: v for k, v in child_env.items() if k != "HOME"}}
        # `env -i`: exactly the contract's environment (Docker adds HOSTNAME to every process otherwise)
        argv = [
            "env",
            "-i",
            *(f"{k}={v}" for k, v in env.items()),
            f"{VENV}/bin/python",
            f"{TOOLS}/forkserver.py",
        ]
        try:
            return await box.open_process([*argv, json.dumps(opts)], cwd=scratch)
        except SandboxError as exc:
            raise OracleError(
                f"docker source env {self.spec.key}: cannot start a fork server: {exc}"
            ) from exc
