"""The card notation of RULES.md, token by token."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.cards import Card, CardError, Rank, Suit, format_hand, parse_hand

VALID = [
    ("", ()),
    ("   ", ()),
    ("A", (Card(Rank.ACE),)),
    ("10h", (Card(Rank.TEN, Suit.HEARTS),)),
    ("T", (Card(Rank.TEN),)),
    ("qs", (Card(Rank.QUEEN, Suit.SPADES),)),
    ("K♠", (Card(Rank.KING, Suit.SPADES),)),
    ("2c", (Card(Rank.TWO, Suit.CLUBS),)),
    (
        "3♡ 4♢ 5♧ 6♤",
        (
            Card(Rank.THREE, Suit.HEARTS),
            Card(Rank.FOUR, Suit.DIAMONDS),
            Card(Rank.FIVE, Suit.CLUBS),
            Card(Rank.SIX, Suit.SPADES),
        ),
    ),
    ("JKR jk Joker *", (Card(Rank.JOKER),) * 4),
    ("K,7 ,, 7  2", (Card(Rank.KING), Card(Rank.SEVEN), Card(Rank.SEVEN), Card(Rank.TWO))),
    ("js", (Card(Rank.JACK, Suit.SPADES),)),
]


@pytest.mark.parametrize("text, cards", VALID)
def test_parses_the_notation(text: str, cards: tuple[Card, ...]) -> None:
    assert parse_hand(text) == cards


INVALID = [
    ("K 7 X2", "X2", 3),
    ("1", "1", 1),
    ("11", "11", 1),
    ("KX", "KX", 1),
    ("A 2 3 JKRH", "JKRH", 4),
    ("10HH", "10HH", 1),
    ("<script>", "<script>", 1),
]


@pytest.mark.parametrize("text, token, position", INVALID)
def test_bad_token_is_named_with_its_position(text: str, token: str, position: int) -> None:
    with pytest.raises(CardError) as caught:
        parse_hand(text)
    assert caught.value.token == token
    assert caught.value.position == position
    assert repr(token) in str(caught.value) and f"card {position}" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_suit_required_where_a_rule_needs_it() -> None:
    assert parse_hand("KH JKR", require_suits=True) == (Card(Rank.KING, Suit.HEARTS), Card(Rank.JOKER))
    with pytest.raises(CardError, match="card 2 .* needs a suit"):
        parse_hand("KH 7", require_suits=True)


def test_pretty_format_uses_suit_symbols() -> None:
    assert format_hand(parse_hand("10h ks jkr 4"), pretty=True) == "10♥ K♠ JKR 4"


cards = st.builds(
    Card, st.sampled_from([r for r in Rank if r is not Rank.JOKER]), st.one_of(st.none(), st.sampled_from(Suit))
) | st.just(Card(Rank.JOKER))


@given(st.lists(cards, max_size=30))
def test_format_parse_round_trip(hand: list[Card]) -> None:
    assert parse_hand(format_hand(hand)) == tuple(hand)
    assert parse_hand(format_hand(hand, pretty=True)) == tuple(hand)


@given(st.text(max_size=40))
def test_any_text_parses_or_raises_card_error(text: str) -> None:
    try:
        parse_hand(text)
    except CardError as error:
        assert error.token in text
