"""A house rules file, field by field: each field is read from its own key, a wrong value is refused
naming that field in the words the author sees, a missing required field is named, and an optional
field left out takes the default RULES.md and the shipped files assume.

The files are written from dicts (``toml_text``) so each case changes exactly one field."""

from __future__ import annotations

import copy
import json
import tomllib
from typing import Any

import pytest
from support import ruleset_text

from scorekeeper.rules.rulesets import RulesetError, parse_ruleset

SHIPPED = {name: tomllib.loads(ruleset_text(name)) for name in ("ten-pennies", "ten-card-rummy", "pennies-from-heaven")}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)  # a JSON string or number is a TOML one
    if isinstance(value, list):
        return "[" + ", ".join(map(toml_value, value)) + "]"
    return "{" + ", ".join(f"{json.dumps(key)} = {toml_value(item)}" for key, item in value.items()) + "}"


def toml_text(data: dict[str, Any]) -> str:
    return "\n".join(f"{json.dumps(key)} = {toml_value(value)}" for key, value in data.items())


def changed(name: str, path: tuple[str | int, ...], value: Any = None, delete: bool = False) -> dict[str, Any]:
    data = copy.deepcopy(SHIPPED[name])
    parent: Any = data
    for step in path[:-1]:
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


def refusal(data: dict[str, Any]) -> str:
    with pytest.raises(RulesetError) as refused:
        parse_ruleset(toml_text(data), "house.toml")
    return str(refused.value)


def test_the_written_files_read_as_the_shipped_ones():
    """The writer itself: each shipped file, read back from its dict, is the ruleset shipped."""
    for name, data in SHIPPED.items():
        assert parse_ruleset(toml_text(data), f"{name}.toml") == parse_ruleset(ruleset_text(name), f"{name}.toml")


WRONG_KIND = [
    # (ruleset, path to the field, a value of the wrong kind, the refusal after "house.toml: ")
    ("ten-pennies", ("id",), 5, "id: must be a str, not 5"),
    ("ten-pennies", ("name",), 5, "name: must be a str, not 5"),
    ("ten-pennies", ("summary",), 5, "summary: must be a str, not 5"),
    ("ten-pennies", ("family",), 5, "family: must be a str, not 5"),
    ("ten-pennies", ("winner",), 5, "winner: must be a str, not 5"),
    ("ten-pennies", ("players",), 5, "players: must be a dict, not 5"),
    ("ten-pennies", ("players", "min"), "2", "players.min: must be a whole number, not '2'"),
    ("ten-pennies", ("players", "max"), True, "players.max: must be a whole number, not True"),
    ("ten-pennies", ("cards_dealt",), -1, "cards_dealt: must not be negative, not -1"),
    ("ten-pennies", ("meld_kinds",), "set", "meld_kinds: must be a list, not 'set'"),
    ("ten-pennies", ("points",), 5, "points: must be a dict, not 5"),
    ("ten-pennies", ("points", "K"), "ten", "points.K: must be a whole number, not 'ten'"),
    ("ten-pennies", ("money", "pennies_per_card"), "1", "money.pennies_per_card: must be a whole number, not '1'"),
    ("ten-pennies", ("decks", "jokers_per_deck"), "2", "decks.jokers_per_deck: must be a whole number, not '2'"),
    ("ten-pennies", ("decks", "players_per_deck"), "2", "decks.players_per_deck: must be a whole number, not '2'"),
    ("ten-pennies", ("decks", "table"), 5, "decks.table: must be a list, not 5"),
    ("ten-card-rummy", ("decks", "table", 0, "decks"), "2", "decks.table: must be a whole number, not '2'"),
    ("ten-card-rummy", ("decks", "table", 1, "max_players"), "8", "decks.table: must be a whole number, not '8'"),
    ("pennies-from-heaven", ("decks", "base"), "4", "decks.base: must be a whole number, not '4'"),
    ("pennies-from-heaven", ("decks", "extra_per_side"), "2", "decks.extra_per_side: must be a whole number, not '2'"),
    ("ten-pennies", ("rounds",), 5, "rounds: must be a list, not 5"),
    ("ten-pennies", ("rounds", 1, "wilds"), "2", "rounds[2].wilds: must be a list, not '2'"),
    ("ten-pennies", ("rounds", 1, "contract"), 5, "rounds[2].contract: must be a dict, not 5"),
    (
        "ten-pennies",
        ("rounds", 2, "contract", "melds"),
        "2",
        "rounds[3].contract.melds: must be a whole number, not '2'",
    ),
    ("ten-pennies", ("rounds", 2, "contract", "size"), "4", "rounds[3].contract.size: must be a whole number, not '4'"),
    ("ten-pennies", ("rounds", 3, "wild_limit"), "1", "rounds[4].wild_limit: must be a whole number, not '1'"),
    (
        "ten-pennies",
        ("rounds", 3, "wild_limit_per_kind"),
        "1",
        "rounds[4].wild_limit_per_kind: must be a whole number, not '1'",
    ),
    ("ten-pennies", ("rounds", 3, "board_minimum"), "1", "rounds[4].board_minimum: must be a whole number, not '1'"),
    (
        "pennies-from-heaven",
        ("rounds", 1, "board_minimum"),
        "90",
        "rounds[2].board_minimum: must be a whole number, not '90'",
    ),
    ("ten-pennies", ("buys",), 5, "buys: must be a dict, not 5"),
    ("ten-pennies", ("buys", "cards"), "3", "buys.cards: must be a whole number, not '3'"),
    ("ten-pennies", ("buys", "stack"), "10", "buys.stack: must be a whole number, not '10'"),
    ("ten-pennies", ("buys", "pennies"), "1", "buys.pennies: must be a whole number, not '1'"),
    ("ten-pennies", ("buys", "first_round"), "1", "buys.first_round: must be a whole number, not '1'"),
    ("ten-card-rummy", ("buys", "free_per_round"), "3", "buys.free_per_round: must be a whole number, not '3'"),
    ("ten-card-rummy", ("buys", "penalty_points"), "100", "buys.penalty_points: must be a whole number, not '100'"),
    ("ten-pennies", ("later_melds",), 5, "later_melds: must be a dict, not 5"),
    ("ten-pennies", ("later_melds", "min_size"), "3", "later_melds.min_size: must be a whole number, not '3'"),
    ("ten-pennies", ("later_melds", "max_wilds"), "1", "later_melds.max_wilds: must be a whole number, not '1'"),
    ("pennies-from-heaven", ("books",), 5, "books: must be a dict, not 5"),
    ("pennies-from-heaven", ("books", "sevens"), "1500", "books.sevens: must be a whole number, not '1500'"),
    (
        "pennies-from-heaven",
        ("books", "board_minimum_below_zero"),
        -15,
        "books.board_minimum_below_zero: must not be negative, not -15",
    ),
    ("ten-pennies", ("suits_required",), 5, "suits_required: must be a bool, not 5"),
    ("ten-pennies", ("no_duplicates",), 5, "no_duplicates: must be a bool, not 5"),
    ("ten-pennies", ("contract_exact",), 5, "contract_exact: must be a bool, not 5"),
    ("ten-pennies", ("wilds_at_most_naturals",), 5, "wilds_at_most_naturals: must be a bool, not 5"),
    ("ten-pennies", ("wild_rank_sets",), 5, "wild_rank_sets: must be a bool, not 5"),
    ("ten-pennies", ("pile_size",), "15", "pile_size: must be a whole number, not '15'"),
]


@pytest.mark.parametrize("name, path, value, said", WRONG_KIND, ids=[".".join(map(str, c[1])) for c in WRONG_KIND])
def test_a_field_of_the_wrong_kind_is_refused_naming_it(name, path, value, said):
    assert refusal(changed(name, path, value)) == f"house.toml: {said}"


REQUIRED = [
    ("ten-pennies", ("id",), "id"),
    ("ten-pennies", ("name",), "name"),
    ("ten-pennies", ("family",), "family"),
    ("ten-pennies", ("winner",), "winner"),
    ("ten-pennies", ("players",), "players"),
    ("ten-pennies", ("players", "min"), "players.min"),
    ("ten-pennies", ("players", "max"), "players.max"),
    ("ten-pennies", ("meld_kinds",), "meld_kinds"),
    ("ten-pennies", ("points",), "points"),
    ("ten-pennies", ("money",), "money"),
    ("ten-pennies", ("money", "pennies_per_card"), "money.pennies_per_card"),
    ("ten-pennies", ("decks",), "decks"),
    ("ten-card-rummy", ("decks", "table", 0, "decks"), "decks.table"),
    ("ten-card-rummy", ("decks", "table", 1, "max_players"), "decks.table"),
    ("ten-pennies", ("rounds",), "rounds"),
    ("ten-pennies", ("rounds", 0, "wilds"), "rounds[1].wilds"),
    ("ten-pennies", ("rounds", 4, "contract"), "rounds[5].contract"),
    ("ten-pennies", ("rounds", 4, "contract", "melds"), "rounds[5].contract.melds"),
    ("ten-pennies", ("rounds", 4, "contract", "size"), "rounds[5].contract.size"),
    ("pennies-from-heaven", ("rounds", 2, "board_minimum"), "rounds[3].board_minimum"),
    ("ten-pennies", ("buys", "cards"), "buys.cards"),
    ("ten-pennies", ("later_melds", "min_size"), "later_melds.min_size"),
    ("pennies-from-heaven", ("books",), "books"),
    ("pennies-from-heaven", ("books", "natural"), "books.natural"),
    ("pennies-from-heaven", ("books", "red_three_many_from"), "books.red_three_many_from"),
]


@pytest.mark.parametrize("name, path, field", REQUIRED, ids=[".".join(map(str, c[1])) for c in REQUIRED])
def test_a_required_field_left_out_is_named(name, path, field):
    assert refusal(changed(name, path, delete=True)) == f"house.toml: {field}: is missing"


def read(data: dict[str, Any]) -> Any:
    return parse_ruleset(toml_text(data), "house.toml")


def test_optional_fields_left_out_take_their_defaults():
    """A Ten Card Rummy file with every optional field left out: no summary, cards with or without
    suits alike, duplicates allowed, a first down of exactly the contract, wilds free of the ratio
    rule, sets of a wild rank allowed, no pile."""
    data = copy.deepcopy(SHIPPED["ten-card-rummy"])
    for key in (
        "summary",
        "suits_required",
        "no_duplicates",
        "contract_exact",
        "wilds_at_most_naturals",
        "wild_rank_sets",
        "pile_size",
    ):
        data.pop(key, None)
    ruleset = read(data)
    assert ruleset.summary == ""
    assert (ruleset.suits_required, ruleset.no_duplicates, ruleset.contract_exact) == (False, False, True)
    assert (ruleset.wilds_at_most_naturals, ruleset.wild_rank_sets, ruleset.pile_size) == (False, True, 0)


def test_optional_buy_fields_left_out_take_their_defaults():
    """A buy table with only its cards: no stack (buy as often as the stock allows), no penny, from
    round 1, no free buys counted and no penalty."""
    data = changed("ten-pennies", ("buys",), {"cards": 2})
    buys = read(data).buys
    assert (buys.stack, buys.pennies, buys.cards, buys.first_round) == (None, 0, 2, 1)
    assert (buys.free_per_round, buys.penalty_points) == (None, 0)


def test_tables_left_out_mean_no_buying_and_no_later_meld_rule():
    data = copy.deepcopy(SHIPPED["ten-pennies"])
    del data["buys"], data["later_melds"]
    ruleset = read(data)
    assert (ruleset.buys, ruleset.later_melds) == (None, None)


def test_round_and_deck_fields_left_out_take_their_defaults():
    """A later meld with no wild limit; a round with no wild limit at all, none by kind and (a
    contract game) no board minimum; decks by players per deck with no table, base or extra."""
    data = changed("ten-pennies", ("later_melds", "max_wilds"), delete=True)
    del data["rounds"][0]["wild_limit"]
    ruleset = read(data)
    assert ruleset.later_melds.max_wilds is None
    first = ruleset.round(1)
    assert (first.wild_limit, first.wild_limit_per_kind, first.board_minimum) == (None, None, None)
    decks = ruleset.decks
    assert (decks.players_per_deck, decks.table, decks.base, decks.extra_per_side) == (2, (), None, None)


def test_a_deck_table_is_read_row_by_row_and_sorted():
    rows = [{"max_players": 8, "decks": 3}, {"max_players": 6, "decks": 2}]
    data = changed("ten-card-rummy", ("decks", "table"), rows)
    assert read(data).decks.table == ((6, 2), (8, 3))


def test_decks_that_give_no_count_for_the_most_players_are_refused():
    data = changed("ten-pennies", ("decks", "players_per_deck"), delete=True)
    assert refusal(data) == "house.toml: decks: gives no deck count for 8 players"


TOO_SMALL = "needs at least 1 meld of at least 3 cards"
WRONG_VALUE = [
    (("id",), "bad id!", "id: 'bad id!' must be letters, digits and dashes"),
    (("id",), "", "id: '' must be letters, digits and dashes"),
    (("family",), "poker", "family: 'poker' is not one of 'contract', 'books'"),
    (("winner",), "middle", "winner: 'middle' is not one of 'lowest', 'highest'"),
    (("players",), {"min": 1, "max": 8}, "players: min 1 and max 8 make no table"),
    (("players",), {"min": 5, "max": 4}, "players: min 5 and max 4 make no table"),
    (("meld_kinds",), ["set", "flush"], "meld_kinds: 'flush' is not one of set, run, book"),
    (("points", "Z"), 5, "points.Z: 'Z' is not a rank"),
    (("rounds",), [], "rounds: there must be at least one round"),
    (("rounds", 0, "contract"), {"melds": 0, "size": 3}, f"rounds[1].contract: {TOO_SMALL}"),
    (("rounds", 0, "contract"), {"melds": 1, "size": 2}, f"rounds[1].contract: {TOO_SMALL}"),
    (("rounds", 0, "wilds"), ["Z"], "rounds[1].wilds: 'Z' is not a rank"),
]


@pytest.mark.parametrize("path, value, said", WRONG_VALUE)
def test_a_value_the_rules_cannot_use_is_refused_in_words(path, value, said):
    assert refusal(changed("ten-pennies", path, value)) == f"house.toml: {said}"


def test_points_missing_for_ranks_name_every_one():
    data = changed("ten-pennies", ("points", "A"), delete=True)
    del data["points"]["JKR"]
    assert refusal(data) == "house.toml: points: no points for A, JKR"


def test_the_smallest_table_and_contract_are_accepted():
    """Two players exactly, and a round of 1 meld of 3 cards: the least that makes a game."""
    data = changed("ten-pennies", ("players",), {"min": 2, "max": 2})
    data["rounds"][0]["contract"] = {"melds": 1, "size": 3}
    ruleset = read(data)
    assert (ruleset.players_min, ruleset.players_max) == (2, 2)
    assert (ruleset.round(1).contract.melds, ruleset.round(1).contract.size) == (1, 3)
