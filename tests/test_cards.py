"""The card notation of RULES.md, token by token."""

import re

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


def test_a_suitless_card_in_a_game_of_suits_is_named(rulesets):
    from scorekeeper.rules.melds import Stage, Verdict, check_melds

    verdict = check_melds(rulesets["ten-pennies-pcio"], 1, [parse_hand("KS K KD")], Stage.MELD)
    assert verdict == Verdict(False, ["meld 1 (K♠ K K♦) needs a suit on K"])


@pytest.mark.parametrize(
    "decks, hands, said",
    [
        (1, "KS KH KD KC K", "the hands hold 5 × K, but 1 deck holds only 4"),
        (2, "K K K K K K K K K", "the hands hold 9 × K, but 2 decks hold only 8"),
        (1, "KS KS", "the hands hold 2 × K♠, but 1 deck holds only 1"),
        (2, "KS KS KS", "the hands hold 3 × K♠, but 2 decks hold only 2"),
    ],
)
def test_more_of_a_card_than_the_decks_hold_is_refused_in_words(rulesets, decks, hands, said):
    from scorekeeper.rules.scoring import RoundError, check_deck_supply

    with pytest.raises(RoundError, match=f"^{re.escape(said)}$"):
        check_deck_supply(rulesets["ten-pennies"], decks, {"Bob": parse_hand(hands)})


def test_as_many_of_a_card_as_the_decks_hold_is_accepted(rulesets):
    from scorekeeper.rules.scoring import check_deck_supply

    check_deck_supply(rulesets["ten-pennies"], 2, {"Bob": parse_hand("KS KS"), "Cy": parse_hand("K K K K K K")})


def test_one_card_parsed_alone_is_card_1_in_its_error():
    from scorekeeper.rules.cards import Card, CardError

    with pytest.raises(CardError, match=r"^card 1 \('ZZ'\) is not a card$"):
        Card.parse("ZZ")


def test_a_card_without_the_suit_a_rule_needs_names_the_token_and_its_place():
    from scorekeeper.rules.cards import CardError, parse_hand

    with pytest.raises(CardError) as refused:
        parse_hand("KS 7 QH", require_suits=True)
    assert (str(refused.value), refused.value.token, refused.value.position) == (
        "card 2 ('7') needs a suit here, e.g. 7H",
        "7",
        2,
    )


def test_a_hand_is_written_in_the_notation_unless_asked_for_suit_symbols():
    from scorekeeper.rules.cards import format_hand

    hand = parse_hand("10h ks jkr 7")
    assert format_hand(hand) == "10H KS JKR 7"
    assert parse_hand(format_hand(hand)) == hand
    assert format_hand(hand, pretty=True) == "10♥ K♠ JKR 7"


def test_an_unknown_rank_is_quoted():
    from scorekeeper.rules.cards import Rank

    with pytest.raises(ValueError, match=r"^unknown rank 'Z'$"):
        Rank.from_label("Z")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("QH", "queen of hearts"),
        ("10D", "ten of diamonds"),
        ("AS", "ace of spades"),
        ("7", "seven"),
        ("JKR", "joker"),
        ("2C", "two of clubs"),
    ],
)
def test_every_card_has_a_spoken_name(text: str, said: str) -> None:
    """Issue 60: cards were read "K black diamond suit" or "K D", never "king of diamonds"."""
    (card,) = parse_hand(text)
    assert card.spoken() == said
