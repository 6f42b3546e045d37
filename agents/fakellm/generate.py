"""`fake:generate`: a scripted model for `repozero dataset generate` — it plays the sample writer, the case
writer and the voters for the packages the served dataset uses (py2js-lite's PyPI packages; c2rust-lite's
Debian packages when the run generates from one, `--debian-package`).

Program slot k of a package (the header's `slot`) gets, in order: the dataset's own test programs of that
package (slots 1 and 2, cycling when it has one), then slot 3 — a program importing a module that is neither
the package nor stdlib (rejected before running), rewritten as one that crashes on every input (dropped at
validation), rewritten as one that prints a timestamp (every case nondeterministic) — then slot 4, one that
fails on most of its own proposed inputs (too few surviving cases); later slots cycle the good programs.
Voters agree on slot 1 but voter 3 answers malformed JSON every time (an abstention); on later slots one
voter dissents, so every kept difficulty comes from a 2-of-3 vote. A C/C++ program's failures are the good
program with a first statement put in front of its `main` body (and, for the forbidden one, a header that is
neither the library's nor the standard library's), so each still calls the library as far as the static
checks can see.
"""

from __future__ import annotations

import ast
import json
import re
from typing import Any

from repozero.agents.fakellm.agent_actions import Say, render
from repozero.agents.fakellm.chat import ChatRequest, Header, Reply
from repozero.agents.fakellm.material import SampleShelf
from repozero.datasets import Sample
from repozero.kernel.records import json_encoder

__all__ = ["GeneratePolicy"]

_MARKER = re.compile(r"<!--\s*repozero:\s*(.*?)\s*-->")
_COUNT = re.compile(r"propose (\d+) inputs")
_LADDER = ("easy", "medium", "hard")
BROKEN = "forbidden", "crash", "timestamp"
"""Slot 3's writes, one per rewrite."""


def _fields(request: ChatRequest) -> dict[str, str]:
    first = next((m.text for m in request.messages if m.role == "user"), "")
    found = _MARKER.search(first)
    if found is None:
        return {}
    return dict(part.split("=", 1) for part in found.group(1).split() if "=" in part)


def _fenced(tag: str, body: str) -> str:
    return f"````{tag}\n{body if body.endswith(chr(10)) else body + chr(10)}````\n"


class GeneratePolicy:
    """Answers `sample_writer`, `case_writer` and `voter` requests from the dataset's samples."""

    name = "generate"

    def respond(self, request: ChatRequest, header: Header, shelf: SampleShelf) -> Reply:
        fields = _fields(request)
        goods = [s for s in shelf.dataset.samples if s.source.package == fields.get("package")]
        if not goods:
            return render(
                Say(text=f"fake:generate has no script for package {fields.get('package')!r}."), request
            )
        slot = int(fields.get("slot", "0") or 0)
        match header.role:
            case "sample_writer":
                return Reply(text=self._program(shelf, goods, slot, request.assistant_turns))
            case "case_writer":
                return Reply(text=self._cases(shelf, goods, request))
            case "voter":
                return Reply(text=self._vote(goods, header.sample, int(fields.get("voter", "1")), request))
        return render(Say(text=f"fake:generate does not play role {header.role}."), request)

    # -- the writer ----------------------------------------------------------------------------------
    def _program(self, shelf: SampleShelf, goods: list[Sample], slot: int, turn: int) -> str:
        kind = _kind(slot, turn)
        good = goods[(slot - 1) % len(goods)] if kind == "good" else goods[0]
        folder = shelf.dataset.sample_dir(good.id)
        program = (folder / "program" / good.test_program.path).read_text(encoding="utf-8")
        interface: dict[str, Any] = json.loads(json_encoder.encode(good.interface))
        spec = (folder / good.api_spec).read_text(encoding="utf-8")
        language = good.test_program.language
        if kind != "good" and language == "python":
            program, interface = _broken(kind, program), _NUMBER
            spec = f"# {kind} program\n\nTakes `--number N` and prints one line.\n"
        elif kind != "good":
            program, interface = _broken_native(kind, program), _FREE
            spec = f"# {kind} program\n\nTakes one number as its argument and prints one line.\n"
        meta = {"interface": interface, "api_calls": []}
        return (
            f"Program for slot {slot}.\n\n"
            + _fenced(language, program)
            + _fenced("json", json.dumps(meta, ensure_ascii=False))
            + _fenced("markdown", spec)
        )

    # -- the case writer -----------------------------------------------------------------------------
    def _cases(self, shelf: SampleShelf, goods: list[Sample], request: ChatRequest) -> str:
        first = next((m.text for m in request.messages if m.role == "user"), "")
        count = int(m.group(1)) if (m := _COUNT.search(first)) else 60
        flag = ["--number"] if goods[0].test_program.language == "python" else []
        if "fake:generate too-few" in first:
            cases = [{"argv": [*flag, v], "stdin": None, "description": "integer"} for v in _TOO_FEW]
        elif "fake:generate " in first:
            cases = [{"argv": [*flag, str(n)], "stdin": None, "description": "n"} for n in range(1, 40)]
        else:
            good = next((g for g in goods if f"\n{_program_text(shelf, g)}" in first), goods[0])
            cases = _inputs(good)
        return _fenced("json", json.dumps({"cases": cases[:count]}, ensure_ascii=False))

    # -- the voters ----------------------------------------------------------------------------------
    def _vote(self, goods: list[Sample], program: str, voter: int, request: ChatRequest) -> str:
        slot = int(program.rsplit("g", 1)[-1]) if program.rsplit("g", 1)[-1].isdigit() else 1
        good = goods[(slot - 1) % len(goods)]
        if slot == 1 and voter == 3:
            return '```json\n{"difficulty": "easy", "category": \n```'  # malformed, every time
        label: str = good.difficulty
        dissenter = (slot - 2) % 3 + 1
        if slot > 1 and voter == dissenter:
            label = _LADDER[(_LADDER.index(label) + 1) % 3]
        answer = {
            "ratings": {"lines_reached": 1 + _LADDER.index(label), "api_count": 2, "io_complexity": 2},
            "difficulty": label, "category": good.category, "reason": f"voter {voter}: {label}",
        }  # fmt: skip
        return _fenced("json", json.dumps(answer))


def _kind(slot: int, turn: int) -> str:
    if slot == 3:
        return BROKEN[min(turn, len(BROKEN) - 1)]
    return "too-few" if slot == 4 else "good"


def _program_text(shelf: SampleShelf, sample: Sample) -> str:
    folder = shelf.dataset.sample_dir(sample.id)
    return (folder / "program" / sample.test_program.path).read_text(encoding="utf-8")


def _inputs(sample: Sample) -> list[dict[str, Any]]:
    """The sample's own inputs, kept and dropped, in their original order."""
    cases = [(c.id, c.argv, c.stdin, c.description) for c in sample.cases]
    cases += [(d.id, d.argv, d.stdin, d.detail) for d in sample.provenance.dropped]
    return [
        {"argv": argv, "stdin": None if stdin is None else stdin.decode(), "description": desc}
        for _, argv, stdin, desc in sorted(cases)
    ]


_NUMBER = {"args": [{"name": "number", "format": "str", "required": True, "description": "a number"}],
           "stdin": "none", "style": "named"}  # fmt: skip
_FREE = {"args": [], "stdin": "optional", "style": "free"}
_TOO_FEW = ["1", "2", "3", "4", "5", "6", "7", "x", "y", "z", "one", "two", "", "1.5", "III"]
"""Seven integers (they run) and eight non-integers (they fail): 7 cases survive, fewer than 10."""


def _package_call(program: str) -> tuple[str, str]:
    """(module, function) of the first package call `module.function(...)` in a good program."""
    tree = ast.parse(program)
    modules = {a.asname or a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    for node in ast.walk(tree):
        func = getattr(node, "func", None)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in modules:
            if func.value.id not in ("sys", "json", "os", "re"):
                return func.value.id, func.attr
    raise ValueError("no package call found")


def _broken(kind: str, good: str) -> str:
    module, function = _package_call(good)
    head = f'"""fake:generate {kind} program."""\n\nimport sys\n\nimport {module}\n'
    call = f"{module}.{function}"
    bodies = {
        "forbidden": f"import requests\n\nprint(requests.get('https://example.com').status_code, {call}(1))\n",
        "crash": f"\ndef main():\n    raise RuntimeError('crashes on every input: ' + sys.argv[-1])\n    {call}(1)\n\n\nmain()\n",
        "timestamp": (
            "import datetime\n\nvalue = sys.argv[-1]\ntry:\n"
            f"    shown = type({call}(int(value))).__name__\nexcept Exception as exc:\n    shown = type(exc).__name__\n"
            "print(datetime.datetime.now().isoformat(), value, shown)\n"
        ),
        "too-few": (
            "value = sys.argv[-1]\nnumber = int(value)  # a non-integer crashes\ntry:\n"
            f"    shown = type({call}(number)).__name__\nexcept Exception as exc:\n    shown = type(exc).__name__\n"
            "print(number, shown)\n"
        ),
    }
    return head + bodies[kind]


_MAIN = re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{")
_NATIVE_FIRST = {
    "forbidden": "",
    "crash": "return 3; /* crashes on every input */",
    "timestamp": (
        "{ struct timespec now_; clock_gettime(CLOCK_REALTIME, &now_); "
        'printf("%ld.%09ld %s\\n", (long)now_.tv_sec, now_.tv_nsec, argc > 1 ? argv[1] : ""); return 0; }'
    ),
    "too-few": (
        "if (argc < 2 || argv[1][0] < '0' || argv[1][0] > '9' || argv[1][1] != 0) return 1; "
        'printf("%s\\n", argv[1]); return 0; /* a non-digit fails */'
    ),
}


def _broken_native(kind: str, good: str) -> str:
    """The good C/C++ program with a first statement in `main` that makes it fail as `kind` says."""
    found = _MAIN.search(good)
    if found is None:
        raise ValueError("no main() in the good program")
    head = f"/* fake:generate {kind} program */\n#include <stdio.h>\n#include <time.h>\n"
    if kind == "forbidden":
        head += "#include <zlib.h>\n"
    main = "int main(int argc, char **argv) {"  # named, so the first statement may read them
    body = good[: found.start()] + main + "\n    " + _NATIVE_FIRST[kind] + good[found.end() :]
    return head + body
