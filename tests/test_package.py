"""The package maps onto the top-level folders, installs as a wheel, and never shadows `datasets`."""

from __future__ import annotations

import shlex
import subprocess
import sys
import venv
from pathlib import Path

import pytest

import repozero

SUBPACKAGES = ["orchestrator", "agents", "sandbox", "oracle", "datasets", "traces"]


def test_subpackages_resolve_to_top_level_folders(repo_root: Path) -> None:
    import importlib

    for name in SUBPACKAGES:
        module = importlib.import_module(f"repozero.{name}")
        assert Path(module.__file__).resolve().parent == repo_root / name


def test_import_datasets_from_repo_root_is_never_ours(repo_root: Path) -> None:
    """Run from the repo root, `import datasets` must not find our folder (Hugging Face owns the name)."""
    code = (
        "try:\n"
        "    import datasets\n"
        "    print(datasets.__file__)\n"
        "except ModuleNotFoundError as exc:\n"
        "    print('not found:', exc)\n"
    )
    # `python -c` from the root puts the root first on sys.path: the worst case
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=repo_root, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out.startswith("not found:") or not out.startswith(str(repo_root)), out
    # pytest runs with importlib mode: the root is not on sys.path in this process
    assert str(repo_root) not in [str(Path(p).resolve()) for p in sys.path if p]
    # and even here, the import never yields our folder
    try:
        import datasets  # type: ignore[import-not-found]
    except ModuleNotFoundError:
        pass
    else:
        assert not str(Path(datasets.__file__).resolve()).startswith(str(repo_root))


def test_cli_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "repozero", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == f"repozero {repozero.__version__}"


def test_cli_start_leaves_aiohttp_unloaded_until_a_command_needs_it() -> None:
    """Every command module is imported to build the parser; aiohttp and aiodocker (~0.2 s) wait for the
    commands that talk HTTP or Docker. The model client's `except` still names aiohttp's error once
    aiohttp is loaded."""
    code = (
        "import sys\n"
        "from repozero.cli import build_parser\n"
        "build_parser()\n"
        "print(sorted(m for m in ('aiohttp', 'aiodocker', 'httpx_aiohttp') if m in sys.modules))\n"
        "from repozero.agents.models.http import transport_errors\n"
        "print([e.__name__ for e in transport_errors(OSError)])\n"
        "import aiohttp\n"
        "print([e.__name__ for e in transport_errors(OSError)])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines() == ["[]", "['OSError']", "['OSError', 'ClientError']"], out


@pytest.mark.slow
def test_wheel_installs_and_imports_in_fresh_venv(repo_root: Path, tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(repo_root),
        ],
        check=True,
        capture_output=True,
    )
    wheel = next(wheels.glob("repozero-*.whl"))
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False, system_site_packages=True)  # dependencies come from the host
    python = env_dir / "bin" / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    code = (
        "import repozero.datasets, repozero.oracle, repozero.traces, repozero.sandbox, repozero.agents, "
        "repozero.orchestrator, repozero.cli; print(repozero.datasets.__file__)"
    )
    out = subprocess.run([str(python), "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(str(env_dir)), out.stdout
    assert out.stdout.strip().endswith("repozero/datasets/__init__.py")


def test_runs_lift_the_soft_open_files_limit_to_the_hard_one() -> None:
    """Hundreds of episodes hold thousands of descriptors: the usual soft limit of 1024 must not end a run."""
    script = (
        "import resource; from repozero.kernel.runtime import run_async\n"
        "async def main(): return resource.getrlimit(resource.RLIMIT_NOFILE)\n"
        "print(*run_async(main))"
    )
    shell = f"ulimit -Sn 256 && ulimit -Hn 4096 && {shlex.quote(sys.executable)} -c {shlex.quote(script)}"
    done = subprocess.run(["sh", "-c", shell], capture_output=True, text=True, check=True, cwd="/")
    assert done.stdout.split() == ["4096", "4096"]
