"""The shipped rulesets read exactly as docs/rules.md says, and bad house-rules files are refused clearly."""

import json
import re

import pytest
from support import TEN_PENNIES_TOML, load_ruleset, ruleset_text

from scorekeeper.reads.catalog import load_catalog
from scorekeeper.rules.cards import Rank, parse_hand
from scorekeeper.rules.rulesets import RulesetError, parse_ruleset, read_ruleset, ruleset_document
from scorekeeper.rules.scoring import RoundError, check_hand_size

A, TWO, JOKER = Rank.ACE, Rank.TWO, Rank.JOKER

TEN_PENNIES_ROUNDS = [  # round: (melds, size, wild limit, wilds)
    (1, 2, 3, 1, {TWO}),
    (2, 1, 4, 1, {TWO}),
    (3, 2, 4, 1, {TWO}),
    (4, 1, 5, 2, {TWO}),
    (5, 2, 5, 2, {TWO, A, JOKER}),
    (6, 1, 6, 2, {TWO, A, JOKER}),
    (7, 1, 7, 3, {TWO, A, JOKER}),
]


@pytest.mark.parametrize("number, melds, size, limit, wilds", TEN_PENNIES_ROUNDS)
def test_ten_pennies_contract_table(rulesets, number, melds, size, limit, wilds):
    rule = rulesets["ten-pennies"].round(number)
    assert (rule.contract.melds, rule.contract.size, rule.wild_limit, set(rule.wilds)) == (melds, size, limit, wilds)


PCIO_ROUNDS = [  # round: (total limit, per-kind limit, wilds)
    (1, 1, None, {JOKER}),
    (2, 1, None, {JOKER}),
    (3, 1, None, {JOKER}),
    (4, 2, None, {JOKER}),
    (5, None, 2, {TWO, A, JOKER}),
    (6, None, 2, {TWO, A, JOKER}),
    (7, None, 3, {TWO, A, JOKER}),
]


@pytest.mark.parametrize("number, limit, per_kind, wilds", PCIO_ROUNDS)
def test_pcio_wilds(rulesets, number, limit, per_kind, wilds):
    rule = rulesets["ten-pennies-pcio"].round(number)
    assert (rule.wild_limit, rule.wild_limit_per_kind, set(rule.wilds)) == (limit, per_kind, wilds)
    base = rulesets["ten-pennies"].round(number)
    assert rule.contract == base.contract


TCR_CONTRACTS = [
    (1, 1, 3),
    (2, 2, 3),
    (3, 1, 4),
    (4, 2, 4),
    (5, 1, 5),
    (6, 2, 5),
    (7, 1, 6),
    (8, 1, 7),
    (9, 1, 8),
    (10, 1, 9),
    (11, 1, 10),
]


@pytest.mark.parametrize("number, melds, size", TCR_CONTRACTS)
def test_ten_card_rummy_contracts(rulesets, number, melds, size):
    rule = rulesets["ten-card-rummy"].round(number)
    assert (rule.contract.melds, rule.contract.size) == (melds, size)
    assert set(rule.wilds) == {TWO, JOKER}
    assert rule.contract.kinds == ("set", "run")


POINTS = {
    "ten-pennies": {"3": 5, "9": 5, "10": 10, "J": 10, "Q": 10, "K": 10, "2": 20, "A": 20, "JKR": 50},
    "ten-pennies-pcio": {"3": 5, "9": 5, "10": 10, "K": 10, "2": 20, "A": 20, "JKR": 50},
    "ten-card-rummy": {"3": 3, "7": 7, "10": 10, "J": 10, "K": 10, "A": 11, "JKR": 15, "2": 15},
    "pennies-from-heaven": {"4": 5, "7": 5, "8": 10, "K": 10, "A": 20, "2": 20, "JKR": 50},
}


@pytest.mark.parametrize("ruleset_id, label, points", [(r, k, v) for r, t in POINTS.items() for k, v in t.items()])
def test_card_points(rulesets, ruleset_id, label, points):
    assert rulesets[ruleset_id].points[Rank.from_label(label)] == points


DECKS = [
    ("ten-pennies", 2, 1),
    ("ten-pennies", 3, 2),
    ("ten-pennies", 4, 2),
    ("ten-pennies", 7, 4),
    ("ten-pennies", 8, 4),
    ("ten-pennies-pcio", 2, 2),
    ("ten-pennies-pcio", 3, 4),
    ("ten-pennies-pcio", 4, 4),
    ("ten-card-rummy", 4, 2),
    ("ten-card-rummy", 6, 2),
    ("ten-card-rummy", 7, 3),
    ("ten-card-rummy", 8, 3),
]


@pytest.mark.parametrize("ruleset_id, players, decks", DECKS)
def test_decks_for_players(rulesets, ruleset_id, players, decks):
    assert rulesets[ruleset_id].decks.decks_for(players) == decks


def test_ten_card_rummy_jokers(rulesets):
    rules = rulesets["ten-card-rummy"]
    assert rules.decks.decks_for(6) * rules.decks.jokers_per_deck == 4  # 108 cards
    assert rules.decks.decks_for(8) * rules.decks.jokers_per_deck == 6  # 162 cards


@pytest.mark.parametrize("players, sides, decks", [(2, 2, 4), (3, 3, 6), (4, 4, 8), (4, 2, 6), (6, 2, 8), (6, 3, 8)])
def test_pennies_from_heaven_decks(rulesets, players, sides, decks):
    assert rulesets["pennies-from-heaven"].decks.decks_for(players, sides) == decks


PLAYER_RANGES = [("ten-pennies", 2, 8), ("ten-pennies-pcio", 2, 4), ("ten-card-rummy", 4, 8)]


@pytest.mark.parametrize("ruleset_id, low, high", PLAYER_RANGES)
def test_player_ranges_and_deal(rulesets, ruleset_id, low, high):
    rules = rulesets[ruleset_id]
    assert (rules.players_min, rules.players_max) == (low, high)
    assert rules.cards_dealt == (10 if ruleset_id == "ten-card-rummy" else 11)


def test_buy_rules(rulesets):
    tp, tcr = rulesets["ten-pennies"].buys, rulesets["ten-card-rummy"].buys
    assert (tp.stack, tp.pennies, tp.cards, tp.first_round, tp.free_per_round) == (10, 1, 3, 1, None)
    assert (tcr.stack, tcr.pennies, tcr.cards, tcr.first_round, tcr.free_per_round, tcr.penalty_points) == (
        None,
        0,
        2,
        4,
        3,
        100,
    )
    assert rulesets["ten-pennies"].hand_limit(2) == 17
    assert rulesets["ten-card-rummy"].hand_limit(2) == 14


GOOD = TEN_PENNIES_TOML


@pytest.mark.parametrize(
    "change, message",
    [
        (('id = "ten-pennies"', 'id = "bad id!"'), "id: 'bad id!' must be letters"),
        (('family = "contract"', 'family = "poker"'), "family: 'poker' is not one of"),
        (("players = { min = 2, max = 8 }", "players = { min = 5, max = 3 }"), "players: min 5 and max 3"),
        (("JKR = 50", "JKR = -5"), "points.JKR: must not be negative"),
        (("JKR = 50", ""), "points: no points for JKR"),
        (("Q = 10", 'Q = "ten"'), "points.Q: must be a whole number"),
        (
            (
                'wilds = ["2"]\nwild_limit = 1\n\n[[rounds]]\ncontract = { melds = 1, size = 4 }',
                'wilds = ["Z"]\nwild_limit = 1\n\n[[rounds]]\ncontract = { melds = 1, size = 4 }',
            ),
            "rounds[1].wilds: 'Z' is not a rank",
        ),
        (("contract = { melds = 2, size = 3 }", "contract = { melds = 2, size = 2 }"), "rounds[1].contract: needs"),
        (("cards_dealt = 11", ""), "cards_dealt: is missing"),
        (("[decks]", "[decks]\nbogus = 1\n[nothing]"), "decks.jokers_per_deck: is missing"),
        (("id = ", "id == "), "not valid TOML"),
    ],
)
def test_bad_ruleset_files_name_the_field(change, message):
    old, new = change
    assert old in GOOD
    with pytest.raises(RulesetError, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        parse_ruleset(GOOD.replace(old, new, 1), "house.toml")


def test_house_rules_file_is_picked_up_and_a_bad_one_reported(tmp_path):
    (tmp_path / "quick.toml").write_text(
        GOOD.replace('id = "ten-pennies"', 'id = "quick-pennies"').replace('name = "Ten Pennies"', 'name = "Quick"')
    )
    (tmp_path / "broken.toml").write_text("id = 'x'")
    (tmp_path / "clash.toml").write_text(GOOD)
    catalog = load_catalog(tmp_path)
    assert catalog.get("quick-pennies").name == "Quick"
    assert set(catalog.rulesets) >= {"ten-pennies", "ten-pennies-pcio", "ten-card-rummy", "pennies-from-heaven"}
    assert any("broken.toml" in p and "is missing" in p for p in catalog.problems)
    assert any("clash.toml" in p and "already a ruleset" in p for p in catalog.problems)


CONTRACT_WORDS = {
    (2, 3): "2 sets of 3",
    (1, 4): "1 set of 4",
    (2, 4): "2 sets of 4",
    (1, 5): "1 set of 5",
    (2, 5): "2 sets of 5",
    (1, 6): "1 set of 6",
    (1, 7): "1 set of 7",
}


def test_ten_pennies_listing_is_the_rules_table(rulesets):
    """The ``GET /api/rulesets`` entry, field by field, as RULES.md's Ten Pennies section states it."""
    listing = rulesets["ten-pennies"].to_summary()
    assert set(listing) == {
        "id",
        "name",
        "family",
        "summary",
        "players",
        "cards_dealt",
        "winner",
        "points",
        "pennies_per_card",
        "rounds",
    }
    assert (listing["id"], listing["name"], listing["family"]) == ("ten-pennies", "Ten Pennies", "contract")
    assert "bowl" in listing["summary"]
    assert listing["players"] == {"min": 2, "max": 8}
    assert (listing["cards_dealt"], listing["winner"], listing["pennies_per_card"]) == (11, "lowest", 1)
    assert {label: listing["points"][label] for label in POINTS["ten-pennies"]} == POINTS["ten-pennies"]
    rounds = [
        {
            "number": number,
            "contract": CONTRACT_WORDS[melds, size],
            "board_minimum": None,
            "wilds": sorted(rank.label for rank in wilds),
            "wild_limit": limit,
            "wild_limit_per_kind": None,
        }
        for number, melds, size, limit, wilds in TEN_PENNIES_ROUNDS
    ]
    assert [{**r, "wilds": sorted(r["wilds"])} for r in listing["rounds"]] == rounds


@pytest.mark.parametrize("number, limit, per_kind, wilds", PCIO_ROUNDS)
def test_pcio_listing_states_the_per_kind_limit(rulesets, number, limit, per_kind, wilds):
    entry = rulesets["ten-pennies-pcio"].to_summary()["rounds"][number - 1]
    assert (entry["number"], entry["wild_limit"], entry["wild_limit_per_kind"]) == (number, limit, per_kind)
    assert sorted(entry["wilds"]) == sorted(rank.label for rank in wilds)


def test_a_buy_of_no_cards_is_refused_in_a_house_rules_file():
    """A buy takes the discard at least: a house file saying 0 cards is a mistake, said as such."""
    assert "cards = 3 " in GOOD
    with pytest.raises(RulesetError, match=r"^house.toml: buys.cards: a buy takes at least 1 card \(the discard\)$"):
        parse_ruleset(GOOD.replace("cards = 3 ", "cards = 0 ", 1), "house.toml")
    buys = parse_ruleset(GOOD.replace("cards = 3 ", "cards = 1 ", 1), "house.toml").buys
    assert buys is not None and buys.cards == 1


def test_a_books_game_needs_every_hands_board_minimum():
    text = ruleset_text("pennies-from-heaven")
    first = "board_minimum = 50"
    assert first in text
    with pytest.raises(RulesetError, match=r"^house.toml: rounds\[1\].board_minimum: is missing$"):
        parse_ruleset(text.replace(first, "", 1), "house.toml")


@pytest.mark.parametrize(
    "ruleset_id, number, short, long",
    [  # RULES.md's tables: Ten Pennies' limit per set, the virtual tabletop's per kind, Ten Card Rummy's ratio
        ("ten-pennies", 1, "≤ 1 per set", "at most 1 wild per set"),
        ("ten-pennies", 7, "≤ 3 per set", "at most 3 wilds per set"),
        ("ten-pennies-pcio", 5, "≤ 2 of each per set", "at most 2 of each kind of wild per set"),
        ("ten-card-rummy", 1, "wilds ≤ naturals", "no more wilds than natural cards in a meld"),
    ],
)
def test_a_rounds_wild_limit_in_short_and_in_full(rulesets, ruleset_id, number, short, long):
    rule = rulesets[ruleset_id].round(number)
    assert (rule.describe_limit(short=True), rule.describe_limit()) == (short, long)


def test_house_wild_ranks_are_named_after_2s_aces_and_jokers_in_rank_order():
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.rulesets import parse_ruleset

    text = TEN_PENNIES_TOML.replace('wilds = ["2"]\nwild_limit = 1', 'wilds = ["9", "JKR", "4"]\nwild_limit = 1', 1)
    text = text.replace('wilds = ["2"]\nwild_limit = 1', "wilds = []\nwild_limit = 1", 1)
    house = parse_ruleset(text, "house.toml")
    assert house.round(1).describe_wilds() == "jokers, 4s, 9s"
    assert house.round(2).describe_wilds() == "none"


def test_a_deal_of_every_card_leaves_no_stock_to_buy_from():
    """A house Ten Pennies dealing 27 cards each to 2 players uses the whole deck (52 + 2 jokers), so
    a buy of even 1 card is refused (RULES.md: the buys take at most the cards left after the deal)."""
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.game import Buy, Game
    from scorekeeper.rules.rulesets import parse_ruleset
    from scorekeeper.rules.setup import GameError, Setup

    text = TEN_PENNIES_TOML.replace("cards_dealt = 11", "cards_dealt = 27").replace("cards = 3 ", "cards = 1 ")
    setup = Setup(parse_ruleset(text, "house.toml"), ("Ann", "Bob"), 0)
    with pytest.raises(GameError) as refused:
        Game(setup, [Buy(1, 1, "Bob")])
    assert str(refused.value) == (
        "the stock is used up: the 0 buys of round 1 took every card left after the deal (1 a buy); "
        "another buy is refused"
    )


def test_a_house_contract_game_without_buys_holds_the_deal_at_most():
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.rulesets import parse_ruleset
    from scorekeeper.rules.scoring import RoundError, check_hand_size

    head, tail = TEN_PENNIES_TOML.split("[buys]")
    house = parse_ruleset(head + tail[tail.index("[later_melds]") :], "house.toml")
    assert house.buys is None
    check_hand_size(house, "Di", parse_hand("K " * 11), 0)
    with pytest.raises(RoundError) as refused:
        check_hand_size(house, "Di", parse_hand("K " * 12), 0)
    assert str(refused.value) == "Di is caught with 12 cards, but with 0 buys this round a player holds at most 11"


def test_a_run_counts_its_wilds_by_kind_where_the_house_limits_each_kind():
    """A house Ten Card Rummy allowing 1 wild of each kind per meld: 4♠ 2♣ 6♠ JKR holds one 2 and
    one joker; 4♠ 2♣ 6♠ 2♦ holds two 2s."""
    from support import ruleset_text

    from scorekeeper.rules.melds import Stage, read_meld
    from scorekeeper.rules.rulesets import parse_ruleset

    wilds = 'wilds = ["2", "JKR"]'
    text = ruleset_text("ten-card-rummy").replace(wilds, wilds + "\nwild_limit_per_kind = 1")
    house = parse_ruleset(text, "house.toml")
    rule = house.round(1)
    assert read_meld(house, rule, parse_hand("4S 2C 6S JKR"), Stage.FIRST_DOWN, 3)[0] is not None
    reading, problem = read_meld(house, rule, parse_hand("4S 2C 6S 2D"), Stage.FIRST_DOWN, 3)
    assert reading is None and "has 2 wild 2s; round 1 allows 1 of each kind" in problem


@pytest.mark.parametrize(
    "ruleset_id, number, said",
    [  # RULES.md's contracts as the dealer says them
        ("ten-pennies", 1, "2 sets of 3"),
        ("ten-pennies", 2, "1 set of 4"),
        ("ten-card-rummy", 1, "1 meld of 3 — sets or runs"),
        ("ten-card-rummy", 2, "2 melds of 3 — sets or runs"),
    ],
)
def test_a_contract_is_said_in_sets_or_melds(rulesets, ruleset_id, number, said):
    assert rulesets[ruleset_id].round(number).contract.describe() == said


def test_a_house_pile_never_picked_up_counts_in_the_most_cards_a_player_can_hold(rulesets):
    """Ten Pennies deals 11 and a buy takes 3; a house file giving each player a pile of 5 (never
    picked up, caught with the hand) lets a player hold 16 with no buy and 19 with one."""
    from dataclasses import replace

    house = replace(rulesets["ten-pennies"], pile_size=5)
    assert (house.hand_limit(0), house.hand_limit(1)) == (16, 19)


def test_a_ruleset_read_without_a_file_name_says_so():
    from scorekeeper.rules.rulesets import RulesetError, parse_ruleset

    with pytest.raises(RulesetError, match=r"^<ruleset>: not valid TOML"):
        parse_ruleset("id = ")


def test_a_house_deck_count_with_a_base_but_nothing_per_side_is_refused():
    from test_ruleset_fields import changed, refusal

    data = changed("pennies-from-heaven", ("decks", "extra_per_side"), delete=True)
    assert refusal(data) == "house.toml: decks: gives no deck count for 12 players"


# --- a ruleset kept as a document reads back as itself; each bound holds at its edge ------------------------

SHIPPED = [
    "ten-pennies",
    "ten-pennies-pcio",
    "ten-card-rummy",
    "pennies-from-heaven",
    "liverpool-rummy",
    "carioca",
    "shanghai-rummy",
    "continental",
]


@pytest.mark.parametrize("ruleset_id", SHIPPED)
def test_a_kept_document_reads_back_as_the_same_rules(ruleset_id):
    """A game keeps its rules as a document (and an export carries it): read back, every field is the same."""
    rules = parse_ruleset(ruleset_text(ruleset_id), f"{ruleset_id}.toml")
    document = ruleset_document(rules)
    assert read_ruleset(json.loads(json.dumps(document)), "kept") == rules


def test_a_kept_document_names_each_field_as_a_ruleset_file_does():
    document = ruleset_document(parse_ruleset(ruleset_text("pennies-from-heaven"), "pfh.toml"))
    assert set(document) >= {"id", "name", "summary", "family", "players", "cards_dealt", "decks", "points", "rounds"}
    assert {"books", "pile_size", "wild_rank_sets", "wilds_at_most_naturals"} <= set(document)
    assert document["decks"]["base"] == 4 and document["decks"]["extra_per_side"] == 2
    assert document["rounds"][0]["board_minimum"] == 50
    ten_card = ruleset_document(parse_ruleset(ruleset_text("ten-card-rummy"), "tcr.toml"))
    assert ten_card["buys"] == {"pennies": 0, "cards": 2, "first_round": 4, "free_per_round": 3, "penalty_points": 100}
    assert ten_card["decks"]["table"] == [{"max_players": 6, "decks": 2}, {"max_players": 8, "decks": 3}]
    assert "books" not in ten_card or ten_card["books"] is None


def house(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize(
    "old, at_most, one_more, message",
    [
        (
            'name = "Ten Pennies"',
            f'name = "{"N" * 60}"',
            f'name = "{"N" * 61}"',
            "name: must be at most 60 characters, not 61",
        ),
        ("JKR = 50", "JKR = 1000", "JKR = 1001", "points.JKR: must be at most 1000, not 1001"),
        ("cards_dealt = 11", "cards_dealt = 30", "cards_dealt = 31", "cards_dealt: must be at most 30, not 31"),
    ],
)
def test_a_bound_allows_its_most_and_refuses_one_more(old, at_most, one_more, message):
    parse_ruleset(house(old, at_most), "house.toml")
    with pytest.raises(RulesetError, match=f"^house.toml: {re.escape(message)}$"):
        parse_ruleset(house(old, one_more), "house.toml")


def test_a_document_read_without_a_source_says_ruleset():
    document = ruleset_document(parse_ruleset(GOOD, "good.toml"))
    document["cards_dealt"] = 99
    with pytest.raises(RulesetError, match=r"^<ruleset>: cards_dealt: must be at most 30, not 99$"):
        read_ruleset(document)


# --- Liverpool Rummy and the options it brought (issue 61; docs/rules.md cites the sources) -------------

LIVERPOOL_DEALS = [  # deal: (sets, runs, cards dealt) — Wikipedia's and Weekend America's table
    (1, 2, 0, 10),
    (2, 1, 1, 10),
    (3, 0, 2, 10),
    (4, 3, 0, 10),
    (5, 2, 1, 12),
    (6, 1, 2, 12),
    (7, 0, 3, 12),
]


@pytest.mark.parametrize("number, sets, runs, dealt", LIVERPOOL_DEALS)
def test_liverpool_deals_are_the_sources_table(rulesets, number, sets, runs, dealt):
    liverpool = rulesets["liverpool-rummy"]
    contract = liverpool.round(number).contract
    assert (contract.sets, contract.runs, contract.run_size) == (sets, runs, 4)
    assert liverpool.dealt(number) == dealt and liverpool.round(number).wilds == {JOKER}
    assert liverpool.hand_limit(1, number) == dealt + 2  # "May I?": the discard and a penalty card


def test_liverpool_is_played_by_the_sources_figures(rulesets):
    liverpool = rulesets["liverpool-rummy"]
    assert (liverpool.players_min, liverpool.players_max) == (3, 8)
    assert [liverpool.decks.decks_for(n) for n in range(3, 9)] == [2, 2, 3, 3, 3, 3]
    assert liverpool.points[A] == 15 and liverpool.points[JOKER] == 15 and liverpool.points[Rank.SEVEN] == 7
    assert liverpool.run_min == 4 and not liverpool.runs_wrap and liverpool.pennies_per_card == 0
    assert liverpool.buys.cards == 2 and liverpool.buys.pennies == 0 and liverpool.buys.stack is None
    assert liverpool.round(2).contract.describe() == "1 set of 3 and 1 run of 4"
    assert liverpool.round(7).contract.describe() == "3 runs of 4"
    assert liverpool.deal_words == "10 cards each in rounds 1–4, 12 in rounds 5–7"


LIVERPOOL_LIKE = GOOD.replace('meld_kinds = ["set"]', 'meld_kinds = ["set", "run"]\nrun_min = 4')


@pytest.mark.parametrize(
    "old, new, message",
    [
        ("contract = { melds = 2, size = 3 }", "contract = { melds = 2, sets = 1 }", "rounds[1].contract: is either"),
        ("contract = { melds = 2, size = 3 }", "contract = { sets = 0, runs = 0 }", "needs at least 1 set or run"),
        ("contract = { melds = 2, size = 3 }", "contract = { sets = 4, runs = 3 }", "may ask at most 6 melds, not 7"),
        ("contract = { melds = 2, size = 3 }", "contract = { runs = 1, run_size = 3 }", "a run holds at least 4"),
        ("contract = { melds = 2, size = 3 }", "contract = { runs = 1, run_size = 14 }", "must be at most 13"),
        (
            "contract = { melds = 2, size = 3 }",
            "contract = { sets = 1 }\ncards_dealt = 31",
            "rounds[1].cards_dealt: must be at most 30",
        ),
        ("run_min = 4", "run_min = 2", "run_min: a run holds at least 3 cards, not 2"),
        ("run_min = 4", "run_min = 14", "run_min: must be at most 13, not 14"),
        ("first_round = 1", "first_round = 1\nmost_per_round = 21", "buys.most_per_round: must be at most 20"),
    ],
)
def test_a_contract_by_kind_and_its_options_are_bounded_in_words(old, new, message):
    assert old in LIVERPOOL_LIKE
    with pytest.raises(RulesetError, match=re.escape(message)):
        parse_ruleset(LIVERPOOL_LIKE.replace(old, new, 1), "house.toml")


def test_runs_asked_of_a_game_without_runs_are_refused():
    text = GOOD.replace("contract = { melds = 2, size = 3 }", "contract = { sets = 1, runs = 1 }", 1)
    with pytest.raises(
        RulesetError, match=re.escape("rounds[1].contract.runs: asks for runs, and meld_kinds has none")
    ):
        parse_ruleset(text, "house.toml")
    with pytest.raises(RulesetError, match=re.escape("run_min: is a rule for runs")):
        parse_ruleset(GOOD.replace("cards_dealt = 11", "cards_dealt = 11\nrun_min = 4"), "house.toml")


def test_lay_offs_only_and_a_later_meld_rule_contradict_each_other():
    """Liverpool's "no new sets or runs" after going down, beside a [later_melds] table saying how to lay them."""
    text = GOOD.replace("cards_dealt = 11", "cards_dealt = 11\nlay_offs_only = true")
    assert "[later_melds]" in text
    with pytest.raises(RulesetError, match=re.escape("lay_offs_only: says no new melds after going down")):
        parse_ruleset(text, "house.toml")


def test_a_round_s_own_deal_bounds_what_its_hands_may_hold(rulesets):
    """Liverpool deals 10 in deal 1: a hand of 11 after no buy is refused there, and allowed in deal 5."""
    liverpool = rulesets["liverpool-rummy"]
    eleven = parse_hand("2 3 4 5 6 7 8 9 10 J Q")
    with pytest.raises(RoundError, match="holds at most 10"):
        check_hand_size(liverpool, "Ann", eleven, 0, 1)
    check_hand_size(liverpool, "Ann", eleven, 0, 5)


@pytest.mark.parametrize("ruleset_id", SHIPPED[:4])
def test_a_ruleset_that_sets_no_new_option_keeps_the_document_it_had(ruleset_id):
    """A game's rules are kept by their document, versioned by its digest: had the options issue 61
    brought been written out at their defaults, every database's Ten Pennies would have become a new
    version of its rules the day the release came, though nothing in them changed."""
    document = ruleset_document(parse_ruleset(ruleset_text(ruleset_id), f"{ruleset_id}.toml"))
    assert not {"run_min", "runs_wrap", "lay_offs_only", "wilds_fewer_than_naturals", "no_touching_wilds"} & set(
        document
    )
    assert all(
        set(row.get("contract") or {}) <= {"melds", "size"} and not {"cards_dealt", "most_buys"} & set(row)
        for row in document["rounds"]
    )
    assert "most_per_round" not in document.get("buys", {})


# --- Shanghai Rummy and Continental, and the options they brought (docs/rules.md cites the sources) ----------

SHANGHAI_DEALS = [  # deal: (sets, runs, run of) — the table of "Shanghai Rummy Rules" and reference.com
    (1, 2, 0, 4),
    (2, 1, 1, 4),
    (3, 0, 2, 4),
    (4, 3, 0, 4),
    (5, 1, 1, 7),
    (6, 2, 1, 5),
    (7, 0, 3, 4),
    (8, 1, 1, 10),
    (9, 3, 1, 5),
    (10, 0, 3, 5),
]


@pytest.mark.parametrize("number, sets, runs, run_size", SHANGHAI_DEALS)
def test_shanghai_deals_are_the_sources_table(rulesets, number, sets, runs, run_size):
    shanghai = rulesets["shanghai-rummy"]
    contract = shanghai.round(number).contract
    assert (contract.sets, contract.runs) == (sets, runs)
    assert runs == 0 or contract.run_size == run_size
    assert shanghai.dealt(number) == 11 and shanghai.round(number).wilds == {JOKER}
    assert shanghai.most_buys(number) == (4 if number >= 9 else 3)


def test_shanghai_is_played_by_the_sources_figures(rulesets):
    shanghai = rulesets["shanghai-rummy"]
    assert (shanghai.players_min, shanghai.players_max) == (3, 8)
    assert [shanghai.decks.decks_for(n) for n in range(3, 9)] == [2, 2, 3, 3, 3, 3]
    assert [shanghai.points[rank] for rank in (Rank.TWO, Rank.NINE, Rank.TEN, Rank.KING, A, JOKER)] == [
        5,
        5,
        10,
        10,
        15,
        15,
    ]
    assert shanghai.wild_margin == 1 and shanghai.most_wilds(2) == 1 and shanghai.most_wilds(3) == 2
    assert shanghai.buys.cards == 2 and shanghai.buys.pennies == 0 and not shanghai.runs_wrap


CONTINENTAL_HANDS = [  # hand: (sets, runs, cards dealt) — continental.org.es, "el continental clásico"
    (1, 2, 0, 7),
    (2, 1, 1, 8),
    (3, 0, 2, 9),
    (4, 3, 0, 10),
    (5, 2, 1, 11),
    (6, 1, 2, 12),
    (7, 0, 3, 13),
]


@pytest.mark.parametrize("number, sets, runs, dealt", CONTINENTAL_HANDS)
def test_continental_hands_are_the_sources_table(rulesets, number, sets, runs, dealt):
    continental = rulesets["continental"]
    contract = continental.round(number).contract
    assert (contract.sets, contract.runs, contract.run_size) == (sets, runs, 4)
    assert continental.dealt(number) == dealt == sets * 3 + runs * 4 + 1  # "una carta más de las imprescindibles"


def test_continental_is_played_by_the_sources_figures(rulesets):
    continental = rulesets["continental"]
    assert (continental.players_min, continental.players_max) == (2, 4)
    assert continental.decks.decks_for(4) == 2 and continental.largest_deal == 110  # six jokers
    assert [continental.points[rank] for rank in (Rank.TWO, Rank.TEN, Rank.QUEEN, A, JOKER)] == [2, 10, 10, 20, 50]
    assert continental.runs_wrap and continental.no_touching_wilds and continental.wild_margin is None
    assert continental.deal_words == "7 cards each in round 1, one more each round: 13 in round 7"


@pytest.mark.parametrize(
    "old, new, message",
    [
        ('wilds = ["2"]', 'wilds = ["2"]\nmost_buys = 21', "rounds[1].most_buys: must be at most 20, not 21"),
        ("cards_dealt = 11", "cards_dealt = 11\nno_touching_wilds = 1", "no_touching_wilds: must be a bool, not 1"),
        ("cards_dealt = 11", 'cards_dealt = 11\nwilds_fewer_than_naturals = "yes"', "must be a bool, not 'yes'"),
        ("cards_dealt = 11", "cards_dealt = 11\nout_at_once_bonus = 1001", "out_at_once_bonus: must be at most 1000"),
        ("cards_dealt = 11", "cards_dealt = 11\nout_at_once_bonus = -10", "out_at_once_bonus: must not be negative"),
        ("cards_dealt = 11", "cards_dealt = 11\nexact_cut_bonus = 1001", "exact_cut_bonus: must be at most 1000"),
        ("cards_dealt = 11", 'cards_dealt = 11\nexact_cut_bonus = "50"', "exact_cut_bonus: must be a whole number"),
    ],
)
def test_the_new_options_are_bounded_in_words(old, new, message):
    assert old in LIVERPOOL_LIKE, old
    with pytest.raises(RulesetError, match=re.escape(message)):
        parse_ruleset(LIVERPOOL_LIKE.replace(old, new, 1), "house.toml")


def test_a_books_game_has_no_bonus_for_going_out_at_once():
    from test_ruleset_fields import changed, refusal

    data = changed("pennies-from-heaven", ("out_at_once_bonus",), 10)
    assert refusal(data).startswith("house.toml: out_at_once_bonus: is a rule for contract games")
    data = changed("pennies-from-heaven", ("exact_cut_bonus",), 10)
    assert refusal(data).startswith("house.toml: exact_cut_bonus: is a rule for contract games")


def test_a_round_s_own_buy_limit_allows_its_most():
    edge = parse_ruleset(LIVERPOOL_LIKE.replace('wilds = ["2"]', 'wilds = ["2"]\nmost_buys = 20', 1), "house.toml")
    assert edge.most_buys(1) == 20 and edge.most_buys(2) is None


def test_options_for_runs_and_buys_are_refused_where_the_game_has_none():
    with pytest.raises(
        RulesetError, match=re.escape("no_touching_wilds: is a rule for runs, and meld_kinds has no runs")
    ):
        parse_ruleset(GOOD.replace("cards_dealt = 11", "cards_dealt = 11\nno_touching_wilds = true"), "house.toml")
    no_buys = re.sub(r"\[buys\][^\[]*", "", GOOD)
    assert "[buys]" not in no_buys
    text = no_buys.replace("contract = { melds = 2, size = 3 }", "contract = { melds = 2, size = 3 }\nmost_buys = 2", 1)
    with pytest.raises(
        RulesetError, match=re.escape("rounds[1].most_buys: is a limit on buys, and the game has no buying")
    ):
        parse_ruleset(text, "house.toml")


def dummy_rummy() -> dict:
    """Contract Rummy as the "Dummy Rummy" sheet deals it (docs/rules.md [D]): "two standard decks of
    52 cards, plus jokers. The number of jokers used should be one fewer than the number of players"."""
    import tomllib

    data = tomllib.loads(ruleset_text("liverpool-rummy"))
    data["decks"] = {"table": [{"max_players": 5, "decks": 2}], "jokers_fewer_than_players": 1}
    data["players"] = {"min": 3, "max": 5}
    return data


def test_jokers_one_fewer_than_the_players_make_106_107_and_108_cards():
    """[D]: "so three players play with 106 cards, four players with 107 and five with 108"."""
    from test_ruleset_fields import toml_text

    ruleset = parse_ruleset(toml_text(dummy_rummy()), "house.toml")
    assert [ruleset.decks.cards_for(players) for players in (3, 4, 5)] == [106, 107, 108]
    assert ruleset.decks.jokers_per_deck == 0 and ruleset.largest_deal == 108
    assert ruleset_document(ruleset)["decks"]["jokers_fewer_than_players"] == 1


def test_jokers_by_the_players_and_by_the_deck_at_once_are_refused_in_words():
    from test_ruleset_fields import refusal

    data = dummy_rummy()
    data["decks"]["jokers_per_deck"] = 2
    assert refusal(data) == "house.toml: decks.jokers_per_deck: must be 0 or blank when the jokers go by the players"
    data["decks"] |= {"jokers_per_deck": 0, "jokers_fewer_than_players": 12}
    assert refusal(data) == "house.toml: decks.jokers_fewer_than_players: must be at most 11, not 12"


def test_a_game_s_own_words_for_its_melds_say_its_contracts():
    """docs/rules.md, Carioca [C]: "2 tríos", "1 escala y 1 trío"; Continental [O, T]: trío and escalera.
    A plural left out is the word and an s; the plain words stay out of the document."""
    carioca = load_ruleset("carioca")
    assert (round_2 := carioca.rounds[1].contract) is not None
    assert round_2.describe() == "1 trío of 3 and 1 escala of 4"
    own = {"set": "trío", "sets": "tríos", "run": "escala", "runs": "escalas"}
    assert ruleset_document(carioca)["meld_words"] == own
    assert (hand_3 := load_ruleset("continental").rounds[2].contract) is not None
    assert hand_3.describe() == "2 escaleras of 4"
    assert "meld_words" not in ruleset_document(load_ruleset("liverpool-rummy"))
    pierna = LIVERPOOL_LIKE.replace("run_min = 4", 'run_min = 4\n\n[meld_words]\nset = "pierna"', 1)
    contract = parse_ruleset(pierna, "house.toml").rounds[0].contract
    assert contract is not None and contract.describe() == "2 melds of 3 — piernas or runs"


@pytest.mark.parametrize(
    "words, message",
    [
        ('sets = "piernas"', "meld_words.set: is missing: the word for one, beside 'piernas'"),
        (f'set = "{"x" * 21}"', "meld_words.set: must be at most 20 characters, not 21"),
        ('book = "libro"', "meld_words.book: is not one of set, sets, run, runs"),
        ("run = 4", "meld_words.run: must be a str, not 4"),
    ],
)
def test_a_game_s_own_meld_words_are_bounded_and_refused_in_words(words, message):
    text = LIVERPOOL_LIKE.replace("run_min = 4", f"run_min = 4\n\n[meld_words]\n{words}", 1)
    with pytest.raises(RulesetError, match=re.escape(message)):
        parse_ruleset(text, "house.toml")
