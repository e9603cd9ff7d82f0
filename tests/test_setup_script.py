"""scripts/setup touches the system only when something is missing (issue 57): with everything there
it ran apt-get in 6 of 10 starts (a pipeline that failed by SIGPIPE), a sudo prompt for a host who is
not root, and a stop while unattended upgrades held the dpkg lock."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def stand_ins(folder: Path, **scripts: str) -> dict[str, str]:
    """Commands that write down that they were called (and what to print), first on the PATH."""
    folder.mkdir(exist_ok=True)
    for name, body in scripts.items():
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return {**os.environ, "PATH": f"{folder}:{os.environ['PATH']}", "SCOREKEEPER_WITH_TEST_TOOLS": "1"}


def setup(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ROOT / "scripts" / "setup")], env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.process
def test_with_everything_installed_setup_never_calls_apt_in_20_runs(tmp_path):
    calls = tmp_path / "calls"
    env = stand_ins(tmp_path / "bin", **{name: f'echo "{name} $*" >> {calls}' for name in ("apt-get", "sudo")})
    if setup(env).returncode != 0 or calls.exists():
        pytest.skip(f"this machine lacks a system package the setup installs: {calls.read_text().strip()}")
    for _ in range(20):
        done = setup(env)
        assert done.returncode == 0, done.stderr
        assert not calls.exists(), calls.read_text()
        assert "Installing" not in done.stdout


@pytest.mark.process
def test_a_missing_library_is_named_with_why_in_one_line_before_apt_runs(tmp_path):
    calls = tmp_path / "calls"
    env = stand_ins(
        tmp_path / "bin",
        **{name: f'echo "{name} $*" >> {calls}' for name in ("apt-get", "sudo")},
        ldconfig="exit 0",  # lists no library: Pango and HarfBuzz look missing
    )
    done = setup(env)
    assert done.returncode == 0, done.stderr
    [said] = [line for line in done.stdout.splitlines() if line.startswith("Installing")]
    assert said == (
        "Installing system packages, as Pango (PDFs), HarfBuzz subsetting (quick PDFs) are missing: "
        "libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0"
    )
    assert "apt-get install -y -qq libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0" in calls.read_text()
