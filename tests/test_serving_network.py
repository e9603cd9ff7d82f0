"""The phones reach the server on a home network set up as a stock Debian, Ubuntu or Raspberry Pi OS
sets it up (issue 57): the computer's name maps to 127.0.1.1 in /etc/hosts, its LAN address is on a
network interface, and a phone is another host on that network. Built from network namespaces (root
only: CI runs as root); skipped, saying why, where they cannot be made."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import free_port, lines_until

ROOT = Path(__file__).resolve().parents[1]
PI_ADDRESS = "10.77.0.20"  # the server's LAN address, inside the test's own namespaces only
PHONE_ADDRESS = "10.77.0.30"
HOST_NAME = "raspberrypi"
STOCK_HOSTS = f"127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n127.0.1.1\t{HOST_NAME}\n"


@dataclass(frozen=True)
class HomeNetwork:
    pi: str  # the namespace the server runs in
    phone: str  # a phone on the same network

    def on_pi(self, *command: str) -> list[str]:
        """A command on the Pi: its own host name, its stock /etc/hosts (ip netns exec binds it)."""
        script = f'hostname {HOST_NAME} && exec "$@"'
        return ["ip", "netns", "exec", self.pi, "unshare", "--uts", "sh", "-c", script, "sh", *command]

    def fetch(self, namespace: str, url: str, host: str | None = None) -> tuple[int, str]:
        """GET url from a program in that namespace (a phone's browser, or the Pi's own)."""
        code = (
            "import sys, urllib.request, urllib.error\n"
            "request = urllib.request.Request(sys.argv[1], headers={'Host': sys.argv[2]} if sys.argv[2] else {})\n"
            "try:\n"
            "    answer = urllib.request.urlopen(request, timeout=20)\n"
            "    print(answer.status); print(answer.read().decode())\n"
            "except urllib.error.HTTPError as error:\n"
            "    print(error.code); print(error.read().decode())\n"
        )
        done = subprocess.run(
            ["ip", "netns", "exec", namespace, sys.executable, "-c", code, url, host or ""],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        status, _, body = done.stdout.partition("\n")
        return int(status), body


def run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, timeout=30)


@pytest.fixture
def home_network() -> Iterator[HomeNetwork]:
    if os.geteuid() != 0:
        pytest.skip("a home network of namespaces needs root (CI runs as root)")
    if not (shutil.which("ip") and shutil.which("unshare")):
        pytest.skip("a home network of namespaces needs `ip` (iproute2) and `unshare` (util-linux)")
    tag = uuid.uuid4().hex[:6]
    network = HomeNetwork(pi=f"sk-pi-{tag}", phone=f"sk-phone-{tag}")
    hosts = Path("/etc/netns") / network.pi
    try:
        run("ip", "netns", "add", network.pi)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"this machine cannot make network namespaces: {error.stderr.decode().strip()}")
    try:
        run("ip", "netns", "add", network.phone)
        run(
            "ip",
            "link",
            "add",
            f"skp{tag}",
            "netns",
            network.pi,
            "type",
            "veth",
            "peer",
            f"skf{tag}",
            "netns",
            network.phone,
        )
        for namespace, link, address in (
            (network.pi, f"skp{tag}", PI_ADDRESS),
            (network.phone, f"skf{tag}", PHONE_ADDRESS),
        ):
            run("ip", "-n", namespace, "link", "set", "lo", "up")
            run("ip", "-n", namespace, "addr", "add", f"{address}/24", "dev", link)
            run("ip", "-n", namespace, "link", "set", link, "up")
            # A home router at .1 (not there): the route out every home network has.
            run("ip", "-n", namespace, "route", "add", "default", "via", "10.77.0.1")
        hosts.mkdir(parents=True, exist_ok=True)
        (hosts / "hosts").write_text(STOCK_HOSTS)
        yield network
    finally:
        shutil.rmtree(hosts, ignore_errors=True)
        for namespace in (network.pi, network.phone):
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def serve_on_the_pi(network: HomeNetwork, instance: Path, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    """`scripts/run --network` on the Pi, as the README says; its lines up to the address it serves at."""
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance)}
    server = subprocess.Popen(
        network.on_pi(str(ROOT / "scripts" / "run"), "--network", "--port", str(port)),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines = lines_until(server, "Scorekeeper is serving at", seconds=60)
    return server, lines


@pytest.mark.process
def test_on_a_stock_home_network_the_phones_get_the_address_a_qr_code_and_the_pages(home_network, tmp_path):
    port = free_port()
    server, lines = serve_on_the_pi(home_network, tmp_path / "instance", port)
    try:
        url = f"http://{PI_ADDRESS}:{port}/"
        assert lines and lines[-1] == f"Scorekeeper is serving at {url}", lines
        said = "\n".join(lines)
        assert "could not" not in said and "127.0.1.1" not in said
        assert f"open {url}" in said and any("▀" in line or "█" in line for line in lines)  # the QR code
        assert f"http://{HOST_NAME}.local:{port}" in said

        status, page = home_network.fetch(home_network.phone, url)
        assert status == 200 and "Scorekeeper" in page
        assert home_network.fetch(home_network.phone, url, host=f"{HOST_NAME}.local:{port}")[0] == 200
        assert home_network.fetch(home_network.phone, url, host=f"evil.example:{port}")[0] == 400

        # The host starts the night in their own browser (localhost): its share link names the LAN address.
        started = home_network.fetch(home_network.pi, f"http://127.0.0.1:{port}/nights", host=None)
        assert started[0] == 200
        night = post_json(home_network, f"http://127.0.0.1:{port}/api/nights", {})
        link = json.loads(home_network.fetch(home_network.pi, f"http://127.0.0.1:{port}/api/nights/{night['id']}")[1])
        assert link["share_url"].startswith(url), link["share_url"]
        assert home_network.fetch(home_network.phone, link["share_url"])[0] == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


def post_json(network: HomeNetwork, url: str, body: object) -> dict[str, object]:
    code = (
        "import json, sys, urllib.request\n"
        "request = urllib.request.Request(sys.argv[1], data=sys.argv[2].encode(), method='POST',\n"
        "    headers={'Content-Type': 'application/json'})\n"
        "print(urllib.request.urlopen(request, timeout=20).read().decode())\n"
    )
    done = subprocess.run(
        ["ip", "netns", "exec", network.pi, sys.executable, "-c", code, url, json.dumps(body)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


def test_the_addresses_found_are_this_machine_s_own_and_never_loopback():
    """Read from the interfaces and the route out, never from the host name (whatever /etc/hosts says)."""
    from scorekeeper.host import serving

    found = serving.lan_addresses()
    assert not [address for address in found if address.startswith(("127.", "169.254."))]
    if shutil.which("ip"):
        listed = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True).stdout
        own = set(re.findall(r"inet (\d+\.\d+\.\d+\.\d+)/", listed)) - {"127.0.0.1"}
        assert set(found) <= own
        assert set(found) or not own
