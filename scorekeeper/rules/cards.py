"""Cards and the card notation of docs/rules.md.

A hand is typed as tokens separated by spaces and/or commas, case-insensitive:
a rank (``A``, ``2``..``10``, ``T``, ``J``, ``Q``, ``K``) with an optional suit
(``S H D C`` or a suit symbol), or a joker (``JKR``, ``JK``, ``JOKER``, ``*``).

>>> parse_hand("10h, qs K♠ jkr")
(Card(rank=Rank.TEN, suit=Suit.HEARTS), ...)
>>> format_hand(parse_hand("10h qs"))
'10H QS'
"""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass, field


class CardError(ValueError):
    """A token that is not a card (or a card that lacks a suit a rule needs)."""

    def __init__(self, message: str, token: str, position: int) -> None:
        super().__init__(message)
        self.token = token
        self.position = position


class Rank(enum.IntEnum):
    """Card ranks in run order (ace low); the joker sorts last."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    JOKER = 14

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @classmethod
    def from_label(cls, label: str) -> Rank:
        """The rank for a label of the notation ("A", "10", "T", "JKR", ...)."""
        try:
            return _LABEL_RANKS[label.upper()]
        except KeyError:
            raise ValueError(f"unknown rank {label!r}") from None


_RANK_LABELS = {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.JOKER: "JKR",
    **{Rank(n): str(n) for n in range(2, 11)},
}
_LABEL_RANKS = {label: rank for rank, label in _RANK_LABELS.items()}
_LABEL_RANKS.update({"T": Rank.TEN, "JK": Rank.JOKER, "JOKER": Rank.JOKER, "*": Rank.JOKER})

#: Every rank but the joker, in run order.
NATURAL_RANKS = tuple(rank for rank in Rank if rank is not Rank.JOKER)


class Suit(enum.Enum):
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


_SUIT_ORDER = list(Suit)
_SPOKEN_RANKS = {
    rank: word
    for rank, word in zip(
        list(Rank),
        "ace two three four five six seven eight nine ten jack queen king joker".split(),
        strict=True,
    )
}
_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_BY_CHAR = {
    **{suit.value: suit for suit in Suit},
    **{symbol: suit for suit, symbol in _SUIT_SYMBOLS.items()},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}

_TOKEN = re.compile(r"^(10|[2-9AJQKT])([SHDC♠♥♦♣♤♡♢♧])?$")
_JOKERS = frozenset({"JKR", "JK", "JOKER", "*"})
_SEPARATORS = re.compile(r"[\s,]+")


@functools.total_ordering
@dataclass(frozen=True, eq=False)
class Card:
    """One card; ``suit`` is None where the scorekeeper typed no suit (and for jokers)."""

    rank: Rank
    suit: Suit | None = None

    def __post_init__(self) -> None:
        if self.rank is Rank.JOKER and self.suit is not None:
            raise ValueError("a joker has no suit")
        # Cards are counted in Counters all through the contract search: hash them once.
        object.__setattr__(self, "_key", (int(self.rank), self.suit.value if self.suit else ""))
        object.__setattr__(self, "_hash", hash(self._key))

    _key: tuple[int, str] = field(init=False, repr=False, compare=False)
    _hash: int = field(init=False, repr=False, compare=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self._key == other._key

    def __hash__(self) -> int:
        return self._hash

    @property
    def is_joker(self) -> bool:
        return self.rank is Rank.JOKER

    def sort_key(self) -> tuple[int, int]:
        """Rank first, then suit (S H D C; a card typed without a suit first)."""
        return (self.rank.value, _SUIT_ORDER.index(self.suit) if self.suit else -1)

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    @classmethod
    def parse(cls, token: str, position: int = 1) -> Card:
        """Parse one token of the notation; ``position`` (1-based) goes into the error."""
        card = _card_for(token.strip().upper())
        if card is None:
            raise CardError(f"card {position} ({token!r}) is not a card", token, position)
        return card

    def __str__(self) -> str:
        return self.rank.label + (self.suit.value if self.suit else "")

    def pretty(self) -> str:
        """The card as printed for people: ``10♥``, ``K``, ``JKR``."""
        return self.rank.label + (self.suit.symbol if self.suit else "")

    def spoken(self) -> str:
        """The card as said aloud (a screen reader's words): "queen of hearts", "seven", "joker"."""
        rank = _SPOKEN_RANKS[self.rank]
        return f"{rank} of {self.suit.name.lower()}" if self.suit else rank


@functools.lru_cache(maxsize=512)
def _card_for(text: str) -> Card | None:
    """The card an upper-cased token names, or None. Cached: cards are immutable values and a
    game's hands are parsed again every time it is loaded."""
    if text in _JOKERS:
        return Card(Rank.JOKER)
    match = _TOKEN.match(text)
    if match is None:
        return None
    rank_text, suit_text = match.groups()
    return Card(Rank.from_label(rank_text), _SUIT_BY_CHAR[suit_text] if suit_text else None)


def tokens(text: str) -> list[str]:
    """Split typed notation into tokens; an empty or blank string has none."""
    return [token for token in _SEPARATORS.split(text.strip()) if token]


def parse_hand(text: str, *, require_suits: bool = False) -> tuple[Card, ...]:
    """Parse a hand or meld; raise CardError naming the first bad token and its position."""
    cards = []
    for position, token in enumerate(tokens(text), start=1):
        card = Card.parse(token, position)
        if require_suits and card.suit is None and not card.is_joker:
            raise CardError(f"card {position} ({token!r}) needs a suit here, e.g. {token}H", token, position)
        cards.append(card)
    return tuple(cards)


def format_hand(cards: tuple[Card, ...] | list[Card], *, pretty: bool = False) -> str:
    """The canonical notation of a hand: ``parse_hand(format_hand(h)) == h``."""
    return " ".join(card.pretty() if pretty else str(card) for card in cards)
