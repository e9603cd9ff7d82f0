"""Serving the app for a table: waitress (a production WSGI server in pure Python), on this
computer only by default, or on the home network with ``--network``, with a QR code to scan."""

from __future__ import annotations

import atexit
import logging
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from flask import Flask

from .store import automatic_backup

if TYPE_CHECKING:
    from waitress.server import BaseWSGIServer

DEFAULT_PORT = 5000


def lan_address() -> str | None:
    """This computer's address on the local network, as the other devices see it (no traffic sent)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return None
    addresses = sorted({str(info[4][0]) for info in infos if not str(info[4][0]).startswith("127.")})
    return addresses[0] if addresses else None


def terminal_qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


CONNECTIONS_PER_ADDRESS = 24  # a phone's browser opens 6 at most; a tablet and a laptop a few more
CONNECTION_LIMIT = 500  # all addresses together (waitress's default is 100)
IDLE_SECONDS = 30  # an idle kept-alive connection is closed after this (waitress's default is 120)


def keep_alive_server(app: Flask, **adjustments: Any) -> BaseWSGIServer:
    """waitress's server, except that an HTTP/1.1 answer without a body (the 304 of every unchanged
    poll) leaves the connection open. waitress 3 closes it because such an answer has no
    Content-Length, though RFC 9112 says a 304 ends at its headers; every phone's poll then paid for
    a new TCP connection."""
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer, create_server
    from waitress.task import WSGITask

    class KeepAliveTask(WSGITask):
        building_header = False

        def build_response_header(self) -> bytes:
            self.building_header = True
            try:
                return super().build_response_header()
            finally:
                self.building_header = False

        def set_close_on_finish(self) -> None:
            headers = getattr(self.request, "headers", {})  # an error answer's request has none
            asked_to_close = headers.get("CONNECTION", "").lower() == "close"
            if self.building_header and not self.has_body and self.version == "1.1" and not asked_to_close:
                return
            super().set_close_on_finish()

    class KeepAliveChannel(HTTPChannel):
        task_class = KeepAliveTask

        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map=map)
            # Each address has a bounded share of the connections: one device (gone wrong, or hostile)
            # holding many idle or dripping ones never keeps a new phone out.
            host = addr[0] if isinstance(addr, tuple) else addr
            same = [c for c in (map or {}).values() if isinstance(c, HTTPChannel) and c.addr and c.addr[0] == host]
            if len(same) > CONNECTIONS_PER_ADDRESS:
                self.close()

    server = create_server(app, **adjustments)
    assert isinstance(server, BaseWSGIServer)  # one listening socket: 127.0.0.1 or 0.0.0.0
    server.channel_class = KeepAliveChannel
    return server


def serve(app: Flask, port: int, network: bool, threads: int = 8) -> None:

    host = "0.0.0.0" if network else "127.0.0.1"
    address = lan_address() if network else "127.0.0.1"
    url = f"http://{address or '<this computer’s address>'}:{port}/"
    if network and address:
        app.config["PUBLIC_URL"] = url  # share links and QR codes point where phones can reach
        # Phones reach this computer by its address (or its .local name): trust those too.
        name = socket.gethostname()
        app.config["TRUSTED_HOSTS"] = [*app.config["TRUSTED_HOSTS"], address, name, f"{name}.local"]
    # The port first: a start that fails (the port taken) makes no backup and prunes none (under a
    # service's restarts, failed starts once pruned every earlier backup of the month).
    # A body larger than the app takes is refused by waitress from its Content-Length, before it is
    # read (by default waitress would spool up to 1 GiB to disk first).
    server = keep_alive_server(
        app,
        host=host,
        port=port,
        threads=threads,
        ident="scorekeeper",
        max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
        connection_limit=CONNECTION_LIMIT,
        channel_timeout=IDLE_SECONDS,
    )
    with app.app_context():
        problem = automatic_backup("start")
    if problem or app.config["AUTO_BACKUP"]:
        click.echo(problem or f"Database backed up to {app.config['BACKUPS_DIR']}")
    mark_serving(app.config["DATABASE"])
    mirror = app.extensions.get("mirror")
    if mirror is not None:
        mirror.start()
        click.echo(f"Mirroring the database into {mirror.folder} (at most every {mirror.every:g} s)")
    if network and address:
        click.echo("Scan to open it on a phone on the same Wi-Fi:")
        click.echo(terminal_qr(url))
    elif network:
        click.echo("(could not tell this computer's network address: look it up in the network settings,")
        click.echo(f' and add it to {app.instance_path}/config.py as TRUSTED_HOSTS = ["192.168.1.20"] so phones')
        click.echo(" are answered)")
    click.echo("Stop it with Ctrl+C.")
    click.echo(f"Scorekeeper is serving at {url}")  # last: the line a newcomer looks for
    logging.basicConfig()  # waitress's own warnings (a queue of waiting requests) reach the terminal
    server.run()


def serving_marker(database: str) -> Path:
    """Beside the database while a server serves it: the server's process id (a restore refuses)."""
    return Path(f"{database}.serving")


def mark_serving(database: str) -> None:
    marker = serving_marker(database)
    marker.write_text(f"{os.getpid()}\n")
    atexit.register(marker.unlink, missing_ok=True)


def serving_pid(database: str) -> int | None:
    """The process serving this database, if one is alive (a marker left by a killed server is not)."""
    try:
        pid = int(serving_marker(database).read_text().strip())
        os.kill(pid, 0)
    except (OSError, ValueError):
        return None
    return pid if pid != os.getpid() else None
