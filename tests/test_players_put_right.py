"""A player put right in the app (issue 57): renamed, or made one with another player, from their page;
a backup first, a refusal said with what was typed kept, and games under a PIN the phone has not
opened left alone."""

from __future__ import annotations

import html
from pathlib import Path

from support import PLAYERS, csrf_token, make_app, words

from scorekeeper.store import backups


def house(tmp_path: Path):
    app = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite"), BACKUPS_DIR=str(tmp_path / "backups"))
    return app, app.test_client()


def post_form(client, player_id: int, action: str, field: str, value: str):
    token = csrf_token(client.get(f"/players/{player_id}").text)
    return client.post(
        f"/players/{player_id}/{action}", data={"csrf_token": token, field: value}, follow_redirects=True
    )


def test_a_typo_renamed_from_the_player_page_shows_on_the_leaderboard(tmp_path):
    app, client = house(tmp_path)
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bbo"]})
    page = post_form(client, 2, "rename", "name", "Bob")
    assert "Done: a backup was made first." in html.unescape(words(page.text))
    assert "<h1>Bob</h1>" in page.text
    assert [b.reason for b in backups.list_backups(tmp_path / "backups")] == ["before-change"]


def test_a_refused_rename_says_why_and_keeps_what_was_typed(tmp_path):
    app, client = house(tmp_path)
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": PLAYERS})
    page = post_form(client, 2, "rename", "name", "ANN")
    said = html.unescape(words(page.text))
    assert "Nothing was changed: 'Ann' has played here already: merge 'Bob' into 'Ann' instead." in said
    assert 'value="ANN"' in page.text and '<details class="put-right" open>' in page.text
    assert "<h1>Bob</h1>" in page.text


def test_two_players_made_one_from_the_page_and_the_other_leaves_the_records(tmp_path):
    app, client = house(tmp_path)
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bob"]})
    client.post("/api/games", json={"ruleset": "ten-pennies", "players": ["Ann", "Bbo"]})
    page = post_form(client, 3, "merge", "into", "bob")
    assert "Done: a backup was made first." in html.unescape(words(page.text)) and "<h1>Bob</h1>" in page.text
    assert client.get("/players/3").status_code == 404
    unknown = post_form(client, 2, "merge", "into", "Zed")
    assert "No player called 'Zed' has played here: nothing was changed." in html.unescape(words(unknown.text))
    assert 'value="Zed"' in unknown.text


def test_a_player_whose_games_are_locked_is_left_alone_by_a_phone_without_the_pin(tmp_path):
    app, client = house(tmp_path)
    body = {"ruleset": "ten-pennies", "players": ["Ann", "Bob"], "pin": "1234"}
    client.post("/api/games", json=body)
    stranger = app.test_client()
    page = post_form(stranger, 2, "rename", "name", "Robert")
    assert "some of Bob's games are under a PIN this phone has not opened" in html.unescape(words(page.text))
    assert "<h1>Bob</h1>" in page.text
