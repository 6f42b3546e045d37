"""Shared fixtures: the anyio backend (asyncio on uvloop) and small dataset builders."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


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
