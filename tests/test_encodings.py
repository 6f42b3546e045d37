"""Every file a person hands us, in every wrong encoding: read right, or exit 2 naming the file and byte.

Each reader gets the same five variants of a valid file: invalid UTF-8 (a Latin-1 `é`), a UTF-8 BOM,
UTF-16 with a BOM, a NUL byte, and a multi-byte character cut off at the end of the file. Text formats
must read the BOM and UTF-16 variants exactly as the UTF-8 original; the rest must fail through the real
CLI with exit 2, the file, the byte offset and no traceback, and write nothing.
"""

from __future__ import annotations

import codecs
import json
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
import zstandard

from repozero.agents.fakellm.material import SampleShelf
from repozero.agents.fakellm.replay import ReplayBook
from repozero.cli import main
from repozero.config_file import load_config
from repozero.datasets import import_repozero, load_dataset
from repozero.kernel.errors import ConfigError, DatasetError, UsageError
from repozero.traces import TraceConfig, TraceFormatError, TraceReader, TraceWriter
from repozero.traces.blobs import BlobStore
from repozero.traces.export.source import open_runs
from repozero.traces.frames import compressor

from .synthetic_traces import episode_events

VARIANTS = ["invalid_utf8", "utf8_bom", "utf16", "nul", "truncated"]
READABLE = {"utf8_bom", "utf16"}  # what a text format must read as the UTF-8 original


def variant(text: str, kind: str) -> tuple[bytes, int | None]:
    """`text` in the encoding `kind`, and the byte offset an error must name (None: it must be read)."""
    good = text.encode()
    at = good.index(b"\n")  # the end of line 1
    match kind:
        case "invalid_utf8":
            return good[:at] + "é".encode("latin-1") + good[at:], at
        case "nul":
            return good[:at] + b"\0" + good[at:], at
        case "truncated":
            return good + "✓".encode()[:2], len(good)
        case "utf8_bom":
            return codecs.BOM_UTF8 + good, None
        case "utf8":  # the control: the original
            return good, None
        case _:
            return text.encode("utf-16"), None  # Python writes the BOM


def position(data: bytes, offset: int) -> str:
    return f"byte {offset} (line {data.count(10, 0, offset) + 1}): "


def error_line(data: bytes, path: Path, offset: int) -> str:
    """The start of the message: the file, the byte offset and its line."""
    return re.escape(f"{path}: {position(data, offset)}")


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """The real `repozero` entry point in-process: an uncaught exception fails the test outright."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def expect_rejected(code: int, err: str, data: bytes, path: Path, offset: int) -> None:
    assert code == 2, err
    assert re.search(error_line(data, path, offset), err), err
    assert "Traceback" not in err and "expected" in err


@pytest.fixture
def public(fixtures_dir: Path, tmp_path: Path) -> Path:
    """A copy of the public-layout fixture (tests/ and cases.jsonl) we may rewrite."""
    return Path(shutil.copytree(fixtures_dir / "repozero_public", tmp_path / "public"))


@pytest.fixture
def dataset_dir(public: Path, tmp_path: Path) -> Path:
    out = tmp_path / "ds"
    import_repozero(public / "tests", public / "cases.jsonl", "demo==1.2.3", out)
    return out


def _argvs(root: Path) -> dict[str, list[list[str]]]:
    return {s.id: [c.argv for c in s.cases] for s in load_dataset(root).samples}


def _import(capsys: pytest.CaptureFixture[str], public: Path, out: Path) -> tuple[int, str, str]:
    return run_cli(capsys, "dataset", "import-repozero", "--tests", str(public / "tests"),
                   "--cases", str(public / "cases.jsonl"), "--source-package", "demo==1", "--out", str(out))  # fmt: skip


@pytest.mark.parametrize("kind", VARIANTS)
def test_cases_file(kind: str, public: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    reference = tmp_path / "reference"
    import_repozero(public / "tests", public / "cases.jsonl", "demo==1", reference)
    cases = public / "cases.jsonl"
    data, offset = variant(cases.read_text(encoding="utf-8"), kind)
    cases.write_bytes(data)
    out = tmp_path / "out" / "imported"
    out.parent.mkdir()
    code, _, err = _import(capsys, public, out)
    if offset is None:
        assert code == 0, err
        assert _argvs(out) == _argvs(reference)  # "héllo ✓ 日本" and all
        return
    expect_rejected(code, err, data, cases, offset)
    assert not out.exists() and list(out.parent.iterdir()) == []  # no output, no staging folder
    with pytest.raises(DatasetError, match=error_line(data, cases, offset)):
        import_repozero(public / "tests", cases, "demo==1", out)


@pytest.mark.parametrize("kind", VARIANTS)
def test_test_program_on_import(kind: str, public: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # fmt: skip
    """Python source follows Python's rules: a UTF-8 BOM is fine, UTF-16 is not (python won't run it)."""
    program = public / "tests" / "mylib" / "test1.py"
    text = "# démo ✓\n" + program.read_text(encoding="utf-8")
    data, offset = variant(text, kind)
    offset = 0 if kind == "utf16" else offset
    program.write_bytes(data)
    out = tmp_path / "out" / "imported"
    out.parent.mkdir()
    code, _, err = _import(capsys, public, out)
    if offset is None:
        assert code == 0, err
        dataset = load_dataset(out)
        assert dataset.program_path("mylib-test1").read_bytes() == data  # copied as is
        assert dataset.test_program("mylib-test1") == text  # shown to agents decoded
        return
    expect_rejected(code, err, data, program, offset)
    assert not out.exists() and list(out.parent.iterdir()) == []
    compile_verdict = subprocess.run([sys.executable, str(program)], capture_output=True, text=True)
    assert compile_verdict.returncode != 0  # python itself refuses what we refuse


def test_a_pep263_coding_line_is_honoured(public: Path, tmp_path: Path) -> None:
    program = public / "tests" / "mylib" / "test1.py"
    text = "# -*- coding: latin-1 -*-\n# démo\n" + program.read_text(encoding="utf-8")
    program.write_bytes(text.encode("latin-1"))
    import_repozero(public / "tests", public / "cases.jsonl", "demo==1", tmp_path / "ds")
    assert load_dataset(tmp_path / "ds").test_program("mylib-test1") == text


@pytest.mark.parametrize("kind", VARIANTS)
@pytest.mark.parametrize("name", ["sample.json", "api_spec.md", "program/test1.py", "dataset.toml"])
def test_dataset_files(kind: str, name: str, dataset_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Loading a dataset (here `dataset show`) checks every file's encoding before any run starts."""
    code, reference, err = run_cli(capsys, "dataset", "show", str(dataset_dir), "mylib-test1", "--json")
    assert code == 0, err
    before = load_dataset(dataset_dir)
    spec_text, info = before.api_spec("mylib-test1"), before.info
    path = dataset_dir / name if name == "dataset.toml" else dataset_dir / "samples" / "mylib-test1" / name
    text = path.read_text(encoding="utf-8")
    if name.startswith("program/"):
        text = "# démo ✓\n" + text
    data, offset = variant(text, kind)
    if name.startswith("program/") and kind == "utf16":
        offset = 0
    path.write_bytes(data)
    code, out, err = run_cli(capsys, "dataset", "show", str(dataset_dir), "mylib-test1", "--json")
    if offset is None:
        assert code == 0, err
        assert json.loads(out) == json.loads(reference)
        after = load_dataset(dataset_dir)
        assert after.api_spec("mylib-test1") == spec_text and after.info == info
        return
    expect_rejected(code, err, data, path, offset)
    with pytest.raises(DatasetError, match=error_line(data, path, offset)):
        load_dataset(dataset_dir)


CONFIG = '# démo ✓\n[run]\nconcurrency = 7\n\n[endpoints.local]\nbase_urls = ["http://127.0.0.1:9/v1"]\nmodel = "tiny-ü"\n'  # fmt: skip


@pytest.mark.parametrize("kind", VARIANTS)
def test_config_file(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "repozero.toml"
    path.write_text(CONFIG, encoding="utf-8")
    code, reference, err = run_cli(capsys, "--config", str(path), "config", "show", "--json")
    assert code == 0 and json.loads(reference)["run"]["concurrency"] == 7, err
    data, offset = variant(CONFIG, kind)
    path.write_bytes(data)
    code, out, err = run_cli(capsys, "--config", str(path), "config", "show", "--json")
    if offset is None:
        assert code == 0, err
        assert json.loads(out) == json.loads(reference)
        return
    expect_rejected(code, err, data, path, offset)
    with pytest.raises(ConfigError, match=error_line(data, path, offset)):
        load_config(path)


@pytest.fixture
def trace_dir(tmp_path: Path) -> Path:
    async def write() -> None:
        async with TraceWriter(tmp_path / "traces", TraceConfig(fsync=False)) as writer:
            for event in episode_events(0, rng=random.Random(1), steps=1):
                writer.emit(event)

    anyio.run(write)
    return tmp_path / "traces"


@pytest.mark.parametrize("kind", [*VARIANTS, "utf8"])
def test_trace_frame(kind: str, trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Shards are ours and UTF-8 only: a frame in any other encoding names the shard, frame and byte."""
    (shard,) = TraceReader(trace_dir).shards()
    frame_at = shard.stat().st_size
    first = zstandard.ZstdDecompressor().decompressobj().decompress(shard.read_bytes()).split(b"\n")[0]
    record = json.loads(first) | {"host": "démo ✓"}  # a real record (the shard header), non-ASCII text
    data, offset = variant((json.dumps(record, ensure_ascii=False) + "\n") * 2, kind)
    with shard.open("ab") as f:
        f.write(compressor(3).compress(data))
    code, out, err = run_cli(capsys, "traces", "stats", str(trace_dir), "--json")
    if kind == "utf8":  # the same frame in UTF-8 reads: the failures below are the encoding's
        assert code == 0 and json.loads(out)["records"]["shard"] == 3, err
        return
    assert code == 2 and "Traceback" not in err, err
    assert f"{shard} (frame at byte {frame_at})" in err, err
    if offset is not None:
        assert f"decompressed {position(data, offset)}" in err, err
    with pytest.raises(TraceFormatError, match=re.escape(f"(frame at byte {frame_at})")):
        list(TraceReader(trace_dir).records())


REPLAY = '# démo ✓\n{"step": 0, "content": "héllo ✓"}\n'


@pytest.mark.parametrize("kind", VARIANTS)
def test_replay_file(kind: str, tmp_path: Path) -> None:
    path = tmp_path / "replay.jsonl"
    data, offset = variant(REPLAY, kind)
    path.write_bytes(data)
    if offset is None:
        assert [r.content for r in ReplayBook.load(path).responses] == ["héllo ✓"]
        return
    with pytest.raises(UsageError, match=error_line(data, path, offset)):
        ReplayBook.load(path)


TESTER_INPUTS = '{"inputs":\n [{"argv": ["--a", "héllo ✓"], "stdin": null}]}\n'


@pytest.mark.parametrize("kind", VARIANTS)
def test_tester_inputs(kind: str, dataset_dir: Path) -> None:
    path = dataset_dir / "samples" / "mylib-test1" / "tester_inputs.json"
    data, offset = variant(TESTER_INPUTS, kind)
    path.write_bytes(data)
    shelf = SampleShelf(load_dataset(dataset_dir))
    if offset is None:
        assert shelf.get("mylib-test1").tester_inputs == json.loads(TESTER_INPUTS)["inputs"]
        return
    with pytest.raises(DatasetError, match=error_line(data, path, offset)):
        shelf.get("mylib-test1")


def test_the_reported_crash_is_exit_2_in_a_real_process(public: Path, tmp_path: Path) -> None:
    """The issue as filed: a Latin-1 cases file through `python -m repozero`, no traceback, nothing written."""
    cases = public / "cases.jsonl"
    text = cases.read_text(encoding="utf-8").replace("✓ 日本", "")
    cases.write_bytes(text.encode("latin-1"))
    offset = text.encode("latin-1").index("é".encode("latin-1"))
    out = tmp_path / "imported"
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", "dataset", "import-repozero", "--tests", str(public / "tests"),
         "--cases", str(cases), "--source-package", "demo==1", "--out", str(out)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    line = text[: text.index("é")].count("\n") + 1
    assert f"{cases}: byte {offset} (line {line}): invalid UTF-8" in proc.stderr
    assert "Traceback" not in proc.stderr and not out.exists()


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_buggy_patch_header_paths(encoding: str, dataset_dir: Path) -> None:
    """A patch's contents are any bytes, but the paths in its headers are UTF-8 like the gold tree's."""
    folder = dataset_dir / "samples" / "mylib-test1"
    (folder / "gold").mkdir()
    (folder / "gold" / "tést1.mjs").write_bytes(b"x\n")
    header = "--- a/tést1.mjs\n+++ b/tést1.mjs\n".encode(encoding)
    patch = folder / "buggy.patch"
    patch.write_bytes(header + b"@@ -1 +1 @@\n-x\n+\xff\n")
    shelf = SampleShelf(load_dataset(dataset_dir))
    if encoding == "utf-8":
        assert shelf.get("mylib-test1").buggy == {"tést1.mjs": b"\xff\n"}
        return
    offset = header.index("é".encode(encoding))
    with pytest.raises(
        DatasetError, match=error_line(header, patch, offset) + "the file header's path is not UTF-8"
    ):
        shelf.get("mylib-test1")


@pytest.mark.parametrize("kind", VARIANTS)
def test_run_manifest_read_by_export(kind: str, trace_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`traces export` reads the run's manifest.json (traces never import the orchestrator's reader)."""
    manifest = trace_dir.parent / "manifest.json"
    data, offset = variant('{"run_id": "démo ✓",\n "protocol": "repozero-public"}\n', kind)
    manifest.write_bytes(data)
    out = trace_dir.parent / "export"
    code, _, err = run_cli(
        capsys, "traces", "export", str(trace_dir.parent), "--format", "sft", "--out", str(out)
    )
    if offset is None:
        assert code == 0, err
        assert open_runs([trace_dir.parent])[0].run_id == "démo ✓"
        return
    expect_rejected(code, err, data, manifest, offset)
    assert not out.exists()


@pytest.mark.parametrize("kind", VARIANTS)
def test_text_blob(kind: str, tmp_path: Path) -> None:
    """A blob that a text field references must be UTF-8 (its hash checks out: it is what was written)."""
    data, offset = variant("démo ✓\n" * 2, kind)
    store = BlobStore(tmp_path / "blobs")
    ref = store.put(data)
    store.write_pending()
    if kind in ("utf8_bom", "nul"):  # U+FEFF and U+0000 are text (a command may print NUL): kept as written
        assert BlobStore(tmp_path / "blobs").text(ref) == data.decode()
        return
    offset = 0 if offset is None else offset
    with pytest.raises(TraceFormatError) as caught:
        BlobStore(tmp_path / "blobs").text(ref)
    assert str(caught.value).startswith(f"{store.path(ref.sha256)}, decompressed {position(data, offset)}")
