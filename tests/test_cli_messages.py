"""Messages a careless or interrupted user meets: misspelt and abbreviated flags, globs that match nothing,
a scripted policy with nothing to play, a package that does not exist, a run stopped with Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repozero.cli import main
from tests.test_dataset_splits import _dataset


def _repozero(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "repozero", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def test_an_abbreviated_flag_is_not_taken_for_the_whole_one() -> None:
    proc = _repozero("run", "--dataset", "builtin:py2js-lite", "--model", "fake:gold", "--ace-round", "1")
    assert proc.returncode == 2
    assert "unrecognized arguments: --ace-round 1; did you mean --ace-rounds?" in proc.stderr
    assert proc.stderr.startswith("usage: repozero run ")  # the subcommand's usage, not the top level's


def test_a_misspelt_flag_gets_the_closest_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["dataset", "list", "builtin:py2js-lite", "--jsn"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "repozero dataset list: error:" in err and "did you mean --json?" in err


def test_samples_matching_nothing_names_the_closest_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["run", "--dataset", "builtin:py2js-lite", "--model", "fake:gold", "--samples", "base58-chek"]
    )
    err = capsys.readouterr().err
    assert code == 2 and "--samples 'base58-chek' matches no live sample of py2js-lite" in err
    assert "closest ids: base58-check" in err and "dataset build" not in err


def test_fake_gold_without_gold_is_refused_before_starting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _dataset(tmp_path / "ds")
    out = tmp_path / "run"
    code = main(["run", "--dataset", str(root), "--model", "fake:gold", "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and "4 of the chosen samples have none (a-g01, a-g02, b-g01, b-g02)" in err
    assert not out.exists()


def test_a_package_that_does_not_exist_is_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "gen"
    proc = _repozero(
        "dataset", "generate", "--source", "no-such-package-rz==0.0.1", "--model", "fake:generate", "--files", "1",
        "--out", str(out), "--display", "off", "--log-level", "error", "--set", f"oracle.cache_dir={tmp_path / 'c'}",
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "repozero: error: no-such-package-rz==0.0.1: no such package or version on the package index"
    ]
    assert not out.exists() and not out.with_name("gen.generate").exists()  # nothing half-written


@pytest.mark.slow
def test_ctrl_c_prints_the_resume_command_and_no_rate(tmp_path: Path) -> None:
    out = tmp_path / "run"
    cmd = [
        sys.executable, "-m", "repozero", "run", "--dataset", "builtin:py2js-lite", "--model", "fake:gold",
        "--samples", "roman-*", "--ace-rounds", "0", "--display", "off", "--out", str(out),
        "--set", "run.fake_latency_ms=30000",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out / "manifest.json").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    time.sleep(2)
    os.kill(proc.pid, signal.SIGINT)
    stdout, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130
    assert "pass rate —   success rate — (nothing scored yet)" in stdout
    assert f"resume: repozero run --resume {out}" in stdout and "report:" not in stdout


def test_dataset_list_never_cuts_an_id_on_a_narrow_terminal() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "dataset", "list", "builtin:py2js-lite"],
        capture_output=True, text=True, timeout=60, check=True, env={**os.environ, "COLUMNS": "60"},
    )  # fmt: skip
    assert max(len(line) for line in proc.stdout.splitlines()) <= 60
    for sample in ("moreitertools-combinatorics", "jsonpointer-resolve", "slugify-options"):
        assert f"│ {sample} " in proc.stdout


def test_json_stdout_carries_the_json_alone() -> None:
    """What writes to descriptor 1 while a `--json` command runs (Ray's forwarded raylet lines, a
    library's print) goes to stderr; stdout holds the JSON alone, so `| jq` works."""
    script = (
        "import os, sys\n"
        "from repozero.commands.common import json_stdout, print_json\n"
        "with json_stdout(True):\n"
        "    os.write(1, b'(raylet) object_store.cc:37: noise\\n'); print('a print'); sys.stdout.flush()\n"
        "print_json({'ok': True})\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout == '{"ok":true}\n'
    assert "(raylet) object_store.cc:37: noise" in done.stderr and "a print" in done.stderr
