"""Every exception the package defines is a `RepoZeroError` (exported as `repozero.RepoZeroError`), so a
caller can catch ours apart from Python's and the command line prints ours as a message, not a traceback."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import repozero

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ["repozero", "orchestrator", "agents", "sandbox", "oracle", "datasets", "traces"]
STANDALONE = {"repozero.oracle.nativeprobe"}
"""Scripts that run inside a sandbox or container with the standard library only (they cannot import ours)."""


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts if parts[0] == "repozero" else ["repozero", *parts])


def _exception_classes() -> list[tuple[str, str]]:
    """(module, class) for each class whose name says it is an error, or that subclasses a builtin one."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "builtin" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if not isinstance(node, ast.ClassDef):
                    continue
                bases = [ast.unparse(b) for b in node.bases]
                builtin = any(
                    b in {"Exception", "BaseException", "ValueError", "RuntimeError", "OSError"}
                    for b in bases
                )
                if builtin or node.name.endswith(("Error", "Exception")):
                    found.append((_module_name(path), node.name))
    return found


def test_every_exception_the_package_defines_is_a_repozero_error() -> None:
    classes = _exception_classes()
    assert len(classes) > 20  # the scan saw the package's errors
    strays = []
    for module, name in classes:
        if module in STANDALONE:
            continue
        cls = getattr(importlib.import_module(module), name)
        if (
            isinstance(cls, type)
            and issubclass(cls, BaseException)
            and not issubclass(cls, repozero.RepoZeroError)
        ):
            strays.append(f"{module}.{name}")
    assert strays == []
