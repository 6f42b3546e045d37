"""Model failures retries cannot fix, translated from HTTP into our error tree."""

from __future__ import annotations

from repozero.kernel.errors import ConfigError, ModelError

__all__ = ["ModelConfigError", "ModelRequestError", "ModelUnavailableError"]


class ModelRequestError(ModelError):
    """The endpoint refused the request (a 4xx other than 429): retrying the same request cannot help."""

    def __init__(self, endpoint: str, status: int, detail: str) -> None:
        super().__init__(f"endpoint '{endpoint}' refused the request (HTTP {status}): {detail}")
        self.endpoint = endpoint
        self.status = status
        self.detail = detail


class ModelUnavailableError(ModelError):
    """Every attempt failed (rate limits, 5xx, dropped connections, timeouts) and retries ran out."""

    def __init__(self, endpoint: str, attempts: int, last: str) -> None:
        super().__init__(f"endpoint '{endpoint}' failed {attempts} attempts; last: {last}")
        self.endpoint = endpoint
        self.attempts = attempts
        self.last = last


class ModelConfigError(ModelRequestError, ConfigError):
    """The endpoint refused what the config asks for (a `max_tokens` above the server's limit).

    A `ModelError` to the agent that meets it (its run ends `model_error` with this message) and a
    `ConfigError` (exit 2) wherever it reaches the command line: fixing the config is the only cure.
    """

    def __init__(self, endpoint: str, detail: str) -> None:
        ModelError.__init__(self, f"endpoint '{endpoint}': {detail}")
        self.endpoint = endpoint
        self.status = 400
        self.detail = detail
