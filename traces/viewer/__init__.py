"""A local web page over captured traces: runs, episodes, one episode's timeline, byte-level diffs."""

from .diff import byte_diff, show_bytes
from .index import EpisodeQuery, RunIndex, ViewerIndex
from .server import make_app, running, serve
from .timeline import episode_view

__all__ = [
    "EpisodeQuery",
    "RunIndex",
    "ViewerIndex",
    "byte_diff",
    "episode_view",
    "make_app",
    "running",
    "serve",
    "show_bytes",
]
