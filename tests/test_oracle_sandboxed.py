"""The source runs in its own sandbox (DESIGN §4): the same program, on the host and sandboxed."""

from __future__ import annotations

import socket
import uuid
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.oracle import EnvSpec, GroundTruthRequest, OracleConfig, open_oracle, program_ref
from repozero.sandbox import CaseInput
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker_client import docker_unavailable, open_client

pytestmark = pytest.mark.anyio

PROBE = """\
import os, socket, sys
port, secret = int(sys.argv[1]), sys.argv[2]
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    print("network: reached the host")
except OSError:
    print("network: none")
print("host file:", "seen" if os.path.exists(secret) else "hidden")
print("root:", os.getuid() == 0)
"""


async def _probe(config: OracleConfig, folder: Path, port: int, secret: Path, sandbox: SandboxConfig) -> str:
    request = GroundTruthRequest(
        env=EnvSpec(), program=program_ref(folder, "main.py"),
        cases=[CaseInput(id="probe", argv=[str(port), str(secret)])], repeats=2, timeout_s=10.0,
        output_cap=1 << 16,
    )  # fmt: skip
    async with open_oracle(config, sandbox=sandbox) as oracle:
        with anyio.fail_after(120):
            (verdict,) = await oracle.ground_truth(request)
    assert verdict.kept, verdict
    return (verdict.stdout or b"").decode()


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "main.py").write_text(f"# {uuid.uuid4()}\n{PROBE}")
    secret = Path("/tmp") / f"repozero-secret-{uuid.uuid4().hex}"
    secret.write_text("x")
    secret.chmod(0o644)
    return folder, secret


def _listener() -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    return listener


async def test_a_sandboxed_source_has_no_network_no_host_files_and_no_root(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    config = OracleConfig(cache_dir=str(cache), cache=False, servers=2, clock_shifts=[])
    folder, secret = _setup(tmp_path)
    sandbox = SandboxConfig(local_root=str(tmp_path / "sbx"))
    with _listener() as listener:
        port = listener.getsockname()[1]
        try:
            on_host = await _probe(
                msgspec.structs.replace(config, isolation="host"), folder, port, secret, sandbox
            )
            sandboxed = await _probe(config, folder, port, secret, sandbox)
        finally:
            secret.unlink()
    assert on_host == "network: reached the host\nhost file: seen\nroot: True\n"
    assert sandboxed == "network: none\nhost file: hidden\nroot: False\n"
    assert list((tmp_path / "sbx").glob("sbx-*")) == []  # the Oracle's sandbox is gone with the Oracle


async def test_without_namespaces_the_source_runs_on_the_host_rather_than_fail(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    """A plain local sandbox has no filesystem of its own, and its uid cannot read a venv under /root:
    the Oracle then runs the source on the host (with a warning) instead of every server failing."""
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    config = OracleConfig(cache_dir=str(cache), cache=False, servers=2)
    folder, secret = _setup(tmp_path)
    plain = SandboxConfig(local_root=str(tmp_path / "sbx"), local_isolation="plain")
    with _listener() as listener:
        try:
            out = await _probe(config, folder, listener.getsockname()[1], secret, plain)
        finally:
            secret.unlink()
    assert out == "network: reached the host\nhost file: seen\nroot: True\n"


@pytest.mark.docker
@pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable()))
async def test_in_docker_too_and_its_container_goes_with_the_oracle(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    cache = tmp_path_factory.getbasetemp() / "oracle-cache"
    config = OracleConfig(cache_dir=str(cache), cache=False, servers=2, isolation="docker")
    folder, secret = _setup(tmp_path)
    before = {c["Id"] for c in await _our_containers()}
    with _listener() as listener:
        try:
            inside = await _probe(config, folder, listener.getsockname()[1], secret, SandboxConfig())
        finally:
            secret.unlink()
    assert inside == "network: none\nhost file: hidden\nroot: False\n"
    assert {c["Id"] for c in await _our_containers()} <= before


async def _our_containers() -> list[dict[str, object]]:
    async with open_client() as client:
        return await client.list_containers()


@pytest.mark.docker
@pytest.mark.slow
@pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable()))
async def test_in_docker_a_pinned_package_is_installed_and_imported(tmp_path: Path) -> None:
    """A source with requirements on the Docker Oracle: downloaded on the host, installed offline into the
    container's venv. pip run by the image's Debian python3 with `--python VENV` refused it (PEP 668,
    "externally-managed-environment"), so every py2js sample failed on `oracle.isolation = "docker"`."""
    folder = tmp_path / "program"
    folder.mkdir()
    (folder / "main.py").write_text("import sys, roman\nprint(roman.toRoman(int(sys.argv[1])))\n")
    config = OracleConfig(cache_dir=str(tmp_path / "cache"), cache=False, servers=2, isolation="docker")
    request = GroundTruthRequest(
        env=EnvSpec(requirements=["roman==4.2"]), program=program_ref(folder, "main.py"),
        cases=[CaseInput(id="a", argv=["1994"])], repeats=2, timeout_s=10.0, output_cap=1 << 16,
    )  # fmt: skip
    async with open_oracle(config, sandbox=SandboxConfig(local_root=str(tmp_path / "sbx"))) as oracle:
        with anyio.fail_after(300):
            (verdict,) = await oracle.ground_truth(request)
    assert (verdict.reason, verdict.stdout) == (None, b"MCMXCIV\n"), verdict
