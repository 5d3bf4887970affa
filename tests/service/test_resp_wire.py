"""Arguments written in RESP once (resp.Bulk, resp.Run, scripts.Keys) go on the wire as the
same bytes as the plain arguments they stand for, and every other script takes them as
those plain values."""

from __future__ import annotations

from referee.service.resp import SMALL_NUMBERS, Bulk, Run, command
from referee.service.scripts import Keys, SocketScript


def _plain(args):
    """The RESP encoding of `args` as it was written before Bulk and Run: one by one."""
    parts = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        parts += [b"$%d\r\n" % len(data), data, b"\r\n"]
    return b"".join(parts)


MIXED = ["EVALSHA", "k:{m}:live", 0, 7, SMALL_NUMBERS - 1, SMALL_NUMBERS, -3, 2**70, 1.5, True,
         None, b"{\"state\":1}", "", "é", "86400"]


def test_a_bulk_and_a_run_are_sent_as_the_plain_arguments():
    """Bulk texts, runs of arguments and plain ones, alone and pipelined, give the bytes the
    plain arguments give."""
    as_bulks = [Bulk(a) if type(a) is str else a for a in MIXED]
    assert command(MIXED) == command(as_bulks) == _plain(MIXED)
    runs = [Run(MIXED[:3]), *MIXED[3:7], Run(MIXED[7:9]), *MIXED[9:]]
    assert command(runs) == _plain(MIXED)
    assert command(runs, MIXED, [Run([])]) == _plain(MIXED) + _plain(MIXED) + _plain([])


def test_a_long_command_and_many_runs_count_their_arguments():
    """More than 64 arguments, in runs and alone, still count right in the array's header."""
    args = [f"a{i}" for i in range(150)]
    runs = [Run(args[i:i + 10]) for i in range(0, 150, 10)]
    assert command(runs) == command(args) == _plain(args)


def test_kept_keys_are_a_tuple_of_plain_texts_and_the_same_command():
    """Keys is the tuple of its keys (equal to them, texts to redis-py and the embedded
    store); a SocketScript sends it as it sends the plain list."""
    keys = Keys([Bulk("k:{m}:ver"), Bulk("k:{m}:live")])
    assert keys == ("k:{m}:ver", "k:{m}:live") and list(keys) == ["k:{m}:ver", "k:{m}:live"]
    assert [str(k) for k in keys] == ["k:{m}:ver", "k:{m}:live"]
    script = SocketScript.__new__(SocketScript)
    SocketScript.__init__(script, sockets=None, text="return 1")
    plain = script._command(["k:{m}:ver", "k:{m}:live"], [3, "x"])
    assert command(script._command(keys, [3, "x"])) == command(plain) == _plain(
        ["EVALSHA", script.sha, 2, "k:{m}:ver", "k:{m}:live", 3, "x"])
