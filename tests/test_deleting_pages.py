"""A game or a night deleted from its page (issue 57): asked first, in words; behind its PIN; a backup
first; gone from every list, and the host can bring it back."""

from __future__ import annotations

import html
from pathlib import Path

from support import PLAYERS, csrf_token, make_app, words

from scorekeeper.store import backups


def house(tmp_path: Path):
    app = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite"), BACKUPS_DIR=str(tmp_path / "backups"))
    return app, app.test_client()


def said(page) -> str:
    return html.unescape(words(page.text))


def test_a_test_game_is_deleted_from_its_page_after_a_question(tmp_path):
    app, client = house(tmp_path)
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Test"]})
    assert "Delete this game…" in client.get("/games/1").text
    asked = client.get("/games/1/delete")
    assert "Delete game 1?" in said(asked) and "Ten Pennies: Ann, Test, " in said(asked)
    assert "The host can bring it back for 30 days at least, at the server: scorekeeper bring-back." in said(asked)
    done = client.post("/games/1/delete", data={"csrf_token": csrf_token(asked.text)}, follow_redirects=True)
    assert "Game 1 is deleted. The host can bring it back: `scorekeeper bring-back`." in said(done)
    assert client.get("/games/1").status_code == 404 and "Test" not in client.get("/players").text
    assert [b.reason for b in backups.list_backups(tmp_path / "backups")] == ["before-change"]


def test_a_locked_game_is_not_deleted_by_a_phone_without_its_pin(tmp_path):
    app, client = house(tmp_path)
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS, "pin": "2580"})
    stranger = app.test_client()
    assert "Delete this game…" not in stranger.get("/games/1").text
    token = csrf_token(stranger.get("/nights").text)  # a form of the same session
    refused = stranger.post("/games/1/delete", data={"csrf_token": token})
    assert refused.status_code in (302, 303, 401, 403) and stranger.get("/games/1").status_code == 200
    assert backups.list_backups(tmp_path / "backups") == []


def test_a_night_entered_twice_is_deleted_with_its_games(tmp_path):
    app, client = house(tmp_path)
    night = client.post("/api/nights", json={"name": "Twice"}).get_json()["id"]
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS, "night": night})
    asked = client.get(f"/nights/{night}/delete")
    assert "Delete night 1?" in said(asked) and "Twice of " in said(asked) and ": 1 game" in said(asked)
    done = client.post(f"/nights/{night}/delete", data={"csrf_token": csrf_token(asked.text)}, follow_redirects=True)
    assert "Night 1 is deleted." in said(done)
    assert client.get(f"/nights/{night}").status_code == 404 and client.get("/games/1").status_code == 404
