"""`scorekeeper pin reset` and `scorekeeper player rename|merge` as a host types them (issue 57): each
lists or says what it did in words, backs the database up first, and refuses in one line."""

from __future__ import annotations

import pytest
from support import PLAYERS, make_app
from test_backups import scorekeeper

from scorekeeper.store import backups


def locked_night(instance):
    client = make_app(instance, DATABASE=str(instance / "scorekeeper.sqlite")).test_client()
    night = client.post("/api/nights", json={"name": "Friday"}).get_json()["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "pin": "8642"}
    assert client.post("/api/games", json=body).status_code == 201
    return client


@pytest.mark.process
def test_a_forgotten_pin_is_listed_then_taken_off_after_a_backup(tmp_path):
    client = locked_night(tmp_path)
    listed = scorekeeper(tmp_path, "pin", "reset")
    assert listed.returncode == 0, listed.stderr
    assert "night 1   Friday, started " in listed.stdout and ", 1 game" in listed.stdout

    cleared = scorekeeper(tmp_path, "pin", "reset", "night", "1")
    assert cleared.returncode == 0, cleared.stderr
    [made] = backups.list_backups(tmp_path / "backups")
    assert made.reason == "before-change" and f"scorekeeper restore {made.name}" in cleared.stdout
    assert "The PIN of night 1 is taken off" in cleared.stdout
    assert client.post("/api/games/1/buys", json={"player": "Ann"}).status_code == 201  # no PIN asked
    assert "Nothing is locked" in scorekeeper(tmp_path, "pin", "reset").stdout

    again = scorekeeper(tmp_path, "pin", "reset", "night", "1")
    assert again.returncode != 0 and "night 1 has no PIN of its own" in again.stderr
    missing = scorekeeper(tmp_path, "pin", "reset", "game", "99")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr and "there is no game 99" in missing.stderr


@pytest.mark.process
def test_a_player_renamed_and_merged_from_the_command_line(tmp_path):
    client = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite")).test_client()
    for players in (["Ann", "Bob"], ["Ann", "Bbo"], ["Ann", "Cyy"]):
        assert client.post("/api/games", json={"ruleset": "ten-pennies", "players": players}).status_code == 201
    renamed = scorekeeper(tmp_path, "player", "rename", "Cyy", "Cy")
    assert renamed.returncode == 0, renamed.stderr
    assert "'Cyy' is now 'Cy'" in renamed.stdout
    merged = scorekeeper(tmp_path, "player", "merge", "Bbo", "Bob")
    assert merged.returncode == 0, merged.stderr
    assert "every game of 'Bbo' counts for 'Bob'" in merged.stdout
    assert [b.reason for b in backups.list_backups(tmp_path / "backups")] == ["before-change", "before-change"]
    refused = scorekeeper(tmp_path, "player", "merge", "Ann", "Bob")
    assert (
        refused.returncode != 0 and "nothing was changed: 'Ann' and 'Bob' both have a seat in game 1" in refused.stderr
    )
    unknown = scorekeeper(tmp_path, "player", "rename", "Zed", "Zoe")
    assert unknown.returncode != 0 and "no player called 'Zed' has played here" in unknown.stderr


@pytest.mark.process
def test_a_test_game_deleted_from_the_command_line_and_brought_back(tmp_path):
    client = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite")).test_client()
    assert client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Test"]}).status_code == 201
    deleted = scorekeeper(tmp_path, "delete", "game", "1")
    assert deleted.returncode == 0, deleted.stderr
    assert "Deleted game 1: the records are as if it had never been played." in deleted.stdout
    assert "`scorekeeper bring-back 1` brings it back (for 30 days at least)" in deleted.stdout
    assert client.get("/api/games/1").status_code == 404
    listed = scorekeeper(tmp_path, "bring-back").stdout
    assert "  1   game 1: Ten Pennies: Ann, Test, " in listed
    back = scorekeeper(tmp_path, "bring-back", "1")
    assert back.returncode == 0 and "Brought back as game 1, with its records." in back.stdout
    assert client.get("/api/games/1").status_code == 200
    gone = scorekeeper(tmp_path, "delete", "night", "7")
    assert gone.returncode != 0 and "Traceback" not in gone.stderr and "there is no night 7" in gone.stderr


@pytest.mark.process
def test_moving_to_a_new_machine_as_the_host_guide_says(tmp_path):
    """docs/host.md, "Moving to a new machine": a backup to a path, put in the new instance as its
    database before the first start, serves every game (and the PIN with it)."""
    import shutil

    from support import HttpClient, free_port, start_server

    old, new = tmp_path / "old", tmp_path / "new"
    locked_night(old)
    copy = tmp_path / "scorekeeper-moving.sqlite"
    assert scorekeeper(old, "backup", str(copy)).returncode == 0
    new.mkdir()
    shutil.copy(copy, new / "scorekeeper.sqlite")
    (new / "scorekeeper.sqlite").chmod(0o600)
    port = free_port()
    server = start_server(new, port)
    try:
        client = HttpClient(port)
        assert [seat["name"] for seat in client.json("GET", "/api/games/1")["players"]] == PLAYERS
        assert client.call("POST", "/api/games/1/buys", {"player": "Ann"})[0] == 401  # the PIN came along
    finally:
        server.terminate()
        server.wait(timeout=30)
