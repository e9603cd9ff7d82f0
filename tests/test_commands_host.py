"""The host's way back (issue 57), from the host's words: "a forgotten PIN has no way back"; "a test
game or 'Bbo' stays in the records and the leaderboard for good". A PIN taken off at the machine;
a player renamed; two players who are one person merged, their records, head to head and rating
following, and the records after it equal to those added up from scratch."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from support import Api, make_app

from scorekeeper.commands import TRUSTED, Asker, run
from scorekeeper.commands.derived import import_dump
from scorekeeper.commands.host import ClearPin, MergePlayers, PlayerChangeRefused, RenamePlayer
from scorekeeper.commands.locks import NeedsUnlock
from scorekeeper.store import Store, exchange, record_keeping

NOBODY = Asker(lambda lock: False, lambda lock: NeedsUnlock(f"{lock.name} is locked"))


def finished_game(api: Api, players: list[str], night: int | None = None, pin: str | None = None) -> int:
    """A whole Ten Pennies game: the first player goes out every round, the others caught with a 5."""
    body = {"ruleset": "ten-pennies", "players": players, "first_dealer": players[0], "night": night}
    if pin:
        body["pin"] = pin
    game = api.call("POST", "/api/games", body, 201)
    headers = {}
    if pin:
        token = api.call("POST", f"/api/games/{game['id']}/unlock", {"pin": pin})["token"]
        headers = {"Authorization": f"Bearer {token}"}
    for _ in range(7):
        caught = {name: "5" for name in players[1:]}
        answer = api.client.post(
            f"/api/games/{game['id']}/rounds", json={"went_out": players[0], "caught": caught}, headers=headers
        )
        assert answer.status_code == 201, answer.get_json()
    return int(game["id"])


def records(database: str) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    conn = sqlite3.connect(database)
    try:
        days = conn.execute("SELECT * FROM player_days ORDER BY player_id, ruleset, period").fetchall()
        pairs = conn.execute("SELECT * FROM pair_days ORDER BY player_id, other_id, ruleset, period").fetchall()
    finally:
        conn.close()
    return days, pairs


@pytest.fixture
def house(tmp_path: Path):
    app = make_app(tmp_path, DATABASE=str(tmp_path / "scorekeeper.sqlite"))
    api = Api(app.test_client())
    store = Store(app.config["DATABASE"])
    yield app, api, store
    store.close()


def leaderboard_names(store: Store) -> set[str]:
    return {row["name"] for row in store.leaderboard()}


def test_bbo_merged_into_bob_counts_every_game_for_bob_as_if_entered_so(house):
    app, api, store = house
    catalog = app.extensions["rulesets"]
    finished_game(api, ["Ann", "Bob", "Cy"])
    finished_game(api, ["Ann", "Bbo", "Cy"])  # the typo of the second game
    bob, bbo = store.player_id("Bob"), store.player_id("Bbo")
    assert bob is not None and bbo is not None
    run(store, catalog, MergePlayers(bbo, bob), TRUSTED)

    assert store.player_id("Bbo") is None and "Bbo" not in leaderboard_names(store)
    [bobs] = [row for row in store.player_stats(bob) if row["ruleset"] == "ten-pennies"]
    assert bobs["games"] == 2
    kept = records(app.config["DATABASE"])
    with store.writing():
        record_keeping.add_up_players(store, [int(row[0]) for row in store.db.execute("SELECT id FROM players")])
    assert records(app.config["DATABASE"]) == kept  # as if added up from scratch

    # Exported and imported elsewhere, the games still count for Bob (the scorepad still says Bbo).
    folder = Path(app.config["DATABASE"]).parent / "elsewhere"
    elsewhere = make_app(folder, DATABASE=str(folder / "scorekeeper.sqlite"))
    data = exchange.dump(store)
    assert [seat.get("player") for seat in data["games"][1]["players"]] == [None, "Bob", None]
    moved = Store(elsewhere.config["DATABASE"])
    try:
        import_dump(moved, catalog, data)
        assert moved.player_id("Bbo") is None
        assert records(elsewhere.config["DATABASE"]) == kept
    finally:
        moved.close()


def test_two_players_with_seats_in_one_game_cannot_be_merged(house):
    app, api, store = house
    finished_game(api, ["Ann", "Bob", "Cy"])
    ann, bob = store.player_id("Ann"), store.player_id("Bob")
    assert ann is not None and bob is not None
    with pytest.raises(PlayerChangeRefused, match="'Ann' and 'Bob' both have a seat in game 1"):
        run(store, app.extensions["rulesets"], MergePlayers(ann, bob), TRUSTED)
    assert {"Ann", "Bob"} <= leaderboard_names(store)


def test_a_rename_shows_on_the_leaderboard_and_refuses_a_name_taken_or_alike(house):
    app, api, store = house
    catalog = app.extensions["rulesets"]
    finished_game(api, ["Ann", "Bbo", "Cy"])
    finished_game(api, ["Ann", "Di", "Cy"])
    bbo = store.player_id("Bbo")
    assert bbo is not None
    with pytest.raises(PlayerChangeRefused, match="'Di' has played here already: merge 'Bbo' into 'Di' instead"):
        run(store, catalog, RenamePlayer(bbo, "di"), TRUSTED)
    with pytest.raises(PlayerChangeRefused, match="'D1' looks like 'Di', who has played here"):
        run(store, catalog, RenamePlayer(bbo, "D1"), TRUSTED)
    assert run(store, catalog, RenamePlayer(bbo, "  Bob "), TRUSTED) == "Bob"
    assert "Bob" in leaderboard_names(store) and "Bbo" not in leaderboard_names(store)
    assert run(store, catalog, RenamePlayer(bbo, "BOB"), TRUSTED) == "BOB"  # the same player, in capitals


def test_renaming_and_merging_in_the_app_needs_every_pin_among_their_games(house):
    app, api, store = house
    catalog = app.extensions["rulesets"]
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    finished_game(api, ["Ann", "Bob", "Cy"], night=night, pin="2468")
    finished_game(api, ["Ann", "Bbo", "Cy"])
    bob, bbo = store.player_id("Bob"), store.player_id("Bbo")
    assert bob is not None and bbo is not None
    with pytest.raises(NeedsUnlock, match=f"night {night} is locked"):
        run(store, catalog, MergePlayers(bbo, bob), NOBODY)
    with pytest.raises(NeedsUnlock):
        run(store, catalog, RenamePlayer(bob, "Robert"), NOBODY)
    run(store, catalog, RenamePlayer(bbo, "Bo"), NOBODY)  # Bbo's games are under no PIN


def test_a_forgotten_pin_taken_off_at_the_machine_opens_the_night_and_ends_every_unlock(house):
    app, api, store = house
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    api.call(
        "POST", "/api/games", {"ruleset": "ten-pennies", "players": ["Ann", "Bob"], "night": night, "pin": "1357"}, 201
    )
    [locked] = store.locked()
    assert (locked["kind"], locked["id"], locked["games"]) == ("night", night, "1")
    was = store.night(night)["lock_generation"]
    assert run(store, app.extensions["rulesets"], ClearPin("night", night), TRUSTED) is True
    assert store.locked() == [] and store.night(night)["lock_generation"] == was + 1
    api.round(1, "Ann", {"Bob": "K"})  # no PIN asked any more
    assert run(store, app.extensions["rulesets"], ClearPin("night", night), TRUSTED) is False  # none left
