"""`dataset generate`'s pieces that decide without running anything: static checks, input checks, answer
formats, the vote and its tie rule, the whitebox choice, and the command's refusals of bad flags."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from repozero.cli import main
from repozero.datasets import Argument, Interface, Vote, builtin_root
from repozero.orchestrator.generate.answers import AnswerError, parse_ballot, parse_cases, parse_draft
from repozero.orchestrator.generate.inputs import check_inputs
from repozero.orchestrator.generate.records import CaseDraft, GenerateSettings
from repozero.orchestrator.generate.state import GenerateState
from repozero.orchestrator.generate.static import check_program
from repozero.orchestrator.generate.voting import decide
from repozero.orchestrator.generate.whitebox import choose_whitebox

ROMAN = builtin_root() / "py2js-lite" / "samples" / "roman-numerals" / "program" / "roman_numerals.py"


def test_a_builtin_program_passes_and_its_calls_are_counted_from_the_source() -> None:
    verdict = check_program(ROMAN.read_text(), ["roman"], (1, 10))
    assert verdict.reason is None
    assert verdict.calls == ["roman.fromRoman", "roman.toRoman"]  # caught RomanError is not a call


@pytest.mark.parametrize(
    ("program", "reason"),
    [
        ("import roman\nimport requests\nroman.toRoman(1)\n", "forbidden_import"),
        ("import roman\nfrom urllib.request import urlopen\nroman.toRoman(1)\n", "network_access"),
        ("import roman, socket\nroman.toRoman(1)\n", "network_access"),
        ("import roman\nimport subprocess\nroman.toRoman(1)\n", "outside_files"),
        ("import roman\nopen('/etc/passwd').read()\nroman.toRoman(1)\n", "outside_files"),
        ("import roman\nopen('../secret').read()\nroman.toRoman(1)\n", "outside_files"),
        ("import roman\n__import__('requests')\nroman.toRoman(1)\n", "forbidden_import"),
        ("import roman\nroman.toRoman(1\n", "syntax_error"),
        ("import roman\nprint(1)\n", "api_calls_out_of_range"),
    ],
)
def test_static_checks_reject_with_a_reason(program: str, reason: str) -> None:
    verdict = check_program(program, ["roman"], (1, 10))
    assert verdict.reason == reason, verdict


def test_clock_randomness_and_own_files_are_left_to_the_oracle() -> None:
    program = (
        "import datetime, random, json\nimport roman as r\nfrom urllib.parse import quote\n"
        "print(datetime.datetime.now(), random.random(), open('data.json').read(), r.toRoman(2), quote('x'))\n"
    )
    verdict = check_program(program, ["roman"], (1, 1))
    assert (verdict.reason, verdict.calls) == (None, ["roman.toRoman"])


def _interface() -> Interface:
    args = [Argument(name="number", format="int", required=True), Argument(name="mode", format="str")]
    return Interface(args=args, stdin="none")


def test_inputs_are_checked_against_the_declared_interface() -> None:
    drafts = [
        CaseDraft(id="c000", argv=["--number", "3"]),
        CaseDraft(id="c001", argv=["--number", "three"]),
        CaseDraft(id="c002", argv=["--mode", "x"]),
        CaseDraft(id="c003", argv=["--colour", "red", "--number", "1"]),
        CaseDraft(id="c004", argv=["--number", "3"]),
        CaseDraft(id="c005", argv=["--number", "4"], stdin=b"x"),
        CaseDraft(id="c006", argv=["--number"]),
    ]
    problems = {c.id: c.invalid for c in check_inputs(drafts, _interface())}
    assert problems["c000"] == ""
    assert "is not a int" in problems["c001"]
    assert problems["c002"] == "missing required --number"
    assert problems["c003"] == "unknown argument '--colour'"
    assert problems["c004"] == "repeats an earlier input"
    assert "stdin" in problems["c005"]
    assert "pairs" in problems["c006"]


def test_a_draft_answer_keeps_a_spec_that_holds_fences() -> None:
    answer = (
        "Here it is.\n````python\nimport roman\nprint(roman.toRoman(1))\n````\n"
        '```json\n{"interface": {"args": [{"name": "n", "format": "int"}], "stdin": "optional"}, '
        '"api_calls": ["roman.toRoman"]}\n```\n'
        "````markdown\n# Spec\n```text\nI\n```\n````\n"
    )
    draft = parse_draft(answer)
    assert draft.program == "import roman\nprint(roman.toRoman(1))\n"
    assert draft.interface.args[0].format == "int" and draft.interface.stdin == "optional"
    assert draft.api_spec == "# Spec\n```text\nI\n```\n"
    with pytest.raises(AnswerError, match="markdown"):
        parse_draft("```python\nx\n```\n```json\n{}\n```\n")


def test_case_and_ballot_answers() -> None:
    cases = parse_cases(
        '```json\n{"cases": [{"argv": ["--n", "1"], "stdin": "a\\n"}, {"argv": "x"}]}\n```', 60
    )
    assert cases[0].stdin == b"a\n" and cases[1].invalid == "argv is not a list of strings"
    assert parse_cases('{"cases": [{"argv": []}, {"argv": []}, {"argv": []}]}', 2)[-1].id == "c001"


def test_case_answers_that_no_process_can_take_are_invalid_inputs_not_crashes() -> None:
    """A lone surrogate in JSON (`"\\udcff"`) decodes to a str that has no UTF-8 bytes: as argv or stdin it
    crashed the pipeline (UnicodeEncodeError), as bad base64 in stdin_b64 too; each is one invalid input."""
    answer = (
        '{"cases": [{"argv": ["ok", "a\\udcffb"]}, {"argv": [], "stdin": "x\\ud800"},'
        ' {"argv": [], "stdin_b64": "not base64!"}, {"argv": ["\\u00e9"], "stdin_b64": "AP8="}]}'
    )
    bad_argv, bad_stdin, bad_b64, fine = parse_cases(answer, 60)
    assert bad_argv.invalid == "argv[1] is not UTF-8 text" and bad_argv.argv == []
    assert bad_stdin.invalid.startswith("stdin is not UTF-8 text")
    assert bad_b64.invalid == "stdin_b64 is not base64"
    assert (fine.invalid, fine.argv, fine.stdin) == ("", ["\u00e9"], b"\x00\xff")
    msgspec.json.encode([bad_argv, bad_stdin, bad_b64])  # the stage record of these drafts can be written
    with pytest.raises(AnswerError, match="not valid JSON"):
        parse_ballot('```json\n{"difficulty": "easy", "category": \n```', "v")
    with pytest.raises(AnswerError, match="category"):
        parse_ballot('{"difficulty": "easy", "category": "poetry"}', "v")
    vote = parse_ballot('{"difficulty": "hard", "category": "text", "ratings": {"api_count": 3}}', "v")
    assert (vote.difficulty, vote.category, vote.ratings) == ("hard", "text", {"api_count": 3})


def _vote(difficulty: str | None, category: str = "text") -> Vote:
    if difficulty is None:
        return Vote(voter="v", abstained="unreadable answer")
    return Vote(voter="v", difficulty=difficulty, category=category)  # type: ignore[arg-type]


def test_majority_decides_and_ties_follow_the_measured_rule() -> None:
    assert decide([_vote("easy"), _vote("easy"), _vote(None)], 2, 40) == ("easy", "text", "2 of 3 voters")
    assert decide([_vote("medium"), _vote("hard"), _vote("medium", "encoding")], 2, 40)[:2] == (
        "medium",
        "text",
    )
    # a tie: the measured label (9 calls -> hard) when it is among the tied ones, else the lowest tied
    assert decide([_vote("easy"), _vote("hard"), _vote(None)], 9, 40)[0] == "hard"
    assert decide([_vote("medium"), _vote("hard"), _vote(None)], 1, 10)[0] == "medium"
    assert decide([_vote(None)] * 3, 1, 10) == ("easy", "other", "no votes: measured")


def test_whitebox_covers_different_code_paths_not_the_first_four() -> None:
    order = ["c0", "c1", "c2", "c3", "c4", "c5"]
    per_case = {"c0": [1, 2], "c1": [1, 2], "c2": [1, 2], "c3": [1, 2], "c4": [1, 3, 4], "c5": [1, 5]}
    outputs = {"c0": b"a", "c1": b"b", "c2": b"a", "c3": b"c", "c4": b"d", "c5": b"e"}
    assert choose_whitebox(order, per_case, outputs, 4) == ["c4", "c0", "c5", "c1"]


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--source", "roman"], "--source 'roman': expected a pinned PyPI package"),
        (["--source", "roman==4.2", "--api-calls", "5..2"], "--api-calls '5..2'"),
        (["--source", "roman==4.2", "--files", "0"], "--files 0: must be at least 1"),
        (["--source", "roman==4.2", "--voters", "a,,b"], "an empty model name"),
        (["--source", "roman==4.2", "--resume"], "holds no run to continue"),
        (["--debian-package", "no-such-lib-dev"], "--debian-package no-such-lib-dev: not installed here"),
    ],
)
def test_bad_flags_exit_2_naming_the_flag(
    flags: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["dataset", "generate", "--model", "fake:generate", "--out", str(tmp_path / "out"), *flags])
    assert code == 2
    assert message in capsys.readouterr().err


def test_an_existing_output_is_not_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "out").mkdir()
    code = main(
        [
            "dataset",
            "generate",
            "--source",
            "roman==4.2",
            "--model",
            "fake:generate",
            "--out",
            str(tmp_path / "out"),
        ]
    )
    assert code == 2 and "already exists" in capsys.readouterr().err


def test_resume_with_other_flags_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    voters = ["fake:generate"] * 3
    settings = GenerateSettings(
        source="roman==4.2",
        model="fake:generate",
        voters=voters,
        files=10,
        api_calls=(1, 10),
        cases=60,
        repeats=20,
    )
    GenerateState.open(out, settings, resume=False)  # what an interrupted first run leaves
    flags = ["dataset", "generate", "--source", "roman==4.2", "--model", "fake:generate", "--out", str(out)]
    assert main([*flags, "--files", "3"]) == 2
    assert "holds an unfinished run; pass --resume" in capsys.readouterr().err
    assert main([*flags, "--files", "3", "--cases", "5", "--resume"]) == 2
    assert "the flags differ from the run being continued (files, cases)" in capsys.readouterr().err


def test_a_header_declares_names_it_does_not_merely_call() -> None:
    from repozero.orchestrator.generate.native import check_native, declared_names

    header = """
    #define XXH_API(x) x
    XXH_API(unsigned) XXH32(const void* input, unsigned len, unsigned seed);
    CJSON_PUBLIC(cJSON *) cJSON_Parse(const char *value);
    static inline void *helper(void *d) { memcpy(d, d, 0); return convert(d); }
    namespace utf8 { class iterator { public: bool valid() const; }; template <class It> It next(It& it); }
    void *memcpy(void *dest, const void *src, unsigned long n);
    """
    names = declared_names(header)
    assert {"XXH_API", "XXH32", "cJSON_Parse", "helper", "iterator", "valid", "next"} <= names
    assert not {"memcpy", "convert", "return"} & names  # called in the header, or libc's own
    program = '#include <x.h>\nint main(){ char q = \'"\'; XXH32(0, 0, 0); return cJSON_Parse("a") == 0; }'
    assert check_native(program, ["x.h"], sorted(names), (1, 20)).calls == ["XXH32", "cJSON_Parse"]


@pytest.mark.parametrize("preimported", [False, True])
def test_lines_reached_leave_out_import_time(tmp_path: Path, preimported: bool) -> None:
    """The reach probe counts what the cases run, not the package's import: the same measure whether the
    package was loaded before the probe started or is imported by the first case (it moved from 59 to 943
    lines between identical runs before)."""
    import json
    import subprocess
    import sys

    probe = Path(__file__).resolve().parent.parent / "orchestrator" / "generate" / "probes" / "reach.py"
    (tmp_path / "prog.py").write_text(
        "import textwrap\nimport rich.text\nprint(len(rich.text.Text('x y z')))\n"
    )
    run = f"import sys\n{'import rich.text' if preimported else ''}\nsys.argv = ['reach.py', 'rich', 'prog.py']\n"
    run += f"exec(compile(open({str(probe)!r}).read(), 'reach.py', 'exec'))\n"
    cases = json.dumps([{"id": "a", "argv": []}, {"id": "b", "argv": []}])
    done = subprocess.run(
        [sys.executable, "-c", run], input=cases, capture_output=True, text=True, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    measured = json.loads(done.stdout)
    assert measured["per_case"]["a"] == measured["per_case"]["b"]  # the first case carries no import
    assert 0 < measured["lines"] < 150, measured[
        "lines"
    ]  # `Text(...)` and `len`: not rich's import (thousands)
