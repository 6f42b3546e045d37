"""Grader logic without a sandbox: statuses, categories, comparators, diagnostics, static cheat flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from repozero.datasets import Case
from repozero.oracle.cheats import runtime_flags, scan_target, strip_js_comments
from repozero.oracle.compare import byte_diff, diagnose, paper_compat_equal, strict_equal
from repozero.oracle.grading import CaseResult, failure_category, node_entry, status_of
from repozero.sandbox import CaseRun


def run(stdout: bytes = b"ok\n", exit_code: int = 0, **kw: bool) -> CaseRun:
    return CaseRun(id="c", stdout=stdout, stderr=b"", exit_code=exit_code, wall_s=0.01, **kw)


CASE = Case(id="c", argv=[], expected_stdout=b"ok\n")
CASE_EXIT3 = Case(id="c", argv=[], expected_stdout=b"ok\n", expected_exit=3)


def test_exit_code_mismatch() -> None:
    assert status_of(CASE_EXIT3, run(b"ok\n", 0), "strict") == "wrong_output"
    assert status_of(CASE_EXIT3, run(b"ok\n", 1), "strict") == "runtime_error"
    assert status_of(CASE_EXIT3, run(b"ok\n", 3), "strict") == "pass"


@pytest.mark.parametrize(
    ("result", "status"),
    [
        (run(), "pass"),
        (run(b"ok"), "wrong_output"),
        (run(b"ok\n", 1), "runtime_error"),
        (run(b"ok\n", 0), "pass"),
        (run(b"", 137, timed_out=True), "timeout"),
        (run(b"", 137, oom=True), "oom"),
        (run(b"ok\n" * 1000, truncated=True), "wrong_output"),
    ],
)
def test_status_of(result: CaseRun, status: str) -> None:
    assert status_of(CASE, result, "strict") == status


def test_paper_compat_is_looser_only_when_asked() -> None:
    loose = run(b"o k\n\n")
    assert status_of(CASE, loose, "strict") == "wrong_output"
    assert status_of(CASE, loose, "paper_compat") == "pass"
    assert not paper_compat_equal(b"\n \n", b"")  # at least one output line
    assert strict_equal(b"", b"")


def _r(visibility: str, status: str) -> CaseResult:
    return CaseResult(id="x", visibility=visibility, status=status)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("results", "flags", "no_exe", "category"),
    [
        ([_r("hidden", "pass")], [], True, "no_executable"),
        ([_r("whitebox", "wrong_output")], ["child_process"], False, "cheat"),
        ([_r("whitebox", "wrong_output"), _r("hidden", "runtime_error")], [], False, "whitebox_fail"),
        (
            [_r("whitebox", "pass"), _r("hidden", "timeout"), _r("hidden", "wrong_output")],
            [],
            False,
            "runtime_error",
        ),
        ([_r("whitebox", "pass"), _r("hidden", "oom")], [], False, "runtime_error"),
        ([_r("whitebox", "pass"), _r("hidden", "wrong_output")], [], False, "mismatch"),
        ([_r("whitebox", "pass"), _r("hidden", "pass")], [], False, None),
    ],
)
def test_failure_category_precedence(results, flags, no_exe, category) -> None:  # type: ignore[no-untyped-def]
    assert failure_category(results, flags, no_exe) == category


@pytest.mark.parametrize(
    ("expected", "actual", "kind"),
    [
        (b"a b\n", b"a  b\n", "whitespace_only"),
        (b"1.0\n", b"1\n", "numeric_format"),
        (b"a\nb\n", b"b\na\n", "line_order"),
        (b"a\n", b"a", "missing_trailing_newline"),
        (b"a\n", b"a\nb\n", "extra_output"),
        (b"a\n", b"", "missing_output"),
        (b"a\n", b"z\n", "content"),
    ],
)
def test_diagnose_kinds(expected: bytes, actual: bytes, kind: str) -> None:
    assert diagnose(expected, actual).kinds == [kind]


def test_diagnose_exit_and_prefix() -> None:
    d = diagnose(b"abc\ndef\n", b"abc\nxyz\n", 0, 2)
    assert d.kinds == ["exit_code", "content"]
    assert d.common_prefix == 4 and d.first_diff_line == 2
    assert "-def\\n" in byte_diff(b"abc\ndef\n", b"abc\nxyz\n")


def test_node_entry_adds_permissions() -> None:
    assert node_entry(["node", "t.mjs"], "/w", True) == [
        "node",
        "--permission",
        "--allow-fs-read=/w",
        "t.mjs",
    ]
    assert node_entry(["node", "t.mjs"], "/w", False) == ["node", "t.mjs"]
    assert node_entry(["./bin/app"], "/w", True) == ["./bin/app"]


def test_static_scan(tmp_path: Path) -> None:
    (tmp_path / "ok.mjs").write_text(
        "// require('child_process') only in a comment\n/* import x from 'lodash' */\n"
        "import fs from 'node:fs';\nimport { h } from './lib.mjs';\nconst s = '// kept';\n"
    )
    assert scan_target(tmp_path) == []
    (tmp_path / "bad.mjs").write_text(
        "import _ from 'lodash';\nconst cp = require(\"child_process\");\n"
        "import { Worker } from 'node:worker_threads';\nprocess.binding('fs');\n"
        "fs.readFileSync('/etc/passwd');\n"
    )
    (tmp_path / "package.json").write_text('{"name": "x", "dependencies": {"lodash": "^4"}}')
    (tmp_path / "package-lock.json").write_text("{}")
    (tmp_path / "node_modules" / "lodash").mkdir(parents=True)
    (tmp_path / "escape").symlink_to("/etc")
    assert scan_target(tmp_path) == [
        "child_process",
        "external_dependency:dependencies",
        "lockfile:package-lock.json",
        "node_modules:node_modules",
        "non_builtin_import:lodash",
        "outside_path:/etc/passwd",
        "outside_symlink:escape",
        "process_binding",
        "worker_threads",
    ]


def test_strip_comments_keeps_strings() -> None:
    assert strip_js_comments("a = '/* no */'; // gone\nb") == "a = '/* no */'; \nb"


def test_runtime_flags_from_node_stderr() -> None:
    stderr = b"Error: Access to this API has been restricted.\n  code: 'ERR_ACCESS_DENIED',\n  permission: 'ChildProcess',\n"
    assert runtime_flags(stderr) == ["runtime_denied:ChildProcess"]
    assert runtime_flags(b"TypeError: x is not a function") == []
