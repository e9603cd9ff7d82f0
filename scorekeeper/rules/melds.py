"""Meld checking: is this set, run or book legal here, and why not.

Every check returns a ``Verdict`` whose reasons are in table words, naming the meld:
"meld 2 (K K 2 2) has 2 wild cards; round 1 allows 1".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .books import board_minimum
from .cards import NATURAL_RANKS, Card, Rank, Suit, format_hand
from .rulesets import SET_SIZE, Contract, RoundRule, Ruleset
from .scoring import card_points
from .wording import listed, plural


class Stage(StrEnum):
    """The meld checker's questions: a first down against the contract, a later meld, a lay-off, and
    "does this whole hand make the contract?"."""

    FIRST_DOWN = "first-down"
    MELD = "meld"
    LAYOFF = "layoff"
    HAND = "hand"

    @property
    def label(self) -> str:
        return {
            Stage.FIRST_DOWN: "First down (the round's contract)",
            Stage.MELD: "A later meld",
            Stage.LAYOFF: "A lay-off onto a meld on the table",
            Stage.HAND: "Does this hand make the contract?",
        }[self]

    def answer(self, valid: bool) -> str:
        """The verdict as it answers this question: a hand makes the contract or not; a meld is legal or not."""
        if self is Stage.HAND:
            return "✔ Makes the contract" if valid else "✘ Does not make the contract"
        return "✔ Legal" if valid else "✘ Not legal"

    @classmethod
    def parse(cls, text: str) -> Stage:
        try:
            return cls(text)
        except ValueError:
            raise MeldError(f"stage {text!r} is not one of {', '.join(cls)}") from None


RUN_ORDER = len(NATURAL_RANKS)  # 13 ranks, cyclic: a run may go over the top (Q K A 2 3)


class MeldError(ValueError):
    """A question the checker cannot answer (unknown stage, a stage this game does not have)."""


@dataclass(frozen=True)
class Reading:
    """One way a group of cards is a meld."""

    kind: str  # "set", "run" or "book"
    naturals: int
    wilds: tuple[Card, ...]  # the cards standing in for others
    base: Rank | None = None  # set or book: the rank it is a set of (JOKER for a set of jokers)
    suit: Suit | None = None  # run
    low: Rank | None = None  # run: its lowest card as laid out
    wild_book: bool = False
    wild_places: tuple[int, ...] = field(default=(), compare=False)  # run: where its wilds stand, 0 at ``low``

    @property
    def size(self) -> int:
        return self.naturals + len(self.wilds)

    def describe(self) -> str:
        wild_text = f" with {plural(len(self.wilds), 'wild')}" if self.wilds else ""
        if self.kind == "run":
            assert self.suit is not None and self.low is not None
            high = NATURAL_RANKS[(self.low.value - 1 + self.size - 1) % RUN_ORDER]
            return f"run of {self.size} in {self.suit.symbol}, {self.low.label} to {high.label}{wild_text}"
        if self.wild_book:
            return f"wild book of {self.size}"
        assert self.base is not None
        return f"{self.kind} of {self.size} × {self.base.label}{wild_text}"


@dataclass
class Verdict:
    valid: bool
    reasons: list[str] = field(default_factory=list)
    arrangement: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {"valid": self.valid, "reasons": self.reasons, "arrangement": self.arrangement}


def label(cards: Sequence[Card]) -> str:
    return format_hand(tuple(cards), pretty=True)


LONGEST_NAMED_MELD = 8  # a longer meld is named by its ends and its size, so the reason comes soon


def meld_name(index: int | None, cards: Sequence[Card]) -> str:
    shown = label(cards)
    if len(cards) > LONGEST_NAMED_MELD:
        shown = f"{label(cards[:3])} … {label(cards[-1:])}, {len(cards)} cards"
    return f"meld {index} ({shown})" if index is not None else f"({shown})"


# --- reading sets, runs and books ---------------------------------------------------------


def set_readings(cards: Sequence[Card], wilds: frozenset[Rank], wild_bases: bool = True) -> list[Reading]:
    """Every base value that makes ``cards`` a set: its cards natural, every other card wild.

    A set of all 2s is a natural set of 2s (``wild_bases``: not in Ten Card Rummy, where a 2 or
    a joker is always wild in a set); in rounds where jokers are not wild a joker only sits in a
    set of jokers. Most naturals first.
    """
    readings = []
    for base in sorted({card.rank for card in cards if wild_bases or card.rank not in wilds}):
        others = [card for card in cards if card.rank is not base]
        if all(card.rank in wilds for card in others):
            readings.append(Reading("set", len(cards) - len(others), tuple(others), base=base))
    return sorted(readings, key=lambda r: (len(r.wilds), r.base in wilds))


SET_RULE = "a set is one rank plus wild cards"
RUN_RULE = "a run is consecutive cards of one suit (wild cards may fill gaps)"
MOST_RANKS_NAMED = 3  # beyond that, the reason counts the odd cards instead of naming them


def set_problem(cards: Sequence[Card], wilds: frozenset[Rank], round_number: int) -> str:
    """Why no base value makes these cards a set: the rule, then the cards that break it."""
    counts = Counter(card.rank for card in cards if card.rank not in wilds) or Counter(c.rank for c in cards)
    base = max(sorted(counts), key=lambda rank: counts[rank])
    strays = [card for card in cards if card.rank is not base and card.rank not in wilds]
    stray_ranks = sorted({card.rank.label for card in strays})
    if len(stray_ranks) > MOST_RANKS_NAMED:
        odd = f"{len(strays)} of its cards are"
    else:
        odd = f"{listed(stray_ranks)} {'is' if len(stray_ranks) == 1 else 'are'}"
    return f"is not a set: {SET_RULE}, and {odd} neither {base.label} nor wild in round {round_number}"


def run_starts(size: int, wrap: bool) -> range:
    """Where a run of ``size`` may begin (0 is the ace). Without ``wrap`` it may not go over the top:
    an ace is low (A 2 3 4) or high (J Q K A), never both (Q K A 2)."""
    return range(RUN_ORDER) if wrap else range(max(RUN_ORDER + 2 - size, 0))


def run_readings(cards: Sequence[Card], wilds: frozenset[Rank], least: int = 3, wrap: bool = True) -> list[Reading]:
    """Every way ``cards`` are a run: at least ``least`` consecutive ranks of one suit, wild cards
    filling gaps.

    Aces are high or low and, where the game ``wrap``s, a run may go over the top; no rank twice. A
    wild-rank card (a 2) of the run's suit in its natural place counts as natural. Most naturals first.
    """
    size = len(cards)
    if not max(least, 3) <= size <= RUN_ORDER:
        return []
    readings = []
    suits = {card.suit for card in cards if card.suit is not None}
    for suit in sorted(suits, key=lambda s: s.value):
        for start in run_starts(size, wrap):
            reading = _run_at(cards, wilds, suit, start)
            if reading is not None:
                readings.append(reading)
    return sorted(readings, key=lambda r: len(r.wilds))


def _run_at(cards: Sequence[Card], wilds: frozenset[Rank], suit: Suit, start: int) -> Reading | None:
    size = len(cards)
    places = {NATURAL_RANKS[(start + i) % RUN_ORDER] for i in range(size)}
    filled: set[Rank] = set()
    stand_ins: list[Card] = []
    # Non-wild cards must each fill their own place; wild-rank cards of the suit may, if free.
    for card in sorted(cards, key=lambda c: c.rank in wilds):
        natural_fit = card.suit is suit and card.rank in places and card.rank not in filled
        if card.rank not in wilds:
            if not natural_fit:
                return None
            filled.add(card.rank)
        elif natural_fit:
            filled.add(card.rank)
        else:
            stand_ins.append(card)
    if not filled:
        return None
    ranks = [NATURAL_RANKS[(start + i) % RUN_ORDER] for i in range(size)]
    wild_places = tuple(i for i, rank in enumerate(ranks) if rank not in filled)
    return Reading("run", len(filled), tuple(stand_ins), suit=suit, low=NATURAL_RANKS[start], wild_places=wild_places)


def wilds_touch(wild_places: Iterable[int]) -> bool:
    """Two wild places side by side in a run, its places counted from its low end (Continental forbids it)."""
    places = set(wild_places)
    return any(place + 1 in places for place in places)


def _touching(reading: Reading) -> bool:
    return reading.kind == "run" and wilds_touch(reading.wild_places)


def wild_set_problem(ruleset: Ruleset, cards: Sequence[Card]) -> str:
    """Ten Card Rummy: cards of wild ranks only make no set (the seed: no more jokers and 2s than
    ordinary cards; a 2 counts as ordinary only in a run of its suit, at its own place)."""
    ranks = sorted({card.rank for card in cards})
    names = " and ".join("jokers" if rank is Rank.JOKER else f"{rank.label}s" for rank in ranks)
    one = "a joker" if ranks == [Rank.JOKER] else f"a {ranks[0].label}" if len(ranks) == 1 else "each"
    return f"is not a meld: {ruleset.name} has no sets of {names}: {one} is wild in a set"


def run_problem(cards: Sequence[Card], wilds: frozenset[Rank], least: int = 3, wrap: bool = True) -> str:
    """Why these cards are no run: the rule they break first, then how."""
    naturals = [card for card in cards if card.rank not in wilds]
    if len(cards) < least:
        return f"is not a run: a run holds at least {least} cards, and this one has {len(cards)}"
    if not wrap and run_readings(cards, wilds, least, wrap=True):
        return "is not a run: an ace is high (J Q K A) or low (A 2 3 4), and a run may not go round it (Q K A 2)"
    if len(cards) > RUN_ORDER:
        return f"is not a run: a run holds at most {RUN_ORDER} cards, one of each rank, and this one has {len(cards)}"
    if any(card.suit is None for card in naturals):
        return "is not a run: a run is all one suit, so give every card its suit"
    suits = [suit for suit in Suit if any(card.suit is suit for card in naturals)]
    if len(suits) > 1:
        return f"is not a run: a run is all one suit, and this one mixes {listed([suit.symbol for suit in suits])}"
    ranks = Counter(card.rank for card in naturals)
    doubled = [rank.label for rank, count in sorted(ranks.items()) if count > 1]
    if doubled:
        return f"is not a run: a run holds each rank once, and this one has {listed(doubled)} twice"
    return f"is not a run: {RUN_RULE}, and these leave a gap with no wild card to fill it"


def looks_like_a_run(cards: Sequence[Card], wilds: frozenset[Rank]) -> bool:
    """More ranks than copies of any one: the player meant a run (its reason comes first)."""
    ranks = Counter(card.rank for card in cards if card.rank not in wilds)
    return len(ranks) > max(ranks.values(), default=0)


def book_readings(cards: Sequence[Card], wilds: frozenset[Rank]) -> list[Reading]:
    """Pennies From Heaven books: one rank with wild cards, or a wild book of 2s and jokers only."""
    if cards and all(card.rank in wilds for card in cards):
        return [Reading("book", 0, tuple(cards), wild_book=True)]
    naturals = {card.rank for card in cards if card.rank not in wilds}
    if len(naturals) != 1:
        return []
    base = naturals.pop()
    stand_ins = tuple(card for card in cards if card.rank is not base)
    return [Reading("book", len(cards) - len(stand_ins), stand_ins, base=base)]


# --- the rules of a meld in a ruleset and round -----------------------------------------------


def duplicate_problem(cards: Sequence[Card]) -> str | None:
    doubled = [card for card, count in Counter(c for c in cards if not c.is_joker).items() if count > 1]
    if doubled:
        return f"holds {label(sorted(doubled))} twice; one meld may not hold two of the same card"
    return None


def suit_problem(cards: Sequence[Card]) -> str | None:
    missing = [card for card in cards if card.suit is None and not card.is_joker]
    if missing:
        return f"needs a suit on {label(missing)}"
    return None


def wild_limit_problem(reading: Reading, rule: RoundRule, stage: Stage, ruleset: Ruleset) -> str | None:
    """The wild-card limits of this stage; None when the reading keeps them."""
    wilds = len(reading.wilds)
    most = ruleset.most_wilds(reading.naturals)
    if most is not None and wilds > most:
        return f"has {plural(wilds, 'wild card')} and {reading.naturals} natural; {ruleset.wild_margin_words}"
    if ruleset.no_touching_wilds and _touching(reading):
        return f"has two wild cards side by side; in {ruleset.name} no two wilds touch in a run"
    if stage == Stage.FIRST_DOWN:
        if rule.wild_limit is not None and wilds > rule.wild_limit:
            return f"has {plural(wilds, 'wild card')}; round {rule.number} allows {rule.wild_limit}"
        if rule.wild_limit_per_kind is not None:
            kinds = Counter(card.rank for card in reading.wilds)
            for rank, count in sorted(kinds.items()):
                if count > rule.wild_limit_per_kind:
                    return (
                        f"has {count} wild {rank.label}s; round {rule.number} allows "
                        f"{rule.wild_limit_per_kind} of each kind"
                    )
    elif stage == Stage.MELD and ruleset.later_melds and ruleset.later_melds.max_wilds is not None:
        if wilds > ruleset.later_melds.max_wilds:
            return f"has {plural(wilds, 'wild card')}; a later meld allows {ruleset.later_melds.max_wilds}"
    return None


def book_problem(reading: Reading, ruleset: Ruleset) -> str | None:
    books = ruleset.books
    assert books is not None
    if not books.min_size <= reading.size <= books.max_size:
        return f"has {plural(reading.size, 'card')}; a book holds {books.min_size} to {books.max_size}"
    if reading.wild_book:
        return None
    wilds = len(reading.wilds)
    if reading.base is Rank.SEVEN and wilds:
        return "puts a wild card in a book of sevens: never allowed"
    if wilds > books.max_wilds:
        return f"has {plural(wilds, 'wild card')}; a book allows {books.max_wilds}"
    if reading.naturals < books.naturals_per_wild * wilds:
        return (
            f"has {plural(wilds, 'wild card')} but only {reading.naturals} natural; "
            f"each wild needs {books.naturals_per_wild}"
        )
    return None


def read_meld(
    ruleset: Ruleset,
    rule: RoundRule,
    cards: Sequence[Card],
    stage: Stage,
    min_size: int,
    kinds: tuple[str, ...] | None = None,
) -> tuple[Reading | None, str]:
    """The best legal reading of ``cards`` at this stage (as one of ``kinds``: by default any the game
    has), or None and the reason it has none."""
    if len(cards) < min_size:
        return None, f"has {plural(len(cards), 'card')}; it needs at least {min_size}"
    if ruleset.suits_required:
        problem = suit_problem(cards)
        if problem:
            return None, problem
    if ruleset.no_duplicates:
        problem = duplicate_problem(cards)
        if problem:
            return None, problem
    if ruleset.by_sides:
        return _read_book(ruleset, rule, cards)
    kinds = ruleset.meld_kinds if kinds is None else kinds
    readings: list[Reading] = []
    if "set" in kinds:
        readings += set_readings(cards, rule.wilds, ruleset.wild_rank_sets)
    if "run" in kinds:
        readings += run_readings(cards, rule.wilds, ruleset.run_min, ruleset.runs_wrap)
    if not readings and not ruleset.wild_rank_sets and all(card.rank in rule.wilds for card in cards):
        return None, wild_set_problem(ruleset, cards)
    if not readings:
        return None, no_meld_problem(ruleset, rule, cards, kinds)
    first_problem = ""
    for reading in readings:
        problem = wild_limit_problem(reading, rule, stage, ruleset)
        if problem is None:
            return reading, ""
        first_problem = first_problem or problem
    if not ruleset.wild_rank_sets and all(card.rank in rule.wilds for card in cards):
        return None, f"{wild_set_problem(ruleset, cards)}; as a run it {first_problem}"
    return None, first_problem


def no_meld_problem(ruleset: Ruleset, rule: RoundRule, cards: Sequence[Card], kinds: tuple[str, ...]) -> str:
    """Why the cards are no meld of any of ``kinds``: the likelier kind's rule first."""
    problems = []
    if "set" in kinds:
        problems.append(set_problem(cards, rule.wilds, rule.number))
    if "run" in kinds:
        problems.append(run_problem(cards, rule.wilds, ruleset.run_min, ruleset.runs_wrap))
    if len(problems) == 1:
        return problems[0]
    first, second = problems[::-1] if looks_like_a_run(cards, rule.wilds) else problems
    return f"{first}; nor {second.removeprefix('is not ')}"


def _read_book(ruleset: Ruleset, rule: RoundRule, cards: Sequence[Card]) -> tuple[Reading | None, str]:
    threes = [card for card in cards if card.rank is Rank.THREE]
    if any(card.suit is None for card in threes):
        return None, "holds a 3 without a suit: say whether it is a red or a black three"
    if threes:
        if any(card.suit and not card.suit.is_red for card in threes):
            return None, "holds a black 3: black threes cannot be melded"
        return None, "holds a red 3: red threes are laid aside, never melded (no books of threes)"
    readings = book_readings(cards, rule.wilds)
    if not readings:
        ranks = sorted({card.rank.label for card in cards if card.rank not in rule.wilds})
        return None, f"is not a book: it mixes {', '.join(ranks)}"
    problem = book_problem(readings[0], ruleset)
    return (None, problem) if problem else (readings[0], "")


# --- the four questions ------------------------------------------------------------------------


def check_melds(
    ruleset: Ruleset, round_number: int, melds: Sequence[Sequence[Card]], stage: Stage, side_score: int = 0
) -> Verdict:
    """First down against the contract, or later melds, each named with what is wrong."""
    rule = ruleset.round(round_number)
    if not melds:
        return Verdict(False, ["no melds were given"])
    if stage == Stage.FIRST_DOWN and ruleset.by_sides:
        return _check_board(ruleset, rule, melds, side_score)
    if stage not in (Stage.FIRST_DOWN, Stage.MELD):
        raise MeldError(f"stage {stage.value!r} is not one of {Stage.FIRST_DOWN}, {Stage.MELD}")
    contract = rule.contract
    if stage == Stage.MELD and ruleset.lay_offs_only:
        return Verdict(
            False, [f"{ruleset.name} has no new melds after going down: only lay-offs onto melds on the table"]
        )
    if stage == Stage.FIRST_DOWN and contract and contract.by_kind:
        return _first_down_by_kind(ruleset, rule, contract, melds)
    min_size = contract.size if stage == Stage.FIRST_DOWN and contract else _later_min(ruleset)
    reasons, arrangement = [], []
    for index, cards in enumerate(melds, start=1):
        reading, problem = read_meld(ruleset, rule, cards, stage, min_size)
        if reading is None:
            reasons.append(f"{meld_name(index, cards)} {problem}")
        else:
            arrangement.append(f"{label(cards)}: {reading.describe()}")
    if stage == Stage.FIRST_DOWN and contract:
        reasons += _count_problems(ruleset, contract.melds, len(melds), round_number, contract.describe())
    return Verdict(not reasons, reasons, arrangement if not reasons else [])


def _first_down_by_kind(
    ruleset: Ruleset, rule: RoundRule, contract: Contract, melds: Sequence[Sequence[Card]]
) -> Verdict:
    """A contract by kind (Liverpool's "1 set of 3 and 1 run of 4"): each meld a legal set or run of
    its kind's size, and the melds shared out so that there are the contract's sets and its runs."""
    reasons, legal_readings = [], []
    for index, cards in enumerate(melds, start=1):
        readings = {kind: _read_as(ruleset, rule, cards, contract, kind) for kind in contract.kinds}
        legal = {kind: reading for kind, (reading, _) in readings.items() if reading is not None}
        if not legal:
            problems = [problem for _, problem in readings.values()]
            first = problems[-1] if len(problems) > 1 and looks_like_a_run(cards, rule.wilds) else problems[0]
            reasons.append(f"{meld_name(index, cards)} {first}")
        legal_readings.append(legal)
    if reasons:
        return Verdict(False, reasons)
    could_be = [set(legal) for legal in legal_readings]
    if not _shared_out(could_be, contract, ruleset.contract_exact):
        return Verdict(False, [_kind_count_problem(ruleset, rule.number, contract, could_be)])
    kinds = _kinds_given(could_be, contract.sets or 0)
    shared = zip(melds, legal_readings, kinds, strict=True)
    return Verdict(True, [], [f"{label(cards)}: {legal[kind].describe()}" for cards, legal, kind in shared])


def _kinds_given(could_be: list[set[str]], sets: int) -> list[str]:
    """Each meld's kind once shared out: a meld that could be either is a set while sets are short."""
    short = sets - _only(could_be, "set")
    given = []
    for kinds in could_be:
        if len(kinds) == 1:
            given.append(next(iter(kinds)))
        else:
            given.append("set" if short > 0 else "run")
            short -= 1
    return given


def _read_as(
    ruleset: Ruleset, rule: RoundRule, cards: Sequence[Card], contract: Contract, kind: str
) -> tuple[Reading | None, str]:
    """A first-down meld read as a set, or as a run: a run's own rule says how short is too short (a
    run holds at least the game's fewest), then the contract's size for it (Carioca's run of 13)."""
    reading, problem = read_meld(ruleset, rule, cards, Stage.FIRST_DOWN, SET_SIZE if kind == "set" else 0, (kind,))
    least = contract.least_size(kind)
    if reading is not None and reading.size < least:
        words = ruleset.meld_words
        asked = f"round {rule.number} asks for {words.many(kind)} of at least {least}"
        return None, f"is {words.a(kind)} of {reading.size}; {asked}"
    return reading, problem


def _only(could_be: list[set[str]], kind: str) -> int:
    """How many of the melds read only as ``kind``."""
    return sum(1 for kinds in could_be if kinds == {kind})


def _shared_out(could_be: list[set[str]], contract: Contract, exact: bool) -> bool:
    """Can the melds be counted as the contract's sets and runs (each meld one of the kinds it reads as)?"""
    sets, runs = contract.sets or 0, contract.runs
    only_sets, only_runs = _only(could_be, "set"), _only(could_be, "run")
    either = len(could_be) - only_sets - only_runs
    if exact:
        return only_sets <= sets and only_runs <= runs and len(could_be) == sets + runs
    return max(sets - only_sets, 0) + max(runs - only_runs, 0) <= either


def _kind_count_problem(ruleset: Ruleset, number: int, contract: Contract, could_be: list[set[str]]) -> str:
    sets, runs = _only(could_be, "set"), _only(could_be, "run")
    words = ruleset.meld_words
    laid = [f"{count} {words.noun(kind, count)}" for count, kind in ((sets, "set"), (runs, "run")) if count]
    either = len(could_be) - sets - runs
    if either:
        laid.append(f"{either} that could be either")
    exactly = "exactly " if ruleset.contract_exact else ""
    verb = "was" if len(could_be) == 1 else "were"
    return f"round {number} needs {exactly}{contract.describe()}; {listed(laid)} {verb} laid down"


def _later_min(ruleset: Ruleset) -> int:
    if ruleset.books:
        return ruleset.books.min_size
    return ruleset.later_melds.min_size if ruleset.later_melds else 3


def _count_problems(ruleset: Ruleset, wanted: int, given: int, round_number: int, contract: str) -> list[str]:
    exact = ruleset.contract_exact
    if given < wanted or (exact and given != wanted):
        return [
            f"round {round_number} needs {'exactly ' if exact else ''}{contract}; "
            f"{given} {'was' if given == 1 else 'were'} laid down"
        ]
    return []


def _check_board(ruleset: Ruleset, rule: RoundRule, melds: Sequence[Sequence[Card]], side_score: int) -> Verdict:
    """Pennies From Heaven: getting on the board with enough points in legal books."""
    books = ruleset.books
    assert books is not None and rule.board_minimum is not None
    reasons, arrangement = [], []
    for index, cards in enumerate(melds, start=1):
        reading, problem = read_meld(ruleset, rule, cards, Stage.MELD, books.min_size)
        if reading is None:
            reasons.append(f"{meld_name(index, cards)} {problem}")
        else:
            arrangement.append(f"{label(cards)}: {reading.describe()}")
    points = card_points(ruleset, (card for cards in melds for card in cards))
    needed = board_minimum(ruleset, rule.number, side_score)
    if points < needed:
        why = " (the side is below zero)" if side_score < 0 else ""
        reasons.append(
            f"the books are worth {points} points; hand {rule.number} needs {needed} to get on the board{why}"
        )
    return Verdict(not reasons, reasons, arrangement if not reasons else [])


def check_layoff(ruleset: Ruleset, round_number: int, onto: Sequence[Card], cards: Sequence[Card]) -> Verdict:
    """Laying ``cards`` off onto a meld already on the table."""
    rule = ruleset.round(round_number)
    if not cards:
        return Verdict(False, ["no cards to lay off"])
    if ruleset.by_sides:
        return _layoff_book(ruleset, rule, onto, cards)
    combined = [*onto, *cards]
    if ruleset.no_duplicates:
        problem = duplicate_problem(combined)
        if problem:
            return Verdict(False, [f"the meld {problem}"])
    if ruleset.wild_margin is not None or "run" in ruleset.meld_kinds:  # the meld stays a meld of its kind
        return _layoff_keeping_kind(ruleset, rule, onto, cards)
    bases = [r.base for r in set_readings(onto, rule.wilds) if r.base is not None]
    if len(onto) < 3 or not bases:
        return Verdict(False, [f"the meld on the table {meld_name(None, onto)} is not a set"])
    for base in bases:
        if all(card.rank is base or card.rank in rule.wilds for card in cards):
            return Verdict(True, [], [f"{label(combined)}: set of {len(combined)} × {base.label}"])
    strays = sorted({c.rank.label for c in cards if c.rank not in bases and c.rank not in rule.wilds})
    return Verdict(
        False, [f"{', '.join(strays)} cannot go onto a set of {bases[0].label}: only the same rank or a wild card"]
    )


def _legal(ruleset: Ruleset, reading: Reading) -> bool:
    """A meld on the table after a lay-off: wilds within the game's margin of the naturals where it
    has one (Ten Card Rummy, Shanghai), else at least one natural card; no two wilds side by side in
    a run where the game forbids it (Continental)."""
    if reading.naturals < 1 or (ruleset.no_touching_wilds and _touching(reading)):
        return False
    most = ruleset.most_wilds(reading.naturals)
    return most is None or len(reading.wilds) <= most


def _layoff_keeping_kind(ruleset: Ruleset, rule: RoundRule, onto: Sequence[Card], cards: Sequence[Card]) -> Verdict:
    """A meld on the table keeps what it was: a set takes its rank (or a wild), a run grows only at
    its ends (a wild between two of its cards stands for the card between them; an ace ends a run
    where runs do not go round the corner), and either keeps no more wilds than naturals where the
    game says so. A meld that is not itself legal takes nothing."""
    combined = [*onto, *cards]
    sets = [r for r in set_readings(onto, rule.wilds, ruleset.wild_rank_sets) if _legal(ruleset, r)]
    runs = [r for r in run_readings(onto, rule.wilds, ruleset.run_min, ruleset.runs_wrap) if _legal(ruleset, r)]
    if not sets and not runs:
        return Verdict(
            False, [f"the meld on the table {meld_name(None, onto)} is not a legal set or run: it takes no lay-off"]
        )
    for reading in sets:
        if all(card.rank is reading.base or card.rank in rule.wilds for card in cards):
            after = Reading(
                "set",
                reading.naturals + sum(c.rank is reading.base for c in cards),
                tuple(c for c in combined if c.rank is not reading.base),
                base=reading.base,
            )
            if _legal(ruleset, after):
                return Verdict(True, [], [f"{label(combined)}: {after.describe()}"])
    problems: list[str] = []
    for run in runs:
        grown, problem = _extend_run(ruleset, run, onto, cards, rule.wilds)
        if grown is not None:
            return Verdict(True, [], [f"{label(combined)}: {grown.describe()}"])
        problems.append(problem)
    if problems:
        return Verdict(False, [problems[0]])
    kind = f"a set of {sets[0].base.label if sets[0].base else ''}"
    keeps = f" while the set keeps {ruleset.wild_margin_words}" if ruleset.wild_margin is not None else ""
    return Verdict(False, [f"{label(cards)} cannot go onto {kind}: only the same rank, or a wild card{keeps}"])


def _extend_run(
    ruleset: Ruleset, reading: Reading, onto: Sequence[Card], cards: Sequence[Card], wilds: frozenset[Rank]
) -> tuple[Reading | None, str]:
    """The run with ``cards`` added at its ends (every card of the run keeping its place), or why not."""
    assert reading.suit is not None and reading.low is not None
    suit, low, size = reading.suit, reading.low.value - 1, reading.size
    span = {(low + i) % RUN_ORDER for i in range(size)}
    naturals = [c for c in cards if c.rank not in wilds]
    old_naturals = Counter(onto) - Counter(reading.wilds)
    natural_places = {card.rank.value - 1 for card in old_naturals.elements()}
    for card in naturals:
        place = card.rank.value - 1
        if card.suit is suit and place in span and place not in natural_places:
            stand_in = _stand_in(onto, wilds, low, place)
            return None, (
                f"{stand_in} stands for {label([card])} in {label(onto)}: a card can only extend the run at its ends"
            )
        if card.suit is suit and place in span:
            return None, f"{label(onto)} already holds {label([card])}"
    for left in range(len(cards) + 1):
        right = len(cards) - left
        if size + len(cards) > RUN_ORDER:
            break
        if not ruleset.runs_wrap and (low - left) % RUN_ORDER not in run_starts(size + len(cards), wrap=False):
            continue
        places = {(low - 1 - i) % RUN_ORDER for i in range(left)} | {(low + size + i) % RUN_ORDER for i in range(right)}
        if any(card.suit is not suit or card.rank.value - 1 not in places for card in naturals):
            continue
        filled = {card.rank.value - 1 for card in naturals}
        if len(filled) != len(naturals):
            continue
        new_wilds = []
        for card in cards:
            if card.rank in wilds:
                place = card.rank.value - 1
                if card.suit is suit and place in places and place not in filled:
                    filled.add(place)
                else:
                    new_wilds.append(card)
        new_low = (low - left) % RUN_ORDER
        old_wilds = {place + left for place in reading.wild_places}
        wild_places = tuple(
            offset
            for offset in range(size + len(cards))
            if offset in old_wilds
            or ((new_low + offset) % RUN_ORDER in places and (new_low + offset) % RUN_ORDER not in filled)
        )
        after = Reading(
            "run",
            reading.naturals + len(filled),
            (*reading.wilds, *new_wilds),
            suit=suit,
            low=NATURAL_RANKS[new_low],
            wild_places=wild_places,
        )
        if _legal(ruleset, after):
            return after, ""
    ends = "; an ace ends a run" if not ruleset.runs_wrap else ""
    keeps = f", and {ruleset.wild_margin_words}" if ruleset.wild_margin is not None else ""
    keeps += ", and no two wilds side by side" if ruleset.no_touching_wilds else ""
    return None, f"{label(cards)} cannot go onto {label(onto)}: the next cards of the suit at either end{ends}{keeps}"


def _stand_in(onto: Sequence[Card], wilds: frozenset[Rank], low: int, place: int) -> str:
    """The wild card of ``onto`` at ``place``, when the run was entered in order; else any of them."""
    in_order = all(
        card.rank in wilds or (card.rank.value - 1 - low) % RUN_ORDER == index for index, card in enumerate(onto)
    )
    offset = (place - low) % RUN_ORDER
    if not in_order or offset >= len(onto) or onto[offset].rank not in wilds:
        return "a wild card"
    return "the joker" if onto[offset].is_joker else f"the {label([onto[offset]])}"


def _layoff_book(ruleset: Ruleset, rule: RoundRule, onto: Sequence[Card], cards: Sequence[Card]) -> Verdict:
    books = ruleset.books
    assert books is not None
    if len(onto) >= books.max_size:
        return Verdict(False, [f"the book {label(onto)} is closed at {books.max_size}"])
    combined = [*onto, *cards]
    reading, problem = read_meld(ruleset, rule, combined, Stage.MELD, books.min_size)
    if reading is None:
        return Verdict(False, [f"the book would be {label(combined)}, which {problem}"])
    return Verdict(True, [], [f"{label(combined)}: {reading.describe()}"])
