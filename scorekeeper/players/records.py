"""What the player page, head to head, seasons, the season PDF and the API show of a player's
record: one home for the figures, assembled from the store's day tallies and ``rules.records``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import Any

from ..commands.ratings import RatingWorker
from ..reads.catalog import Catalog
from ..rules.rating import Rating, new_player
from ..rules.records import (
    MONTH,
    YEAR,
    Tally,
    by_period,
    favourite_victim,
    months_back,
    total,
    toughest_opponent,
)
from ..rules.rulesets import Ruleset, Winner
from ..store import Store
from ..store import records as stored

MAX_FILTER_TEXT = 64
WHOLE_YEAR = ("-01-01", "-12-31")


class SeasonError(ValueError):
    """A filter the pages and the API cannot read; the message names it."""


@dataclass(frozen=True)
class Season:
    """Which games count: a ruleset ("" for all) and the days from ``start`` to ``end`` (both
    included, either open)."""

    ruleset: str = ""
    start: str | None = None
    end: str | None = None

    def describe(self, catalog: Catalog) -> str:
        ruleset = catalog.rulesets.get(self.ruleset)
        game = ruleset.name if ruleset else (self.ruleset or "every game")
        if self.start and self.end and self.start[:4] == self.end[:4] and (self.start[4:], self.end[4:]) == WHOLE_YEAR:
            return f"{game}, {self.start[:4]}"
        if self.start or self.end:
            return f"{game}, {self.start or 'the first game'} to {self.end or 'today'}"
        return f"{game}, all time"

    def query(self) -> dict[str, str]:
        """As URL arguments (for links that keep the filter)."""
        found = {"ruleset": self.ruleset, "from": self.start or "", "to": self.end or ""}
        return {key: value for key, value in found.items() if value}


def parse_season(args: Mapping[str, str], known_rulesets: set[str]) -> Season:
    """``ruleset``, and ``year`` or ``from``/``to`` (YYYY-MM-DD), from a query string."""
    ruleset = _text(args, "ruleset")
    if ruleset and ruleset not in known_rulesets:
        raise SeasonError(f"there is no ruleset {ruleset!r}")
    year = _text(args, "year")
    start, end = _day(args, "from"), _day(args, "to")
    if year:
        if start or end:
            raise SeasonError("give a year or a range of dates (from, to), not both")
        if not re.fullmatch(r"[12][0-9]{3}", year):
            raise SeasonError(f"{year!r} is not a year (four digits, like 2026)")
        start, end = f"{year}-01-01", f"{year}-12-31"
    if start and end and start > end:
        raise SeasonError(f"the range starts ({start}) after it ends ({end})")
    return Season(ruleset, start, end)


def _text(args: Mapping[str, str], name: str) -> str:
    value = (args.get(name) or "").strip()
    if len(value) > MAX_FILTER_TEXT:
        raise SeasonError(f"{name} is too long ({len(value)} characters)")
    return value


def _day(args: Mapping[str, str], name: str) -> str | None:
    value = _text(args, name)
    if not value:
        return None
    try:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            raise ValueError
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise SeasonError(f"{name} {value!r} is not a date (YYYY-MM-DD, like 2026-11-21)") from None


def known_rulesets(store: Store, catalog: Catalog) -> set[str]:
    """Rulesets a filter may name: the installed ones and any a stored game was played with."""
    return set(catalog.rulesets) | set(stored.rulesets_played(store))


# --- one player's record ----------------------------------------------------------------------------


def player_record(store: Store, catalog: Catalog, player_id: int, season: Season) -> dict[str, Any]:
    """Every figure of a player's page for a season (the API gives the same, as JSON)."""
    periods = stored.tallies(store, player_id, season.ruleset, season.start, season.end)
    tally = total(tally for _, tally in periods)
    months, years = money_by_month(store, player_id, season), money_by_year(store, player_id, season)
    ruleset = catalog.rulesets.get(season.ruleset)
    met = stored.rivals(store, player_id, season.ruleset, season.start, season.end)
    names = stored.player_names(store, list(met))
    rivals = {names[other]: versus for other, versus in met.items()}
    record: dict[str, Any] = {
        "games": tally.games,
        "wins": tally.wins,
        "win_rate": _number(tally.win_rate),
        "longest_streak": tally.streak.longest,
        "money_cents": tally.money_cents,
        "went_out": tally.went_out,
        "buys_per_game": _number(tally.buys_per_game),
        "money_by_month": [{"month": month, "money_cents": cents} for month, cents in months],
        "money_by_year": [{"year": year, "money_cents": cents} for year, cents in years],
        "opponents": [
            {
                "id": other,
                "name": names[other],
                "games": v.games,
                "ahead": v.ahead,
                "behind": v.behind,
                "money_cents": v.money_cents,
            }
            for other, v in sorted(met.items(), key=lambda item: (-item[1].games, names[item[0]].casefold()))
        ],
        "toughest_opponent": toughest_opponent(rivals),
        "favourite_victim": favourite_victim(rivals),
        # Points are per game: never added across rulesets (a Pennies From Heaven hand is thousands).
        "rounds": tally.rounds if season.ruleset else None,
        "points_per_round": _number(tally.points_per_round) if season.ruleset else None,
        "best_round": None,
        "worst_round": None,
        "hardest_round": None,
    }
    if season.ruleset:
        winner = ruleset.winner if ruleset else Winner.LOWEST
        record["best_round"] = tally.best_round(winner)
        record["worst_round"] = tally.worst_round(winner)
        record["hardest_round"] = hardest_round(tally, ruleset)
    return record


def hardest_round(tally: Tally, ruleset: Ruleset | None) -> dict[str, Any] | None:
    """The contract they fail most: the round they were caught with the most cards in, on average."""
    number = tally.hardest_round()
    if number is None:
        return None
    cards, times = tally.caught[number]
    rule = ruleset.rounds[number - 1] if ruleset and number <= len(ruleset.rounds) else None
    contract = rule.contract.describe() if rule and rule.contract else None
    return {"round": number, "contract": contract, "cards": cards, "times": times}


MONTHS_SHOWN = 24


def today() -> date:
    """The server's date: where a season without an end ends (tests set it, so no figure ages)."""
    return date.today()


def money_by_month(store: Store, player_id: int, season: Season) -> list[tuple[str, int]]:
    """Money won or lost month by month (cents) over the season's last MONTHS_SHOWN months, ending at
    the season's end (all time: this month), so a page of twenty years reads two years of months
    (and every year)."""
    end = season.end or today().isoformat()
    start = max(season.start or "", months_back(end, MONTHS_SHOWN - 1))
    return by_period(stored.money(store, player_id, season.ruleset, start, end, years=False), MONTH)


def money_by_year(store: Store, player_id: int, season: Season) -> list[tuple[str, int]]:
    return by_period(stored.money(store, player_id, season.ruleset, season.start, season.end, years=True), YEAR)


def money_over_time(record: Mapping[str, Any]) -> list[tuple[str, int]]:
    """Money after each month of the record's months (cents, running from what came before), for the chart."""
    months = record["money_by_month"]
    running = record["money_cents"] - sum(month["money_cents"] for month in months)
    points = []
    for month in months:
        running += month["money_cents"]
        points.append((month["month"], running))
    return points


def versus_record(store: Store, player_id: int, other_id: int, season: Season) -> dict[str, Any]:
    versus = stored.versus(store, player_id, other_id, season.ruleset, season.start, season.end)
    return {
        "games": versus.games,
        "ahead": versus.ahead,
        "behind": versus.behind,
        "level": versus.level,
        "money_cents": versus.money_cents,
    }


def season_board(store: Store, catalog: Catalog, season: Season) -> list[dict[str, Any]]:
    """Each player's line of a season, most wins first (then money, then name)."""
    tallies = stored.season(store, season.ruleset, season.start, season.end)
    names = stored.player_names(store, list(tallies))
    ruleset = catalog.rulesets.get(season.ruleset)
    winner = ruleset.winner if ruleset else Winner.LOWEST
    lines = [
        {
            "id": player_id,
            "name": names[player_id],
            "games": t.games,
            "wins": t.wins,
            "win_rate": _number(t.win_rate),
            "money_cents": t.money_cents,
            "longest_streak": t.streak.longest,
            "points_per_round": _number(t.points_per_round) if season.ruleset else None,
            "best_round": t.best_round(winner) if season.ruleset else None,
        }
        for player_id, t in tallies.items()
    ]
    return sorted(
        lines,
        key=lambda line: board_order(
            line["wins"], line["games"], line["money_cents"], line["points_per_round"], winner, line["name"]
        ),
    )


def all_time_board(rows: list[Any], catalog: Catalog) -> list[Any]:
    """The all-time tables, a ruleset at a time, each in the board's order."""

    def order(row: Any) -> tuple[Any, ...]:
        ruleset = catalog.rulesets.get(row["ruleset"])
        points = Fraction(row["points"], row["rounds"]) if row["rounds"] else None
        winner = ruleset.winner if ruleset else Winner.LOWEST
        return (row["ruleset"], *board_order(row["wins"], row["games"], row["money"], points, winner, row["name"]))

    return sorted(rows, key=order)


def board_order(
    wins: int, games: int, money: int, points_per_round: float | Fraction | None, winner: Winner, name: str
) -> tuple[Any, ...]:
    """Who stands higher on a board: more wins; on equal wins the better win rate (fewer games), then
    more money, then the better points per round (fewer where the lowest total wins); the name last."""
    if points_per_round is None:
        points_key: float | Fraction = float("inf")
    else:
        points_key = points_per_round if winner.lowest_wins else -points_per_round
    return (-wins, -Fraction(wins, games or 1), -money, points_key, name.casefold())


def season_highlights(board: list[dict[str, Any]]) -> dict[str, Any]:
    """The records of a season: the most wins, the most money, the longest streak (with everyone who shares it)."""

    def top(key: str) -> dict[str, Any] | None:
        found = [line for line in board if line[key] is not None]
        if not found:
            return None
        best = max(line[key] for line in found)
        return {"value": best, "names": [line["name"] for line in found if line[key] == best]}

    return {
        "wins": top("wins"),
        "money_cents": top("money_cents"),
        "longest_streak": top("longest_streak"),
    }


def rival_ids(record: Mapping[str, Any]) -> dict[str, int]:
    """Everyone the player met, name to id, for links to head to head."""
    return {opponent["name"]: opponent["id"] for opponent in record["opponents"]}


# --- the opt-in rating -------------------------------------------------------------------------------


def rating_of(store: Store, worker: RatingWorker | None, player_id: int) -> dict[str, Any] | None:
    """A player's rating when the house has switched it on (it has a worker then): None when off;
    ``left_out`` when the player asked not to be rated. The rating as last worked out: a page never
    works it out (for everyone, from every game); it nudges the worker, and says whether it is up to
    date (``up_to_date`` False: a change is being counted)."""
    if worker is None:
        return None
    if not stored.is_rated(store, player_id):
        return {"left_out": True}
    up_to_date = not stored.ratings_stale(store)
    found = stored.rating(store, player_id) or new_player()
    if not up_to_date:
        # A change made outside this server (an import on the command line). Nudged only once the
        # rating is read: the answer says what was kept when it was found stale, never half of each.
        worker.nudge()
    return rating_fields(found) | {"up_to_date": up_to_date}


def rating_fields(found: Rating) -> dict[str, Any]:
    return {"left_out": False, "mu": round(found.mu, 2), "sigma": round(found.sigma, 2), "games": found.games}


def _number(value: Fraction | None) -> float | None:
    """A ratio for the page and the API (the arithmetic stays exact until here)."""
    return None if value is None else round(float(value), 4)
