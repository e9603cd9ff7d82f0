"""Players' records in SQL (issue 29): each player's finished games added up per ruleset and period
(``player_days``; ruleset "" for all of them; a period is a day, its month or its year) and two
players' games against each other (``pair_days``), kept game by game (``record_keeping``).
A page adds up the few periods that cover its season (``rules.records.cover``), never games, so it
costs the same with 10,000 games as with 10; the arithmetic is ``rules.records``."""

from __future__ import annotations

import json
from datetime import date
from itertools import groupby
from typing import Any

from ..rules.rating import RatedGame, Rating
from ..rules.records import (
    FIRST_DAY,
    LAST_DAY,
    Streak,
    Tally,
    Versus,
    cover,
)
from .repository import Store

ALL_RULESETS = ""
ALL_TIME = "A"  # the period of every game: what a page of all time reads, one row


def key(period: str) -> str:
    """A period as stored: "Y2026", "M2026-11", "D2026-11-21" (and "A", all time). The letter keeps
    each kind in its own stretch of the index, so a range of years never reads the months and days
    between them."""
    return period if period == ALL_TIME else {4: "Y", 7: "M"}.get(len(period), "D") + period


def _chronological(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of disjoint periods, oldest first (their keys without the letter sort by time)."""
    return sorted(rows, key=lambda row: row["period"][1:])


def tally_of(row: dict[str, Any]) -> Tally:
    return Tally(
        games=row["games"],
        wins=row["wins"],
        rounds=row["rounds"],
        points=row["points"],
        money_cents=row["money"],
        lowest_round=row["lowest_round"],
        highest_round=row["highest_round"],
        went_out=row["went_out"],
        buys=row["buys"],
        caught={int(number): (pair[0], pair[1]) for number, pair in json.loads(row["caught"]).items()},
        streak=Streak(row["games"], row["streak_first"], row["streak_last"], row["streak_longest"]),
    )


# --- reading ---------------------------------------------------------------------------------------


def _season(start: str | None, end: str | None, years: bool = True) -> list[tuple[str, str]]:
    """The periods that cover a season (its bounds ISO dates, either open), as ranges of stored keys."""
    if years and not start and not end:
        return [(ALL_TIME, ALL_TIME)]
    first = date.fromisoformat(start) if start else FIRST_DAY
    last = date.fromisoformat(end) if end else LAST_DAY
    return [(key(low), key(high)) for low, high in cover(first, last, years)] or [("", "")]  # "": no period


def _joined(ranges: list[tuple[str, str]]) -> tuple[str, list[Any]]:
    """A season's ranges as a little table the records are joined to, one look into the key per range
    (the records tables keep their rows in their key, and SQLite takes no OR of ranges there)."""
    rows = ", ".join("(?, ?)" for _ in ranges)
    return f"WITH season(low, high) AS (VALUES {rows}) ", [bound for pair in ranges for bound in pair]


IN_SEASON = "period BETWEEN season.low AND season.high"


def tallies(
    store: Store,
    player_id: int,
    ruleset: str = ALL_RULESETS,
    start: str | None = None,
    end: str | None = None,
    years: bool = True,
) -> list[tuple[str, Tally]]:
    """A player's tallies covering a season, oldest first: whole years, months and days (with
    ``years=False`` no year is whole: money by month)."""
    season, params = _joined(_season(start, end, years))
    rows = store._rows(
        f"""{season}SELECT d.* FROM season CROSS JOIN player_days d
            WHERE d.player_id = ? AND d.ruleset = ? AND d.{IN_SEASON}""",
        [*params, player_id, ruleset],
    )
    return [(row["period"][1:], tally_of(row)) for row in _chronological(rows)]


def money(
    store: Store, player_id: int, ruleset: str, start: str | None, end: str | None, years: bool
) -> list[tuple[str, int]]:
    """Money (cents) of the periods covering a season, oldest first, without reading whole tallies."""
    ranges = _season(start, end, years)
    if years and not start and not end:  # every year, not the one row of all time
        ranges = [("Y", "Y~")]
    season, params = _joined(ranges)
    rows = store.db.execute(
        f"""{season}SELECT d.period, d.money FROM season CROSS JOIN player_days d
            WHERE d.player_id = ? AND d.ruleset = ? AND d.{IN_SEASON}""",
        [*params, player_id, ruleset],
    ).fetchall()
    return sorted((str(period)[1:], int(cents)) for period, cents in rows)


def rivals(
    store: Store, player_id: int, ruleset: str = ALL_RULESETS, start: str | None = None, end: str | None = None
) -> dict[int, Versus]:
    """Everyone this player met on another side, by player id: their games against each other."""
    season, params = _joined(_season(start, end))
    rows = store.db.execute(
        f"""{season}SELECT p.other_id, sum(p.games), sum(p.ahead), sum(p.behind), sum(p.money)
            FROM season CROSS JOIN pair_days p WHERE p.player_id = ? AND p.ruleset = ? AND p.{IN_SEASON}
            GROUP BY p.other_id""",
        [*params, player_id, ruleset],
    ).fetchall()
    return {row[0]: Versus(*row[1:]) for row in rows}


def versus(
    store: Store,
    player_id: int,
    other_id: int,
    ruleset: str = ALL_RULESETS,
    start: str | None = None,
    end: str | None = None,
) -> Versus:
    season, params = _joined(_season(start, end))
    row = store.db.execute(
        f"""{season}SELECT coalesce(sum(p.games), 0), coalesce(sum(p.ahead), 0), coalesce(sum(p.behind), 0),
                   coalesce(sum(p.money), 0)
            FROM season CROSS JOIN pair_days p
            WHERE p.player_id = ? AND p.other_id = ? AND p.ruleset = ? AND p.{IN_SEASON}""",
        [*params, player_id, other_id, ruleset],
    ).fetchone()
    return Versus(*row)


def season(
    store: Store, ruleset: str = ALL_RULESETS, start: str | None = None, end: str | None = None
) -> dict[int, Tally]:
    """Every player's tally over a season, by player id."""
    season, params = _joined(_season(start, end))
    rows = store._rows(
        f"{season}SELECT d.* FROM season CROSS JOIN player_days d WHERE d.ruleset = ? AND d.{IN_SEASON}",
        [*params, ruleset],
    )
    found: dict[int, Tally] = {}
    for row in _chronological(rows):
        found[row["player_id"]] = found.get(row["player_id"], Tally()) + tally_of(row)
    return found


def rulesets_played(store: Store) -> list[str]:
    """Every ruleset a finished game was played with (from the leaderboard's rows: a few per player)."""
    rows = store.db.execute(
        "SELECT DISTINCT ruleset FROM player_days INDEXED BY player_days_all_time"
        " WHERE period = 'A' AND ruleset != '' ORDER BY ruleset"
    )
    return [str(row[0]) for row in rows]


def player_names(store: Store, player_ids: list[int]) -> dict[int, str]:
    if not player_ids:
        return {}
    marks = ", ".join("?" * len(player_ids))
    return dict(store.db.execute(f"SELECT id, name FROM players WHERE id IN ({marks})", player_ids).fetchall())


def players(store: Store) -> list[dict[str, Any]]:
    """Everyone who has played, by name."""
    return store._rows("SELECT id, name FROM players ORDER BY name_key, id")


def years_played(store: Store) -> list[str]:
    """From the last year played back to the first (two looks into the index, whatever the history)."""
    ends = [
        store.db.execute(
            f"SELECT {end}(period) FROM player_days WHERE ruleset = '' AND period BETWEEN 'Y' AND 'Y~'"
        ).fetchone()[0]
        for end in ("min", "max")
    ]  # one look into the index each (SQLite does not take both in one)
    first, last = ends
    return [] if first is None else [f"{year:04d}" for year in range(int(last[1:]), int(first[1:]) - 1, -1)]


# --- the opt-in rating ---------------------------------------------------------------------------


def ratings_stale(store: Store) -> bool:
    """A finished result or who is rated changed since the rating was last worked out."""
    changes, rated = store.db.execute("SELECT changes, rated FROM rating_changes").fetchone()
    return bool(changes > rated)


def mark_ratings_stale(store: Store) -> None:
    """Inside a write that changes a finished result or who is rated."""
    store.db.execute("UPDATE rating_changes SET changes = changes + 1")


def rating_snapshot(store: Store) -> tuple[int, list[RatedGame]]:
    """The count of changes and the rated games as of that count, read together."""
    with store.reading():
        changes = int(store.db.execute("SELECT changes FROM rating_changes").fetchone()[0])
        return changes, rated_games(store)


def rated_games(store: Store) -> list[RatedGame]:
    """Every finished game in the order played, its sides' rated players and places."""
    rows = store.db.execute(
        """SELECT r.game_id, gp.side, r.place, r.player_id
           FROM results r JOIN game_players gp ON gp.game_id = r.game_id AND gp.seat = r.seat
           JOIN players p ON p.id = r.player_id
           WHERE r.finished = 1 AND p.rated = 1 ORDER BY r.day, r.game_id, gp.side, r.seat"""
    ).fetchall()
    games: list[RatedGame] = []
    for _, seats in groupby(rows, key=lambda row: row[0]):
        sides: dict[int, tuple[list[int], int]] = {}
        for _, side, place, player_id in seats:
            sides.setdefault(side, ([], place))[0].append(player_id)
        games.append(RatedGame(list(sides.values())))
    return games


def keep_ratings(store: Store, ratings: dict[int, Rating], worked_out_at: int) -> None:
    """Keep ratings worked out from the games as of ``worked_out_at`` changes: counted as up to date
    only if nothing changed since, and never over ratings worked out from later games."""
    with store.writing():
        rated = store.db.execute("SELECT rated FROM rating_changes").fetchone()[0]
        if worked_out_at <= rated:
            return
        store.db.execute("DELETE FROM ratings")
        store.db.conn.executemany(
            "INSERT INTO ratings VALUES (?, ?, ?, ?)",
            [(player, r.mu, r.sigma, r.games) for player, r in ratings.items()],
        )
        store.db.execute("UPDATE rating_changes SET rated = ?", [worked_out_at])


def rating(store: Store, player_id: int) -> Rating | None:
    row = store.db.execute("SELECT mu, sigma, games FROM ratings WHERE player_id = ?", [player_id]).fetchone()
    return None if row is None else Rating(*row)


def is_rated(store: Store, player_id: int) -> bool:
    return bool(store.db.execute("SELECT rated FROM players WHERE id = ?", [player_id]).fetchone()[0])


def set_rated(store: Store, player_id: int, rated: bool) -> None:
    with store.writing():
        store.db.execute("UPDATE players SET rated = ? WHERE id = ?", [int(rated), player_id])
        mark_ratings_stale(store)
