"""Rulesets as data: one TOML document per ruleset (see ``data/`` and docs/rules.md).

This module only parses and validates; reading files is the caller's business, so
the rules package stays free of I/O.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from .cards import Rank

_Choice = TypeVar("_Choice", bound=StrEnum)
_Value = TypeVar("_Value")


class Family(StrEnum):
    """How a ruleset is played: rounds with a contract and cards caught (the Ten Pennies family), or
    hands by sides with books and threes (Pennies From Heaven)."""

    CONTRACT = "contract"
    BOOKS = "books"


class Winner(StrEnum):
    """Who wins: the lowest total (points are bad, the penny games) or the highest (books)."""

    LOWEST = "lowest"
    HIGHEST = "highest"

    @property
    def lowest_wins(self) -> bool:
        return self is Winner.LOWEST

    @property
    def label(self) -> str:
        """ "lowest wins" """
        return f"{self.value} wins"

    @property
    def better(self) -> str:
        """Which way a score is better, as a player page says it."""
        return "fewer points is better" if self.lowest_wins else "more points is better"

    def best_of(self, lowest: int | None, highest: int | None) -> int | None:
        """The better of a lowest and a highest score (a round's, a game's)."""
        return lowest if self.lowest_wins else highest

    def worst_of(self, lowest: int | None, highest: int | None) -> int | None:
        return highest if self.lowest_wins else lowest


MELD_KINDS = ("set", "run", "book")


class RulesetError(ValueError):
    """A ruleset document that cannot be used; the message names the file and the field."""


SET_SIZE = 3  # the fewest cards of a set in a contract by kind
MELD_WORDS = ("set", "sets", "run", "runs")  # a ruleset's [meld_words]: what the game calls them


@dataclass(frozen=True)
class MeldWords:
    """What a game calls its melds, one and many, where it has words of its own (Carioca: trío and
    escala): the words its contracts are said in, on every screen and sheet."""

    set: tuple[str, str] = ("set", "sets")
    run: tuple[str, str] = ("run", "runs")

    def noun(self, kind: str, count: int) -> str:
        one, many = {"set": self.set, "run": self.run}.get(kind, ("meld", "melds"))
        return one if count == 1 else many

    def many(self, kind: str) -> str:
        return self.noun(kind, 2)

    def a(self, kind: str) -> str:
        """ "a set", "an escala": the one with its article, as an English sentence says it."""
        one = self.noun(kind, 1)
        return f"{'an' if one[:1].lower() in 'aeiou' else 'a'} {one}"

    @property
    def by_key(self) -> dict[str, str]:
        """Each word by its [meld_words] key."""
        return dict(zip(MELD_WORDS, (*self.set, *self.run), strict=True))

    @property
    def own(self) -> dict[str, str]:
        """The words that differ from the plain ones, by their [meld_words] key (the document keeps these)."""
        plain = MeldWords().by_key
        return {key: word for key, word in self.by_key.items() if word != plain[key]}


PLAIN_WORDS = MeldWords()


@dataclass(frozen=True)
class Slot:
    """One meld a contract asks for: of one of ``kinds``, at least ``size`` cards."""

    kinds: tuple[str, ...]
    size: int
    words: MeldWords = PLAIN_WORDS

    def describe(self, count: int = 1, more: str = "") -> str:
        """ "2 runs of 4"; with ``more="more "``, "2 more runs of 4"; in the game's words, "2 escalas of 4"."""
        noun = self.words.noun(self.kinds[0] if len(self.kinds) == 1 else "meld", count)
        return f"{count} {more}{noun} of {self.size}"


@dataclass(frozen=True)
class Contract:
    """The first-down requirement of a round: ``melds`` melds of at least ``size`` cards, of any of
    ``kinds`` (Ten Pennies: "2 sets of 3"); or, a contract by kind (Liverpool: "1 set of 3 and 1 run
    of 4"), ``sets`` sets of at least 3 and ``runs`` runs of at least ``run_size`` (Carioca's last
    deal: one run of 13)."""

    melds: int
    size: int
    kinds: tuple[str, ...]
    sets: int | None = None  # None: not a contract by kind
    runs: int = 0
    run_size: int = 3
    words: MeldWords = PLAIN_WORDS  # the game's own words for its melds

    @property
    def by_kind(self) -> bool:
        return self.sets is not None

    def slots(self) -> tuple[Slot, ...]:
        """The melds it asks for, one by one: sets before runs."""
        if self.sets is None:
            return (Slot(self.kinds, self.size, self.words),) * self.melds
        return (self.slot_of("set"),) * self.sets + (self.slot_of("run"),) * self.runs

    def slot_of(self, kind: str) -> Slot:
        """One meld of ``kind`` as this contract asks for it."""
        return Slot((kind,), self.least_size(kind), self.words)

    def least_size(self, kind: str) -> int:
        """The fewest cards a first-down meld of ``kind`` may hold."""
        if self.sets is None:
            return self.size
        return self.run_size if kind == "run" else SET_SIZE

    def describe(self) -> str:
        if self.sets is not None:
            return " and ".join(slot.describe(count) for slot, count in self.counted(self.slots()))
        noun = self.words.noun("set" if self.kinds == ("set",) else "meld", self.melds)
        text = f"{self.melds} {noun} of {self.size}"
        if "run" in self.kinds:
            text += f" — {self.words.many('set')} or {self.words.many('run')}"
        return text

    @staticmethod
    def counted(slots: tuple[Slot, ...]) -> list[tuple[Slot, int]]:
        """Equal slots counted, in their order: (set of 3, 2), (run of 4, 1)."""
        counts: dict[Slot, int] = {}
        for slot in slots:
            counts[slot] = counts.get(slot, 0) + 1
        return list(counts.items())


@dataclass(frozen=True)
class RoundRule:
    number: int
    contract: Contract | None  # None in a books game
    wilds: frozenset[Rank]
    wild_limit: int | None = None  # wild cards per meld on the first down
    wild_limit_per_kind: int | None = None  # ... counted per kind of wild (2s, aces, jokers)
    board_minimum: int | None = None  # books game: points needed to get on the board
    cards_dealt: int | None = None  # this round's deal, where it is not the ruleset's (Liverpool: 10, then 12)
    most_buys: int | None = None  # this round's most buys a player, where it is not the game's (Shanghai: 4 late)

    def describe_wilds(self) -> str:
        names = [_WILD_NAMES.get(rank, f"{rank.label}s") for rank in sorted(self.wilds, key=_wild_order)]
        return ", ".join(names) if names else "none"

    def describe_limit(self, short: bool = False, margin: int | None = 0) -> str:
        """Every limit on the wild cards of a first-down meld that play enforces (a round may have both:
        issue 58 found the second left off the card); with none, the game's rule of wilds against
        naturals where it has one (``margin``: see ``Ruleset.wild_margin``), else no limit at all."""
        parts = []
        if self.wild_limit is not None:
            wilds = "wild" if self.wild_limit == 1 else "wilds"
            parts.append(f"≤ {self.wild_limit} per set" if short else f"at most {self.wild_limit} {wilds} per set")
        if self.wild_limit_per_kind is not None:
            each = self.wild_limit_per_kind
            parts.append(f"≤ {each} of each per set" if short else f"at most {each} of each kind of wild per set")
        if parts:
            return (", " if short else " and ").join(parts)
        if margin is None:
            return "any number of wilds" if short else "any number of wild cards in a meld"
        if margin:
            return "wilds < naturals" if short else "fewer wilds than natural cards in a meld"
        return "wilds ≤ naturals" if short else "no more wilds than natural cards in a meld"


_WILD_NAMES = {Rank.TWO: "2s", Rank.ACE: "aces", Rank.JOKER: "jokers"}


def _wild_order(rank: Rank) -> int:
    """Wilds are listed as docs/rules.md's table lists them: 2s, aces, jokers."""
    order = list(_WILD_NAMES)
    return order.index(rank) if rank in order else len(order) + rank.value


@dataclass(frozen=True)
class DeckRule:
    """How many decks a table shuffles for N players (and, in a books game, S sides)."""

    jokers_per_deck: int
    players_per_deck: int | None = None
    table: tuple[tuple[int, int], ...] = ()  # (max players, decks), ascending
    base: int | None = None
    extra_per_side: int | None = None
    jokers_fewer_than_players: int | None = None  # the jokers by the table, not the decks (Contract Rummy: 1)

    def jokers_for(self, players: int, decks: int) -> int:
        """The jokers shuffled in: each deck's, or as many as the players less the rule's figure."""
        if self.jokers_fewer_than_players:
            return max(players - self.jokers_fewer_than_players, 0)
        return decks * self.jokers_per_deck

    def cards_for(self, players: int, sides: int | None = None) -> int:
        """Every card a table of ``players`` shuffles."""
        decks = self.decks_for(players, sides)
        return decks * 52 + self.jokers_for(players, decks)

    def decks_for(self, players: int, sides: int | None = None) -> int:
        if self.players_per_deck:
            return math.ceil(players / self.players_per_deck)
        for max_players, decks in self.table:
            if players <= max_players:
                return decks
        if self.base is not None and self.extra_per_side is not None:
            further = max((sides or players) - 2, math.ceil((players - 2) / 2), 0)
            return self.base + self.extra_per_side * further
        raise ValueError(f"no deck count for {players} players")


@dataclass(frozen=True)
class BuyRule:
    stack: int | None  # buys a player has for the whole game (None: no limit)
    pennies: int  # pennies each buy puts into the bowl
    cards: int  # cards a buy adds to the hand
    first_round: int
    free_per_round: int | None = None  # buys a round without penalty (None: no limit)
    penalty_points: int = 0  # points for each buy beyond the free ones
    most_per_round: int | None = None  # buys a player may make in one round (None: no limit)


@dataclass(frozen=True)
class LaterMeldRule:
    min_size: int
    max_wilds: int | None  # None: the ruleset's wilds-at-most-naturals rule applies


@dataclass(frozen=True)
class BookRule:
    min_size: int
    max_size: int
    max_wilds: int
    naturals_per_wild: int
    natural: int
    mixed: int
    sevens: int
    wild: int
    going_out: int
    red_three: int
    red_three_many: int
    red_three_many_from: int
    black_three_in_hand: int
    board_minimum_below_zero: int


@dataclass(frozen=True)
class Ruleset:
    id: str
    name: str
    family: Family
    summary: str
    players_min: int
    players_max: int
    cards_dealt: int
    winner: Winner
    meld_kinds: tuple[str, ...]
    points: Mapping[Rank, int]
    pennies_per_card: int
    decks: DeckRule
    rounds: tuple[RoundRule, ...]
    buys: BuyRule | None = None
    later_melds: LaterMeldRule | None = None
    books: BookRule | None = None
    suits_required: bool = False
    no_duplicates: bool = False
    contract_exact: bool = True  # first down: exactly the contract's melds (False: at least)
    wilds_at_most_naturals: bool = False
    wild_rank_sets: bool = True  # a set may be of a wild rank (Ten Pennies: three 2s); not in Ten Card Rummy
    pile_size: int = 0
    run_min: int = 3  # the fewest cards of any run (Liverpool, Carioca: 4)
    runs_wrap: bool = True  # a run may go over the top (Q K A 2); False: an ace is high or low, not both
    lay_offs_only: bool = False  # after going down no new melds, only lay-offs (Liverpool)
    wilds_fewer_than_naturals: bool = False  # every meld holds more naturals than wilds (Shanghai)
    no_touching_wilds: bool = False  # no two wild cards side by side in a run (Continental)
    out_at_once_bonus: int = 0  # points off for going down and out in one turn (Continental: 10)
    exact_cut_bonus: int = 0  # points off for the cutter who leaves exactly the deal (Liverpool: 50)
    meld_words: MeldWords = PLAIN_WORDS  # what the game calls its sets and runs (Carioca: trío, escala)

    @property
    def wild_margin(self) -> int | None:
        """How many more natural cards than wild ones every meld must hold: 0 where wilds may be as many
        (Ten Card Rummy), 1 where they must be fewer (Shanghai); None where the game has no such rule."""
        if self.wilds_fewer_than_naturals:
            return 1
        return 0 if self.wilds_at_most_naturals else None

    def most_wilds(self, naturals: int) -> int | None:
        """The wild cards a meld of ``naturals`` natural cards may hold by that rule (None: no limit)."""
        margin = self.wild_margin
        return None if margin is None else max(naturals - margin, 0)

    @property
    def wild_margin_words(self) -> str:
        """The rule in a reason's words: "no more wilds than naturals", "fewer wilds than naturals"."""
        return "fewer wilds than naturals" if self.wild_margin else "no more wilds than naturals"

    def most_buys(self, round_number: int) -> int | None:
        """The most buys a player may make in a round: the round's own figure, else the game's."""
        own = self.round(round_number).most_buys
        if own is not None:
            return own
        return self.buys.most_per_round if self.buys else None

    @property
    def is_penny_game(self) -> bool:
        """Plays for a bowl of pennies (the Ten Pennies rulesets); a tie's leftover carries only into such a game."""
        return self.pennies_per_card > 0 or bool(self.buys and self.buys.pennies)

    @property
    def has_contract(self) -> bool:
        """Its rounds set a first-down contract (Pennies From Heaven's hands set a board minimum instead)."""
        return self.rounds[0].contract is not None

    @property
    def by_sides(self) -> bool:
        """Scored side by side with books and threes (Pennies From Heaven), not by cards caught."""
        return self.family is Family.BOOKS

    @property
    def round_word(self) -> str:
        """What the table calls one deal: a "hand" in a game played by sides, else a "round"."""
        return "hand" if self.by_sides else "round"

    @property
    def round_abbrev(self) -> str:
        """The same in a narrow column head: "hand" stays whole, "round" is "rd"."""
        return "hand" if self.by_sides else "rd"

    def round(self, number: int) -> RoundRule:
        if not 1 <= number <= len(self.rounds):
            raise ValueError(f"{self.name} has rounds 1 to {len(self.rounds)}, not {number}")
        return self.rounds[number - 1]

    def describe_wild_rule(self, rule: RoundRule, short: bool = False) -> str:
        """The wild-card rule of a round in table words (a books game states its book rule); ``short``
        for a narrow column."""
        if self.books is not None:
            return (
                f"at most {self.books.max_wilds} wilds in a book, each with {self.books.naturals_per_wild} "
                "naturals; none in a book of sevens"
            )
        words = rule.describe_limit(short, margin=self.wild_margin)
        if self.no_touching_wilds:
            w = self.meld_words
            words += f", apart in {w.many('run')}" if short else f", never two side by side in {w.a('run')}"
        return words

    @property
    def largest_deal(self) -> int:
        """Every card the decks of the largest table hold: no hand can be longer."""
        return self.decks.cards_for(self.players_max)

    def dealt(self, round_number: int | None = None) -> int:
        """The cards each player is dealt in a round (without a round: the largest deal of the game)."""
        if round_number is None:
            return max(rule.cards_dealt or self.cards_dealt for rule in self.rounds)
        return self.round(round_number).cards_dealt or self.cards_dealt

    @property
    def deal_words(self) -> str:
        """ "11 cards each"; where deals differ, "10 cards each in rounds 1–4, 12 in rounds 5–7"."""
        deals = [self.dealt(rule.number) for rule in self.rounds]
        spans = round_spans(deals)
        if len(spans) == 1:
            return f"{self.cards_dealt} {'card' if self.cards_dealt == 1 else 'cards'} each"
        if len(deals) > 2 and all(later == earlier + 1 for earlier, later in zip(deals, deals[1:], strict=False)):
            word = self.round_word  # Continental: 7, 8, ... 13
            return f"{deals[0]} cards each in {word} 1, one more each {word}: {deals[-1]} in {word} {len(deals)}"
        parts = [f"{cards} in {self.rounds_words(first, last)}" for first, last, cards in spans]
        return parts[0].replace(" in ", " cards each in ", 1) + ", " + ", ".join(parts[1:])

    def rounds_words(self, first: int, last: int) -> str:
        """ "round 3", "rounds 1–8" ("hands" in a game played by sides)."""
        word = self.round_word
        return f"{word} {first}" if first == last else f"{word}s {first}–{last}"

    def hand_limit(self, buys: int, round_number: int | None = None) -> int:
        """The most cards a player can hold at the end of a round after ``buys`` buys."""
        per_buy = self.buys.cards if self.buys else 0
        return self.dealt(round_number) + per_buy * buys + self.pile_size

    def to_summary(self) -> dict[str, Any]:
        """A JSON-ready description (the ``GET /api/rulesets`` entry)."""
        return {
            "id": self.id,
            "name": self.name,
            "family": self.family,
            "summary": self.summary,
            "players": {"min": self.players_min, "max": self.players_max},
            "cards_dealt": self.cards_dealt,
            "winner": self.winner,
            "points": {rank.label: value for rank, value in sorted(self.points.items())},
            "pennies_per_card": self.pennies_per_card,
            "rounds": [
                {
                    "number": r.number,
                    "contract": r.contract.describe() if r.contract else None,
                    "board_minimum": r.board_minimum,
                    "wilds": [rank.label for rank in sorted(r.wilds)],
                    "wild_limit": r.wild_limit,
                    "wild_limit_per_kind": r.wild_limit_per_kind,
                }
                for r in self.rounds
            ],
        }


def round_spans(values: Sequence[_Value]) -> list[tuple[int, int, _Value]]:
    """Rounds in runs of one value, numbered from 1: [10, 10, 12] is [(1, 2, 10), (3, 3, 12)]."""
    spans: list[tuple[int, int, _Value]] = []
    for number, value in enumerate(values, start=1):
        if spans and spans[-1][2] == value:
            spans[-1] = (spans[-1][0], number, value)
        else:
            spans.append((number, number, value))
    return spans


def parse_ruleset(text: str, source: str = "<ruleset>") -> Ruleset:
    """Parse and validate one TOML ruleset document; errors name ``source``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesetError(f"{source}: not valid TOML ({error})") from None
    return read_ruleset(data, source)


def read_ruleset(data: dict[str, Any], source: str = "<ruleset>") -> Ruleset:
    """Validate a ruleset document already read into plain data (a TOML file's, a stored copy's, the
    house-rules form's): the one reader, so every way in is refused in the same words."""
    return _Reader(data, source).ruleset()


def _label_list(ranks: frozenset[Rank]) -> list[str]:
    return [rank.label for rank in sorted(ranks, key=_wild_order)]


def _without_none(table: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in table.items() if value is not None}


def ruleset_document(ruleset: Ruleset) -> dict[str, Any]:
    """The plain-data document ``read_ruleset`` reads back into this very ruleset: what a game keeps
    of the rules it is played under, and what the house-rules form starts from."""
    r = ruleset
    document: dict[str, Any] = {
        "id": r.id,
        "name": r.name,
        "family": r.family.value,
        "summary": r.summary,
        "players": {"min": r.players_min, "max": r.players_max},
        "cards_dealt": r.cards_dealt,
        "winner": r.winner.value,
        "meld_kinds": list(r.meld_kinds),
        "points": {rank.label: value for rank, value in sorted(r.points.items())},
        "money": {"pennies_per_card": r.pennies_per_card},
        "decks": _without_none(
            {
                "jokers_per_deck": r.decks.jokers_per_deck,
                "players_per_deck": r.decks.players_per_deck,
                "table": [{"max_players": most, "decks": decks} for most, decks in r.decks.table] or None,
                "base": r.decks.base,
                "extra_per_side": r.decks.extra_per_side,
                "jokers_fewer_than_players": r.decks.jokers_fewer_than_players,
            }
        ),
        "rounds": [_round_document(rule) for rule in r.rounds],
        "suits_required": r.suits_required,
        "no_duplicates": r.no_duplicates,
        "contract_exact": r.contract_exact,
        "wilds_at_most_naturals": r.wilds_at_most_naturals,
        "wild_rank_sets": r.wild_rank_sets,
        "pile_size": r.pile_size,
    }
    # Options later releases brought are kept only where a ruleset sets them: the document of a ruleset
    # that does not (every one before them) stays as it was, so no game's rules look changed.
    for name, default in _LATER_OPTIONS.items():
        if getattr(r, name) != default:
            document[name] = getattr(r, name)
    if r.meld_words.own:
        document["meld_words"] = r.meld_words.own
    if r.buys is not None:
        document["buys"] = _without_none(vars(r.buys).copy())
    if r.later_melds is not None:
        document["later_melds"] = _without_none(vars(r.later_melds).copy())
    if r.books is not None:
        document["books"] = vars(r.books).copy()
    return document


_LATER_OPTIONS = {  # issue 61's, with their defaults
    "run_min": 3,
    "runs_wrap": True,
    "lay_offs_only": False,
    "wilds_fewer_than_naturals": False,
    "no_touching_wilds": False,
    "out_at_once_bonus": 0,
    "exact_cut_bonus": 0,
}


def _contract_document(contract: Contract | None) -> dict[str, Any] | None:
    if contract is None:
        return None
    if contract.sets is None:
        return {"melds": contract.melds, "size": contract.size}
    return {
        "sets": contract.sets,
        "runs": contract.runs,
        "run_size": contract.run_size,
    }


def _round_document(rule: RoundRule) -> dict[str, Any]:
    return _without_none(
        {
            "contract": _contract_document(rule.contract),
            "cards_dealt": rule.cards_dealt,
            "wilds": _label_list(rule.wilds),
            "wild_limit": rule.wild_limit,
            "wild_limit_per_kind": rule.wild_limit_per_kind,
            "board_minimum": rule.board_minimum,
            "most_buys": rule.most_buys,
        }
    )


# The most a field may hold: a house ruleset is typed at the table or dropped in as a file, and
# every figure bounds the work a game asks of the engine (a deal, a search for the contract).
# Generous beside the shipped rules (PFH: 12 players, 14 decks; Ten Card Rummy: 11 rounds).
MOST = {
    "players.min": 12,
    "players.max": 12,
    "cards_dealt": 30,
    "pile_size": 60,
    "decks.jokers_per_deck": 4,
    "decks.players_per_deck": 12,
    "decks.table": 30,
    "decks.base": 30,
    "decks.extra_per_side": 4,
    "decks.jokers_fewer_than_players": 11,
    "rounds.contract.melds": 6,
    "rounds.contract.size": 15,
    "rounds.contract.sets": 6,
    "rounds.contract.runs": 6,
    "rounds.contract.run_size": 13,
    "rounds.cards_dealt": 30,
    "rounds.most_buys": 20,
    "run_min": 13,
    "rounds.wild_limit": 15,
    "rounds.wild_limit_per_kind": 15,
    "rounds.board_minimum": 10_000,
    "money.pennies_per_card": 100,
    "buys.stack": 100,
    "buys.pennies": 100,
    "buys.cards": 10,
    "buys.first_round": 20,
    "buys.free_per_round": 100,
    "buys.penalty_points": 10_000,
    "buys.most_per_round": 20,
    "out_at_once_bonus": 1_000,
    "exact_cut_bonus": 1_000,
    "later_melds.min_size": 15,
    "later_melds.max_wilds": 15,
}
MOST_DECKS = 30  # Pennies From Heaven shuffles 24 for 12 players each on their own
MOST_POINTS = 1_000  # a card's points
MOST_BOOK_VALUE = 100_000
MOST_ROUNDS = 20
MOST_TEXT = {"id": 40, "name": 60, "summary": 300, **{f"meld_words.{key}": 20 for key in MELD_WORDS}}


def _most(field: str) -> int | None:
    """The bound of a field by its name, its round number left out (``rounds[3].wild_limit``)."""
    name = re.sub(r"\[\d+\]", "", field)
    if name.startswith("points."):
        return MOST_POINTS
    if name.startswith("books."):
        return MOST_BOOK_VALUE
    return MOST.get(name)


class _Reader:
    """Reads a ruleset dict field by field so every error names the offending field."""

    def __init__(self, data: dict[str, Any], source: str) -> None:
        self.data = data
        self.source = source
        self.words = PLAIN_WORDS  # the game's own [meld_words], once read

    def fail(self, field: str, problem: str) -> RulesetError:
        return RulesetError(f"{self.source}: {field}: {problem}")

    def get(self, table: Mapping[str, Any], key: str, kind: type, field: str, default: Any = ...) -> Any:
        if key not in table:
            if default is ...:
                raise self.fail(field, "is missing")
            return default
        value = table[key]
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.fail(field, f"must be a whole number, not {value!r}")
        if not isinstance(value, kind):
            raise self.fail(field, f"must be a {kind.__name__}, not {value!r}")
        if isinstance(value, int) and value < 0:
            raise self.fail(field, f"must not be negative, not {value}")
        most = MOST_TEXT.get(field) if isinstance(value, str) else _most(field)
        if isinstance(value, str) and most is not None and len(value) > most:
            raise self.fail(field, f"must be at most {most} characters, not {len(value)}")
        if isinstance(value, int) and most is not None and value > most:
            raise self.fail(field, f"must be at most {most}, not {value}")
        return value

    def table(self, key: str, required: bool = True) -> dict[str, Any] | None:
        if key not in self.data:
            if required:
                raise self.fail(key, "is missing")
            return None
        return dict(self.get(self.data, key, dict, key))

    def rank(self, label: Any, field: str) -> Rank:
        try:
            return Rank.from_label(str(label))
        except ValueError:
            raise self.fail(field, f"{label!r} is not a rank") from None

    def choice(self, d: dict[str, Any], key: str, kind: type[_Choice]) -> _Choice:
        """One of a StrEnum's values, or the field named with the values it may take."""
        text = self.get(d, key, str, key)
        try:
            return kind(text)
        except ValueError:
            raise self.fail(key, f"{text!r} is not one of {', '.join(repr(c.value) for c in kind)}") from None

    def ruleset(self) -> Ruleset:
        d = self.data
        ruleset_id = self.get(d, "id", str, "id")
        if not ruleset_id or not all(c.isalnum() or c == "-" for c in ruleset_id):
            raise self.fail("id", f"{ruleset_id!r} must be letters, digits and dashes")
        family = self.choice(d, "family", Family)
        players = self.get(d, "players", dict, "players")
        players_min = self.get(players, "min", int, "players.min")
        players_max = self.get(players, "max", int, "players.max")
        if not 2 <= players_min <= players_max:
            raise self.fail("players", f"min {players_min} and max {players_max} make no table")
        winner = self.choice(d, "winner", Winner)
        kinds = tuple(self.get(d, "meld_kinds", list, "meld_kinds"))
        for kind in kinds:
            if kind not in MELD_KINDS:
                raise self.fail("meld_kinds", f"{kind!r} is not one of {', '.join(MELD_KINDS)}")
        self.words = self.meld_words()  # before the rounds: their contracts are said in these words
        rules = Ruleset(
            id=ruleset_id,
            name=self.get(d, "name", str, "name"),
            family=family,
            summary=self.get(d, "summary", str, "summary", ""),
            players_min=players_min,
            players_max=players_max,
            cards_dealt=self.get(d, "cards_dealt", int, "cards_dealt"),
            winner=winner,
            meld_kinds=kinds,
            points=self.points(),
            pennies_per_card=self.get(self.table("money") or {}, "pennies_per_card", int, "money.pennies_per_card"),
            decks=self.decks(players_max),
            rounds=self.rounds(family, kinds),
            buys=self.buys(),
            later_melds=self.later_melds(),
            books=self.books(family),
            suits_required=self.get(d, "suits_required", bool, "suits_required", False),
            no_duplicates=self.get(d, "no_duplicates", bool, "no_duplicates", False),
            contract_exact=self.get(d, "contract_exact", bool, "contract_exact", True),
            wilds_at_most_naturals=self.get(d, "wilds_at_most_naturals", bool, "wilds_at_most_naturals", False),
            wild_rank_sets=self.get(d, "wild_rank_sets", bool, "wild_rank_sets", True),
            pile_size=self.get(d, "pile_size", int, "pile_size", 0),
            run_min=self.run_min(kinds),
            runs_wrap=self.get(d, "runs_wrap", bool, "runs_wrap", True),
            lay_offs_only=self.lay_offs_only(),
            wilds_fewer_than_naturals=self.get(
                d, "wilds_fewer_than_naturals", bool, "wilds_fewer_than_naturals", False
            ),
            no_touching_wilds=self.no_touching_wilds(kinds),
            out_at_once_bonus=self.contract_bonus("out_at_once_bonus", family),
            exact_cut_bonus=self.contract_bonus("exact_cut_bonus", family),
            meld_words=self.words,
        )
        return rules

    def meld_words(self) -> MeldWords:
        """[meld_words]: the game's own nouns, one and many (a many left out: the one with an s)."""
        table = self.table("meld_words", required=False) or {}
        for key in table:
            if key not in MELD_WORDS:
                raise self.fail(f"meld_words.{key}", f"is not one of {', '.join(MELD_WORDS)}")
        said = {key: self.get(table, key, str, f"meld_words.{key}", "").strip() for key in MELD_WORDS}
        for one in ("set", "run"):
            if said[one + "s"] and not said[one]:
                raise self.fail(f"meld_words.{one}", f"is missing: the word for one, beside {said[one + 's']!r}")

        def pair(one: str, default: tuple[str, str]) -> tuple[str, str]:
            return (said[one], said[one + "s"] or said[one] + "s") if said[one] else default

        return MeldWords(set=pair("set", PLAIN_WORDS.set), run=pair("run", PLAIN_WORDS.run))

    def contract_bonus(self, key: str, family: Family) -> int:
        """Points off for a feat of a contract game's round (going down and out at once, an exact cut)."""
        bonus: int = self.get(self.data, key, int, key, 0)
        if bonus and family is Family.BOOKS:
            raise self.fail(key, "is a rule for contract games: a books game scores going out in books")
        return bonus

    def no_touching_wilds(self, kinds: tuple[str, ...]) -> bool:
        apart = bool(self.get(self.data, "no_touching_wilds", bool, "no_touching_wilds", False))
        if apart and "run" not in kinds:
            raise self.fail("no_touching_wilds", "is a rule for runs, and meld_kinds has no runs")
        return apart

    def lay_offs_only(self) -> bool:
        only = bool(self.get(self.data, "lay_offs_only", bool, "lay_offs_only", False))
        if only and "later_melds" in self.data:
            raise self.fail("lay_offs_only", "says no new melds after going down, and later_melds says how to lay them")
        return only

    def run_min(self, kinds: tuple[str, ...]) -> int:
        least: int = self.get(self.data, "run_min", int, "run_min", 3)
        if least < 3:
            raise self.fail("run_min", f"a run holds at least 3 cards, not {least}")
        if least != 3 and "run" not in kinds:
            raise self.fail("run_min", "is a rule for runs, and meld_kinds has no runs")
        return least

    def points(self) -> dict[Rank, int]:
        table = self.table("points")
        assert table is not None
        points = {
            self.rank(label, f"points.{label}"): self.get(table, label, int, f"points.{label}") for label in table
        }
        missing = [rank.label for rank in Rank if rank not in points]
        if missing:
            raise self.fail("points", f"no points for {', '.join(missing)}")
        return points

    def decks(self, players_max: int) -> DeckRule:
        table = self.table("decks")
        assert table is not None
        rows = tuple(
            (self.get(row, "max_players", int, "decks.table"), self.get(row, "decks", int, "decks.table"))
            for row in self.get(table, "table", list, "decks.table", [])
        )
        fewer = self.get(table, "jokers_fewer_than_players", int, "decks.jokers_fewer_than_players", None) or None
        per_deck = self.get(table, "jokers_per_deck", int, "decks.jokers_per_deck", 0 if fewer else ...)
        if fewer and per_deck:
            raise self.fail("decks.jokers_per_deck", "must be 0 or blank when the jokers go by the players")
        rule = DeckRule(
            jokers_per_deck=per_deck,
            jokers_fewer_than_players=fewer,
            players_per_deck=self.get(table, "players_per_deck", int, "decks.players_per_deck", None),
            table=tuple(sorted(rows)),
            base=self.get(table, "base", int, "decks.base", None),
            extra_per_side=self.get(table, "extra_per_side", int, "decks.extra_per_side", None),
        )
        try:
            most_decks = max(rule.decks_for(players) for players in range(2, players_max + 1))
        except ValueError:
            raise self.fail("decks", f"gives no deck count for {players_max} players") from None
        if most_decks > MOST_DECKS:
            raise self.fail("decks", f"may be at most {MOST_DECKS} decks, not {most_decks}")
        return rule

    def rounds(self, family: Family, kinds: tuple[str, ...]) -> tuple[RoundRule, ...]:
        rows = self.get(self.data, "rounds", list, "rounds")
        if not rows:
            raise self.fail("rounds", "there must be at least one round")
        if len(rows) > MOST_ROUNDS:
            raise self.fail("rounds", f"there may be at most {MOST_ROUNDS} rounds, not {len(rows)}")
        return tuple(self.round_rule(number, row, family, kinds) for number, row in enumerate(rows, start=1))

    def round_rule(self, number: int, row: dict[str, Any], family: Family, kinds: tuple[str, ...]) -> RoundRule:
        field = f"rounds[{number}]"
        wilds = frozenset(
            self.rank(label, f"{field}.wilds") for label in self.get(row, "wilds", list, f"{field}.wilds")
        )
        contract = None
        if family is Family.CONTRACT:
            spec = self.get(row, "contract", dict, f"{field}.contract")
            contract = self.contract(spec, f"{field}.contract", kinds)
        return RoundRule(
            number=number,
            contract=contract,
            wilds=wilds,
            wild_limit=self.get(row, "wild_limit", int, f"{field}.wild_limit", None),
            wild_limit_per_kind=self.get(row, "wild_limit_per_kind", int, f"{field}.wild_limit_per_kind", None),
            # a books game's hand cannot be played without it: required there, and only there
            board_minimum=self.get(
                row, "board_minimum", int, f"{field}.board_minimum", ... if family is Family.BOOKS else None
            ),
            cards_dealt=self.get(row, "cards_dealt", int, f"{field}.cards_dealt", None),
            most_buys=self.round_most_buys(row, field),
        )

    def round_most_buys(self, row: dict[str, Any], field: str) -> int | None:
        most: int | None = self.get(row, "most_buys", int, f"{field}.most_buys", None)
        if most is not None and "buys" not in self.data:
            raise self.fail(f"{field}.most_buys", "is a limit on buys, and the game has no buying")
        return most

    def contract(self, spec: dict[str, Any], field: str, kinds: tuple[str, ...]) -> Contract:
        """``{melds, size}`` (melds of any kind the game has) or ``{sets, runs}`` (a contract by kind)."""
        if not {"sets", "runs", "run_size"} & set(spec):
            contract = Contract(
                melds=self.get(spec, "melds", int, f"{field}.melds"),
                size=self.get(spec, "size", int, f"{field}.size"),
                kinds=kinds,
                words=self.words,
            )
            if contract.melds < 1 or contract.size < 3:
                raise self.fail(field, "needs at least 1 meld of at least 3 cards")
            return contract
        sets = self.get(spec, "sets", int, f"{field}.sets", 0)
        runs = self.get(spec, "runs", int, f"{field}.runs", 0)
        least_run = self.get(self.data, "run_min", int, "run_min", 3)
        run_size = self.get(spec, "run_size", int, f"{field}.run_size", least_run)
        for part in ("melds", "size"):
            if part in spec:
                self.get(spec, part, int, f"{field}.{part}")  # a figure typed wrong is said first
                raise self.fail(field, "is either melds and size, or sets and runs: not both")
        if sets + runs < 1:
            raise self.fail(field, "needs at least 1 set or run")
        if sets + runs > MOST["rounds.contract.melds"]:
            raise self.fail(field, f"may ask at most {MOST['rounds.contract.melds']} melds, not {sets + runs}")
        for kind, count in (("set", sets), ("run", runs)):
            if count and kind not in kinds:
                raise self.fail(f"{field}.{kind}s", f"asks for {kind}s, and meld_kinds has none")
        if run_size < max(3, least_run):
            raise self.fail(f"{field}.run_size", f"a run holds at least {max(3, least_run)} cards, not {run_size}")
        return Contract(
            melds=sets + runs,
            size=min(size for size, count in ((SET_SIZE, sets), (run_size, runs)) if count),
            kinds=tuple(kind for kind, count in (("set", sets), ("run", runs)) if count),
            sets=sets,
            runs=runs,
            run_size=run_size,
            words=self.words,
        )

    def buys(self) -> BuyRule | None:
        table = self.table("buys", required=False)
        if table is None:
            return None
        cards = self.get(table, "cards", int, "buys.cards")
        if cards == 0:
            raise self.fail("buys.cards", "a buy takes at least 1 card (the discard)")
        return BuyRule(
            stack=self.get(table, "stack", int, "buys.stack", None),
            pennies=self.get(table, "pennies", int, "buys.pennies", 0),
            cards=cards,
            first_round=self.get(table, "first_round", int, "buys.first_round", 1),
            free_per_round=self.get(table, "free_per_round", int, "buys.free_per_round", None),
            penalty_points=self.get(table, "penalty_points", int, "buys.penalty_points", 0),
            most_per_round=self.get(table, "most_per_round", int, "buys.most_per_round", None),
        )

    def later_melds(self) -> LaterMeldRule | None:
        table = self.table("later_melds", required=False)
        if table is None:
            return None
        return LaterMeldRule(
            min_size=self.get(table, "min_size", int, "later_melds.min_size"),
            max_wilds=self.get(table, "max_wilds", int, "later_melds.max_wilds", None),
        )

    def books(self, family: Family) -> BookRule | None:
        if family is not Family.BOOKS:
            return None
        table = self.table("books")
        assert table is not None
        values = {name: self.get(table, name, int, f"books.{name}") for name in BookRule.__dataclass_fields__}
        return BookRule(**values)
