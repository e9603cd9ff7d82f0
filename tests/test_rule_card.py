"""The rule card of each shipped ruleset, round by round, written from RULES.md's own words (not from
the ruleset files): the card a table reads must say what RULES.md says."""

from __future__ import annotations

import pytest
from support import load_ruleset, ruleset_text

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import Buy, Event, Game, RoundRecord
from scorekeeper.rules.rule_card import rule_card, your_round
from scorekeeper.rules.rulesets import parse_ruleset
from scorekeeper.rules.setup import Setup

LIMIT_1 = "at most 1 wild per set"
LIMIT_2 = "at most 2 wilds per set"
LIMIT_3 = "at most 3 wilds per set"
LOW, HIGH = "2s", "2s, aces, jokers"

# RULES.md, `ten-pennies`: the table of rounds (contract, limit, wild this round).
TEN_PENNIES = [
    (1, "2 sets of 3", LIMIT_1, LOW),
    (2, "1 set of 4", LIMIT_1, LOW),
    (3, "2 sets of 4", LIMIT_1, LOW),
    (4, "1 set of 5", LIMIT_2, LOW),
    (5, "2 sets of 5", LIMIT_2, HIGH),
    (6, "1 set of 6", LIMIT_2, HIGH),
    (7, "1 set of 7", LIMIT_3, HIGH),
]
# `ten-pennies-pcio`: rounds 1–4 jokers only (limit 1, 1, 1, 2 jokers per set); rounds 5–7 jokers,
# aces and 2s, counted per kind: 2 of each in rounds 5–6, 3 in round 7.
PCIO = [
    (1, "2 sets of 3", LIMIT_1, "jokers"),
    (2, "1 set of 4", LIMIT_1, "jokers"),
    (3, "2 sets of 4", LIMIT_1, "jokers"),
    (4, "1 set of 5", LIMIT_2, "jokers"),
    (5, "2 sets of 5", "at most 2 of each kind of wild per set", HIGH),
    (6, "1 set of 6", "at most 2 of each kind of wild per set", HIGH),
    (7, "1 set of 7", "at most 3 of each kind of wild per set", HIGH),
]
# `ten-card-rummy`: 1×3, 2×3, 1×4, 2×4, 1×5, 2×5, 1×6, 1×7, 1×8, 1×9, 1×10; jokers and 2s wild, no
# more wilds than natural cards.
TCR_SHAPES = [(1, 3), (2, 3), (1, 4), (2, 4), (1, 5), (2, 5), (1, 6), (1, 7), (1, 8), (1, 9), (1, 10)]
TEN_CARD_RUMMY = [
    (
        number,
        f"{melds} {'meld' if melds == 1 else 'melds'} of {size} — sets or runs",
        "no more wilds than natural cards in a meld",
        "2s, jokers",
    )
    for number, (melds, size) in enumerate(TCR_SHAPES, start=1)
]
# `pennies-from-heaven`: on the board with 50, 90, 120; 2s and jokers wild, at most 2 a book with 2
# naturals each, none in sevens.
BOOK_RULE = "at most 2 wilds in a book, each with 2 naturals; none in a book of sevens"
PENNIES_FROM_HEAVEN = [
    (number, f"{minimum} points to get on the board", BOOK_RULE, "2s, jokers")
    for number, minimum in enumerate([50, 90, 120], start=1)
]

ANY_WILDS = "any number of wild cards in a meld"


def jokers_wild(needs: list[str]) -> list[tuple[int, str, str, str]]:
    """The card's rows of a game with jokers wild and no limit on them, round by round."""
    return [(number, need, ANY_WILDS, "jokers") for number, need in enumerate(needs, start=1)]


# docs/rules.md, `liverpool-rummy`: the deals' contracts; jokers wild, no limit the sources set.
LIVERPOOL = jokers_wild(
    [
        "2 sets of 3",
        "1 set of 3 and 1 run of 4",
        "2 runs of 4",
        "3 sets of 3",
        "2 sets of 3 and 1 run of 4",
        "1 set of 3 and 2 runs of 4",
        "3 runs of 4",
    ]
)
# docs/rules.md, `carioca`: the Chilean source's eight rounds of tríos (sets of 3) and escalas (runs of 4), in
# the game's own words: "1: 2 tríos · 2: 1 trío and 1 escala · 3: 2 escalas · 4: 3 tríos · 5: 2 tríos and 1
# escala · 6: 1 trío and 2 escalas · 7: 3 escalas · 8: 4 tríos".
CARIOCA = jokers_wild(
    [
        "2 tríos of 3",
        "1 trío of 3 and 1 escala of 4",
        "2 escalas of 4",
        "3 tríos of 3",
        "2 tríos of 3 and 1 escala of 4",
        "1 trío of 3 and 2 escalas of 4",
        "3 escalas of 4",
        "4 tríos of 3",
    ]
)

# docs/rules.md, `shanghai-rummy`: the ten deals of "Shanghai Rummy Rules"; jokers wild, fewer than the naturals.
FEWER_WILDS = "fewer wilds than natural cards in a meld"
SHANGHAI = [
    (number, need, FEWER_WILDS, "jokers")
    for number, need in enumerate(
        [
            "2 sets of 3",
            "1 set of 3 and 1 run of 4",
            "2 runs of 4",
            "3 sets of 3",
            "1 set of 3 and 1 run of 7",
            "2 sets of 3 and 1 run of 5",
            "3 runs of 4",
            "1 set of 3 and 1 run of 10",
            "3 sets of 3 and 1 run of 5",
            "3 runs of 5",
        ],
        start=1,
    )
]
# docs/rules.md, `continental`: TT, TE, EE, TTT, TET, ETE, EEE — Liverpool's seven deals, said in tríos (T) and
# escaleras (E); jokers never side by side.
CONTINENTAL = [
    (
        number,
        need.replace("set", "trío").replace("run", "escalera"),
        f"{ANY_WILDS}, never two side by side in an escalera",
        wilds,
    )
    for number, need, _, wilds in LIVERPOOL
]

CASES = [
    ("shanghai-rummy", SHANGHAI),
    ("continental", CONTINENTAL),
    ("carioca", CARIOCA),
    ("liverpool-rummy", LIVERPOOL),
    ("ten-pennies", TEN_PENNIES),
    ("ten-pennies-pcio", PCIO),
    ("ten-card-rummy", TEN_CARD_RUMMY),
    ("pennies-from-heaven", PENNIES_FROM_HEAVEN),
]


@pytest.mark.parametrize("ruleset_id, rounds", CASES, ids=[case[0] for case in CASES])
def test_the_rule_card_says_every_round_as_rules_md(ruleset_id, rounds):
    card = rule_card(load_ruleset(ruleset_id))
    assert [(r.number, r.need, r.limit, r.wilds) for r in card.rounds] == rounds


# RULES.md's other figures, as the card words them.
SENTENCES = [
    ("ten-pennies", "2 to 8 players."),
    ("ten-pennies", "Decks of 52 cards and 2 jokers: 2 players: 1 deck; 3–4 players: 2 decks; 5–6 players: 3 decks; "),
    ("ten-pennies", "Deal 11 cards each."),
    ("ten-pennies", "The deal moves one seat to the left each round; the player left of the dealer plays first."),
    ("ten-pennies", "First down: exactly the round's contract"),
    ("ten-pennies", "After going down: melds of 3 or more cards, at most 1 wild each"),
    ("ten-pennies", "Each player has 10 buys for the whole game, each 1 penny into the bowl."),
    ("ten-pennies", "A buy takes 3 cards: the discard and 2 cards from the deck."),
    ("ten-pennies", "(3–9: 5; 10 J Q K: 10; A 2: 20; JKR: 50); the player who went out scores 0."),
    ("ten-pennies", "Every card caught in hand puts 1 penny into the bowl."),
    ("ten-pennies", "a tie splits it, and pennies that cannot be split carry into the night's next game"),
    ("ten-pennies", "Lowest total after 7 rounds wins."),
    ("ten-pennies-pcio", "2 to 4 players."),
    ("ten-pennies-pcio", "2 players: 2 decks; 3–4 players: 4 decks."),
    ("ten-pennies-pcio", "No meld holds two cards of the same rank and suit (jokers excepted)."),
    ("ten-card-rummy", "4 to 8 players."),
    ("ten-card-rummy", "4–6 players: 2 decks; 7–8 players: 3 decks."),
    ("ten-card-rummy", "Deal 10 cards each."),
    ("ten-card-rummy", "First down: at least the round's contract (sets or runs)"),
    ("ten-card-rummy", "A run is cards in a row of one suit; aces high or low; a run may go over the top (Q K A 2)."),
    ("ten-card-rummy", "Buying starts in round 4."),
    ("ten-card-rummy", "Each player's first 3 buys a round are free; each buy beyond them adds 100 points"),
    ("ten-card-rummy", "A buy takes 2 cards: the discard and 1 card from the deck."),
    ("ten-card-rummy", "(3–10 at face value; J Q K: 10; A: 11; 2 JKR: 15)"),
    ("pennies-from-heaven", "(4–7: 5; 8 9 10 J Q K: 10; A 2: 20; JKR: 50)"),
    ("ten-card-rummy", "No pennies change hands."),
    ("ten-card-rummy", "Lowest total after 11 rounds wins."),
    ("pennies-from-heaven", "Deal 13 cards each and a 15-card pile."),
    ("pennies-from-heaven", "4 for two players, plus 2 for each further side or each further 2 players."),
    ("pennies-from-heaven", "A book is 3 to 7 cards of one rank; at 7 it closes. No books of threes."),
    ("pennies-from-heaven", "Closed books: natural 500, with wilds 300, sevens 1500, wild 1500. Going out: 100."),
    ("pennies-from-heaven", "Red threes: 100 each, 200 each with 4 or more."),
    ("pennies-from-heaven", "a black three left in hand: −100."),
    ("pennies-from-heaven", "needs only 15 points to get on the board"),
    ("pennies-from-heaven", "No buying."),
    ("pennies-from-heaven", "Highest total after 3 hands wins."),
    ("liverpool-rummy", "3 to 8 players."),
    ("carioca", "Deal 12 cards each."),
    (  # the Chilean source's escala: "4 cartas seguidas del mismo palo", "pudiendo pasar las cartas entre el As"
        "carioca",
        "An escala is at least 4 cards in a row of one suit; aces high or low; an escala may go over the top "
        "(Q K A 2).",
    ),
    ("carioca", "A trío is cards of one rank."),
    ("carioca", "First down: exactly the round's contract: the tríos and the escalas it names, within the round's"),
    ("carioca", "A buy takes 1 card: the discard."),
    ("carioca", "Each buy adds 2 points to that round."),
    ("carioca", "(2–10 at face value; J Q K: 10; A: 20; JKR: 30)"),
    ("carioca", "Lowest total after 8 rounds wins."),
    ("liverpool-rummy", "After going down: no new melds, only lay-offs onto any meld on the table."),
    ("liverpool-rummy", "Deal 10 cards each in rounds 1–4, 12 in rounds 5–7."),
    (
        "liverpool-rummy",
        "First down: exactly the round's contract: the sets and the runs it names, within the round's wild limit.",
    ),
    (
        "liverpool-rummy",
        "A run is at least 4 cards in a row of one suit; an ace is high (J Q K A) or low (A 2 3 4), never both.",
    ),
    ("liverpool-rummy", "A buy takes 2 cards: the discard and 1 card from the deck."),
    ("liverpool-rummy", "A wild card is always wild in a set: there is no set of wild cards."),
    ("liverpool-rummy", "Lowest total after 7 rounds wins."),
    ("shanghai-rummy", "Decks of 52 cards and 2 jokers: 3–4 players: 2 decks; 5–8 players: 3 decks."),
    ("shanghai-rummy", "Deal 11 cards each."),
    ("shanghai-rummy", "Every meld holds fewer wild cards than natural ones."),
    ("shanghai-rummy", "At most 3 buys a player a round in rounds 1–8, 4 in rounds 9–10."),
    ("shanghai-rummy", "(2–9: 5; 10 J Q K: 10; A JKR: 15)"),
    ("shanghai-rummy", "Lowest total after 10 rounds wins."),
    ("continental", "2 to 4 players."),
    ("continental", "Decks of 52 cards and 3 jokers: 2–4 players: 2 decks."),
    ("continental", "Deal 7 cards each in round 1, one more each round: 13 in round 7."),
    ("continental", "No two wild cards side by side in an escalera."),
    (
        "continental",
        "An escalera is at least 4 cards in a row of one suit; aces high or low; an escalera may go over the top "
        "(Q K A 2).",
    ),
    ("continental", "A buy takes 2 cards: the discard and 1 card from the deck."),
    ("continental", "(2–10 at face value; J Q K: 10; A: 20; JKR: 50)"),
    ("continental", "Going down and going out in the same turn: −10 for that round instead of 0."),
    ("shanghai-rummy", "Going down and going out in the same turn: −25 for that round instead of 0."),
    (
        "liverpool-rummy",
        "Cutting the deck exactly (the cards of the deal and one to turn up, no more, no fewer): −50 for the cutter "
        "that round.",
    ),
    ("carioca", "−10 for the cutter that round."),
]


@pytest.mark.parametrize("ruleset_id, words", SENTENCES)
def test_the_rule_card_says_rules_md_figures_in_table_words(ruleset_id, words):
    card = rule_card(load_ruleset(ruleset_id))
    text = "\n".join(line for _, lines in card.sections for line in lines)
    assert words in text


# --- a player's own round, as their phone shows it (rule_card.your_round) --------------------------------

PLAYERS = ("Ann", "Bob", "Cy", "Di")
TEN_PENNIES_ROUND_1 = ("Round 1: 2 sets of 3.", "Wild: 2s; at most 1 wild per set.")
TEN_CARD_RUMMY_ROUND_4 = (
    "Round 4: 2 melds of 4 — sets or runs.",
    "Wild: 2s, jokers; no more wilds than natural cards in a meld.",
    "10 cards each; Di deals, Ann plays first.",  # the deal has gone left from Ann three times
)


def a_game(ruleset_id: str, *events: Event) -> Game:
    return Game(Setup(load_ruleset(ruleset_id), PLAYERS, 0), list(events))


def round_won_by_ann(event_id: int, number: int) -> RoundRecord:
    return RoundRecord(event_id, number, "Ann", {name: parse_hand("") for name in PLAYERS[1:]})


def test_ten_pennies_round_one_on_each_phone():
    """RULES.md: 11 cards dealt; the player left of the dealer plays first; each buy takes the discard
    and two from the deck, and a penny into the bowl; 10 buys a game."""
    game = a_game("ten-pennies")
    buys = "You have 10 buys left: the next takes 3 cards and puts 1 penny in the bowl."
    assert your_round(game, "Ann") == (*TEN_PENNIES_ROUND_1, "11 cards each; you deal, Bob plays first.", buys)
    assert your_round(game, "Bob") == (*TEN_PENNIES_ROUND_1, "11 cards each; Ann deals, you play first.", buys)
    assert your_round(game, "Cy") == (*TEN_PENNIES_ROUND_1, "11 cards each; Ann deals, Bob plays first.", buys)


def test_a_player_with_no_buys_left_is_told_so():
    game = a_game("ten-pennies", *(Buy(event_id, 1, "Bob") for event_id in range(1, 11)))
    assert your_round(game, "Bob")[-1] == "You have no buys left."
    assert your_round(game, "Cy")[-1].startswith("You have 10 buys left")


def test_ten_card_rummy_buys_start_in_round_four_and_cost_points_beyond_three():
    """RULES.md: buying from round 4; three buys a round free, each one more 100 points; a buy takes
    the discard and one from the stock."""
    assert your_round(a_game("ten-card-rummy"), "Ann")[-1] == "Buying starts in round 4."
    rounds = [round_won_by_ann(number, number) for number in (1, 2, 3)]
    free = your_round(a_game("ten-card-rummy", *rounds), "Bob")
    assert free == (*TEN_CARD_RUMMY_ROUND_4, "You may buy: the next takes 2 cards.")
    three_bought = [Buy(event_id, 4, "Bob") for event_id in (4, 5, 6)]
    costly = your_round(a_game("ten-card-rummy", *rounds, *three_bought), "Bob")
    assert costly == (*TEN_CARD_RUMMY_ROUND_4, "You may buy: the next takes 2 cards and adds 100 points.")


def test_pennies_from_heaven_says_the_board_and_the_pile_and_no_buys():
    """RULES.md: a 13-card hand and a 15-card pile; getting on the board takes 50 in hand 1."""
    lines = your_round(a_game("pennies-from-heaven"), "Bob")
    assert lines[0] == "Hand 1: 50 points to get on the board."
    assert lines[2] == "13 cards each and a 15-card pile; Ann plays first."
    assert len(lines) == 3


def test_a_finished_game_shows_no_round():
    rounds = [round_won_by_ann(number, number) for number in range(1, 8)]
    assert your_round(a_game("ten-pennies", *rounds), "Ann") == ()


# --- the whole card, headings and order, as the table reads it down the page --------------------------------

SCORING_LINE = "When a player goes out, everyone else adds up the cards left in their hand"
TEN_PENNIES_CARD = [
    (
        "Players and cards",
        [
            "2 to 8 players.",
            "Decks of 52 cards and 2 jokers: 2 players: 1 deck; 3–4 players: 2 decks; 5–6 players: 3 decks; "
            "7–8 players: 4 decks.",
            "Deal 11 cards each.",
            "The deal moves one seat to the left each round; the player left of the dealer plays first.",
        ],
    ),
    (
        "Going down",
        [
            "First down: exactly the round's contract (sets), each meld at least the contract's size, within the "
            "round's wild limit.",
            "A set is cards of one rank.",
            "After going down: melds of 3 or more cards, at most 1 wild each, and lay-offs onto any meld on the table.",
        ],
    ),
    (
        "Buying",
        [
            "A buy takes 3 cards: the discard and 2 cards from the deck.",
            "Each player has 10 buys for the whole game, each 1 penny into the bowl.",
        ],
    ),
    (
        "Scoring",
        [f"{SCORING_LINE} (3–9: 5; 10 J Q K: 10; A 2: 20; JKR: 50); the player who went out scores 0."],
    ),
    (
        "Money",
        [
            "Every card caught in hand puts 1 penny into the bowl.",
            "The winner takes the whole bowl; a tie splits it, and pennies that cannot be split carry into the "
            "night's next game that plays for a bowl.",
        ],
    ),
    ("Winning", ["Lowest total after 7 rounds wins."]),
]


def test_the_whole_ten_pennies_card_reads_down_the_page():
    card = rule_card(load_ruleset("ten-pennies"))
    assert (card.name, card.round_word) == ("Ten Pennies", "round")
    assert card.summary.startswith("7 rounds of set contracts, a 10-penny buy stack each")
    assert [(heading, list(lines)) for heading, lines in card.sections] == TEN_PENNIES_CARD


def sections(ruleset_id: str) -> dict[str, list[str]]:
    return {heading: list(lines) for heading, lines in rule_card(load_ruleset(ruleset_id)).sections}


def test_pennies_from_heaven_is_played_by_sides_with_books_and_no_money():
    card = sections("pennies-from-heaven")
    assert list(card) == ["Players and cards", "Books", "Buying", "Scoring", "Money", "Winning"]
    assert card["Players and cards"][2:] == [
        "Deal 13 cards each and a 15-card pile.",
        "Played by sides: each player alone, or teams of the same size.",
    ]
    assert card["Books"] == [
        "A book is 3 to 7 cards of one rank; at 7 it closes. No books of threes.",
        "At most 2 wilds in a book, with 2 naturals for each; none in a book of sevens. A wild book holds only "
        "wild cards.",
        "A side below zero needs only 15 points to get on the board; red threes do not count towards it.",
        "Going out needs the side's wild book and book of sevens, and the player's pile picked up (allowed after "
        "the side's first natural book).",
    ]
    assert card["Buying"] == ["No buying."] and card["Money"] == ["No pennies change hands."]


def test_ten_card_rummy_melds_sets_or_runs_with_no_more_wilds_than_naturals():
    card = sections("ten-card-rummy")
    assert card["Going down"] == [
        "First down: at least the round's contract (sets or runs), each meld at least the contract's size, within "
        "the round's wild limit.",
        "A set is cards of one rank.",
        "A run is cards in a row of one suit; aces high or low; a run may go over the top (Q K A 2).",
        "After going down: melds of 3 or more cards, and lay-offs onto any meld on the table.",
        "No meld holds more wild cards than natural ones.",
        "A wild card is always wild in a set: there is no set of wild cards.",
    ]
    assert card["Buying"] == [
        "A buy takes 2 cards: the discard and 1 card from the deck.",
        "Buying starts in round 4.",
        "Each player's first 3 buys a round are free; each buy beyond them adds 100 points to that round.",
    ]


def test_the_virtual_tabletop_edition_says_suits_count():
    assert sections("ten-pennies-pcio")["Going down"][-2:] == [
        "No meld holds two cards of the same rank and suit (jokers excepted).",
        "Suits count: type every card with its suit.",
    ]


# --- a house's own buying and money, in the same table words -------------------------------------------------


def house_card(ruleset_id: str, *changes: tuple[str, str]) -> dict[str, list[str]]:
    text = ruleset_text(ruleset_id)
    for old, new in changes:
        assert old in text, old
        text = text.replace(old, new, 1)
    return {heading: list(lines) for heading, lines in rule_card(parse_ruleset(text, "house.toml")).sections}


TAKES_THREE = "A buy takes 3 cards: the discard and 2 cards from the deck."
HOUSE_BUYING = [
    (
        (("cards = 3", "cards = 1"),),
        ["A buy takes 1 card: the discard.", "Each player has 10 buys for the whole game, each 1 penny into the bowl."],
    ),
    ((("stack = 10 ", "# "),), [TAKES_THREE, "Each buy puts 1 penny into the bowl."]),
    (
        (("pennies = 1 ", "pennies = 2 "),),
        [TAKES_THREE, "Each player has 10 buys for the whole game, each 2 pennies into the bowl."],
    ),
    ((("pennies = 1 ", "pennies = 0 "),), [TAKES_THREE, "Each player has 10 buys for the whole game."]),
    (
        (("first_round = 1", "first_round = 2"),),
        [
            TAKES_THREE,
            "Each player has 10 buys for the whole game, each 1 penny into the bowl.",
            "Buying starts in round 2.",
        ],
    ),
]


@pytest.mark.parametrize("changes, words", HOUSE_BUYING)
def test_a_house_buying_rule_is_said_as_it_is_played(changes, words):
    assert house_card("ten-pennies", *changes)["Buying"] == words


def test_one_free_buy_a_round_is_said_in_the_singular():
    card = house_card("ten-card-rummy", ("free_per_round = 3", "free_per_round = 1"))
    assert (
        card["Buying"][-1]
        == "Each player's first buy a round is free; each buy beyond it adds 100 points to that round."
    )


def test_no_free_buy_says_what_each_buy_costs():
    card = house_card("ten-card-rummy", ("free_per_round = 3", "free_per_round = 0"))
    assert card["Buying"][-1] == "Each buy adds 100 points to that round."
    both = house_card(
        "ten-card-rummy", ("free_per_round = 3", "free_per_round = 0"), ("penalty_points = 100", "penalty_points = 0")
    )
    assert both["Buying"] == ["A buy takes 2 cards: the discard and 1 card from the deck.", "Buying starts in round 4."]


def test_free_buys_without_a_penalty_say_no_points():
    card = house_card("ten-card-rummy", ("penalty_points = 100", "penalty_points = 0"))
    assert card["Buying"][-1] == "Each player's first 3 buys a round are free."


def test_two_pennies_a_card_and_none_a_card():
    assert house_card("ten-pennies", ("pennies_per_card = 1", "pennies_per_card = 2"))["Money"][0] == (
        "Every card caught in hand puts 2 pennies into the bowl."
    )
    assert house_card("ten-pennies", ("pennies_per_card = 1", "pennies_per_card = 0"))["Money"] == [
        "The winner takes the whole bowl; a tie splits it, and pennies that cannot be split carry into the "
        "night's next game that plays for a bowl."
    ]


def test_a_house_buy_of_two_pennies_and_one_buy_left_on_the_phone():
    text = (
        ruleset_text("ten-pennies").replace("pennies = 1 ", "pennies = 2 ", 1).replace("stack = 10 ", "stack = 2 ", 1)
    )
    game = Game(Setup(parse_ruleset(text, "house.toml"), PLAYERS, 0), [Buy(1, 1, "Bob")])
    assert your_round(game, "Bob")[-1] == "You have 1 buy left: the next takes 3 cards and puts 2 pennies in the bowl."
    assert your_round(game, "Cy")[-1] == "You have 2 buys left: the next takes 3 cards and puts 2 pennies in the bowl."
