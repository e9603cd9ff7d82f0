"""Serving the app for a table: waitress (a production WSGI server in pure Python), on this
computer only by default, or on the home network with ``--network``, with a QR code to scan."""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import socket
import struct
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click
from flask import Flask

from ..store import automatic_backup

if TYPE_CHECKING:
    from waitress.server import BaseWSGIServer

DEFAULT_PORT = 5000


# Where a datagram to these would leave from: the address on the way out (no packet is sent by a
# UDP socket's connect). The first is TEST-NET-1 (RFC 5737), found by the default route.
ROUTE_PROBES = ("192.0.2.1", "10.255.255.254", "172.31.255.254", "192.168.255.254")
# Interfaces a phone never reaches this computer through: containers' and virtual machines' bridges.
VIRTUAL_INTERFACES = ("lo", "docker", "br-", "veth", "virbr", "cni", "flannel")
SIOCGIFADDR = 0x8915  # Linux's ioctl for an interface's IPv4 address


def lan_addresses() -> list[str]:
    """This computer's addresses that the phones on its network can open, the one on the way out
    first. Read from the network interfaces and the routes, never from the host name: on a stock
    Debian, Ubuntu or Raspberry Pi OS the host name maps to 127.0.1.1 in /etc/hosts."""
    found = [*route_addresses(), *interface_addresses()]
    usable = [address for address in dict.fromkeys(found) if reachable_by_phones(address)]
    return sorted(usable, key=lambda address: not ipaddress.ip_address(address).is_private)


def reachable_by_phones(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def route_addresses() -> list[str]:
    found = []
    for probe in ROUTE_PROBES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe_socket:
            try:
                probe_socket.connect((probe, 9))
            except OSError:  # no route that way
                continue
            found.append(str(probe_socket.getsockname()[0]))
    return found


def interface_addresses() -> list[str]:
    """Each interface's IPv4 address (Linux; elsewhere none, and the routes alone answer)."""
    try:
        import fcntl
    except ImportError:
        return []
    found = []
    for _index, name in socket.if_nameindex():
        if name.startswith(VIRTUAL_INTERFACES):
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as query:
            try:
                answer = fcntl.ioctl(query.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:  # no IPv4 address on it
                continue
        found.append(socket.inet_ntoa(answer[20:24]))
    return found


def terminal_qr(url: str) -> str:
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True)
    return out.getvalue()


CONNECTION_LIMIT = 500  # all addresses together (waitress's default is 100); select() keeps it under 1,024
ROOM_FOR_NEWCOMERS = 50  # past CONNECTION_LIMIT less this, each new connection makes room for itself
IDLE_SECONDS = 30  # an idle kept-alive connection is closed after this (waitress's default is 120)
WHOLE_REQUEST_SECONDS = 15  # a request must arrive whole within this (REQUEST_SECONDS in config.py)
SWITCH_SECONDS = 0.001  # how often a thread hands the interpreter lock on while serving (Python: 0.005)
MAINTENANCE_SECONDS = 1  # how often idle and dripping connections are looked for (waitress: 30)


def keep_alive_server(app: Flask, **adjustments: Any) -> BaseWSGIServer:
    """waitress's server, with two changes for a table's phones:

    - An HTTP/1.1 answer without a body (the 304 of every unchanged poll) leaves the connection open.
      waitress 3 closes it because such an answer has no Content-Length, though RFC 9112 says a 304
      ends at its headers; every phone's poll then paid for a new TCP connection.
    - No address is refused for how many connections it holds (a household behind one address, a
      reverse proxy, a guest network's NAT: a dozen phones and a tablet). Instead a request dripped
      slower than ``WHOLE_REQUEST_SECONDS`` (config.py's REQUEST_SECONDS) is closed, and near the
      limit each new connection makes room by closing an unbusy one of the address holding the most:
      a device (gone wrong, or hostile) holding hundreds of connections never keeps a new phone out."""
    from waitress.channel import HTTPChannel
    from waitress.server import BaseWSGIServer, create_server
    from waitress.task import WSGITask

    # A phone's request is a few hundred bytes: seconds are plenty on the worst Wi-Fi.
    whole_request_seconds = float(app.config.get("REQUEST_SECONDS") or WHOLE_REQUEST_SECONDS)

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

    class TableChannel(HTTPChannel):
        task_class = KeepAliveTask
        request_began: float | None = None  # when the request being read began to arrive

        def __init__(self, server: Any, sock: Any, addr: Any, adj: Any, map: Any = None) -> None:
            super().__init__(server, sock, addr, adj, map=map)
            channels = [c for c in (map or {}).values() if isinstance(c, TableChannel)]
            if len(channels) > CONNECTION_LIMIT - ROOM_FOR_NEWCOMERS:
                make_room(channels, newcomer=self)

        def received(self, data: bytes) -> bool:
            if self.request is None and data:
                self.request_began = time.time()
            done: bool = super().received(data)
            if self.request is None:  # nothing half read
                self.request_began = None
            return done

        def dripping(self, now: float) -> bool:
            return self.request_began is not None and now - self.request_began > whole_request_seconds

        def unbusy(self) -> bool:
            """Nothing asked of the app is waiting on it: idle, or still dripping its request in."""
            return not self.requests

    def make_room(channels: list[TableChannel], newcomer: TableChannel) -> None:
        held: dict[Any, list[TableChannel]] = {}
        for channel in channels:
            if channel is not newcomer and channel.unbusy():
                held.setdefault(address_of(channel), []).append(channel)
        if held:
            most = max(held.values(), key=len)
            now = time.time()
            victim = min(most, key=lambda channel: (not channel.dripping(now), channel.last_activity))
            victim.close()

    def address_of(channel: HTTPChannel) -> Any:
        return channel.addr[0] if isinstance(channel.addr, tuple) else channel.addr

    server = create_server(app, **adjustments)
    assert isinstance(server, BaseWSGIServer)  # one listening socket: 127.0.0.1 or 0.0.0.0
    server.channel_class = TableChannel
    close_idle = server.maintenance

    def maintenance(now: int) -> None:  # waitress passes time.time(), a float (its stubs say int)
        close_idle(now)
        open_channels: dict[int, Any] = server.active_channels  # type: ignore[assignment]  # stubs: one channel
        for channel in list(open_channels.values()):
            if isinstance(channel, TableChannel) and channel.dripping(now):
                channel.will_close = True

    server.maintenance = maintenance  # type: ignore[method-assign]
    return server


class ServeRefused(click.ClickException):
    """A start that cannot go on, said in one line (no traceback for a table to read)."""


def serve(app: Flask, port: int, network: bool, threads: int = 8) -> None:
    database = app.config["DATABASE"]
    lock = hold_serving_lock(database)
    urls = table_addresses(app, port, network)
    # The port first: a start that fails (the port taken) makes no backup and prunes none (under a
    # service's restarts, failed starts once pruned every earlier backup of the month).
    server = bound_server(app, port, network, threads)
    with app.app_context():
        problem = automatic_backup("start")
    if problem or app.config["AUTO_BACKUP"]:
        click.echo(problem or f"Database backed up to {app.config['BACKUPS_DIR']}")
    mirror = app.extensions.get("mirror")
    if mirror is not None:
        mirror.start()
        click.echo(f"Mirroring the database into {mirror.folder} (at most every {mirror.every:g} s)")
    say_where_phones_go(app, network, urls)
    click.echo("Stop it with Ctrl+C.")
    click.echo(f"Scorekeeper is serving at {urls[0]}")  # last: the line a newcomer looks for
    logging.basicConfig()  # waitress's own warnings (a queue of waiting requests) reach the terminal
    # A page's thread waits for the interpreter lock behind the hands being searched: handing it over
    # every millisecond (not 5) keeps pages quick while "can I go down?" searches run (issue 58).
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        server.run()
    finally:
        lock.close()


def bound_server(app: Flask, port: int, network: bool, threads: int) -> BaseWSGIServer:
    """waitress holding its port, or one line naming the port and ``--port``."""
    try:
        # A body larger than the app takes is refused by waitress from its Content-Length, before it
        # is read (by default waitress would spool up to 1 GiB to disk first).
        return keep_alive_server(
            app,
            host="0.0.0.0" if network else "127.0.0.1",
            port=port,
            threads=threads,
            ident="scorekeeper",
            max_request_body_size=app.config["MAX_CONTENT_LENGTH"],
            connection_limit=CONNECTION_LIMIT,
            channel_timeout=IDLE_SECONDS,
            cleanup_interval=MAINTENANCE_SECONDS,
            # The app reads X-Forwarded-* from its TRUSTED_PROXIES only, and drops them from anyone else
            # (web.TrustedProxies): waitress must pass them on to it.
            clear_untrusted_proxy_headers=False,
        )
    except OSError as error:
        if error.errno in (errno.EADDRINUSE, errno.EACCES):
            why = "is in use by another program" if error.errno == errno.EADDRINUSE else "is not open to this user"
            raise ServeRefused(f"port {port} {why}: serve on another one with --port, e.g. --port 5080") from None
        raise ServeRefused(f"cannot serve on port {port} ({error.strerror})") from None


def table_addresses(app: Flask, port: int, network: bool) -> list[str]:
    """The addresses to print, the one share links use first. On the network the app also answers
    to each of them and to ``<name>.local``; without it, pages say that phones cannot reach it."""
    if not network:
        app.config["THIS_COMPUTER_ONLY"] = True
        return [f"http://127.0.0.1:{port}/"]
    addresses = lan_addresses()
    name = socket.gethostname()
    app.config["TRUSTED_HOSTS"] = [*app.config["TRUSTED_HOSTS"], *addresses, name, f"{name}.local"]
    if not addresses:
        return [f"http://<this computer’s address>:{port}/"]
    urls = [f"http://{address}:{port}/" for address in addresses]
    app.config["PUBLIC_URL"] = urls[0]  # share links asked from this computer point where phones go
    return urls


def say_where_phones_go(app: Flask, network: bool, urls: list[str]) -> None:
    if not network:
        click.echo("Phones cannot open this address: to serve the phones on the same Wi-Fi, run it with --network.")
        return
    if "<" in urls[0]:
        click.echo("(could not find this computer's network address: `hostname -I` prints it; add it to")
        click.echo(f' {app.instance_path}/config.py as TRUSTED_HOSTS = ["192.168.1.20"] so phones are answered)')
        return
    for url in urls:
        click.echo(f"Phones on the same Wi-Fi: scan this, or open {url}")
        click.echo(terminal_qr(url))
    name = socket.gethostname()
    port = urls[0].rsplit(":", 1)[1]
    click.echo(f"(where the network knows this computer's name: http://{name}.local:{port})")


def serving_lock_path(database: str) -> Path:
    """Beside the database: a server holds an OS lock on it while it serves (a restore, or a second
    server, is refused meanwhile). The lock, not the process number written in it, is what counts:
    a process number can be reused after a crash, a lock dies with its process."""
    return Path(f"{database}.serving")


def hold_serving_lock(database: str) -> TextIO:
    """The serving lock, held until the returned file is closed (or the process ends); or one line
    saying which process serves this database already."""
    handle = take_lock(database)
    if handle is None:
        pid = serving_pid(database)
        raise ServeRefused(
            f"another Scorekeeper server (process {pid}) is serving this database already: "
            "open that one, or stop it first"
        )
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def take_lock(database: str) -> TextIO | None:
    import fcntl

    handle = open(serving_lock_path(database), "a+", encoding="utf-8")  # noqa: SIM115 (held while serving)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def serving_pid(database: str) -> int | None:
    """The process serving this database while one holds its lock (0 where it wrote no number);
    None when nobody does, whatever an old file says."""
    if not serving_lock_path(database).exists():
        return None
    free = take_lock(database)
    if free is not None:
        free.close()
        return None
    try:
        return int(serving_lock_path(database).read_text().strip() or 0)
    except (OSError, ValueError):
        return 0
