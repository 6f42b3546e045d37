"""The Oracle's messages: what it is asked (a program, an environment, case inputs) and what it answers."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Literal

from repozero.datasets import Case, Dataset, Sample, Source
from repozero.kernel.records import Record, json_encoder
from repozero.kernel.vocabulary import DropReason
from repozero.sandbox import CaseInput

__all__ = [
    "DropReason",
    "EnvSpec",
    "Fingerprint",
    "GroundTruthRequest",
    "ProgramRef",
    "RunResult",
    "Verdict",
    "env_spec",
    "program_ref",
    "sample_request",
]


class EnvSpec(Record, kw_only=True):
    """A source environment to run in: a pinned package set and what runs the program.

    For Python sources `requirements` are pip requirements and `python` the interpreter version; for C/C++
    sources (`language` "c" or "cpp") they are Debian packages (`NAME` or `NAME=VERSION`) whose headers and
    shared libraries a compiled test program uses.
    """

    requirements: tuple[str, ...] = ()
    python: str = "3.11"
    language: Literal["python", "c", "cpp"] = "python"

    @property
    def native(self) -> bool:
        """Whether the test program is compiled (and run as a binary) rather than interpreted."""
        return self.language != "python"

    @property
    def key(self) -> str:
        """Stable identity of the requested set (not of what got installed: that is the fingerprint)."""
        head = f"python {self.python}" if not self.native else f"native {self.language}"
        text = "\n".join([head, *sorted(self.requirements)])
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def env_spec(source: Source) -> EnvSpec:
    """The environment a sample's source needs: its requirements, or its pinned package if none are listed.

    A C/C++ source's package is a Debian package (`NAME` or `NAME=VERSION`), always part of the set.
    """
    reqs = list(source.requirements)
    if source.language != "python":
        return EnvSpec(requirements=tuple(sorted({source.package, *reqs})), language=source.language)
    if not reqs and "==" in source.package:
        reqs = [source.package]
    return EnvSpec(requirements=tuple(sorted(set(reqs))), python=source.python)


class ProgramRef(Record, kw_only=True):
    """A test program: its folder on the host, the script inside it, and a digest of the whole folder."""

    dir: str
    path: str
    digest: str


def program_ref(folder: Path, path: str) -> ProgramRef:
    """Describe a program folder, hashing every file (path and bytes) so any edit changes the digest."""
    digest = hashlib.sha256(f"script {path}\n".encode())
    files = sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for file in files:
        digest.update(f"{file.relative_to(folder).as_posix()}\0".encode())
        digest.update(hashlib.sha256(file.read_bytes()).digest())
    return ProgramRef(dir=str(folder.resolve()), path=path, digest=digest.hexdigest())


class Fingerprint(Record, kw_only=True):
    """What an environment actually holds: interpreter and installed distributions with content hashes."""

    entries: dict[str, str]

    @property
    def hash(self) -> str:
        return "sha256:" + hashlib.sha256(json_encoder.encode(self.entries)).hexdigest()


class GroundTruthRequest(Record, kw_only=True):
    """Run these case inputs of one program N times each and say which are deterministic."""

    env: EnvSpec
    program: ProgramRef
    cases: list[CaseInput]
    repeats: int
    timeout_s: float
    output_cap: int


class RunResult(Record, kw_only=True):
    """One run of one case on one fork server."""

    id: str
    stdout: bytes
    stderr: bytes
    exit_code: int
    wall_s: float
    timed_out: bool = False
    truncated: bool = False
    server: int = -1
    hash_seed: int = -1
    clock_shift: str = ""


class Verdict(Record, kw_only=True):
    """The Oracle's answer for one case: ground truth, or why there is none.

    `reason` is None for a kept case; then `stdout` holds the bytes every run printed and `exit_code` is 0.
    """

    id: str
    reason: DropReason | None
    stdout: bytes | None
    exit_code: int
    stderr: bytes = b""
    detail: str = ""
    repeats: int = 0
    """Runs made before deciding (fewer than N when a case was dropped early)."""

    @property
    def kept(self) -> bool:
        return self.reason is None


def sample_request(
    dataset: Dataset, sample: Sample, cases: list[Case] | list[CaseInput], *, repeats: int, timeout_s: float,
    output_cap: int,
) -> GroundTruthRequest:  # fmt: skip
    """Ask for ground truth on some inputs of a dataset's sample (its environment, its program folder)."""
    return GroundTruthRequest(
        env=env_spec(sample.source),
        program=program_ref(dataset.program_dir(sample.id), sample.test_program.path),
        cases=[CaseInput(id=c.id, argv=c.argv, stdin=c.stdin) for c in cases],
        repeats=repeats,
        timeout_s=timeout_s,
        output_cap=output_cap,
    )
