"""A player's record across games (issue 29): what the player page, head to head, seasons and the
API show, as arithmetic on small value objects — no SQL, no Flask.

The store keeps one ``Tally`` per player, ruleset and day (the day the game's night began); a page
adds up the days it asks for. Every field adds up, so a year of tallies is as cheap as a week: a
winning streak is kept as the run of wins at the start and end of the days and the longest inside,
which join exactly (``Streak``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from fractions import Fraction
from typing import TypeVar

from .ledger import standings
from .rulesets import Winner


@dataclass(frozen=True)
class Streak:
    """Wins in a row over some games, in order: joinable, so days add up to a season."""

    games: int = 0
    first: int = 0  # wins in a row at the start
    last: int = 0  # wins in a row at the end
    longest: int = 0

    @classmethod
    def of(cls, wins: Iterable[bool]) -> Streak:
        total = Streak()
        for won in wins:
            total = total + Streak(1, int(won), int(won), int(won))
        return total

    def __add__(self, later: Streak) -> Streak:
        all_won = self.first == self.games  # every game so far won (or none played)
        later_all_won = later.first == later.games
        return Streak(
            games=self.games + later.games,
            first=self.games + later.first if all_won else self.first,
            last=self.last + later.games if later_all_won else later.last,
            longest=max(self.longest, later.longest, self.last + later.first),
        )


@dataclass(frozen=True)
class GameLine:
    """One player's finished game, as the record counts it."""

    won: bool
    rounds: int
    points: int
    money_cents: int
    best_low: int | None  # the seat's lowest round score (and, below, its highest)
    best_high: int | None
    went_out: int  # rounds (hands) this player went out
    buys: int
    caught: tuple[int, ...] = ()  # cards caught in hand, by round number (card games only)


@dataclass(frozen=True)
class Tally:
    """Finished games added up (a day, a month, a season)."""

    games: int = 0
    wins: int = 0
    rounds: int = 0
    points: int = 0
    money_cents: int = 0
    lowest_round: int | None = None
    highest_round: int | None = None
    went_out: int = 0
    buys: int = 0
    caught: Mapping[int, tuple[int, int]] = field(default_factory=dict)  # round → (cards, times played)
    streak: Streak = Streak()

    @classmethod
    def of(cls, lines: Sequence[GameLine]) -> Tally:
        """The games in the order they were played."""
        total = Tally()
        for line in lines:
            total = total + cls.one(line)
        return total

    @classmethod
    def one(cls, line: GameLine) -> Tally:
        return Tally(
            games=1,
            wins=int(line.won),
            rounds=line.rounds,
            points=line.points,
            money_cents=line.money_cents,
            lowest_round=line.best_low,
            highest_round=line.best_high,
            went_out=line.went_out,
            buys=line.buys,
            caught={number: (cards, 1) for number, cards in enumerate(line.caught, start=1)},
            streak=Streak.of([line.won]),
        )

    def __add__(self, later: Tally) -> Tally:
        caught = dict(self.caught)
        for number, (cards, times) in later.caught.items():
            had_cards, had_times = caught.get(number, (0, 0))
            caught[number] = (had_cards + cards, had_times + times)
        return Tally(
            games=self.games + later.games,
            wins=self.wins + later.wins,
            rounds=self.rounds + later.rounds,
            points=self.points + later.points,
            money_cents=self.money_cents + later.money_cents,
            lowest_round=_least(self.lowest_round, later.lowest_round),
            highest_round=_most(self.highest_round, later.highest_round),
            went_out=self.went_out + later.went_out,
            buys=self.buys + later.buys,
            caught=caught,
            streak=self.streak + later.streak,
        )

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.games) if self.games else None

    @property
    def points_per_round(self) -> Fraction | None:
        return Fraction(self.points, self.rounds) if self.rounds else None

    @property
    def buys_per_game(self) -> Fraction | None:
        return Fraction(self.buys, self.games) if self.games else None

    def best_round(self, winner: Winner) -> int | None:
        return winner.best_of(self.lowest_round, self.highest_round)

    def worst_round(self, winner: Winner) -> int | None:
        return winner.worst_of(self.lowest_round, self.highest_round)

    def hardest_round(self) -> int | None:
        """The round (contract) they were caught with the most cards in, on average over the times
        they played it; the earlier round on a tie; None when never caught with a card."""
        averages = {number: Fraction(cards, times) for number, (cards, times) in self.caught.items() if cards}
        if not averages:
            return None
        return min(averages, key=lambda number: (-averages[number], number))


Added = TypeVar("Added", Tally, int)  # what by_period adds up


def total(tallies: Iterable[Tally]) -> Tally:
    """Tallies in the order they were played (days, oldest first)."""
    result = Tally()
    for tally in tallies:
        result = result + tally
    return result


def by_period(amounts: Iterable[tuple[str, Added]], length: int) -> list[tuple[str, Added]]:
    """Amounts of periods ("2026", "2026-11", "2026-11-21": tallies, or cents) added up by month
    (``length`` 7: "2026-11") or by year (4: "2026"), oldest first."""
    periods: dict[str, Added] = {}
    for period, amount in amounts:
        into = period[:length]
        periods[into] = periods[into] + amount if into in periods else amount
    return sorted(periods.items())


MONTH, YEAR = 7, 4


def _least(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


def _most(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else max(a, b)


# --- head to head ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Versus:
    """Two players' games against each other: how often each finished ahead, and the difference of
    their money (the first's minus the second's, in cents) over those games."""

    games: int = 0
    ahead: int = 0
    behind: int = 0
    money_cents: int = 0

    def __add__(self, later: Versus) -> Versus:
        return Versus(
            self.games + later.games,
            self.ahead + later.ahead,
            self.behind + later.behind,
            self.money_cents + later.money_cents,
        )

    @property
    def level(self) -> int:
        return self.games - self.ahead - self.behind


MIN_SHARED_GAMES = 5  # a toughest opponent or favourite victim needs this many games together


def places(totals: Mapping[str, int], lowest_wins: bool) -> dict[str, int]:
    """Each competitor's place at the end (1 for the winner; equal totals share a place)."""
    return {standing.name: standing.rank for standing in standings(totals, lowest_wins)}


def versus_in_game(place: int, other_place: int, money_cents: int, other_money_cents: int) -> Versus:
    """One finished game of two players on different sides."""
    return Versus(1, int(place < other_place), int(place > other_place), money_cents - other_money_cents)


def toughest_opponent(rivals: Mapping[str, Versus]) -> str | None:
    """Of the players met at least MIN_SHARED_GAMES times, the one most often ahead of this player
    (as a share of their games; then more games; then by name)."""
    return _most_often(rivals, lambda v: Fraction(v.behind, v.games))


def favourite_victim(rivals: Mapping[str, Versus]) -> str | None:
    """Of the players met at least MIN_SHARED_GAMES times, the one this player finished ahead of most often."""
    return _most_often(rivals, lambda v: Fraction(v.ahead, v.games))


def _most_often(rivals: Mapping[str, Versus], share: Callable[[Versus], Fraction]) -> str | None:
    met = {name: v for name, v in rivals.items() if v.games >= MIN_SHARED_GAMES and share(v) > 0}
    if not met:
        return None
    return min(met, key=lambda name: (-share(met[name]), -met[name].games, name))


# --- periods: a season as whole years, whole months and days -----------------------------------------

FIRST_DAY, LAST_DAY = date(1000, 1, 1), date(9998, 12, 31)  # a season is clipped to these


def cover(start: date, end: date, years: bool = True) -> list[tuple[str, str]]:
    """The days from ``start`` to ``end`` (both included) as the fewest periods: whole years
    ("2026"), whole months ("2026-11") and days ("2026-11-21"), each as a (first, last) pair of keys
    of one length, oldest first. A tally is kept for every period, so a season of any length adds
    up a few dozen tallies, not its games. ``years=False`` stops at months (money by month)."""
    start, end = max(start, FIRST_DAY), min(end, LAST_DAY)
    if start > end:
        return []
    first_year = start.year if (start.month, start.day) == (1, 1) else start.year + 1
    last_year = end.year if (end.month, end.day) == (12, 31) else end.year - 1
    if years and first_year <= last_year:
        head = cover(start, date(first_year - 1, 12, 31), years) if start < date(first_year, 1, 1) else []
        tail = cover(date(last_year + 1, 1, 1), end, years) if end > date(last_year, 12, 31) else []
        return [*head, (f"{first_year:04d}", f"{last_year:04d}"), *tail]
    first_month = start if start.day == 1 else _next_month(start)
    last_month = end if (end + timedelta(days=1)).day == 1 else end.replace(day=1) - timedelta(days=1)
    if first_month <= last_month:
        head = [(start.isoformat(), (first_month - timedelta(days=1)).isoformat())] if start < first_month else []
        tail = [((last_month + timedelta(days=1)).isoformat(), end.isoformat())] if end > last_month else []
        return [*head, (first_month.isoformat()[:7], last_month.isoformat()[:7]), *tail]
    return [(start.isoformat(), end.isoformat())]


def _next_month(day: date) -> date:
    """The first day of the month after ``day``'s."""
    return date(day.year + day.month // 12, day.month % 12 + 1, 1)


def periods_of(day: str) -> tuple[str, str, str]:
    """The day, the month and the year a day counts in ("2026-11-21", "2026-11", "2026")."""
    return day, day[:7], day[:4]


def months_back(day: str, months: int) -> str:
    """The first day of the month ``months`` before ``day``'s ("2026-11-21", 23 → "2024-12-01")."""
    index = int(day[:4]) * 12 + int(day[5:7]) - 1 - months
    return f"{index // 12:04d}-{index % 12 + 1:02d}-01"
