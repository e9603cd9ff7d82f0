"""A full disk is a full disk, at every step (issue 57): the held-out probe, as a host lives it. The
server is started on a disk already full (its database closed cleanly, so SQLite must make its -shm);
the host follows what the app prints, and tries the restore it might reach for anyway. Nothing may be
lost, no 0-byte database left, nothing moved out of sight, and the app never starts empty. On a real
small tmpfs (root only; skipped, saying why, elsewhere)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, free_port, start_server
from test_backups import games_in, scorekeeper

from scorekeeper.store import backups


def games_and_a_backup(instance: Path, games: int) -> None:
    """A database with games and a backup, made by a process that then ends: its connections closed
    cleanly, so SQLite has folded the -wal in and deleted it and the -shm, as after a server's stop."""
    code = (
        "import sys\n"
        "sys.path.insert(0, 'tests')\n"
        "from pathlib import Path\n"
        "from support import PLAYERS, make_app\n"
        "from scorekeeper import instance_secret\n"
        "from scorekeeper.store import Store, backups\n"
        "instance = Path(sys.argv[1])\n"
        "database = instance / 'scorekeeper.sqlite'\n"
        "client = make_app(instance, DATABASE=str(database)).test_client()\n"
        "for _ in range(int(sys.argv[2])):\n"
        "    client.post('/api/games', json={'ruleset': 'ten-pennies', 'players': PLAYERS})\n"
        "store = Store(str(database))\n"
        "backups.make_backup(store, instance / 'backups', 'by-hand')\n"
        "store.close()\n"
        "instance_secret(instance)  # as the first start made it\n"
    )
    subprocess.run([sys.executable, "-c", code, str(instance), str(games)], check=True, cwd=ROOT, timeout=120)
    assert not (instance / "scorekeeper.sqlite-shm").exists()


def fill(disk: Path) -> Path:
    filler = disk / "filler"
    handle = open(filler, "wb", buffering=0)  # noqa: SIM115 (its close may fail as its writes do)
    try:
        while True:
            handle.write(bytes(4096))
    except OSError:
        pass
    handle.close()
    return filler


@pytest.mark.process
def test_started_on_a_full_disk_and_following_the_advice_nothing_is_lost(small_disk):
    instance = small_disk / "instance"
    database = instance / "scorekeeper.sqlite"
    games_and_a_backup(instance, 2)
    [made] = backups.list_backups(instance / "backups")
    size = database.stat().st_size
    filler = fill(small_disk)

    started = scorekeeper(instance, "serve", "--port", str(free_port()))
    assert started.returncode != 0 and "Traceback" not in started.stderr
    said = started.stderr.strip()
    assert "is full" in said and "free some space on it, then start again" in said, said
    assert "KB free, it needs at least 1024 KB" in said
    assert "do not restore a backup over it" in said

    listed = scorekeeper(instance, "restore")  # a host looks at the backups anyway: that works
    assert made.name in listed.stdout
    tried = scorekeeper(instance, "restore", made.name, "--yes")  # …and tries one, against the advice
    assert tried.returncode != 0 and "Traceback" not in tried.stderr
    assert "is full" in tried.stderr and "a restore needs" in tried.stderr and "nothing was changed" in tried.stderr
    assert database.stat().st_size == size and backups.set_aside_files(instance / "backups") == []

    filler.unlink()  # the advice: free some space, then start again
    server = start_server(instance, free_port())
    server.terminate()
    server.wait(timeout=30)
    assert games_in(database) == 2  # never an empty app


@pytest.mark.process
def test_a_restore_that_cannot_finish_leaves_no_empty_database_and_lists_what_it_moved(tmp_path):
    """A database proven damaged is moved aside (on a disk with room) and listed by `restore`; a
    restore into a place with no database that fails leaves no 0-byte file behind."""
    instance = tmp_path / "instance"
    database = instance / "scorekeeper.sqlite"
    games_and_a_backup(instance, 1)
    [made] = backups.list_backups(instance / "backups")
    database.write_bytes(b"SQLite format 3\x00" + bytes(300) + b"torn")  # proven damaged
    done = scorekeeper(instance, "restore", made.name, "--yes")
    assert done.returncode == 0, done.stderr
    [moved] = backups.set_aside_files(instance / "backups")
    assert f"it is kept as {moved.path}" in done.stdout
    listed = scorekeeper(instance, "restore").stdout
    assert f"{moved.name}   " in listed and "moved aside by a restore, as it looked damaged" in listed

    put_back = instance / "lost.sqlite"
    with pytest.raises(backups.BackupFailed):
        backups.put_in_place(
            put_back,
            instance / "backups",
            backups.Backup(tmp_path / "nowhere.sqlite", made.made_at, "by-hand"),
            backups.Restored(made, None, None),
        )
    assert not put_back.exists()
