"""`repozero dataset generate` end to end: the loopback model scripts every answer, the real Oracle runs a
real PyPI package (installed by the test into its own cache), and the dataset it writes validates and runs.

Slow: the Oracle's repeats cost CPU, so programs and cases are few.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from repozero.cli import main
from repozero.datasets import content_hash, load_dataset
from repozero.traces import TraceReader
from repozero.traces.records import ModelCallRecord

pytestmark = pytest.mark.slow


def _generate(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    code = main(["dataset", "generate", *flags, "--display", "off", "--json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out.strip().splitlines()[-1])


def test_fake_generate_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command in the issue, as written: one program of each failure kind, an abstaining voter, 2-of-3."""
    out = tmp_path / "roman"
    voters = "fake:generate,fake:generate,fake:generate"
    summary = _generate(
        capsys, "--source", "roman==4.2", "--model", "fake:generate", "--voters", voters, "--files", "4",
        "--out", str(out),
    )  # fmt: skip
    programs = {p["id"]: p for p in summary["programs"]}
    g1, g2, g3, g4 = (programs[f"roman-g0{k}"] for k in range(1, 5))
    # slot 3: a forbidden import (rejected before running), then a crash on every input (dropped at
    # validation), then a timestamp (every case nondeterministic): each sent back, the last one dropped
    assert g3["rewrites"] == ["static:forbidden_import", "validation:too_few_runs"]
    assert (g3["stage"], g3["reason"], g3["cases_kept"]) == ("filter", "too_few_kept", 0)
    assert list(g3["case_reasons"]) == ["nondeterministic"]
    assert (g4["stage"], g4["reason"], g4["rewrites"]) == ("filter", "too_few_kept", [])
    assert 5 <= g4["cases_kept"] < 10 and g4["case_reasons"] == {
        "oracle_error": g4["cases_proposed"] - g4["cases_kept"]
    }
    assert summary["stages"] == {
        "filter": {"too_few_kept": 2}, "static": {"forbidden_import": 1}, "validation": {"too_few_runs": 1},
    }  # fmt: skip
    # voter 3 answers malformed JSON on slot 1: asked again, then an abstention; both kept by 2 of 3
    assert [g1["kept"], g2["kept"], summary["kept"]] == [True, True, 2]
    assert g1["votes"][2]["abstained"].startswith("unreadable answer") and g1["votes"][2]["attempts"] == 2
    assert g1["decided"] == g2["decided"] == "2 of 3 voters"
    assert sorted(v["difficulty"] for v in g2["votes"]) == ["easy", "easy", "medium"]

    dataset = load_dataset(out)
    assert [s.id for s in dataset.samples] == ["roman-g01", "roman-g02"]
    for sample in dataset.samples:
        assert sample.status == "live" and len(sample.whitebox) == 4 and len(sample.kept_cases) >= 10
        assert len({c.expected_stdout for c in sample.whitebox}) == 4  # different behaviours
        generation = sample.provenance.generation
        assert generation.model == "fake:generate" and "gen_sample_writer@" in generation.prompts  # type: ignore[union-attr]
        assert len(generation.votes) == 3 and sample.provenance.repeats == 20  # type: ignore[union-attr]
    calls = _model_calls(out.with_name("roman.generate"))
    assert len(calls) == summary["model_calls"]
    assert {c.role for c in calls} == {"sample_writer", "case_writer", "voter"}

    assert main(["dataset", "validate", str(out), "--cases", "2", "--seed", "1"]) == 0
    # a rebuild from scratch keeps what the pipeline decided: the same hash, invalid inputs not run (still
    # `invalid_input`, not `oracle_error` or kept), and who wrote the samples
    again = Path(shutil.copytree(out, tmp_path / "rebuilt"))
    assert main(["dataset", "build", str(again), "--no-cache"]) == 0
    capsys.readouterr()
    rebuilt = load_dataset(again)
    assert content_hash(rebuilt) == summary["content_hash"] == content_hash(load_dataset(out))
    for before, after in zip(dataset.samples, rebuilt.samples, strict=True):
        assert after.provenance.generation == before.provenance.generation
        assert [(d.id, d.reason) for d in after.provenance.dropped] == [
            (d.id, d.reason) for d in before.provenance.dropped
        ]
    assert any(d.reason == "invalid_input" for s in rebuilt.samples for d in s.provenance.dropped)
    run = ["run", "--dataset", str(out), "--model", "fake:steps:1", "--ace-rounds", "0", "--display", "off"]
    assert main([*run, "--out", str(tmp_path / "run"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["finished"] == 2


# -- fake:replay:FILE scripts every call; a run killed midway and resumed gives the same dataset ---------

ENCODE = '''"""Encode text with base58, plain and with a checksum."""
import sys

import base58

args = sys.argv[1:]
if len(args) != 2 or args[0] != "--text":
    sys.stderr.write("usage error: --text VALUE\\n")
    sys.exit(2)
data = args[1].encode("utf-8")
print(base58.b58encode(data).decode("ascii"))
print(base58.b58encode_check(data).decode("ascii"))
'''
DECODE = '''"""Decode base58 text to hex."""
import sys

import base58

value = sys.argv[2]
try:
    print(base58.b58decode(value).hex())
except ValueError as exc:
    print(f"error: {exc}")
'''
TEXTS = ["hello", "", "a", "ünï", "$(touch x)", "0", "  ", "long " * 20, "\n", "z9", "Ab", "end"]
CODES = ["2NEpo7TZRRrLZSi2U", "", "1", "11", "0OIl", "z", "3yZe7d", "abc", "JxF12TrwUP45BMd", "!", "1A", "Z"]


def _writer(sample: str, step: int, program: str, arg: str) -> dict[str, Any]:
    meta = {"interface": {"args": [{"name": arg, "format": "str", "required": True}]}}
    content = f"````python\n{program}````\n```json\n{json.dumps(meta)}\n```\n````markdown\n# {sample}\n````\n"
    return {"role": "sample_writer", "sample": sample, "step": step, "content": content}


def _cases(sample: str, arg: str, values: list[str]) -> dict[str, Any]:
    cases = [
        {"argv": [f"--{arg}", v], "stdin": None, "description": f"value {k}"} for k, v in enumerate(values)
    ]
    return {"role": "case_writer", "sample": sample, "step": 0, "content": json.dumps({"cases": cases})}


def _ballot(difficulty: str) -> str:
    return json.dumps({"difficulty": difficulty, "category": "encoding", "ratings": {"api_count": 1}})


def _replays(folder: Path) -> list[str]:
    """Writer and case writer in one file (with voter 1), voters 2 and 3 in their own."""
    main_lines = [
        _writer("base58-g01", 0, ENCODE, "text"), _cases("base58-g01", "text", TEXTS),
        _writer("base58-g02", 0, DECODE, "data"), _cases("base58-g02", "data", CODES),
        _writer("base58-g03", 0, "import numpy\nimport base58\nbase58.b58encode(b'')\n", "x"),
        _writer("base58-g03", 1, "import socket\nimport base58\nbase58.b58encode(b'')\n", "x"),
        _writer("base58-g03", 2, "import requests\nimport base58\nbase58.b58encode(b'')\n", "x"),
        {"role": "voter", "step": 0, "content": _ballot("easy")},
    ]  # fmt: skip
    voter2 = [
        {"role": "voter", "sample": "base58-g01", "step": 0, "content": _ballot("easy")},
        {"role": "voter", "step": 0, "content": _ballot("medium")},
    ]
    voter3 = [  # malformed first, then a readable answer to the retry
        {"role": "voter", "step": 0, "content": '{"difficulty": "medium", '},
        {"role": "voter", "step": 1, "content": _ballot("medium")},
    ]
    names = []
    for name, lines in (("writer", main_lines), ("voter2", voter2), ("voter3", voter3)):
        path = folder / f"{name}.jsonl"
        path.write_text("".join(json.dumps(line) + "\n" for line in lines))
        names.append(f"fake:replay:{path}")
    return names


def _model_calls(state: Path, shards: set[Path] | None = None) -> list[ModelCallRecord]:
    reader = TraceReader(state / "traces")
    return [
        r
        for shard in reader.shards()
        if shards is None or shard not in shards
        for r in reader.records(shard)
        if isinstance(r, ModelCallRecord)
    ]


_CONVERSATION = re.compile(r"(base58-g\d\d)-s\d+-(write|cases(\d+)|vote(\d+))$")


def _stage_of(call: ModelCallRecord) -> tuple[str, str]:
    """The stage file a model call's answer is saved in (write-N, cases-N, vote-N)."""
    found = _CONVERSATION.search(call.conversation_id)
    assert found is not None, call.conversation_id
    program, kind, cases, vote = found.groups()
    if kind == "write":
        return program, f"write-{call.step}"
    return program, f"cases-{cases}" if cases is not None else f"vote-{int(vote) - 1}"


def _finished_stages(state: Path) -> set[tuple[str, str]]:
    return {
        (f.parent.name, f.stem)
        for f in (state / "programs").glob("*/*.json")
        if f.stem.split("-")[0] in ("write", "cases", "vote")
    }


def test_replay_roles_kill_and_resume(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    writer, voter2, voter3 = _replays(tmp_path)
    common = [
        "--source", "base58==2.1.1", "--model", writer, "--voters", f"{writer},{voter2},{voter3}",
        "--files", "3", "--cases", "12", "--repeats", "4", "--api-calls", "1..4",
        "--set", f"oracle.cache_dir={tmp_path / 'cache'}", "--set", "oracle.servers=4",
    ]  # fmt: skip
    whole = _generate(capsys, *common, "--out", str(tmp_path / "whole"))
    programs = {p["id"]: p for p in whole["programs"]}
    assert [programs[p]["kept"] for p in sorted(programs)] == [True, True, False]
    assert programs["base58-g03"]["rewrites"] == ["static:forbidden_import", "static:network_access"]
    assert programs["base58-g03"]["reason"] == "forbidden_import"
    assert [programs["base58-g01"]["difficulty"], programs["base58-g02"]["difficulty"]] == ["easy", "medium"]
    assert [programs[p]["votes"][2]["attempts"] for p in ("base58-g01", "base58-g02")] == [
        2,
        2,
    ]  # malformed, read again
    assert whole["model_calls"] == 5 + 2 + 6 + 2  # writes (g03 three times), cases, 2×3 votes, two retries

    out = tmp_path / "killed"
    state = out.with_name("killed.generate")
    cmd = [sys.executable, "-m", "repozero", "dataset", "generate", *common, "--out", str(out), "--display", "off",
           "--concurrency", "1", "--set", "run.fake_latency_ms=500"]  # fmt: skip
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as proc:
        deadline = time.monotonic() + 240
        while not (state / "programs" / "base58-g01" / "outcome.json").exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it was killed"
            time.sleep(0.1)
        os.kill(proc.pid, signal.SIGKILL)
    assert not out.exists()
    finished = _finished_stages(state)
    before = set(TraceReader(state / "traces").shards())
    assert ("base58-g01", "vote-2") in finished

    resumed = _generate(capsys, *common, "--out", str(out), "--resume")
    again = {_stage_of(c) for c in _model_calls(state, before)}
    assert again and not (again & finished), f"asked again for finished stages: {sorted(again & finished)}"
    assert resumed["content_hash"] == whole["content_hash"]
    assert main(["dataset", "hash", str(out)]) == 0
    assert capsys.readouterr().out.strip() == whole["content_hash"]


# -- a C library from Debian: headers shown, includes checked, compiled and filtered by the native Oracle --

CJSON = """#include <stdio.h>
#include <cjson/cJSON.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: JSON\\n"); return 2; }
    cJSON *root = cJSON_Parse(argv[1]);
    if (root == NULL) { printf("error: invalid JSON\\n"); return 0; }
    char *text = cJSON_PrintUnformatted(root);
    printf("%s\\n", text);
    printf("array=%d object=%d size=%d\\n", cJSON_IsArray(root), cJSON_IsObject(root), cJSON_GetArraySize(root));
    cJSON_free(text);
    cJSON_Delete(root);
    return 0;
}
"""
POINTER = '#include <stdio.h>\n#include <cjson/cJSON.h>\n\nint main(int argc, char **argv) {\n    cJSON *root = cJSON_Parse(argc > 1 ? argv[1] : "");\n    printf("%p\\n", (void *)root);\n    cJSON_Delete(root);\n    return 0;\n}\n'
JSONS = [
    "{}",
    "[]",
    "[1,2,3]",
    '{"a":1}',
    '{"a":[true,false,null]}',
    "1e5",
    '"x"',
    "nul",
    "[",
    '{"k":"ü"}',
    "  [ 1 ] ",
    "-0",
]


def _c_writer(sample: str, step: int, program: str) -> dict[str, Any]:
    meta = {"interface": {"args": [], "stdin": "none", "style": "free"}}
    content = f"````c\n{program}````\n```json\n{json.dumps(meta)}\n```\n````markdown\n# {sample}\n````\n"
    return {"role": "sample_writer", "sample": sample, "step": step, "content": content}


def test_debian_package_with_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases = json.dumps({"cases": [{"argv": [j], "stdin": None} for j in JSONS]})
    lines = [
        _c_writer("libcjson-dev-g01", 0, CJSON),
        _c_writer("libcjson-dev-g02", 0, "#include <zlib.h>\n#include <cjson/cJSON.h>\nint main(void) { return 0; }\n"),
        _c_writer("libcjson-dev-g02", 1, POINTER),
        {"role": "case_writer", "step": 0, "content": cases},
        {"role": "voter", "step": 0, "content": _ballot("medium").replace("encoding", "parsing/serialization")},
    ]  # fmt: skip
    replay = tmp_path / "c.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "cjson"
    summary = _generate(
        capsys, "--debian-package", "libcjson-dev", "--model", f"fake:replay:{replay}", "--files", "2",
        "--cases", "12", "--repeats", "4", "--api-calls", "1..8", "--set", "oracle.servers=4", "--out", str(out),
    )  # fmt: skip
    g1, g2 = summary["programs"]
    assert (g1["kept"], g1["api_count"], g1["difficulty"], g1["decided"]) == (
        True,
        7,
        "medium",
        "3 of 3 voters",
    )
    assert g2["rewrites"] == ["static:forbidden_import"]
    # a pointer differs run to run (ASLR); only the two inputs cJSON refuses print the same "(nil)"
    assert (g2["stage"], g2["reason"], g2["cases_kept"]) == ("filter", "too_few_kept", 2)
    assert g2["case_reasons"] == {"nondeterministic": 10}
    sample = load_dataset(out).sample("libcjson-dev-g01")
    assert (sample.subset, sample.source.language, sample.source.package) == ("c2rust", "c", "libcjson-dev")
    assert sample.target.entry == ["target/release/libcjson_dev_g01"] and sample.test_program.path.endswith(
        ".c"
    )
    assert len(sample.whitebox) == 4 and len({c.expected_stdout for c in sample.whitebox}) == 4
    assert main(["dataset", "validate", str(out), "--cases", "2", "--seed", "1"]) == 0


def test_ctrl_c_stops_cleanly_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """SIGINT: the run stops within a minute (exit 130, nothing written to --out), `--resume` finishes it."""
    writer, voter2, voter3 = _replays(tmp_path)
    out = tmp_path / "stopped"
    common = [
        "--source", "base58==2.1.1", "--model", writer, "--voters", f"{writer},{voter2},{voter3}",
        "--files", "3", "--cases", "12", "--repeats", "4", "--api-calls", "1..4", "--set", "oracle.servers=4",
        "--out", str(out),
    ]  # fmt: skip
    cmd = [sys.executable, "-m", "repozero", "dataset", "generate", *common, "--display", "off",
           "--set", "run.fake_latency_ms=500"]  # fmt: skip
    first = out.with_name("stopped.generate") / "programs" / "base58-g01" / "write-0.json"
    with subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) as proc:
        deadline = time.monotonic() + 240
        while not first.exists():
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended before it was stopped"
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("still running a minute after SIGINT")
        assert code == 130 and "--resume" in (proc.stderr.read() if proc.stderr else "")
    assert not out.exists()
    assert _generate(capsys, *common, "--resume")["kept"] == 2


# -- a replay folder (one answer per file), no voters, a split: how the built-in py2js is made ----------

CHECKED = '''"""Encode text with base58check, or decode it back."""
import argparse

import base58

parser = argparse.ArgumentParser()
parser.add_argument("--text", required=True)
parser.add_argument("--decode", default="false")
args = parser.parse_args()
if args.decode == "true":
    try:
        print(base58.b58decode_check(args.text).decode("utf-8", "replace"))
    except ValueError as exc:
        print(f"error: {exc}")
else:
    print(base58.b58encode_check(args.text.encode()).decode())
print(base58.b58encode_int(len(args.text)).decode())
'''


def _folder_answers(folder: Path) -> Path:
    answers = folder / "answers"
    answers.mkdir(parents=True)
    (answers / "README.md").write_text("not an answer: the name has no role\n")
    interface = {"args": [{"name": "text", "format": "str", "required": True},
                          {"name": "decode", "format": "bool"}], "stdin": "none", "style": "named"}  # fmt: skip
    meta = {"interface": interface, "api_calls": ["base58.b58encode_check"], "category": "encoding"}
    (answers / "base58-g01.sample_writer.md").write_text(
        f"A first try.\n\n```python\nimport base58, numpy\n```\n```json\n{json.dumps(meta)}\n```\n```markdown\nx\n```\n"
    )
    (answers / "base58-g01.sample_writer.1.md").write_text(
        f"Without numpy.\n\n```python\n{CHECKED}```\n```json\n{json.dumps(meta)}\n```\n```markdown\n# spec\n```\n"
    )
    cases = [{"argv": ["--text", t], "stdin": None, "description": t} for t in TEXTS]
    cases += [{"argv": ["--text", c, "--decode", "true"], "stdin": None, "description": c} for c in CODES]
    cases += [{"argv": ["--text", "x", "--decode", "maybe"], "stdin": None, "description": "not a bool"}]
    (answers / "base58-g01.case_writer.json").write_text(json.dumps({"cases": cases}))
    return answers


def test_replay_folder_without_voters_in_a_split(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The answer-folder replay, `--voters none` (the measured rule; the writer's category), `--split`,
    `--min-kept`; then `dataset stats` and `run --split` over what it wrote."""
    answers = _folder_answers(tmp_path)
    out = tmp_path / "ds"
    summary = _generate(
        capsys, "--source", "base58==2.1.1", "--model", f"fake:replay:{answers}", "--voters", "none",
        "--files", "1", "--min-kept", "20", "--split", "train", "--repeats", "3", "--out", str(out),
    )  # fmt: skip
    (line,) = summary["programs"]
    assert line["kept"] and line["rewrites"] == ["static:forbidden_import"] and line["votes"] == []
    assert line["case_reasons"] == {"invalid_input": 1} and line["cases_kept"] >= 20
    assert (line["api_count"], line["difficulty"], line["decided"]) == (3, "easy", "no voters: measured")
    (sample,) = load_dataset(out).samples
    assert (sample.split, sample.category) == ("train", "encoding")
    assert sample.difficulty_rule.startswith("dataset generate: no voters (--voters none): the measured rule")
    assert sample.provenance.generation.model == f"fake:replay:{answers}"  # type: ignore[union-attr]

    assert main(["dataset", "stats", str(out), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert (stats["samples"], stats["libraries"], stats["split"]) == (1, 1, {"train": 1})
    assert stats["api_call_buckets"]["1-3"] == 1 and stats["kept_cases"]["min"] == line["cases_kept"]
    assert main(["run", "--dataset", str(out), "--model", "fake:steps:1", "--split", "test"]) == 2
    assert "--split 'test': no live sample" in capsys.readouterr().err
    run = ["run", "--dataset", str(out), "--model", "fake:steps:1", "--ace-rounds", "0", "--display", "off"]
    assert main([*run, "--split", "train", "--out", str(tmp_path / "run"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["finished"] == 1


def test_fake_generate_plays_a_debian_package(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fake:generate` on cJSON: c2rust-lite's own programs kept, then each failure kind of the Python demo
    (a forbidden header, a crash on every input, a clock read, too few surviving inputs) at its stage."""
    out = tmp_path / "cjson"
    summary = _generate(
        capsys, "--debian-package", "libcjson-dev", "--model", "fake:generate", "--files", "4", "--out", str(out)
    )  # fmt: skip
    programs = {p["id"]: p for p in summary["programs"]}
    g1, g2, g3, g4 = (programs[f"libcjson-dev-g0{k}"] for k in range(1, 5))
    assert [g1["kept"], g2["kept"], summary["kept"]] == [True, True, 2]
    assert g1["decided"] == g2["decided"] == "2 of 3 voters"
    assert g3["rewrites"] == ["static:forbidden_import", "validation:too_few_runs"]
    assert (g3["stage"], g3["reason"], list(g3["case_reasons"])) == (
        "filter",
        "too_few_kept",
        ["nondeterministic"],
    )
    assert (g4["stage"], g4["reason"], g4["cases_kept"]) == ("filter", "too_few_kept", 7)
    dataset = load_dataset(out)
    assert {s.subset for s in dataset.samples} == {"c2rust"}
    assert all(s.target.entry[0].startswith("target/release/libcjson_dev_g0") for s in dataset.samples)


def test_a_failed_coverage_measure_drops_that_program_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reach probe killed on one program (a slow case under the line tracer) drops that program as
    `coverage_failed`; the other slots finish and the dataset is written (before, the whole run stopped)."""
    from repozero.kernel.errors import OracleError
    from repozero.orchestrator.generate import pipeline

    real = pipeline.measure_coverage

    async def flaky(oracle, settings, folder, script, *rest):  # type: ignore[no-untyped-def]
        if script.startswith("roman_g02"):
            raise OracleError("measuring coverage failed (exit 137): killed")
        return await real(oracle, settings, folder, script, *rest)

    monkeypatch.setattr(pipeline, "measure_coverage", flaky)
    summary = _generate(
        capsys, "--source", "roman==4.2", "--model", "fake:generate", "--voters", "none", "--files", "2",
        "--repeats", "3", "--out", str(tmp_path / "roman"),
    )  # fmt: skip
    programs = {p["id"]: p for p in summary["programs"]}
    assert programs["roman-g01"]["kept"] and summary["kept"] == 1
    assert (programs["roman-g02"]["stage"], programs["roman-g02"]["reason"]) == (
        "coverage",
        "coverage_failed",
    )
    assert [s.id for s in load_dataset(tmp_path / "roman").samples] == ["roman-g01"]
