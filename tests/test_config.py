"""Config: defaults, file, overrides; unknown keys rejected with the closest valid name."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from repozero.config_file import config_to_toml, load_config
from repozero.kernel.errors import ConfigError


def test_file_then_overrides(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[oracle]\nrepeats = 7\n[endpoints.vllm]\nbase_urls = ["http://a", "http://b"]\n')
    config = load_config(path, ["oracle.repeats=9", "run.protocol=paper-text", "sandbox.output_cap=2048"])
    assert config.oracle.repeats == 9
    assert config.run.protocol == "paper-text"
    assert config.sandbox.output_cap == 2048
    assert config.endpoints["vllm"].base_urls == ["http://a", "http://b"]


@pytest.mark.parametrize(
    ("override", "named", "hint"),
    [
        ("oracle.repaets=3", "oracle.repaets", "oracle.repeats"),
        ("sandbx.backend=docker", "sandbx", "sandbox"),
        ("endpoints.x.modle=m", "endpoints.x.modle", "endpoints.x.model"),
    ],
)
def test_unknown_key_names_key_and_closest(override: str, named: str, hint: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_config(None, [override])
    assert f"'{named}'" in str(info.value)
    assert f"'{hint}'" in str(info.value)


def test_unknown_key_in_file_names_it(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[run]\nconcurency = 3\n")
    with pytest.raises(ConfigError, match="'run.concurency'.*'run.concurrency'"):
        load_config(path)


def test_wrong_type_names_field() -> None:
    with pytest.raises(ConfigError, match=r"\$\.oracle\.repeats"):
        load_config(None, ["oracle.repeats=lots"])


def test_show_round_trips_through_toml() -> None:
    config = load_config(None, ["oracle.repeats=4", 'endpoints.e.base_urls=["http://x"]'])
    again = tomllib.loads(config_to_toml(config))
    assert again["oracle"]["repeats"] == 4
    assert again["endpoints"]["e"]["base_urls"] == ["http://x"]


def test_cli_rejects_unknown_key_with_exit_2() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "config", "show", "--set", "run.concurency=3"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2
    assert "unknown config key 'run.concurency'" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stdout == ""


def test_cli_config_show_prints_effective_values() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "config", "show", "--set", "run.concurrency=3"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert tomllib.loads(proc.stdout)["run"]["concurrency"] == 3
