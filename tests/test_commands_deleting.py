"""A game or a night deleted and brought back (issue 57): "no game or night can be deleted: a test game
stays in the records and the leaderboard for good". After a delete the records, the night's carries
and each game's results equal a from-scratch rebuild without it (the rest imported into an empty
database, replayed by the engine); brought back, everything is as before, PINs and payments too."""

from __future__ import annotations

import copy
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from support import Api, make_app, tie_game

from scorekeeper.commands import TRUSTED, Answered, run
from scorekeeper.commands.deleting import BringBack, DeleteGame, DeleteNight
from scorekeeper.commands.derived import import_dump
from scorekeeper.store import Store, exchange


def at_the_machine(store: Store, catalog, command: Any) -> Any:
    done = run(store, catalog, command, TRUSTED)
    assert not isinstance(done, Answered)
    return done


def derived_by_name(database: str) -> dict[str, Any]:
    """What the engine and the record keeping derived, by names (ids may differ between databases)."""
    conn = sqlite3.connect(database)
    try:
        days = conn.execute(
            "SELECT p.name, d.ruleset, d.period, d.games, d.wins, d.rounds, d.points, d.money, d.went_out, d.buys,"
            " d.streak_longest FROM player_days d JOIN players p ON p.id = d.player_id ORDER BY 1, 2, 3"
        ).fetchall()
        pairs = conn.execute(
            "SELECT a.name, b.name, x.ruleset, x.period, x.games, x.ahead, x.behind, x.money FROM pair_days x"
            " JOIN players a ON a.id = x.player_id JOIN players b ON b.id = x.other_id ORDER BY 1, 2, 3, 4"
        ).fetchall()
        games = conn.execute(
            "SELECT g.created_at, g.carry_in, gp.name, r.points, r.money, r.won, r.place FROM games g"
            " JOIN results r ON r.game_id = g.id JOIN game_players gp ON gp.game_id = g.id AND gp.seat = r.seat"
            " ORDER BY g.created_at, g.id, r.seat"
        ).fetchall()
        players = conn.execute("SELECT name FROM players ORDER BY name").fetchall()
    finally:
        conn.close()
    return {"days": days, "pairs": pairs, "games": games, "players": players}


@pytest.fixture
def house(tmp_path: Path):
    """A night of three tied games (each leaves a penny for the next) and a game of its own, Eve's
    only game among them (a test game with a made-up name)."""
    app = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite"))
    api = Api(app.test_client())
    night = api.call("POST", "/api/nights", {"name": "Friday"}, 201)["id"]
    for _ in range(3):
        tie_game(api, night)
    test_game = api.new_game(["Ann", "Eve"])["id"]
    for _ in range(7):
        api.round(test_game, "Ann", {"Eve": "K"})
    store = Store(app.config["DATABASE"])
    yield app, api, store, night
    store.close()


def rebuilt_without(app, tmp_path: Path, data: dict[str, Any], name: str) -> dict[str, Any]:
    folder = tmp_path / name
    fresh = make_app(folder, DATABASE=str(folder / "scorekeeper.sqlite"))
    store = Store(fresh.config["DATABASE"])
    try:
        import_dump(store, fresh.extensions["rulesets"], data)
    finally:
        store.close()
    return derived_by_name(fresh.config["DATABASE"])


def test_a_game_deleted_from_the_middle_of_a_night_leaves_what_a_rebuild_without_it_gives(house, tmp_path):
    app, api, store, night = house
    catalog = app.extensions["rulesets"]
    before = derived_by_name(app.config["DATABASE"])
    everything = exchange.dump(store)
    without = copy.deepcopy(everything)
    without["games"] = [game for game in without["games"] if game["id"] != 2]

    kept = at_the_machine(store, catalog, DeleteGame(2))
    assert derived_by_name(app.config["DATABASE"]) == rebuilt_without(app, tmp_path, without, "rebuilt")
    assert [row["label"] for row in store.deleted()] == [
        f"Ten Pennies: Ann, Bob, Cy, Di, {everything['games'][1]['created_at'][:10]}"
    ]

    assert at_the_machine(store, catalog, BringBack(kept)) == ("game", 2)
    assert derived_by_name(app.config["DATABASE"]) == before and store.deleted() == []


def test_a_test_game_deleted_takes_its_made_up_player_off_every_list(house):
    app, api, store, night = house
    assert store.player_id("Eve") is not None
    run(store, app.extensions["rulesets"], DeleteGame(4), TRUSTED)
    assert store.player_id("Eve") is None and "Eve" not in store.known_players()
    assert "Eve" not in {row["name"] for row in store.leaderboard()}


def test_a_night_deleted_and_brought_back_keeps_its_pin_and_payments(house, tmp_path):
    app, api, store, night = house
    catalog = app.extensions["rulesets"]
    with store.writing():
        store.db.execute("UPDATE nights SET pin_hash = 'kept-hash' WHERE id = ?", [night])
    store.table("payments").insert(
        {"night_id": night, "payer": "Cy", "payee": "Ann", "cents": 10, "made_at": "2026-12-03T20:00:00+00:00"}
    )
    before = derived_by_name(app.config["DATABASE"])
    everything = exchange.dump(store)
    kept = at_the_machine(store, catalog, DeleteNight(night))
    only_the_test_game = {**everything, "nights": [], "games": [everything["games"][3]]}
    assert derived_by_name(app.config["DATABASE"]) == rebuilt_without(app, tmp_path, only_the_test_game, "alone")
    assert store.night_game_ids(night) == [] and not store.has_row("nights", night)

    assert at_the_machine(store, catalog, BringBack(kept)) == ("night", night)
    assert derived_by_name(app.config["DATABASE"]) == before
    assert store.night(night)["pin_hash"] == "kept-hash"
    paid = store.db.execute("SELECT payer, payee, cents FROM payments WHERE night_id = ?", [night]).fetchall()
    assert paid == [("Cy", "Ann", 10)]


def test_a_game_brought_back_after_its_ids_were_taken_comes_back_under_new_ones(house):
    app, api, store, night = house
    catalog = app.extensions["rulesets"]
    kept = at_the_machine(store, catalog, DeleteGame(4))
    newer = api.new_game(["Ann", "Bob"])["id"]
    api.round(newer, "Ann", {"Bob": "K"})
    assert newer == 4  # SQLite gave the deleted game's id, and its first entries' ids, to the new one
    kind, back = at_the_machine(store, catalog, BringBack(kept))
    assert (kind, back) == ("game", 5)
    assert api.call("GET", "/api/games/5")["finished"] is True
    assert len(api.call("GET", "/api/games/4")["rounds"]) == 1
