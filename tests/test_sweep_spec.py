"""Sweep specs: the issue's spec as written, cell keys (science in, infra out), exclude rules, and bad spec
files refused with exit 2 naming the file and the key. Nothing here runs an episode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repozero.cli import main
from repozero.config_file import load_config
from repozero.orchestrator.engine.spec import EpisodeKey
from repozero.orchestrator.sweeps.sweep import interleave, open_sweep

FIXTURE_DS = Path(__file__).parent / "fixtures" / "fakellm"

ISSUE_SPEC = """\
dataset = "builtin:py2js-lite"
samples = ["base58-*", "roman-*"]
attempts = 3
seed = 7

[axes]
model = ["fake:gold", "fake:buggy-then-fix"]
scaffold = ["bash", "tools"]
ace_rounds = [0, 1]

[infra]
"run.concurrency" = 32
"""


def write(tmp_path: Path, text: str, name: str = "spec.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def keys(tmp_path: Path, text: str) -> dict[str, str]:
    """axes (as a sorted string) → cell key."""
    sweep = open_sweep(load_config(), write(tmp_path, text), str(tmp_path / "out"))
    return {json.dumps(c.axes, sort_keys=True): c.key for c in sweep.cells}


def test_issue_spec_as_written(tmp_path: Path) -> None:
    sweep = open_sweep(load_config(), write(tmp_path, ISSUE_SPEC), str(tmp_path / "out"))
    assert len(sweep.cells) == 8
    assert sweep.samples == ["base58-check", "base58-text", "roman-batch", "roman-numerals"]
    assert len({c.key for c in sweep.cells}) == 8
    gold_tools_1 = next(
        c for c in sweep.cells if c.axes == {"model": "fake:gold", "scaffold": "tools", "ace_rounds": 1}
    )
    assert gold_tools_1.spec.scaffold == "tools" and gold_tools_1.spec.ace_rounds == 1
    assert gold_tools_1.spec.attempts == 3 and gold_tools_1.spec.seed == 7
    assert gold_tools_1.spec.concurrency == 32
    assert gold_tools_1.dir == tmp_path / "out" / "cells" / gold_tools_1.key
    plans = sweep.plans()
    assert [(p.planned, p.done, p.to_do) for p, _ in plans] == [(12, 0, 12)] * 8


def test_infra_keys_keep_cells_and_science_keys_make_new_ones(tmp_path: Path) -> None:
    base = keys(tmp_path, ISSUE_SPEC)
    infra = ISSUE_SPEC.replace('"run.concurrency" = 32', '"run.concurrency" = 4\n"limits.grading" = 1')
    assert keys(tmp_path, infra) == base
    more = ISSUE_SPEC.replace("attempts = 3", "attempts = 4").replace('"roman-*"]', '"roman-*", "semver-*"]')
    assert keys(tmp_path, more) == base  # the plan grows; the cells stay
    protocol = ISSUE_SPEC.replace("[infra]", '[fixed]\nprotocol = "paper-text"\n\n[infra]')
    changed = keys(tmp_path, protocol)
    assert changed.keys() == base.keys() and not set(changed.values()) & set(base.values())
    limits = ISSUE_SPEC.replace("[infra]", '[fixed]\n"agent.step_limit" = 7\n\n[infra]')
    assert not set(keys(tmp_path, limits).values()) & set(base.values())
    seed = ISSUE_SPEC.replace("seed = 7", "seed = 8")
    assert not set(keys(tmp_path, seed).values()) & set(base.values())


def test_dotted_tables_short_names_and_exclude(tmp_path: Path) -> None:
    text = f"""
dataset = "{FIXTURE_DS}"
[axes]
model = ["fake:gold", "fake:never"]
run.ace_rounds = [0, 1, 2]
[fixed]
agent.step_limit = 9
[infra]
limits.model_connections = {{fake = 4}}
[[exclude]]
model = "fake:never"
"run.ace_rounds" = [1, 2]
"""
    sweep = open_sweep(load_config(), write(tmp_path, text), str(tmp_path / "out"))
    assert [c.axes for c in sweep.cells] == [
        {"model": "fake:gold", "run.ace_rounds": 0},
        {"model": "fake:gold", "run.ace_rounds": 1},
        {"model": "fake:gold", "run.ace_rounds": 2},
        {"model": "fake:never", "run.ace_rounds": 0},
    ]
    assert all(c.config.agent.step_limit == 9 for c in sweep.cells)
    assert sweep.cells[0].config.limits.model_connections == {"fake": 4}
    # `run.ace_rounds` written long is the same experiment as `ace_rounds` written short
    short = text.replace("run.ace_rounds = [0, 1, 2]", "ace_rounds = [0, 1, 2]").replace(
        '"run.ace_rounds" = [1, 2]', "ace_rounds = [1, 2]"
    )
    assert [c.key for c in open_sweep(load_config(), write(tmp_path, short, "s.toml")).cells] == [
        c.key for c in sweep.cells
    ]


def test_interleave_spreads_work_over_cells() -> None:
    todo = {
        name: [EpisodeKey(sample=f"s{i}", attempt=a) for a in range(2) for i in range(n)]
        for name, n in (("aaaa0000", 3), ("bbbb1111", 1), ("cccc2222", 2))
    }
    order = interleave(todo, seed=7)
    assert sorted(order, key=repr) == sorted(((n, k) for n, ks in todo.items() for k in ks), key=repr)
    first = [name for name, _ in order[:3]]
    assert sorted(first) == sorted(todo)  # every cell started before any starts a second episode
    assert interleave(todo, seed=7) == order
    for name, ks in todo.items():  # earlier attempts first within each cell
        attempts = [k.attempt for n, k in order if n == name]
        assert attempts == sorted(attempts) and len(attempts) == len(ks)


BAD = [
    ("not toml = [", "invalid TOML"),
    ('dataset = "x"\nmodels = 3\n[axes]\nmodel = ["fake:gold"]', "models"),
    ('dataset = "x"\nattempts = "3"\n[axes]\nmodel = ["fake:gold"]', "attempts"),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\nscafold = ["bash"]', "scafold"),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\nscaffold = ["bosh"]', "scaffold"),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = "fake:gold"', "axes.model"),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\n[infra]\nace_rounds = 2', "ace_rounds"),
    (
        f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\n[fixed]\n"run.concurrency" = 2',
        "concurrency",
    ),
    (
        f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\n[[exclude]]\nscaffold = "bash"',
        "exclude[0]",
    ),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nscaffold = ["bash"]', "model"),
    (f'dataset = "{FIXTURE_DS}"\n[axes]\nmodel = ["fake:gold"]\n[[exclude]]\nmodel = "fake:gld"', "fake:gld"),
    (f'dataset = "{FIXTURE_DS}"\nsamples = ["nope-*"]\n[axes]\nmodel = ["fake:gold"]', "nope-*"),
]


@pytest.mark.parametrize(("text", "named"), BAD)
def test_bad_spec_exits_2_naming_file_and_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, named: str
) -> None:
    spec = write(tmp_path, text)
    assert main(["sweep", str(spec), "--dry-run", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert str(spec) in err and named in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_bad_encoding_and_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "latin1.toml"
    spec.write_bytes('dataset = "caf\xe9"\n'.encode("latin-1"))
    assert main(["sweep", str(spec), "--dry-run"]) == 2
    assert str(spec) in capsys.readouterr().err
    assert main(["sweep", str(tmp_path / "missing.toml"), "--dry-run"]) == 2
    assert "missing.toml" in capsys.readouterr().err


def test_dry_run_json_before_anything_ran(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, ISSUE_SPEC)
    assert main(["sweep", str(spec), "--dry-run", "--json", "--out", str(tmp_path / "out")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["cells"]) == 8
    first = out["cells"][0]
    assert set(first) == {"cell_key", "axes", "planned", "done", "to_do", "projected_tokens", "projected_usd"}
    assert (first["planned"], first["done"], first["to_do"]) == (12, 0, 12)
    assert first["projected_tokens"] is None  # nothing finished, no pilot: no made-up projection
    assert not (tmp_path / "out").exists()  # a dry run writes nothing


def test_an_unknown_axis_gets_one_suggestion(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, 'dataset = "builtin:py2js-lite"\n[axes]\nmodle = ["fake:gold"]\n')
    assert main(["sweep", str(spec), "--dry-run", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert "[axes] modle: unknown key; did you mean the short name 'model'?" in err
    assert err.count("did you mean") == 1


def test_a_split_limits_the_samples(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = write(tmp_path, 'dataset = "builtin:py2js-lite"\nsplit = "test"\n[axes]\nmodel = ["fake:gold"]\n')
    assert main(["sweep", str(spec), "--dry-run", "--json", "--out", str(tmp_path / "out")]) == 0
    assert [cell["planned"] for cell in json.loads(capsys.readouterr().out)["cells"]] == [13]
    spec = write(tmp_path, 'dataset = "builtin:py2js-lite"\nsplit = "dev"\n[axes]\nmodel = ["fake:gold"]\n')
    assert main(["sweep", str(spec), "--dry-run", "--out", str(tmp_path / "out")]) == 2
    assert (
        "split 'dev': no live sample of py2js-lite in that split (its splits: test, train)"
        in capsys.readouterr().err
    )
