"""The server's end of a loopback TCP connection, read from the outside (Linux): whether the
server set TCP_NODELAY on it. A test asks the socket itself instead of timing answers for the
~40 ms stall Nagle's algorithm and delayed ACKs cause (no timed assertion in tests).

The server's socket is found in /proc/net/tcp (its local and remote ports are the client's
remote and local ones), its process by the socket's inode among /proc/*/fd, and a copy of
its descriptor is taken with pidfd_getfd(2) (Linux 5.6; allowed for a child process or the
caller's own)."""

from __future__ import annotations

import ctypes
import os
import socket
from pathlib import Path

_libc = ctypes.CDLL(None, use_errno=True)
_PIDFD_GETFD = 438   # the same number on x86_64 and on the generic table (aarch64)


def _inode(local_port: int, remote_port: int) -> int:
    """The inode of the loopback TCP socket bound to `local_port`, connected to `remote_port`."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = fields[1].split(":"), fields[2].split(":")
        if int(local[1], 16) == local_port and int(remote[1], 16) == remote_port:
            return int(fields[9])
    raise LookupError(f"no TCP socket {local_port} -> {remote_port} in /proc/net/tcp")


def _holder(inode: int) -> tuple[int, int]:
    """(pid, fd) of a process holding the socket `inode`."""
    name = f"socket:[{inode}]"
    for fd_dir in Path("/proc").glob("[0-9]*/fd"):
        try:
            for fd in fd_dir.iterdir():
                if os.readlink(fd) == name:
                    return int(fd_dir.parent.name), int(fd.name)
        except OSError:   # a process that ended meanwhile, or one we may not look into
            continue
    raise LookupError(f"no process holds {name}")


def server_nodelay(client: socket.socket) -> bool:
    """Whether the server end of `client`'s connection has TCP_NODELAY set."""
    host, port = client.getsockname()[:2]
    pid, fd = _holder(_inode(client.getpeername()[1], port))
    pidfd = os.pidfd_open(pid)
    try:
        copy = _libc.syscall(_PIDFD_GETFD, pidfd, fd, 0)
        if copy < 0:
            raise OSError(ctypes.get_errno(), f"pidfd_getfd({pid}, {fd})")
    finally:
        os.close(pidfd)
    with socket.socket(fileno=copy) as sock:
        return bool(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
