"""Server-sent events, cut out of the byte chunks the network delivers.

Only `data:` lines matter to us: OpenAI-style servers send `data: {json}` events and end with
`data: [DONE]`; Anthropic names each event (`event: content_block_delta`) but repeats the name as the
payload's `type`. Comments (`: ping`) and other fields are skipped. A chunk may hold several events or
part of one; the rest waits in the buffer for the next chunk.
"""

from __future__ import annotations

from typing import TypeVar

import msgspec

from repozero.agents.models.codec import BadResponse

__all__ = ["EventReader", "decode_events"]

T = TypeVar("T")


class EventReader:
    """Feed it chunks; it returns the `data` payload of every event those chunks complete."""

    def __init__(self) -> None:
        self._buffer = b""
        self.events = 0
        """Events read so far (the count a cut stream reports)."""

    def feed(self, chunk: bytes) -> list[bytes]:
        if (  # the common case on a stream of one event per packet: exactly one `data:` line
            not self._buffer
            and chunk.startswith(b"data: ")
            and chunk.find(b"\n") == len(chunk) - 2
            and chunk.endswith(b"\n\n")
            and b"\r" not in chunk
        ):
            self.events += 1
            return [chunk[6:-2]]
        data = self._buffer + chunk if self._buffer else chunk
        tail = b""
        if b"\r" in data:  # CRLF or CR line ends (allowed by the spec): one spelling
            if data.endswith(b"\r"):  # maybe half a CRLF: wait for the next chunk
                data, tail = data[:-1], b"\r"
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        end = data.rfind(b"\n\n")
        if end < 0:
            self._buffer = data + tail
            return []
        self._buffer = data[end + 2 :] + tail
        blocks = data[:end].split(b"\n\n")
        # the common case, one `data:` line per event, without a call per event
        out = [b[6:] for b in blocks if b.startswith(b"data: ") and b"\n" not in b]
        if len(out) != len(blocks):
            out = [p for p in map(_data, blocks) if p is not None]
        self.events += len(out)
        return out

    @property
    def pending(self) -> bool:
        """Bytes of an event not yet ended by a blank line."""
        return bool(self._buffer.strip())


def _data(block: bytes) -> bytes | None:
    """The event's data (several `data:` lines joined by newlines), or None when it has none."""
    if block.startswith(b"data: ") and b"\n" not in block:  # the common case: one data line
        return block[6:]
    lines = [line for line in block.split(b"\n") if line.startswith(b"data:")]
    if not lines:
        return None
    return b"\n".join(line[6:] if line.startswith(b"data: ") else line[5:] for line in lines)


def decode_events(
    events: list[bytes], one: msgspec.json.Decoder[T], many: msgspec.json.Decoder[list[T]], what: str
) -> list[T]:
    """The JSON payloads of one read's events, decoded in one call (as a JSON array: a call per event
    costs more than the decoding); when that fails, one by one, so that the bad one names itself.

    Raises `BadResponse` ("unreadable `what`: ...")."""
    try:
        if len(events) > 1:
            return many.decode(b"[" + b",".join(events) + b"]")
        return [one.decode(events[0])]
    except msgspec.DecodeError:
        pass
    out = []
    for event in events:
        try:
            out.append(one.decode(event))
        except msgspec.DecodeError as exc:
            raise BadResponse(f"unreadable {what}: {exc}") from None
    return out
