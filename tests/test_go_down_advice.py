"""Advice that obeys the round (issue 58): "'8 8 and 2 wilds would do' in a round allowing 1 wild per set,
'6 6 and 2 wilds' for a set of 5. The yes/no verdicts were all right." Every "would do" names a meld
that the meld checker reads as legal under the round (its size, its wild limits), with the rest of the
hand making the contract's other melds: a property test over random hands and house rounds."""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from scorekeeper.reads.catalog import load_catalog
from scorekeeper.rules.cards import Card, Rank, Suit, parse_hand
from scorekeeper.rules.contract import Budget, arrangement
from scorekeeper.rules.go_down import _cards_of, can_go_down
from scorekeeper.rules.melds import Stage, read_meld
from scorekeeper.rules.rulesets import Ruleset

SHIPPED = load_catalog(None).rulesets


def house_round(ruleset_id: str, number: int, **changes: Any) -> Ruleset:
    """A ruleset of one round: the shipped round ``number`` with some of its limits changed."""
    ruleset = SHIPPED[ruleset_id]
    return dataclasses.replace(ruleset, rounds=(dataclasses.replace(ruleset.rounds[number - 1], **changes),))


def test_one_wild_a_set_is_never_advised_as_two():
    """Ten Pennies round 4 (a set of 5) as a house plays it with one wild card a set."""
    house = house_round("ten-pennies", 4, wild_limit=1)
    answer = can_go_down(house, 1, parse_hand("8S 8H K Q 4"))
    assert answer.missing == "you need 1 more set of 5: 8♠ 8♥ and 3 more 8s would do"
    assert "wilds" not in answer.missing


def test_a_set_of_five_is_advised_as_five_cards_naming_the_wild_held():
    """Ten Pennies round 4: a set of 5, 2s wild, at most 2 a set. Holding 6 6 and a 2, two more wilds
    would be three: two more 6s it is, and the 2 held is named."""
    answer = can_go_down(SHIPPED["ten-pennies"], 4, parse_hand("6S 6H 2C K Q"))
    assert answer.missing == "you need 1 more set of 5: 6♠ 6♥ 2♣ and 2 more 6s would do"


ROUNDS = [
    house_round("ten-pennies", 4, wild_limit=1),
    house_round("ten-pennies", 5, wild_limit=1),
    house_round("ten-pennies", 2, wild_limit_per_kind=1),
    house_round("ten-pennies-pcio", 5),
    house_round("ten-card-rummy", 4),
    house_round("ten-pennies", 1),
]
POOL = [Card(rank, suit) for rank in (Rank.SIX, Rank.EIGHT, Rank.KING, Rank.TWO, Rank.ACE) for suit in Suit]
POOL += [Card(Rank.JOKER, None)] * 3


@settings(max_examples=examples(300), deadline=None)
@given(st.sampled_from(range(len(ROUNDS))), st.lists(st.sampled_from(POOL), min_size=2, max_size=12))
def test_every_would_do_names_a_meld_the_meld_checker_reads_as_legal(which, hand):
    ruleset = ROUNDS[which]
    answer = can_go_down(ruleset, 1, hand)
    if answer.makes_contract or answer.suggested is None:
        return
    rule = ruleset.round(1)
    assert rule.contract is not None
    suggested = answer.suggested
    for naturals, wild_cards in suggested.ways:
        wild = Rank.JOKER if Rank.JOKER in rule.wilds else min(rule.wilds, key=lambda r: r.value)
        added = _cards_of(suggested.rank, naturals, Counter(hand)) + _cards_of(wild, wild_cards, Counter(hand))
        meld = [*suggested.held, *added]
        assert len(meld) == rule.contract.size, (answer.missing, meld)
        reading, why = read_meld(ruleset, rule, meld, Stage.FIRST_DOWN, rule.contract.size)
        assert reading is not None, (answer.missing, meld, why)
        assert not Counter(suggested.held) - Counter(hand)  # only cards the hand holds
        rest = list((Counter(hand) - Counter(suggested.held)).elements())
        made = len(answer.arrangement)  # the melds the hand makes already, besides the one advised
        if made:
            assert arrangement(ruleset, 1, rest, made, Budget()) is not None, (answer.missing, rest)
