"""Model calls behind a proxy and to a server whose certificate a private CA signed (issue 40 item 5).

Everything is real and local: the loopback model server speaking TLS with a certificate for `localhost`
signed by a CA made here (`cryptography`), and a small CONNECT proxy written with anyio that tunnels
`https://` and forwards `http://` requests, noting each. The variables are the ones httpx and the
OpenAI/Anthropic SDKs read: `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`, `SSL_CERT_FILE`.
"""

from __future__ import annotations

import datetime
import importlib.util
import ssl
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import anyio.abc
import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from repozero.agents.models import Message, open_models
from repozero.agents.models.check import check_endpoints
from repozero.agents.models.netenv import OWN_PATH
from repozero.kernel.errors import ModelError

pytestmark = pytest.mark.anyio

HI = [Message(role="user", content="hi")]
PROXY_VARS = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR")


def _load_loopback() -> Any:
    name = "repozero_tests_models_loopback"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("models_loopback.py"))
        assert spec is not None and spec.loader is not None
        sys.modules[name] = module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return sys.modules[name]


lb = _load_loopback()


# --- a private CA and a server certificate for `localhost` ---------------------------------------------
def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _cert(subject: str, issuer: str, key: Any, signer: Any, *, ca: bool, san: str | None) -> x509.Certificate:
    now = datetime.datetime.now(datetime.UTC)
    builder = (
        x509.CertificateBuilder()
        .subject_name(_name(subject))
        .issuer_name(_name(issuer))
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if san is not None:
        builder = builder.add_extension(x509.SubjectAlternativeName([x509.DNSName(san)]), critical=False)
    return builder.sign(signer, hashes.SHA256())


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ssl.SSLContext]:
    """The CA's certificate file (for SSL_CERT_FILE) and the server's TLS context (`localhost` only)."""
    root = tmp_path_factory.mktemp("pki")
    ca_key, server_key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = _cert("repozero test CA", "repozero test CA", ca_key, ca_key, ca=True, san=None)
    server = _cert("localhost", "repozero test CA", server_key, ca_key, ca=False, san="localhost")
    (root / "ca.pem").write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    (root / "server.pem").write_bytes(server.public_bytes(serialization.Encoding.PEM))
    key = server_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (root / "server.key").write_bytes(key)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(root / "server.pem", root / "server.key")
    return root / "ca.pem", context


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for var in PROXY_VARS:
        monkeypatch.delenv(var, raising=False)
        monkeypatch.delenv(var.lower(), raising=False)
    yield monkeypatch


# --- a CONNECT proxy ----------------------------------------------------------------------------------
class Proxy:
    """Tunnels CONNECT, forwards absolute-form requests as they are; `seen` holds each request line."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.url = ""

    async def handle(self, client: anyio.abc.SocketStream) -> None:
        async with client:
            head = b""
            while b"\r\n\r\n" not in head:
                try:
                    chunk = await client.receive()
                except anyio.EndOfStream:
                    return
                head += chunk
            method, target, _ = head.split(b"\r\n", 1)[0].decode().split(" ", 2)
            self.seen.append(f"{method} {target}")
            if method == "CONNECT":
                host, _, port = target.rpartition(":")
                first = head.split(b"\r\n\r\n", 1)[1]
            else:
                url = httpx.URL(target)
                host, port, first = url.host, str(url.port or 80), head
            upstream = await anyio.connect_tcp(host, int(port))
            async with upstream, anyio.create_task_group() as tg:
                if method == "CONNECT":
                    await client.send(b"HTTP/1.1 200 Connection established\r\n\r\n")
                if first:
                    await upstream.send(first)
                tg.start_soon(_pipe, client, upstream, tg.cancel_scope)
                tg.start_soon(_pipe, upstream, client, tg.cancel_scope)


async def _pipe(src: anyio.abc.SocketStream, dst: anyio.abc.SocketStream, scope: anyio.CancelScope) -> None:
    try:
        async for chunk in src:
            await dst.send(chunk)
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
        pass
    scope.cancel()


@asynccontextmanager
async def proxy() -> AsyncIterator[Proxy]:
    found = Proxy()
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    found.url = f"http://127.0.0.1:{listener.extra(anyio.abc.SocketAttribute.local_port)}"
    async with listener, anyio.create_task_group() as tg:
        tg.start_soon(listener.serve, found.handle)
        yield found
        tg.cancel_scope.cancel()


# --- the tests ----------------------------------------------------------------------------------------
def _localhost(url: str) -> str:
    return url.replace("127.0.0.1", "localhost")


async def _complete(base: str, **fields: Any) -> str:
    endpoint = lb.endpoint(base + "/v1", max_retries=0, **fields)
    async with open_models({"e": endpoint}) as models:
        return str((await models.session("e", "s").complete(HI)).message.content)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
async def test_a_private_ca_in_ssl_cert_file_is_trusted(
    pki: tuple[Path, ssl.SSLContext], clean_env: pytest.MonkeyPatch, stream: bool
) -> None:
    ca, context = pki
    clean_env.setenv("SSL_CERT_FILE", str(ca))
    with anyio.fail_after(30):
        async with lb.serve(tls=context) as server:
            assert await _complete(_localhost(server.url), stream=stream) == "Hello."
            (check,) = await check_endpoints({"e": lb.endpoint(_localhost(server.url) + "/v1")})
    assert check.ok and check.route == OWN_PATH, check


async def test_without_the_ca_the_server_is_refused(pki: tuple[Path, ssl.SSLContext]) -> None:
    with anyio.fail_after(30):
        async with lb.serve(tls=pki[1]) as server:
            with pytest.raises(ModelError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
                await _complete(_localhost(server.url))


async def test_a_certificate_for_another_name_is_refused(
    pki: tuple[Path, ssl.SSLContext], clean_env: pytest.MonkeyPatch
) -> None:
    """The certificate names `localhost`; the endpoint says 127.0.0.1: trusted CA, wrong name."""
    clean_env.setenv("SSL_CERT_FILE", str(pki[0]))
    with anyio.fail_after(30):
        async with lb.serve(tls=pki[1]) as server:
            with pytest.raises(ModelError, match="mismatch|doesn't match|not valid for"):
                await _complete(server.url)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
async def test_https_through_a_connect_proxy(
    pki: tuple[Path, ssl.SSLContext], clean_env: pytest.MonkeyPatch, stream: bool
) -> None:
    ca, context = pki
    clean_env.setenv("SSL_CERT_FILE", str(ca))
    with anyio.fail_after(30):
        async with lb.serve(tls=context) as server, proxy() as tunnel:
            clean_env.setenv("HTTPS_PROXY", tunnel.url)
            base = _localhost(server.url)
            assert await _complete(base, stream=stream) == "Hello."
            (check,) = await check_endpoints({"e": lb.endpoint(base + "/v1")})
    port = base.rsplit(":", 1)[1]
    assert tunnel.seen and set(tunnel.seen) == {f"CONNECT localhost:{port}"}, tunnel.seen
    assert check.ok and check.route == f"httpx via {tunnel.url}", check
    assert len(server.seen) == 2  # the call and the check's probe, each through the tunnel


async def test_through_the_proxy_an_unknown_ca_is_still_refused(pki: tuple[Path, ssl.SSLContext]) -> None:
    with anyio.fail_after(30):
        async with lb.serve(tls=pki[1]) as server, proxy() as tunnel:
            with pytest.MonkeyPatch.context() as env:
                env.setenv("HTTPS_PROXY", tunnel.url)
                with pytest.raises(ModelError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
                    await _complete(_localhost(server.url))
    assert tunnel.seen  # it did go through the tunnel


async def test_plain_http_through_the_proxy_and_no_proxy_bypasses_it(clean_env: pytest.MonkeyPatch) -> None:
    with anyio.fail_after(30):
        async with lb.serve() as server, proxy() as forward:
            clean_env.setenv("HTTP_PROXY", forward.url)
            assert await _complete(server.url) == "Hello."
            assert forward.seen == [f"POST {server.url}/v1/chat/completions"], forward.seen
            clean_env.setenv("NO_PROXY", "127.0.0.1")
            assert await _complete(server.url) == "Hello."
            (check,) = await check_endpoints({"e": lb.endpoint(server.url + "/v1")})
    assert len(forward.seen) == 1 and check.route == OWN_PATH
