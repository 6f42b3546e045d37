"""A broken environment is infrastructure, not the model's failure (issue 40, item 2).

When the toolchain a local sandbox runs goes under it — the dir renamed away, or emptied as the old
toolchain code's `rmtree` emptied it under live sandboxes' bind mounts — a grade is an infra error (retried,
never scored) instead of every case `wrong_output`/`runtime_error`, the coder's next command fails the
episode as infrastructure instead of showing the model `ls: not found`, and the backend's next sandbox
gets the toolchain built again. What tells them apart is the toolchain dir on the host, so a target that
prints the same message and exit status itself is still graded as the target it is."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import anyio
import msgspec
import pytest

from repozero.datasets import load_dataset
from repozero.kernel.errors import SandboxError
from repozero.oracle.evaluate import GradeJob, grade_one, graded_cases
from repozero.oracle.grading import GradingPolicy, grade_in_sandbox
from repozero.oracle.records import EnvSpec
from repozero.oracle.sandboxed_env import SandboxedVenvProvider
from repozero.oracle.source_env import SourceEnvironment
from repozero.sandbox import SandboxBackend, SandboxSpec
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.local import LocalBackend
from repozero.sandbox.toolchains import toolchain_problem

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
POLICY = GradingPolicy()
FAKE_MISSING = "process.stderr.write('/usr/bin/node: No such file or directory\\n'); process.exit(127);\n"


def renamed(toolchain: Path) -> None:
    """The dir renamed away: a sandbox starting a process finds nothing to mount."""
    toolchain.rename(toolchain.with_name(toolchain.name + ".away"))


def emptied(toolchain: Path) -> None:
    """The dir's entries moved out, by renames (an rmtree without the loss): what a live sandbox's bind
    mount showed when another process removed the dir under it."""
    attic = toolchain.with_name(toolchain.name + ".attic")
    attic.mkdir()
    for entry in (toolchain / "bin").iterdir():
        entry.rename(attic / entry.name)


def lost_node(toolchain: Path) -> None:
    """Only the interpreter moved out (an rmtree caught halfway): the driver runs, every case's
    `/usr/bin/node` is missing — what was scored as the model's failure."""
    (toolchain / "bin" / "node").rename(toolchain.with_name("node.attic"))


def _job(tmp_path: Path, target: Path | None = None) -> tuple[LocalBackend, GradeJob]:
    dataset = load_dataset(FIXTURE)
    sample = dataset.sample("fx-stats")
    backend = LocalBackend(SandboxConfig(toolchain_dir=str(tmp_path / "toolchains")))
    job = GradeJob(
        sample=sample, cases=graded_cases(sample), target_dir=str(target or dataset.gold_dir(sample.id))
    )
    return backend, job


def _toolchain(tmp_path: Path) -> Path:
    (found,) = [
        p for p in (tmp_path / "toolchains").iterdir() if re.fullmatch(r"node-.+-[0-9a-f]{16}", p.name)
    ]
    return found


@pytest.mark.anyio
@pytest.mark.parametrize("remove", [renamed, emptied, lost_node])
async def test_a_toolchain_gone_under_a_grade_is_infra_and_the_next_grade_rebuilds_it(
    tmp_path: Path, remove: Callable[[Path], None]
) -> None:
    backend, job = _job(tmp_path)
    with anyio.fail_after(120):
        assert (await grade_one(backend, job, POLICY)).passed  # the control: whole, it passes
        spec = SandboxSpec(toolchain="node", sample=job.sample.id, role="grader")
        async with backend.open(spec) as sandbox:
            remove(_toolchain(tmp_path))  # under the open sandbox, before its batch runs
            grade = await grade_in_sandbox(sandbox, job.sample, job.cases, Path(job.target_dir), POLICY)
        assert grade.infra_error and not grade.passed and grade.failure_category is None
        assert "toolchain" in grade.infra_detail
        assert {c.status for c in grade.cases} == {"infra_error"}  # no case scored
        again = await grade_one(backend, job, POLICY)  # a new sandbox: the toolchain is built again
    assert again.passed and not again.infra_error
    assert (_toolchain(tmp_path) / "bin" / "node").is_file()


@pytest.mark.anyio
@pytest.mark.parametrize("remove", [renamed, emptied, lost_node])
async def test_the_coders_command_fails_as_infrastructure_when_its_toolchain_goes(
    tmp_path: Path, remove: Callable[[Path], None]
) -> None:
    backend, _ = _job(tmp_path)
    with anyio.fail_after(120):
        async with backend.open(SandboxSpec(toolchain="node", role="coder")) as sandbox:
            assert (await sandbox.shell("ls -la && node -e 'console.log(1)'")).exit_code == 0
            remove(_toolchain(tmp_path))
            if (
                remove is not renamed
            ):  # renamed away, the live shell's mount keeps what it had: it still works
                with pytest.raises(SandboxError, match="toolchain"):
                    await sandbox.shell("node -e 'console.log(1)'")
            with pytest.raises(SandboxError, match="toolchain"):  # a new process finds it gone either way
                await sandbox.exec(["node", "-e", "1"])
        async with backend.open(SandboxSpec(toolchain="node", role="coder")) as sandbox:
            assert (await sandbox.shell("ls -la && node -e 'console.log(1)'")).exit_code == 0


@pytest.mark.anyio
async def test_a_target_that_only_says_so_is_graded_as_the_target(
    sandbox_backend: SandboxBackend, tmp_path: Path
) -> None:
    """The same words and exit status from the target itself, its tools all there: a failure of its own
    (on each backend; the check after it finds nothing missing)."""
    target = tmp_path / "target"
    target.mkdir()
    (target / "test.mjs").write_text(FAKE_MISSING)
    _, job = _job(tmp_path, target)
    with anyio.fail_after(120):
        grade = await grade_one(sandbox_backend, job, POLICY)
    assert not grade.infra_error and grade.failure_category is not None
    assert {c.status for c in grade.cases} == {"runtime_error"}


@pytest.mark.anyio
async def test_an_interpreter_the_sandbox_lacks_is_infrastructure(
    sandbox_backend: SandboxBackend, tmp_path: Path
) -> None:
    """A target whose interpreter the sandbox (its toolchain or image) does not have: every case exits 127,
    and the check after them finds the interpreter missing — infra, not `runtime_error` on every case."""
    _, job = _job(tmp_path)
    target = msgspec.structs.replace(job.sample.target, entry=["nodejs-absent", "test.mjs"])
    job = msgspec.structs.replace(job, sample=msgspec.structs.replace(job.sample, target=target))
    with anyio.fail_after(120):
        grade = await grade_one(sandbox_backend, job, POLICY)
    assert grade.infra_error and not grade.passed and grade.failure_category is None
    assert "lacks nodejs-absent" in grade.infra_detail
    assert {c.status for c in grade.cases} == {"infra_error"}


async def _greeting(env: SourceEnvironment, seed: int) -> bytes:
    """The first line a fork server started in the environment's sandbox says (its hello)."""
    server = await env.open_server(seed, "")
    try:
        line = b""
        while b"\n" not in line:
            chunk = await server.receive()
            assert chunk, "the fork server ended without a greeting"
            line += chunk
        return line
    finally:
        await server.aclose()


@pytest.mark.anyio
async def test_the_oracles_held_sandbox_is_opened_again_when_its_toolchain_goes(tmp_path: Path) -> None:
    """The Oracle holds one sandbox per environment for the whole run: once its toolchain went, every
    server it started there failed for the rest of the run; now the next server gets a new sandbox."""
    backend = LocalBackend(SandboxConfig(toolchain_dir=str(tmp_path / "toolchains")))
    with anyio.fail_after(180):
        async with SandboxedVenvProvider(backend, tmp_path / "cache") as provider:
            env = provider.environment(EnvSpec())
            if not await provider.sandboxed():
                pytest.skip("no namespaces here: the Oracle's servers run on the host")
            assert b'"hello"' in await _greeting(env, 1)
            (toolchain,) = [
                p
                for p in (tmp_path / "toolchains").iterdir()
                if re.fullmatch(r"python-source-.+-[0-9a-f]{16}", p.name)
            ]
            renamed(toolchain)  # a new process in the held sandbox cannot even be started
            assert b'"hello"' in await _greeting(env, 2)
    assert not toolchain_problem(toolchain)  # built again in its place
