"""Holes an attacker on the same Wi-Fi found: DNS rebinding, a cookie that rides along, readable
database files, names that look alike, and start-up failures that showed tracebacks."""

import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from support import PLAYERS, ROOT, make_app, words


@pytest.mark.parametrize("host", ["attacker.example", "attacker.example:5000", "127.0.0.1.nip.io"])
def test_a_request_for_another_host_name_is_refused(api, client, host):
    game = api.new_game()["id"]
    assert client.get("/", headers={"Host": host}).status_code == 400
    response = client.post(f"/api/games/{game}/buys", json={"player": "Bob"}, headers={"Host": host})
    assert response.status_code == 400
    assert api.call("GET", f"/api/games/{game}")["version"] == 0


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:5000", "localhost:8080"])
def test_this_computer_s_own_names_are_answered_and_share_links_use_them(api, client, host):
    game = api.new_game()["id"]
    page = client.get(f"/games/{game}", headers={"Host": host})
    assert page.status_code == 200 and f"http://{host}/live/" in page.text


def test_names_set_in_the_instance_config_are_answered(tmp_path):
    app = make_app(tmp_path, TRUSTED_HOSTS=["scores.home.arpa"])
    assert app.test_client().get("/", headers={"Host": "scores.home.arpa"}).status_code == 200
    assert app.test_client().get("/", headers={"Host": "other.home.arpa"}).status_code == 400


def test_the_session_cookie_stays_on_this_site(client):
    client.get("/games/new")
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.same_site == "Lax" and cookie.http_only


def test_the_database_its_journal_and_backups_are_readable_by_the_owner_only(app, api, runner, tmp_path):
    api.new_game(pin="4321")  # the database now holds a PIN hash
    database = app.config["DATABASE"]
    backup = tmp_path / "backup.sqlite"
    assert runner.invoke(args=["backup", str(backup)]).exit_code == 0
    for path in [database, database + "-wal", database + "-shm", str(backup)]:
        assert os.path.exists(path), path
        assert stat.S_IMODE(os.stat(path).st_mode) & 0o077 == 0, (path, oct(os.stat(path).st_mode))


@pytest.mark.parametrize(
    "name, position",
    [("c\u200b", 2), ("\u202eAnn", 1), ("Bo\x00b", 3), ("Di\u2066", 3), ("Ed\u200d", 3), ("Flo\x1b[31m", 4)],
)
def test_names_with_invisible_characters_are_refused_naming_the_position(api, name, position):
    body = {"ruleset": "ten-pennies", "players": ["Ann", name]}
    error = api.call("POST", "/api/games", body, 400)["error"]
    assert f"the name of player 2 has an invisible or control character at position {position}" in error


@pytest.mark.parametrize(
    "name, position, code",
    [("\u3164", 1, "3164"), ("\u2800", 1, "2800"), ("Ann\u3164", 4, "3164"), ("\uffa0Bo", 1, "FFA0")],
)
def test_names_that_look_blank_are_refused_naming_the_position(api, name, position, code):
    """Hangul fillers and the blank Braille pattern count as letters or symbols to Unicode but draw
    nothing: a name of them looks empty (or like a shorter name)."""
    body = {"ruleset": "ten-pennies", "players": ["Ann", name]}
    error = api.call("POST", "/api/games", body, 400)["error"]
    assert error == (
        f"the name of player 2 has a character that looks blank at position {position} (U+{code}): type the name again"
    )


@pytest.mark.parametrize(
    "first, second",
    [
        ("Ann", "\u0410nn"),  # Cyrillic capital A
        ("Ann", "\uff21\uff4e\uff4e"),  # full-width letters
        ("Eve", "Ev\u0435"),  # Cyrillic small ie
        ("BOB", "B0B"),  # zero for O
        ("Cy", "\u0421y"),  # Cyrillic capital es
    ],
)
def test_look_alike_names_are_not_seated_side_by_side(api, first, second):
    body = {"ruleset": "ten-pennies", "players": [first, "Di", second]}
    error = api.call("POST", "/api/games", body, 400)["error"]
    assert error == f"{second!r} (player 3) looks like {first!r}: give one a name that does not look alike"


@pytest.mark.parametrize("different", ["Anne", "Zoe", "Zo\u00eb", "Jos\u00e9", "Al", "Bo"])
def test_names_that_only_share_letters_are_seated(api, different):
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Jose", different]}, 201)


def test_a_look_alike_of_a_known_player_is_refused_but_the_same_name_in_another_case_is_that_player(api):
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}, 201)
    error = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["\u0410nn", "Cy"]}, 400)["error"]
    assert error == (
        "'\u0410nn' looks like 'Ann', who has played here: type 'Ann' if it is the same player, "
        "or a name that does not look like it"
    )
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["ANN", "Cy"]}, 201)


def test_names_are_the_same_player_once_normalised(api):
    body = {"ruleset": "ten-pennies", "players": ["Zoe\u0308", "ZOË"]}  # e + combining diaeresis, then Ë
    assert "two players are called" in api.call("POST", "/api/games", body, 400)["error"]


def start(instance, env_extra=None):
    """The app started as `flask --app scorekeeper` starts it, in a process of its own."""
    env = {**os.environ, "SCOREKEEPER_INSTANCE": str(instance), **(env_extra or {})}
    return subprocess.run(
        [sys.executable, "-c", "from scorekeeper import create_app; create_app()"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


@pytest.mark.process
def test_an_instance_folder_that_cannot_be_used_is_one_clear_line(tmp_path):
    blocker = tmp_path / "instance"
    blocker.write_text("a file where the instance folder should be")
    result = start(blocker)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert str(blocker) in result.stderr and "instance folder" in result.stderr


@pytest.mark.process
def test_a_file_that_is_not_a_database_is_one_clear_line(tmp_path):
    (tmp_path / "scorekeeper.sqlite").write_text("these are my notes, not a database\n" * 100)
    result = start(tmp_path)
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "is not a Scorekeeper database" in result.stderr and "scorekeeper.sqlite" in result.stderr


@pytest.mark.process
def test_a_damaged_database_is_reported_with_the_way_back(tmp_path):
    app = make_app(tmp_path, TESTING=False)
    client = app.test_client()
    for _ in range(30):
        client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    database = tmp_path / "scorekeeper.sqlite"
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    with open(database, "r+b") as handle:  # scribble over the middle pages, keeping the header
        for page in range(2, pages):
            handle.seek(page * page_size + 16)
            handle.write(b"\xff" * 64)
    result = start(tmp_path)
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    assert "damaged" in result.stderr and "`scorekeeper restore NAME` puts one back" in result.stderr


@pytest.mark.process
def test_a_database_held_by_another_program_is_in_use_not_damaged(tmp_path):
    """A database merely locked by another process (a second server, a database browser) is never
    called damaged: the advice to copy the last backup over it would lose everything since."""
    app = make_app(tmp_path)
    app.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    for store in app.extensions["stores"].values():
        store.close()
    holder = sqlite3.connect(tmp_path / "scorekeeper.sqlite", isolation_level=None)
    holder.execute("PRAGMA locking_mode = EXCLUSIVE")
    holder.execute("BEGIN EXCLUSIVE")
    holder.execute("INSERT INTO players (name, name_key) VALUES ('Lock', 'lock')")
    try:
        result = start(tmp_path)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert result.returncode != 0 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.strip().count("\n") == 0, result.stderr
    assert "is in use by another program" in result.stderr and "not damaged" in result.stderr
    assert "backup" not in result.stderr.split("(")[0] and "restore" not in result.stderr
    assert start(tmp_path).returncode == 0  # once it is let go, the app starts


@pytest.mark.process
def test_house_ruleset_files_that_cannot_be_read_are_skipped_with_one_line_each(tmp_path):
    from support import TEN_PENNIES_TOML

    rules = tmp_path / "rulesets"
    rules.mkdir()
    (rules / "latin1.toml").write_bytes(TEN_PENNIES_TOML.replace("Ten Pennies", "Dix Pénnies").encode("latin-1"))
    (rules / "deep.toml").write_text('id = "deep"\nx = ' + "[" * 5000 + "]" * 5000 + "\n")
    (rules / "folder.toml").mkdir()
    (rules / "gone.toml").symlink_to(rules / "nowhere.toml")
    (rules / "good.toml").write_text(
        TEN_PENNIES_TOML.replace('id = "ten-pennies"', 'id = "house"').replace(
            'name = "Ten Pennies"', 'name = "House Pennies"'
        )
    )
    result = start(tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 4, lines
    for name, why in [
        ("latin1.toml", "not UTF-8 text"),
        ("deep.toml", "nested too deeply"),
        ("folder.toml", "cannot be read"),
        ("gone.toml", "cannot be read"),
    ]:
        assert any(f"rulesets/{name}: {why}" in line for line in lines), (name, lines)
    page = make_app(tmp_path).test_client().get("/games/new").text
    assert "House Pennies" in page and "rulesets/deep.toml" in page


# --- a full disk (issue 41) ------------------------------------------------------------------------


def fill_the_disk(app) -> None:
    """SQLite's own "database or disk is full" (SQLITE_FULL), made real by capping the file at its size."""
    from scorekeeper.store import get_store

    with app.app_context():
        db = get_store().db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages}")


def test_a_write_on_a_full_disk_is_refused_in_words_and_nothing_is_lost(app, api, client):
    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    fill_the_disk(app)
    answers = []
    for _ in range(200):  # pages of games: the cap is met by whichever write meets it
        answer = client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]})
        answers.append(answer.status_code)
        if answer.status_code != 201:
            break
    assert answers[-1] == 507 and "disk is full: nothing was saved" in answer.get_json()["error"]
    state = api.call("GET", f"/api/games/{gid}")
    assert len(state["rounds"]) == 1  # what was saved before is all there


def test_a_start_on_a_full_disk_names_the_full_disk_never_damage(small_disk):
    """Issue 41: starting on a full disk, SQLite cannot make its -shm file ("disk I/O error"); the app
    called that damage and advised a restore over a whole database. It says the disk is full."""
    from scorekeeper.store import StartUpProblem
    from scorekeeper.store.startup import check_database

    database = small_disk / "scorekeeper.sqlite"
    check_database(str(database))  # made and migrated while there is room
    for part in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        part.unlink(missing_ok=True)
    with open(small_disk / "filler", "wb") as filler:
        try:
            while True:
                filler.write(bytes(64 * 1024))
                filler.flush()
        except OSError:
            pass
    with pytest.raises(StartUpProblem) as problem:
        check_database(str(database))
    assert "is full" in str(problem.value) and "damaged" not in str(problem.value).replace("not damaged", "")
    (small_disk / "filler").unlink()
    check_database(str(database))  # room again: it starts, whole


def test_the_home_page_says_when_the_disk_is_full(client, monkeypatch):
    from scorekeeper.store import startup

    assert "disk is full" not in client.get("/").text
    monkeypatch.setattr(startup, "FULL_BELOW_BYTES", 1 << 62)  # any disk is "full" by this measure
    assert "The server's disk is full: what is entered now cannot be saved." in client.get("/").text


def test_share_links_asked_from_this_computer_name_the_address_phones_open(tmp_path):
    """Issue 57: served on the network, the host's own browser (localhost) got links to 127.0.0.1."""
    app = make_app(tmp_path, PUBLIC_URL="http://10.77.0.20:5000/", TRUSTED_HOSTS=["raspberrypi.local"])
    client = app.test_client()
    night = client.post("/api/nights", json={}).get_json()["id"]
    asked_here = client.get(f"/api/nights/{night}").get_json()["share_url"]
    assert asked_here.startswith("http://10.77.0.20:5000/night/")
    asked_by_name = client.get(f"/api/nights/{night}", headers={"Host": "raspberrypi.local"}).get_json()
    assert asked_by_name["share_url"].startswith("http://raspberrypi.local/night/")


def test_served_to_this_computer_only_the_night_and_game_pages_say_phones_cannot_open_it(tmp_path):
    """Issue 57: without --network every QR code pointed at 127.0.0.1 with no word that a phone cannot
    open it, while the README's next sentence tells each player to scan it."""
    said = "Phones cannot open this yet: the server answers this computer only."
    app = make_app(tmp_path, THIS_COMPUTER_ONLY=True)
    client = app.test_client()
    night = client.post("/api/nights", json={}).get_json()["id"]
    game = client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS}).get_json()["id"]
    for page in (f"/nights/{night}", f"/games/{game}"):
        assert said in words(client.get(page).text) and "scripts/run --network" in client.get(page).text
    served_on_the_network = make_app(tmp_path / "lan").test_client()
    served_on_the_network.post("/api/nights", json={})
    assert said not in served_on_the_network.get("/nights/1").text


@pytest.mark.parametrize("alike", ["B0B", "b0b", "\u0412ob"])  # 0 for o, in either case; a Cyrillic В
def test_a_look_alike_of_a_known_player_in_any_case_is_refused(api, alike):
    """Issue 57: "B0B" and "b0b" were taken beside Bob (the look-alike key mapped O to 0 only in
    capitals, then folded the case, so Bob's key kept its o)."""
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Bob"]}, 201)
    error = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": [alike, "Cy"]}, 400)["error"]
    assert error.startswith(f"{alike!r} looks like 'Bob', who has played here")
    api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": ["BOB", "Cy"]}, 201)  # Bob himself
