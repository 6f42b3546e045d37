"""Measure which lines of a distribution's own files a test program reaches, per case (stdlib only).

Run by the Oracle inside the source environment, from a folder holding this file and the program.
argv: DIST PROGRAM. stdin: JSON [{"id", "argv", "stdin_b64"}]. Prints {"lines": N, "per_case": {id: [k]}}
where k indexes the distinct (file, line) pairs reached, counting only files the distribution installed.
"""

import base64
import importlib.metadata
import io
import json
import os
import runpy
import sys

dist, program = sys.argv[1], sys.argv[2]
OWN = {
    os.path.realpath(str(f.locate()))
    for f in importlib.metadata.distribution(dist).files or []
    if str(f).endswith(".py")
}
table: dict[tuple[str, int], int] = {}
current: set[tuple[str, int]] = set()
REAL_STDOUT = sys.stdout


def _local(frame, event, arg):
    if event == "line":
        current.add((frame.f_code.co_filename, frame.f_lineno))
    return _local


def _global(frame, event, arg):
    filename = frame.f_code.co_filename
    if os.path.realpath(filename) in OWN or filename.endswith(program):
        current.add((filename, frame.f_lineno))
        return _local
    return None


def run_case(case):
    stdin = base64.b64decode(case["stdin_b64"]) if case.get("stdin_b64") else b""
    sys.argv = [program, *case["argv"]]
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    current.clear()
    sys.settrace(_global)
    try:
        runpy.run_path(program, run_name="__main__")
    except BaseException:
        pass
    finally:
        sys.settrace(None)
        sys.stdout = REAL_STDOUT
    return sorted(table.setdefault(key, len(table)) for key in current)


def main():
    cases = json.loads(sys.stdin.read())
    per_case = {case["id"]: run_case(case) for case in cases}
    own_lines = {k for (f, _), k in table.items() if os.path.realpath(f) in OWN}
    print(json.dumps({"lines": len(own_lines), "per_case": per_case}))


main()
