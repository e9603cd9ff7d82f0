"""Meld checking, rule line by rule line of RULES.md, for every ruleset and stage."""

import pytest

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.melds import check_layoff, check_melds


def verdict(rulesets, ruleset, number, melds, stage="first-down", side_score=0):
    return check_melds(rulesets[ruleset], number, [parse_hand(m) for m in melds], stage, side_score)


# (ruleset, round, stage, melds, valid, words in the reason)
CASES = [
    # --- ten-pennies: sets by base value ---
    ("ten-pennies", 1, "first-down", ["7H 7S 2C", "KD KS KC"], True, ""),
    ("ten-pennies", 1, "first-down", ["7 7 7", "K K K"], True, ""),  # suits optional
    ("ten-pennies", 1, "first-down", ["2 2 2", "K K 2"], True, ""),  # all 2s: a natural set of 2s
    (
        "ten-pennies",
        1,
        "first-down",
        ["K K 2 2", "7 7 7"],
        False,
        "meld 1 (K K 2 2) has 2 wild cards; round 1 allows 1",
    ),
    ("ten-pennies", 1, "first-down", ["K K JKR", "7 7 7"], False, "JKR is neither K nor wild in round 1"),
    ("ten-pennies", 4, "first-down", ["K K K JKR JKR"], False, "JKR is neither K nor wild in round 4"),
    ("ten-pennies", 1, "first-down", ["JKR JKR JKR", "7 7 7"], True, ""),  # a set of jokers
    ("ten-pennies", 1, "first-down", ["K K Q", "7 7 7"], False, "Q is neither K nor wild"),
    ("ten-pennies", 1, "first-down", ["K K K"], False, "round 1 needs exactly 2 sets of 3; 1 was laid down"),
    ("ten-pennies", 1, "first-down", ["K K K", "7 7 7", "9 9 9"], False, "3 were laid down"),
    ("ten-pennies", 1, "first-down", ["K K K", "K K K"], True, ""),  # two sets of the same value: several decks
    ("ten-pennies", 1, "first-down", ["K K", "7 7 7"], False, "meld 1 (K K) has 2 cards; it needs at least 3"),
    ("ten-pennies", 2, "first-down", ["Q Q Q"], False, "it needs at least 4"),
    ("ten-pennies", 2, "first-down", ["Q Q Q 2"], True, ""),
    ("ten-pennies", 3, "first-down", ["Q Q Q Q Q", "5 5 5 2"], True, ""),  # bigger than the contract is fine
    ("ten-pennies", 4, "first-down", ["Q Q Q 2 2"], True, ""),
    ("ten-pennies", 4, "first-down", ["Q Q 2 2 2"], False, "has 3 wild cards; round 4 allows 2"),
    ("ten-pennies", 5, "first-down", ["2 2 2 A JKR", "K K K K K"], True, ""),
    ("ten-pennies", 5, "first-down", ["2 A JKR K K", "Q Q Q A A"], False, "has 3 wild cards; round 5 allows 2"),
    ("ten-pennies", 5, "first-down", ["A A A A A", "K K K 2 JKR"], True, ""),  # aces natural in a set of aces
    ("ten-pennies", 6, "first-down", ["9 9 9 9 A JKR"], True, ""),
    ("ten-pennies", 7, "first-down", ["9 9 9 9 A JKR 2"], True, ""),
    ("ten-pennies", 7, "first-down", ["9 9 9 A A JKR 2"], False, "has 4 wild cards; round 7 allows 3"),
    # later melds: 3+ cards, at most 1 wild
    ("ten-pennies", 1, "meld", ["K K 2"], True, ""),
    ("ten-pennies", 5, "meld", ["2 A JKR"], False, "has 2 wild cards; a later meld allows 1"),
    ("ten-pennies", 5, "meld", ["2 2 2"], True, ""),
    ("ten-pennies", 5, "meld", ["2 2 A"], True, ""),  # a set of 2s with one wild ace
    ("ten-pennies", 1, "meld", ["K 2"], False, "it needs at least 3"),
    # --- ten-pennies-pcio ---
    ("ten-pennies-pcio", 1, "first-down", ["KH KS 2C", "7H 7S 7D"], False, "2 is neither K nor wild in round 1"),
    ("ten-pennies-pcio", 1, "first-down", ["KH KS JKR", "7H 7S 7D"], True, ""),
    ("ten-pennies-pcio", 4, "first-down", ["KH KS KD JKR JKR"], True, ""),
    ("ten-pennies-pcio", 4, "first-down", ["KH KS JKR JKR JKR"], False, "has 3 wild cards; round 4 allows 2"),
    ("ten-pennies-pcio", 5, "first-down", ["KH KS 2H 2S JKR", "QH QS QD AH AS"], True, ""),
    ("ten-pennies-pcio", 5, "first-down", ["KH 2H 2S 2D JKR", "QH QS QD AH AS"], False, "3 wild 2s; round 5 allows 2"),
    ("ten-pennies-pcio", 6, "first-down", ["KH KS AH AS 2H 2S"], True, ""),  # 4 wilds, 2 of each kind
    ("ten-pennies-pcio", 7, "first-down", ["KH AH AS AD 2H 2S 2D"], True, ""),
    ("ten-pennies-pcio", 7, "first-down", ["KH AH AS AD AC 2S 2D"], False, "4 wild As; round 7 allows 3"),
    ("ten-pennies-pcio", 1, "first-down", ["KH KH KS", "7H 7S 7D"], False, "holds K♥ twice"),
    ("ten-pennies-pcio", 1, "first-down", ["JKR JKR KS", "7H 7S 7D"], False, "has 2 wild cards"),
    ("ten-pennies-pcio", 1, "meld", ["KH KS KD"], True, ""),
    # --- ten-card-rummy: sets and runs ---
    ("ten-card-rummy", 1, "first-down", ["5C 6C 7C"], True, ""),
    ("ten-card-rummy", 1, "first-down", ["10D 10S 10H"], True, ""),
    ("ten-card-rummy", 1, "first-down", ["10 10 10"], True, ""),  # a set needs no suits
    ("ten-card-rummy", 1, "first-down", ["QS KS AS"], True, ""),  # ace high
    ("ten-card-rummy", 1, "first-down", ["AS 2S 3S"], True, ""),  # ace low, 2 in its place
    ("ten-card-rummy", 5, "first-down", ["QS KS AS 2S 3S"], True, ""),  # over the top
    ("ten-card-rummy", 1, "first-down", ["5C 6H 7C"], False, "a run is all one suit, and this one mixes ♥ and ♣"),
    ("ten-card-rummy", 1, "first-down", ["5C 5C 6C"], False, "a run holds each rank once, and this one has 5 twice"),
    ("ten-card-rummy", 1, "first-down", ["5C 7C 9C"], False, "these leave a gap with no wild card to fill it"),
    ("ten-card-rummy", 1, "first-down", ["2S 3S 2D"], True, ""),  # the seed's own example
    ("ten-card-rummy", 1, "first-down", ["2H 3S 2D"], False, "has 2 wild cards and 1 natural"),
    ("ten-card-rummy", 1, "first-down", ["5C JKR 7C"], True, ""),
    ("ten-card-rummy", 1, "first-down", ["5C JKR JKR"], False, "no more wilds than naturals"),
    ("ten-card-rummy", 1, "first-down", ["K K JKR"], True, ""),
    ("ten-card-rummy", 1, "first-down", ["K JKR 2"], False, "no more wilds than naturals"),
    ("ten-card-rummy", 2, "first-down", ["3C 4C 5C", "6C 7C 8C"], True, ""),  # two runs stay two melds
    ("ten-card-rummy", 2, "first-down", ["3C 4C 5C 6C 7C 8C"], False, "round 2 needs 2 melds of 3"),
    ("ten-card-rummy", 2, "first-down", ["3C 4C 5C", "6C 7C 8C", "K K K"], True, ""),  # at least the contract
    ("ten-card-rummy", 3, "first-down", ["3C 4C 5C"], False, "it needs at least 4"),
    ("ten-card-rummy", 11, "first-down", ["AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"], True, ""),
    ("ten-card-rummy", 11, "first-down", ["AH 2S 3H 4H 5H 6H 7H 8H 9H JKR"], True, ""),
    ("ten-card-rummy", 1, "meld", ["AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H 2H"], False, "at most 13"),
    ("ten-card-rummy", 1, "meld", ["AH KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H"], True, ""),
    ("ten-card-rummy", 4, "meld", ["9D 10D JD"], True, ""),
    # RULES.md: no set holds more jokers and 2s than ordinary cards, and a 2 is wild in a set.
    ("ten-card-rummy", 4, "meld", ["JKR JKR JKR"], False, "Ten Card Rummy has no sets of jokers: a joker is wild"),
    ("ten-card-rummy", 4, "meld", ["2 2 2"], False, "Ten Card Rummy has no sets of 2s: a 2 is wild in a set"),
    ("ten-card-rummy", 4, "meld", ["JKR JKR 2S"], False, "no more wilds than naturals"),
    ("ten-card-rummy", 1, "first-down", ["2S 2H 2D"], False, "has no sets of 2s"),
    ("ten-pennies", 1, "first-down", ["2 2 2", "K K K"], True, ""),  # Ten Pennies: three 2s are a natural set
    # --- pennies-from-heaven: books and getting on the board ---
    ("pennies-from-heaven", 1, "meld", ["K K K"], True, ""),
    ("pennies-from-heaven", 1, "meld", ["K K"], False, "it needs at least 3"),
    ("pennies-from-heaven", 1, "meld", ["K K K K K K K K"], False, "a book holds 3 to 7"),
    ("pennies-from-heaven", 1, "meld", ["K K JKR"], True, ""),
    ("pennies-from-heaven", 1, "meld", ["K JKR JKR"], False, "each wild needs 2"),
    ("pennies-from-heaven", 1, "meld", ["K K K K 2 2"], True, ""),
    ("pennies-from-heaven", 1, "meld", ["K K K K K 2 2 2"], False, "a book holds 3 to 7"),
    ("pennies-from-heaven", 1, "meld", ["K K K K 2 2 JKR"], False, "a book allows 2"),
    ("pennies-from-heaven", 1, "meld", ["7 7 7 2"], False, "a wild card in a book of sevens"),
    ("pennies-from-heaven", 1, "meld", ["7 7 7 7 7 7 7"], True, ""),
    ("pennies-from-heaven", 1, "meld", ["2 2 JKR JKR 2 2 2"], True, ""),  # a wild book
    ("pennies-from-heaven", 1, "meld", ["3H 3D 3H"], False, "red threes are laid aside"),
    ("pennies-from-heaven", 1, "meld", ["3S 3C 3S"], False, "black threes cannot be melded"),
    ("pennies-from-heaven", 1, "meld", ["3 3 3"], False, "say whether it is a red or a black three"),
    ("pennies-from-heaven", 1, "meld", ["K K Q"], False, "it mixes K, Q"),
    ("pennies-from-heaven", 1, "first-down", ["K K K", "Q Q Q"], True, ""),  # 60 ≥ 50
    ("pennies-from-heaven", 1, "first-down", ["K K K", "5 5 5"], False, "worth 45 points; hand 1 needs 50"),
    ("pennies-from-heaven", 2, "first-down", ["K K K", "Q Q Q"], False, "hand 2 needs 90"),
    ("pennies-from-heaven", 3, "first-down", ["A A A A", "K K K K"], True, ""),  # 120
    ("pennies-from-heaven", 3, "first-down", ["A A A", "K K K K"], False, "worth 100 points; hand 3 needs 120"),
    # --- liverpool-rummy (docs/rules.md's sources: a set 3+, a run 4+ of one suit, aces high or low) ---
    ("liverpool-rummy", 1, "first-down", ["7H 7S 7C", "KD KS JKR"], True, ""),  # deal 1: two sets
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "3S 4S 5S 6S"], True, ""),  # "3, 4, 5 and 6 of spades"
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "3S 4S 5S"], False, "a run holds at least 4 cards"),
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "9D 9S 9C"], False, "needs exactly 1 set of 3 and 1 run of 4"),
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "JS QS KS AS"], True, ""),  # J Q K A: the ace high
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "AS 2S 3S 4S"], True, ""),  # A 2 3 4: the ace low
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "QS KS AS 2S"], False, "may not go round it (Q K A 2)"),
    ("liverpool-rummy", 2, "first-down", ["8H 8S 8C", "3S 4H 5S 6S"], False, "is not a run: a run is all one suit"),
    ("liverpool-rummy", 3, "first-down", ["3S 4S 5S 6S 7S", "9H 10H JKR QH"], True, ""),  # runs longer, a joker
    ("liverpool-rummy", 3, "first-down", ["3S 4S 5S 6S"], False, "needs exactly 2 runs of 4; 1 run was laid down"),
    ("liverpool-rummy", 4, "first-down", ["7 7 7", "K K K", "JKR JKR JKR"], False, "no sets of jokers"),
    ("liverpool-rummy", 5, "first-down", ["7 7 7", "K K K", "5H JKR JKR JKR"], True, ""),  # that one a run
    ("liverpool-rummy", 7, "first-down", ["AS 2S 3S 4S", "5H 6H 7H 8H", "JC QC KC AC"], True, ""),
    ("liverpool-rummy", 6, "first-down", ["7 7 7", "8 8 8", "AS 2S 3S 4S"], False, "2 sets and 1 run were laid down"),
    # "Once a player has gone down … he may not create any new sets or runs" (docs/rules.md, Liverpool [D])
    ("liverpool-rummy", 2, "meld", ["9 9 9"], False, "Liverpool Rummy has no new melds after going down"),
    # --- shanghai-rummy (docs/rules.md: "three Aces or three 5's … in ANY suit"; "5, 6, 7, 8 of clubs or a
    # 10, J, Q, K, A of spades"; 1 joker in a set of 3 or a sequence of 4, 2 in a sequence of 5) ---
    ("shanghai-rummy", 1, "first-down", ["AS AS AC", "5D 5C 5D"], True, ""),
    ("shanghai-rummy", 2, "first-down", ["AS AH JKR", "5C 6C 7C 8C"], True, ""),
    ("shanghai-rummy", 2, "first-down", ["A JKR JKR", "5C 6C 7C 8C"], False, "fewer wilds than naturals"),
    ("shanghai-rummy", 3, "first-down", ["10S JS QS KS AS", "5C JKR 7C 8C"], True, ""),
    ("shanghai-rummy", 3, "first-down", ["10S JS QS KS AS", "5C JKR JKR 8C"], False, "fewer wilds than naturals"),
    ("shanghai-rummy", 6, "first-down", ["7 7 7", "9 9 9", "3H JKR 5H JKR 7H"], True, ""),  # 2 jokers in 5
    ("shanghai-rummy", 5, "first-down", ["7 7 7", "3H 4H 5H 6H 7H 8H"], False, "asks for runs of at least 7"),
    ("shanghai-rummy", 2, "first-down", ["8H 8S 8C", "QS KS AS 2S"], False, "may not go round it (Q K A 2)"),
    # --- continental (docs/rules.md: tríos of 3+, escaleras of 4+ of one suit with no beginning or end,
    # "no se coloquen dos comodines consecutivos") ---
    ("continental", 2, "first-down", ["9H 9S 9C", "QS KS AS 2S"], True, ""),  # the ace between the K and the 2
    ("continental", 2, "first-down", ["9H 9S JKR", "5C JKR 7C JKR"], True, ""),  # the jokers apart
    ("continental", 2, "first-down", ["9H 9S 9C", "5C JKR JKR 8C"], False, "two wild cards side by side"),
    ("continental", 1, "first-down", ["9H JKR JKR", "4 4 4"], True, ""),  # no limit in a trío
    ("continental", 1, "first-down", ["JKR JKR JKR", "4 4 4"], False, "no sets of jokers"),
    ("continental", 3, "meld", ["9 9 9"], False, "Continental has no new melds after going down"),
]


@pytest.mark.parametrize("ruleset, number, stage, melds, valid, reason", CASES)
def test_meld_rules(rulesets, ruleset, number, stage, melds, valid, reason):
    result = verdict(rulesets, ruleset, number, melds, stage)
    assert result.valid is valid, result.reasons
    if valid:
        assert result.reasons == [] and len(result.arrangement) == len(melds)
    else:
        assert result.arrangement == []
        assert any(reason in r for r in result.reasons), result.reasons


# The issue: a reason states the rule first, then what in these cards breaks it; the likelier kind of
# meld (a run when the cards hold more ranks than copies of one) is answered first; a long meld is
# named by its ends and its size, so that its reason is not buried after a list of cards.
RULE_FIRST = [
    (
        "ten-card-rummy",
        5,
        "Q K A 2 3",
        "meld 1 (Q K A 2 3) is not a run: a run is all one suit, so give every card its suit; "
        "nor a set: a set is one rank plus wild cards, and 3, K and Q are neither A nor wild in round 5",
    ),
    (
        "ten-card-rummy",
        5,
        "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
        "meld 1 (A♠ 2♠ 3♠ … A♠, 14 cards) is not a run: a run holds at most 13 cards, one of each rank, and this "
        "one has 14; nor a set: a set is one rank plus wild cards, and 11 of its cards are neither A nor wild in round 5",  # noqa: E501
    ),
    (
        "ten-card-rummy",
        1,
        "K K Q",
        "meld 1 (K K Q) is not a set: a set is one rank plus wild cards, and Q is neither K nor wild in round 1; "
        "nor a run: a run is all one suit, so give every card its suit",
    ),
    (
        "ten-pennies",
        3,
        "Q K A 2 3",
        "meld 1 (Q K A 2 3) is not a set: a set is one rank plus wild cards, and 3, K and Q are neither A nor wild "
        "in round 3",
    ),
    (
        "ten-pennies",
        1,
        "3 4 5 6 7 8 9 10 J",
        "meld 1 (3 4 5 … J, 9 cards) is not a set: a set is one rank plus wild cards, and 8 of its cards are "
        "neither 3 nor wild in round 1",
    ),
]


@pytest.mark.parametrize("ruleset, number, meld, reason", RULE_FIRST)
def test_a_reason_states_the_rule_first(rulesets, ruleset, number, meld, reason):
    assert verdict(rulesets, ruleset, number, [meld], "meld").reasons == [reason]


def test_below_zero_a_side_needs_only_15(rulesets):
    assert not verdict(rulesets, "pennies-from-heaven", 2, ["4 4 4"]).valid
    assert verdict(rulesets, "pennies-from-heaven", 2, ["4 4 4"], side_score=-20).valid
    result = verdict(rulesets, "pennies-from-heaven", 2, ["4 4"], side_score=-20)
    assert not result.valid and "needs 15 to get on the board (the side is below zero)" in result.reasons[-1]


def test_every_failing_meld_is_named(rulesets):
    result = verdict(rulesets, "ten-pennies", 1, ["K K 2 2", "Q Q J"])
    assert len(result.reasons) == 2
    assert result.reasons[0].startswith("meld 1 (K K 2 2)") and result.reasons[1].startswith("meld 2 (Q Q J)")


LAYOFFS = [  # ruleset, round, onto, cards, valid, reason
    ("ten-pennies", 1, "K K K", "K", True, ""),
    ("ten-pennies", 1, "K K K", "K K 2", True, ""),
    ("ten-pennies", 1, "K K 2", "2 2 2 2", True, ""),  # wilds onto any set without limit
    ("ten-pennies", 1, "K K K", "Q", False, "Q cannot go onto a set of K"),
    ("ten-pennies", 1, "K K K", "JKR", False, "JKR cannot go onto a set of K"),  # jokers not wild in round 1
    ("ten-pennies", 5, "K K K", "JKR A", True, ""),
    ("ten-pennies", 1, "K Q J", "K", False, "is not a set"),
    ("ten-pennies-pcio", 5, "KH KS KD", "KC 2H AH", True, ""),
    ("ten-pennies-pcio", 5, "KH KS KD", "KH", False, "holds K♥ twice"),
    ("ten-card-rummy", 4, "5S 6S 7S", "8S", True, ""),
    ("ten-card-rummy", 4, "5S 6S 7S", "4S 3S", True, ""),
    ("ten-card-rummy", 4, "5S 6S 7S", "9S", False, "cannot go onto"),
    ("ten-card-rummy", 4, "5S 6S 7S", "8H", False, "cannot go onto"),
    ("ten-card-rummy", 4, "5S 6S 7S", "JKR", True, ""),
    ("ten-card-rummy", 4, "5S JKR 7S", "2D", True, ""),  # 2 wilds, 2 naturals: still no more wilds
    ("ten-card-rummy", 4, "5S JKR 7S", "2D JKR", False, "cannot go onto"),  # 3 wilds, 2 naturals
    ("ten-card-rummy", 4, "K K K", "K", True, ""),
    ("ten-card-rummy", 4, "K K JKR", "2", True, ""),
    ("ten-card-rummy", 4, "K K JKR", "2 JKR", False, "cannot go onto"),
    # RULES.md: a meld on the table keeps what it was; a wild between two naturals stands for the card between.
    ("ten-card-rummy", 4, "4S JKR 6S", "5S", False, "the joker stands for 5♠ in 4♠ JKR 6♠: a card can only extend"),
    ("ten-card-rummy", 4, "4S JKR 6S", "7S", True, ""),
    ("ten-card-rummy", 4, "4S JKR 6S", "3S 2S", True, ""),
    ("ten-card-rummy", 4, "4S 5S 6S", "5S", False, "4♠ 5♠ 6♠ already holds 5♠"),
    ("ten-card-rummy", 4, "2S 2H 2D", "3S", False, "is not a legal set or run: it takes no lay-off"),
    ("ten-card-rummy", 4, "KS KH KD", "QS", False, "cannot go onto a set of K"),
    ("ten-card-rummy", 4, "KS KH JKR", "KC", True, ""),
    ("pennies-from-heaven", 1, "K K K", "K 2", True, ""),
    ("pennies-from-heaven", 1, "7 7 7 7 7 7 7", "7", False, "is closed at 7"),
    ("pennies-from-heaven", 1, "7 7 7", "JKR", False, "book of sevens"),
    ("pennies-from-heaven", 1, "K K JKR", "2", False, "each wild needs 2"),
    # Liverpool Rummy: lay-offs onto a run at its ends, never past an ace; onto a set its rank or a joker.
    ("liverpool-rummy", 2, "JS QS KS AS", "10S", True, ""),
    ("liverpool-rummy", 2, "JS QS KS AS", "2S", False, "an ace ends a run"),
    ("liverpool-rummy", 2, "AS 2S 3S 4S", "KS", False, "an ace ends a run"),
    ("liverpool-rummy", 2, "3S 4S 5S 6S", "JKR 8S", True, ""),
    ("liverpool-rummy", 2, "8H 8S 8C", "JKR", True, ""),
    ("liverpool-rummy", 2, "8H 8S 8C", "9H", False, "cannot go onto a set of 8"),
    # Shanghai: the meld keeps fewer wilds than naturals; Continental: never two jokers side by side.
    ("shanghai-rummy", 3, "5C JKR 7C 8C", "JKR JKR", False, "fewer wilds than naturals"),  # 3 wilds, 3 naturals
    ("shanghai-rummy", 3, "5C JKR 7C 8C", "JKR", True, ""),  # 2 wilds, 3 naturals
    ("continental", 3, "5C 6C 7C 8C", "JKR JKR", True, ""),  # one at each end
    ("continental", 3, "5C 6C 7C 8C", "JKR JKR JKR", False, "no two wilds side by side"),
    ("continental", 3, "5C JKR 7C 8C", "JKR", True, ""),  # at the top end, apart from the other
    ("continental", 3, "KC AC 2C 3C", "QC", True, ""),  # an escalera passes the ace
]


@pytest.mark.parametrize("ruleset, number, onto, cards, valid, reason", LAYOFFS)
def test_layoffs(rulesets, ruleset, number, onto, cards, valid, reason):
    result = check_layoff(rulesets[ruleset], number, parse_hand(onto), parse_hand(cards))
    assert result.valid is valid, result.reasons
    if not valid:
        assert any(reason in r for r in result.reasons), result.reasons


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"ruleset": "ten-pennies", "round": 1, "stage": "first-down", "melds": ["7H 7S 2C", "KD KS KC"]}, 200, ""),
        ({"ruleset": "poker", "round": 1, "stage": "meld", "melds": ["K K K"]}, 400, "no ruleset 'poker'"),
        ({"ruleset": "ten-pennies", "round": 8, "stage": "meld", "melds": ["K K K"]}, 400, "rounds 1 to 7, not 8"),
        ({"ruleset": "ten-pennies", "round": 1, "stage": "meld", "melds": ["K K ZZ"]}, 400, "meld 1: card 3 ('ZZ')"),
        ({"ruleset": "ten-pennies", "round": 1, "stage": "dance", "melds": ["K K K"]}, 400, "stage 'dance'"),
        ({"ruleset": "ten-pennies", "round": 1, "stage": "layoff", "melds": ["K"]}, 400, "which meld on the table"),
        ({"ruleset": "ten-pennies-pcio", "round": 1, "stage": "meld", "melds": ["K K K"]}, 400, "needs a suit"),
        ({"ruleset": "ten-pennies", "round": "1", "stage": "meld", "melds": ["K K K"]}, 400, "'round' must be"),
        ({"ruleset": "ten-pennies", "round": 1, "stage": "hand", "melds": ["K K", "2"]}, 400, "one line"),
    ],
)
def test_meld_check_api(client, body, status, words):
    response = client.post("/api/melds/check", json=body)
    assert response.status_code == status
    data = response.get_json()
    if status == 200:
        # Round 1 of Ten Pennies: 2s wild, at most 1 a set; the 2 of clubs makes the 7s a set of 3.
        assert data == {
            "valid": True,
            "reasons": [],
            "arrangement": ["7♥ 7♠ 2♣: set of 3 × 7 with 1 wild", "K♦ K♠ K♣: set of 3 × K"],
        }
    else:
        assert words in data["error"]


def test_hand_question_answers_with_an_arrangement(client):
    body = {"ruleset": "ten-pennies", "round": 1, "stage": "hand", "melds": ["K K 2 7 7 7 3 4 5 6 9"]}
    data = client.post("/api/melds/check", json=body).get_json()
    assert data["valid"] and sorted(data["arrangement"]) == ["7 7 7: set of 3 × 7", "K K 2: set of 3 × K with 1 wild"]
    body["melds"] = ["K K 7 7 2 3 9 Q J 4 5"]
    data = client.post("/api/melds/check", json=body).get_json()
    assert not data["valid"] and "no arrangement of these 11 cards (1 wild) makes 2 sets of 3" in data["reasons"][0]


def test_meld_checker_page(client):
    page = client.get("/melds?ruleset=ten-pennies&round=1").text
    assert "2 sets of 3" in page and "Check" in page and "Legal" not in page
    page = client.get("/melds?ruleset=ten-pennies&round=1&stage=first-down&melds-0=K+K+2+2&melds-1=7+7+7").text
    assert "✘ Not legal" in page and "meld 1 (K K 2 2) has 2 wild cards; round 1 allows 1" in page
    assert 'value="K K 2 2"' in page
    response = client.get("/melds?ruleset=ten-pennies&round=1&stage=first-down&melds-0=K+K+Q9")
    assert response.status_code == 400 and "card 3 (&#39;Q9&#39;) is not a card" in response.text


def test_three_jokers_do_not_make_a_ten_card_rummy_contract(rulesets):
    from scorekeeper.rules.contract import find_contract

    assert not find_contract(rulesets["ten-card-rummy"], 1, parse_hand("JKR JKR JKR 9S 4H")).valid
    assert not find_contract(rulesets["ten-card-rummy"], 1, parse_hand("2 2 2 9S")).valid
    assert find_contract(rulesets["ten-card-rummy"], 1, parse_hand("JKR K K 9S")).valid


def test_the_meld_checker_states_each_game_s_own_wild_rule(client):
    pfh = client.get("/melds?ruleset=pennies-from-heaven&round=1").text
    assert "at most 2 wilds in a book, each with 2 naturals; none in a book of sevens" in pfh
    assert "no more wilds than natural cards" not in pfh
    assert "Does this hand make the contract?" not in pfh  # Pennies From Heaven has no contract to search for
    tp = client.get("/melds?ruleset=ten-pennies&round=1").text
    assert "at most 1 wild per set" in tp and "Does this hand make the contract?" in tp


def test_the_checker_answers_the_question_asked(client):
    """Issue 40: "Does this hand make the contract?" is answered in those words, not "Legal"."""
    asked = "/melds?ruleset=ten-pennies&round=1&stage=hand&melds-0="
    assert "✔ Makes the contract" in client.get(asked + "7+7+7+K+K+2").text
    assert "✘ Does not make the contract" in client.get(asked + "7+7+K+Q+J+9").text
    assert "✔ Legal" in client.get("/melds?ruleset=ten-pennies&round=1&stage=meld&melds-0=7+7+7").text
