"""Dask scheduler addresses, checked the same way for ``--cluster`` and a config's
``run.cluster`` before anything connects (reaching the scheduler: ``sim/executors.py``)."""

from __future__ import annotations

import re

CLUSTER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")  # the protocols a Dask scheduler speaks
_ADDRESS = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*)://([^\s/:\[\]]+|\[[0-9A-Fa-f:.]+\])(?::(\d+))?/?")


def cluster_address_problem(address: str) -> str | None:
    """Why ``address`` is not a Dask scheduler address (None when it looks like one): the
    same check for ``--cluster`` and a config's ``run.cluster``."""
    m = _ADDRESS.fullmatch(address)
    if not m:
        return f"expected a scheduler address like tcp://host:8786, got {address!r}"
    scheme, _, port = m.groups()
    if scheme.lower() in ("http", "https"):
        return (f"expected a scheduler address like tcp://host:8786, got the web address "
                f"{address!r} (a dashboard's?): the scheduler speaks tcp://, not HTTP")
    if scheme.lower() not in CLUSTER_SCHEMES:
        return (f"expected a scheduler address like tcp://host:8786 ({', '.join(CLUSTER_SCHEMES)}"
                f"), got the scheme {scheme!r} in {address!r}")
    if port is not None and not 1 <= int(port) <= 65535:
        return (f"expected a scheduler address like tcp://host:8786 with a port from 1 to "
                f"65535, got {address!r}")
    return None
