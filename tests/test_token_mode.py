"""Token-in/token-out endpoints (`prompt_format = "tokens"`) against the loopback server's completions API.

The model's own tokenizer here is the loopback server's byte tokenizer written as a Hugging Face folder
(`save_tokenizer`), so the ids the client builds are checked against the ids the server renders. What must
hold: each prompt is the previous prompt + the sampled ids + template tokens, exactly; an edited history
restarts from a whole render; where the chat mode splits a trajectory (earlier reasoning not sent back) the
token mode keeps it one exact stream.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import anyio
import httpx
import msgspec
import pytest

from repozero import RunSpec, Session, load_config
from repozero.agents.fakellm import (
    ChatMessage,
    ToolCall,
    ToolSpec,
    fake_endpoint,
    render_prompt,
    start_fake_server,
)
from repozero.agents.fakellm.hf_tokenizer import save_tokenizer
from repozero.agents.fakellm.token_prompts import chat_of_ids, encode_prompt
from repozero.agents.fakellm.tokenizer import ASSISTANT, END, USER, decode, encode
from repozero.agents.models import Message, open_models
from repozero.kernel.errors import ConfigError
from repozero.rollouts import EndpointRef, RolloutEngine
from repozero.traces import Event, ModelCall, ModelCalled

FIXTURE = Path(__file__).parent / "fixtures" / "fakellm"
HEADER = "<!-- repozero: sample=fx-slug role=coder scaffold=bash -->\nWrite the slug tool."
CHAT = [
    ChatMessage(role="system", text=HEADER),
    ChatMessage(role="user", text="Start: naïve ✓"),
    ChatMessage(
        role="assistant",
        text="Looking.",
        reasoning="first I look",
        tool_calls=[ToolCall(id="c1", name="execute_bash", arguments='{"command": "ls"}')],
    ),
    ChatMessage(role="tool", text="a.txt\n"),
]
TOOLS = [
    ToolSpec(name="execute_bash", description="Run ü", parameters={"type": "object", "required": ["command"]})
]


@pytest.fixture(scope="module")
def tokenizer_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    yield save_tokenizer(tmp_path_factory.mktemp("tokenizer"))


def test_the_fake_tokenizer_renders_the_servers_prompt_ids(tokenizer_dir: Path) -> None:
    from transformers import AutoTokenizer

    tok = AutoTokenizer.from_pretrained(tokenizer_dir, local_files_only=True)
    messages = [
        {
            "role": m.role,
            "content": m.text,
            **({"reasoning_content": m.reasoning} if m.reasoning else {}),
            **(
                {
                    "tool_calls": [
                        {"function": {"name": c.name, "arguments": c.arguments}} for c in m.tool_calls
                    ]
                }
                if m.tool_calls
                else {}
            ),
        }
        for m in CHAT
    ]
    tools = [{"type": "function", "function": msgspec.structs.asdict(t)} for t in TOOLS]
    text = tok.apply_chat_template(messages, tools=tools, add_generation_prompt=True, tokenize=False)
    assert tok(text, add_special_tokens=False)["input_ids"] == render_prompt(CHAT, TOOLS)
    assert tok.decode([*encode("héllo ✓"), END], skip_special_tokens=True) == "héllo ✓"
    assert (len(tok), tok.eos_token_id, tok.pad_token_id) == (265, END, END)


@pytest.mark.anyio
async def test_the_completions_endpoint_answers_a_token_prompt_as_the_chat_it_spells() -> None:
    ids = render_prompt(CHAT, TOOLS)
    messages, tools = chat_of_ids(ids)
    assert tools == TOOLS
    assert [
        (m.role, m.text, m.reasoning, [(c.name, c.arguments) for c in m.tool_calls]) for m in messages
    ] == [(m.role, m.text, m.reasoning, [(c.name, c.arguments) for c in m.tool_calls]) for m in CHAT]
    assert encode_prompt(decode(ids, skip_special=False)) == ids  # a text prompt spells the same ids
    plain = render_prompt(CHAT[:2])
    async with start_fake_server("gold", str(FIXTURE)) as url, httpx.AsyncClient() as client:
        body = {"model": "m", "prompt": plain, "return_token_ids": True, "logprobs": 0, "max_tokens": 64}
        reply = (await client.post(f"{url}/v1/completions", json=body)).json()
        bare = (await client.post(f"{url}/v1/completions", json={"prompt": plain})).json()
        asked = {**body, "stream": True, "stream_options": {"include_usage": True}}
        streamed = (await client.post(f"{url}/v1/completions", json=asked)).text
        refused = [
            await client.post(f"{url}/v1/completions", json={"prompt": prompt})
            for prompt in (plain[1:], plain[:-1], [*plain[:-1], 999, ASSISTANT], [])
        ]
    choice = reply["choices"][0]
    assert reply["object"] == "text_completion" and choice["prompt_token_ids"] == plain
    assert choice["text"] == decode(choice["token_ids"]) and choice["text"].startswith("THOUGHT:")
    assert choice["token_ids"][-1] == END and choice["finish_reason"] == "stop"
    assert (
        len(choice["logprobs"]["token_logprobs"])
        == len(choice["token_ids"])
        == reply["usage"]["completion_tokens"]
    )
    assert "token_ids" not in bare["choices"][0] and bare["choices"][0]["logprobs"] is None
    # streamed as vLLM streams completions: the chunks join to the whole answer, ids and logprobs included
    events = [e.removeprefix("data: ") for e in streamed.split("\n\n") if e]
    assert events[-1] == "[DONE]" and len(events) > 3
    chunks = [json.loads(e) for e in events[:-1]]
    parts = [c["choices"][0] for c in chunks if c["choices"]]
    assert parts[0]["prompt_token_ids"] == plain and all("prompt_token_ids" not in p for p in parts[1:])
    assert "".join(p["text"] for p in parts) == choice["text"]
    assert [t for p in parts for t in p["token_ids"]] == choice["token_ids"]
    lps = [lp for p in parts for lp in p["logprobs"]["token_logprobs"]]
    assert lps == choice["logprobs"]["token_logprobs"]
    assert [p["finish_reason"] for p in parts] == [None] * (len(parts) - 1) + ["stop"]
    assert chunks[-1]["choices"] == [] and chunks[-1]["usage"] == reply["usage"]
    assert [r.status_code for r in refused] == [400] * 4
    messages_said = [r.json()["error"]["message"] for r in refused]
    assert "<|bos|>" in messages_said[0] and "<|assistant|>" in messages_said[1]
    assert "999 is out of vocabulary" in messages_said[2] and "non-empty" in messages_said[3]


@pytest.mark.anyio
async def test_a_token_session_extends_the_ids_it_sent_and_restarts_on_an_edited_history(
    tokenizer_dir: Path,
) -> None:
    with anyio.fail_after(300):
        async with start_fake_server("gold", str(FIXTURE), reasoning="reasoning") as url:
            chat = fake_endpoint(url, "gold")
            tokens = msgspec.structs.replace(chat, prompt_format="tokens", tokenizer=str(tokenizer_dir))
            async with open_models({"tok": tokens}) as models:
                session = models.session("tok")
                messages = [Message(role="system", content=HEADER), Message(role="user", content="go")]
                sent: list[list[int]] = []
                for observation in ("/work\n", "written\n", None):
                    response = await session.complete(messages)
                    assert response.timings.ttft_s is not None  # streamed (the endpoint's default)
                    assert response.token_fidelity == "exact" and response.prompt_token_ids is not None
                    assert response.completion_token_ids is not None and response.logprobs is not None
                    assert len(response.logprobs) == len(response.completion_token_ids)
                    sent.append(response.prompt_token_ids + response.completion_token_ids)
                    if observation is not None:
                        messages += [response.message, Message(role="user", content=observation)]
                assert session.tokens is not None and session.tokens.restarts == 0
                for before, after, observation in zip(sent, sent[1:], ("/work\n", "written\n"), strict=False):
                    # the sampled ids (reasoning included) stay; only the observation's turn is added
                    assert after[: len(before)] == before
                    assert after[len(before) :][: len(encode(observation)) + 2] == [
                        USER,
                        *encode(observation),
                        END,
                    ]
                assert decode(sent[0]).count("Turn 1:") == 1  # the server's reasoning is in the kept ids
                trimmed = [messages[0], *messages[3:]]  # history edited: an earlier turn left out
                response = await session.complete(trimmed)
                assert session.tokens.restarts == 1
                assert response.prompt_token_ids == render_prompt(
                    [ChatMessage(role=m.role, text=m.content) for m in trimmed]
                )
                lone = await models.endpoint("tok").complete(messages[:2])  # as `endpoints check` calls
                assert lone.prompt_token_ids == render_prompt(
                    [ChatMessage(role=m.role, text=m.content) for m in messages[:2]]
                )


async def _group(config: object, endpoint: str) -> list:
    spec = RunSpec(dataset=str(FIXTURE), model=endpoint, ace_rounds=1)
    recorder = _Recorder()
    async with Session.open(config, spec, sinks=[recorder]) as s, RolloutEngine(s) as engine:  # type: ignore[arg-type]
        group = await engine.run_group("fx-slug", 2, policy=EndpointRef(endpoint=endpoint, version=1))
    return [(t, recorder.calls) for t in group.trajectories]


class _Recorder:
    def __init__(self) -> None:
        self.calls: dict[str, ModelCall] = {}

    def emit(self, event: Event) -> None:
        if isinstance(event, ModelCalled):
            self.calls[event.call.call_id] = event.call


@pytest.mark.slow
@pytest.mark.anyio
async def test_token_mode_keeps_one_exact_stream_where_chat_mode_splits(tokenizer_dir: Path) -> None:
    """The server gives reasoning; the chat endpoint does not send it back (as many chat templates drop
    earlier reasoning), so every chat prompt fails to extend the last one. The token endpoint keeps the
    sampled ids: the coder's conversation is one segment across both ACE rounds, call by call the ids
    the server saw."""
    with anyio.fail_after(600):
        async with start_fake_server("buggy-then-fix", str(FIXTURE), reasoning="reasoning") as url:
            chat = msgspec.structs.replace(fake_endpoint(url, "buggy-then-fix"), reasoning_history="drop")
            tokens = msgspec.structs.replace(chat, prompt_format="tokens", tokenizer=str(tokenizer_dir))
            config = msgspec.structs.replace(load_config(), endpoints={"chat": chat, "tokens": tokens})
            split = await _group(config, "chat")
            whole = await _group(config, "tokens")
    for t, _ in split:
        assert t.reward == 1.0 and t.prefix_breaks == len(t.calls) - 1 > 1
    for t, calls in whole:
        assert t.reward == 1.0 and [r.hidden_passed for r in t.rounds] == [False, True]
        assert t.token_fidelity == "exact" and t.prefix_breaks == 0 and not t.segmented
        assert {c.round for c in t.calls} == {0, 1}  # the feedback turn continued the same stream
        ids = t.prompt_ids + t.response_ids
        mask = [0] * len(t.prompt_ids) + t.response_mask
        for info in t.calls:
            got = calls[info.call_id].tokens
            assert got is not None and got.prompt_ids is not None
            end = len(got.prompt_ids) + len(got.completion_ids)
            assert ids[:end] == got.prompt_ids + got.completion_ids
            assert mask[len(got.prompt_ids) : end] == [1] * len(got.completion_ids)
        assert end == len(ids)


def test_token_mode_settings_are_checked_naming_the_field(tmp_path: Path) -> None:
    from repozero.agents.models.client import EndpointClient

    base = fake_endpoint("http://127.0.0.1:9", "gold")
    for bad, field in (
        (msgspec.structs.replace(base, prompt_format="tokens"), "endpoints.x.tokenizer"),
        (
            msgspec.structs.replace(base, prompt_format="tokens", tokenizer=str(tmp_path)),
            "endpoints.x.tokenizer",
        ),
        (
            msgspec.structs.replace(base, api="anthropic", model="m", prompt_format="tokens"),
            "endpoints.x.prompt_format",
        ),
    ):
        with pytest.raises(ConfigError, match=field):
            EndpointClient("x", bad, None)  # type: ignore[arg-type]


def test_continuation_ids_keep_what_a_chatml_template_writes_after_the_turns_end_token(
    tokenizer_dir: Path,
) -> None:
    """Templates like Qwen's write `\\n` after a turn's end token: a reply that stopped on the end token
    is followed by that `\\n`; a reply cut at max_tokens gets the end token too, as template tokens."""
    from transformers import AutoTokenizer

    from repozero.agents.models.template import ChatTemplate

    tok = AutoTokenizer.from_pretrained(tokenizer_dir, local_files_only=True)
    tok.chat_template = (
        "{%- for m in messages -%}{{- '<|' + m.role + '|>' + m.content + '<|end|>\\n' -}}{%- endfor -%}"
        "{%- if add_generation_prompt -%}{{- '<|assistant|>' -}}{%- endif -%}"
    )
    template = ChatTemplate(tok)
    new = [Message(role="user", content="ok")]
    stopped = template.continuation_ids(new, [], [*encode("done"), END])
    cut = template.continuation_ids(new, [], encode("do"))
    assert stopped == [*encode("\n"), USER, *encode("ok"), END, *encode("\n"), ASSISTANT]
    assert cut == [END, *stopped]
    first = template.prompt_ids([Message(role="user", content="hi")], [])
    assert first == [USER, *encode("hi"), END, *encode("\n"), ASSISTANT]
