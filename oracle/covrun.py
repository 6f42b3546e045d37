"""Run a coverage build of a C/C++ test program over cases and print the .gcda files it wrote, as JSON.

Runs where the Oracle runs programs (inside its sandbox, stdlib only); the host reads the counts with gcov
(`native_coverage.py`). argv: EXE PREFIX TIMEOUT_S; stdin: a JSON list of {"argv": [...], "stdin_b64": …}.
`GCOV_PREFIX` puts each .gcda under PREFIX (its compile-time absolute path appended), so a read-only build
folder is no obstacle; counts add up over the cases, as gcov's own runtime merges them.
"""

import base64
import json
import os
import shutil
import subprocess
import sys


def _run(exe: str, prefix: str, timeout_s: float, cases: list) -> dict:
    env = {"PATH": "/usr/bin:/bin", "HOME": prefix, "LC_ALL": "C", "GCOV_PREFIX": prefix, "TZ": "UTC"}
    for case in cases:
        data = base64.b64decode(case["stdin_b64"]) if case.get("stdin_b64") else b""
        try:
            subprocess.run(
                [exe, *case["argv"]], input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=env, cwd=os.path.dirname(exe), timeout=timeout_s, check=False,
            )  # fmt: skip
        except subprocess.TimeoutExpired:
            pass
    found = {}
    for root, _, files in os.walk(prefix):
        for name in files:
            if name.endswith(".gcda"):
                path = os.path.join(root, name)
                with open(path, "rb") as handle:
                    found["/" + os.path.relpath(path, prefix)] = base64.b64encode(handle.read()).decode()
    return found


def main() -> int:
    exe, prefix, timeout_s = sys.argv[1], sys.argv[2], float(sys.argv[3])
    cases = json.load(sys.stdin)
    os.makedirs(prefix, exist_ok=True)
    try:
        found = _run(exe, prefix, timeout_s, cases)
    finally:
        shutil.rmtree(
            prefix, ignore_errors=True
        )  # the sandbox's /tmp outlives this run: leave nothing behind
    json.dump(found, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
