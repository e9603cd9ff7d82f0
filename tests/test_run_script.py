"""scripts/run as a newcomer sees it (issue 43): a few lines saying what it does, no warning, and the
address to open as its last line."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from support import free_port, lines_until

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.process
def test_scripts_run_says_little_and_ends_with_the_address(tmp_path):
    port = free_port()
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path / "instance")}
    server = subprocess.Popen(
        [str(ROOT / "scripts" / "run"), "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    address = f"http://127.0.0.1:{port}/"
    try:
        lines = lines_until(server, "Scorekeeper is serving at")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert lines and lines[-1] == f"Scorekeeper is serving at {address}", lines
    assert len(lines) <= 6, lines
    assert not [line for line in lines if "warn" in line.lower()], lines
