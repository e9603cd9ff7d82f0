"""An import never takes a household's own rules (issue 58): "importing another household's export
silently replaced a house ruleset with the same id (our-way: 3 rounds became 7). An export listing one
ruleset version twice with two different documents imports without a word, and its games are scored
under the second. After export and import a house ruleset goes back to the last version a game used
(v2 instead of v3)." At the store and the import command, on real databases."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from support import make_app

from scorekeeper.commands.derived import ImportRefused, import_dump
from scorekeeper.rules.rulesets import ruleset_document
from scorekeeper.store import Store, exchange


def household(folder: Path, rounds: int) -> tuple[Any, Store]:
    """A household whose house rules "Our way" (id our-way) are Ten Pennies cut to ``rounds`` rounds,
    with one game played under them."""
    app = make_app(folder, DATABASE=str(folder / "scorekeeper.sqlite"))
    store = Store(app.config["DATABASE"])
    document = ruleset_document(app.extensions["rulesets"].rulesets["ten-pennies"])
    document = {**document, "id": "our-way", "name": "Our way", "rounds": document["rounds"][:rounds]}
    version = store.save_house_ruleset("our-way", document)
    app.extensions["rulesets"].refresh_house(store)
    client = app.test_client()
    game = client.post("/api/games", json={"ruleset": "our-way", "players": ["Ann", "Bob"]}).get_json()
    assert version == 1 and "id" in game, game
    return app, store


def rounds_of(store: Store, ruleset_id: str) -> int:
    row = store.ruleset_version(ruleset_id, store.latest_ruleset_version(ruleset_id) or 0)
    assert row is not None
    return len(json.loads(row["document"])["rounds"])


def renumbered(data: dict[str, Any], first_game: int) -> dict[str, Any]:
    """Another household's export with game ids this database has not used."""
    data = copy.deepcopy(data)
    for offset, game in enumerate(data["games"]):
        game["id"] = first_game + offset
        for number, event in enumerate(game["events"]):
            event["id"] = 1000 * game["id"] + number
    return data


def test_another_household_s_our_way_comes_in_as_a_copy_and_ours_stays(tmp_path):
    ours_app, ours = household(tmp_path / "ours", rounds=3)
    _, theirs = household(tmp_path / "theirs", rounds=7)
    import_dump(ours, ours_app.extensions["rulesets"], renumbered(exchange.dump(theirs), 50))
    assert rounds_of(ours, "our-way") == 3 and ours.latest_ruleset_version("our-way") == 1
    assert rounds_of(ours, "our-way-imported") == 7
    copied = ours.ruleset_version("our-way-imported", 1)
    assert copied is not None and json.loads(copied["document"])["name"] == "Our way (imported)"
    assert ours.game(50)["ruleset"] == "our-way-imported"  # their game keeps their rules
    assert ours.game(1)["ruleset"] == "our-way"


def test_one_version_listed_twice_with_two_documents_is_refused_naming_it(tmp_path):
    _, theirs = household(tmp_path / "theirs", rounds=3)
    data = exchange.dump(theirs)
    [listed] = [item for item in data["rulesets"] if item["id"] == "our-way"]
    other = copy.deepcopy(listed)
    other["document"]["points"]["3"] = 999
    data["rulesets"].append(other)
    empty_app = make_app(tmp_path / "empty", DATABASE=str(tmp_path / "empty" / "scorekeeper.sqlite"))
    empty = Store(empty_app.config["DATABASE"])
    with pytest.raises(ImportRefused, match="ruleset 'our-way' version 1 is listed twice with two different documents"):
        import_dump(empty, empty_app.extensions["rulesets"], data)
    assert empty.latest_ruleset_version("our-way") is None  # nothing came in


def test_the_latest_house_version_travels_and_comes_back(tmp_path):
    app, store = household(tmp_path / "ours", rounds=3)
    document = ruleset_document(app.extensions["rulesets"].rulesets["our-way"])
    assert store.save_house_ruleset("our-way", {**document, "rounds": document["rounds"][:2]}) == 2  # no game yet
    data = exchange.dump(store)
    moved_app = make_app(tmp_path / "moved", DATABASE=str(tmp_path / "moved" / "scorekeeper.sqlite"))
    moved = Store(moved_app.config["DATABASE"])
    import_dump(moved, moved_app.extensions["rulesets"], data)
    assert moved.latest_ruleset_version("our-way") == 2 and rounds_of(moved, "our-way") == 2
    assert moved.game(1)["ruleset_version"] == 1  # the game keeps the version it began with
