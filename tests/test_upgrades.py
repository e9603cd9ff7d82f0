"""Upgrades from any earlier database (issue 28): databases made by earlier versions of the app, played
through their own API (tests/data/old-databases/make.py says how: a night with a locked game, a tie
whose odd penny is carried, a corrected round), open in this version with every game's points,
pennies, money and the night's nets as that version said, every page answering, and the schema a
fresh database has."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from support import make_app

OLD = Path(__file__).parent / "data" / "old-databases"
VERSIONS = sorted(path.stem for path in OLD.glob("v-*.sqlite"))


def schema(path: Path) -> dict[str, list[tuple[str, str]]]:
    """Every table's columns and types (not the migrations' own bookkeeping)."""
    conn = sqlite3.connect(path)
    try:
        tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            table: [(row[1], row[2]) for row in conn.execute(f"PRAGMA table_info([{table}])")]
            for table in sorted(tables)
            if not table.startswith(("_sqlite", "sqlite_"))
        }
    finally:
        conn.close()


def test_there_are_databases_of_four_earlier_versions():
    """The first release (the commit before the night replay, 60ee1bf~1) and the versions that added
    m009, m013 and m015: one fixture per schema version from now on."""
    assert VERSIONS == ["v-first-release", "v-m009", "v-m013", "v-m015"]


@pytest.mark.parametrize("version", VERSIONS)
def test_an_earlier_database_opens_with_every_game_as_it_was(version, tmp_path):
    database = tmp_path / "scorekeeper.sqlite"
    shutil.copy(OLD / f"{version}.sqlite", database)
    said = json.loads((OLD / f"{version}.json").read_text())
    client = make_app(tmp_path, DATABASE=str(database)).test_client()
    cents_by_game = {}
    for game in said["games"]:
        now = client.get(f"/api/games/{game['id']}").get_json()
        cents_by_game[game["id"]] = now["penny_cents"]
        assert now["ruleset"] == game["ruleset"] and len(now["rounds"]) == game["rounds"]
        for field in ("points", "pennies_paid", "buys_left"):
            assert {p["name"]: p[field] for p in now["players"]} == game[field], (version, game["id"], field)
        assert now["winners"] == game["winners"] and now["finished"] == game["finished"]
        assert now["money"] == game["money"], (version, game["id"], "money")
        money_cents = {name: pennies * now["penny_cents"] for name, pennies in game["money"].items()}
        assert now["money_cents"] == money_cents, (version, game["id"], "money in cents")
        for page in (f"/games/{game['id']}", f"/games/{game['id']}/history"):
            assert client.get(page).status_code == 200, page
    for page in ("/", "/nights", f"/nights/{said['night']}", "/players", "/players/1"):
        assert client.get(page).status_code == 200, page
    # Players' records (m017) are worked out from the upgraded games: their finished games, their money.
    for player in client.get("/api/players").get_json():
        record = client.get(f"/api/players/{player['id']}").get_json()
        finished = [game for game in said["games"] if game["finished"] and player["name"] in game["money"]]
        assert record["games"] == len(finished) > 0, (version, player)
        money = sum(game["money"][player["name"]] * cents_by_game[game["id"]] for game in finished)
        assert record["money_cents"] == money, (version, player)
    then, night = said["night_report"], client.get(f"/api/nights/{said['night']}").get_json()
    assert night["nets"] == then["nets"] and night["left_in_bowls"] == then["left_in_bowls"]
    for game_then, game_now in zip(then["games"], night["games"], strict=True):
        assert game_now["left_in_bowl"] == game_then["left_in_bowl"], (version, game_now["id"])
        if game_now["ruleset"] == "ten-pennies":
            assert game_now["carry_in"] == game_then["carry_in"], (version, game_now["id"])
        else:  # RULES.md: a carry passes over a game that plays for no bowl (the first release put it in)
            assert game_now["carry_in"] == 0
    carried = [leftover for leftover in night["leftovers"] if leftover["game"] == 2]
    # The night is still open: a later game may take the penny (issue 60), so it waits for one.
    why = "the night's next game that plays for a bowl takes it"
    assert carried == [{"cents": 1, "game": 2, "into": None, "pennies": 1, "why": why}]


@pytest.mark.parametrize("version", VERSIONS)
def test_an_upgraded_database_has_the_schema_of_a_fresh_one(version, tmp_path):
    database = tmp_path / "old.sqlite"
    shutil.copy(OLD / f"{version}.sqlite", database)
    make_app(tmp_path / "upgraded", DATABASE=str(database))
    make_app(tmp_path / "fresh")
    assert schema(database) == schema(tmp_path / "fresh" / "scorekeeper.sqlite")
