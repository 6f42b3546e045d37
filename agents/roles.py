"""What each role sees: the task view (never a hidden case), the coder's prompts and its feedback.

`task_view` is the only way a prompt gets case data, and it copies whitebox cases only.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence

from repozero.agents.templates import render
from repozero.datasets import Dataset, Interface
from repozero.kernel.records import Record

__all__ = [
    "Failure",
    "ShownCase",
    "TaskView",
    "coder_system",
    "coder_task",
    "feedback_message",
    "render_cases",
    "task_view",
]


class ShownCase(Record, kw_only=True):
    """A case an agent may see: a whitebox case, or a fresh one the tester proposed and the Oracle answered."""

    argv: list[str]
    stdin: bytes | None = None
    expected_stdout: bytes
    expected_exit: int = 0
    description: str = ""


class TaskView(Record, kw_only=True):
    sample: str
    package: str
    api_spec: str
    test_program_name: str
    test_program: str | None
    interface: Interface
    entry: list[str]
    target_language: str
    target_version: str
    whitebox: list[ShownCase]
    source_language: str = "python"


class Failure(Record, kw_only=True):
    """One failing visible case, as feedback shows it (the diff is made by the grader's diagnostics)."""

    case_id: str
    argv: list[str]
    stdin: bytes | None = None
    status: str
    expected_stdout: bytes
    actual_stdout: bytes
    expected_exit: int
    actual_exit: int | None
    stderr: bytes = b""
    diff: str = ""


_LANG_VERSION = {"javascript": "Node.js 24, ES modules", "rust": "Rust 1.96, edition 2021"}
_SOURCE_KIND = {"python": "Python package", "c": "C library", "cpp": "C++ library"}
_CONSTRAINTS = {
    "javascript": (
        "- {language} only ({version}), standard library only: no external packages, no\n"
        "  package.json dependencies, no node_modules, no lockfiles.\n"
    ),
    "rust": (
        "- Rust only ({version}), standard library only: a Cargo package at the repository root with no\n"
        "  dependencies of any kind, no build.rs, no .cargo/config, no vendored crates. The entry point is\n"
        "  built with `cargo build --release --offline`. No FFI to the C/C++ library (`extern` blocks,\n"
        "  `#[link]`), no `std::process::Command`, no inline assembly.\n"
    ),
}


def task_view(
    dataset: Dataset, sample_id: str, *, show_test_program: bool = True, whitebox: int = 4
) -> TaskView:
    sample = dataset.sample(sample_id)
    shown = [
        ShownCase(
            argv=c.argv,
            stdin=c.stdin,
            expected_stdout=c.expected_stdout,
            expected_exit=c.expected_exit,
            description=c.description,
        )
        for c in sample.whitebox[:whitebox]
        if c.expected_stdout is not None
    ]
    program = dataset.test_program(sample_id) if show_test_program else None
    return TaskView(
        sample=sample.id,
        package=sample.source.package,
        api_spec=dataset.api_spec(sample_id),
        test_program_name=sample.test_program.path,
        test_program=program,
        interface=sample.interface,
        entry=sample.target.entry,
        target_language=sample.target.language,
        target_version=sample.target.version or _LANG_VERSION.get(sample.target.language, ""),
        whitebox=shown,
        source_language=sample.test_program.language,
    )


def _text(data: bytes | None) -> str:
    return "" if data is None else data.decode("utf-8", errors="replace")


def render_cases(cases: Sequence[ShownCase], entry: Sequence[str]) -> str:
    """Cases as a person would want them: a runnable command, and the exact bytes as JSON strings."""
    parts = []
    for number, case in enumerate(cases, start=1):
        command = shlex.join([*entry, *case.argv])
        stdin = (
            ""
            if case.stdin is None
            else f"\nstdin (JSON string): {json.dumps(_text(case.stdin), ensure_ascii=False)}"
        )
        parts.append(
            f"### Case {number}{(': ' + case.description) if case.description else ''}\n"
            f"argv (JSON): {json.dumps(case.argv, ensure_ascii=False)}\n"
            f"command: {command}{stdin}\n"
            f"expected exit code: {case.expected_exit}\n"
            f"expected stdout (JSON string, exact bytes): {json.dumps(_text(case.expected_stdout), ensure_ascii=False)}\n"
            f"expected stdout:\n```\n{_text(case.expected_stdout)}```\n"
        )
    return "\n".join(parts) if parts else "(none)\n"


def _program_section(view: TaskView) -> str:
    if view.test_program is None:
        return ""
    fence = view.source_language
    return f"## The original test program (`{view.test_program_name}`)\n```{fence}\n{view.test_program}```\n"


def coder_system(scaffold: str, workdir: str) -> str:
    return render(f"system_{scaffold}.txt", workdir=workdir)


def coder_task(view: TaskView, *, scaffold: str, workdir: str, oracle_queries: int = 0) -> str:
    oracle = ""
    if oracle_queries:
        how = (
            "call the `run_source` tool"
            if scaffold == "tools"
            else 'run a block whose command is `run_source {"argv": [...], "stdin": null}`'
        )
        oracle = (
            f"\n## Black-box access to the original\nYou may run the ORIGINAL program on inputs of your choice "
            f"(stdout and exit code only) up to {oracle_queries} times: {how}.\n"
        )
    return render(
        "coder_task.md",
        sample=view.sample,
        scaffold=scaffold,
        package=view.package,
        source_kind=_SOURCE_KIND.get(view.source_language, "package"),
        language_constraints=_CONSTRAINTS.get(view.target_language, _CONSTRAINTS["javascript"]).format(
            language=view.target_language, version=view.target_version
        ),
        target_language=view.target_language,
        entry=shlex.join(view.entry),
        workdir=workdir,
        api_spec=view.api_spec.strip() + "\n",
        test_program_section=_program_section(view),
        whitebox_cases=render_cases(view.whitebox, view.entry),
        oracle_section=oracle,
    )


def _render_failure(failure: Failure, entry: Sequence[str]) -> str:
    stderr = _text(failure.stderr[-1500:]).strip()
    return (
        f"### {failure.status}: {json.dumps(failure.argv, ensure_ascii=False)}\n"
        f"command: {shlex.join([*entry, *failure.argv])}\n"
        + (
            f"stdin (JSON string): {json.dumps(_text(failure.stdin), ensure_ascii=False)}\n"
            if failure.stdin
            else ""
        )
        + f"exit code: expected {failure.expected_exit}, got {failure.actual_exit}\n"
        f"expected stdout (JSON string): {json.dumps(_text(failure.expected_stdout)[:2000], ensure_ascii=False)}\n"
        f"actual stdout (JSON string): {json.dumps(_text(failure.actual_stdout)[:2000], ensure_ascii=False)}\n"
        + (f"diff:\n```diff\n{failure.diff}\n```\n" if failure.diff else "")
        + (f"stderr (end):\n```\n{stderr}\n```\n" if stderr else "")
    )


def feedback_message(failures: Sequence[Failure], total: int, *, entry: Sequence[str], shown_cap: int) -> str:
    shown = list(failures)[:shown_cap]
    note = f"The first {len(shown)} are shown." if len(shown) < len(failures) else ""
    return render(
        "coder_feedback.md",
        failing=len(failures),
        total=total,
        shown_note=note,
        failures="\n".join(_render_failure(f, entry) for f in shown),
    )
