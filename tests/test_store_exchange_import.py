"""An import read field by field at the store (store/exchange.py): what a good export brings is kept
as it was written, and each bad field is refused in words that name the object and the field."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules.rulesets import parse_ruleset, ruleset_document
from scorekeeper.store import Store, StoreError, exchange

TEN_PENNIES = parse_ruleset((Path(__file__).parents[1] / "scorekeeper/rules/data/ten-pennies.toml").read_text())


def an_export() -> dict[str, Any]:
    """A night of one game, written out by hand the way `scorekeeper export` writes one."""
    return {
        "format": "scorekeeper-export",
        "version": 1,
        "rulesets": [{"id": "ten-pennies", "version": 3, "house": True, "document": ruleset_document(TEN_PENNIES)}],
        "nights": [
            {
                "id": 4,
                "name": "Gran's Friday",
                "created_at": "2026-11-20T19:30:00",
                "closed_at": None,
                "money": "paper",
                "notes": None,
            }
        ],
        "games": [
            {
                "id": 7,
                "ruleset": "ten-pennies",
                "ruleset_version": 3,
                "created_at": "2026-11-20T19:45:00",
                "first_dealer": 1,
                "penny_cents": 5,
                "night_id": 4,
                "notes": None,
                "players": [
                    {"seat": 0, "name": "Ann", "side": 0},
                    {"seat": 1, "name": "O'Neil", "side": 1},
                ],
                "events": [
                    {
                        "id": 11,
                        "kind": "buy",
                        "payload": {"round": 1, "player": "Ann"},
                        "created_at": "2026-11-20T19:50:00",
                    },
                    {
                        "id": 12,
                        "kind": "buy",
                        "payload": {"round": 1, "player": "O'Neil"},
                        "created_at": "2026-11-20T19:51:00",
                    },
                ],
            }
        ],
    }


def kept_ruleset(store: Store, game_id: int) -> Any:
    version = store.game(game_id)["ruleset_version"]
    assert version is not None
    return store.ruleset_version("ten-pennies", version)


def changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = an_export()
    change(data)
    return data


def without_a_night(data: dict[str, Any]) -> dict[str, Any]:
    """The export's one game played outside any night: that game, to change further."""
    data["nights"].clear()
    data["games"][0]["night_id"] = None
    played: dict[str, Any] = data["games"][0]
    return played


def game(data: dict[str, Any]) -> dict[str, Any]:
    return dict(data["games"][0])


def test_a_good_export_is_kept_as_written(store: Store):
    assert exchange.load_dump(store, an_export()) == [7]
    night = store.night(4)
    assert (night["name"], night["money"], night["notes"], night["closed_at"]) == ("Gran's Friday", "paper", "", None)
    kept = store.game(7)
    assert (kept["ruleset"], kept["first_dealer"], kept["penny_cents"], kept["night_id"], kept["notes"]) == (
        "ten-pennies",
        1,
        5,
        4,
        "",
    )
    assert kept_ruleset(store, 7) is not None
    assert store.seats(7) == [{"seat": 0, "name": "Ann", "side": 0}, {"seat": 1, "name": "O'Neil", "side": 1}]
    events = store.events(7)
    assert [(e["id"], e["kind"], e["payload"]) for e in events] == [
        (11, "buy", {"round": 1, "player": "Ann"}),
        (12, "buy", {"round": 1, "player": "O'Neil"}),
    ]
    assert store.db.execute("SELECT payload FROM events WHERE id = 11").fetchone()[0] == json.dumps(
        {"player": "Ann", "round": 1}
    )  # keys in order: the text a replay is known by
    assert store.db.execute("SELECT revision FROM games WHERE id = 7").fetchone()[0] == 2


def test_the_house_ruleset_stays_a_house_ruleset(store: Store):
    exchange.load_dump(store, an_export())
    kept = kept_ruleset(store, 7)
    assert kept is not None and bool(kept["house"])
    assert exchange.dump(store)["rulesets"][0]["house"] is True


def test_a_ruleset_without_house_is_not_a_house_ruleset(store: Store):
    exchange.load_dump(store, changed(lambda d: d["rulesets"][0].pop("house")))
    kept = kept_ruleset(store, 7)
    assert kept is not None and not kept["house"]


def test_an_export_from_before_money_modes_pays_on_the_table(store: Store):
    exchange.load_dump(store, changed(lambda d: d["nights"][0].pop("money")))
    assert store.night(4)["money"] == "table"


def test_a_game_played_under_the_ruleset_as_it_is_here_keeps_no_version(store: Store):
    exchange.load_dump(store, changed(lambda d: d["games"][0].update(ruleset_version=None)))
    assert store.game(7)["ruleset_version"] is None


def test_an_export_from_before_rulesets_were_kept_imports(store: Store):
    data = changed(lambda d: (d.pop("rulesets"), d["games"][0].update(ruleset_version=None)))
    assert exchange.load_dump(store, data) == [7]


def test_each_night_and_game_gets_a_share_link_of_its_own(store: Store):
    exchange.load_dump(store, an_export())
    night_link = store.night(4)["share_token"]
    game_link = store.db.execute("SELECT share_token FROM games WHERE id = 7").fetchone()[0]
    assert len(night_link) == len(game_link) == 22 and night_link != game_link  # 16 random bytes each


def test_a_game_without_a_night_imports(store: Store):
    exchange.load_dump(store, changed(without_a_night))
    assert store.game(7)["night_id"] is None


REFUSALS: dict[str, tuple[Callable[[dict[str, Any]], object], str]] = {
    "no format": (lambda d: d.pop("format"), "not a Scorekeeper export (format scorekeeper-export, version 1)"),
    "version 2": (lambda d: d.update(version=2), "not a Scorekeeper export (format scorekeeper-export, version 1)"),
    "nights not a list": (lambda d: d.update(nights={}), "the export: 'nights' must be a list"),
    "games not a list": (lambda d: d.update(games=None), "the export: 'games' must be a list"),
    "rulesets not a list": (lambda d: d.update(rulesets="x"), "the export: 'rulesets' must be a list"),
    "a ruleset not an object": (lambda d: d["rulesets"].append(5), "a ruleset: must be an object"),
    "a ruleset's id a number": (lambda d: d["rulesets"][0].update(id=5), "a ruleset: 'id' must be str, not 5"),
    "house not true or false": (
        lambda d: d["rulesets"][0].update(house="yes"),
        "a ruleset: 'house' must be true or false, not 'yes'",
    ),
    "a ruleset of another id": (
        lambda d: d["rulesets"][0].update(id="gin"),
        "ruleset 'gin' version 3: its document is the ruleset 'ten-pennies'",
    ),
    "a ruleset the reader refuses": (
        lambda d: d["rulesets"][0]["document"].update(cards_dealt=99),
        "ruleset 'ten-pennies' version 3: cards_dealt: must be at most 30, not 99",
    ),
    "a night's id as text": (lambda d: d["nights"][0].update(id="4"), "night: 'id' must be int, not '4'"),
    "a night's id as true": (lambda d: d["nights"][0].update(id=True), "night: 'id' must be int, not True"),
    "a night's id past 64 bits": (lambda d: d["nights"][0].update(id=2**63), "night: 'id' is out of range"),
    "a night's id below 64 bits": (lambda d: d["nights"][0].update(id=-(2**63)), "night: 'id' is out of range"),
    "a night's date": (
        lambda d: d["nights"][0].update(created_at="Friday"),
        "night 4: 'created_at' must be a date and time (ISO 8601), not 'Friday'",
    ),
    "a night's money mode": (
        lambda d: d["nights"][0].update(money="gold"),
        "night 4: 'money' is one of 'table', 'paper', not 'gold'",
    ),
    "a night twice": (
        lambda d: d["nights"].append(dict(d["nights"][0])),
        "night 4 already exists: import into an empty database",
    ),
    "a game not an object": (lambda d: d["games"].append([]), "game: must be an object"),
    "a game's date": (
        lambda d: d["games"][0].update(created_at="soon"),
        "game 7: 'created_at' must be a date and time (ISO 8601), not 'soon'",
    ),
    "a game's penny as text": (
        lambda d: d["games"][0].update(penny_cents="5"),
        "game: 'penny_cents' must be int, not '5'",
    ),
    "a game's version as text": (
        lambda d: d["games"][0].update(ruleset_version="3"),
        "game: 'ruleset_version' must be int, not '3'",
    ),
    "a game twice": (
        lambda d: d["games"].append(game(d) | {"events": []}),
        "game 7 already exists: import into an empty database",
    ),
    "a game in no night of the export": (
        lambda d: d["games"][0].update(night_id=5),
        "game 7: night_id 5 is not a night of the export",
    ),
    "a version the export does not hold": (
        lambda d: d["games"][0].update(ruleset_version=2),
        "game 7: version 2 of 'ten-pennies' is not a ruleset of the export",
    ),
    "players not a list": (lambda d: d["games"][0].update(players={}), "game 7: 'players' must be a list"),
    "events not a list": (lambda d: d["games"][0].update(events=None), "game 7: 'events' must be a list"),
    "a player's side as text": (
        lambda d: d["games"][0]["players"][0].update(side="0"),
        "game 7, a player: 'side' must be int, not '0'",
    ),
    "seats with a gap": (
        lambda d: d["games"][0]["players"][1].update(seat=2),
        "game 7: the players' seats must be 0 to 1, each once, not [0, 2]",
    ),
    "sides with a gap": (
        lambda d: d["games"][0]["players"][1].update(side=2),
        "game 7: the sides must be numbered 0 to 1, not [0, 2]",
    ),
    "a first dealer past the last seat": (
        lambda d: d["games"][0].update(first_dealer=2),
        "game 7: 'first_dealer' must be a seat (0 to 1), not 2",
    ),
    "an entry's payload as text": (
        lambda d: d["games"][0]["events"][0].update(payload="buy"),
        "game 7, an entry: 'payload' must be dict, not 'buy'",
    ),
    "an entry number twice": (
        lambda d: d["games"][0]["events"][1].update(id=11),
        "game 7, entry 11: that entry number is taken",
    ),
}


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_a_bad_field_is_refused_in_words_and_nothing_is_kept(store: Store, kind: str):
    change, message = REFUSALS[kind]
    with pytest.raises(StoreError) as refused:
        exchange.load_dump(store, changed(change))
    assert str(refused.value).startswith(message), str(refused.value)
    assert not store.has_row("nights", 4) and not store.has_row("games", 7)


def test_a_game_taken_here_already_is_refused(store: Store):
    exchange.load_dump(store, changed(without_a_night))
    again = changed(lambda d: without_a_night(d).update(ruleset_version=None))
    with pytest.raises(StoreError, match="^game 7 already exists: import into an empty database$"):
        exchange.load_dump(store, again)


def test_an_entry_number_taken_here_already_is_refused(store: Store):
    exchange.load_dump(store, changed(without_a_night))
    again = changed(lambda d: without_a_night(d).update(id=8))
    with pytest.raises(StoreError, match="^game 8, entry 11: that entry number is taken$"):
        exchange.load_dump(store, again)
