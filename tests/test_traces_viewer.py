"""The trace viewer's JSON API on a real loopback server: 10,000 episodes paginated and filtered, one
episode's timeline, the solve matrix, errors as messages; byte-level diffs; no hidden case leaks."""

from __future__ import annotations

import importlib.util
import random
import sys
import urllib.parse
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import httpx
import pytest

from repozero.traces import (
    EpisodeFinished,
    EpisodeRecord,
    EpisodeStarted,
    EpisodeStartRecord,
    Event,
    TraceConfig,
    TraceWriter,
)
from repozero.traces.viewer import ViewerIndex, byte_diff, running, show_bytes

from .synthetic_traces import episode_events

STATUSES = ("solved", "failed", "error")


def _load(name: str) -> ModuleType:
    """A sibling test module loaded by path (importlib mode keeps tests/ off sys.path)."""
    spec = importlib.util.spec_from_file_location(f"repozero_tests_{name}", Path(__file__).with_name(f"{name}.py"))  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _episode(i: int, run_id: str) -> list[Event]:
    """A minimal finished episode: enough for the index (the list never decodes a shard)."""
    eid, status = f"{run_id}-e{i:05d}", STATUSES[i % 3]
    ids = {"episode_id": eid, "run_id": run_id, "group_id": f"g{i // 4}", "sample": f"s{i % 50:02d}",
           "library": f"lib{i % 5}", "attempt": i // 50, "policy_model": "m", "protocol": "p"}  # fmt: skip
    return [
        EpisodeStarted(episode=EpisodeStartRecord(**ids, started_at=0.0)),
        EpisodeFinished(
            episode=EpisodeRecord(
                **ids, status=status, termination_reason="solved" if status == "solved" else "rounds_exhausted",  # type: ignore[arg-type]
                reward=(i % 10) / 10, rounds=1 + i % 3, started_at=0.0, finished_at=float(i),
            )
        ),
    ]  # fmt: skip


async def _write(root: Path, events: list[Event]) -> None:
    async with TraceWriter(root, TraceConfig(fsync=False, flush_interval_s=5.0), writer_id="w") as writer:
        for n, event in enumerate(events):
            writer.emit(event)
            if n % 1000 == 0:
                await anyio.lowlevel.checkpoint()


@pytest.fixture(scope="module")
def big_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Run A: 10,000 minimal episodes plus 3 synthetic ones with whole timelines; run B: 100 episodes."""
    base = tmp_path_factory.mktemp("viewer-big")
    rng = random.Random(1)
    a = [e for i in range(10_000) for e in _episode(i, "A")]
    a += [e for i in range(3) for e in episode_events(i, rng=rng, steps=3, run_id="full")]
    b = [e for i in range(100) for e in _episode(i, "B")]

    async def go() -> None:
        with anyio.fail_after(60):
            await _write(base / "A" / "traces", a)
            await _write(base / "B" / "traces", b)

    anyio.run(go, backend="asyncio", backend_options={"use_uvloop": True})
    return [base / "A", base / "B"]


def _client(url: str) -> httpx.AsyncClient:
    """A client of the viewer at `url` (as printed: `http://127.0.0.1:P/?token=T`), sending its token."""
    base, _, query = url.partition("?")
    return httpx.AsyncClient(base_url=base, params=dict(urllib.parse.parse_qsl(query)))


async def _get(client: httpx.AsyncClient, path: str, expect: int = 200, **params: Any) -> Any:
    response = await client.get(path, params=params)
    assert response.status_code == expect, response.text[:500]
    return response.json()


@pytest.mark.anyio
async def test_ten_thousand_episodes_paginate_and_filter(big_runs: list[Path]) -> None:
    with anyio.fail_after(60):
        async with running(ViewerIndex(big_runs)) as url, _client(url) as client:
            runs = await _get(client, "/api/runs")
            assert [(r["key"], r["run_id"], r["episodes"]) for r in runs] == [
                ("0", "A", 10_003),
                ("1", "B", 100),
            ]
            assert runs[0]["statuses"] == {"solved": 3334, "failed": 3336, "error": 3333}
            first = await _get(client, "/api/episodes", run="0")
            assert first["total"] == 10_003 and len(first["episodes"]) == 50
            last = await _get(client, "/api/episodes", run="0", offset=10_000, limit=50)
            assert len(last["episodes"]) == 3
            pages = [
                await _get(client, "/api/episodes", run="1", offset=o, limit=30) for o in (0, 30, 60, 90)
            ]
            seen = [e["episode_id"] for p in pages for e in p["episodes"]]
            assert len(seen) == len(set(seen)) == 100  # pages tile the list
            solved = await _get(client, "/api/episodes", run="0", status="solved", sample="s07", limit=500)
            assert solved["total"] == sum(1 for i in range(10_000) if i % 3 == 0 and i % 50 == 7)
            assert {(e["status"], e["sample"]) for e in solved["episodes"]} == {("solved", "s07")}
            band = await _get(client, "/api/episodes", run="1", min_reward=0.3, max_reward=0.5, rounds=2)
            assert band["total"] == sum(1 for i in range(100) if i % 10 in (3, 4, 5) and i % 3 == 1)
            top = await _get(client, "/api/episodes", run="1", sort="reward", limit=3)
            assert [e["reward"] for e in top["episodes"]] == [0.9, 0.9, 0.9]
            matrix = await _get(client, "/api/matrix")
            assert len(matrix["samples"]) == 50 + 3
            s00 = next(s for s in matrix["samples"] if s["sample"] == "s00")
            assert s00["cells"] == {
                "0": {"attempts": 200, "solved": 67, "best": 0.0},
                "1": {"attempts": 2, "solved": 1, "best": 0.0},
            }
            assert (await _get(client, "/api/episodes", 400, run="0", min_reward="high"))["error"].startswith("min_reward=")  # fmt: skip
            assert "no such run" in (await _get(client, "/api/episodes", 404, run="7"))["error"]
            assert (
                "no finished episode"
                in (await _get(client, "/api/episode", 404, run="0", id="nope"))["error"]
            )


@pytest.mark.anyio
async def test_requests_without_the_token_are_refused(big_runs: list[Path]) -> None:
    paths = ["/", "/static/viewer.js", "/api/runs", "/api/matrix", "/api/episodes?run=0", "/api/episode?run=0&id=full-ep1"]  # fmt: skip
    with anyio.fail_after(60):
        async with running(ViewerIndex(big_runs)) as url, running(ViewerIndex(big_runs[1:])) as other:
            base, _, query = url.partition("?")
            token = urllib.parse.parse_qs(query)["token"][0]
            other_token = urllib.parse.parse_qs(other.partition("?")[2])["token"][0]
            assert len(token) >= 40 and token != other_token  # random per server
            port = urllib.parse.urlsplit(base).port
            cookie = f"repozero-viewer-{port}"
            refused = [
                {},
                {"params": {"token": ""}},
                {"params": {"token": other_token}},
                {"params": {"token": token[:-1]}},
                {"headers": {"Authorization": f"token {other_token}"}},
                {"headers": {"Authorization": f"Bearer {token}"}},  # not our scheme
                {"headers": {"Cookie": f"{cookie}={other_token}"}},
                {"headers": {"Cookie": f"repozero-viewer-{port + 1}={token}"}},  # another port's cookie
            ]
            async with httpx.AsyncClient(base_url=base) as client:
                for path in paths:
                    for how in refused:
                        response = await client.get(path, **how)
                        assert response.status_code == 403, (path, how)
                        assert "full-ep1" not in response.text and "viewer.js" not in response.text
                for path in paths:  # the same requests with the token: query, header, or the page's cookie
                    with_token = f"{path}{'&' if '?' in path else '?'}token={token}"
                    assert (await client.get(with_token)).status_code == 200, path
                    assert (
                        await client.get(path, headers={"Authorization": f"token {token}"})
                    ).status_code == 200
            async with httpx.AsyncClient(base_url=base) as browser:
                page = await browser.get(url)  # the printed URL sets the cookie the page's requests carry
                assert page.status_code == 200 and "HttpOnly" in page.headers["set-cookie"]
                assert "SameSite=Strict" in page.headers["set-cookie"]
                assert (await browser.get("/api/runs")).status_code == 200
                assert (await browser.get("/static/viewer.js")).status_code == 200


@pytest.mark.anyio
async def test_one_episode_and_the_page_itself(big_runs: list[Path]) -> None:
    with anyio.fail_after(60):
        async with running(ViewerIndex(big_runs)) as url, _client(url) as client:
            episode = await _get(client, "/api/episode", run="0", id="full-ep1")
            assert episode["episode"]["episode_id"] == "full-ep1"
            (round0,) = episode["rounds"]
            kinds = [e["kind"] for e in round0["events"]]
            assert kinds == ["model_call", "command"] * 3 + ["failed_call", "agent_end"]
            calls = [e for e in round0["events"] if e["kind"] == "model_call"]
            assert [c["messages_shared"] for c in calls] == [0, 3, 5]  # each call shows only what is new
            assert [len(c["new_messages"]) for c in calls] == [2, 1, 1]
            assert [c["case_id"] for c in round0["hidden_cases"]] == [f"h{i}" for i in range(10)]
            assert set(round0["hidden_cases"][0]) == {"case_id", "status"}
            page = await client.get("/")
            assert page.status_code == 200 and '<script src="/static/viewer.js">' in page.text
            js = await client.get("/static/viewer.js")
            assert js.status_code == 200 and js.headers["content-type"].startswith("text/javascript")
            assert (await client.get("/static/../server.py")).status_code == 404


@pytest.mark.anyio
async def test_a_real_run_shows_diffs_and_no_hidden_case(tmp_path_factory: pytest.TempPathFactory) -> None:
    helper = _load("test_traces_export_run")
    run_dir = helper.canary_run(tmp_path_factory.getbasetemp())
    with anyio.fail_after(60):
        async with running(ViewerIndex([run_dir])) as url, _client(url) as client:
            texts = [(await client.get(p)).text for p in ("/api/runs", "/api/matrix", "/api/episodes?run=0")]
            episodes = {}
            for e in (await _get(client, "/api/episodes", run="0"))["episodes"]:
                response = await client.get("/api/episode", params={"run": "0", "id": e["episode_id"]})
                texts.append(response.text)
                episodes[e["episode_id"]] = response.json()
    everything = "\n".join(texts)
    assert helper.CANARY not in everything and helper.CANARY.lower() not in everything
    first, second = episodes["fx-slug--a0"]["rounds"]
    assert {"case_id": "canary", "status": "wrong_output"} in first["hidden_cases"]  # id and status only
    assert {"case_id": "canary", "status": "pass"} in second["hidden_cases"]
    failing = [c for c in first["visible_cases"] if c["status"] != "pass"]
    assert failing and all(c["diff"]["rows"] and not c["diff"]["equal"] for c in failing)
    assert all(c["diff"] is None for c in second["visible_cases"])  # all pass after the fix


def test_byte_diff_shows_what_text_diffs_hide() -> None:
    d = byte_diff(b"a\nb\n", b"a\r\nb")
    assert d["first_difference"] == 1 and (d["expected_bytes"], d["actual_bytes"]) == (4, 4)
    rows = [(r["op"], "".join(t for t, _ in r["segments"])) for r in d["rows"]]
    assert rows == [("delete", "a⏎"), ("delete", "b⏎"), ("insert", "a\\r⏎"), ("insert", "b")]
    changed = [t for r in d["rows"] for t, c in r["segments"] if c]
    assert changed == ["⏎", "\\r"]  # b's missing newline, then a's extra CR
    assert show_bytes(b"caf\xc3\xa9 \xff\x00\t\xc2\xa0") == "café \\xff\\x00⇥\\u00a0"
    assert byte_diff(b"same\n", b"same\n")["equal"] is True


def test_byte_diff_windows_long_outputs_around_the_first_difference() -> None:
    expected = b"".join(b"line %d\n" % i for i in range(5000))
    actual = expected.replace(b"line 4000\n", b"line 4000 \n")
    d = byte_diff(expected, actual)
    assert d["truncated"] and d["rows"][0] == {"op": "skip", "lines": 3997}
    changed = [r for r in d["rows"] if r["op"] in ("delete", "insert")]
    assert [(r["op"], r["segments"]) for r in changed] == [
        ("delete", [["line 4000", False], ["⏎", False]]),
        ("insert", [["line 4000", False], [" ", True], ["⏎", False]]),
    ]
    assert sum(1 for r in d["rows"] if r["op"] == "equal") <= 2 * 3 + 3
