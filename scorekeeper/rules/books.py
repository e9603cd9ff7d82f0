"""Scoring a hand of Pennies From Heaven, side by side (docs/rules.md, ``pennies-from-heaven``).

A side's hand score = going-out bonus + red threes + closed books + melded card values
− cards left in hand (− piles, for a side caught off the board when another side went out).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .cards import Card, Rank
from .rulesets import BookRule, Ruleset
from .scoring import RoundError
from .wording import listed, plural

BOOK_KINDS = ("natural", "mixed", "sevens", "wild")
BOOK_SIZE = 7


@dataclass(frozen=True)
class SideEntry:
    """What the scorekeeper enters for one side at the end of a hand."""

    players: tuple[str, ...]
    red_threes: int = 0
    books: Mapping[str, int] = field(default_factory=dict)
    melded: tuple[Card, ...] | None = None  # the cards melded, or ...
    melded_points: int | None = None  # ... just their points total
    hands: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    piles: Mapping[str, tuple[Card, ...]] = field(default_factory=dict)
    # ... or the points the table counted for a hand or a pile (black-3 penalties included): counting a
    # 15-card pile card by card is what tables avoid (docs/rules.md)
    hand_points: Mapping[str, int] = field(default_factory=dict)
    pile_points: Mapping[str, int] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return side_name(self.players)

    @property
    def on_board(self) -> bool:
        """A side that melded anything got on the board."""
        return bool(sum(self.books.values()) or self.melded or self.melded_points)


@dataclass(frozen=True)
class SideResult:
    points: int  # the side's hand score (named like a contract game's so totals work the same)
    bonus: int
    melded: int
    deducted: int
    books: Mapping[str, int]
    red_threes: int
    went_out: bool
    pennies: int = 0
    penalty: int = 0
    cards: tuple[Card, ...] = ()


def side_name(players: Iterable[str]) -> str:
    return " & ".join(players)


def card_value(ruleset: Ruleset, card: Card, books: BookRule, in_hand: bool) -> int:
    """Black threes cost 100 in hand; red threes are not cards at all."""
    if card.rank is Rank.THREE:
        if card.suit is None:
            raise RoundError("a 3 needs its suit here: say whether it is a red or a black three")
        return books.black_three_in_hand if (in_hand and not card.suit.is_red) else 0
    return ruleset.points[card.rank]


def book_bonus(books: BookRule, counts: Mapping[str, int]) -> int:
    values = {"natural": books.natural, "mixed": books.mixed, "sevens": books.sevens, "wild": books.wild}
    return sum(values[kind] * counts.get(kind, 0) for kind in BOOK_KINDS)


def red_three_bonus(books: BookRule, count: int) -> int:
    each = books.red_three_many if count >= books.red_three_many_from else books.red_three
    return each * count


def board_minimum(ruleset: Ruleset, hand_number: int, side_total: int) -> int:
    """Points needed to get on the board this hand: 15 for a side below zero."""
    books = ruleset.books
    rule = ruleset.round(hand_number)
    assert books is not None and rule.board_minimum is not None
    return books.board_minimum_below_zero if side_total < 0 else rule.board_minimum


def score_hand(
    ruleset: Ruleset,
    hand_number: int,
    sides: tuple[SideEntry, ...],
    went_out: str | None,
    totals_before: Mapping[str, int],
) -> dict[str, SideResult]:
    """Check one hand's entries and score every side."""
    books = ruleset.books
    assert books is not None
    out_side = next((side for side in sides if went_out in side.players), None)
    if went_out is not None and out_side is None:
        raise RoundError(f"{went_out!r} is not playing in this game")
    someone_out = out_side is not None
    results = {}
    for side in sides:
        _check_side(ruleset, hand_number, side, side is out_side, someone_out, totals_before.get(side.name, 0))
        results[side.name] = _score_side(ruleset, books, side, side is out_side)
    return results


def _check_side(
    ruleset: Ruleset, hand_number: int, side: SideEntry, went_out: bool, someone_out: bool, total: int
) -> None:
    name = side.name
    if side.red_threes < 0 or any(count < 0 for count in side.books.values()):
        raise RoundError(f"{name}: counts of red threes and books cannot be negative", side.players[0])
    unknown = set(side.books) - set(BOOK_KINDS)
    if unknown:
        what = "is not a kind" if len(unknown) == 1 else "are not kinds"
        raise RoundError(f"{name}: {listed(sorted(unknown))} {what} of book ({', '.join(BOOK_KINDS)})", side.players[0])
    if side.melded is not None and side.melded_points is not None:
        raise RoundError(f"{name}: give the melded cards or their points total, not both", side.players[0])
    if side.melded_points is not None and side.melded_points < 0:
        raise RoundError(f"{name}: melded points cannot be negative", side.players[0])
    melded = side.melded or ()
    threes = [card for card in melded if card.rank is Rank.THREE]
    if any(card.suit is None or not card.suit.is_red for card in threes):
        raise RoundError(f"{name}: black threes cannot be melded — take them out of the melded cards", side.players[0])
    if threes:
        raise RoundError(f"{name}: red threes are not melded — count them under red threes", side.players[0])
    closed = sum(side.books.values())
    if side.melded is not None and len(melded) < BOOK_SIZE * closed:
        raise RoundError(
            f"{name}: {plural(closed, 'closed book')} need at least {BOOK_SIZE * closed} melded cards; "
            f"{len(melded)} were entered",
            side.players[0],
        )
    if went_out:
        _check_going_out(side)
    for player in side.players:
        if went_out and (side.hands.get(player) or side.hand_points.get(player)):
            raise RoundError(f"{name} went out, so {player} discards what is left: enter no cards for {player}", player)
        for what, cards, counted in (("hand", side.hands, side.hand_points), ("pile", side.piles, side.pile_points)):
            if cards.get(player) and player in counted:
                raise RoundError(f"{player}'s {what}: give its cards or its points, not both", player)
            if counted.get(player, 0) < 0:
                raise RoundError(f"{player}'s {what}: points counted cannot be negative", player)
    if side.on_board:
        needed = board_minimum(ruleset, hand_number, total)
        points = _melded_points(ruleset, side)
        if points < needed:
            raise RoundError(
                f"{name} melded {points} points, but getting on the board in hand {hand_number} takes {needed}",
                side.players[0],
            )
    piles_given = any(side.piles.get(player) or player in side.pile_points for player in side.players)
    caught_off_board = someone_out and not went_out and not side.on_board
    if piles_given and not caught_off_board:
        raise RoundError(
            f"{name}: piles count only against a side caught off the board when another side goes out",
            side.players[0],
        )
    if caught_off_board:
        _check_piles(ruleset, side)


def _check_going_out(side: SideEntry) -> None:
    """Going out takes the side's book of sevens and wild book, and the player's pile picked up,
    which is allowed only after the side's first natural (red) book."""
    needed = {"natural": "a natural (red) book", "sevens": "a book of sevens", "wild": "a wild book"}
    missing = [words for kind, words in needed.items() if not side.books.get(kind)]
    if missing:
        pile = " (no pile can be picked up before the first natural book)" if not side.books.get("natural") else ""
        raise RoundError(f"{side.name} cannot go out without {' and '.join(missing)}{pile}", side.players[0])


def _check_piles(ruleset: Ruleset, side: SideEntry) -> None:
    """A side caught off the board when another goes out counts its piles: each one is entered,
    as its cards (never picked up, it holds them all) or as the points counted."""
    for player in side.players:
        if player in side.pile_points:
            continue
        cards = side.piles.get(player, ())
        if not cards:
            raise RoundError(
                f"enter {player}'s pile: {side.name} is caught off the board, so its piles count against it "
                f"({ruleset.pile_size} cards, or the points counted)",
                player,
                "pile",
            )
        if len(cards) != ruleset.pile_size:
            raise RoundError(
                f"{player}'s pile holds {ruleset.pile_size} cards (never picked up); {len(cards)} were entered "
                "— or enter the points counted",
                player,
                "pile",
            )


def _melded_points(ruleset: Ruleset, side: SideEntry) -> int:
    books = ruleset.books
    assert books is not None
    if side.melded_points is not None:
        return side.melded_points
    return sum(card_value(ruleset, card, books, in_hand=False) for card in side.melded or ())


def score_as_entered(ruleset: Ruleset, side: SideEntry, went_out: bool) -> SideResult | None:
    """A side's score from what is entered so far, before the whole hand passes its checks (the
    form's live total); None while a card cannot be valued yet (a 3 without its suit)."""
    books = ruleset.books
    assert books is not None
    try:
        return _score_side(ruleset, books, side, went_out)
    except RoundError:
        return None


def _score_side(ruleset: Ruleset, books: BookRule, side: SideEntry, went_out: bool) -> SideResult:
    bonus = (
        (books.going_out if went_out else 0) + red_three_bonus(books, side.red_threes) + book_bonus(books, side.books)
    )
    left = [card for player in side.players for card in side.hands.get(player, ())]
    piles = [card for player in side.players for card in side.piles.get(player, ())]
    counted = sum(side.hand_points.values()) + sum(side.pile_points.values())
    deducted = sum(card_value(ruleset, card, books, in_hand=True) for card in (*left, *piles)) + counted
    melded = _melded_points(ruleset, side)
    return SideResult(
        points=bonus + melded - deducted,
        bonus=bonus,
        melded=melded,
        deducted=deducted,
        books={kind: side.books.get(kind, 0) for kind in BOOK_KINDS},
        red_threes=side.red_threes,
        went_out=went_out,
        cards=tuple(left),
    )
