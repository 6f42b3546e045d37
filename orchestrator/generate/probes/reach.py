"""Measure which lines of a distribution's own files a test program reaches, per case (stdlib only).

Run by the Oracle inside the source environment, from a folder holding this file and the program.
argv: DIST PROGRAM. stdin: JSON [{"id", "argv", "stdin_b64"}]. Prints {"lines": N, "per_case": {id: [k]}}
where k indexes the distinct (file, line) pairs reached, counting only files the distribution installed.

Lines run while a module is being imported (its module body, class bodies, tables built at import — by
the program's own `import`, or lazily on a first call) do not count, whether or not the package was
imported before this probe started: otherwise the first case of a run would carry the package's import
and the measure would change with what happened to be loaded already.
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


_REAL: dict[str, str] = {}


def _own(filename):
    real = _REAL.get(filename)
    if real is None:
        real = _REAL[filename] = os.path.realpath(filename)
    return real in OWN or filename.endswith(program)


def _importing(frame):
    """Whether `frame` runs inside an import (importlib's bootstrap is on the stack below it)."""
    caller = frame.f_back
    while caller is not None:
        if caller.f_code.co_filename.startswith("<frozen importlib"):
            return True
        caller = caller.f_back
    return False


def _global(frame, event, arg):
    filename = frame.f_code.co_filename
    if _own(filename) and not _importing(frame):
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
