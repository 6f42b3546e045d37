"""A loopback model server with scripted policies, for demos, tests and benchmarks (no real model)."""

from repozero.agents.fakellm.chat import ChatMessage, ChatRequest, Header, Reply, ToolCall, ToolSpec
from repozero.agents.fakellm.config import DEFAULT_DATASET, FakeLLMConfig, fake_endpoint, fake_policy
from repozero.agents.fakellm.faults import FAULT_KINDS
from repozero.agents.fakellm.patch import PatchError, apply_patch
from repozero.agents.fakellm.policies import POLICY_NAMES, parse_policy
from repozero.agents.fakellm.server import FakeServer, start_fake_server
from repozero.agents.fakellm.tokenizer import decode, encode, render_completion, render_prompt

__all__ = [
    "DEFAULT_DATASET",
    "FAULT_KINDS",
    "POLICY_NAMES",
    "ChatMessage",
    "ChatRequest",
    "FakeLLMConfig",
    "FakeServer",
    "Header",
    "PatchError",
    "Reply",
    "ToolCall",
    "ToolSpec",
    "apply_patch",
    "decode",
    "encode",
    "fake_endpoint",
    "fake_policy",
    "parse_policy",
    "render_completion",
    "render_prompt",
    "start_fake_server",
]
