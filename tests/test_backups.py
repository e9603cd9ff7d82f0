"""Backups by themselves (issue 28): at start and when a night is closed, a checked copy in the
instance's backups/ folder, owner-only, the newest 10 kept plus one a month; `scorekeeper restore`
lists them and puts one back after backing up what it replaces; the home page says when."""

from __future__ import annotations

import os
import re
import sqlite3
import stat
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest
from support import PLAYERS, csrf_token, free_port, make_app, start_server

from scorekeeper.store import Store
from scorekeeper.store import backups as folder_of_backups


def made(path: Path) -> folder_of_backups.Backup:
    backup = folder_of_backups.parse_name(path)
    assert backup is not None, path
    return backup


def named(when: str, reason: str = "start") -> folder_of_backups.Backup:
    return made(Path(f"/b/scorekeeper-{when}-{reason}.sqlite"))


def test_the_newest_ten_are_kept_and_the_last_of_every_month():
    """Worked by hand: three in September, one in October, twelve in November. The newest ten are
    3–12 November; the last of each month adds 28 September and 20 October; 1 and 15 September and
    1–2 November go."""
    september = [named(f"202609{day:02d}-210000") for day in (1, 15, 28)]
    october = [named("20261020-233000", "night-closed")]
    november = [named(f"202611{day:02d}-200000") for day in range(1, 13)]
    keep = folder_of_backups.to_keep(september + october + november)
    kept_days = sorted(Path(path).name[12:20] for path in keep)
    assert kept_days == ["20260928", "20261020"] + [f"202611{day:02d}" for day in range(3, 13)]


def test_a_day_of_restarts_never_pushes_out_the_evenings_before():
    """A server restarted fifteen times one morning (a unit restarting, a power cut) makes fifteen
    backups: the newest ten are all of that morning, yet the last backup of each of the seven days
    with backups before it stays — the night closed on 1 November too."""
    evenings = [named("20261101-233000", "night-closed")] + [named(f"202611{day:02d}-200000") for day in range(2, 7)]
    restarts = [named(f"20261107-08{minute:02d}00") for minute in range(15)]
    keep = folder_of_backups.to_keep(evenings + restarts)
    assert {backup.path for backup in evenings} <= keep
    assert sorted(Path(path).name[12:27] for path in keep if "20261107" in str(path)) == [
        f"20261107-08{minute:02d}00" for minute in range(5, 15)
    ]


def test_only_the_files_it_made_count_as_backups(tmp_path):
    for name in [
        "notes.txt",
        "scorekeeper.sqlite",
        "scorekeeper-2026-start.sqlite",
        "damaged-20261101-120000.sqlite",
        "scorekeeper-20261101-120000-start.sqlite",
        "scorekeeper-20261101-120000-2-start.sqlite",
    ]:
        (tmp_path / name).write_bytes(b"SQLite format 3\x00" + bytes(1024))  # each a database to look at
    assert [b.name for b in folder_of_backups.list_backups(tmp_path)] == [  # newest first
        "scorekeeper-20261101-120000-2-start.sqlite",
        "scorekeeper-20261101-120000-start.sqlite",
    ]
    assert folder_of_backups.list_backups(tmp_path / "none yet") == []


def games_in(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        conn.close()


def test_a_backup_is_a_whole_owner_only_copy_and_two_in_one_second_both_stay(app, api):
    api.new_game()
    store = Store(app.config["DATABASE"])
    folder = Path(app.config["BACKUPS_DIR"])
    now = datetime(2026, 11, 23, 21, 5, 0)
    first = folder_of_backups.make_backup(store, folder, "by-hand", now)
    second = folder_of_backups.make_backup(store, folder, "by-hand", now)
    assert first.name == "scorekeeper-20261123-210500-by-hand.sqlite"
    assert second.name == "scorekeeper-20261123-210500-2-by-hand.sqlite"
    assert sorted(path.name for path in folder.iterdir()) == sorted([first.name, second.name])  # no -wal, -shm
    assert games_in(first.path) == 1 and games_in(second.path) == 1
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(first.path.stat().st_mode) == 0o600
    with pytest.raises(ValueError, match="'weekly'"):
        folder_of_backups.make_backup(store, folder, "weekly")


def test_eleven_backups_leave_ten_and_the_months_last(app):
    store = Store(app.config["DATABASE"])
    folder = Path(app.config["BACKUPS_DIR"])
    folder_of_backups.make_backup(store, folder, "start", datetime(2026, 10, 31, 23, 0, 0))
    for minute in range(11):
        folder_of_backups.make_backup(store, folder, "start", datetime(2026, 11, 23, 20, minute, 0))
    names = [backup.name for backup in folder_of_backups.list_backups(folder)]
    assert len(names) == 11  # ten newest + October's last
    assert "scorekeeper-20261123-200000-start.sqlite" not in names
    assert names[-1] == "scorekeeper-20261031-230000-start.sqlite"


def test_closing_a_night_backs_up_and_the_home_page_says_when(app, api, client):
    assert "No backup yet" in client.get("/").text
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    api.new_game(night=night)
    page = client.get(f"/nights/{night}").text
    assert client.post(f"/nights/{night}/close", data={"csrf_token": csrf_token(page)}).status_code == 302
    [backup] = folder_of_backups.list_backups(app.config["BACKUPS_DIR"])
    assert backup.reason == "night-closed" and games_in(backup.path) == 1
    home = client.get("/").text
    assert f"Last backup: {backup.made_at.day} {backup.made_at:%b %Y, %H:%M} (when a night was closed)" in home


def test_a_backup_that_fails_is_said_and_the_night_is_closed_all_the_same(tmp_path, caplog):
    app = make_app(tmp_path, BACKUPS_DIR=str(tmp_path / "a-file"))
    (tmp_path / "a-file").write_text("not a folder")
    client = app.test_client()
    night = client.post("/api/nights", json={"money": "paper"}).get_json()["id"]
    page = client.get(f"/nights/{night}").text
    answer = client.post(f"/nights/{night}/close", data={"csrf_token": csrf_token(page)}, follow_redirects=True)
    assert "The automatic backup failed: cannot use the backups folder" in answer.text
    assert client.get(f"/api/nights/{night}").get_json()["closed"]
    # The host's log says it too, for a server nobody is watching.
    logged = [record.getMessage() for record in caplog.records if "backup" in record.getMessage()]
    assert len(logged) == 1 and logged[0].startswith("automatic backup: cannot use the backups folder")


def scorekeeper(instance: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The console command, as a person runs it."""
    command = Path(sys.executable).with_name("scorekeeper")
    return subprocess.run(
        [str(command), "--instance", str(instance), *args],
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


@pytest.mark.process
def test_restore_lists_the_backups_and_puts_one_back_after_backing_up_the_database(tmp_path):
    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "scorekeeper.sqlite"))
    client = app.test_client()
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    assert "No backups" in scorekeeper(instance, "restore").stdout
    by_hand = scorekeeper(instance, "backup")
    assert by_hand.returncode == 0, by_hand.stderr
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})  # a second game, after
    listing = scorekeeper(instance, "restore").stdout
    [one] = folder_of_backups.list_backups(instance / "backups")
    assert f"{one.name}   {one.made_at:%Y-%m-%d %H:%M}, by hand" in listing
    refused = scorekeeper(instance, "restore", one.name, stdin="n\n")
    assert refused.returncode != 0 and games_in(instance / "scorekeeper.sqlite") == 2
    done = scorekeeper(instance, "restore", one.name, "--yes")
    assert done.returncode == 0, done.stderr
    assert games_in(instance / "scorekeeper.sqlite") == 1  # as it was at the backup
    safety = [b for b in folder_of_backups.list_backups(instance / "backups") if b.reason == "before-restore"]
    assert len(safety) == 1 and games_in(safety[0].path) == 2
    assert f"kept as {safety[0].name}" in done.stdout
    assert "no backup named 'nope'" in scorekeeper(instance, "restore", "nope", "--yes").stderr


@pytest.mark.process
def test_restore_works_on_a_database_too_damaged_to_start(tmp_path):
    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "scorekeeper.sqlite"))
    app.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    assert scorekeeper(instance, "backup").returncode == 0
    [one] = folder_of_backups.list_backups(instance / "backups")
    database = instance / "scorekeeper.sqlite"
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    database.write_bytes(b"this is not a database" * 200)
    assert "is not a Scorekeeper database" in scorekeeper(instance, "export", str(tmp_path / "x.json")).stderr
    done = scorekeeper(instance, "restore", one.name, "--yes")
    assert done.returncode == 0, done.stderr
    assert "too damaged to back up" in done.stdout
    assert games_in(database) == 1
    assert list((instance / "backups").glob("damaged-*.sqlite"))


@pytest.mark.process
def test_serving_starts_with_a_backup(tmp_path):
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        found = folder_of_backups.list_backups(tmp_path / "backups")
        assert [backup.reason for backup in found] == ["start"]
        assert stat.S_IMODE(os.stat(found[0].path).st_mode) == 0o600
    finally:
        server.terminate()
        server.wait(timeout=10)


# --- backups that cannot hurt (issue 41) -------------------------------------------------------


def a_good_backup(app, api, folder: Path) -> folder_of_backups.Backup:
    api.new_game()
    store = Store(app.config["DATABASE"])
    try:
        return folder_of_backups.make_backup(store, folder, "by-hand")
    finally:
        store.close()


def test_a_backup_killed_part_way_an_empty_or_a_foreign_file_is_never_listed(app, api, tmp_path):
    folder = tmp_path / "backups"
    good = a_good_backup(app, api, folder)
    whole = good.path.read_bytes()
    (folder / ".partial-scorekeeper-20261101-120000-start.sqlite").write_bytes(whole[:4096])  # killed
    (folder / "scorekeeper-20261101-120001-start.sqlite").write_bytes(b"")  # empty
    (folder / "scorekeeper-20261101-120002-start.sqlite").write_bytes(whole[:100])  # cut inside its header
    (folder / "scorekeeper-20261101-120003-start.sqlite").write_text("a shopping list" * 100)  # foreign
    assert [backup.name for backup in folder_of_backups.list_backups(folder)] == [good.name]


def test_a_backup_is_made_under_a_passing_name_and_named_only_once_checked(app, api, tmp_path, monkeypatch):
    """A backup whose check fails (a copy cut short, a disk that lies) is never kept under a backup's
    name, and nothing of it is left in the folder."""
    folder = tmp_path / "backups"
    seen = []

    def failing_check(path):
        seen.append(Path(path).name)
        raise folder_of_backups.BackupFailed("the copy is not whole: page 3 is never used")

    monkeypatch.setattr(folder_of_backups, "check_whole", failing_check)
    with pytest.raises(folder_of_backups.BackupFailed, match="was not kept"):
        a_good_backup(app, api, folder)
    assert seen and seen[0].startswith(".partial-scorekeeper-")  # checked before it has its name
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize("content", [b"", b"SQLite format 3\x00" + bytes(4000)], ids=["empty", "no tables"])
def test_an_empty_or_foreign_database_fails_the_check(tmp_path, content):
    path = tmp_path / "scorekeeper-20261101-120000-start.sqlite"
    path.write_bytes(content)
    with pytest.raises(folder_of_backups.BackupFailed):
        folder_of_backups.check_whole(path)


def test_a_restore_that_cannot_back_up_a_healthy_database_changes_nothing(app, api, tmp_path, monkeypatch):
    """The safety copy fails (a full or read-only backups folder): the live database is healthy, so it
    is neither moved aside nor replaced; the restore says why in one line."""
    folder = tmp_path / "backups"
    good = a_good_backup(app, api, folder)
    api.new_game()  # the live database now holds two games, the backup one
    database = Path(app.config["DATABASE"])

    def no_room(*args, **kwargs):
        raise folder_of_backups.BackupFailed("cannot use the backups folder (No space left on device)")

    monkeypatch.setattr(folder_of_backups, "checked_copy", no_room)
    with pytest.raises(folder_of_backups.BackupFailed) as refused:
        folder_of_backups.restore(database, folder, good.name)
    assert "nothing was changed" in str(refused.value) and "No space left on device" in str(refused.value)
    assert games_in(database) == 2
    assert not list(folder.glob("damaged-*"))


@pytest.mark.process
def test_a_zero_byte_backup_is_never_restored(tmp_path):
    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "scorekeeper.sqlite"))
    app.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    (instance / "backups").mkdir(mode=0o700)
    empty = instance / "backups" / "scorekeeper-20261101-120000-start.sqlite"
    empty.write_bytes(b"")
    refused = scorekeeper(instance, "restore", empty.name, "--yes")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert f"no backup named '{empty.name}'" in refused.stderr
    assert games_in(instance / "scorekeeper.sqlite") == 1


@pytest.mark.process
def test_a_start_that_fails_makes_no_backup_and_prunes_nothing(tmp_path):
    """The port is taken: the server cannot start, so it neither backs up nor prunes (under a
    service's restarts, failed starts once deleted every backup of the month)."""
    import socket

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        command = Path(sys.executable).with_name("scorekeeper")
        port = str(taken.getsockname()[1])
        failed = subprocess.run(
            [str(command), "--instance", str(tmp_path), "serve", "--port", port],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        taken.close()
    assert failed.returncode != 0
    assert folder_of_backups.list_backups(tmp_path / "backups") == []


@pytest.mark.process
def test_a_restore_under_a_running_server_is_refused_until_it_stops(tmp_path):
    """Issue 41: restoring under a running server swapped the database under its open connections
    (500s until a restart). It is refused in one line while the server runs, and done once it stops."""
    port = free_port()
    server = start_server(tmp_path, port)
    try:
        [made] = folder_of_backups.list_backups(tmp_path / "backups")  # the start's own backup
        refused = scorekeeper(tmp_path, "restore", made.name, "--yes")
        assert refused.returncode != 0 and "Traceback" not in refused.stderr
        assert f"a Scorekeeper server is serving this database (process {server.pid}): stop it first" in refused.stderr
    finally:
        server.terminate()
        server.wait(timeout=10)
    done = scorekeeper(tmp_path, "restore", made.name, "--yes")
    assert done.returncode == 0, done.stderr


@pytest.mark.process
def test_a_backup_to_a_path_says_in_one_line_what_is_wrong(tmp_path):
    """Issue 41: `backup PATH` ended in a traceback for a missing folder, a file that is not a database
    or the live database itself; each is one line now, and nothing is written."""
    instance = tmp_path / "instance"
    app = make_app(instance, DATABASE=str(instance / "scorekeeper.sqlite"))
    app.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    (tmp_path / "notes.txt").write_text("the shopping list")
    cases = {
        str(tmp_path / "nowhere" / "copy.sqlite"): f"there is no folder {tmp_path / 'nowhere'}",
        str(tmp_path / "notes.txt"): "exists and is not a database",
        str(instance / "scorekeeper.sqlite"): "is the live database itself",
    }
    for path, said in cases.items():
        refused = scorekeeper(instance, "backup", path)
        assert refused.returncode != 0 and "Traceback" not in refused.stderr, refused.stderr
        assert said in refused.stderr
    assert (tmp_path / "notes.txt").read_text() == "the shopping list"
    assert games_in(instance / "scorekeeper.sqlite") == 1
    made = scorekeeper(instance, "backup", str(tmp_path / "copy.sqlite"))
    assert made.returncode == 0, made.stderr
    assert games_in(tmp_path / "copy.sqlite") == 1


# --- in the server's own process (the tests above that start `scorekeeper` cannot be mutation-tested) ---


def test_a_restore_first_backs_up_the_database_as_it_is(app, api, tmp_path):
    """Restoring is undone by restoring the copy made just before: it is named for the restore and
    made at the restore's time, and it holds the games the restore took away."""
    database, folder = Path(app.config["DATABASE"]), tmp_path / "kept"
    api.new_game()
    one_game = folder_of_backups.make_backup(Store(database), folder, "start", datetime(2026, 11, 20, 20, 0))
    api.new_game()
    at = datetime(2026, 11, 20, 22, 30)
    done = folder_of_backups.restore_backup(database, folder, one_game, now=at)
    assert (done.chosen, done.set_aside) == (one_game, None) and done.safety is not None
    assert (done.safety.reason, done.safety.made_at) == ("before-restore", at)
    assert (games_in(done.safety.path), games_in(database)) == (2, 1)


def test_the_last_of_seven_days_and_no_more_is_kept_for_its_day():
    """Evenings on 1–7 November, then fifteen restarts on the 8th: the 8th and the six days before it
    are the seven days kept; 1 November goes (the month keeps only its last backup, the 8th's)."""
    evenings = [named(f"202611{day:02d}-200000") for day in range(1, 8)]
    restarts = [named(f"20261108-08{minute:02d}00") for minute in range(15)]
    keep = folder_of_backups.to_keep(evenings + restarts)
    assert {backup.path for backup in evenings if backup.path in keep} == {b.path for b in evenings[1:]}


def test_a_backup_to_a_path_refuses_in_words_in_process(app, api, tmp_path):
    database = Path(app.config["DATABASE"])
    api.new_game()
    store = Store(database)
    (tmp_path / "notes.txt").write_text("the shopping list")
    refusals = {
        tmp_path / "nowhere" / "copy.sqlite": f"there is no folder {tmp_path / 'nowhere'}",
        tmp_path / "notes.txt": f"{tmp_path / 'notes.txt'} exists and is not a database",
        database: f"{database} is the live database itself",
    }
    for path, said in refusals.items():
        with pytest.raises(folder_of_backups.BackupFailed, match="^" + re.escape(said)):
            folder_of_backups.backup_to(store, path, database)
    assert (tmp_path / "notes.txt").read_text() == "the shopping list"
    folder_of_backups.backup_to(store, tmp_path / "copy.sqlite", database)
    folder_of_backups.backup_to(store, tmp_path / "copy.sqlite", database)  # a copy made before: replaced
    assert games_in(tmp_path / "copy.sqlite") == 1


def test_damage_and_a_whole_file_told_apart(app, tmp_path):
    assert not folder_of_backups.is_damaged(Path(app.config["DATABASE"]))
    spoilt = tmp_path / "spoilt.sqlite"
    spoilt.write_bytes(folder_of_backups.SQLITE_HEADER + b"\xff" * 4000)
    assert folder_of_backups.is_damaged(spoilt)
    one_page = tmp_path / "one-page.sqlite"
    one_page.write_bytes(folder_of_backups.SQLITE_HEADER.ljust(folder_of_backups.SMALLEST_DATABASE, b"\0"))
    assert folder_of_backups.looks_whole(one_page)  # a page long: the cheap look lets it through
    one_page.write_bytes(one_page.read_bytes()[:-1])
    assert not folder_of_backups.looks_whole(one_page)


def test_a_copy_is_a_backup_only_if_it_reads_whole_and_holds_the_games(tmp_path):
    """check_whole's three refusals in words, and a database of exactly Scorekeeper's tables passes."""
    exact = tmp_path / "exact.sqlite"
    conn = sqlite3.connect(exact)
    for table in sorted(folder_of_backups.SCOREKEEPER_TABLES):
        conn.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY)")
    conn.close()
    folder_of_backups.check_whole(exact)
    foreign = tmp_path / "foreign.sqlite"
    sqlite3.connect(foreign).execute("CREATE TABLE games (id INTEGER)").connection.close()
    with pytest.raises(folder_of_backups.BackupFailed) as refused:
        folder_of_backups.check_whole(foreign)
    assert str(refused.value) == "foreign.sqlite is not a Scorekeeper database (it has no games tables)"
    text = tmp_path / "notes.sqlite"
    text.write_text("the shopping list, long enough to be no database at all " * 20)
    with pytest.raises(folder_of_backups.BackupFailed) as refused:
        folder_of_backups.check_whole(text)
    assert str(refused.value) == "notes.sqlite cannot be read as a database (file is not a database)"


def test_a_backups_folder_not_there_is_made_with_its_parents_owner_only(app, tmp_path):
    folder = tmp_path / "new" / "backups"
    made = folder_of_backups.make_backup(Store(Path(app.config["DATABASE"])), folder, "start")
    assert made.path.parent == folder and stat.S_IMODE(folder.stat().st_mode) == 0o700


def test_a_restore_by_name_backs_up_first_at_the_restore_s_time(app, api, tmp_path):
    database, folder = Path(app.config["DATABASE"]), tmp_path / "kept"
    api.new_game()
    chosen = folder_of_backups.make_backup(Store(database), folder, "start", datetime(2026, 11, 20, 20, 0))
    at = datetime(2026, 11, 20, 23, 0)
    done = folder_of_backups.restore(database, folder, chosen.path.name, now=at)
    assert done.chosen == chosen and done.safety is not None and done.safety.made_at == at
