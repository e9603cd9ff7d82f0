"""A database edited by hand (issue 41): a host opens it in a database browser and changes a cell, or
an old import let something odd in. The app then starts and shows what it can, or says what is
wrong in one line — at start, and on every page — never a traceback and never a bare "Internal
Server Error"."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support import Api, make_app

PAGES = ["/", "/games/1", "/games/2", "/nights/1", "/nights/1/explain", "/players", "/players/1", "/api/games/1"]
PAGES += ["/api/nights/1", "/games/1/history", "/games/1/table", "/players/1/versus/2"]

FIRST_ROUND = "(SELECT min(id) FROM events WHERE game_id = 1 AND kind = 'round')"
# Entries are append-only (a trigger refuses a change): a host editing one by hand drops it first.
APPEND_ONLY = (
    "CREATE TRIGGER events_no_update BEFORE UPDATE ON events BEGIN SELECT RAISE(ABORT, 'events are append-only'); END"
)
HAND_EDITS = {
    "a round numbered true": f"""UPDATE events SET payload = '{{"round": true, "went_out": "Ann", "caught": {{}}}}'
        WHERE id = {FIRST_ROUND}""",
    "an entry that is not JSON": f"UPDATE events SET payload = 'Ann went out' WHERE id = {FIRST_ROUND}",
    "an entry of an unknown kind": f"UPDATE events SET kind = 'shuffle' WHERE id = {FIRST_ROUND}",
    "a seat's name emptied": "UPDATE game_players SET name = '' WHERE game_id = 1 AND seat = 0",
    "a seat on a side of its own": "UPDATE game_players SET side = 7 WHERE game_id = 1 AND seat = 0",
    "an unknown ruleset": "UPDATE games SET ruleset = 'no-such-rules', ruleset_version = NULL WHERE id = 1",
    "a ruleset version that is gone": "UPDATE games SET ruleset_version = 99 WHERE id = 1",
    "a kept ruleset that is not a ruleset": "UPDATE ruleset_versions SET document = '{}'",
    "a dealer who is not at the table": "UPDATE games SET first_dealer = 9 WHERE id = 1",
    "a penny worth nothing": "UPDATE games SET penny_cents = 0 WHERE id = 1",
    "a carry below zero": "UPDATE games SET carry_in = -3 WHERE id = 1",
    "a version that is no number": "UPDATE games SET revision = 'seven' WHERE id = 1",
    "money at the end that is not JSON": "UPDATE games SET money_at_end = 'oops' WHERE id = 1",
    "a date that is no date": "UPDATE games SET created_at = 'last Friday' WHERE id = 1",
    "a night's money mode unknown": "UPDATE nights SET money = 'cash'",
    "a night deleted under its games": "DELETE FROM nights",
    "a game's seats deleted": "DELETE FROM game_players WHERE game_id = 1",
    "a game deleted, its entries left": "DELETE FROM games WHERE id = 1",
    "a share link emptied": "UPDATE games SET share_token = NULL WHERE id = 1",
    "a player's name emptied": "UPDATE players SET name = '' WHERE id = 1",
    "the records table dropped": "DROP TABLE player_days",
    "a migration forgotten": "DELETE FROM _sqlite_migrations WHERE name LIKE 'm020%'",
}


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A night with a finished game (1) and a game in play (2)."""
    folder = tmp_path_factory.mktemp("evening")
    api = Api(make_app(folder).test_client())
    night = api.call("POST", "/api/nights", {"name": "Cy's", "money": "paper"}, 201)["id"]
    finished = api.new_game(night=night)["id"]
    for _ in range(7):
        api.round(finished, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})
    api.round(api.new_game(night=night)["id"], "Bob", {"Ann": "7", "Cy": "", "Di": ""})
    return folder / "scorekeeper.sqlite"


def one_line(text: str) -> bool:
    return "\n" not in text.strip() and "Traceback" not in text


@pytest.mark.parametrize("edit", list(HAND_EDITS), ids=list(HAND_EDITS))
def test_a_database_edited_by_hand_starts_or_says_what_is_wrong_in_one_line(edit, evening, tmp_path):
    database = tmp_path / "scorekeeper.sqlite"
    with sqlite3.connect(evening) as source, sqlite3.connect(database) as copy:
        source.backup(copy)  # the evening as a whole (its last writes may still be in the -wal file)
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT count(*) FROM events").fetchone()[0] > 7
        db.execute("PRAGMA foreign_keys = OFF")
        db.execute("DROP TRIGGER events_no_update")
        db.execute(HAND_EDITS[edit])
        db.execute(APPEND_ONLY)
    try:
        app = make_app(tmp_path, DATABASE=str(database), TESTING=False)
    except SystemExit as stopped:  # the start refused, in one line
        assert str(stopped.code).startswith("scorekeeper: ") and one_line(str(stopped.code)), stopped.code
        return
    client = app.test_client()
    for page in PAGES:
        answer = client.get(page)
        body = answer.get_data(as_text=True)
        if answer.status_code >= 500:
            assert "Internal Server Error" not in body and "server encountered an internal error" not in body, page
            said = answer.get_json()["error"] if answer.is_json else body.split('<p class="lead">')[-1].split("</p>")[0]
            assert one_line(said) and "database" in said, (page, said[:300])


@pytest.mark.parametrize(
    "error, starts",
    [
        ("database or disk is full", "the disk holding the database {path} is full"),
        ("database is locked", "the database {path} is in use by another program"),
        ("database table is busy", "the database {path} is in use by another program"),
        ("file is not a database", "{path} is not a Scorekeeper database"),
        ("disk I/O error", "the database {path} is damaged"),  # on a disk with room: not a full disk
        ("database disk image is malformed", "the database {path} is damaged"),
    ],
)
def test_what_stops_the_start_is_said_with_what_to_do(tmp_path: Path, error: str, starts: str):
    """The one line a host reads when the server will not start (store/startup.py): a full disk and a
    database in use are not damage (no restore over a whole file); a damaged one is restored."""
    from scorekeeper.store.startup import database_problem

    path = str(tmp_path / "scorekeeper.sqlite")
    said = database_problem(path, error)
    assert said.startswith(starts.format(path=path) + f" ({error})")
    assert ("restore it from your latest backup" in said) == starts.endswith("damaged")
