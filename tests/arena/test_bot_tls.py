"""https bots: the pinned address is dialled, the certificate is checked against the URL's
host name, and the deadline holds over TLS too."""

from __future__ import annotations

import json
import shutil
import socket
import ssl
import subprocess
import threading
import time

import pytest

from arena import botclient, botconn, deadlinesock
from arena.netguard import AddressPolicy, resolve
from tests.arena.rawserver import http_answer, read_request

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl")

LOOPBACK = AddressPolicy.from_setting("127.0.0.0/8,::1")


@pytest.fixture
def cert(tmp_path):
    """A self-signed certificate for localhost (and a context that trusts it)."""
    key, crt = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(crt), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost"], check=True,
                   capture_output=True)
    return crt, key


@pytest.fixture
def trusting(cert, monkeypatch):
    """The bot client trusting the test certificate (as it trusts public CAs)."""
    context = ssl.create_default_context(cafile=str(cert[0]))
    context.sslsocket_class = deadlinesock.DeadlineSSLSocket
    monkeypatch.setattr(botconn, "_tls", context)
    monkeypatch.setattr(botconn._local, "pool", {}, raising=False)
    return context


def tls_server(cert, answer):
    """A TLS server on 127.0.0.1; `answer(tls_conn, request_bytes)` for each connection."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(cert[0]), str(cert[1]))
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)

    def serve():
        while True:
            try:
                raw, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(raw,), daemon=True).start()

    def handle(raw):
        try:
            with context.wrap_socket(raw, server_side=True) as conn:
                request = read_request(conn)  # all of it: closing on unread bytes resets
                if request is not None:
                    answer(conn, request)
        except (OSError, ssl.SSLError):
            pass
    threading.Thread(target=serve, daemon=True).start()
    return listener, listener.getsockname()[1]


def test_an_https_bot_is_called_at_its_pinned_address_with_its_name_checked(cert, trusting):
    """https://localhost:<port> resolves to 127.0.0.1; the certificate names localhost."""
    seen = []

    def answer(conn, request):
        seen.append(request)
        conn.sendall(http_answer(json.dumps({"move": {"type": "keep"}}).encode()))
    listener, port = tls_server(cert, answer)
    try:
        target = resolve(f"https://localhost:{port}", LOOPBACK)
        reply = botclient.call(target, "/move", {"x": 1}, "s", 3.0)
        assert reply.failure is None and reply.body == {"move": {"type": "keep"}}
        assert f"Host: localhost:{port}".encode() in seen[0]
        by_ip = resolve(f"https://127.0.0.1:{port}", LOOPBACK)  # not the certificate's name
        assert botclient.call(by_ip, "/move", {"x": 1}, "s", 3.0).failure == \
            {"code": "bot.unreachable"}
    finally:
        listener.close()


def test_a_drip_over_tls_times_out_at_the_deadline(cert, trusting):
    """A byte every 0.8 s inside TLS records: bot.timeout at 1 s."""
    def answer(conn, request):
        for byte in b"HTTP/1.1 200 OK\r\n":
            conn.sendall(bytes([byte]))
            time.sleep(0.8)
    listener, port = tls_server(cert, answer)
    try:
        target = resolve(f"https://localhost:{port}", LOOPBACK)
        start = time.monotonic()
        reply = botclient.call(target, "/move", {"x": 1}, "s", 1.0)
        elapsed = time.monotonic() - start
    finally:
        listener.close()
    assert reply.failure["code"] == "bot.timeout" and elapsed < 1.5


def test_an_untrusted_certificate_is_unreachable(cert):
    """With the system's trust store, a self-signed certificate fails: bot.unreachable."""
    listener, port = tls_server(cert, lambda conn, request: None)
    try:
        target = resolve(f"https://localhost:{port}", LOOPBACK)
        assert botclient.call(target, "/", None, None, 3.0).failure == {"code": "bot.unreachable"}
    finally:
        listener.close()
