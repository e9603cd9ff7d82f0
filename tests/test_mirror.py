"""A second copy on another disk (issue 41): the server mirrors the database into MIRROR whenever it
changed, a whole checked copy each time; the home page says when the last copy was made and what is
wrong with the folder; `scorekeeper restore --from-mirror` puts it back after the disk with the
database is lost."""

from __future__ import annotations

import errno
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
import time
import urllib.request
from datetime import datetime
from pathlib import Path

import pytest
from support import PLAYERS, free_port, make_app, start_server

from scorekeeper.store.mirror import MIRROR_NAME, Mirror


def rounds_in(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM events WHERE kind = 'round'").fetchone()[0])
    finally:
        conn.close()


def test_a_copy_is_made_when_the_database_changed_and_only_then(app, api, tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    mirror = Mirror(app.config["DATABASE"], folder)
    first = mirror.copy_if_changed()
    assert first.problem is None and first.made_at is not None
    made = (folder / MIRROR_NAME).stat().st_mtime_ns
    time.sleep(0.01)
    assert mirror.copy_if_changed().made_at == first.made_at  # nothing written: no new copy
    assert (folder / MIRROR_NAME).stat().st_mtime_ns == made
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    assert mirror.copy_if_changed().made_at != first.made_at
    assert rounds_in(folder / MIRROR_NAME) == 1
    assert [p.name for p in folder.iterdir()] == [MIRROR_NAME]  # no passing copy left behind


def test_the_folder_is_never_made_and_its_trouble_is_said(app, tmp_path):
    missing = Mirror(app.config["DATABASE"], tmp_path / "usb")
    assert (
        missing.copy_if_changed().problem
        == f"the mirror folder {tmp_path / 'usb'} is missing (is the disk plugged in?)"
    )
    assert not (tmp_path / "usb").exists()
    (tmp_path / "a-file").write_text("x")
    assert "is a file, not a folder" in (
        Mirror(app.config["DATABASE"], tmp_path / "a-file").copy_if_changed().problem or ""
    )


def test_the_home_page_says_when_the_last_copy_was_made_and_warns_in_words(tmp_path):
    usb = tmp_path / "usb"
    usb.mkdir()
    app = make_app(tmp_path / "instance", MIRROR=str(usb))
    mirror = app.extensions["mirror"]
    mirror.copy_if_changed()
    page = app.test_client().get("/").text
    assert f"Mirror: last copy at {mirror.state.made_at:%H:%M} in {usb}" in page
    usb.rename(tmp_path / "unplugged")
    mirror.copy_if_changed()
    warned = app.test_client().get("/").text
    assert f"the mirror folder {usb} is missing (is the disk plugged in?)" in warned


@pytest.mark.process
def test_the_disk_is_lost_and_the_mirror_brings_back_every_round_saved_before(tmp_path):
    """The server mirrors every 1 s here (MIRROR_SECONDS; 30 by default): it is killed, the database file
    deleted, and `scorekeeper restore --from-mirror` brings back every round saved more than 1 s before."""
    instance, usb = tmp_path / "instance", tmp_path / "usb"
    instance.mkdir()
    usb.mkdir()
    (instance / "config.py").write_text(f"MIRROR = {str(usb)!r}\nMIRROR_SECONDS = 1\n")
    port = free_port()
    server = start_server(instance, port)
    try:
        body = json.dumps({"ruleset": "ten-pennies", "players": PLAYERS}).encode()
        url = f"http://127.0.0.1:{port}/api/games"
        made = urllib.request.Request(url, body, {"Content-Type": "application/json"})
        gid = json.load(urllib.request.urlopen(made))["id"]
        for _ in range(3):
            hand = json.dumps({"went_out": "Ann", "caught": {"Bob": "K", "Cy": "5", "Di": ""}}).encode()
            urllib.request.urlopen(
                urllib.request.Request(f"{url}/{gid}/rounds", hand, {"Content-Type": "application/json"})
            )
        time.sleep(2.5)  # more than a mirror round since the last save
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(timeout=10)
    database = instance / "scorekeeper.sqlite"
    for part in (database, Path(f"{database}-wal"), Path(f"{database}-shm")):
        part.unlink(missing_ok=True)
    command = Path(sys.executable).with_name("scorekeeper")
    done = subprocess.run(
        [str(command), "--instance", str(instance), "restore", "--from-mirror", "--yes"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Restored the mirror copy" in done.stdout
    assert rounds_in(database) == 3


def from_sqlite(code: int) -> sqlite3.Error:
    """An error as SQLite raises it, with its own code (SQLite's codes are not the system's: its
    SQLITE_FULL is 13, the system's EACCES)."""
    error = sqlite3.OperationalError("the copy stopped")
    error.sqlite_errorcode = code
    return error


@pytest.mark.parametrize(
    "error, said",
    [
        (OSError(errno.ENOSPC, "No space left on device"), "is full"),
        (from_sqlite(sqlite3.SQLITE_FULL), "is full"),
        (from_sqlite(sqlite3.SQLITE_READONLY), "cannot be written to"),
        (from_sqlite(sqlite3.SQLITE_CANTOPEN), "cannot be written to"),
        (sqlite3.OperationalError("database or disk is full"), "is full"),
        (OSError(errno.EACCES, "Permission denied"), "cannot be written to"),
        (OSError(errno.EROFS, "Read-only file system"), "cannot be written to"),
        (OSError(errno.EPERM, "Operation not permitted"), "cannot be written to"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "cannot be written to"),
        (sqlite3.OperationalError("unable to open database file"), "cannot be written to"),
    ],
)
def test_a_full_or_read_only_folder_is_said_in_words(app, tmp_path, error, said):
    """What the home page says when the stick is full or cannot be written, from the error the copy met
    (its number, or SQLite's words when it gives no number). A folder the server may not write said
    "is full" (EACCES is 13, as SQLite's SQLITE_FULL)."""
    mirror = Mirror(app.config["DATABASE"], tmp_path)
    assert mirror.problem(error) == f"the mirror folder {tmp_path} {said}"


def test_any_other_trouble_is_said_with_the_error(app, tmp_path):
    mirror = Mirror(app.config["DATABASE"], tmp_path)
    said = mirror.problem(OSError(errno.EIO, "Input/output error"))
    assert said == f"the last copy to the mirror folder {tmp_path} failed: [Errno 5] Input/output error"


def test_a_stick_pulled_out_keeps_the_time_of_the_last_copy_and_the_next_round_copies_again(app, tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    mirror = Mirror(app.config["DATABASE"], folder)
    made = mirror.copy_if_changed().made_at
    folder.rename(tmp_path / "elsewhere")
    pulled = mirror.copy_if_changed()
    assert (pulled.folder, pulled.made_at) == (folder, made) and "is missing" in (pulled.problem or "")
    (tmp_path / "elsewhere").rename(folder)
    (folder / MIRROR_NAME).unlink()  # a stick that came back without its copy
    back = mirror.copy_if_changed()
    assert back.problem is None and back.made_at != made and (folder / MIRROR_NAME).exists()


def test_a_mirror_started_beside_a_copy_says_when_that_copy_was_made(app, tmp_path):
    folder = tmp_path / "usb"
    folder.mkdir()
    Mirror(app.config["DATABASE"], folder).copy_if_changed()
    made = datetime.fromtimestamp((folder / MIRROR_NAME).stat().st_mtime)
    restarted = Mirror(app.config["DATABASE"], folder).state
    assert (restarted.folder, restarted.made_at, restarted.problem) == (folder, made, None)


def test_the_mirror_copy_is_owner_only_whatever_the_umask(tmp_path):
    """Issue 57: served from a shell (umask 022) the mirror copy was 0644, and it holds the PIN hashes."""
    app = make_app(tmp_path / "instance", DATABASE=str(tmp_path / "instance" / "scorekeeper.sqlite"))
    app.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    (tmp_path / "usb").mkdir()
    previous = os.umask(0o022)
    try:
        state = Mirror(app.config["DATABASE"], tmp_path / "usb").copy_if_changed()
    finally:
        os.umask(previous)
    assert state.problem is None
    assert stat.S_IMODE((tmp_path / "usb" / "scorekeeper.sqlite").stat().st_mode) == 0o600
