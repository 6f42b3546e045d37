"""`--ray-storage s3://…` against a real S3 server: moto's standalone server (`python -m moto.server`) on a
loopback port, reached through s3fs with the endpoint and fake credentials in the standard AWS variables.

The storage functions (check, upload, download) run in this process against the server; one run on a
local Ray cluster (tests/ray_fixtures.py, one worker node: the two-node shards are test_ray.py's) shows the
nodes reach the same store with the driver's settings. Real AWS is not exercised (docs/ray.md).
"""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3  # scripts/setup.d/47-s3.sh installs it, s3fs and moto's server
import pytest
import s3fs

from repozero.cli import main
from repozero.orchestrator.ray_executor.storage import check_storage, download, upload
from repozero.traces import TraceReader

pytestmark = pytest.mark.timeout(600)

RAY_WORKERS = 1
"""The `cluster` fixture's worker nodes for this module (tests/ray_fixtures.py)."""

KEY, SECRET = "rz-test-key", "rz-test-secret"


@pytest.fixture(scope="module")
def s3_endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """moto's S3 server on a free loopback port (it prints the port it bound), stopped at the end."""
    log_path = tmp_path_factory.mktemp("moto") / "server.log"
    with log_path.open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", "0"],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while not (found := re.search(r"Running on (http://127\.0\.0\.1:\d+)", log_path.read_text())):
            assert server.poll() is None, log_path.read_text()
            assert time.monotonic() < deadline, f"moto server did not start: {log_path.read_text()}"
            time.sleep(0.1)
        yield found.group(1)
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


@pytest.fixture
def bucket(s3_endpoint: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A new bucket, and this process's environment pointing s3fs at the server (as a user's would)."""
    for name, value in {
        "AWS_ENDPOINT_URL": s3_endpoint,
        "AWS_ACCESS_KEY_ID": KEY,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_EC2_METADATA_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)
    s3fs.S3FileSystem.clear_instance_cache()  # one made under another test's environment is not reused
    name = f"rz-{secrets.token_hex(4)}"
    _client(s3_endpoint).create_bucket(Bucket=name)
    return name


def _client(endpoint: str) -> Any:
    """boto3 straight to the server: the bucket as S3 holds it, not as storage.py reads it back."""
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id=KEY,
        aws_secret_access_key=SECRET,
        region_name="us-east-1",
    )


def _keys(endpoint: str, bucket: str, prefix: str) -> set[str]:
    pages = _client(endpoint).get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
    return {o["Key"][len(prefix) :] for page in pages for o in page.get("Contents", [])}


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def test_a_run_tree_goes_up_to_s3_and_comes_back_byte_identical(
    s3_endpoint: str, bucket: str, tmp_path: Path
) -> None:
    url = f"s3://{bucket}/runs/r1"
    check_storage(url)
    check_storage(f"s3://{bucket}-made/runs/r1")  # a bucket that is not there yet is made
    _client(s3_endpoint).head_bucket(Bucket=f"{bucket}-made")  # a ClientError (404) were it not there
    scratch = tmp_path / "scratch"
    tree = {
        "traces/shards/node-a-1-abc.jsonl": b'{"event": "episode_started"}\n' * 50,
        "nodes/node-a/targets/base58-check/0/out.bin": bytes(range(256)) * 64 + os.urandom(1000),
        "nodes/node-a/targets/base58-check/0/deep/er/still.js": "const x = 'é';\n".encode(),
        "nodes/node-a/empty.log": b"",
        "run.lock": b"12345",
        "nodes/node-a/run.lock": b"12345",
    }
    for rel, data in tree.items():
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        (scratch / rel).write_bytes(data)
    expected = {rel: data for rel, data in tree.items() if not rel.endswith("run.lock")}
    assert upload(scratch, url) == len(expected)
    assert not scratch.exists()  # the scratch copy is dropped once it is up
    assert _keys(s3_endpoint, bucket, "runs/r1/") == set(expected)  # no lock, no folder markers
    fetched = tmp_path / "fetched"
    assert download(url, fetched) == len(expected)
    assert _files(fetched) == expected
    assert download(f"s3://{bucket}/runs/nothing-here", tmp_path / "none") == 0


def test_an_s3_url_without_credentials_is_a_usage_error_naming_the_flag(
    s3_endpoint: str, bucket: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env |= {  # the endpoint, and nowhere to find credentials (no files, no instance metadata)
        "AWS_ENDPOINT_URL": s3_endpoint,
        "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "no-credentials"),
        "AWS_CONFIG_FILE": str(tmp_path / "no-config"),
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    url = f"s3://{bucket}/runs/r1"
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", "builtin:py2js-lite", "--model", "fake:gold"]
    cmd += ["--executor", "ray", "--ray-address", "127.0.0.1:1", "--ray-storage", url]
    cmd += ["--out", str(tmp_path / "run")]
    bad = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert bad.returncode == 2, bad.stderr[-2000:]
    assert f"--ray-storage {url}: not a usable fsspec location (NoCredentialsError" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "run").exists()  # checked before anything


FSSPEC_ONLY = """\
import sys
from pathlib import Path
from repozero.orchestrator.ray_executor.storage import check_storage, storage_env, upload
check_storage(sys.argv[1])
print(upload(Path(sys.argv[2]), sys.argv[1]), sorted(storage_env()))
"""


def test_fsspec_config_variables_alone_reach_the_store_and_go_to_the_nodes(
    s3_endpoint: str, bucket: str, tmp_path: Path
) -> None:
    # fsspec reads FSSPEC_<PROTOCOL>_<ARG> when it is imported, so a fresh process: no AWS_* variable at
    # all, the endpoint and the credentials as s3fs's own arguments (endpoint_url, key, secret)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "FSSPEC_"))}
    env |= {
        "FSSPEC_S3_ENDPOINT_URL": s3_endpoint,
        "FSSPEC_S3_KEY": KEY,
        "FSSPEC_S3_SECRET": SECRET,
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    (tmp_path / "run" / "traces").mkdir(parents=True)
    (tmp_path / "run" / "traces" / "shard.jsonl").write_bytes(b"{}\n")
    url = f"s3://{bucket}/runs/fsspec"
    done = subprocess.run(
        [sys.executable, "-c", FSSPEC_ONLY, url, str(tmp_path / "run")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    forwarded = ["FSSPEC_S3_ENDPOINT_URL", "FSSPEC_S3_KEY", "FSSPEC_S3_SECRET"]
    # the last line (structlog's default logger prints to stdout before it): one file up; those three
    # for the nodes (not AWS_EC2_METADATA_DISABLED: only the storage settings are passed on)
    assert done.stdout.splitlines()[-1] == f"1 {forwarded}"
    assert _keys(s3_endpoint, bucket, "runs/fsspec/") == {"traces/shard.jsonl"}


@pytest.mark.slow
def test_a_ray_run_through_s3_brings_its_traces_and_targets_back(
    cluster: Any, s3_endpoint: str, bucket: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cluster (module scope) was started before `bucket` set the AWS variables here: its node has
    # none of them, and reaches the server only with what the driver passes to its runner. The driver is
    # `repozero run` in a process of its own, as a user starts it (this environment, the AWS variables in).
    out, url = tmp_path / "run", f"s3://{bucket}/runs/r1"
    cmd = [sys.executable, "-m", "repozero", "run", "--dataset", "builtin:py2js-lite", "--model", "fake:gold"]
    cmd += ["--ace-rounds", "0", "--samples", "base58-check", "--attempts", "1", "--display", "off"]
    cmd += ["--executor", "ray", "--ray-address", cluster.address, "--ray-storage", url, "--out", str(out)]
    driver = subprocess.run(cmd, capture_output=True, text=True, timeout=500)
    assert driver.returncode == 0, driver.stderr[-3000:]
    assert "ray_node_close_failed" not in driver.stderr and "ray_storage_fetch_failed" not in driver.stderr
    stored = _keys(s3_endpoint, bucket, "runs/r1/")
    assert any(k.startswith("traces/") for k in stored) and any("/targets/" in k for k in stored)
    assert stored <= set(_files(out))  # every object the node put up came back into the run directory
    finished = {e.episode_id for e in TraceReader(out / "traces").finished_episodes()}
    assert len(finished) == 1
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "fake:gold" in report and "100.0%" in report, report
