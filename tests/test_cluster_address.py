"""``--cluster`` pointed at something that is not a Dask scheduler (issue 48): an HTTP
server, a TLS server, a closed port, a port that accepts and says nothing, each on the
loopback address. Every one ends with one line naming the address and what was found,
exit code 1, within the timeout the line states, and leaves no run behind."""

from __future__ import annotations

import http.server
import shutil
import socket
import ssl
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.helpers import cli

pytest.importorskip("distributed")

STUDY = """
[study]
name = "cluster"
seed = 1
games = 4
players = 2

[run]
batch_size = 2
"""
TIMEOUT = 2  # IMHOTEP_CLUSTER_TIMEOUT for these runs
SLACK = 4  # seconds beyond it for the rest of a run that never starts (a loaded machine)


def _serve(srv: socket.socket, handle) -> None:
    """Accept connections on ``srv`` until it closes, each handled in a thread of its own."""
    def loop():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    threading.Thread(target=loop, daemon=True).start()


def _listener() -> socket.socket:
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    return srv


@pytest.fixture
def http_server():
    """Python's own web server (it answers an unreadable request with a bare error page)."""
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"tcp://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def http11_server():
    """A web server that answers anything with an HTTP/1.1 status line (as most do)."""
    srv = _listener()

    def handle(conn):
        with conn:
            conn.recv(4096)
            conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

    _serve(srv, handle)
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    srv.close()


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    if shutil.which("openssl") is None:
        pytest.skip("openssl not found: no certificate for the TLS server")
    d = tmp_path_factory.mktemp("tls")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", str(d / "key.pem"),
                    "-out", str(d / "cert.pem"), "-days", "1", "-subj", "/CN=localhost"],
                   check=True, capture_output=True)
    return d / "cert.pem", d / "key.pem"


@pytest.fixture
def tls_server(certificate):
    """A TLS server (as an HTTPS server is, before any HTTP)."""
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(*certificate)
    srv = _listener()

    def handle(conn):
        try:
            with ctx.wrap_socket(conn, server_side=True) as tls:
                tls.recv(1)
        except (OSError, ssl.SSLError):
            pass

    _serve(srv, handle)
    yield f"127.0.0.1:{srv.getsockname()[1]}"
    srv.close()


@pytest.fixture
def silent_server():
    srv = _listener()
    held = []
    _serve(srv, held.append)
    yield f"tcp://127.0.0.1:{srv.getsockname()[1]}"
    srv.close()
    for c in held:
        c.close()


@pytest.fixture
def closed_port():
    srv = _listener()
    port = srv.getsockname()[1]
    srv.close()
    return f"tcp://127.0.0.1:{port}"


def run_at(tmp_path: Path, address: str) -> tuple[str, float]:
    (tmp_path / "study.toml").write_text(STUDY)
    t0 = time.monotonic()
    r = cli("run", tmp_path / "study.toml", "--out", tmp_path / "run", "--cluster", address,
            "-q", env={"IMHOTEP_CLUSTER_TIMEOUT": str(TIMEOUT)})
    took = time.monotonic() - t0
    assert r.exit_code == 1, (r.exit_code, r.output, r.exception)
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    errors = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "Traceback" not in r.output, r.stderr
    assert f"cannot reach the Dask scheduler at {address} within {TIMEOUT} s: " in errors[0]
    assert not (tmp_path / "run" / "manifest.json").exists()  # nothing half made
    return errors[0], took


CASES = {
    "http": ("http_server", "found an HTTP server"),
    "http/1.1": ("http11_server", "found an HTTP server (it answered 'HTTP/1.1 400 Bad Request'"),
    "tls": ("tls_server", "found a TLS server (a scheduler with TLS is reached at tls://"),
    "closed": ("closed_port", "nothing listens there (connection refused)"),
    "silent": ("silent_server", f"it accepts connections but said nothing within {TIMEOUT} s"),
}


@pytest.mark.parametrize("case", CASES)
def test_not_a_scheduler_is_one_line_naming_what_was_found(tmp_path, request, case):
    fixture, words = CASES[case]
    address = request.getfixturevalue(fixture)
    address = address if "://" in address else f"tcp://{address}"
    line, took = run_at(tmp_path, address)
    assert words in line, line
    assert took < TIMEOUT + SLACK, took


def test_a_tls_address_at_a_web_server_is_named(tmp_path, http11_server):
    line, took = run_at(tmp_path, http11_server.replace("tcp://", "tls://"))
    assert "found an HTTP server" in line and took < TIMEOUT + SLACK
