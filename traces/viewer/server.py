"""`repozero traces view`: a local web page (127.0.0.1 only) over one or more runs' traces.

The page is static (`index.html`, `viewer.js`, `viewer.css`, package data); it loads everything through
small JSON endpoints, a page of episodes or one episode at a time, so it stays quick on 10,000 episodes:

    GET /api/runs                          every run: model, protocol, counts by status
    GET /api/episodes?run=K&status=&sample=&min_reward=&max_reward=&rounds=&sort=&offset=&limit=
    GET /api/episode?run=K&id=EPISODE      one episode's timeline (decoded from its byte range)
    GET /api/matrix                        sample × run: attempts, solved, best reward

Every request needs the server's random token, as Jupyter's do: in the printed URL (`/?token=T`), then a
cookie the page's response sets (named by the port), or an `Authorization: token T` header. Without it,
or with a wrong one: 403, nothing served (another local user cannot read the traces).
"""

from __future__ import annotations

import hmac
import os
import secrets
import signal
import sys
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import msgspec
from aiohttp import web
from aiohttp.typedefs import Middleware

from repozero.kernel.errors import RepoZeroError, UsageError
from repozero.kernel.log import get_logger

from .index import EpisodeQuery, ViewerIndex
from .timeline import episode_view

__all__ = ["TOKEN_COOKIE", "make_app", "running", "serve"]

log = get_logger("repozero.traces.viewer")

STATIC = Path(__file__).parent
_ASSETS = {"viewer.js": "text/javascript", "viewer.css": "text/css"}
_CACHED_EPISODES = 32
_encode = msgspec.json.Encoder().encode
TOKEN_COOKIE = "repozero-viewer-{port}"
"""The cookie holding the token; by port, as cookies are shared by every port of a host."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _json(value: Any, status: int = 200) -> web.Response:
    return web.Response(body=_encode(value), status=status, content_type="application/json")


class ViewerApp:
    """The routes over one `ViewerIndex`, with the last opened episodes cached."""

    def __init__(self, index: ViewerIndex) -> None:
        self.index = index
        self._episodes: OrderedDict[tuple[str, str], bytes] = OrderedDict()

    async def page(self, request: web.Request) -> web.StreamResponse:
        return web.FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        if name not in _ASSETS:
            raise web.HTTPNotFound()
        return web.Response(body=(STATIC / name).read_bytes(), content_type=_ASSETS[name])

    async def runs(self, request: web.Request) -> web.StreamResponse:
        return _json([run.summary() for run in self.index.runs.values()])

    async def episodes(self, request: web.Request) -> web.StreamResponse:
        params = dict(request.query)
        return _json(self.index.run(params.get("run", "0")).query(EpisodeQuery(params)))

    async def episode(self, request: web.Request) -> web.StreamResponse:
        key, episode_id = request.query.get("run", "0"), request.query.get("id", "")
        cached = self._episodes.get((key, episode_id))
        if cached is None:
            source = self.index.run(key).source
            found = source.episode(episode_id, tokens=False)
            if found is None:
                raise UsageError(f"id={episode_id!r}: no finished episode with this id in run {key}")
            cached = _encode({"run": key, **episode_view(found, source.blobs)})
            self._episodes[(key, episode_id)] = cached
            if len(self._episodes) > _CACHED_EPISODES:
                self._episodes.popitem(last=False)
        self._episodes.move_to_end((key, episode_id))
        return web.Response(body=cached, content_type="application/json")

    async def matrix(self, request: web.Request) -> web.StreamResponse:
        return _json(self.index.matrix())


@web.middleware
async def _errors(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Bad parameters are 400/404 with a message; a broken trace file is a 500 with its message."""
    try:
        return await handler(request)
    except UsageError as exc:
        status = 404 if "no such" in str(exc) or "no finished" in str(exc) else 400
        return _json({"error": str(exc)}, status)
    except RepoZeroError as exc:
        log.error("viewer_request_failed", path=request.path, error=str(exc))
        return _json({"error": str(exc)}, 500)


def _token_check(token: str) -> Middleware:
    """The middleware refusing (403) a request without `token`; the page's response sets its cookie."""
    expected = token.encode()

    def given(request: web.Request, cookie: str) -> tuple[str, str]:
        header = request.headers.get("Authorization", "")
        for where, value in (
            ("query", request.query.get("token", "")),
            ("header", header.removeprefix("token ") if header.startswith("token ") else ""),
            ("cookie", request.cookies.get(cookie, "")),
        ):
            if value:
                return where, value
        return "", ""

    @web.middleware
    async def check(request: web.Request, handler: Handler) -> web.StreamResponse:
        cookie = TOKEN_COOKIE.format(port=request.url.port)
        where, value = given(request, cookie)
        if not hmac.compare_digest(value.encode(), expected):
            log.warning("viewer_request_refused", path=request.path, token="wrong" if value else "none")
            return _json(
                {"error": "403: open the URL `repozero traces view` printed (it holds the token)"}, 403
            )
        response = await handler(request)
        if where == "query":
            response.set_cookie(cookie, token, httponly=True, samesite="Strict", path="/")
        return response

    return check


def make_app(index: ViewerIndex, token: str) -> web.Application:
    """The viewer's routes over `index`; every request must carry `token` (module docstring)."""
    app = web.Application(middlewares=[_token_check(token), _errors])
    view = ViewerApp(index)
    app.router.add_get("/", view.page)
    app.router.add_get("/static/{name}", view.asset)
    app.router.add_get("/api/runs", view.runs)
    app.router.add_get("/api/episodes", view.episodes)
    app.router.add_get("/api/episode", view.episode)
    app.router.add_get("/api/matrix", view.matrix)
    return app


@asynccontextmanager
async def running(index: ViewerIndex, port: int = 0) -> AsyncIterator[str]:
    """Serve on 127.0.0.1:`port` (0: any free port) on the current loop with a fresh random token;
    yields the page's URL, token included (`http://127.0.0.1:P/?token=T`)."""
    token = secrets.token_urlsafe(32)
    runner = web.AppRunner(
        make_app(index, token), handle_signals=False, access_log=None, shutdown_timeout=1.0
    )
    await runner.setup()
    try:
        site = web.TCPSite(runner, "127.0.0.1", port)
        try:
            await site.start()
        except OSError as exc:
            raise UsageError(f"--port {port}: cannot listen on 127.0.0.1: {exc.strerror}") from None
        yield f"http://127.0.0.1:{runner.addresses[0][1]}/?token={token}"
    finally:
        with anyio.CancelScope(shield=True):
            await runner.cleanup()


async def serve(paths: Iterable[str | os.PathLike[str]], port: int) -> None:
    """Index the runs, serve until SIGINT or SIGTERM, then stop cleanly."""
    index = ViewerIndex(paths)
    async with running(index, port) as url:
        episodes = sum(len(r.episodes) for r in index.runs.values())
        print(f"viewer: {url}  ({len(index.runs)} runs, {episodes} episodes; Ctrl-C stops)", flush=True)
        log.info("viewer_listening", url=url.partition("?")[0], runs=len(index.runs), episodes=episodes)
        with anyio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for _ in signals:
                print("viewer: stopped", file=sys.stderr, flush=True)
                return
