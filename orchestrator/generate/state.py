"""Resume state: one file per finished stage of one program slot, written atomically when the stage ends.

A resumed run reads a stage's file instead of doing the stage again, so no model call is repeated for a
finished stage; a stage cut off by a kill left no file and runs again. The folder is `OUT.generate/`,
beside the dataset, and stays after the run (what each model said, for audits).
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec

from repozero.datasets.disk import write_atomic
from repozero.kernel.errors import UsageError
from repozero.kernel.records import Record, json_encoder
from repozero.orchestrator.generate.records import GenerateSettings

__all__ = ["GenerateState", "state_dir"]

R = TypeVar("R", bound=Record)


def state_dir(out: Path) -> Path:
    return out.with_name(out.name + ".generate")


_DERIVED = {"outcome"}
"""Records made from the stage records alone (an older version's is made again, not read)."""


class GenerateState:
    """The state folder of one `dataset generate` output."""

    def __init__(self, root: Path) -> None:
        self.root = root

    @classmethod
    def open(cls, out: Path, settings: GenerateSettings, resume: bool) -> GenerateState:
        """A fresh state (refusing to overwrite one), or the one a resumed run continues (same settings)."""
        state = cls(state_dir(out))
        path = state.root / "settings.json"
        if out.exists():
            raise UsageError(f"--out {out}: already exists (refusing to overwrite)")
        if not resume:
            if path.exists():
                raise UsageError(
                    f"--out {out}: {state.root} holds an unfinished run; pass --resume to continue it"
                )
            write_atomic(path, json_encoder.encode(settings))
            return state
        if not path.exists():
            raise UsageError(f"--resume: {state.root} holds no run to continue (run without --resume first)")
        saved = msgspec.json.decode(path.read_bytes(), type=GenerateSettings)
        if saved != settings:
            changed = [f for f in settings.__struct_fields__ if getattr(saved, f) != getattr(settings, f)]
            raise UsageError(
                f"--resume: the flags differ from the run being continued ({', '.join(changed)})"
            )
        return state

    def program_dir(self, program: str) -> Path:
        return self.root / "programs" / program

    def load(self, program: str, name: str, kind: type[R]) -> R | None:
        path = self.program_dir(program) / f"{name}.json"
        if not path.exists():
            return None
        try:
            return msgspec.json.decode(path.read_bytes(), type=kind)
        except msgspec.ValidationError:
            if name not in _DERIVED:
                raise
            return None  # written by an older version: made again from the stage records, no model call

    def save(self, program: str, name: str, record: Record) -> None:
        write_atomic(self.program_dir(program) / f"{name}.json", json_encoder.encode(record))

    def load_root(self, name: str, kind: type[R]) -> R | None:
        path = self.root / f"{name}.json"
        return msgspec.json.decode(path.read_bytes(), type=kind) if path.exists() else None

    def save_root(self, name: str, record: Record) -> None:
        write_atomic(self.root / f"{name}.json", json_encoder.encode(record))

    def next_session(self) -> int:
        """How many times this run has been started (names its trace episodes apart)."""
        path = self.root / "sessions"
        count = int(path.read_text()) + 1 if path.exists() else 0
        write_atomic(path, str(count).encode())
        return count
