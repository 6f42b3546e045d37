"""Bounded output buffers: a command may print gigabytes; we keep a capped part and say where we cut."""

from __future__ import annotations

__all__ = ["HeadCapture", "HeadTailCapture", "cut_marker"]


def cut_marker(kept: int, total: int | None = None) -> bytes:
    """The line appended where output was cut (`total` when known)."""
    if total is None:
        return f"\n[repozero: output truncated after {kept} bytes]\n".encode()
    return f"\n[repozero: output truncated: {total - kept} of {total} bytes omitted]\n".encode()


class HeadCapture:
    """Keeps the first `cap` bytes; `full` says when the caller may stop reading."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._buf = bytearray()
        self.truncated = False

    @property
    def full(self) -> bool:
        return self.truncated

    def feed(self, data: bytes) -> None:
        room = self.cap - len(self._buf)
        if len(data) > room:
            self.truncated = True
            data = data[: max(room, 0)]
        self._buf += data

    def value(self, *, mark: bool = True) -> bytes:
        if self.truncated and mark:
            return bytes(self._buf) + cut_marker(len(self._buf))
        return bytes(self._buf)


class HeadTailCapture:
    """Keeps the first and last `cap // 2` bytes (errors tend to be at the end) and counts the rest."""

    def __init__(self, cap: int) -> None:
        self.half = max(cap // 2, 1)
        self._head = bytearray()
        self._tail = bytearray()
        self.total = 0

    @property
    def truncated(self) -> bool:
        return self.total > 2 * self.half

    def feed(self, data: bytes) -> None:
        self.total += len(data)
        room = self.half - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if data:
            self._tail += data
            if len(self._tail) > 2 * self.half:
                del self._tail[: len(self._tail) - self.half]

    def value(self) -> bytes:
        if not self.truncated:
            return bytes(self._head + self._tail)
        tail = bytes(self._tail[-self.half :])
        return bytes(self._head) + cut_marker(len(self._head) + len(tail), self.total) + tail
