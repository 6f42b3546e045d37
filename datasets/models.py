"""The dataset records: what a sample is, what a case is, and what survived the Oracle.

Every persisted record carries `schema_version`; inputs are argv lists end to end, never shell strings.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from repozero.kernel.records import Record
from repozero.kernel.vocabulary import DropReason

__all__ = [
    "SCHEMA_VERSION",
    "Argument",
    "Case",
    "DatasetInfo",
    "Difficulty",
    "DroppedCase",
    "Generation",
    "Interface",
    "Provenance",
    "Sample",
    "Source",
    "Target",
    "TestProgram",
    "Vote",
]

SCHEMA_VERSION = 1

Visibility = Literal["whitebox", "hidden"]
Difficulty = Literal["easy", "medium", "hard"]
Subset = Literal["py2js", "c2rust"]

ArgFormat = Literal["str", "int", "float", "bool", "json"]


class Case(Record, kw_only=True):
    """One input of a test program and, once the Oracle has run, its ground truth.

    `expected_stdout` is None until the Oracle has answered (a *pending* case).
    """

    id: str
    argv: list[str]
    stdin: bytes | None = None
    expected_stdout: bytes | None = None
    expected_exit: int = 0
    visibility: Visibility = "hidden"
    description: str = ""


class DroppedCase(Record, kw_only=True):
    """A case input the Oracle refused, with the reason, kept for provenance and audits."""

    id: str
    argv: list[str]
    stdin: bytes | None = None
    reason: DropReason
    detail: str = ""


class Argument(Record, kw_only=True):
    """One named argument of a test program (`--name value`)."""

    name: str
    format: ArgFormat = "str"
    required: bool = False
    description: str = ""


class Interface(Record, kw_only=True):
    """How a test program takes input, so proposed inputs can be validated before anyone runs them.

    `style` "named" means argv is a sequence of `--name value` pairs over `args`; "free" means any argv.
    """

    args: list[Argument] = []
    stdin: Literal["none", "optional", "required"] = "none"
    style: Literal["named", "free"] = "named"
    max_input_bytes: int = 65536


class Source(Record, kw_only=True):
    """The source repository the Oracle runs: a pinned package set and the interpreter it needs."""

    language: Literal["python", "c", "cpp"] = "python"
    package: str
    requirements: list[str] = []
    python: str = "3.11"


class TestProgram(Record, kw_only=True):
    """The program, in the source language, that calls the package's API and prints results.

    `path` is relative to the sample's `program/` folder, which is copied whole into the Oracle's scratch.
    """

    __test__ = False  # not a pytest class, despite its name
    path: str
    language: Literal["python", "c", "cpp"] = "python"


class Target(Record, kw_only=True):
    """What the agent must build: its language and the entry point command run per case."""

    language: Literal["javascript", "rust"] = "javascript"
    entry: list[str]
    version: str = ""


class Vote(Record, kw_only=True):
    """One model's rating of a generated sample (`dataset generate`), or its abstention and why."""

    voter: str
    difficulty: Difficulty | None = None
    category: str | None = None
    ratings: dict[str, int] = {}
    reason: str = ""
    abstained: str = ""
    attempts: int = 1


class Generation(Record, kw_only=True):
    """How a model made a sample (`dataset generate`): who wrote it, with which prompts and seed, and the
    votes that gave its difficulty and category."""

    model: str
    voters: list[str]
    prompts: str
    seed: int
    api_calls: list[str] = []
    lines_reached: int = 0
    votes: list[Vote] = []
    decided: str = ""
    rewrites: list[str] = []


class Provenance(Record, kw_only=True):
    """How ground truth was made: where, how many repeats, what was dropped and why."""

    fingerprint: dict[str, str] = {}
    fingerprint_hash: str = ""
    repeats: int = 0
    timeout_s: float = 0.0
    output_cap: int = 0
    built_at: str = ""
    dropped: list[DroppedCase] = []
    generation: Generation | msgspec.UnsetType = msgspec.UNSET
    """Set only on generated samples (absent from the file otherwise)."""


class Sample(Record, kw_only=True):
    """A source package + a test program + cases: one unit the agent re-implements and is graded on."""

    schema_version: int = SCHEMA_VERSION
    id: str
    subset: Subset = "py2js"
    source: Source
    test_program: TestProgram
    interface: Interface = Interface()
    api_spec: str = "api_spec.md"
    target: Target
    cases: list[Case] = []
    difficulty: Difficulty = "medium"
    difficulty_rule: str = ""
    category: str = "uncategorized"
    status: Literal["pending", "live", "dropped"] = "pending"
    split: str | None = None
    """`train` or `test` (by library: no library in both) where the dataset has splits; a label, outside
    the content hash, as difficulty is."""
    provenance: Provenance = Provenance()

    @property
    def library(self) -> str:
        """The library: the source package's name without its pin, the unit that clustered statistics resample (`NAME==VER` for PyPI pins,
        `NAME=VER` for Debian ones)."""
        return self.source.package.split("=")[0]

    @property
    def kept_cases(self) -> list[Case]:
        """Cases with ground truth."""
        return [c for c in self.cases if c.expected_stdout is not None]

    @property
    def whitebox(self) -> list[Case]:
        return [c for c in self.cases if c.visibility == "whitebox"]

    @property
    def hidden(self) -> list[Case]:
        return [c for c in self.cases if c.visibility == "hidden" and c.expected_stdout is not None]


class DatasetInfo(Record, kw_only=True):
    """The contents of `dataset.toml`."""

    schema_version: int = SCHEMA_VERSION
    name: str
    version: str = "0"
    description: str = ""
    content_hash: str = ""
