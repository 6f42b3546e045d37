"""Check the import contracts in pyproject.toml (`[tool.importlinter]`) with import-linter.

The top-level folders are subpackages of one import package (`orchestrator/` is `repozero.orchestrator`,
mapped by setup.py), but import-linter finds a package's modules by walking the one folder its `__init__`
is in. So this script lays the package out as it is installed — `repozero/` with each top-level folder
inside it, copied into a temporary directory — puts that first on the path and runs `lint-imports` on it.

    python scripts/lint_imports.py              # the checkout this script is in
    python scripts/lint_imports.py --root DIR   # another tree with the same layout (tests plant imports in one)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SUBPACKAGES = ["orchestrator", "agents", "sandbox", "oracle", "datasets", "traces"]
_RUN = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
_SKIP = shutil.ignore_patterns("__pycache__", "builtin", "*.pyc")


def package_view(root: Path, into: Path) -> Path:
    """`into/repozero/` laid out as installed: the package's own folder, each subpackage folder inside it."""
    view = into / "repozero"
    shutil.copytree(root / "repozero", view, ignore=_SKIP)
    for sub in SUBPACKAGES:
        shutil.copytree(root / sub, view / sub, ignore=_SKIP)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    root = args.root.resolve()
    with tempfile.TemporaryDirectory(prefix="repozero-imports-") as tmp:
        view = package_view(root, Path(tmp))
        env = {**os.environ, "PYTHONPATH": str(view)}
        cmd = [sys.executable, "-c", _RUN, str(root / "pyproject.toml"), "--no-cache"]
        return subprocess.run(cmd, cwd=view, env=env, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
