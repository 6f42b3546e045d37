"""Model failures retries cannot fix, translated from HTTP into our error tree."""

from __future__ import annotations

from repozero.errors import ModelError

__all__ = ["ModelRequestError", "ModelUnavailableError"]


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
