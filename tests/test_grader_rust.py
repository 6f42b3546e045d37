"""The grader on Rust targets: real cargo (the pinned rustc-web) in the local sandbox, broken crates and cheats.

Every crate is tiny and built once for the module (the machine is shared); the grades are then inspected
test by test.
"""

from __future__ import annotations

import os
import shutil
import uuid
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from pathlib import Path

import anyio
import pytest

from repozero.datasets import Case, Sample, Source, Target, TestProgram
from repozero.oracle.evaluate import GradeJob, grade_many
from repozero.oracle.grading import GradingPolicy, SampleGrade
from repozero.oracle.targets import build_key, build_root
from repozero.sandbox import create_backend
from repozero.sandbox.config import SandboxConfig
from repozero.sandbox.docker_client import docker_unavailable
from repozero.sandbox.local import LocalBackend

pytestmark = pytest.mark.slow

POLICY = GradingPolicy(timeout_s=20.0, output_cap=64 * 1024)
"""Long enough for a memory bomb to reach the cgroup limit on a busy machine (seconds), paid once by the loop."""
CARGO = '[package]\nname = "c{tag}"\nversion = "0.1.0"\nedition = "2021"\n\n[[bin]]\nname = "test1"\npath = "src/main.rs"\n'
GOOD = """use std::io::Read;
// {tag}
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    println!("{}", args.join("|"));
    let mut s = Vec::new();
    std::io::stdin().read_to_end(&mut s).unwrap();
    if !s.is_empty() { println!("stdin {}", s.len()); }
}
"""
CASES = [
    Case(id="w1", argv=["a", "b c"], expected_stdout=b"a|b c\n", visibility="whitebox"),
    Case(id="h1", argv=["--x", "\u00fc"], expected_stdout="--x|\u00fc\n".encode()),
    Case(id="h2", argv=[], expected_stdout=b"\n"),
    Case(id="h3", argv=["q"], stdin=b"hello", expected_stdout=b"q\nstdin 5\n"),
]
SAMPLE = Sample(
    id="echo", subset="c2rust", source=Source(language="c", package="libcjson-dev"),
    test_program=TestProgram(path="test1.c", language="c"),
    target=Target(language="rust", entry=["target/release/test1"]), cases=CASES, status="live",
)  # fmt: skip


def _edit(old: str, new: str) -> dict[str, str]:
    return {"src/main.rs": GOOD.replace(old, new)}


VARIANTS: dict[str, dict[str, str]] = {
    "good": {},
    "compile_error": _edit("let mut s", 'let _n: u32 = "not a number";\n    let mut s'),
    "wrong": {**_edit('join("|")', 'join(",")'), "target/release/test1": "#!/bin/sh\necho planted\n"},
    "panic": _edit("let mut s", 'if args.is_empty() { panic!("boom"); }\n    let mut s'),
    "loop": _edit("let mut s", "while args.is_empty() { std::hint::black_box(0u8); }\n    let mut s"),
    "bomb": _edit(
        "let mut s",
        "let mut v: Vec<Vec<u8>> = Vec::new();\n"
        "    while args.len() == 1 { v.push(vec![1u8; 1 << 28]); }\n    let mut s",
    ),
    "dependency": {"Cargo.toml": CARGO + '\n[dependencies]\nrand = "0.8"\n'},
    "build_rs": {"build.rs": "fn main() {}\n"},
    "extern_c": _edit(
        "fn main() {", 'extern "C" { fn abs(x: i32) -> i32; }\nfn main() {\n    let _ = unsafe { abs(-1) };'
    ),
    "command": _edit("fn main() {", 'fn main() {\n    let _ = std::process::Command::new("true").status();'),
    "cargo_config": {".cargo/config.toml": '[build]\nrustflags = ["-C", "opt-level=1"]\n'},
}


def _crate(root: Path, name: str, tag: str) -> Path:
    folder = root / name
    files = {"Cargo.toml": CARGO, "src/main.rs": GOOD, **VARIANTS[name]}
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text.replace("{tag}", tag) if rel in ("Cargo.toml", "src/main.rs") else text)
        if rel.startswith("target/"):
            path.chmod(0o755)
    return folder


async def _grade_all(root: Path, backend_name: str) -> dict[str, SampleGrade]:
    tag = uuid.uuid4().hex[:8]  # fresh trees: the build cache starts cold
    jobs = [
        GradeJob(
            sample=SAMPLE, cases=CASES, target_dir=str(_crate(root, name, tag)), visible_ids=frozenset({"w1"})
        )
        for name in VARIANTS
    ]
    cfg = SandboxConfig(backend=backend_name, local_root=str(root / "sbx"))  # type: ignore[arg-type]
    backend = create_backend(cfg, backend_name)
    async with AsyncExitStack() as stack:
        if isinstance(backend, AbstractAsyncContextManager):
            await stack.enter_async_context(backend)
        with anyio.fail_after(600):
            grades = await grade_many(backend, jobs, POLICY, limiter=anyio.CapacityLimiter(2))
    return dict(zip(VARIANTS, grades, strict=True))


BACKENDS = [
    pytest.param("local", id="local"),
    pytest.param("docker", id="docker", marks=[
        pytest.mark.docker, pytest.mark.skipif(docker_unavailable() is not None, reason=str(docker_unavailable())),
    ]),
]  # fmt: skip


@pytest.fixture(scope="module", params=BACKENDS)
def setting(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    if shutil.which("cargo", path="/usr/bin") is None:
        pytest.skip("needs Debian's cargo-web (scripts/setup.d/05-c2rust.sh)")
    return request.param, tmp_path_factory.mktemp(f"rust-grader-{request.param}")


@pytest.fixture(scope="module")
def grades(setting: tuple[str, Path]) -> dict[str, SampleGrade]:
    backend_name, root = setting
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(root / "cache"))
        return anyio.run(_grade_all, root, backend_name, backend_options={"use_uvloop": True})


def test_the_good_crate_passes(grades: dict[str, SampleGrade]) -> None:
    g = grades["good"]
    assert g.passed and g.success_rate == 1.0 and not g.cheat_flags, g
    assert [c.status for c in g.cases] == ["pass"] * 4


def test_a_compile_error_is_no_executable_with_the_errors_as_feedback(grades: dict[str, SampleGrade]) -> None:
    g = grades["compile_error"]
    assert g.failure_category == "no_executable" and not g.passed
    assert {c.status for c in g.cases} == {"not_run"}
    (out,) = g.outputs
    assert out.id == "w1" and b"error[E0308]: mismatched types" in out.stderr


@pytest.mark.parametrize(
    ("name", "category", "status"),
    [
        ("wrong", "whitebox_fail", "wrong_output"),
        ("panic", "runtime_error", "runtime_error"),
        ("loop", "runtime_error", "timeout"),
        ("bomb", "runtime_error", "oom"),
    ],
)
def test_broken_crates(grades: dict[str, SampleGrade], name: str, category: str, status: str) -> None:
    g = grades[name]
    assert g.failure_category == category and not g.cheat_flags and not g.passed, g
    assert status in {c.status for c in g.cases} <= {"pass", status}, g.cases


def test_a_panic_exits_101(grades: dict[str, SampleGrade]) -> None:
    g = grades["panic"]
    assert [(c.id, c.status, c.exit_code) for c in g.cases if c.status != "pass"] == [
        ("h2", "runtime_error", 101),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "flag", "category"),
    [
        ("dependency", "external_dependency:dependencies", "no_executable"),  # offline: rand cannot resolve
        ("build_rs", "build_script:build.rs", "cheat"),
        ("extern_c", "ffi_extern_block", "cheat"),
        ("command", "process_command", "cheat"),
        ("cargo_config", "cargo_config:.cargo/config.toml", "cheat"),
    ],
)
def test_cheats_are_flagged_and_fail(
    grades: dict[str, SampleGrade], name: str, flag: str, category: str
) -> None:
    g = grades[name]
    assert flag in g.cheat_flags and g.failure_category == category, g
    assert not g.passed and g.success_rate == 0.0


def test_a_planted_binary_is_never_run(grades: dict[str, SampleGrade]) -> None:
    assert [o.stdout for o in grades["wrong"].outputs] == [b"a,b c\n"]


def test_each_tree_is_built_once_and_cached_by_content(
    grades: dict[str, SampleGrade], setting: tuple[str, Path]
) -> None:
    _, root = setting
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(root / "cache"))
        builds = sorted(p.name for p in build_root().iterdir() if not p.name.startswith("."))
        exe = build_root() / build_key(root / "good") / "tree" / "target" / "release" / "test1"
        stamp = exe.stat().st_mtime_ns
        job = GradeJob(sample=SAMPLE, cases=CASES, target_dir=str(root / "good"))
        backend = LocalBackend(SandboxConfig())  # cached: the build is not redone, whichever backend
        again = anyio.run(grade_many, backend, [job], POLICY, backend_options={"use_uvloop": True})[0]
        assert (
            again.passed
            and sorted(p.name for p in build_root().iterdir() if not p.name.startswith(".")) == builds
        )
    assert len(builds) == len(VARIANTS) and exe.stat().st_mtime_ns == stamp


def test_no_process_left_behind(grades: dict[str, SampleGrade]) -> None:
    assert grades["loop"].failure_category
    left = []
    for pid in os.listdir("/proc"):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if cmdline.startswith((b"target/release/test1", b"cargo\0build")):
            left.append(cmdline)
    assert left == []
