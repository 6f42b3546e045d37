"""No credential reaches disk or a screen: secrets planted in every place config can carry one (headers,
`headers_env` and `api_key_env` variables, URL user-info and keys, credential-named `extra_body` fields,
`--set`, a sweep spec), then a run, a sweep, `report` and `config show`; every file they wrote and
everything they printed is searched for the secrets. `headers_env` is sent as `api_key_env` is, and what a
Ray job is given carries references to its runner's environment, not the values."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
import structlog
import zstandard

from repozero.agents.models import Message, open_models
from repozero.config_file import config_to_toml, load_config
from repozero.kernel.errors import ConfigError
from repozero.kernel.redact import REDACTED, redact_data, redact_toml_text, redact_url
from repozero.orchestrator.engine.config import config_data

SECRET = "sk-planted-7f3c9a"


def _load_loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


lb = _load_loopback()

CONFIG = f"""\
[endpoints.fake]
headers = {{ Authorization = "Bearer {SECRET}-fake-header" }}

[endpoints.other]
model = "m"
base_urls = ["https://me:{SECRET}-userinfo@api.example.com/v1", "https://api.example.com/v1?key={SECRET}-query"]
api_key_env = "RZ_PLANTED_KEY"
headers = {{ "X-Api-Key" = "{SECRET}-x-api-key", Authorization = "Bearer {SECRET}-authorization" }}
headers_env = {{ "X-Other" = "RZ_PLANTED_HEADER" }}
extra_body = {{ api_key = "{SECRET}-body", nested = {{ access_token = "{SECRET}-nested" }} }}

[endpoints.other.params]
extra_body = {{ token = "{SECRET}-params" }}

[sandbox]
docker_debian_mirror = "http://mirror:{SECRET}-mirror@deb.example.com/debian"
"""
SET = [f"--set=endpoints.other.headers.Cookie=session={SECRET}-set"]
ENV = {"RZ_PLANTED_KEY": f"{SECRET}-env-key", "RZ_PLANTED_HEADER": f"{SECRET}-env-header"}


def _leaks(root: Path) -> list[str]:
    """Every file under `root` whose bytes (zstd frames decompressed) hold the secret."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        if path.name.endswith(".zst"):
            with zstandard.ZstdDecompressor().stream_reader(data, read_across_frames=True) as reader:
                data = reader.read()
        if SECRET.encode() in data:
            found.append(str(path.relative_to(root)))
    return found


def _cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "repozero", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, **ENV, **(env or {})},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert SECRET not in proc.stdout + proc.stderr, (args, proc.stdout, proc.stderr)
    return proc


def test_redaction_keeps_names_and_hides_values() -> None:
    data = {
        "endpoints": {
            "e": {
                "headers": {"Authorization": "Bearer s1", "X-Trace": "not secret either way"},
                "headers_env": {"Authorization": "MY_TOKEN"},
                "api_key_env": "MY_KEY",
                "base_urls": ["https://u:pw@h/v1", "https://h/v1?api-version=2&key=k1", "http://h:8000/v1"],
                "extra_body": {"api_key": "k2", "max_tokens": 5, "return_token_ids": True},
                "max_tokens_field": "max_tokens",
            }
        },
        "endpoints.e.headers.Cookie": "c1",  # a sweep spec's dotted key
    }
    out = redact_data(data)
    e = out["endpoints"]["e"]
    assert e["headers"] == {"Authorization": REDACTED, "X-Trace": REDACTED}
    assert e["headers_env"] == {"Authorization": "MY_TOKEN"} and e["api_key_env"] == "MY_KEY"
    assert e["base_urls"] == [
        f"https://{REDACTED}@h/v1",
        f"https://h/v1?api-version=2&key={REDACTED}",
        "http://h:8000/v1",
    ]
    assert e["extra_body"] == {"api_key": REDACTED, "max_tokens": 5, "return_token_ids": True}
    assert e["max_tokens_field"] == "max_tokens"
    assert out["endpoints.e.headers.Cookie"] == REDACTED
    assert redact_url("tcp://docker:2375") == "tcp://docker:2375"


def test_spec_text_kept_unless_it_holds_a_secret() -> None:
    plain = '# my sweep\ndataset = "d"\n[axes]\nmodel = ["a", "b"]\n'
    assert redact_toml_text(plain) == plain
    text = (
        f'dataset = "d"\n[axes]\nmodel = ["a"]\n[infra]\n"endpoints.a.headers.Authorization" = "{SECRET}"\n'
    )
    exclude = {"model": "a"}
    text += '[[exclude]]\nmodel = "a"\n'
    out = redact_toml_text(text)
    assert SECRET not in out
    assert tomllib.loads(out) == {
        "dataset": "d",
        "axes": {"model": ["a"]},
        "infra": {"endpoints.a.headers.Authorization": REDACTED},
        "exclude": [exclude],
    }


def test_config_show_text_and_json_redact_every_secret(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    text = _cli("config", "show", "--config", str(path), *SET).stdout
    shown = _cli("config", "show", "--config", str(path), *SET, "--json").stdout
    for data in (tomllib.loads(text)["endpoints"]["other"], json.loads(shown)["endpoints"]["other"]):
        assert data["headers"] == {"X-Api-Key": REDACTED, "Authorization": REDACTED, "Cookie": REDACTED}
        assert data["headers_env"] == {"X-Other": "RZ_PLANTED_HEADER"}
        assert data["extra_body"] == {"api_key": REDACTED, "nested": {"access_token": REDACTED}}
    config = load_config(path, [s.removeprefix("--set=") for s in SET])
    assert SECRET not in config_to_toml(config) and SECRET not in json.dumps(config_data(config))
    assert (
        config.endpoints["other"].headers["Cookie"] == f"session={SECRET}-set"
    )  # the config itself keeps it


@pytest.mark.anyio
async def test_headers_env_is_sent_and_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = f"Bearer {SECRET}-sent"
    monkeypatch.setenv("RZ_TEST_HEADER", secret)
    with anyio.fail_after(10), structlog.testing.capture_logs() as logs:
        async with lb.serve() as server:
            base = server.url.replace("http://", f"http://me:{SECRET}-userinfo@") + "/v1"
            config = lb.endpoint(
                base, headers_env={"Authorization": "RZ_TEST_HEADER"}, headers={"X-Plain": "v"}, max_retries=1
            )
            async with open_models({"e": config}) as models:
                server.faults = ["500"]
                response = await models.session("e").complete([Message(role="user", content="hi")])
    assert all(seen.headers["Authorization"] == secret for seen in server.seen)
    assert all(seen.headers["X-Plain"] == "v" for seen in server.seen)
    assert logs and SECRET not in repr(logs)  # the retry's log names the replica, redacted
    assert SECRET not in msgspec.json.encode(response).decode() and REDACTED in response.replica


@pytest.mark.anyio
async def test_missing_headers_env_variable_is_a_config_error_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("RZ_TEST_ABSENT", raising=False)
    config = lb.endpoint("http://127.0.0.1:9/v1", headers_env={"Authorization": "RZ_TEST_ABSENT"})
    async with open_models({"e": config}) as models:
        with pytest.raises(ConfigError, match=r"endpoints\.e\.headers_env\.Authorization.*RZ_TEST_ABSENT"):
            models.session("e")


def test_ray_job_carries_references_and_the_runner_env_the_values(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    from repozero.orchestrator.engine.manifest import RunManifest
    from repozero.orchestrator.engine.spec import RunSpec
    from repozero.orchestrator.ray_executor.cluster import job_payload, runner_env
    from repozero.orchestrator.ray_executor.secret_env import from_env
    from repozero.orchestrator.ray_executor.units import CellJob, decode

    path = tmp_path / "c.toml"
    path.write_text(CONFIG)
    config = load_config(path, [s.removeprefix("--set=") for s in SET])
    spec = RunSpec.from_config(config, dataset="builtin:py2js-lite", model="other")
    manifest = RunManifest(
        run_id="r",
        created_at=0.0,
        dataset_name="d",
        dataset_path="d",
        dataset_hash="h",
        samples=[],
        model="other",
        scaffold="bash",
        ace_rounds=0,
        attempts=1,
        protocol={},
        grader_version="1",
        config=config_data(config),
        config_hash="",
    )
    job = CellJob(key="", run_dir=str(tmp_path), config=config, spec=spec, manifest=manifest)
    payload, env = job_payload([job, job], 2)
    assert SECRET not in payload.decode("latin-1")
    assert len(env) == 10 and all(SECRET in v for v in env.values())  # one variable per value, shared
    assert runner_env({"Labels": {}}, env)["runtime_env"]["env_vars"].items() >= env.items()
    shipped = decode(payload, list[CellJob])[0].config
    restored = from_env(shipped, env)
    assert restored.endpoints == config.endpoints and restored.sandbox == config.sandbox
    with pytest.raises(KeyError, match="REPOZERO_SECRET_"):
        from_env(shipped, {})


@pytest.mark.slow
def test_run_sweep_and_report_write_no_secret(tmp_path: Path) -> None:
    """`--model fake:gold` on two py2js-lite samples (local sandbox), a one-cell sweep, reports of both."""
    config = tmp_path / "c.toml"
    config.write_text(CONFIG)
    common = ["--config", str(config), *SET, "--log-level", "debug", "--log-json"]
    run = tmp_path / "run"
    summary = _cli(
        "run",
        *common,
        "--dataset",
        "builtin:py2js-lite",
        "--model",
        "fake:gold",
        "--samples",
        "roman-*",
        "--ace-rounds",
        "0",
        "--sandbox",
        "local",
        "--display",
        "plain",
        "--out",
        str(run),
        "--json",
    ).stdout
    assert json.loads(summary)["pass_rate"] == 1.0  # the planted config runs as any other
    spec = tmp_path / "spec.toml"
    spec.write_text(
        'dataset = "builtin:py2js-lite"\nsamples = ["roman-numerals"]\n\n[axes]\nmodel = ["fake:gold"]\n\n'
        f'[fixed]\n"endpoints.other.extra_body" = {{ secret = "{SECRET}-sweep-body" }}\n\n'
        f'[infra]\n"endpoints.fake.headers.Authorization" = "Bearer {SECRET}-sweep-header"\n'
        '"run.concurrency" = 2\n'
    )
    sweep = tmp_path / "sweep"
    _cli("sweep", str(spec), *common, "--out", str(sweep), "--json")
    for target, out in ((run, "report-run"), (sweep, "report-sweep")):
        _cli("report", str(target), *common, "--out", str(tmp_path / out))
    for traced in (run, *(sweep / "cells").iterdir()):
        _cli("traces", "stats", str(traced), *common)
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert any(p.name == "manifest.json" for p in written) and any(p.name.endswith(".zst") for p in written)
    assert any(p.name == "report.html" for p in written) and (sweep / "spec.toml").is_file()
    assert _leaks(tmp_path) == ["c.toml", "spec.toml"]  # only the files the user wrote hold it
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["config"]["endpoints"]["other"]["headers"]["Authorization"] == REDACTED
