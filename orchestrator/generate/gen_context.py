"""What every stage of one generation run shares: settings, state, the Oracle, the models, the bus, limits."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import anyio

from repozero.agents.provider import ModelProvider
from repozero.oracle.actor import Oracle
from repozero.oracle.config import OracleConfig
from repozero.orchestrator.engine.tracing import EventBus
from repozero.orchestrator.generate.calls import Conversation, call_seed
from repozero.orchestrator.generate.oracle_stages import ApiListing
from repozero.orchestrator.generate.records import GenerateSettings
from repozero.orchestrator.generate.state import GenerateState

__all__ = ["FENCES", "GenContext", "package_slug", "script_name", "slot_names"]

FENCES = {"python": "python", "c": "c", "cpp": "cpp"}
"""The fenced block a program comes in, by source language."""
_SUFFIXES = {"python": ".py", "c": ".c", "cpp": ".cpp"}


@dataclass
class GenContext:
    settings: GenerateSettings
    state: GenerateState
    oracle: Oracle
    oracle_config: OracleConfig
    writer: ModelProvider
    voters: list[ModelProvider]
    api: ApiListing
    bus: EventBus
    programs: anyio.CapacityLimiter
    """Program slots in flight at once (each also waits on its endpoint's connections and the Oracle)."""
    session: int = 0
    prompts: str = ""
    run_id: str = ""
    votes_limiter: anyio.CapacityLimiter = field(default_factory=lambda: anyio.CapacityLimiter(64))

    def work_dir(self, program: str) -> Path:
        return self.state.program_dir(program)

    def episode(self, program: str) -> str:
        """The slot's trace episode in this invocation (a resumed run is a new one)."""
        return f"{self.run_id}-{program}-s{self.session}"

    def conversation(self, provider: ModelProvider, program: str, role: str, name: str) -> Conversation:
        """A traced conversation of `role` about `program`, seeded from the run's seed."""
        seed = call_seed(self.settings.seed, program, name)
        return Conversation(
            provider, self.bus, episode_id=self.episode(program), role=role, name=name, seed=seed
        )


def package_slug(source: str) -> str:
    """`python-slugify==8.0.4` -> `python-slugify`: the stem of generated sample ids."""
    name = re.split(r"[=<>!~ ]", source, maxsplit=1)[0]
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "pkg"


def script_name(program: str, language: str) -> str:
    """The test program's file: `roman_g01.py`, `cjson_g01.c` (its stem names a Rust target's binary)."""
    return program.replace("-", "_") + _SUFFIXES[language]


def slot_names(source: str, files: int) -> list[str]:
    """The sample ids of the program slots: `roman-g01`, `roman-g02`, …"""
    return [f"{package_slug(source)}-g{k:02d}" for k in range(1, files + 1)]
