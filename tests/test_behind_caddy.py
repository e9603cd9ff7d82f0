"""Behind Caddy with ``tls internal`` (issue 57), as docs/host.md's recipe sets it up: the pages are
served over https with the household's own certificate authority, the app sees each phone's own
address (not the proxy's), and 13 phones through the proxy are all answered. Skipped, saying why,
where Caddy (Debian's package `caddy`) is not installed."""

from __future__ import annotations

import http.client
import os
import re
import shutil
import ssl
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support import free_port, start_server, words

ROOT = Path(__file__).resolve().parents[1]


def caddyfile_from_the_guide() -> str:
    """The Caddyfile docs/host.md gives, word for word."""
    guide = (ROOT / "docs" / "host.md").read_text()
    [text] = re.findall(r"```caddyfile\n(.*?)```", guide, flags=re.DOTALL)
    return text


@pytest.fixture
def behind_caddy(tmp_path: Path):
    if shutil.which("caddy") is None:
        pytest.skip("Caddy is not installed here (Debian's package `caddy`)")
    app_port, https_port = free_port(), free_port()
    data = tmp_path / "caddy"
    root_certificate = data / "pki" / "authorities" / "local" / "root.crt"
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text(f'TRUSTED_PROXIES = ["127.0.0.1"]\nTRUST_CERTIFICATE = "{root_certificate}"\n')
    caddyfile = tmp_path / "Caddyfile"
    caddyfile.write_text(
        # The test's own: no admin port, its own storage, the trust not installed into this machine.
        f"{{\n\tadmin off\n\tskip_install_trust\n\tstorage file_system {data}\n\thttp_port {free_port()}\n}}\n"
        + caddyfile_from_the_guide()
        .replace("raspberrypi.local", f"localhost:{https_port}")
        .replace("127.0.0.1:5000", f"127.0.0.1:{app_port}")
        .replace("reverse_proxy", "bind 127.0.0.1\n\treverse_proxy")
    )
    app = start_server(instance, app_port)
    caddy = subprocess.Popen(
        ["caddy", "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
        env={**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        trusted = wait_for_https(https_port, root_certificate, caddy)
        yield https_port, trusted, root_certificate
    finally:
        caddy.terminate()
        caddy.wait(timeout=30)
        app.terminate()
        app.wait(timeout=30)


def wait_for_https(port: int, root_certificate: Path, caddy: subprocess.Popen[bytes]) -> ssl.SSLContext:
    """Caddy's own certificate authority, once it made it, and the port answering with it."""
    for _ in range(600):
        if caddy.poll() is not None:
            raise RuntimeError(f"caddy stopped: {caddy.stderr.read().decode() if caddy.stderr else ''}")
        if root_certificate.exists():
            trusted = ssl.create_default_context(cafile=str(root_certificate))
            try:
                phone("127.0.0.2", port, trusted).request("GET", "/healthz")
                return trusted
            except OSError:
                pass
        time.sleep(0.05)
    raise RuntimeError("caddy did not answer over https")


def phone(address: str, port: int, trusted: ssl.SSLContext) -> http.client.HTTPSConnection:
    """A phone on the household's network: its own address, trusting the household's certificate."""
    return http.client.HTTPSConnection("localhost", port, timeout=20, context=trusted, source_address=(address, 0))


def get(address: str, port: int, trusted: ssl.SSLContext, path: str) -> tuple[int, str]:
    connection = phone(address, port, trusted)
    connection.request("GET", path)
    response = connection.getresponse()
    return response.status, response.read().decode()


@pytest.mark.process
def test_over_https_the_app_sees_the_phone_and_hands_it_the_certificate(behind_caddy):
    port, trusted, root_certificate = behind_caddy
    status, page = get("127.0.0.7", port, trusted, "/help/this-phone")
    assert status == 200
    said = words(page)
    assert f"This phone reaches Scorekeeper at https://localhost:{port}/; the server sees it as 127.0.0.7." in said
    assert "The connection is https" in said and "Trust this phone" in said
    status, certificate = get("127.0.0.7", port, trusted, "/help/this-phone/scorekeeper-ca.crt")
    assert status == 200 and certificate == root_certificate.read_text()
    status, night = get("127.0.0.7", port, trusted, "/nights")
    assert status == 200


@pytest.mark.process
def test_thirteen_phones_through_the_proxy_are_all_answered(behind_caddy):
    port, trusted, _ = behind_caddy

    def one_phone(number: int) -> list[int]:
        connection = phone(f"127.0.0.{20 + number}", port, trusted)
        statuses = []
        for path in ("/", "/healthz", "/nights", "/help/this-phone"):
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            statuses.append(response.status)
        return statuses

    with ThreadPoolExecutor(max_workers=13) as pool:
        answers = list(pool.map(one_phone, range(13)))
    assert answers == [[200, 200, 200, 200]] * 13
