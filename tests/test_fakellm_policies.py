"""Each scripted policy drives a conversation to its expected end, in both API shapes and both scaffolds.

The test plays the agent scaffold: it sends requests to a real loopback server, executes nothing, records
the files the agent writes (heredocs, `file_editor` calls) in a dict, and feeds back plausible observations.
"""

from __future__ import annotations

import base64
import json
import re
import shlex
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

from repozero.agents.fakellm import start_fake_server
from repozero.agents.fakellm.material import SampleShelf, read_tree
from repozero.datasets import load_dataset

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
WORKDIR = "/home/agent/repo"
SUBMIT = "echo REPOZERO_SUBMIT"
TOOLS = {
    "execute_bash": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
    "file_editor": {
        "type": "object",
        "properties": {
            "command": {"enum": ["view", "create", "str_replace", "insert"]},
            "path": {"type": "string"},
            "file_text": {"type": "string"},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"},
        },
        "required": ["command", "path"],
    },
    "finish": {"type": "object", "properties": {"message": {"type": "string"}}},
    "propose_inputs": {"type": "object", "properties": {"inputs": {"type": "array"}}, "required": ["inputs"]},
}
_HEREDOC = re.compile(r"^(?:mkdir -p \S+ && )?(cat|base64 -d) > (\S+) <<'(\w+)'\n(.*?)\n\3$", re.S | re.M)


def apply_command(tree: dict[str, bytes], command: str) -> str:
    """Record what a command written by the scripted agent does to files; return a plausible output."""
    if command.startswith("pwd"):
        listing = "\n".join(f"-rw-r--r-- 1 agent agent {len(v)} {k}" for k, v in sorted(tree.items()))
        return f"{WORKDIR}\ntotal {len(tree)}\n{listing}\n"
    for tool, path, _, body in _HEREDOC.findall(command):
        data = (body + "\n").encode()
        tree[shlex.split(path)[0]] = base64.b64decode(data) if tool == "base64 -d" else data
    for path in re.findall(r"^truncate -s -1 (\S+)$", command, re.M):
        tree[shlex.split(path)[0]] = tree[shlex.split(path)[0]][:-1]
    for path in re.findall(r"^rm -f (\S+)$", command, re.M):
        tree.pop(shlex.split(path)[0], None)
    return "[exit 0]\n"


class Agent:
    """The scaffold side of one conversation, in one API shape and one scaffold."""

    def __init__(self, client: httpx.AsyncClient, api: str, scaffold: str, sample: str, role: str = "coder"):
        self.client, self.api, self.scaffold, self.role = client, api, scaffold, role
        self.header = f"<!-- repozero: sample={sample} role={role} scaffold={scaffold} -->"
        self.messages: list[dict[str, Any]] = []
        self.system = "You are a careful engineer."
        self.tree: dict[str, bytes] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.submitted = 0
        self.proposals: list[list[dict[str, Any]]] = []
        self.last: dict[str, Any] = {}
        names = ["execute_bash", "file_editor", "finish"] + (["propose_inputs"] if role == "tester" else [])
        self.tools = {n: TOOLS[n] for n in names} if scaffold == "tools" else {}

    def say(self, text: str) -> None:
        self.messages.append({"role": "user", "content": text})

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"model": "fake", "messages": list(self.messages), "max_tokens": 4096}
        if self.api == "openai":
            body["messages"] = [{"role": "system", "content": self.system}, *self.messages]
            if self.tools:
                body["tools"] = [
                    {"type": "function", "function": {"name": n, "description": n, "parameters": p}}
                    for n, p in self.tools.items()
                ]
        else:
            body["system"] = self.system
            if self.tools:
                body["tools"] = [
                    {"name": n, "description": n, "input_schema": p} for n, p in self.tools.items()
                ]
        return body

    async def turn(self) -> None:
        path = "/v1/chat/completions" if self.api == "openai" else "/v1/messages"
        response = await self.client.post(path, json=self.body())
        assert response.status_code == 200, response.text
        self.last = response.json()
        text, calls = self._read(self.last)
        if calls:
            self._observe([self._tool(name, args) for _, name, args in calls], [c[0] for c in calls])
        else:
            self.say(self._text(text))

    def _read(self, body: dict[str, Any]) -> tuple[str, list[tuple[str, str, dict[str, Any]]]]:
        if self.api == "openai":
            message = body["choices"][0]["message"]
            self.messages.append({k: v for k, v in message.items() if k in ("role", "content", "tool_calls")})
            calls = [
                (c["id"], c["function"]["name"], json.loads(c["function"]["arguments"]))
                for c in message.get("tool_calls") or []
            ]
            return message["content"] or "", calls
        self.messages.append({"role": "assistant", "content": body["content"]})
        text = "".join(b["text"] for b in body["content"] if b["type"] == "text")
        return text, [(b["id"], b["name"], b["input"]) for b in body["content"] if b["type"] == "tool_use"]

    def _observe(self, outputs: list[str], ids: list[str]) -> None:
        if self.api == "openai":
            self.messages += [
                {"role": "tool", "tool_call_id": i, "content": o} for i, o in zip(ids, outputs, strict=True)
            ]
        else:
            blocks = [
                {"type": "tool_result", "tool_use_id": i, "content": o}
                for i, o in zip(ids, outputs, strict=True)
            ]
            self.messages.append({"role": "user", "content": blocks})

    def _text(self, text: str) -> str:
        blocks = re.findall(r"```(bash|json)\n(.*?)\n```", text, re.S)
        assert len(blocks) == 1, text
        kind, content = blocks[0]
        if kind == "json":
            self.proposals.append(json.loads(content)["inputs"])
            return "Inputs received."
        if content == SUBMIT:
            self.submitted += 1
            return "Submitted."
        return apply_command(self.tree, content)

    def _tool(self, name: str, args: dict[str, Any]) -> str:
        self.calls.append((name, args))
        if name == "execute_bash":
            return apply_command(self.tree, args["command"])
        if name == "finish":
            self.submitted += 1
            return "Finished."
        if name == "propose_inputs":
            self.proposals.append(args["inputs"])
            return "Accepted all inputs."
        path = args["path"].removeprefix(WORKDIR + "/")
        if args["command"] == "create":
            self.tree[path] = args["file_text"].encode()
        else:
            text = self.tree[path].decode()
            assert text.count(args["old_str"]) == 1, args
            self.tree[path] = text.replace(args["old_str"], args["new_str"]).encode()
        return "File edited."

    async def run_until_submitted(self, times: int = 1, limit: int = 30) -> int:
        """Turns taken until the agent has submitted `times` times in total."""
        for n in range(1, limit + 1):
            await self.turn()
            if self.submitted >= times:
                return n
        raise AssertionError(f"no submission within {limit} turns")


@pytest.fixture
def shelf() -> SampleShelf:
    return SampleShelf(load_dataset(FIXTURE))


@asynccontextmanager
async def serve(policy: str, dataset: Any = FIXTURE, **settings: Any) -> AsyncIterator[httpx.AsyncClient]:
    async with start_fake_server(policy, dataset, **settings) as url:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            yield client


@pytest.fixture
async def client(request: pytest.FixtureRequest) -> AsyncIterator[httpx.AsyncClient]:
    async with serve(request.param) as c:
        yield c


SHAPES = [("openai", "bash"), ("openai", "tools"), ("anthropic", "bash"), ("anthropic", "tools")]
BOTH = pytest.mark.parametrize(("api", "scaffold"), SHAPES)


def task(agent: Agent) -> None:
    agent.say(f"{agent.header}\n# Task: re-implement the package.\n")


@pytest.mark.anyio
@BOTH
@pytest.mark.parametrize("sample", ["fx-slug", "fx-stats"])
@pytest.mark.parametrize("client", ["gold"], indirect=True)
async def test_gold_writes_the_reference_then_submits(client, api, scaffold, sample, shelf) -> None:
    agent = Agent(client, api, scaffold, sample)
    task(agent)
    with anyio.fail_after(20):
        turns = await agent.run_until_submitted()
    material = shelf.get(sample)
    assert agent.tree == material.gold
    assert turns == 1 + len(material.gold) + 2  # look, one file per step, run the cases, submit
    if scaffold == "tools":
        names = [n for n, _ in agent.calls]
        assert names[0] == "execute_bash" and names[-1] == "finish"
        creates = [a for n, a in agent.calls if n == "file_editor"] + [
            a for n, a in agent.calls if n == "execute_bash" and "<<'RZEOF'" in a["command"]
        ]
        assert len(creates) == len(material.gold)
        assert all(a["path"].startswith(WORKDIR + "/") for n, a in agent.calls if n == "file_editor")


@pytest.mark.anyio
@BOTH
@pytest.mark.parametrize("sample", ["fx-slug", "fx-stats"])
@pytest.mark.parametrize("client", ["buggy-then-fix"], indirect=True)
async def test_buggy_then_fix_writes_the_bug_and_fixes_it_after_feedback(
    client, api, scaffold, sample, shelf
):
    agent = Agent(client, api, scaffold, sample)
    task(agent)
    material = shelf.get(sample)
    with anyio.fail_after(20):
        await agent.run_until_submitted()
        assert agent.tree == material.buggy != material.gold
        agent.say("<!-- repozero: feedback failing=0 -->\nAll cases pass.")
        await agent.run_until_submitted(2)
        assert agent.tree == material.buggy, "feedback with no failing case must not trigger the fix"
        agent.say("<!-- repozero: feedback failing=2 -->\nYour repository was run on 9 cases. 2 failed.")
        await agent.run_until_submitted(3)
    assert agent.tree == material.gold
    if scaffold == "tools" and sample == "fx-slug":
        assert any(a.get("command") == "str_replace" for n, a in agent.calls if n == "file_editor")


@pytest.mark.anyio
@BOTH
@pytest.mark.parametrize("client", ["never"], indirect=True)
async def test_never_keeps_the_bug_and_submits_again(client, api, scaffold, shelf) -> None:
    agent = Agent(client, api, scaffold, "fx-slug")
    task(agent)
    with anyio.fail_after(20):
        await agent.run_until_submitted()
        written = len(agent.calls)
        for round_ in range(2, 4):
            agent.say("<!-- repozero: feedback failing=3 -->\n3 cases failed.")
            assert await agent.run_until_submitted(round_) == 3  # look, run the cases, submit
    assert agent.tree == shelf.get("fx-slug").buggy
    assert not any(n == "file_editor" for n, _ in agent.calls[written:])


@pytest.mark.anyio
@BOTH
@pytest.mark.parametrize("client", ["tester", "gold", "never", "buggy-then-fix"], indirect=True)
async def test_every_policy_answers_a_tester_with_the_sample_tester_inputs(client, api, scaffold, shelf):
    agent = Agent(client, api, scaffold, "fx-stats", role="tester")
    agent.say(f"{agent.header}\nPropose 3 inputs.")
    with anyio.fail_after(10):
        await agent.turn()
    assert agent.proposals == [shelf.get("fx-stats").tester_inputs]
    if scaffold == "tools":
        assert agent.calls[0][0] == "propose_inputs"
        await agent.turn()
        assert agent.calls[-1][0] == "finish"


@pytest.mark.anyio
async def test_mix_picks_a_policy_per_sample_glob(shelf) -> None:
    async with serve("mix:never@*stats, gold@fx-*") as client:
        for sample, tree in [("fx-stats", "buggy"), ("fx-slug", "gold")]:
            agent = Agent(client, "openai", "bash", sample)
            task(agent)
            with anyio.fail_after(10):
                await agent.run_until_submitted()
            assert agent.tree == getattr(shelf.get(sample), tree)


@pytest.mark.anyio
async def test_mix_without_a_matching_glob_is_an_error_naming_the_sample() -> None:
    async with serve("mix:gold@nothing-*") as client:
        body = {
            "messages": [
                {"role": "user", "content": "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->"}
            ]
        }
        response = await client.post("/v1/chat/completions", json=body)
        assert response.status_code == 400
        assert "fx-slug" in response.json()["error"]["message"]


@pytest.mark.anyio
@pytest.mark.parametrize("api", ["openai", "anthropic"])
async def test_replay_answers_by_role_and_step(tmp_path: Path, api: str, shelf) -> None:
    book = tmp_path / "replay.jsonl"
    lines = [
        "# a recorded coder session",
        {"role": "coder", "step": 0, "content": "THOUGHT: look\n\n```bash\nls\n```"},
        {
            "role": "coder",
            "step": 1,
            "sample": "fx-*",
            "scaffold": "bash",
            "content": f"```bash\n{SUBMIT}\n```",
        },
        {"role": "coder", "step": 0, "scaffold": "tools", "content": "x", "tool_calls": [{"name": "finish"}]},
    ]
    book.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    async with serve(f"replay:{book}") as client:
        agent = Agent(client, api, "bash", "fx-slug")
        task(agent)
        assert await agent.run_until_submitted() == 2
        assert agent.tree == {}
        tester = Agent(client, api, "bash", "fx-slug", role="tester")
        tester.say(tester.header)
        await tester.turn()  # no recording for the tester: it proposes the sample's inputs
        assert tester.proposals == [shelf.get("fx-slug").tester_inputs]
        agent = Agent(client, api, "bash", "other-sample")
        task(agent)
        await agent.turn()
        response = await client.post("/v1/chat/completions", json=agent.body())
        assert response.status_code == 400 and "step=1" in response.text


@pytest.mark.anyio
@pytest.mark.parametrize("scaffold", ["bash", "tools"])
@pytest.mark.parametrize("client", ["buggy-then-fix"], indirect=True)
async def test_a_fresh_session_that_opens_with_feedback_writes_the_fixed_tree(
    client, scaffold, shelf
) -> None:
    agent = Agent(client, "openai", scaffold, "fx-slug")
    agent.tree = dict(shelf.get("fx-slug").buggy)  # the earlier session's files are still there
    agent.say(f"{agent.header}\n# Task\n\n<!-- repozero: feedback failing=1 -->\n1 case failed.")
    with anyio.fail_after(10):
        await agent.run_until_submitted()
    assert agent.tree == shelf.get("fx-slug").gold
    # files may exist: never an editor `create` over them, which an editor may refuse
    assert not any(a.get("command") == "create" for n, a in agent.calls if n == "file_editor")


@pytest.mark.anyio
@pytest.mark.parametrize("client", ["gold"], indirect=True)
async def test_a_broken_turn_does_not_advance_the_script(client) -> None:
    agent = Agent(client, "openai", "bash", "fx-slug")
    task(agent)
    await agent.turn()
    before = agent.body()
    first = (await client.post("/v1/chat/completions", json=before)).json()["choices"][0]["message"][
        "content"
    ]
    agent.messages.append(
        {"role": "assistant", "content": "THOUGHT: I will write the file.\n\n```bash\ncat > lib"}
    )
    agent.say("Your reply must contain exactly one fenced ```bash block (found 0).")
    again = (await client.post("/v1/chat/completions", json=agent.body())).json()["choices"][0]["message"][
        "content"
    ]
    assert again == first


@pytest.mark.anyio
@pytest.mark.parametrize("client", ["gold"], indirect=True)
async def test_requests_without_header_or_with_unknown_sample(client) -> None:
    plain = await client.post("/v1/chat/completions", json={"messages": [{"role": "user", "content": "hi"}]})
    assert (
        plain.status_code == 200 and "no `<!-- repozero:" in plain.json()["choices"][0]["message"]["content"]
    )
    body = {
        "messages": [{"role": "user", "content": "<!-- repozero: sample=nope role=coder scaffold=bash -->"}]
    }
    unknown = await client.post("/v1/messages", json=body)
    assert unknown.status_code == 400 and "nope" in unknown.json()["error"]["message"]
    assert (await client.post("/v1/chat/completions", content=b"{not json")).status_code == 400
    streamed = await client.post("/v1/chat/completions", json=body | {"stream": True})
    # an error before the stream begins is an ordinary JSON error, as vLLM answers it
    assert streamed.status_code == 400 and "nope" in streamed.json()["error"]["message"]


HAS_BUILTIN = (Path(__file__).parent.parent / "datasets/builtin/py2js-lite/dataset.toml").is_file()


@pytest.mark.anyio
@pytest.mark.skipif(not HAS_BUILTIN, reason="the built-in dataset py2js-lite is not in this checkout")
@pytest.mark.parametrize(("api", "scaffold"), [("openai", "bash"), ("anthropic", "tools")])
async def test_buggy_then_fix_on_every_builtin_sample(api: str, scaffold: str) -> None:
    builtin = load_dataset("builtin:py2js-lite")
    async with serve("buggy-then-fix", builtin) as client:
        for sample in builtin.samples:
            gold = read_tree(builtin.gold_dir(sample.id))
            agent = Agent(client, api, scaffold, sample.id)
            task(agent)
            with anyio.fail_after(20):
                await agent.run_until_submitted()
                assert agent.tree != gold
                agent.say("<!-- repozero: feedback failing=1 -->\n1 failed.")
                await agent.run_until_submitted(2)
            assert agent.tree == gold
