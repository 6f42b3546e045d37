"""The judging half of an exported Harbor task's verifier, run inside the task's verifier image.

An exported task's `tests/test.sh` runs the target there; this file (copied to `tests/verify.py`, with the
grader's own rule modules beside it in `tests/rules/`) is the part that needs Python: it scans the target
with those rule modules (`scan`), and turns the batch driver's records into statuses, a failure category,
PR and SR and Harbor's files: the reward files and a per-case test report (`judge`). It runs on the Debian Python of the verifier image's private
root, so it uses the standard library only and mirrors the grader's rules (`status_of`,
`failure_category`, the driver's record format and timeout rule) instead of importing them; the parity is
tested against the grader on the same runs.

    python3 verify.py scan TARGET_DIR TASK_JSON > scan.json
    python3 verify.py judge TASK_JSON SCAN_JSON RECORDS OUT_DIR
"""

from __future__ import annotations

import base64
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

OOM_MARKERS = (
    b"JavaScript heap out of memory",
    b"Reached heap limit",
    b"Allocation failed - process out of memory",
    b"Array buffer allocation failed",
    b"std::bad_alloc",
    b"Cannot allocate memory",
    b"MemoryError",
    b"memory allocation of",
)
_HEADER = re.compile(rb"case (\d+) (-?\d+) (\d+) (\d+) (\d+)\n")
_SKIP = re.compile(rb"skip (\d+)\n")
_DONE = re.compile(rb"done (\d+)\n")


def entry_script(entry: list[str]) -> str | None:
    """The script an interpreter entry point runs (`node test1.mjs` -> `test1.mjs`), if any."""
    return next((arg for arg in entry[1:] if not arg.startswith("-")), None)


def runnable(task: dict[str, Any], root: Path) -> bool:
    """Anything to run: a Cargo.toml at the root for Rust, the entry point's script otherwise."""
    if not root.is_dir():
        return False
    if task["language"] == "rust":
        return (root / "Cargo.toml").is_file()
    script = entry_script(task["entry"])
    return script is None or (root / script).is_file()


def scan(root: Path, task: dict[str, Any]) -> dict[str, Any]:
    """The grader's static rule check (its own modules, in `rules/`) and whether there is anything to run."""
    sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
    import cheats  # type: ignore[import-not-found]  # the grader's module, copied beside this file

    flags = cheats.scan_target(root) if root.is_dir() else []
    return {"flags": flags, "runnable": runnable(task, root)}


def parse_records(data: bytes, n_cases: int, timeout_ns: int) -> list[dict[str, Any]] | None:
    """One run per case from the driver's stdout, as the grader reads it; None for a broken batch."""
    at, runs = 0, list[dict[str, Any]]()
    for i in range(n_cases):
        skip = _SKIP.match(data, at)
        if skip is not None and int(skip.group(1)) == i:
            at = skip.end()
            runs.append({"not_run": True})
            continue
        head = _HEADER.match(data, at)
        if head is None or int(head.group(1)) != i:
            return None
        code, wall_ns, out_len, err_len = (int(g) for g in head.groups()[1:])
        at = head.end()
        stdout, stderr = data[at : at + out_len], data[at + out_len : at + out_len + err_len]
        at += out_len + err_len
        timed_out = code in (124, 137) and wall_ns >= timeout_ns
        oom = not timed_out and any(marker in stderr for marker in OOM_MARKERS)
        runs.append(
            {
                "exit": code,
                "wall_s": wall_ns / 1e9,
                "stdout": stdout,
                "stderr": stderr,
                "timed_out": timed_out,
                "oom": oom,
                "not_run": False,
            }
        )
    return runs if _DONE.match(data, at) else None


def status_of(case: dict[str, Any], run: dict[str, Any]) -> str:
    """The grader's status for one case under strict comparison (stdout bytes and exit code)."""
    if run["not_run"]:
        return "not_run"
    if run["timed_out"]:
        return "timeout"
    if run["oom"]:
        return "oom"
    if run["exit"] != case["expected_exit"]:
        return "wrong_output" if run["exit"] == 0 else "runtime_error"
    expected = base64.b64decode(case["expected_stdout"])
    return "pass" if run["stdout"] == expected else "wrong_output"


def failure_category(
    cases: list[dict[str, Any]], statuses: list[str], flags: list[str], no_exe: bool
) -> str | None:
    """The paper's four plus cheat, in the grader's precedence."""
    if no_exe:
        return "no_executable"
    if flags:
        return "cheat"
    failed = [(c, s) for c, s in zip(cases, statuses, strict=True) if s != "pass"]
    if not failed:
        return None
    if any(c["visibility"] == "whitebox" for c, _ in failed):
        return "whitebox_fail"
    if any(s in ("runtime_error", "timeout", "oom") for _, s in failed):
        return "runtime_error"
    return "mismatch"


def judge(
    task: dict[str, Any], scanned: dict[str, Any], records: bytes | None, build_error: str
) -> dict[str, Any]:
    """The sample's grade: statuses per case, category, cheat flags, PR (0/1) and SR."""
    cases = task["cases"]
    flags = set(scanned["flags"])
    no_exe = not scanned["runnable"] or bool(build_error)
    walls = [0.0] * len(cases)
    if no_exe:
        statuses = ["not_run"] * len(cases)
    else:
        runs = parse_records(records or b"", len(cases), task["timeout_ns"])
        if runs is None:
            return {"infra_error": True, "detail": "the batch driver returned no record for some cases"}
        statuses = [status_of(c, r) for c, r in zip(cases, runs, strict=True)]
        walls = [r.get("wall_s", 0.0) for r in runs]
        denied = re.compile(rb"ERR_ACCESS_DENIED[\s\S]{0,400}?permission:\s*'(\w+)'")
        for run in runs:
            if not run["not_run"]:
                flags.update(f"runtime_denied:{m.group(1).decode()}" for m in denied.finditer(run["stderr"]))
    category = failure_category(cases, statuses, sorted(flags), no_exe)
    passed = sum(s == "pass" for s in statuses)
    rate = 0.0 if flags or not cases else passed / len(cases)
    return {
        "sample": task["sample"],
        "passed": category is None and bool(cases),
        "success_rate": rate,
        "failure_category": category,
        "cheat_flags": sorted(flags),
        "build_error": build_error,
        "infra_error": False,
        "cases": [
            {"id": c["id"], "visibility": c["visibility"], "status": s, "wall_s": round(w, 6)}
            for c, s, w in zip(cases, statuses, walls, strict=True)
        ],
    }


def rewards(grade: dict[str, Any]) -> dict[str, int | float]:
    """`reward.json`: numbers only, since Harbor rejects any other value there, and only keys that mean the
    same in every task, since Harbor averages each key over all of a job's trials (a missing key counts 0)
    and draws one column per key in its summary table. So no per-case keys: the counts stand for them here,
    and each case's status is in `ctrf.json` and `grade.json`. `reward` stays first (what Harbor reads as
    the trial's reward) and `pass_rate` first in key order (what its progress bar shows)."""
    pr = 1 if grade["passed"] else 0
    cases = grade["cases"]
    return {
        "reward": pr,
        "pass_rate": pr,
        "success_rate": round(grade["success_rate"], 6),
        "passed_cases": sum(c["status"] == "pass" for c in cases),
        "total_cases": len(cases),
    }


def ctrf(grade: dict[str, Any]) -> dict[str, Any]:
    """A CTRF test report of the cases (`ctrf.json`, which Harbor's viewer lists test by test): the case id
    as name, passed, failed or skipped (not run) as status, the grader's status word as `rawStatus`, the
    visibility as tag. Ids and statuses only: no argv, input or output of a hidden case."""
    kind = {"pass": "passed", "not_run": "skipped"}
    tests = [
        {
            "name": c["id"],
            "status": kind.get(c["status"], "failed"),
            "rawStatus": c["status"],
            "duration": round(c["wall_s"] * 1000, 3),
            "tags": [c["visibility"]],
        }
        for c in grade["cases"]
    ]
    count = {s: sum(t["status"] == s for t in tests) for s in ("passed", "failed", "skipped")}
    now_ms = int(time.time() * 1000)
    summary = {"tests": len(tests), **count, "pending": 0, "other": 0, "start": now_ms, "stop": now_ms}
    return {
        "reportFormat": "CTRF",
        "results": {"tool": {"name": "repozero"}, "summary": summary, "tests": tests},
    }


def write_rewards(grade: dict[str, Any], out: Path) -> None:
    """Harbor's files in `out` (its /logs/verifier): `reward.txt` (PR), `reward.json` (`rewards`),
    `ctrf.json` (`ctrf`: each case's status) and `grade.json` (the whole grade). A broken batch
    (`infra_error`) writes `grade.json` only."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "grade.json").write_text(json.dumps(grade, indent=1) + "\n")
    if grade.get("infra_error"):
        return  # no reward: Harbor reports the trial's verifier as failed, not as a 0 the model earned
    (out / "ctrf.json").write_text(json.dumps(ctrf(grade), indent=1) + "\n")
    (out / "reward.json").write_text(json.dumps(rewards(grade)) + "\n")
    (out / "reward.txt").write_text(f"{1 if grade['passed'] else 0}\n")


def main(argv: list[str]) -> int:
    if len(argv) >= 3 and argv[0] == "scan":
        task = json.loads(Path(argv[2]).read_text())
        print(json.dumps(scan(Path(argv[1]), task)))
        return 0
    if len(argv) == 5 and argv[0] == "judge":
        task = json.loads(Path(argv[1]).read_text())
        scanned = json.loads(Path(argv[2]).read_text())
        records_path = Path(argv[3])
        records = records_path.read_bytes() if records_path.is_file() else None
        error_path = records_path.with_name("build_error.txt")
        build_error = error_path.read_text(errors="replace").strip() if error_path.is_file() else ""
        grade = judge(task, scanned, records, build_error)
        write_rewards(grade, Path(argv[4]))
        print(
            json.dumps(
                {k: grade.get(k) for k in ("passed", "success_rate", "failure_category", "cheat_flags")}
            )
        )
        return 0
    print(
        "usage: verify.py scan TARGET TASK_JSON | judge TASK_JSON SCAN_JSON RECORDS OUT_DIR", file=sys.stderr
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
