"""Bot URLs are checked where they point (issue 12): internal addresses in every spelling are
refused without a byte sent to them; nothing the far end says is echoed; the address found at
registration is pinned; the embedded default allows loopback, a deployment does not."""

from __future__ import annotations

import json
import socket

import pytest

from arena.bots import BotRegistry
from arena.netguard import ALLOW_ENV, AddressPolicy, UrlRefused, policy_for, resolve
from referee.service.connection import connect
from tests.arena.rawserver import RawServer, http_answer
from tests.conftest import organiser_client, running_app, unique_name

SECRET = "AKIA-FAKE-CLOUD-CREDENTIALS-42"
BOT_INFO = {"apiversion": "1", "name": "internal", "games": ["gops"], "token": SECRET}


def _internal(conn, request):
    """An internal service that would pass the health check and leaks a secret."""
    conn.sendall(http_answer(json.dumps(BOT_INFO).encode()))


@pytest.fixture
def internal():
    server = RawServer(_internal)
    yield server
    server.stop()


@pytest.fixture
def strict_client(monkeypatch, redis_settings):
    """The app on a real Redis with no allow-list: the deployment's default."""
    monkeypatch.delenv(ALLOW_ENV, raising=False)
    with running_app(redis_settings) as app:
        yield organiser_client(app)


def spellings(port: int) -> list[str]:
    """The same internal places, written every way a URL parser or resolver accepts."""
    return [f"http://127.0.0.1:{port}/", f"http://localhost:{port}/", f"http://2130706433:{port}/",
            f"http://0x7f.1:{port}/", f"http://0x7f000001:{port}/", f"http://0177.0.0.1:{port}/",
            f"http://127.1:{port}/", f"http://[::ffff:127.0.0.1]:{port}/", f"http://[::1]:{port}/",
            f"http://0.0.0.0:{port}/", f"http://[::]:{port}/", f"https://127.0.0.1:{port}/",
            f"http://LOCALHOST.:{port}/", "http://169.254.169.254/latest/meta-data/",
            "http://[fe80::1]/", "http://10.0.0.1/", "http://192.168.1.1/", "http://172.16.0.1/",
            "http://100.64.0.1/", "http://224.0.0.1/", "http://240.0.0.1/",
            "http://[::ffff:169.254.169.254]/", "http://[64:ff9b::7f00:1]/", "http://[fc00::1]/",
            "http://no-such-host.invalid/"]


def test_internal_urls_in_every_spelling_are_refused_without_a_call(strict_client, internal):
    """422 bot.url_refused, the same short body for each, no echo, and the internal service
    never hears from us."""
    bodies = set()
    for url in spellings(internal.port):
        r = strict_client.post("/v1/bots", json={"url": url, "games": ["gops"]})
        assert (r.status_code, r.json["code"], r.json["details"]) == \
            (422, "bot.url_refused", {"reason": "address"}), url
        assert SECRET.encode() not in r.data and b"127.0.0.1" not in r.data
        bodies.add(json.dumps({k: r.json[k] for k in ("code", "detail", "details")}))
    assert len(bodies) == 1 and internal.requests == []
    assert strict_client.get("/v1/bots").json["bots"] == []


def test_a_closed_and_an_open_internal_port_look_the_same(strict_client, internal):
    """No port scanning: the answer does not depend on what listens there."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    a = strict_client.post("/v1/bots", json={"url": f"http://127.0.0.1:{internal.port}/",
                                             "games": ["gops"]})
    b = strict_client.post("/v1/bots", json={"url": f"http://127.0.0.1:{closed}/",
                                             "games": ["gops"]})
    assert a.data == b.data and a.status_code == b.status_code == 422


def test_the_embedded_default_allows_loopback_and_says_so(monkeypatch, internal, caplog):
    """No REDIS_URL: one person's machine, where local bots are the point."""
    from referee.root import create_app, stop_app

    import arena.parts

    monkeypatch.delenv(ALLOW_ENV, raising=False)
    monkeypatch.setattr(arena.parts, "_WARNED", set())   # said once a process: say it here
    with caplog.at_level("WARNING", logger="arena.parts"):
        app = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("emb"),
                          "QUEUE_NAME": unique_name("embq")})
        again = create_app({"REDIS_URL": None, "KEY_PREFIX": unique_name("emb"),
                            "QUEUE_NAME": unique_name("embq")})
    client = app.test_client()
    said = [r for r in caplog.records
            if "plus loopback in the embedded default): 127.0.0.0/8,::1/128" in r.getMessage()]
    assert len(said) == 1   # once a process, however many services it builds (benchmarks)
    stop_app(again)
    r = client.post("/v1/bots", json={"url": internal.url, "games": ["gops"]})
    assert r.status_code == 201, r.json
    assert "addresses" not in r.json and "addresses" not in client.get("/v1/bots").json["bots"][0]
    assert policy_for(embedded=False, environ={}).allow == ()
    stop_app(app)


def test_the_allow_list_setting_opens_only_what_it_lists():
    """CIDRs from REFEREE_BOT_ALLOW; IPv4 inside IPv6 is judged by its IPv4 address."""
    policy = policy_for(embedded=False, environ={ALLOW_ENV: "127.0.0.0/8, 10.1.0.0/16"})
    assert policy.refusal("127.0.0.1") is None and policy.refusal("::ffff:127.0.0.1") is None
    assert policy.refusal("10.1.2.3") is None and policy.refusal("10.2.0.1") == "private"
    assert policy.refusal("::1") == "loopback" and policy.refusal("169.254.169.254") == \
        "link-local"
    assert AddressPolicy().refusal("8.8.8.8") is None


def test_health_failures_echo_nothing_and_hide_what_listens(client):
    """Allowed addresses: a secret in an error page is not echoed; a closed port, a silent
    one and a non-HTTP one are all plain bot.unreachable."""
    servers = [RawServer(lambda c, r: c.sendall(http_answer(SECRET.encode(), "500 Oops"))),
               RawServer(lambda c, r: c.sendall(http_answer(b'{"apiversion": "1", "x": NaN, '
                                                            b'"s": "' + SECRET.encode() + b'"}'))),
               RawServer(lambda c, r: c.sendall(b"SSH-2.0-OpenSSH_9.6 " + SECRET.encode() +
                                                b"\r\n") or False)]
    try:
        codes = []
        for server in servers:
            r = client.post("/v1/bots", json={"url": server.url, "games": ["gops"]})
            assert r.status_code == 422 and SECRET.encode() not in r.data
            codes.append(r.json["details"]["failure"])
        assert codes == [{"code": "bot.http_error", "status": 500},
                         {"code": "bot.bad_response", "detail": "NaN and Infinity are not JSON"},
                         {"code": "bot.unreachable"}]
    finally:
        for server in servers:
            server.stop()
    r = client.post("/v1/bots", json={"url": "http://127.0.0.1:9/", "games": ["gops"]})
    assert r.json["details"]["failure"] == {"code": "bot.unreachable"}


def test_the_address_is_pinned_and_rechecked_on_every_call(real_redis_url, monkeypatch):
    """Later calls connect to the address found at registration with the URL's own Host (a
    changed DNS answer is never followed); a policy narrowed later refuses the call."""
    server = RawServer(lambda c, r: c.sendall(http_answer(json.dumps(
        {"apiversion": "1", "name": "pinned", "games": ["gops"]}).encode())))
    prefix = unique_name("pin")
    bots = BotRegistry(connect(real_redis_url), prefix,
                       AddressPolicy.from_setting("127.0.0.0/8,::1"))
    try:
        bot = bots.register("pinned", f"http://localhost:{server.port}", ["gops"], "me", ["gops"])
        assert "127.0.0.1" in bot["addresses"]

        original = socket.getaddrinfo

        def rebound(host, *args, **kwargs):  # the bot's name now points inside
            assert host != "localhost", "the bot's host was resolved again"
            return original(host, *args, **kwargs)
        monkeypatch.setattr(socket, "getaddrinfo", rebound)
        reply = bots.call(bot, "/", None, 2.0)
        assert reply.failure is None and server.requests[-1][1]["host"] == \
            f"localhost:{server.port}"
        seen = len(server.requests)
        bots.policy = AddressPolicy()
        assert bots.call(bot, "/", None, 2.0).failure == {"code": "bot.url_refused"}
        assert len(server.requests) == seen
    finally:
        server.stop()
        client = connect(real_redis_url)
        for key in client.scan_iter(f"{prefix}:*"):
            client.delete(key)


def test_a_name_with_any_internal_address_is_refused():
    """A host that resolves to a public and an internal address is refused whole."""
    def resolver(host, port, type=0):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.216.34", port)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.5", port))]
    with pytest.raises(UrlRefused):
        resolve("http://two-faced.example/", AddressPolicy(), resolver=resolver)
    target = resolve("http://public.example:8080/bot/", AddressPolicy(),
                     resolver=lambda h, p, type=0: resolver(h, p)[:1])
    assert (target.address, target.port, target.path) == ("93.184.216.34", 8080, "/bot")


def test_what_a_bot_says_about_itself_is_kept_short(client):
    """A 250 KB `GET /` is registered as its protocol fields, trimmed; the rest is dropped."""
    info = {"apiversion": "1", "name": "n" * 1000, "games": ["gops"] * 500, "version": 3,
            "padding": "x" * 250_000}
    server = RawServer(lambda c, r: c.sendall(http_answer(json.dumps(info).encode())))
    try:
        r = client.post("/v1/bots", json={"url": server.url, "games": ["gops"]})
    finally:
        server.stop()
    assert r.status_code == 201 and len(r.data) < 10_000
    assert r.json["info"] == {"apiversion": "1", "name": "n" * 200, "version": 3,
                              "games": ["gops"] * 50}
    assert r.json["name"] == "n" * 200


def test_pinned_addresses_are_tried_in_order():
    """`localhost` may resolve to ::1 first while the bot listens on 127.0.0.1 only: the next
    pinned address is tried within the same deadline."""
    from arena import botclient
    from arena.netguard import Target

    server = RawServer(lambda c, r: c.sendall(http_answer(b'{"apiversion": "1"}')))
    try:
        target = Target("http", "localhost", server.port, ("127.0.0.2", "127.0.0.1"), "")
        reply = botclient.call(target, "/", None, None, 2.0)
    finally:
        server.stop()
    assert reply.failure is None and reply.body == {"apiversion": "1"}
    assert server.requests[0][1]["host"] == f"localhost:{server.port}"
