"""The arrows between the package's parts are checked by a tool (import-linter, contracts in pyproject.toml),
and the check fails when one is broken: a planted `import repozero.cli` in the run engine is caught."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "lint_imports.py"
FOLDERS = ["repozero", "orchestrator", "agents", "sandbox", "oracle", "datasets", "traces"]


def _lint(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root)], capture_output=True, text=True, timeout=300
    )


def _copy_tree(into: Path) -> Path:
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, into / folder, ignore=shutil.ignore_patterns("__pycache__", "builtin"))
    shutil.copy(ROOT / "pyproject.toml", into / "pyproject.toml")
    return into


def test_the_checkout_keeps_every_contract() -> None:
    proc = _lint(ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "0 broken" in proc.stdout


@pytest.mark.parametrize(
    ("module", "planted", "message"),
    [
        ("orchestrator/engine/episode.py", "import repozero.cli", "repozero.orchestrator is not allowed to import repozero.cli"),
        ("oracle/grading.py", "import repozero.config_file", "repozero.oracle is not allowed to import repozero.config_file"),
        ("traces/store.py", "import repozero.agents.models", "repozero.traces is not allowed to import repozero.agents"),
        ("agents/tester.py", "import repozero.oracle.grading", "repozero.agents is not allowed to import repozero.oracle"),
        ("orchestrator/engine/session.py", "import repozero.orchestrator.sweeps.sweep", "repozero.orchestrator.engine is not allowed to import repozero.orchestrator.sweeps"),
    ],
)  # fmt: skip
def test_a_planted_import_against_the_arrows_fails_the_check(
    tmp_path: Path, module: str, planted: str, message: str
) -> None:
    tree = _copy_tree(tmp_path / "tree")
    target = tree / module
    target.write_text(target.read_text() + f"\n{planted}  # planted by the test\n")
    proc = _lint(tree)
    assert proc.returncode != 0
    assert message in " ".join(proc.stdout.split()), proc.stdout[-3000:]
