"""Which of the package's modules one episode's own control flow passes through on its way to the grade and
the trace file: `repozero run` in this process, under a profiler that, whenever a function of the grader
(`oracle/grading.py`) or of the trace writer (`traces/store.py`) is entered, notes every module on the call
stack. Model client, loopback model server, sandbox internals and the kernel are left aside (a reader follows
them behind their contracts). Prints the modules by repository path, in order of first appearance.

    python tests/episode_path.py run --dataset builtin:py2js-lite --samples base58-check --model fake:gold ...
"""

from __future__ import annotations

import inspect
import os
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = str(Path(__file__).resolve().parent.parent)
SINKS = ("oracle/grading.py", "traces/store.py")
ASIDE = ("agents/models/", "agents/fakellm/", "sandbox/", "repozero/kernel/")


def _module(frame: FrameType) -> str | None:
    path = os.path.realpath(frame.f_code.co_filename)  # `repozero/orchestrator` links to `orchestrator/`
    if not path.startswith(ROOT + os.sep) or not frame.f_code.co_flags & inspect.CO_OPTIMIZED:
        return None  # not ours, or a module or class body rather than a function
    rel = os.path.relpath(path, ROOT)
    return None if rel.startswith(("tests/", *ASIDE)) else rel


def record(argv: list[str]) -> list[str]:
    seen: dict[str, int] = {}

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event != "call" or _module(frame) not in SINKS:
            return
        stack: list[str] = []
        here: FrameType | None = frame
        while here is not None:
            module = _module(here)
            if module is not None:
                stack.append(module)
            here = here.f_back
        for module in reversed(stack):
            seen.setdefault(module, len(seen))

    from repozero.cli import main

    sys.setprofile(profile)
    threading.setprofile(profile)
    try:
        code = main(argv)
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
    if code != 0:
        raise SystemExit(f"repozero {' '.join(argv)} exited {code}")
    return sorted(seen, key=seen.__getitem__)


if __name__ == "__main__":
    for module in record(sys.argv[1:]):
        print(f"path: {module}")
