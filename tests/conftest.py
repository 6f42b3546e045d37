"""Shared fixtures: the anyio backend (asyncio on uvloop) and small dataset builders."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def _load_helper(name: str) -> Any:
    """A helper module of tests/ loaded by path (importlib mode keeps tests/ off sys.path)."""
    spec = importlib.util.spec_from_file_location(
        f"repozero_tests_{name}", Path(__file__).with_name(f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


# Sandbox fixtures (tests/sandbox_fixtures.py): `sandbox_backend` (one run per backend) and `sandbox`.
_sandbox_fixtures = _load_helper("sandbox_fixtures")
sandbox_backend = _sandbox_fixtures.sandbox_backend
sandbox = _sandbox_fixtures.sandbox

# A small real filesystem and a writer that fills it (tests/disk_helpers.py), before the Ray fixtures use it.
_load_helper("disk_helpers")

# Ray fixtures (tests/ray_fixtures.py): `cluster`, a local Ray cluster per test module.
cluster = _load_helper("ray_fixtures").cluster


@pytest.fixture
def anyio_backend() -> tuple[str, dict[str, bool]]:
    return ("asyncio", {"use_uvloop": True})


@pytest.fixture
def repo_root() -> Path:
    return ROOT


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


def pytest_configure(config: pytest.Config) -> None:
    """Never let the checkout root sit on sys.path (`python -m pytest` puts it there).

    Our `datasets/` folder is `repozero.datasets`; with the root on the path it could shadow Hugging
    Face's `datasets`.
    """
    import sys

    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT]


_scripted_model = _load_helper("scripted_model")


@pytest.fixture
def scripted() -> Any:
    """The scripted-model helper module (tests/scripted_model.py): ScriptedModel, reply, bash."""
    return _scripted_model
