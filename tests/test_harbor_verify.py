"""The exported Harbor verifier's reward files on a small fake task, without Harbor or Docker: what
`reward.json` holds (numbers only, no per-case keys), the per-case statuses in `ctrf.json` and `grade.json`,
and that none of the files carries a hidden case's output."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from repozero.integrations import harbor_verify
from repozero.integrations.harbor_verify import judge, write_rewards

SECRET = b"hidden answer 4999 = MMMMCMXCIX\n"


def _task() -> dict[str, Any]:
    def case(i: int, visibility: str, out: bytes, code: int = 0) -> dict[str, Any]:
        return {
            "id": f"c{i:03d}",
            "visibility": visibility,
            "expected_exit": code,
            "expected_stdout": base64.b64encode(out).decode(),
        }

    cases = [case(0, "whitebox", b"I\n"), case(1, "hidden", SECRET), case(2, "hidden", b"")]
    cases += [case(3, "hidden", b"", 2), case(4, "hidden", b"V\n")]
    return {
        "sample": "fake-roman",
        "language": "javascript",
        "entry": ["node", "r.mjs"],
        "timeout_ns": 2_000_000_000,
        "cases": cases,
    }


def _records() -> bytes:
    """c000 passes (12 ms), c001 prints the wrong line, c002 times out, c003 exits 1, c004 is not run."""
    return (
        b"case 0 0 12000000 2 0\nI\n"
        + b"case 1 0 1000000 4 0\nXII\n"
        + b"case 2 137 2500000000 0 0\n"
        + b"case 3 1 3000000 0 5\nboom!"
        + b"skip 4\ndone 5\n"
    )  # fmt: skip


def _files(out: Path) -> dict[str, Any]:
    return {p.name: p.read_text() for p in sorted(out.iterdir())}


def test_reward_json_has_numeric_rates_and_counts_and_no_per_case_key(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": [], "runnable": True}, _records(), "")
    write_rewards(grade, tmp_path)
    rewards = json.loads((tmp_path / "reward.json").read_text())
    assert rewards == {
        "reward": 0,
        "pass_rate": 0,
        "success_rate": 0.2,
        "passed_cases": 1,
        "total_cases": 5,
    }
    # what Harbor needs: finite numbers only; `reward` first as written, `pass_rate` first when sorted
    assert all(type(v) in (int, float) for v in rewards.values())
    assert next(iter(rewards)) == "reward" and sorted(rewards)[0] == "pass_rate"
    assert (tmp_path / "reward.txt").read_text() == "0\n"


def test_ctrf_json_lists_each_case_with_the_graders_status(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": [], "runnable": True}, _records(), "")
    write_rewards(grade, tmp_path)
    report = json.loads((tmp_path / "ctrf.json").read_text())["results"]
    tests = [(t["name"], t["status"], t["rawStatus"], t["tags"]) for t in report["tests"]]
    assert tests == [
        ("c000", "passed", "pass", ["whitebox"]),
        ("c001", "failed", "wrong_output", ["hidden"]),
        ("c002", "failed", "timeout", ["hidden"]),
        ("c003", "failed", "runtime_error", ["hidden"]),
        ("c004", "skipped", "not_run", ["hidden"]),
    ]
    assert [t["duration"] for t in report["tests"]] == [12.0, 1.0, 2500.0, 3.0, 0.0]
    summary = report["summary"]
    assert (summary["tests"], summary["passed"], summary["failed"], summary["skipped"]) == (5, 1, 3, 1)
    assert report["tool"]["name"] == "repozero"
    graded = json.loads((tmp_path / "grade.json").read_text())["cases"]
    assert [(c["id"], c["status"], c["wall_s"]) for c in graded][:3] == [
        ("c000", "pass", 0.012),
        ("c001", "wrong_output", 0.001),
        ("c002", "timeout", 2.5),
    ]


def test_no_file_carries_a_hidden_cases_output(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": [], "runnable": True}, _records(), "")
    write_rewards(grade, tmp_path)
    written = _files(tmp_path)
    assert set(written) == {"reward.txt", "reward.json", "ctrf.json", "grade.json"}
    for needle in (SECRET.decode(), base64.b64encode(SECRET).decode(), "MMMMCMXCIX"):
        assert not [name for name, text in written.items() if needle in text]


def test_a_cheat_keeps_the_case_counts_but_zeroes_pr_and_sr(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": ["child_process"], "runnable": True}, _records(), "")
    write_rewards(grade, tmp_path)
    rewards = json.loads((tmp_path / "reward.json").read_text())
    assert (rewards["reward"], rewards["success_rate"]) == (0, 0.0)
    assert (rewards["passed_cases"], rewards["total_cases"]) == (1, 5)


def test_no_executable_reports_every_case_skipped(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": [], "runnable": False}, None, "")
    write_rewards(grade, tmp_path)
    assert json.loads((tmp_path / "reward.json").read_text())["passed_cases"] == 0
    report = json.loads((tmp_path / "ctrf.json").read_text())["results"]
    assert report["summary"]["skipped"] == 5
    assert {t["rawStatus"] for t in report["tests"]} == {"not_run"}


def test_a_broken_batch_writes_no_reward(tmp_path: Path) -> None:
    grade = judge(_task(), {"flags": [], "runnable": True}, b"case 0 0 1 0 0\n", "")
    write_rewards(grade, tmp_path)
    assert set(_files(tmp_path)) == {"grade.json"}


def test_the_exported_script_writes_the_same_files(tmp_path: Path) -> None:
    """verify.py as exported (this module's source, run by a plain isolated python3) through `judge`."""
    script = tmp_path / "verify.py"
    script.write_text(Path(harbor_verify.__file__).read_text())
    (tmp_path / "task.json").write_text(json.dumps(_task()))
    (tmp_path / "scan.json").write_text(json.dumps({"flags": [], "runnable": True}))
    (tmp_path / "records.bin").write_bytes(_records())
    out = tmp_path / "out"
    argv = [sys.executable, "-I", str(script), "judge"]
    argv += [str(tmp_path / n) for n in ("task.json", "scan.json", "records.bin")] + [str(out)]
    subprocess.run(argv, check=True, capture_output=True)
    rewards = json.loads((out / "reward.json").read_text())
    assert (rewards["passed_cases"], rewards["total_cases"], rewards["success_rate"]) == (1, 5, 0.2)
    names = [t["name"] for t in json.loads((out / "ctrf.json").read_text())["results"]["tests"]]
    assert names == ["c000", "c001", "c002", "c003", "c004"]
