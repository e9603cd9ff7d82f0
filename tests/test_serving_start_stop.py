"""Starts and stops that explain themselves (issue 57): a port in use, a second server on the same
database, a marker left by a crash whose process number now belongs to another program, and a
mirror put back after the disk with the database and its config was lost."""

from __future__ import annotations

import shutil
import socket
import sqlite3
import subprocess
from pathlib import Path

import pytest
from support import PLAYERS, free_port, make_app, start_server
from test_backups import games_in, scorekeeper

from scorekeeper.store import Store, backups


def instance_with_games(instance: Path, games: int) -> Path:
    """An instance whose database holds this many games; returns the database."""
    database = instance / "scorekeeper.sqlite"
    client = make_app(instance, DATABASE=str(database)).test_client()
    for _ in range(games):
        assert client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS}).status_code == 201
    return database


def mirror_copy(database: Path, folder: Path) -> None:
    """A whole copy, as the mirror makes one (SQLite's backup: the -wal's rows too)."""
    source, target = sqlite3.connect(database), sqlite3.connect(folder / "scorekeeper.sqlite")
    with target:
        source.backup(target)
    source.close()
    target.close()


@pytest.mark.process
def test_a_port_in_use_is_one_line_naming_it_and_port(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        failed = scorekeeper(tmp_path, "serve", "--port", str(port))
    finally:
        taken.close()
    assert failed.returncode != 0 and "Traceback" not in failed.stderr
    assert failed.stderr.strip() == (
        f"Error: port {port} is in use by another program: serve on another one with --port, e.g. --port 5080"
    )


@pytest.mark.process
def test_a_second_server_on_the_same_database_is_refused_while_the_first_serves(tmp_path):
    first = start_server(tmp_path, free_port())
    try:
        second = scorekeeper(tmp_path, "serve", "--port", str(free_port()))
        assert second.returncode != 0 and "Traceback" not in second.stderr
        assert f"another Scorekeeper server (process {first.pid}) is serving this database already" in second.stderr
        assert backups.list_backups(tmp_path / "backups") != []  # the first one's start backup, still there
    finally:
        first.terminate()
        first.wait(timeout=30)
    # Stopped, it holds nothing: a restore goes through, and a new server starts.
    [made] = backups.list_backups(tmp_path / "backups")
    assert scorekeeper(tmp_path, "restore", made.name, "--yes").returncode == 0
    start_server(tmp_path, free_port()).terminate()


@pytest.mark.process
def test_a_marker_left_by_a_crash_never_blocks_even_when_its_process_number_is_reused(tmp_path):
    instance_with_games(tmp_path, 1)
    made = backups.make_backup(Store(str(tmp_path / "scorekeeper.sqlite")), tmp_path / "backups", "by-hand")
    alive = subprocess.Popen(["sleep", "60"])  # the crashed server's number, now another program's
    try:
        (tmp_path / "scorekeeper.sqlite.serving").write_text(f"{alive.pid}\n")
        restored = scorekeeper(tmp_path, "restore", made.name, "--yes")
        assert restored.returncode == 0, restored.stderr
        server = start_server(tmp_path, free_port())
        server.terminate()
        server.wait(timeout=30)
    finally:
        alive.kill()


@pytest.mark.process
def test_the_mirror_comes_back_from_its_folder_after_the_database_and_config_are_lost(tmp_path):
    instance = tmp_path / "instance"
    mirror = tmp_path / "usb"
    mirror.mkdir()
    database = instance_with_games(instance, 2)
    (instance / "config.py").write_text(f"MIRROR = {str(mirror)!r}\n")
    mirror_copy(database, mirror)
    shutil.rmtree(instance)  # the server's disk is gone, config.py with it

    done = scorekeeper(instance, "restore", "--from-mirror", str(mirror), "--yes")
    assert done.returncode == 0, done.stderr
    assert f"The mirror copy {mirror / 'scorekeeper.sqlite'} holds 2 games in 0 nights" in done.stdout
    assert "There was no database before it." in done.stdout
    assert games_in(instance / "scorekeeper.sqlite") == 2


@pytest.mark.process
def test_the_mirror_says_when_the_database_it_would_replace_is_newer(tmp_path):
    mirror = tmp_path / "usb"
    mirror.mkdir()
    database = instance_with_games(tmp_path / "instance", 2)
    mirror_copy(database, mirror)
    instance_with_games(tmp_path / "instance", 1)  # a game entered since the last copy

    asked = scorekeeper(tmp_path / "instance", "restore", "--from-mirror", str(mirror), stdin="n\n")
    assert "The database it replaces holds 3 games in 0 nights" in asked.stdout
    assert "The database is newer than the mirror copy: restoring would take those games back." in asked.stdout
    assert asked.returncode != 0  # "n": nothing changed
    assert games_in(tmp_path / "instance" / "scorekeeper.sqlite") == 3


@pytest.mark.process
def test_a_mirror_folder_without_a_copy_and_a_missing_backup_name_are_one_line_before_any_question(tmp_path):
    instance_with_games(tmp_path, 1)
    empty = scorekeeper(tmp_path, "restore", "--from-mirror", str(tmp_path / "nowhere"))
    assert empty.returncode != 0 and "Traceback" not in empty.stderr
    assert f"no mirror copy to restore in {tmp_path / 'nowhere'}" in empty.stderr
    unset = scorekeeper(tmp_path, "restore", "--from-mirror")
    assert "no MIRROR folder is set in config.py: name the folder" in unset.stderr
    missing = scorekeeper(tmp_path, "restore", "no-such-backup.sqlite")  # no --yes: it must not ask first
    assert "Replace the database" not in missing.stdout
    assert "no backup named 'no-such-backup.sqlite'" in missing.stderr


def test_the_serving_lock_is_held_by_the_open_file_not_by_the_number_in_it(tmp_path):
    from scorekeeper.host import serving

    database = str(tmp_path / "scorekeeper.sqlite")
    assert serving.serving_pid(database) is None
    held = serving.hold_serving_lock(database)
    try:
        # Another process sees it held (flock is per open file: this process's second open is refused too).
        assert serving.take_lock(database) is None
    finally:
        held.close()
    assert serving.take_lock(database) is not None
