"""A real HTTP server that answers every request 429 or 503 (alternately) with `Retry-After`: what a
rate-limiting gateway, or a proxy in front of a restarting model server, says. Run as a script:

    python retry_after_server.py PORT RETRY_AFTER_S

It serves on 127.0.0.1:PORT until SIGTERM/SIGKILL and prints `ready` once listening."""

from __future__ import annotations

import itertools
import sys

from aiohttp import web


def app(retry_after: str) -> web.Application:
    statuses = itertools.cycle((429, 503))

    async def refuse(request: web.Request) -> web.Response:
        await request.read()
        status = next(statuses)
        body = {"error": {"message": f"busy ({status}), retry later", "type": "overloaded", "code": status}}
        return web.json_response(body, status=status, headers={"Retry-After": retry_after})

    application = web.Application()
    application.router.add_route("*", "/{tail:.*}", refuse)
    return application


if __name__ == "__main__":
    port, retry_after = int(sys.argv[1]), sys.argv[2]
    web.run_app(app(retry_after), host="127.0.0.1", port=port, print=lambda *_: print("ready", flush=True))
