"""Run a test program under a line tracer and record which package source lines it executed.

Usage (inside the sample's venv): python reach_runner.py OUT.json PROGRAM [ARGS...]
Only files under site-packages count (the package under test and its dependencies).
"""

import json
import runpy
import sys
import sysconfig

SITE = sysconfig.get_paths()["purelib"] + "/"
seen = set()


def _local(frame, event, arg):
    if event == "line":
        seen.add((frame.f_code.co_filename, frame.f_lineno))
    return _local


def _global(frame, event, arg):
    if frame.f_code.co_filename.startswith(SITE):
        seen.add((frame.f_code.co_filename, frame.f_lineno))
        return _local
    return None


def main():
    out, program = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[2:]
    sys.settrace(_global)
    try:
        runpy.run_path(program, run_name="__main__")
    except SystemExit:
        pass
    finally:
        sys.settrace(None)
        sys.stdout.flush()
        with open(out, "w") as handle:
            json.dump(sorted(f"{f[len(SITE) :]}:{n}" for f, n in seen), handle)


main()
