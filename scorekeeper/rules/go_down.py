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
from .contract import Budget, Found, arrangement, multisets
from .melds import label
from .rulesets import BookRule, Contract, Ruleset, Slot
from .wording import plural


@dataclass(frozen=True)
class GoDownAnswer:
    makes_contract: bool
    arrangement: tuple[str, ...]  # the melds, each as "7♠ 7♥ 7♦: set of 3 × 7"
    missing: str  # what the hand still needs, in words ("" when it makes the contract)
    suggested: Suggestion | None = None  # the meld the words name, as cards (not sent: the words are)

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
    if contract.by_kind:
        return _short_by_kind(ruleset, round_number, hand, contract, budget)
    made: Found = ()
    for melds in range(contract.melds - 1, 0, -1):
        part = arrangement(ruleset, round_number, hand, melds, budget)
        if part is not None:
            made = part
            break
    short = contract.melds - len(made)
    kind = "set" if contract.kinds == ("set",) else "meld"
    missing = f"you need {short} more {contract.words.noun(kind, short)} of {contract.size}"
    left = Counter(hand) - Counter(card for cards, _ in made for card in cards)
    suggested = suggestion(ruleset, round_number, hand, left, contract.size, len(made) + 1, budget)
    if suggested is None:
        return GoDownAnswer(False, _described(made), missing)
    hint = suggested.words() + (" would do" if short == 1 else " would make one")
    return GoDownAnswer(False, _described(made), f"{missing}: {hint}", suggested)


def _short_by_kind(
    ruleset: Ruleset, round_number: int, hand: Sequence[Card], contract: Contract, budget: Budget
) -> GoDownAnswer:
    """How far a hand gets towards a contract by kind: the most of its melds the hand makes (sets and
    runs in every mix, more melds first), and the sets and runs still missing, by kind."""
    sets, runs = contract.sets or 0, contract.runs
    set_slot, run_slot = contract.slot_of("set"), contract.slot_of("run")
    mixes = sorted(
        ((s, r) for s in range(sets + 1) for r in range(runs + 1) if 0 < s + r < sets + runs),
        key=lambda mix: (-sum(mix), -mix[0]),
    )
    for made_sets, made_runs in mixes:
        made = arrangement(
            ruleset, round_number, hand, budget=budget, slots=(set_slot,) * made_sets + (run_slot,) * made_runs
        )
        if made is not None:
            return GoDownAnswer(
                False, _described(made), _still_needed(sets - made_sets, set_slot, runs - made_runs, run_slot)
            )
    return GoDownAnswer(False, (), _still_needed(sets, set_slot, runs, run_slot))


def _still_needed(sets: int, set_slot: Slot, runs: int, run_slot: Slot) -> str:
    """ "you need 1 more set of 3 and 2 more runs of 4" """
    parts = [slot.describe(count, more="more ") for slot, count in ((set_slot, sets), (run_slot, runs)) if count]
    return "you need " + " and ".join(parts)


def _described(found: Found) -> tuple[str, ...]:
    return tuple(f"{label(cards)}: {reading.describe()}" for cards, reading in found)


@dataclass(frozen=True)
class Suggestion:
    """What would make one more meld: the cards held that it takes (of one rank, and wild cards held),
    and each way of adding cards (how many more of the rank, how many wild cards) that would do."""

    held: tuple[Card, ...]
    rank: Rank
    ways: tuple[tuple[int, int], ...]  # (naturals added, wild cards added), one or two ways, same count

    def words(self) -> str:
        cards = label(list(self.held))
        if sum(self.ways[0]) == 1:
            said = {(1, 0): f"one more {self.rank.label}", (0, 1): "a wild"}
            return f"{cards} and {' or '.join(said[way] for way in self.ways)}"
        naturals, wild_cards = self.ways[0]  # more than one card: all of them wild, or all natural
        return f"{cards} and {f'{naturals} more {self.rank.label}s' if naturals else f'{wild_cards} wilds'}"


def suggestion(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    left: Counter[Card],
    size: int,
    melds: int,
    budget: Budget,
) -> Suggestion | None:
    """The cards left of the rank held most, and the fewest cards more that would make them a set of
    the contract's size (with wild cards held where the round lets the set take them): said only if
    that very set reads as legal under the round (its wild limits) and the rest of the hand makes the
    contract's other melds (``melds`` in all), so the advice obeys the round (issue 58)."""
    rule = ruleset.round(round_number)
    by_rank = Counter(card.rank for card in left.elements() if card.rank not in rule.wilds)
    if not by_rank:
        return None
    rank, held = max(by_rank.items(), key=lambda item: (item[1], item[0].value))
    naturals = tuple(card for card in left.elements() if card.rank is rank)
    held_wilds = Counter({card: count for card, count in left.items() if card.rank in rule.wilds})
    wild = Rank.JOKER if Rank.JOKER in rule.wilds else min(rule.wilds, key=lambda r: r.value) if rule.wilds else None

    def added(way: tuple[int, int]) -> list[Card]:
        more_naturals, more_wilds = way
        held_now = Counter(hand)
        return _cards_of(rank, more_naturals, held_now) + (_cards_of(wild, more_wilds, held_now) if wild else [])

    for more in range(1, size - held + 1):  # the fewest cards more first
        for used in multisets(held_wilds, size - held - more):
            cards = (*naturals, *used)
            ways = [(more, 0), (0, more)] if wild else [(more, 0)]
            fits = [way for way in ways if _makes(ruleset, round_number, hand, cards, added(way), melds, budget)]
            if fits:
                chosen = fits if more == 1 else fits[-1:]  # several cards: all wild where that does, else natural
                return Suggestion(cards, rank, tuple(sorted(chosen, reverse=True)))
    return None


def _makes(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    held: tuple[Card, ...],
    added: list[Card],
    melds: int,
    budget: Budget,
) -> bool:
    """Do ``held`` and ``added`` make one meld of the contract by themselves (every limit of the round
    checked by the same search), with the rest of the hand making the contract's other melds?"""
    meld = [*held, *added]
    if arrangement(ruleset, round_number, meld, 1, budget) is None:
        return False
    rest = Counter(hand) - Counter(held)
    return melds == 1 or arrangement(ruleset, round_number, list(rest.elements()), melds - 1, budget) is not None


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
