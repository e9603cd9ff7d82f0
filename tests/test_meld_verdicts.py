"""The meld checker's whole answer, word for word: valid or not, every reason, and how a valid meld
reads ("K♠ K♥ JKR K♣: set of 4 × K with 1 wild"). The table reads the arrangement to agree on what
is down, so it is checked as closely as the verdict (RULES.md: books, board minimums, lay-offs)."""

import pytest
from support import TEN_PENNIES_TOML, ruleset_text

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.melds import Stage, Verdict, check_layoff, check_melds
from scorekeeper.rules.rulesets import Ruleset, parse_ruleset

# --- Pennies From Heaven: getting on the board (hand 1 needs 50, hand 2 90; below zero 15) --------
# Card values: A 20, 2 20, joker 50, 8–K 10, 4–7 5.

BOARD = [  # hand, side's total, books laid down, the verdict
    (1, 0, ["K K K", "A A A"], Verdict(True, [], ["K K K: book of 3 × K", "A A A: book of 3 × A"])),  # 30 + 60
    (
        1,
        0,
        ["K K K", "4 4"],
        Verdict(
            False,
            [
                "meld 2 (4 4) has 2 cards; it needs at least 3",
                "the books are worth 40 points; hand 1 needs 50 to get on the board",  # 30 + 10: every card laid down
            ],
        ),
    ),
    # A side at exactly zero is not below zero: it needs the full 50, and nothing says "below zero".
    (1, 0, ["4 4 4"], Verdict(False, ["the books are worth 15 points; hand 1 needs 50 to get on the board"])),
    (2, -20, ["4 4 4"], Verdict(True, [], ["4 4 4: book of 3 × 4"])),  # 15 is enough below zero
    (
        2,
        -20,
        ["4 4"],
        Verdict(
            False,
            [
                "meld 1 (4 4) has 2 cards; it needs at least 3",
                "the books are worth 10 points; hand 2 needs 15 to get on the board (the side is below zero)",
            ],
        ),
    ),
]


@pytest.mark.parametrize("hand, side_score, melds, expected", BOARD)
def test_getting_on_the_board_is_answered_in_full(rulesets, hand, side_score, melds, expected):
    ruleset = rulesets["pennies-from-heaven"]
    assert check_melds(ruleset, hand, [parse_hand(m) for m in melds], Stage.FIRST_DOWN, side_score) == expected


BOOKS = [  # a later meld of Pennies From Heaven (hand 1: 2s and jokers wild), and what is wrong with it
    ("K K K", None),
    ("2 2 JKR", None),  # a wild book holds only 2s and jokers
    ("7 7 7 JKR", "puts a wild card in a book of sevens: never allowed"),
    ("K K K K 2 2 JKR", "has 3 wild cards; a book allows 2"),
    ("K K 2 JKR", "has 2 wild cards but only 2 natural; each wild needs 2"),
    ("3H 3D 3H", "holds a red 3: red threes are laid aside, never melded (no books of threes)"),
    ("3S 3C 3S", "holds a black 3: black threes cannot be melded"),
    ("3 3 3", "holds a 3 without a suit: say whether it is a red or a black three"),
]

BOOK_READS = {"K K K": "K K K: book of 3 × K", "2 2 JKR": "2 2 JKR: wild book of 3"}


@pytest.mark.parametrize("meld, problem", BOOKS)
def test_a_book_is_read_or_refused_with_its_rule(rulesets, meld, problem):
    answer = check_melds(rulesets["pennies-from-heaven"], 1, [parse_hand(meld)], Stage.MELD)
    if problem is None:
        assert answer == Verdict(True, [], [BOOK_READS[meld]])
    else:
        assert answer == Verdict(False, [f"meld 1 ({parse_hand_label(meld)}) {problem}"])


def parse_hand_label(meld: str) -> str:
    """A meld as the checker names it: suits as symbols."""
    return meld.replace("H", "♥").replace("D", "♦").replace("S", "♠").replace("C", "♣")


LAYOFFS = [  # ruleset, round, onto, cards, the verdict
    # Pennies From Heaven: a book grows by its rank or a wild, and stays a legal book.
    ("pennies-from-heaven", 1, "K K K", "K 2", Verdict(True, [], ["K K K K 2: book of 5 × K with 1 wild"])),
    (
        "pennies-from-heaven",
        1,
        "K K K",
        "Q",
        Verdict(False, ["the book would be K K K Q, which is not a book: it mixes K, Q"]),
    ),
    # Ten Pennies (round 1: 2s wild): a set takes its rank or wild cards.
    ("ten-pennies", 1, "K K K", "K", Verdict(True, [], ["K K K K: set of 4 × K"])),
    (
        "ten-pennies",
        1,
        "K K K",
        "Q 2",
        Verdict(False, ["Q cannot go onto a set of K: only the same rank or a wild card"]),
    ),
    (
        "ten-pennies",
        1,
        "K K K",
        "J Q",
        Verdict(False, ["J, Q cannot go onto a set of K: only the same rank or a wild card"]),
    ),
    # A meld on the table that is no set takes nothing; it is named by its cards.
    ("ten-pennies", 1, "K Q J", "K", Verdict(False, ["the meld on the table (K Q J) is not a set"])),
    (
        "ten-card-rummy",
        4,
        "5S 6H 9C",
        "7S",
        Verdict(False, ["the meld on the table (5♠ 6♥ 9♣) is not a legal set or run: it takes no lay-off"]),
    ),
    # Ten Card Rummy (round 4: 2s and jokers wild; no more wilds than naturals; runs grow at their ends).
    ("ten-card-rummy", 4, "KS KH JKR", "KC", Verdict(True, [], ["K♠ K♥ JKR K♣: set of 4 × K with 1 wild"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "8S", Verdict(True, [], ["5♠ 6♠ 7♠ 8♠: run of 4 in ♠, 5 to 8"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "8S 9S", Verdict(True, [], ["5♠ 6♠ 7♠ 8♠ 9♠: run of 5 in ♠, 5 to 9"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "4S 3S", Verdict(True, [], ["5♠ 6♠ 7♠ 4♠ 3♠: run of 5 in ♠, 3 to 7"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "JKR", Verdict(True, [], ["5♠ 6♠ 7♠ JKR: run of 4 in ♠, 5 to 8 with 1 wild"])),
    # A gap is no end: 3♠ onto 5♠ 6♠ 7♠ leaves 4♠ out.
    (
        "ten-card-rummy",
        4,
        "5S 6S 7S",
        "3S",
        Verdict(
            False,
            ["3♠ cannot go onto 5♠ 6♠ 7♠: the next cards of the suit at either end, and no more wilds than naturals"],
        ),
    ),
    # The 2 of the run's suit in its own place (below the 3) is natural: 3 naturals, 2 wilds.
    (
        "ten-card-rummy",
        4,
        "3S 4S JKR",
        "2S JKR",
        Verdict(True, [], ["3♠ 4♠ JKR 2♠ JKR: run of 5 in ♠, 2 to 6 with 2 wilds"]),
    ),
    # A 2 of another suit is wild wherever it lies: 2 naturals could not hold 3 wilds.
    (
        "ten-card-rummy",
        4,
        "3S 4S JKR",
        "2H JKR",
        Verdict(
            False,
            [
                "2♥ JKR cannot go onto 3♠ 4♠ JKR: the next cards of the suit at either end, and no more wilds than naturals"  # noqa: E501
            ],
        ),
    ),
    # A♠ below, then 2♠ in its own place: all natural.
    ("ten-card-rummy", 4, "3S 4S 5S", "AS 2S", Verdict(True, [], ["3♠ 4♠ 5♠ A♠ 2♠: run of 5 in ♠, A to 5"])),
    # Thirteen cards is the longest run; a wild cannot make a fourteenth.
    (
        "ten-card-rummy",
        4,
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS",
        "KS",
        Verdict(True, [], ["A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠: run of 13 in ♠, A to K"]),
    ),
    (
        "ten-card-rummy",
        4,
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
        "JKR",
        Verdict(
            False,
            [
                "JKR cannot go onto A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠: the next cards of the suit at either end, "
                "and no more wilds than naturals"
            ],
        ),
    ),
    # A wild between two naturals stands for the card between them, and names itself.
    (
        "ten-card-rummy",
        4,
        "4S 2H 6S",
        "5S",
        Verdict(False, ["the 2♥ stands for 5♠ in 4♠ 2♥ 6♠: a card can only extend the run at its ends"]),
    ),
    (
        "ten-card-rummy",
        4,
        "4S 2H 6S 2D 8S",
        "5S",
        Verdict(False, ["the 2♥ stands for 5♠ in 4♠ 2♥ 6♠ 2♦ 8♠: a card can only extend the run at its ends"]),
    ),
    # Each wild names the place it holds in the run as entered: the 2♥ sits where the 7♠ would.
    (
        "ten-card-rummy",
        4,
        "4S 2D 6S 2H 8S",
        "7S",
        Verdict(False, ["the 2♥ stands for 7♠ in 4♠ 2♦ 6♠ 2♥ 8♠: a card can only extend the run at its ends"]),
    ),
    (
        "ten-card-rummy",
        4,
        "4S JKR 6S 2H 8S",
        "7S",
        Verdict(False, ["the 2♥ stands for 7♠ in 4♠ JKR 6♠ 2♥ 8♠: a card can only extend the run at its ends"]),
    ),
    # Entered out of order, the run does not say which wild holds the place.
    (
        "ten-card-rummy",
        4,
        "8S 2H 6S JKR 4S",
        "5S",
        Verdict(False, ["a wild card stands for 5♠ in 8♠ 2♥ 6♠ JKR 4♠: a card can only extend the run at its ends"]),
    ),
]


@pytest.mark.parametrize("ruleset, number, onto, cards, expected", LAYOFFS)
def test_a_lay_off_is_answered_in_full(rulesets, ruleset, number, onto, cards, expected):
    assert check_layoff(rulesets[ruleset], number, parse_hand(onto), parse_hand(cards)) == expected


MELDS = [  # ruleset, round, stage, melds, the verdict (worked by hand from RULES.md)
    # An 8-card meld is still named card by card; from 9 cards on, by its ends and its size.
    # K and Q both 4 times: the lower rank is taken as the set's rank, the other is the stray.
    (
        "ten-pennies",
        1,
        "meld",
        ["K K K K Q Q Q Q"],
        Verdict(
            False,
            [
                "meld 1 (K K K K Q Q Q Q) is not a set: a set is one rank plus wild cards, and K is neither Q nor wild "
                "in round 1"
            ],
        ),
    ),
    (
        "ten-pennies",
        1,
        "meld",
        ["K K K K K Q Q Q Q"],
        Verdict(
            False,
            [
                "meld 1 (K K K … Q, 9 cards) is not a set: a set is one rank plus wild cards, and Q is neither K nor wild "  # noqa: E501
                "in round 1"
            ],
        ),
    ),
    # The 2s are wild in round 1, so they are never the stray rank, however many there are.
    (
        "ten-pennies",
        1,
        "meld",
        ["K Q 2 2"],
        Verdict(
            False,
            [
                "meld 1 (K Q 2 2) is not a set: a set is one rank plus wild cards, and K is neither Q nor wild in round 1"  # noqa: E501
            ],
        ),
    ),
    # RULES.md: "2 A JKR has 2 wilds whatever base is chosen"; a later meld allows 1. It is a set
    # with too many wilds, not a set of wild cards (Ten Pennies has sets of 2s).
    (
        "ten-pennies",
        5,
        "meld",
        ["2 A JKR"],
        Verdict(False, ["meld 1 (2 A JKR) has 2 wild cards; a later meld allows 1"]),
    ),
    ("ten-pennies", 1, "meld", [], Verdict(False, ["no melds were given"])),
    ("ten-pennies", 1, "first-down", [], Verdict(False, ["no melds were given"])),
    # Ten Card Rummy: wild cards alone make no set; as a run, 2♠ is natural and the others wild.
    (
        "ten-card-rummy",
        4,
        "meld",
        ["2S 2H JKR"],
        Verdict(
            False,
            [
                "meld 1 (2♠ 2♥ JKR) is not a meld: Ten Card Rummy has no sets of 2s and jokers: each is wild in a set; "
                "as a run it has 2 wild cards and 1 natural; no more wilds than naturals"
            ],
        ),
    ),
    # The virtual tabletop's edition: every card has a suit, and one meld never holds a card twice
    # (the doubled cards named in suit order: spades, hearts, diamonds, clubs).
    (
        "ten-pennies-pcio",
        1,
        "meld",
        ["KD KH KS KH KS KD"],
        Verdict(False, ["meld 1 (K♦ K♥ K♠ K♥ K♠ K♦) holds K♠ K♥ K♦ twice; one meld may not hold two of the same card"]),
    ),
    ("ten-pennies-pcio", 1, "meld", ["K K KH"], Verdict(False, ["meld 1 (K K K♥) needs a suit on K K"])),
    # Thirteen cards can be a run (A to K), so the reason is the doubled K, not the length.
    (
        "ten-card-rummy",
        4,
        "meld",
        ["AS 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS KS"],
        Verdict(
            False,
            [
                "meld 1 (A♠ 3♠ 4♠ … K♠, 13 cards) is not a run: a run holds each rank once, and this one has K twice; "
                "nor a set: a set is one rank plus wild cards, and 11 of its cards are neither K nor wild in round 4"
            ],
        ),
    ),
]


@pytest.mark.parametrize("ruleset, number, stage, melds, expected", MELDS)
def test_a_meld_is_answered_in_full(rulesets, ruleset, number, stage, melds, expected):
    assert check_melds(rulesets[ruleset], number, [parse_hand(m) for m in melds], stage) == expected


RUNS_GROWN_TO_THE_LEFT = [  # Ten Card Rummy round 4: a 2 of the run's suit in its own place is natural
    ("4S 5S 6S", "AS 3S 2S", "4♠ 5♠ 6♠ A♠ 3♠ 2♠: run of 6 in ♠, A to 6"),
    # Only one 2♠ can be in its place; the other stands in for the 6♠.
    ("3S 4S 5S", "AS 2S 2S", "3♠ 4♠ 5♠ A♠ 2♠ 2♠: run of 6 in ♠, A to 6 with 1 wild"),
]


@pytest.mark.parametrize("onto, cards, reads", RUNS_GROWN_TO_THE_LEFT)
def test_a_run_grown_below_reads_its_natural_2(rulesets, onto, cards, reads):
    verdict = check_layoff(rulesets["ten-card-rummy"], 4, parse_hand(onto), parse_hand(cards))
    assert verdict == Verdict(True, [], [reads])


def house_ten_pennies(later_melds: str) -> Ruleset:
    """Ten Pennies with its ``[later_melds]`` table replaced (or taken away: a house rules file may omit it)."""
    old = "[later_melds]\nmin_size = 3\nmax_wilds = 1\n"
    assert old in TEN_PENNIES_TOML
    return parse_ruleset(TEN_PENNIES_TOML.replace(old, later_melds), "house.toml")


@pytest.mark.parametrize(
    "later_melds, three_cards, four_cards",
    [
        ("", Verdict(True, [], ["K K K: set of 3 × K"]), Verdict(True, [], ["K K K K: set of 4 × K"])),  # 3 by default
        (
            "[later_melds]\nmin_size = 4\n",
            Verdict(False, ["meld 1 (K K K) has 3 cards; it needs at least 4"]),
            Verdict(True, [], ["K K K K: set of 4 × K"]),
        ),
    ],
)
def test_a_later_meld_needs_the_house_minimum(later_melds, three_cards, four_cards):
    ruleset = house_ten_pennies(later_melds)
    assert check_melds(ruleset, 1, [parse_hand("K K K")], Stage.MELD) == three_cards
    assert check_melds(ruleset, 1, [parse_hand("K K K K")], Stage.MELD) == four_cards


def test_a_house_wild_rank_in_its_own_run_place_is_natural():
    """A house Ten Card Rummy with 4s wild instead of 2s: as a 2 does in the real game, a 4 of the
    run's suit in its own place counts as natural, and the 2♠ below it is an ordinary card."""
    text = ruleset_text("ten-card-rummy")
    ruleset = parse_ruleset(text.replace('wilds = ["2", "JKR"]', 'wilds = ["4", "JKR"]'), "house.toml")
    assert check_layoff(ruleset, 4, parse_hand("5S 6S 7S"), parse_hand("2S 3S 4S")) == Verdict(
        True, [], ["5♠ 6♠ 7♠ 2♠ 3♠ 4♠: run of 6 in ♠, 2 to 7"]
    )


def test_each_question_gets_its_own_verdict_words():
    """The checker answers in the words of the question asked: a hand makes the contract or not; a
    meld, a first down or a lay-off is legal or not."""
    assert (Stage.HAND.answer(True), Stage.HAND.answer(False)) == (
        "✔ Makes the contract",
        "✘ Does not make the contract",
    )
    for stage in (Stage.FIRST_DOWN, Stage.MELD, Stage.LAYOFF):
        assert (stage.answer(True), stage.answer(False)) == ("✔ Legal", "✘ Not legal")
