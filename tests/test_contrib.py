"""The systemd unit in contrib/ (issue 28: serving for years), checked with `systemd-analyze verify`
with its paths pointed at this machine's: the command it starts exists and the unit is well formed."""

from __future__ import annotations

import getpass
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[1] / "contrib" / "scorekeeper.service"


def test_the_unit_serves_the_installed_command_for_the_network_restarting_on_failure():
    text = UNIT.read_text()
    assert "ExecStart=/home/cards/.local/bin/scorekeeper serve --network --port 5000" in text
    assert "Restart=on-failure" in text and "WantedBy=multi-user.target" in text
    assert "Environment=SCOREKEEPER_INSTANCE=/home/cards/.local/share/scorekeeper" in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
def test_systemd_analyze_verifies_the_unit(tmp_path):
    command = Path(sys.executable).with_name("scorekeeper")
    unit = tmp_path / "scorekeeper.service"
    unit.write_text(
        UNIT.read_text()
        .replace("/home/cards/.local/bin/scorekeeper", str(command))
        .replace("/home/cards/.local/share/scorekeeper", str(tmp_path / "absent"))  # as after a pipx install
    )
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    unit.write_text(unit.read_text().replace(str(command), "/nowhere/scorekeeper"))
    broken = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert broken.returncode != 0 and "/nowhere/scorekeeper" in broken.stderr


TEMPLATE = UNIT.with_name("scorekeeper@.service")


def test_the_template_gives_each_household_its_folder_and_port():
    """Issue 41: one machine, several households: `scorekeeper@smiths` serves the Smiths' folder on the
    port their /etc/scorekeeper/smiths.env gives."""
    text = TEMPLATE.read_text()
    assert "EnvironmentFile=/etc/scorekeeper/%i.env" in text
    assert "Environment=SCOREKEEPER_INSTANCE=/home/cards/.local/share/scorekeeper/%i" in text
    assert "ExecStart=/home/cards/.local/bin/scorekeeper serve --network --port ${SCOREKEEPER_PORT}" in text
    assert "Restart=on-failure" in text and "WantedBy=multi-user.target" in text


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not on this machine")
def test_systemd_analyze_verifies_a_households_instance(tmp_path):
    command = Path(sys.executable).with_name("scorekeeper")
    (tmp_path / "smiths.env").write_text("SCOREKEEPER_PORT=5001\n")
    unit = tmp_path / "scorekeeper@smiths.service"
    unit.write_text(
        TEMPLATE.read_text()
        .replace("/home/cards/.local/bin/scorekeeper", str(command))
        .replace("/home/cards/.local/share/scorekeeper", str(tmp_path))
        .replace("/etc/scorekeeper", str(tmp_path))
    )
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "", result.stderr


@pytest.mark.parametrize("unit", [UNIT, TEMPLATE], ids=["single", "template"])
def test_the_folder_the_sandbox_opens_is_made_before_it_when_absent(tmp_path, unit):
    """Issue 57: after the documented pipx install the unit could not start: its ReadWritePaths= folder
    did not exist and nothing made it (226/NAMESPACE, restarted forever). The step before the sandbox
    makes it, as the unit's user, owner-only: run here as written (this user for `cards`), on a folder
    that is absent, it makes the folder the sandbox opens."""
    text = unit.read_text().replace("%i", "smiths")
    [pre] = re.findall(r"^ExecStartPre=\+(.*)$", text, flags=re.MULTILINE)
    [opened] = re.findall(r"^ReadWritePaths=(.*)$", text, flags=re.MULTILINE)
    home = tmp_path / "home"
    command = shlex.split(pre.replace("/home/cards", str(home)).replace("-u cards", f"-u {getpass.getuser()}"))
    assert command[0] == "/usr/sbin/runuser" and command[3] == "--"
    if not Path(command[0]).exists() or os.geteuid() != 0:
        command = command[4:]  # runuser needs root: the same mkdir as this user
    subprocess.run(command, check=True, timeout=30)
    made = Path(command[-1])
    assert made.is_dir() and stat.S_IMODE(made.stat().st_mode) == 0o700
    assert (
        made == Path(opened.replace("/home/cards", str(home)))
        or Path(opened.replace("/home/cards", str(home))) in made.parents
    )
