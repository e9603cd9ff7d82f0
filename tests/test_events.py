"""The stored event format: every kind of entry, written and read back, is the same entry."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.reads.events import EventFormatError, event_from_payload, event_payload
from scorekeeper.rules.books import BOOK_KINDS, SideEntry
from scorekeeper.rules.cards import Card, Rank, Suit
from scorekeeper.rules.game import Buy, HandRecord, RoundRecord, Void

cards = st.lists(
    st.builds(Card, st.sampled_from([r for r in Rank if r is not Rank.JOKER]), st.none() | st.sampled_from(Suit))
    | st.just(Card(Rank.JOKER)),
    max_size=15,
).map(tuple)
names = st.text(min_size=1, max_size=40)  # apostrophes, "&", commas, quotes, any script
ids, rounds, counts = st.integers(1, 2**31), st.integers(1, 11), st.integers(0, 99)

buys = st.builds(Buy, ids, rounds, names)
round_records = st.builds(RoundRecord, ids, rounds, names, st.dictionaries(names, cards, max_size=8), st.booleans())
voids = st.builds(Void, ids, ids)


@st.composite
def side_entries(draw):
    players = tuple(draw(st.lists(names, min_size=1, max_size=4, unique=True)))
    melded_as_cards = draw(st.booleans())
    return SideEntry(
        players=players,
        red_threes=draw(counts),
        books={kind: draw(counts) for kind in BOOK_KINDS},
        melded=draw(cards) if melded_as_cards else None,
        melded_points=None if melded_as_cards else draw(st.none() | counts),
        hands={name: draw(cards) for name in players if draw(st.booleans())},
        piles={name: draw(cards) for name in players if draw(st.booleans())},
        hand_points={name: draw(counts) for name in players if draw(st.booleans())},
        pile_points={name: draw(st.integers(0, 2000)) for name in players if draw(st.booleans())},
    )


hand_records = st.builds(HandRecord, ids, rounds, st.none() | names, st.lists(side_entries(), max_size=4).map(tuple))


@given(buys | round_records | hand_records | voids)
def test_every_event_reads_back_as_written(event):
    kind, payload = event_payload(event)
    stored = json.loads(json.dumps(payload, sort_keys=True))  # as the store keeps it
    assert event_from_payload(event.id, kind, stored) == event


@pytest.mark.parametrize(
    "kind, payload, message",
    [
        ("bet", {"round": 1}, "'bet' is not a kind of entry"),
        ("buy", {"round": 1}, "entry 7 \\(buy\\): KeyError\\('player'\\)"),
        ("round", {"round": 1, "went_out": "Ann", "caught": ["K"]}, "entry 7 \\(round\\)"),
    ],
)
def test_a_malformed_stored_event_is_named(kind, payload, message):
    with pytest.raises(EventFormatError, match=message):
        event_from_payload(7, kind, payload)


def test_a_round_gone_down_and_out_at_once_says_so_and_no_other_round_changes():
    """Continental's bonus (docs/rules.md): kept as "at_once" in the entry, and only there, so every
    entry stored before it was known reads and writes as it did."""
    caught = {"Bob": (Card(Rank.KING),)}
    assert event_payload(RoundRecord(7, 2, "Ann", caught)) == (
        "round",
        {"round": 2, "went_out": "Ann", "caught": {"Bob": "K"}},
    )
    kind, payload = event_payload(RoundRecord(7, 2, "Ann", caught, at_once=True))
    read = event_from_payload(7, kind, payload)
    assert payload["at_once"] is True and isinstance(read, RoundRecord) and read.at_once
    with pytest.raises(EventFormatError, match="at_once must be true or false"):
        event_from_payload(7, "round", {**payload, "at_once": 1})


def test_who_cut_the_deck_exactly_is_kept_in_the_entry_and_only_there():
    """Liverpool's and Carioca's cut (docs/rules.md): "cut_exactly" in the entry only where said."""
    caught = {"Bob": (Card(Rank.KING),)}
    kind, payload = event_payload(RoundRecord(7, 2, "Ann", caught, cut_exactly="Bob"))
    assert payload == {"round": 2, "went_out": "Ann", "caught": {"Bob": "K"}, "cut_exactly": "Bob"}
    read = event_from_payload(7, kind, payload)
    assert isinstance(read, RoundRecord) and read.cut_exactly == "Bob" and not read.at_once
    with pytest.raises(EventFormatError, match="cut_exactly"):
        event_from_payload(7, "round", {**payload, "cut_exactly": 3})
