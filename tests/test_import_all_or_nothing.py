"""An import is all or nothing: each corrupt file of the kinds an attacker (or a bad editor) makes
leaves the database exactly as it was, says which entry is at fault, and the fixed file then imports."""

import copy
import json
import sqlite3

import pytest
from support import PLAYERS, make_app, tie_game


def database_text(path):
    with sqlite3.connect(path) as conn:
        return "\n".join(conn.iterdump())


@pytest.fixture
def export(api, runner, tmp_path):
    night = api.call("POST", "/api/nights", {"name": "Fri"}, 201)["id"]
    tie_game(api, night)
    game = api.new_game()["id"]
    api.buy(game, "Bob")
    path = tmp_path / "export.json"
    assert runner.invoke(args=["export", str(path)]).exit_code == 0
    return json.loads(path.read_text())


def corrupt(data, change):
    bad = copy.deepcopy(data)
    change(bad)
    return bad


def set_players(data, count):
    data["games"][0]["players"] = [{"seat": s, "name": f"P{s}", "side": s} for s in range(count)]


CORRUPTIONS = {
    "penny value -5": (lambda d: d["games"][0].update(penny_cents=-5), "game 1: a penny must be worth at least 1¢"),
    "20 players": (lambda d: set_players(d, 20), "game 1: Ten Pennies is for 2 to 8 players, not 20"),
    "unknown ruleset": (
        lambda d: d["games"][1].update(ruleset="poker"),
        "game 2: version 1 of 'poker' is not a ruleset of the export",
    ),
    "unknown ruleset in an export from before rulesets were kept": (
        lambda d: (
            d.pop("rulesets"),
            [g.pop("ruleset_version") for g in d["games"]],
            d["games"][1].update(ruleset="poker"),
        ),
        "game 2: there is no ruleset 'poker'",
    ),
    "a ruleset the reader refuses": (
        lambda d: d["rulesets"][0]["document"].update(cards_dealt=99),
        "ruleset 'ten-pennies' version 1: cards_dealt: must be at most 30, not 99",
    ),
    "unknown event kind": (
        lambda d: d["games"][1]["events"][0].update(kind="bet"),
        "game 2, entry 8: 'bet' is not a kind of entry",
    ),
    "an entry the rules refuse": (
        lambda d: d["games"][0]["events"][0]["payload"]["caught"].update(Cy="K " * 20),
        "game 1, entry 1 (round): round 1: Cy is caught with 20 cards",
    ),
    "a name that is not text": (lambda d: d["games"][0]["players"][0].update(name=7), "'name' must be str"),
    "a game in no night of the export": (
        lambda d: d["games"][0].update(night_id=9),
        "game 1: night_id 9 is not a night of the export",
    ),
    "not an export": (lambda d: d.update(format="csv"), "not a Scorekeeper export"),
    "a game twice in the file": (
        lambda d: d["games"][1].update(id=d["games"][0]["id"]),
        "game 1 already exists: import into an empty database",
    ),
    "an entry number twice in the file": (
        lambda d: d["games"][1]["events"][0].update(id=d["games"][0]["events"][0]["id"]),
        "that entry number is taken",
    ),
    "a note of 501 characters": (
        lambda d: d["games"][1].update(notes="x" * 501),
        "game 2: a note is at most 500 characters; this one has 501",
    ),
    # crafted files a probe imported: accepted before, then their pages answered 500
    "two seats with one number": (
        lambda d: d["games"][0]["players"][1].update(seat=0),
        "game 1: the players' seats must be 0 to 3, each once, not [0, 0, 2, 3]",
    ),
    "seats 5 and 7": (
        lambda d: d["games"][0].update(
            players=[{"seat": 5, "name": "A", "side": 0}, {"seat": 7, "name": "B", "side": 1}]
        ),
        "game 1: the players' seats must be 0 to 1, each once, not [5, 7]",
    ),
    "a first dealer who is not seated": (
        lambda d: d["games"][0].update(first_dealer=9),
        "game 1: 'first_dealer' must be a seat (0 to 3), not 9",
    ),
    "a round as a float": (
        lambda d: d["games"][0]["events"][0]["payload"].update(round=1.0),
        "game 1, entry 1 (round): round must be a whole number from 1 to 1000, not 1.0",
    ),
    "a buy's round as a string": (
        lambda d: d["games"][1]["events"][0]["payload"].update(round="1"),
        "game 2, entry 8 (buy): round must be a whole number from 1 to 1000, not '1'",
    ),
    "a round number of 31 digits": (
        lambda d: d["games"][0]["events"][0]["payload"].update(round=10**30),
        "game 1, entry 1 (round): round must be a whole number from 1 to 1000, not 1000000000000000000000000000000",
    ),
    "caught cards that are not text": (
        lambda d: d["games"][0]["events"][0]["payload"]["caught"].update(Cy=5),
        "game 1, entry 1 (round): caught must be text, not 5",
    ),
    "a created_at that is not a date": (
        lambda d: d["games"][0].update(created_at="yesterday"),
        "game 1: 'created_at' must be a date and time (ISO 8601), not 'yesterday'",
    ),
    "a night closed on no date": (
        lambda d: d["nights"][0].update(closed_at="soon"),
        "night 1: 'closed_at' must be a date and time (ISO 8601), not 'soon'",
    ),
    "a night's note that is not text": (lambda d: d["nights"][0].update(notes=5), "night: 'notes' must be str"),
    "a note hiding a character": (
        lambda d: d["nights"][0].update(notes="Ann\u202ehosted"),
        "night 1: the note has an invisible or control character at position 4 (U+202E)",
    ),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_a_corrupt_import_leaves_the_database_as_it_was(tmp_path, export, kind):
    change, message = CORRUPTIONS[kind]
    fresh = make_app(tmp_path / "fresh")
    fresh.test_client().post("/api/games", json={"ruleset": "ten-pennies", "players": ["Zed", "Yo"]})
    before = database_text(fresh.config["DATABASE"])
    bad = tmp_path / "bad.json"
    # Ids of the export start at 1: move the fresh game out of the way so only the corruption can fail.
    data = corrupt(export, change)
    for game in data.get("games", []):
        game["id"] += 100
        for event in game["events"]:
            event["id"] += 100
    message = message.replace("game 1", "game 101").replace("game 2", "game 102").replace("entry 8", "entry 108")
    message = message.replace("entry 1 ", "entry 101 ")
    bad.write_text(json.dumps(data))
    result = fresh.test_cli_runner().invoke(args=["import", str(bad)])
    assert result.exit_code != 0 and "nothing was imported" in result.output
    assert message in result.output, result.output
    assert database_text(fresh.config["DATABASE"]) == before


def test_after_a_failed_import_the_fixed_file_imports(tmp_path, export):
    fresh = make_app(tmp_path / "fresh")
    bad, good = tmp_path / "bad.json", tmp_path / "good.json"
    bad.write_text(json.dumps(corrupt(export, CORRUPTIONS["unknown ruleset"][0])))
    good.write_text(json.dumps(export))
    assert fresh.test_cli_runner().invoke(args=["import", str(bad)]).exit_code != 0
    result = fresh.test_cli_runner().invoke(args=["import", str(good)])
    assert result.exit_code == 0, result.output
    client = fresh.test_client()
    assert client.get("/nights/1").status_code == 200 and client.get("/games/2/export.csv").status_code == 200


def test_an_import_never_sets_a_pin(tmp_path, export):
    fresh = make_app(tmp_path / "fresh")
    with_pin = corrupt(export, lambda d: d["games"][1].update(pin_hash="scrypt:32768:8:1$x$y", lock_generation=5))
    path = tmp_path / "pin.json"
    path.write_text(json.dumps(with_pin))
    assert fresh.test_cli_runner().invoke(args=["import", str(path)]).exit_code == 0
    with sqlite3.connect(fresh.config["DATABASE"]) as conn:
        assert conn.execute("SELECT pin_hash, lock_generation FROM games WHERE id = 2").fetchone() == (None, 0)
    assert fresh.test_client().post("/api/games/2/buys", json={"player": PLAYERS[0]}).status_code == 201
