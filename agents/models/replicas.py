"""The base URLs of one endpoint: sessions stick to one replica, failing replicas sit out a while.

Affinity is rendezvous hashing of (session, replica): each session prefers one replica, so its
growing prompt prefix stays in that replica's cache; when a replica is ejected only its sessions move,
and they come back when it does.
"""

from __future__ import annotations

import hashlib
import itertools
import time

import httpx

from repozero.kernel.log import get_logger
from repozero.kernel.redact import redact_url

__all__ = ["Replica", "ReplicaSet"]

log = get_logger(__name__)


class Replica:
    """One base URL and its health. `url` names it wherever it is shown or recorded (logs, traces,
    `endpoints check`): credentials in the URL (user-info, `?key=`) are redacted there; `base` is the URL
    as configured, for requests only."""

    def __init__(self, url: str, path: str) -> None:
        self.base = url
        self.url = redact_url(url)
        self.target = httpx.URL(url.rstrip("/") + "/" + path)
        self.failures = 0
        self.ejected_until = 0.0

    def ejected(self, now: float) -> bool:
        return now < self.ejected_until


class ReplicaSet:
    """Picks a replica per call and ejects one after `eject_after` consecutive failures."""

    def __init__(self, endpoint: str, urls: list[str], path: str, eject_after: int, eject_s: float) -> None:
        self.endpoint = endpoint
        self.replicas = [Replica(u, path) for u in urls]
        self._eject_after = max(1, eject_after)
        self._eject_s = eject_s
        self._turn = itertools.count()

    def pick(self, session: str | None) -> Replica:
        """The session's replica among the healthy ones (round robin without a session)."""
        now = time.monotonic()
        healthy = [r for r in self.replicas if not r.ejected(now)]
        if not healthy:  # all ejected: the one back soonest
            return min(self.replicas, key=lambda r: r.ejected_until)
        if session is None:
            return healthy[next(self._turn) % len(healthy)]
        return max(healthy, key=lambda r: _weight(session, r.base))

    def failed(self, replica: Replica, reason: str) -> None:
        """A connection error, timeout or 5xx from `replica`."""
        replica.failures += 1
        if replica.failures >= self._eject_after and len(self.replicas) > 1:
            replica.ejected_until = time.monotonic() + self._eject_s
            replica.failures = 0
            log.warning(
                "model_replica_ejected",
                endpoint=self.endpoint,
                replica=replica.url,
                seconds=self._eject_s,
                reason=reason,
            )

    def succeeded(self, replica: Replica) -> None:
        replica.failures = 0


def _weight(session: str, url: str) -> bytes:
    return hashlib.blake2b(f"{session}\0{url}".encode(), digest_size=8).digest()
