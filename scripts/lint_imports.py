"""Check the import contracts in pyproject.toml (`[tool.importlinter]`) with import-linter.

The top-level folders are subpackages of one import package (`orchestrator/` is `repozero.orchestrator`,
mapped by setup.py), and import-linter finds a package's modules by walking the one folder its `__init__`
is in: `repozero/` holds a link to each subpackage folder for it, so a plain `lint-imports` in the checkout
works. This script runs it on a copy laid out as installed (each folder copied into `repozero/`), so that a
test can plant an import in a copy of the tree without touching the checkout.

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
    top = root / "repozero"

    def skip(folder: str, names: list[str]) -> set[str]:  # the subpackage links in repozero/: copied below
        return set(_SKIP(folder, names)) | (set(SUBPACKAGES) & set(names) if Path(folder) == top else set())

    shutil.copytree(top, view, ignore=skip)
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
