""" "Does this hand make the contract?": find melds in a hand that satisfy a round's first down.

The search works on *templates*: the natural cards a meld takes from the hand plus a number
of wild slots. Wild cards are kept as a pool and handed out only at the end, when every
chosen meld is checked card by card with the same ``read_meld`` the meld checker uses, so an
arrangement this module returns is legal by construction.

Templates are complete: every set of exactly the contract size (a larger legal set always
holds one), and every run of the contract size or longer (a long run can be legal when none
of its shorter windows is: 5♠ JKR 2♦ 8♠).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import NATURAL_RANKS, Card, Rank
from .melds import RUN_ORDER, MeldError, Reading, Verdict, label, read_meld
from .rulesets import RoundRule, Ruleset
from .scoring import plural


@dataclass(frozen=True)
class Template:
    naturals: tuple[Card, ...]
    wild_slots: int


@dataclass(frozen=True)
class _Context:
    ruleset: Ruleset
    rule: RoundRule
    size: int
    fungible: bool  # any wild may fill any slot (no per-kind limit, no duplicate rule)


def find_contract(ruleset: Ruleset, round_number: int, hand: Sequence[Card]) -> Verdict:
    """An arrangement of melds from ``hand`` that makes the round's first down, or why none exists."""
    rule = ruleset.round(round_number)
    contract = rule.contract
    if contract is None:
        raise MeldError(f"{ruleset.name} has no first-down contract to search for")
    ctx = _Context(ruleset, rule, contract.size, rule.wild_limit_per_kind is None and not ruleset.no_duplicates)
    found = _search(ctx, Counter(hand), contract.melds, (), {})
    if found is None:
        wild = sum(1 for card in hand if card.rank in rule.wilds)
        return Verdict(
            False,
            [
                f"no arrangement of these {plural(len(hand), 'card')} ({plural(wild, 'wild')}) makes "
                f"{contract.describe()} in round {round_number} ({rule.describe_limit()})"
            ],
        )
    return Verdict(True, [], [f"{label(cards)}: {reading.describe()}" for cards, reading in found])


Found = tuple[tuple[tuple[Card, ...], Reading], ...]


def _search(
    ctx: _Context, hand: Counter[Card], needed: int, chosen: tuple[Template, ...], failed: dict[object, bool]
) -> Found | None:
    if needed == 0:
        return _assign_wilds(ctx, hand, chosen)
    slots = sum(t.wild_slots for t in chosen)
    key = (frozenset(hand.items()), needed, slots) if ctx.fungible else None
    if key is not None and key in failed:
        return None
    for template in _templates(ctx, hand, last=needed == 1):
        rest = hand - Counter(template.naturals)
        if slots + template.wild_slots > _pool_size(ctx, rest):
            continue
        found = _search(ctx, rest, needed - 1, (*chosen, template), failed)
        if found is not None:
            return found
    if key is not None:
        failed[key] = True
    return None


def _pool_size(ctx: _Context, hand: Counter[Card]) -> int:
    return sum(count for card, count in hand.items() if card.rank in ctx.rule.wilds)


def _assign_wilds(ctx: _Context, hand: Counter[Card], chosen: tuple[Template, ...]) -> Found | None:
    """Hand the pool's wild cards to the chosen templates so that every meld reads as legal."""
    if not chosen:
        return ()
    first, rest = chosen[0], chosen[1:]
    pool = sorted(card for card in hand.elements() if card.rank in ctx.rule.wilds)
    seen: set[tuple[Card, ...]] = set()
    for wilds in combinations(pool, first.wild_slots):
        if wilds in seen:
            continue
        seen.add(wilds)
        cards = (*first.naturals, *wilds)
        reading, _ = read_meld(ctx.ruleset, ctx.rule, cards, "first-down", ctx.size)
        if reading is None:
            continue
        others = _assign_wilds(ctx, hand - Counter(wilds), rest)
        if others is not None:
            return ((cards, reading), *others)
        if ctx.fungible:
            return None  # any other choice of wilds leaves an equivalent pool
    return None


def _templates(ctx: _Context, hand: Counter[Card], last: bool) -> Iterator[Template]:
    kinds = ctx.ruleset.meld_kinds
    if "set" in kinds:
        yield from _set_templates(ctx, hand)
    if "run" in kinds:
        yield from _run_templates(ctx, hand, last)


def _max_wilds(ctx: _Context, naturals: int, base: Rank | None) -> int:
    """How many wild cards a first-down meld with this many naturals may hold."""
    rule, limit = ctx.rule, ctx.size
    if rule.wild_limit is not None:
        limit = min(limit, rule.wild_limit)
    if rule.wild_limit_per_kind is not None:
        limit = min(limit, rule.wild_limit_per_kind * len(rule.wilds - {base}))
    if ctx.ruleset.wilds_at_most_naturals:
        limit = min(limit, naturals)
    return limit


def _set_templates(ctx: _Context, hand: Counter[Card]) -> Iterator[Template]:
    size = ctx.size
    # Which cards of the rank a set takes matters only where suits do (duplicates, runs).
    suits_matter = ctx.ruleset.no_duplicates or "run" in ctx.ruleset.meld_kinds
    for base in sorted({card.rank for card in hand}):
        of_rank = sorted(card for card in hand.elements() if card.rank is base)
        for naturals in range(min(len(of_rank), size), 0, -1):
            wilds = size - naturals
            if wilds > _max_wilds(ctx, naturals, base):
                break
            if suits_matter:
                choices = set(combinations(of_rank, naturals))
            else:
                choices = {tuple(of_rank[:naturals])}
            for choice in sorted(choices):
                yield Template(choice, wilds)


def _run_templates(ctx: _Context, hand: Counter[Card], last: bool) -> Iterator[Template]:
    wild_ranks = ctx.rule.wilds
    pool = _pool_size(ctx, hand)
    suits = sorted({c.suit for c in hand if c.suit is not None and c.rank not in wild_ranks}, key=lambda s: s.value)
    for suit in suits:
        row = [Card(rank, suit) for rank in NATURAL_RANKS]
        have = [hand[card] > 0 for card in row]
        for start in range(RUN_ORDER):
            present = 0
            for length in range(1, RUN_ORDER + 1):
                present += have[(start + length - 1) % RUN_ORDER]
                gaps = length - present
                if gaps > pool:
                    break  # a longer run only needs more wild cards
                if length >= ctx.size and gaps <= _max_wilds(ctx, present, None):
                    places = [row[(start + i) % RUN_ORDER] for i in range(length)]
                    yield from _runs_at(ctx, [c for c in places if hand[c] > 0], length, last)


def _runs_at(ctx: _Context, present: list[Card], length: int, last: bool) -> Iterator[Template]:
    gaps = length - len(present)
    # The last meld takes every natural it can; an earlier one may leave some for later melds.
    spare = 0 if last else min(len(present), (len(present) - gaps) // 2)
    for left_out in range(spare + 1):
        for dropped in combinations(present, left_out):
            naturals = tuple(card for card in present if card not in dropped)
            wilds = length - len(naturals)
            if wilds <= _max_wilds(ctx, len(naturals), None):
                yield Template(naturals, wilds)
