"""A real HTTP server that answers every chat completion badly, in one of two ways:

    python hostile_server.py PORT huge        200 with a 50 MB JSON body (a well-formed completion)
    python hostile_server.py PORT malformed   200 with a body that is not JSON

It serves on 127.0.0.1:PORT until killed."""

from __future__ import annotations

import json
import sys

from aiohttp import web

HUGE_MB = 50


def _huge() -> bytes:
    content = "x" * (HUGE_MB << 20)
    body = {
        "id": "hostile",
        "object": "chat.completion",
        "model": "hostile",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
        ],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    }
    return json.dumps(body).encode()


def app(mode: str) -> web.Application:
    body = _huge() if mode == "huge" else b'{"id": "hostile", "choices": [{"message": {"content": "unfinished'

    async def answer(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(body=body, content_type="application/json")

    application = web.Application(client_max_size=1 << 30)
    application.router.add_route("*", "/{tail:.*}", answer)
    return application


if __name__ == "__main__":
    port, mode = int(sys.argv[1]), sys.argv[2]
    web.run_app(app(mode), host="127.0.0.1", port=port, print=lambda *_: print("ready", flush=True))
