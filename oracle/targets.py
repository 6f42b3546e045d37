"""What the grader knows per target language: its sandbox toolchain, when a target can run at all, and the
build that turns a target tree into what runs (nothing for JavaScript; `cargo build` for Rust).

A Rust target is a Cargo project at the target root; its entry point is a binary under `target/release/`.
The grader builds it with `cargo build --release --offline` in the grading sandbox (the pinned toolchain,
no network), from a copy of the tree without `target/` or `.git` — a binary or a build fingerprint the
agent left there is never trusted — and caches the result by the tree's content hash under
`<cache>/grader/rust/<hash>/`: the sources plus the built entry binary, or the compiler's first errors,
leased while a grade uses it.
The same tree is never built twice; a build failure is `no_executable`, its errors fed back on every
visible case.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import msgspec

from repozero.datasets import Sample
from repozero.kernel.errors import SandboxError
from repozero.kernel.log import get_logger
from repozero.kernel.records import Record
from repozero.oracle.config import OracleConfig, cache_root
from repozero.oracle.grading import GradingPolicy
from repozero.oracle.pruning import touch_used
from repozero.sandbox import GradingSandbox, leases
from repozero.sandbox.toolchains import build_command, rust_version

__all__ = [
    "BUILD_TIMEOUT_S",
    "Built",
    "build_key",
    "build_target",
    "policy_for",
    "runnable",
    "toolchain_for",
    "tree_hash",
]

log = get_logger(__name__)

TOOLCHAINS = {"javascript": "node", "rust": "rust"}
BUILD_TIMEOUT_S = 300.0
PUBLIC_C2RUST_TIMEOUT_S = 3.0
_IGNORED = frozenset({"target", ".git"})
"""Top-level entries of a Cargo tree that are not sources."""
_ERROR_LINES = 40
_ERROR_CHARS = 6000


class Built(Record, kw_only=True):
    """A target ready to grade: the host folder to put into the sandbox, or why there is none."""

    dir: str
    error: str | None = None


def toolchain_for(sample: Sample) -> str:
    """The sandbox toolchain (and Docker image) a sample's target runs with."""
    return TOOLCHAINS[sample.target.language]


def runnable(sample: Sample, target_dir: Path, script_found: bool) -> bool:
    """Whether there is anything to run: a Cargo.toml at the root for Rust, the entry script otherwise."""
    if sample.target.language == "rust":
        return (target_dir / "Cargo.toml").is_file()
    return script_found


def policy_for(sample: Sample, policy: GradingPolicy) -> GradingPolicy:
    """The grading policy as it applies to this sample's language: under a protocol that reproduces the
    public scripts (`paper_compat`), Rust targets are judged as the public C2Rust harness judges them —
    stripped outputs, equal as floats counts — with its 3 s per case."""
    if sample.target.language == "rust" and policy.comparator == "paper_compat":
        return msgspec.structs.replace(
            policy, comparator="paper_compat_c2rust", timeout_s=PUBLIC_C2RUST_TIMEOUT_S
        )
    return policy


def build_root() -> Path:
    return cache_root(OracleConfig()) / "grader" / "rust"


def _ignored(folder: str, names: list[str], root: str) -> set[str]:
    return set(_IGNORED.intersection(names)) if folder == root else set()


def _entry_digest(path: Path, rel: str) -> bytes:
    if path.is_symlink():
        return f"L {rel}\0{os.readlink(path)}\n".encode()
    if path.is_dir():
        return f"D {rel}\n".encode()
    mode = "x" if path.stat().st_mode & stat.S_IXUSR else "f"
    return f"{mode} {rel}\0".encode() + hashlib.sha256(path.read_bytes()).digest()


def tree_hash(root: Path) -> str:
    """sha256 over the source tree (paths, executable bits, bytes, symlink targets), `target/` and `.git` out."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(set(dirs) - _ignored(folder, dirs, str(root)))
        for name in sorted([*files, *dirs]):
            path = Path(folder) / name
            digest.update(_entry_digest(path, path.relative_to(root).as_posix()))
    return digest.hexdigest()


def build_key(target_dir: Path) -> str:
    """What a build depends on: the source tree and the pinned toolchain's version."""
    return hashlib.sha256(f"rust {rust_version()}\n{tree_hash(target_dir)}".encode()).hexdigest()


def _first_errors(stderr: bytes) -> str:
    """The compiler's first errors: from the first `error` line on, bounded."""
    lines = stderr.decode(errors="replace").splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("error")), 0)
    return "\n".join(lines[start : start + _ERROR_LINES])[:_ERROR_CHARS]


@contextlib.asynccontextmanager
async def build_target(sandbox: GradingSandbox, sample: Sample, target_dir: Path) -> AsyncIterator[Built]:
    """The folder to grade from, for the block; for Rust, built once per tree content (in `sandbox` on a
    cache miss) and leased while the block uses it (`repozero cache prune` elsewhere leaves it)."""
    if sample.target.language != "rust":
        yield Built(dir=str(target_dir))
        return
    key = await anyio.to_thread.run_sync(build_key, target_dir)
    final = build_root() / key
    for _ in range(3):  # pruned between our build and our lease: build again
        with leases.using(final, lambda: _cached(final) is not None) as whole:
            built = _cached(final)
            if whole and built is not None:
                touch_used(final)  # for `repozero cache prune`
                log.debug("rust_build_cached", sample=sample.id, tree=key[:16])
                yield built
                return
        await _publish(sandbox, sample, target_dir, final)
    raise SandboxError(f"Rust build {final} was removed three times while being leased")


async def _publish(sandbox: GradingSandbox, sample: Sample, target_dir: Path, final: Path) -> None:
    """Build in a staging dir and rename it into place (atomic; one put there first wins)."""
    final.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=final.parent, prefix=".stage-"))
    try:
        tree, root = stage / "tree", str(target_dir)
        shutil.copytree(target_dir, tree, symlinks=True, ignore=lambda d, n: _ignored(d, n, root))
        error = await _cargo_build(sandbox, sample, tree)
        (stage / "build.json").write_text(json.dumps({"error": error}))
        os.chmod(stage, 0o755)
        try:
            os.rename(stage, final)
        except OSError:
            if _cached(final) is None:
                raise
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    log.info("rust_built", sample=sample.id, tree=final.name[:16], ok=error is None)


def _cached(final: Path) -> Built | None:
    try:
        record = json.loads((final / "build.json").read_text())
    except (OSError, ValueError):
        return None
    return Built(dir=str(final / "tree"), error=record.get("error"))


async def _cargo_build(sandbox: GradingSandbox, sample: Sample, tree: Path) -> str | None:
    """Build in the sandbox's workdir; copy the entry binary back into `tree`. The error text, or None."""
    entry = sample.target.entry[0]
    await sandbox.put_tree(tree, sandbox.workdir)
    argv = ["env", "CARGO_TERM_COLOR=never", *build_command(sample.target.language)]
    result = await sandbox.exec(argv, timeout_s=BUILD_TIMEOUT_S)
    if result.timed_out:
        return f"cargo build --release --offline did not finish within {BUILD_TIMEOUT_S:g} s"
    if result.exit_code != 0:
        return _first_errors(result.stderr) or f"cargo build exited {result.exit_code}"
    check = await sandbox.exec(["test", "-f", entry], timeout_s=30)
    if check.exit_code != 0:
        return f"cargo build succeeded but made no {entry} (the sample's entry point)"
    binary = tree / entry
    binary.parent.mkdir(parents=True, exist_ok=True)
    binary.write_bytes(await sandbox.read_file(f"{sandbox.workdir}/{entry}"))
    binary.chmod(0o755)
    return None
