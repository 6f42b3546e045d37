"""`repozero dataset import-repozero` on the public C2Rust layout, and the public C2Rust comparator."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repozero.datasets import Sample, Source, Target, TestProgram, load_dataset
from repozero.datasets.import_c2rust import import_c2rust
from repozero.kernel.errors import DatasetError
from repozero.oracle.compare import paper_compat_c2rust_equal
from repozero.oracle.grading import GradingPolicy
from repozero.oracle.targets import policy_for

FIXTURE = Path(__file__).parent / "fixtures" / "repozero_public_c2rust"


def _import(out: Path, *packages: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "repozero", "dataset", "import-repozero", "--tests", str(FIXTURE / "tests"),
            "--cases", str(FIXTURE / "cases.jsonl"), "--out", str(out)]  # fmt: skip
    for package in packages:
        argv += ["--debian-package", package]
    return subprocess.run(argv, capture_output=True, text=True, timeout=120)


def test_import_makes_pending_c2rust_samples_with_positional_argv(tmp_path: Path) -> None:
    out = _import(tmp_path / "ds", "libhowardhinnant-date-dev", "libc6-dev=2.36-9+deb12u14")
    assert out.returncode == 0, out.stderr
    ds = load_dataset(tmp_path / "ds")
    assert [s.id for s in ds.samples] == ["date-test1", "date-test2"]
    one = ds.sample("date-test1")
    assert one.subset == "c2rust" and one.status == "pending" and one.difficulty == "easy"
    assert (one.source.language, one.source.package, one.source.requirements) == (
        "cpp", "libhowardhinnant-date-dev", ["libc6-dev=2.36-9+deb12u14"],
    )  # fmt: skip
    assert (one.test_program.path, one.test_program.language) == ("test1.cpp", "cpp")
    assert one.target.language == "rust" and one.target.entry == ["target/release/test1"]
    assert [c.argv for c in one.cases] == [["2024", "2", "29"], ["2023", "2", "29"], ["1970", "1", "1"],
                                           ["-44", "3", "15"]]  # fmt: skip
    assert [c.argv for c in ds.sample("date-test2").cases] == [
        ["2024", "12", "31", "1"],
        ["2000", "3", "1", "-1"],
    ]
    assert sorted(p.name for p in ds.program_dir("date-test1").iterdir()) == ["common.h", "test1.cpp"]
    assert all(c.expected_stdout is None for c in one.cases)


@pytest.mark.parametrize(
    ("packages", "message"),
    [(("Not A Package",), "--debian-package 'Not A Package'"), ((), "--source-package --debian-package")],
)
def test_bad_packages_exit_2_naming_the_flag(tmp_path: Path, packages: tuple[str, ...], message: str) -> None:
    out = _import(tmp_path / "ds", *packages)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert all(word in out.stderr for word in message.split()), out.stderr
    assert not (tmp_path / "ds").exists()


def test_a_line_without_file_name_is_named(tmp_path: Path) -> None:
    cases = tmp_path / "cases.jsonl"
    cases.write_text('{"file_name": "date/src/tests/test1.cpp", "y": 1}\n{"filename": "x/test1.py"}\n')
    with pytest.raises(DatasetError, match=r"cases.jsonl:2: \$\.file_name"):
        import_c2rust(FIXTURE / "tests", cases, ["libhowardhinnant-date-dev"], tmp_path / "ds")


@pytest.mark.slow
def test_an_imported_dataset_builds_with_the_real_compiler(tmp_path: Path) -> None:
    if shutil.which("g++") is None or not Path("/usr/include/date/date.h").is_file():
        pytest.skip("needs g++ and libhowardhinnant-date-dev (scripts/setup.d/05-c2rust.sh)")
    assert _import(tmp_path / "ds", "libhowardhinnant-date-dev").returncode == 0
    build = [sys.executable, "-m", "repozero", "dataset", "build", str(tmp_path / "ds"), "--json",
             "--set", "oracle.min_kept=1", "--set", f"oracle.cache_dir={tmp_path / 'cache'}"]  # fmt: skip
    out = subprocess.run(build, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert [(s["id"], s["status"], s["kept"]) for s in json.loads(out.stdout)["samples"]] == [
        ("date-test1", "live", 4), ("date-test2", "live", 2),
    ]  # fmt: skip
    one = load_dataset(tmp_path / "ds").sample("date-test1")
    assert [c.expected_stdout for c in one.cases[:2]] == [
        b"2024-02-29 ok=1 Thu\n", b"2023-02-29 is not a valid year_month_day ok=0\n",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("expected", "actual", "equal"),
    [
        (b"42\n", b"  42", True),
        (b"1.0\n", b"1", True),
        (b"1e-05", b"0.00001\n", True),
        (b"a b\n", b"a  b\n", False),  # inner whitespace counts, unlike the Py2JS comparator
        (b"x\ny\n", b"x\ny", True),
        (b"nan", b"nan", True),
        (b"nan", b"NaN", False),
        (b"", b"\n", True),
    ],
)
def test_the_public_c2rust_comparator(expected: bytes, actual: bytes, equal: bool) -> None:
    assert paper_compat_c2rust_equal(expected, actual) is equal


def test_repozero_public_judges_rust_targets_as_the_public_c2rust_harness() -> None:
    sample = Sample(
        id="s", subset="c2rust", source=Source(language="cpp", package="libx-dev"),
        test_program=TestProgram(path="test1.cpp", language="cpp"),
        target=Target(language="rust", entry=["target/release/test1"]),
    )  # fmt: skip
    public = GradingPolicy(comparator="paper_compat", timeout_s=5.0)
    assert policy_for(sample, public) == GradingPolicy(comparator="paper_compat_c2rust", timeout_s=3.0)
    assert policy_for(sample, GradingPolicy()) == GradingPolicy()
    js = Sample(id="j", source=Source(package="p==1"), test_program=TestProgram(path="t.py"),
                target=Target(entry=["node", "t.mjs"]))  # fmt: skip
    assert policy_for(js, public) == public
