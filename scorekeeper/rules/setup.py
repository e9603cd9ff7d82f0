"""A game's setup: the ruleset, the players in their seats, the first dealer, the penny's value,
the carry and the teams; and the name policy every seated name passes (one way to write each name,
no invisible or look-alike characters, no two players alike)."""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from .books import side_name
from .names import blank_looking_position, look_alike_key
from .rulesets import Ruleset

MAX_NAME_LENGTH = 40
MAX_PENNY_CENTS = 10_000  # a penny worth up to $100: chips, nickels, dollars


class GameError(ValueError):
    """An action the table cannot take (a buy, a round, an undo); ``player`` is at fault if named (and
    ``box``, which of their boxes, when a player has several)."""

    def __init__(self, message: str, player: str | None = None, box: str | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.box = box


@dataclass(frozen=True)
class Setup:
    ruleset: Ruleset
    players: tuple[str, ...]  # in seat order, clockwise
    first_dealer: int  # seat index (0-based) of round 1's dealer
    penny_cents: int = 1
    carry_in: int = 0  # pennies left in the previous game's bowl
    teams: tuple[tuple[str, ...], ...] = ()  # sides of a books game; () = everyone plays alone
    ruleset_version: int | None = None  # the kept version of the ruleset played (None: not yet kept)

    def __post_init__(self) -> None:
        check_players(self.ruleset, self.players)
        if not 0 <= self.first_dealer < len(self.players):
            raise GameError(f"the first dealer must be one of the {len(self.players)} players")
        if self.penny_cents < 1:
            raise GameError("a penny must be worth at least 1¢")
        if self.penny_cents > MAX_PENNY_CENTS:
            raise GameError(f"a penny can be worth at most {MAX_PENNY_CENTS}¢")
        check_teams(self.ruleset, self.players, self.teams)

    @functools.cached_property
    def sides(self) -> tuple[tuple[str, ...], ...]:
        """Who scores together: the teams, or each player alone."""
        return self.teams or tuple((name,) for name in self.players)

    @functools.cached_property
    def competitors(self) -> tuple[str, ...]:
        """The names on the scorepad's columns: players, or sides ("Ann & Cy")."""
        return tuple(side_name(side) for side in self.sides)

    @functools.cached_property
    def decks(self) -> int:
        return self.ruleset.decks.decks_for(len(self.players), len(self.sides))

    @functools.cached_property
    def jokers(self) -> int:
        """The jokers this table shuffles in (each deck's, or by the players: Contract Rummy)."""
        return self.ruleset.decks.jokers_for(len(self.players), self.decks)

    def dealer(self, round_number: int) -> str:
        return self.players[dealer_seat(self.first_dealer, round_number, len(self.players))]

    def first_player(self, round_number: int) -> str:
        """Left of the dealer; in a books game (no dealer) the seat chosen at setup starts hand 1."""
        offset = 0 if self.ruleset.by_sides else 1
        return self.players[
            (dealer_seat(self.first_dealer, round_number, len(self.players)) + offset) % len(self.players)
        ]

    def side_players(self, competitor: str) -> tuple[str, ...]:
        """The players behind a scorepad column (a name may itself hold " & ")."""
        return dict(zip(self.competitors, self.sides, strict=True))[competitor]


def dealer_seat(first_dealer: int, round_number: int, seats: int) -> int:
    """The deal passes to the left (clockwise) every round."""
    return (first_dealer + round_number - 1) % seats


def seat_teams(players: Sequence[str], team_count: int) -> list[list[str]]:
    """Partners sit across from each other: with 2 teams, seats 1 & 3 against 2 & 4."""
    return [list(players[first::team_count]) for first in range(team_count)]


def clean_name(name: str) -> str:
    """A name as seated: one way to write each letter (NFC), single spaces, no spaces at the ends."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """Names are the same player when they match after normalising and ignoring case."""
    return clean_name(name).casefold()


def invisible_position(name: str) -> int | None:
    """The 1-based position of the first character a reader cannot see or that reorders the text
    (control, zero-width and bidirectional-override characters), if any: "c" and "c\u200b" must
    not sit at one table looking alike."""
    for position, char in enumerate(name, start=1):
        if unicodedata.category(char)[0] == "C" or unicodedata.category(char) in ("Zl", "Zp"):
            return position
    return None


def check_shown(name: str, what: str) -> None:
    """A player's name that shows what it is: at most 40 characters, none invisible or blank-looking."""
    if len(name) > MAX_NAME_LENGTH:
        raise GameError(f"{what} is longer than {MAX_NAME_LENGTH} characters", name)
    check_visible(name, what)


def check_visible(name: str, what: str) -> None:
    """No control, zero-width or direction character, and none that draws nothing."""
    hidden = invisible_position(name)
    if hidden is not None:
        raise GameError(
            f"{what} has an invisible or control character at position {hidden} "
            f"(U+{ord(name[hidden - 1]):04X}): type the name again",
            name,
        )
    blank = blank_looking_position(name)
    if blank is not None:
        raise GameError(
            f"{what} has a character that looks blank at position {blank} "
            f"(U+{ord(name[blank - 1]):04X}): type the name again",
            name,
        )


def check_name(name: str) -> str:
    """A player's new name, as it will be kept (NFC, single spaces), or GameError saying what is wrong."""
    cleaned = clean_name(name)
    if not cleaned:
        raise GameError("the new name is empty", name)
    check_shown(cleaned, "the new name")
    return cleaned


def check_players(ruleset: Ruleset, players: tuple[str, ...]) -> None:
    """2-8 (per ruleset) trimmed, non-empty names that show what they are, unique ignoring case and
    look-alike characters, at most 40 characters."""
    count = len(players)
    if not ruleset.players_min <= count <= ruleset.players_max:
        raise GameError(f"{ruleset.name} is for {ruleset.players_min} to {ruleset.players_max} players, not {count}")
    seen: dict[str, str] = {}
    looks: dict[str, str] = {}
    for seat, name in enumerate(players, start=1):
        if not name or name != clean_name(name):
            raise GameError(f"player {seat} needs a name")
        check_shown(name, f"the name of player {seat}")
        key = name_key(name)
        if key in seen:
            raise GameError(f"two players are called {seen[key]!r}; give one a different name", name)
        seen[key] = name
        alike = look_alike_key(name)
        if alike in looks:
            raise GameError(
                f"{name!r} (player {seat}) looks like {looks[alike]!r}: give one a name that does not look alike",
                name,
            )
        looks[alike] = name


def check_teams(ruleset: Ruleset, players: tuple[str, ...], teams: tuple[tuple[str, ...], ...]) -> None:
    """Teams of equal size that seat every player once (only in games played by sides)."""
    if not teams:
        return
    if not ruleset.by_sides:
        raise GameError(f"{ruleset.name} is played by each player alone, not in teams")
    seated = [name for team in teams for name in team]
    if sorted(seated) != sorted(players):
        missing = [name for name in players if name not in seated]
        extra = [name for name in seated if name not in players or seated.count(name) > 1]
        problem = f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} in no team" if missing else ""
        problem = problem or f"{', '.join(dict.fromkeys(extra))} must be in exactly one team of the players"
        raise GameError(f"the teams must seat every player exactly once: {problem}")
    sizes = sorted({len(team) for team in teams})
    if len(sizes) > 1:
        raise GameError(f"teams must be of equal size, not {' and '.join(map(str, sizes))} players")
    if len(teams) < 2:
        raise GameError("a game needs at least two sides")
