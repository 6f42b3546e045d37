"""Native builds shared between processes are leased while in use (issue 40, item 1): a C/C++ test program
the Oracle compiled and a Rust target the grader built stay while a process uses them, however old they
look to `repozero cache prune` in another process, and go once none does. Each test fails without the
lease (the old mtime alone has the entry removed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from repozero.datasets import load_dataset
from repozero.oracle.docker_env import DockerVenvEnvironment, DockerVenvProvider
from repozero.oracle.native_env import LocalNativeEnvironment, build_key
from repozero.oracle.records import EnvSpec, Fingerprint, program_ref
from repozero.oracle.targets import build_key as rust_key
from repozero.oracle.targets import build_root, build_target
from repozero.sandbox import leases

OLD = time.time() - 10 * 86_400


def _prune(root: Path) -> list[str]:
    argv = [sys.executable, "-m", "repozero", "--set", f"oracle.cache_dir={root}", "cache", "prune"]
    done = subprocess.run(
        [*argv, "--older-than", "1d", "--json"], capture_output=True, text=True, cwd="/", timeout=60
    )
    assert done.returncode == 0, done.stderr
    return [e["path"] for e in json.loads(done.stdout)["removed"]]


@pytest.mark.anyio
async def test_a_compiled_test_program_in_use_is_leased(tmp_path: Path) -> None:
    program = tmp_path / "program"
    program.mkdir()
    (program / "t.c").write_text("int main(void) { return 0; }\n")
    ref = program_ref(program, "t.c")
    env = LocalNativeEnvironment(EnvSpec(language="c"), tmp_path)
    env._fingerprint = Fingerprint(entries={"gcc": "test"})  # no probe: the build is already there
    build = env.builds / build_key(env._fingerprint, ref)
    build.mkdir(parents=True)
    (build / "exe").write_bytes(b"\x7fELF")
    with anyio.fail_after(30):
        assert await env.stage_program(ref) == str(build)
    os.utime(build, (OLD, OLD))
    assert _prune(tmp_path) == [] and (build / "exe").is_file()
    leases.release(build)  # as when the process that staged it ends
    assert _prune(tmp_path) == [str(build)] and not build.exists()


@pytest.mark.anyio
async def test_a_rust_build_is_leased_while_a_grade_uses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    dataset = load_dataset("builtin:c2rust-lite")
    sample = next(
        s for s in dataset.samples if s.target.language == "rust" and dataset.gold_dir(s.id).is_dir()
    )
    target = dataset.gold_dir(sample.id)
    final = build_root() / rust_key(target)
    (final / "tree").mkdir(parents=True)  # a cached build: no sandbox, no cargo needed
    (final / "build.json").write_text(json.dumps({"error": None}))
    async with build_target(None, sample, target) as built:  # type: ignore[arg-type]
        assert built.dir == str(final / "tree")
        os.utime(final, (OLD, OLD))
        assert _prune(tmp_path / "repozero") == [] and final.is_dir()
    os.utime(final, (OLD, OLD))
    assert _prune(tmp_path / "repozero") == [str(final)] and not final.exists()


def test_a_held_entry_that_went_is_leased_again_once_rebuilt(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    entry.mkdir()
    assert leases.hold(entry, entry.is_dir)
    os.rename(entry, tmp_path / "away")  # gone behind the lease's back (by hand, or a process without one)
    assert not leases.hold(entry, entry.is_dir) and leases.holders(entry) == []
    entry.mkdir()
    assert leases.hold(entry, entry.is_dir) and len(leases.holders(entry)) == 1
    leases.release(entry)


def test_a_block_lease_ends_with_its_last_block(tmp_path: Path) -> None:
    entry = tmp_path / "entry"
    entry.mkdir()
    with leases.using(entry) as first:
        with leases.using(entry) as second:
            assert first and second and len(leases.holders(entry)) == 1
        assert len(leases.holders(entry)) == 1
    assert leases.holders(entry) == [] and leases.prune_unheld(entry) and not entry.exists()
    (tmp_path / "file").write_bytes(b"x")  # an entry may be a file (a verdict table)
    assert leases.prune_unheld(tmp_path / "file") and not (tmp_path / "file").exists()


@pytest.mark.anyio
async def test_a_wheelhouse_is_leased_while_copied_into_a_container(tmp_path: Path) -> None:
    """The Docker Oracle's wheelhouse (`oracle/wheels`), already downloaded: leased while read."""
    provider = DockerVenvProvider(None, tmp_path)  # type: ignore[arg-type]  # no container needed here
    env = DockerVenvEnvironment(EnvSpec(requirements=["roman==4.2"]), provider)
    folder = tmp_path / "oracle" / "wheels" / env.spec.key
    folder.mkdir(parents=True)
    (folder / "roman-4.2-py3-none-any.whl").write_bytes(b"wheel")
    (folder / ".complete").write_text("ok\n")
    async with env._wheelhouse() as wheels:
        assert wheels == folder
        os.utime(folder, (OLD, OLD))
        assert _prune(tmp_path) == [] and (folder / ".complete").is_file()
    os.utime(folder, (OLD, OLD))
    assert _prune(tmp_path) == [str(folder)] and not folder.exists()
