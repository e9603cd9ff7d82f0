"""The browser tests' own server (browser_support.serving) stops cleanly: its loop thread ends and
no socket of it stays open, even with a phone's keep-alive connection still open. Stopped the old
way (``server.close()`` from the test's thread) the loop ran on, and its workers' wake-up byte
could land in the next test's new database ("file is not a database" under load)."""

from __future__ import annotations

import http.client
import os
import threading

from browser_support import serving
from support import free_port, make_app


def open_descriptors() -> set[int]:
    return {int(name) for name in os.listdir("/proc/self/fd")}


def test_a_stopped_server_leaves_no_loop_running_and_no_socket_open(tmp_path):
    app = make_app(tmp_path, TESTING=False)
    before_threads, before = set(threading.enumerate()), open_descriptors()
    port = free_port()
    with serving(app, port):
        phone = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        phone.request("GET", "/healthz")
        assert phone.getresponse().status == 200  # answered; the connection stays open (keep-alive)
    left = [thread for thread in threading.enumerate() if thread not in before_threads and thread.is_alive()]
    assert left == []
    phone.close()
    assert open_descriptors() - before == set()  # its socket, its wake-up pipe, the phone's channel: closed
