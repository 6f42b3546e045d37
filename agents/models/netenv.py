"""What the environment says about reaching a model server: its proxy, and the certificates to trust.

The same variables httpx and the OpenAI and Anthropic SDKs honour: `HTTPS_PROXY`/`HTTP_PROXY`/`ALL_PROXY`
(lower case first, as curl reads them) unless `NO_PROXY` names the host, and `SSL_CERT_FILE`/`SSL_CERT_DIR`
for the CA certificates a TLS server's chain must end in. An `HttpPool` asks once per server it calls (then
remembers: the answer is on every call's path), so a change takes effect in pools opened after it.

Our own HTTP/1.1 connections (`conn.LeanPool`) speak to the server directly; an endpoint behind a proxy goes
through httpx's transport instead (CONNECT for `https://`, absolute-form requests for `http://`), with the
same trust. `route` names the path an endpoint's calls take, for `repozero endpoints check`.
"""

from __future__ import annotations

import os
import ssl
import urllib.request
from functools import lru_cache

import httpx

from repozero.kernel.redact import redact_url

__all__ = ["OWN_PATH", "proxy_for", "route", "ssl_context"]

OWN_PATH = "own HTTP/1.1"
"""The route of a call on our own connections (`conn.LeanPool`)."""


_PROXY_VARS = tuple(
    name for base in ("https_proxy", "http_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())
)


def proxy_for(url: httpx.URL) -> str | None:
    """The proxy URL the environment gives for `url` (None: connect directly, also when NO_PROXY says so)."""
    environ = os.environ
    if not any(name in environ for name in _PROXY_VARS):
        return None
    proxies = urllib.request.getproxies_environment()
    host = url.host if url.port is None else f"{url.host}:{url.port}"
    # `proxy_bypass_environment`: the stdlib's NO_PROXY matching (not in typeshed's stubs)
    if not proxies or urllib.request.proxy_bypass_environment(host, proxies):  # type: ignore[attr-defined]
        return None
    proxy = proxies.get(url.scheme) or proxies.get("all")
    if proxy and "://" not in proxy:  # `HTTPS_PROXY=host:3128`, as curl takes it
        proxy = f"http://{proxy}"
    return proxy or None


def ssl_context() -> ssl.SSLContext:
    """The TLS client context every path uses: the system's trust store, or the CA certificates in
    `SSL_CERT_FILE` / `SSL_CERT_DIR` when set; the server's name always checked."""
    return _context(os.environ.get("SSL_CERT_FILE") or None, os.environ.get("SSL_CERT_DIR") or None)


@lru_cache(maxsize=8)
def _context(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    if cafile is None and capath is None:
        return ssl.create_default_context()
    return ssl.create_default_context(cafile=cafile, capath=capath)


def route(proxy: str | None, own: bool) -> str:
    """How calls travel: `own HTTP/1.1`, `httpx via PROXY` (credentials redacted), or `httpx` (`own`
    False: no loop of ours to run our connections on, e.g. trio)."""
    if proxy is not None:
        return f"httpx via {redact_url(proxy)}"
    return OWN_PATH if own else "httpx"
