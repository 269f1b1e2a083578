"""What answers at a ``--cluster`` address, found before Dask connects to it.

A Dask scheduler greets every new connection with its handshake (``pickle-protocol`` and
``compression`` in msgpack) before it reads a byte. Anything else is named from what it
does: refuses the connection, accepts and says nothing, or answers a TLS ClientHello with
an HTTP status line or a TLS record (the hello ends in a blank line, so that a web server
reads it as a whole, if malformed, request). So pointing ``--cluster`` at a web dashboard, an HTTPS
server or a closed port costs one line within the timeout, never a stalled Dask client.
"""

from __future__ import annotations

import socket
import ssl
import time

DASK_GREETING = (b"pickle-protocol", b"compression")
GREETING_WAIT = 2.0  # seconds (at most half the timeout) a scheduler gets to greet first


def client_hello() -> bytes:
    """The first bytes of a TLS handshake (no certificate checked: nothing is sent beyond)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    out = ssl.MemoryBIO()
    tls = ctx.wrap_bio(ssl.MemoryBIO(), out)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return out.read()


def _read(sock: socket.socket, until: float) -> bytes | None:
    """Bytes the peer sends before ``until`` (b"" when it closes, None when it stays silent)."""
    sock.settimeout(max(until - time.monotonic(), 0.001))
    try:
        return sock.recv(4096)
    except TimeoutError:
        return None
    except OSError:  # reset by the peer
        return b""


def _what(data: bytes) -> str:
    if any(word in data for word in DASK_GREETING):
        return ""
    head = data.split(b"\n", 1)[0].strip()
    if head.startswith(b"HTTP/") or head.lower().startswith((b"<!doctype html", b"<html")):
        status = head.decode("latin-1", "replace")[:40]  # an old-style answer: a bare page
        return (f"found an HTTP server (it answered {status!r}; a dashboard's address? the "
                "scheduler's is tcp://host:8786)")
    if data[:1] in (b"\x15", b"\x16") and data[1:2] == b"\x03":
        return "found a TLS server (a scheduler with TLS is reached at tls://host:port)"
    if data.startswith(b"SSH-"):
        return "found an SSH server"
    return f"found something that is not a Dask scheduler (it sent {data[:16]!r})"


def probe(host: str, port: int, timeout: float, tls: bool = False) -> str:
    """What listens at ``host:port``: "" for a Dask scheduler (or, with ``tls``, any TLS
    server: its certificates are Dask's business), else a few words for the error message.
    Takes at most ``timeout`` seconds."""
    until = time.monotonic() + timeout
    try:
        sock = socket.create_connection((host, port), timeout=timeout)
    except ConnectionRefusedError:
        return "nothing listens there (connection refused)"
    except TimeoutError:
        return f"no answer (the connection was not accepted within {timeout:g} s)"
    except OSError as exc:
        return f"cannot connect ({exc.strerror or exc})"
    with sock:
        wait = min(GREETING_WAIT, timeout / 2)  # the rest: for an answer to the hello
        data = None if tls else _read(sock, time.monotonic() + wait)
        if data is None:  # silent so far: a scheduler greets at once; speak first
            try:
                sock.sendall(client_hello() + b"\r\n\r\n")
            except OSError:
                return "it closed the connection without a word"
            data = _read(sock, until)
        if data is None:
            return f"it accepts connections but said nothing within {timeout:g} s"
        if not data:
            return "it closed the connection without a word"
        if tls and data[:1] in (b"\x15", b"\x16") and data[1:2] == b"\x03":
            return ""
        if tls and not _what(data):
            return "found a Dask scheduler without TLS (reach it at tcp://host:port)"
        return _what(data)
