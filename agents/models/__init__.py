"""Model clients: the `Model` protocol and its records, OpenAI-compatible and Anthropic endpoints."""

from repozero.agents.config import EndpointConfig, Price, SamplingParams
from repozero.agents.models.adaptive import AdaptiveLimiter
from repozero.agents.models.client import EndpointClient, ModelSession
from repozero.agents.models.errors import ModelRequestError, ModelUnavailableError
from repozero.agents.models.http import HttpPool
from repozero.agents.models.protocol import Model
from repozero.agents.models.records import (
    Choice,
    FinishReason,
    Message,
    ModelResponse,
    Timings,
    ToolCall,
    ToolSpec,
    Totals,
    Usage,
    Wait,
    make_tool_call,
)
from repozero.agents.models.registry import Models, open_models

__all__ = [
    "AdaptiveLimiter",
    "Choice",
    "EndpointClient",
    "EndpointConfig",
    "FinishReason",
    "HttpPool",
    "Message",
    "Model",
    "ModelRequestError",
    "ModelResponse",
    "ModelSession",
    "ModelUnavailableError",
    "Models",
    "Price",
    "SamplingParams",
    "Timings",
    "ToolCall",
    "ToolSpec",
    "Totals",
    "Usage",
    "Wait",
    "make_tool_call",
    "open_models",
]
