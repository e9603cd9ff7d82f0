""" "Does this hand make the contract?": find melds in a hand that satisfy a round's first down.

The search works on *templates*: the natural cards a meld takes from the hand plus a number
of wild slots. Wild cards are kept as a pool and handed out only at the end, when every
chosen meld is checked card by card with the same ``read_meld`` the meld checker uses, so an
arrangement this module returns is legal by construction.

Templates are complete: every set of exactly the contract size (a larger legal set always
holds one), and every run of the contract size or longer (a long run can be legal when none
of its shorter windows is: 5♠ JKR 2♦ 8♠).

The work is bounded whatever the hand and whatever the house rules: cards are counted, never combined
one by one, and every question carries a budget of steps (``Budget``: a meld pair tried, a way of
handing out wild cards read), counted, not timed, so the same question gets the same answer on any
machine; a question that spends it is answered "too many cards to check here" (``SearchTooLong``). The naturals
of a set and the wilds of a meld are chosen as *multisets* of distinct cards (identical cards are
interchangeable), so 28 kings offer a set of 10 in a few dozen ways (by suit), not C(28, 10); the
last meld of a contract needs only one choice; runs are windows over a suit's 13 places.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, islice

from .cards import NATURAL_RANKS, Card, Rank, Suit
from .melds import RUN_ORDER, MeldError, Reading, Stage, Verdict, label, read_meld, run_starts, wilds_touch
from .rulesets import RoundRule, Ruleset, Slot
from .wording import plural


@dataclass(frozen=True)
class Template:
    naturals: tuple[Card, ...]
    wild_slots: int
    kind: str  # "set" or "run"
    slot: Slot  # the contract's meld it stands for: read as one of its kinds, at its size

    def shape(self, wilds: frozenset[Rank]) -> tuple[object, ...]:
        """What handing out wild cards to this meld depends on. A set of a rank that is not wild
        takes wild cards the same way whatever its rank and suits (its naturals cannot clash with a
        wild card); a set of a wild rank counts its naturals, and a run every place."""
        if self.kind == "set":
            base = self.naturals[0].rank
            clashing = tuple(card for card in self.naturals if card.rank in wilds)
            return (self.kind, self.slot.kinds, base if base in wilds else None, self.wild_slots, clashing)
        return (self.kind, self.slot.kinds, self.wild_slots, self.naturals)


SEARCH_STEPS = 10_000  # one question's budget: over twice the worst hand found under the shipped rules (4,426)


class SearchTooLong(MeldError):
    """The question asks more work than one question may take: said in words, never guessed."""


@dataclass
class Budget:
    """The steps one question may still take (shared by every search it makes: the hint's too)."""

    left: int = SEARCH_STEPS

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise SearchTooLong(
                "too many cards to check here: this hand under these rules asks more than one question may "
                f"take ({SEARCH_STEPS:,} steps); lay out the melds you have in mind and check those instead"
            )


@dataclass(frozen=True)
class _Context:
    ruleset: Ruleset
    rule: RoundRule
    fungible: bool  # any wild may fill any slot (no per-kind limit, no duplicate rule)
    budget: Budget


def find_contract(ruleset: Ruleset, round_number: int, hand: Sequence[Card]) -> Verdict:
    """An arrangement of melds from ``hand`` that makes the round's first down, or why none exists."""
    rule = ruleset.round(round_number)
    contract = rule.contract
    if contract is None:
        raise MeldError(f"{ruleset.name} has no first-down contract to search for")
    found = arrangement(ruleset, round_number, hand)
    if found is None:
        wild = sum(1 for card in hand if card.rank in rule.wilds)
        return Verdict(
            False,
            [
                f"no arrangement of these {plural(len(hand), 'card')} ({plural(wild, 'wild')}) makes "
                f"{contract.describe()} in round {round_number} ({ruleset.describe_wild_rule(rule)})"
            ],
        )
    return Verdict(True, [], [f"{label(cards)}: {reading.describe()}" for cards, reading in found])


Found = tuple[tuple[tuple[Card, ...], Reading], ...]


def arrangement(
    ruleset: Ruleset,
    round_number: int,
    hand: Sequence[Card],
    melds: int | None = None,
    budget: Budget | None = None,
    slots: tuple[Slot, ...] | None = None,
) -> Found | None:
    """Melds from ``hand`` that make the round's first down (or only the first ``melds`` of the
    contract's melds, or the ``slots`` given: how far a hand gets), each with its reading; None if
    there is no such arrangement. SearchTooLong once ``budget`` (a question's own, else a new one) is spent."""
    rule = ruleset.round(round_number)
    contract = rule.contract
    if contract is None:
        raise MeldError(f"{ruleset.name} has no first-down contract to search for")
    if slots is None:
        slots = contract.slots()[:melds] if melds is not None else contract.slots()
    fungible = rule.wild_limit_per_kind is None and not ruleset.no_duplicates
    ctx = _Context(ruleset, rule, fungible, budget or Budget())
    return _search(ctx, Counter(hand), slots, (), {})


def _search(
    ctx: _Context,
    hand: Counter[Card],
    needed: tuple[Slot, ...],
    chosen: tuple[Template, ...],
    failed: dict[object, bool],
) -> Found | None:
    ctx.budget.spend()
    if not needed:
        # Pairs of melds that differ only in what the wild cards do not care about (the suits of
        # a set's naturals) are handed wilds once: their answer is the same. The shapes are counted,
        # not sorted: a multiset needs no order (and sorting by repr cost a fifth of a long search).
        wild_cards = frozenset((card, count) for card, count in hand.items() if card.rank in ctx.rule.wilds)
        shapes = (wild_cards, frozenset(Counter(t.shape(ctx.rule.wilds) for t in chosen).items()))
        if shapes in failed:
            return None
        found = _assign_wilds(ctx, hand, chosen)
        if found is None:
            failed[shapes] = True
        return found
    slots = sum(t.wild_slots for t in chosen)  # wild cards promised to the melds chosen so far
    key = (frozenset(hand.items()), needed, slots) if ctx.fungible else None
    if key is not None and key in failed:
        return None
    pool = _pool_size(ctx, hand)
    for template in _templates(ctx, hand, needed, spare_wilds=pool - slots):
        rest = _without(hand, template.naturals)
        if slots + template.wild_slots > _pool_size(ctx, rest):
            continue
        found = _search(ctx, rest, needed[1:], (*chosen, template), failed)
        if found is not None:
            return found
    if key is not None:
        failed[key] = True
    return None


def multisets(counts: Counter[Card], size: int) -> Iterator[tuple[Card, ...]]:
    """Every distinct way to take ``size`` cards from ``counts`` (identical cards are one choice), in
    sorted order. At most C(size + k − 1, k − 1) choices for k distinct cards: polynomial in ``size``."""
    kinds = sorted(counts)

    def take(index: int, left: int) -> Iterator[tuple[Card, ...]]:
        if left == 0:
            yield ()
            return
        if index == len(kinds):
            return
        card = kinds[index]
        for count in range(min(left, counts[card]), -1, -1):
            for rest in take(index + 1, left - count):
                yield (card,) * count + rest

    return take(0, size)


def _without(hand: Counter[Card], cards: Sequence[Card]) -> Counter[Card]:
    """``hand`` less ``cards`` (all of them held): ``hand - Counter(cards)`` without rebuilding every
    count, which took a quarter of a long search."""
    rest = hand.copy()
    for card in cards:
        rest[card] -= 1
        if not rest[card]:
            rest.pop(card)  # dict's own: Counter's del is Python
    return rest


def _pool_size(ctx: _Context, hand: Counter[Card]) -> int:
    return sum(count for card, count in hand.items() if card.rank in ctx.rule.wilds)


def _assign_wilds(ctx: _Context, hand: Counter[Card], chosen: tuple[Template, ...]) -> Found | None:
    """Hand the pool's wild cards to the chosen templates so that every meld reads as legal."""
    if not chosen:
        return ()
    first, rest = chosen[0], chosen[1:]
    pool = Counter({card: count for card, count in hand.items() if card.rank in ctx.rule.wilds})
    if ctx.ruleset.no_duplicates:  # one meld never holds two of the same card (jokers excepted)
        pool = Counter({card: 1 if card.rank is not Rank.JOKER else count for card, count in pool.items()})
    for wilds in multisets(pool, first.wild_slots):
        ctx.budget.spend()
        cards = (*first.naturals, *wilds)
        slot = first.slot
        reading, _ = read_meld(ctx.ruleset, ctx.rule, cards, Stage.FIRST_DOWN, slot.size, slot.kinds)
        if reading is None:
            continue
        others = _assign_wilds(ctx, _without(hand, wilds), rest)
        if others is not None:
            return ((cards, reading), *others)
        if ctx.fungible:
            return None  # any other choice of wilds leaves an equivalent pool
    return None


def _templates(ctx: _Context, hand: Counter[Card], needed: tuple[Slot, ...], spare_wilds: int) -> Iterator[Template]:
    """The melds the search may take for the first of the ``needed``; ``spare_wilds``: the wild cards
    not yet promised to a meld chosen before (a run never leaves out more naturals than wilds can stand in for)."""
    slot, last = needed[0], len(needed) == 1
    if "set" in slot.kinds:
        runs_after = any(later.kinds == ("run",) for later in needed[1:])
        yield from _set_templates(ctx, hand, slot, last, runs_after)
    if "run" in slot.kinds:
        yield from _run_templates(ctx, hand, slot, last, spare_wilds)


def _max_wilds(ctx: _Context, naturals: int, base: Rank | None, size: int) -> int:
    """How many wild cards a first-down meld of ``size`` with this many naturals may hold."""
    rule, limit = ctx.rule, size
    if rule.wild_limit is not None:
        limit = min(limit, rule.wild_limit)
    if rule.wild_limit_per_kind is not None:
        limit = min(limit, rule.wild_limit_per_kind * len(rule.wilds - {base}))
    most = ctx.ruleset.most_wilds(naturals)
    if most is not None:
        limit = min(limit, most)
    return limit


def _set_templates(ctx: _Context, hand: Counter[Card], slot: Slot, last: bool, runs_after: bool) -> Iterator[Template]:
    size = slot.size
    wild = ctx.rule.wilds
    for base in sorted({card.rank for card in hand if ctx.ruleset.wild_rank_sets or card.rank not in wild}):
        of_rank = Counter({card: count for card, count in hand.items() if card.rank is base})
        if ctx.ruleset.no_duplicates and base is not Rank.JOKER:
            of_rank = Counter(dict.fromkeys(of_rank, 1))  # one meld never holds two of the same card
        for naturals in range(min(sum(of_rank.values()), size), 0, -1):
            wilds = size - naturals
            if wilds > _max_wilds(ctx, naturals, base, size):
                break
            for choice in _natural_choices(ctx, of_rank, naturals, last, runs_after):
                yield Template(choice, wilds, "set", slot)


def _natural_choices(
    ctx: _Context, of_rank: Counter[Card], naturals: int, last: bool, runs_after: bool
) -> Iterator[tuple[Card, ...]]:
    """Which cards of the rank a set takes matters only to a later set that may not hold two of the
    same card. (A run that needs one of them is found by taking the run first: the search tries
    every kind of meld at every step.) For the last meld one choice stands for all: a set's
    legality does not depend on its suits, and ``of_rank`` holds no duplicates where they are
    forbidden. But a contract by kind asks for its sets before its runs: there, which suits a set
    takes matters to the runs after it (in A♠ 2♠ 3♠ 3♠ 3♠ 3♥ 4♠ Liverpool's set of 3s needs the
    3♥, for the run needs a 3♠), and every choice is tried while a run is still to come."""
    choices = multisets(of_rank, naturals)
    if not runs_after and (last or not ctx.ruleset.no_duplicates):
        return islice(choices, 1)
    return choices


_SUIT_ROWS = {suit: tuple(Card(rank, suit) for rank in NATURAL_RANKS) for suit in Suit}  # made once, not per step


def _run_templates(ctx: _Context, hand: Counter[Card], slot: Slot, last: bool, spare_wilds: int) -> Iterator[Template]:
    pool, size, wrap = spare_wilds, slot.size, ctx.ruleset.runs_wrap
    # every suit in the hand, even one held only by a 2 (natural in its own place in a run)
    suits = sorted({c.suit for c in hand if c.suit is not None}, key=lambda s: s.value)
    for suit in suits:
        row = _SUIT_ROWS[suit]
        have = [hand.get(card, 0) > 0 for card in row]  # dict.get: a Counter's [] of a card not held is slow
        for start in range(RUN_ORDER):
            present = 0
            for length in range(1, RUN_ORDER + 1):
                if start not in run_starts(length, wrap):
                    break  # the run would go round the ace
                present += have[(start + length - 1) % RUN_ORDER]
                gaps = length - present
                if gaps > pool:
                    break  # a longer run only needs more wild cards
                if length >= max(size, ctx.ruleset.run_min) and gaps <= _max_wilds(ctx, present, None, size):
                    places = [row[(start + i) % RUN_ORDER] for i in range(length)]
                    yield from _runs_at(ctx, places, [c for c in places if hand.get(c, 0) > 0], last, pool, slot)


def _runs_at(
    ctx: _Context, places: list[Card], present: list[Card], last: bool, pool: int, slot: Slot
) -> Iterator[Template]:
    length = len(places)
    gaps = length - len(present)
    # The last meld takes every natural it can; an earlier one may leave some for later melds, each
    # left-out place then filled by a wild card of the pool (and, where wilds are limited by the
    # naturals, only as many as keep them within the game's margin).
    spare = 0 if last else min(len(present), pool - gaps)
    margin = ctx.ruleset.wild_margin
    if margin is not None:
        spare = min(spare, max(len(present) - gaps - margin, 0) // 2)
    for left_out in range(spare + 1):
        for dropped in combinations(present, left_out):
            naturals = tuple(card for card in present if card not in dropped)
            wilds = length - len(naturals)
            if wilds > _max_wilds(ctx, len(naturals), None, slot.size):
                continue
            if ctx.ruleset.no_touching_wilds and wilds_touch(
                i for i, card in enumerate(places) if card not in naturals
            ):
                continue  # Continental: two wild places side by side
            yield Template(naturals, wilds, "run", slot)
