""" "Can I go down with these?": a player's own question about their hand, answered privately on their
phone. In a contract game: an arrangement that makes the round's contract, or how far the hand gets
and what would complete it ("you need 1 more set of 3: 7♠ 7♥ and one more 7 or a wild would do"),
every hint checked by the same search before it is said. In a game by sides: the books the hand
makes and whether their cards reach the hand's board minimum.

Nothing here is stored or scored: it reads a hand and answers.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import Card, Rank, Suit
from .contract import Budget, Found, arrangement
from .melds import label
from .rulesets import BookRule, Ruleset
from .wording import plural


@dataclass(frozen=True)
class GoDownAnswer:
    makes_contract: bool
    arrangement: tuple[str, ...]  # the melds, each as "7♠ 7♥ 7♦: set of 3 × 7"
    missing: str  # what the hand still needs, in words ("" when it makes the contract)

    def to_json(self) -> dict[str, object]:
        return {"makes_contract": self.makes_contract, "arrangement": list(self.arrangement), "missing": self.missing}


def can_go_down(ruleset: Ruleset, round_number: int, hand: Sequence[Card]) -> GoDownAnswer:
    if ruleset.books is not None:
        return on_the_board(ruleset, ruleset.books, round_number, hand)
    budget = Budget()  # the question's: every search below, the hint's too, spends from it
    found = arrangement(ruleset, round_number, hand, budget=budget)
    if found is not None:
        return GoDownAnswer(True, _described(found), "")
    contract = ruleset.round(round_number).contract
    assert contract is not None  # a game with no contract is played by sides
    made: Found = ()
    for melds in range(contract.melds - 1, 0, -1):
        part = arrangement(ruleset, round_number, hand, melds, budget)
        if part is not None:
            made = part
            break
    short = contract.melds - len(made)
    noun = "set" if contract.kinds == ("set",) else "meld"
    missing = f"you need {plural(short, 'more ' + noun)} of {contract.size}"
    left = Counter(hand) - Counter(card for cards, _ in made for card in cards)
    hint = _hint(ruleset, round_number, hand, left, contract.size, len(made) + 1, budget)
    if hint:
        hint += " would do" if short == 1 else " would make one"
    return GoDownAnswer(False, _described(made), f"{missing}: {hint}" if hint else missing)


def _described(found: Found) -> tuple[str, ...]:
    return tuple(f"{label(cards)}: {reading.describe()}" for cards, reading in found)


def _hint(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    left: Counter[Card],
    size: int,
    melds: int,
    budget: Budget,
) -> str:
    """The cards left of the rank held most, and what would make them a set (as many wild cards as
    the round allows in it, or natural ones): said only if adding those cards makes one more meld
    (``melds`` in all) of the contract."""
    wilds = ruleset.round(round_number).wilds
    by_rank = Counter(card.rank for card in left.elements() if card.rank not in wilds)
    if not by_rank:
        return ""
    rank, held = max(by_rank.items(), key=lambda item: (item[1], item[0].value))
    wanted = size - held
    wild = Rank.JOKER if Rank.JOKER in wilds else min(wilds, key=lambda r: r.value) if wilds else None

    def makes(naturals: int, wild_cards: int) -> bool:
        added = _cards_of(rank, naturals, left) + (_cards_of(wild, wild_cards, left) if wild else [])
        return arrangement(ruleset, round_number, [*hand, *added], melds, budget) is not None

    if wanted < 1:
        return ""
    held_cards = label([card for card in left.elements() if card.rank is rank])
    wild_held = sum(1 for card in left.elements() if card.rank in wilds)
    # The fewest cards more that would do (the wild cards held may already cover some): all wild where
    # the round has wilds, else natural. Counted down from the most: a search that succeeds is quick,
    # one that fails tries everything, so a hand asks one failing search at most.
    found: tuple[int, list[tuple[int, int]]] | None = None
    for count in range(wanted, max(1, wanted - wild_held) - 1, -1):
        way = (0, count) if wild else (count, 0)
        if not makes(*way):
            break
        found = (count, [way])
    if found is None and wild and makes(wanted, 0):  # no wild would do: naturals might
        found = (wanted, [(wanted, 0)])
    if found is None:
        return ""
    total, ways = found
    if total == 1:
        if ways == [(0, 1)] and makes(1, 0):
            ways.insert(0, (1, 0))
        words = {(1, 0): f"one more {rank.label}", (0, 1): "a wild"}
        return f"{held_cards} and {' or '.join(words[way] for way in ways)}"
    naturals, wild_cards = ways[0]  # more than one card: all of them wild, or all natural
    return f"{held_cards} and {f'{naturals} more {rank.label}s' if naturals else f'{wild_cards} wilds'}"


def _cards_of(rank: Rank, count: int, held: Counter[Card]) -> list[Card]:
    """``count`` cards of ``rank`` to try the hand with: suits the hand does not hold first (a meld
    may not hold two of the same card in some rules), a joker without one."""
    if rank is Rank.JOKER:
        return [Card(rank, None)] * count
    suits = sorted(Suit, key=lambda suit: (Card(rank, suit) in held, suit.value))
    return [Card(rank, suits[i % len(suits)]) for i in range(count)]


def on_the_board(ruleset: Ruleset, books: BookRule, round_number: int, hand: Sequence[Card]) -> GoDownAnswer:
    """The books a hand can lay (natural books, a wild card to each pair, the wilds left to books
    that may take them, then a wild book) and whether their points reach the hand's minimum."""
    rule = ruleset.round(round_number)
    minimum = rule.board_minimum or 0
    wild_pool = sorted((c for c in hand if c.rank in rule.wilds), key=lambda c: -ruleset.points[c.rank])
    groups: dict[Rank, list[Card]] = {}
    for card in hand:
        if card.rank not in rule.wilds and card.rank is not Rank.THREE:
            groups.setdefault(card.rank, []).append(card)
    laid: list[list[Card]] = []
    pairs: list[list[Card]] = []
    for cards in sorted(groups.values(), key=lambda group: -ruleset.points[group[0].rank]):
        if len(cards) >= books.min_size:
            laid.append(cards[: books.max_size])
        elif len(cards) + min(books.max_wilds, len(cards) // books.naturals_per_wild) >= books.min_size:
            pairs.append(cards)
    for cards in pairs:  # a pair and a wild card make a book
        room = min(books.max_wilds, len(cards) // books.naturals_per_wild)
        need = books.min_size - len(cards)
        if cards[0].rank is not Rank.SEVEN and 0 < need <= room and len(wild_pool) >= need:
            laid.append(cards + [wild_pool.pop(0) for _ in range(need)])
    for book in laid:  # the wild cards left go where a book may take them
        if book[0].rank is Rank.SEVEN:
            continue
        naturals = sum(1 for c in book if c.rank not in rule.wilds)
        room = min(books.max_wilds, naturals // books.naturals_per_wild) - (len(book) - naturals)
        while room > 0 and wild_pool and len(book) < books.max_size:
            book.append(wild_pool.pop(0))
            room -= 1
    if len(wild_pool) >= books.min_size:
        laid.append(wild_pool[: books.max_size])
    points = sum(ruleset.points[c.rank] for book in laid for c in book)
    shown = tuple(f"{label(book)}: {plural(sum(ruleset.points[c.rank] for c in book), 'point')}" for book in laid)
    takes = f"(it takes {minimum}; {books.board_minimum_below_zero} if your side is below zero)"
    if laid and points >= minimum:  # a side goes down with books: none laid is no way on, whatever the minimum
        return GoDownAnswer(True, (*shown, f"{points} points: on the board {takes}"), "")
    if not laid:
        needed = f"{minimum} points" if minimum else "a book"
        return GoDownAnswer(False, (), f"no book yet: you need {needed} to get on the board {takes}")
    missing = f"these make {plural(points, 'point')}: you need {minimum - points} more to get on the board"
    return GoDownAnswer(False, shown, f"{missing} {takes}")
