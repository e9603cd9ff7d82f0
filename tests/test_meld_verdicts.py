"""The meld checker's whole answer, word for word: valid or not, every reason, and how a valid meld
reads ("K♠ K♥ JKR K♣: set of 4 × K with 1 wild"). The table reads the arrangement to agree on what
is down, so it is checked as closely as the verdict (RULES.md: books, board minimums, lay-offs)."""

import pytest

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.melds import Verdict, check_layoff, check_melds

# --- Pennies From Heaven: getting on the board (hand 1 needs 50, hand 2 90; below zero 15) --------
# Card values: A 20, 2 20, joker 50, 8–K 10, 4–7 5.

BOARD = [  # hand, side's total, books laid down, the verdict
    (1, 0, ["K K K", "A A A"], Verdict(True, [], ["K K K: book of 3 × K", "A A A: book of 3 × A"])),  # 30 + 60
    (1, 0, ["K K K", "4 4"], Verdict(False, [
        "meld 2 (4 4) has 2 cards; it needs at least 3",
        "the books are worth 40 points; hand 1 needs 50 to get on the board",  # 30 + 10: every card laid down
    ])),
    # A side at exactly zero is not below zero: it needs the full 50, and nothing says "below zero".
    (1, 0, ["4 4 4"], Verdict(False, ["the books are worth 15 points; hand 1 needs 50 to get on the board"])),
    (2, -20, ["4 4 4"], Verdict(True, [], ["4 4 4: book of 3 × 4"])),  # 15 is enough below zero
    (2, -20, ["4 4"], Verdict(False, [
        "meld 1 (4 4) has 2 cards; it needs at least 3",
        "the books are worth 10 points; hand 2 needs 15 to get on the board (the side is below zero)",
    ])),
]  # fmt: skip


@pytest.mark.parametrize("hand, side_score, melds, expected", BOARD)
def test_getting_on_the_board_is_answered_in_full(rulesets, hand, side_score, melds, expected):
    ruleset = rulesets["pennies-from-heaven"]
    assert check_melds(ruleset, hand, [parse_hand(m) for m in melds], "first-down", side_score) == expected


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
    answer = check_melds(rulesets["pennies-from-heaven"], 1, [parse_hand(meld)], "meld")
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
    ("pennies-from-heaven", 1, "K K K", "Q", Verdict(False, [
        "the book would be K K K Q, which is not a book: it mixes K, Q"])),
    # Ten Pennies (round 1: 2s wild): a set takes its rank or wild cards.
    ("ten-pennies", 1, "K K K", "K", Verdict(True, [], ["K K K K: set of 4 × K"])),
    ("ten-pennies", 1, "K K K", "Q 2", Verdict(False, [
        "Q cannot go onto a set of K: only the same rank or a wild card"])),
    ("ten-pennies", 1, "K K K", "J Q", Verdict(False, [
        "J, Q cannot go onto a set of K: only the same rank or a wild card"])),
    # Ten Card Rummy (round 4: 2s and jokers wild; no more wilds than naturals; runs grow at their ends).
    ("ten-card-rummy", 4, "KS KH JKR", "KC", Verdict(True, [], ["K♠ K♥ JKR K♣: set of 4 × K with 1 wild"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "8S", Verdict(True, [], ["5♠ 6♠ 7♠ 8♠: run of 4 in ♠, 5 to 8"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "8S 9S", Verdict(True, [], ["5♠ 6♠ 7♠ 8♠ 9♠: run of 5 in ♠, 5 to 9"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "4S 3S", Verdict(True, [], ["5♠ 6♠ 7♠ 4♠ 3♠: run of 5 in ♠, 3 to 7"])),
    ("ten-card-rummy", 4, "5S 6S 7S", "JKR", Verdict(True, [], ["5♠ 6♠ 7♠ JKR: run of 4 in ♠, 5 to 8 with 1 wild"])),
    # A gap is no end: 3♠ onto 5♠ 6♠ 7♠ leaves 4♠ out.
    ("ten-card-rummy", 4, "5S 6S 7S", "3S", Verdict(False, [
        "3♠ cannot go onto 5♠ 6♠ 7♠: the next cards of the suit at either end, and no more wilds than naturals"])),
    # The 2 of the run's suit in its own place (below the 3) is natural: 3 naturals, 2 wilds.
    ("ten-card-rummy", 4, "3S 4S JKR", "2S JKR", Verdict(True, [], [
        "3♠ 4♠ JKR 2♠ JKR: run of 5 in ♠, 2 to 6 with 2 wilds"])),
    # A 2 of another suit is wild wherever it lies: 2 naturals could not hold 3 wilds.
    ("ten-card-rummy", 4, "3S 4S JKR", "2H JKR", Verdict(False, [
        "2♥ JKR cannot go onto 3♠ 4♠ JKR: the next cards of the suit at either end, and no more wilds than naturals"])),
    # A♠ below, then 2♠ in its own place: all natural.
    ("ten-card-rummy", 4, "3S 4S 5S", "AS 2S", Verdict(True, [], ["3♠ 4♠ 5♠ A♠ 2♠: run of 5 in ♠, A to 5"])),
    # Thirteen cards is the longest run; a wild cannot make a fourteenth.
    ("ten-card-rummy", 4, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", "KS", Verdict(True, [], [
        "A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠: run of 13 in ♠, A to K"])),
    ("ten-card-rummy", 4, "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "JKR", Verdict(False, [
        "JKR cannot go onto A♠ 2♠ 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠: the next cards of the suit at either end, "
        "and no more wilds than naturals"])),
    # A wild between two naturals stands for the card between them, and names itself.
    ("ten-card-rummy", 4, "4S 2H 6S", "5S", Verdict(False, [
        "the 2♥ stands for 5♠ in 4♠ 2♥ 6♠: a card can only extend the run at its ends"])),
    ("ten-card-rummy", 4, "4S 2H 6S 2D 8S", "5S", Verdict(False, [
        "the 2♥ stands for 5♠ in 4♠ 2♥ 6♠ 2♦ 8♠: a card can only extend the run at its ends"])),
]  # fmt: skip


@pytest.mark.parametrize("ruleset, number, onto, cards, expected", LAYOFFS)
def test_a_lay_off_is_answered_in_full(rulesets, ruleset, number, onto, cards, expected):
    assert check_layoff(rulesets[ruleset], number, parse_hand(onto), parse_hand(cards)) == expected
