"""Players' records kept, inside the write that changed a game's results (issue 46): a game that has
just ended is added to its day, month, year and all time by its own numbers, so the work is the same
in the tenth year as on the first night; a finished game corrected or reopened has the periods it
counts in added up again from the games of its day and the periods below. A game in play counts in
no record, so its writes touch none. What the tables hold and how pages read them: ``records``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TypeVar

from ..rules.records import GameLine, Tally, Versus, periods_of, total, versus_in_game
from .records import ALL_RULESETS, ALL_TIME, key, mark_ratings_stale, tally_of
from .repository import Store

LINE_COLUMNS = "r.won, r.rounds, r.points, r.money, r.best_round, r.worst_round, r.went_out, r.buys, r.caught"


def keep_game(store: Store, game_id: int, was_finished: bool) -> None:
    """Bring the records in line with a game's results as just saved, inside that write. A game that
    is not finished and was not counts in no record: nothing is touched. A game that has just ended
    is added to its day, month, year and all time by its own numbers, whatever the history. A
    finished game corrected or reopened has the periods it counts in added up again."""
    now_finished = store.db.execute("SELECT 1 FROM results WHERE game_id = ? AND finished = 1", [game_id]).fetchone()
    if was_finished:
        refresh_game(store, game_id)
    elif now_finished:
        _add_ended_game(store, game_id)


def _game_day(store: Store, game_id: int) -> tuple[str, str] | None:
    found = store.db.execute(
        "SELECT g.ruleset, r.day FROM games g JOIN results r ON r.game_id = g.id WHERE g.id = ? LIMIT 1", [game_id]
    ).fetchone()
    return None if found is None else (str(found[0]), str(found[1]))


def _periods(day: str) -> tuple[str, ...]:
    return (*periods_of(day), ALL_TIME)


def _add_ended_game(store: Store, game_id: int) -> None:
    """A game that has just ended, added to every period it counts in. A player's tally is joined
    in the order games were played (a streak runs in order): when this is not the player's latest
    game (a game left open while later ones ended), their periods are added up again instead."""
    found = _game_day(store, game_id)
    if found is None:
        return
    ruleset, day = found
    mark_ratings_stale(store)
    seats = store.db.execute(
        f"""SELECT r.player_id, gp.side, r.place, r.money, {LINE_COLUMNS} FROM results r
            JOIN game_players gp ON gp.game_id = r.game_id AND gp.seat = r.seat WHERE r.game_id = ?""",
        [game_id],
    ).fetchall()
    kinds, periods = (ruleset, ALL_RULESETS), [key(period) for period in _periods(day)]
    added = []
    for player_id, _, _, _, *line in seats:
        if not _is_latest(store, player_id, day, game_id):
            for kind in kinds:
                _keep_periods(store, player_id, kind, day)
            continue
        kept = _kept_tallies(store, player_id, kinds, periods)
        game = Tally.one(_line(line))
        added += [
            [player_id, kind, period, *_tally_values(kept.get((kind, period), Tally()) + game)]
            for kind in kinds
            for period in periods
        ]
    store.db.conn.executemany(  # one statement for every seat's day, month, year and all time
        "INSERT OR REPLACE INTO player_days VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", added
    )
    met = [(a[0], b[0], versus_in_game(a[2], b[2], a[3], b[3])) for a in seats for b in seats if a[1] != b[1]]
    store.db.conn.executemany(
        """INSERT INTO pair_days (player_id, other_id, ruleset, period, games, ahead, behind, money)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (player_id, ruleset, period, other_id) DO UPDATE SET
           games = games + excluded.games, ahead = ahead + excluded.ahead, behind = behind + excluded.behind,
           money = money + excluded.money""",
        [
            (player_id, other_id, kind, key(period), v.games, v.ahead, v.behind, v.money_cents)
            for player_id, other_id, v in met
            for kind in (ruleset, ALL_RULESETS)
            for period in _periods(day)
        ],
    )


def _is_latest(store: Store, player_id: int, day: str, game_id: int) -> bool:
    """No finished game of this player counts after this one (by day, then as numbered)."""
    later = store.db.execute(
        "SELECT 1 FROM results WHERE player_id = ? AND (day, game_id) > (?, ?) AND finished = 1 LIMIT 1",
        [player_id, day, game_id],
    ).fetchone()
    return later is None


def _kept_tallies(
    store: Store, player_id: int, kinds: tuple[str, str], periods: list[str]
) -> dict[tuple[str, str], Tally]:
    """A player's kept tallies of these rulesets and periods (stored keys), in one look."""
    marks = ", ".join("?" * len(periods))
    rows = store._rows(
        f"SELECT * FROM player_days WHERE player_id = ? AND ruleset IN (?, ?) AND period IN ({marks})",
        [player_id, *kinds, *periods],
    )
    return {(row["ruleset"], row["period"]): tally_of(row) for row in rows}


def refresh_game(store: Store, game_id: int) -> None:
    """Rewrite the tallies of everyone in the game, and of every two of them, for its day, month,
    year and all time from the games of its day (inside the write that changed its results)."""
    found = _game_day(store, game_id)
    if found is None:
        return
    ruleset, day = found
    seats = store.db.execute("SELECT player_id, side FROM game_players WHERE game_id = ?", [game_id]).fetchall()
    mark_ratings_stale(store)
    for player_id, _ in seats:
        for kind in (ruleset, ALL_RULESETS):
            _keep_periods(store, player_id, kind, day)
    for kind in (ruleset, ALL_RULESETS):
        _keep_pair_periods(store, [player_id for player_id, _ in seats], kind, day)


def _ruleset_filter(ruleset: str) -> tuple[str, list[Any]]:
    return ("", []) if ruleset == ALL_RULESETS else (" AND g.ruleset = ?", [ruleset])


def _keep_periods(store: Store, player_id: int, ruleset: str, day: str) -> None:
    """The day's tally from its games, then its month's from the month's days, its year's from the months."""
    where, params = _ruleset_filter(ruleset)
    rows = store.db.execute(
        f"""SELECT {LINE_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id
            WHERE r.player_id = ? AND r.day = ? AND r.finished = 1{where} ORDER BY r.game_id""",
        [player_id, day, *params],
    ).fetchall()
    _keep_tally(store, player_id, ruleset, day, Tally.of([_line(row) for row in rows]))
    _, month, year = periods_of(day)
    for period, finer in ((month, key(day)[:-2]), (year, key(month)[:-2]), (ALL_TIME, "Y")):
        parts = store._rows(
            """SELECT * FROM player_days WHERE player_id = ? AND ruleset = ? AND period BETWEEN ? AND ?
               ORDER BY period""",
            [player_id, ruleset, finer, finer + "~"],
        )
        _keep_tally(store, player_id, ruleset, period, total(tally_of(row) for row in parts))


def _keep_tally(store: Store, player_id: int, ruleset: str, period: str, tally: Tally) -> None:
    if not tally.games:  # no finished game in the period any more (a game reopened): no row
        store.db.execute(
            "DELETE FROM player_days WHERE player_id = ? AND ruleset = ? AND period = ?",
            [player_id, ruleset, key(period)],
        )
        return
    store.db.execute(
        "INSERT OR REPLACE INTO player_days VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [player_id, ruleset, key(period), *_tally_values(tally)],
    )


def _line(row: Sequence[Any]) -> GameLine:
    won, rounds, points, money, best, worst, went_out, buys, caught = row
    rounds_seen = [value for value in (best, worst) if value is not None]
    return GameLine(
        won=bool(won),
        rounds=rounds,
        points=points,
        money_cents=money,
        best_low=min(rounds_seen) if rounds_seen else None,
        best_high=max(rounds_seen) if rounds_seen else None,
        went_out=went_out or 0,
        buys=buys or 0,
        caught=tuple(json.loads(caught or "[]")),
    )


def _tally_values(tally: Tally) -> list[Any]:
    caught = {str(number): list(pair) for number, pair in sorted(tally.caught.items())}
    return [
        tally.games,
        tally.wins,
        tally.rounds,
        tally.points,
        tally.money_cents,
        tally.lowest_round,
        tally.highest_round,
        tally.went_out,
        tally.buys,
        json.dumps(caught),
        tally.streak.first,
        tally.streak.last,
        tally.streak.longest,
    ]


def add_up_players(store: Store, player_ids: Sequence[int]) -> None:
    """Every record of these players added up again from all their finished games, in the way
    ``refresh_game`` adds up a day (its games in order) and each period from the one below — for an
    import, whose games of any days in any order are added up once at its end, not one by one."""
    mark_ratings_stale(store)
    for player_id in player_ids:
        _add_up_player(store, player_id)
        _add_up_player_pairs(store, player_id)


def _add_up_player(store: Store, player_id: int) -> None:
    games = store.db.execute(
        f"""SELECT g.ruleset, r.day, {LINE_COLUMNS} FROM results r JOIN games g ON g.id = r.game_id
            WHERE r.player_id = ? AND r.finished = 1 ORDER BY r.day, r.game_id""",
        [player_id],
    )
    days: dict[tuple[str, str], list[GameLine]] = {}  # in the order played, as the rows come
    for ruleset, day, *line in games:
        game = _line(line)
        for kind in (ruleset, ALL_RULESETS):
            days.setdefault((kind, day), []).append(game)
    tallies = _rolled_up({(kind, key(day)): Tally.of(lines) for (kind, day), lines in days.items()}, Tally())
    store.db.execute("DELETE FROM player_days WHERE player_id = ?", [player_id])
    store.db.conn.executemany(
        "INSERT INTO player_days VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [[player_id, kind, period, *_tally_values(tally)] for (kind, period), tally in tallies.items()],
    )


Sum = TypeVar("Sum", Tally, Versus)


def _rolled_up(days: dict[tuple[Any, ...], Sum], zero: Sum) -> dict[tuple[Any, ...], Sum]:
    """Days (keys ending in the stored day), oldest first, with the months they add up to, the years
    of the months and all time of the years, each added in the order played."""
    periods = dict(days)
    for level in "DMY":
        added: dict[tuple[Any, ...], Sum] = {}
        for (*rest, period), value in periods.items():
            if period[0] == level:
                above = (*rest, _above(period))
                added[above] = added.get(above, zero) + value
        periods.update(added)
    return periods


def _above(period: str) -> str:
    """The stored period a day, a month or a year adds up into: its month, its year, all time."""
    return {"D": "M" + period[1:8], "M": "Y" + period[1:5]}.get(period[0], ALL_TIME)


def _add_up_player_pairs(store: Store, player_id: int) -> None:
    met = store.db.execute(
        """SELECT b.player_id, g.ruleset, a.day, a.place, b.place, a.money, b.money
           FROM results a JOIN results b ON b.game_id = a.game_id AND b.seat != a.seat
           JOIN games g ON g.id = a.game_id
           JOIN game_players pa ON pa.game_id = a.game_id AND pa.seat = a.seat
           JOIN game_players pb ON pb.game_id = b.game_id AND pb.seat = b.seat
           WHERE a.player_id = ? AND a.finished = 1 AND pa.side != pb.side ORDER BY a.day, a.game_id""",
        [player_id],
    )
    days: dict[tuple[Any, ...], Versus] = {}
    for other_id, ruleset, day, *game in met:
        versus = versus_in_game(*game)
        for kind in (ruleset, ALL_RULESETS):
            at = (other_id, kind, key(day))
            days[at] = days.get(at, Versus()) + versus
    pairs = _rolled_up(days, Versus())
    store.db.execute("DELETE FROM pair_days WHERE player_id = ?", [player_id])
    store.db.conn.executemany(
        "INSERT INTO pair_days (player_id, other_id, ruleset, period, games, ahead, behind, money) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (player_id, o, kind, period, v.games, v.ahead, v.behind, v.money_cents)
            for (o, kind, period), v in pairs.items()
        ],
    )


def _keep_pair_periods(store: Store, players: list[int], ruleset: str, day: str) -> None:
    """Every two of these players (on different sides that day): their day from its games, then its
    month, year and all time from the periods below, a few statements for the whole table."""
    where, params = _ruleset_filter(ruleset)
    marks = ", ".join("?" * len(players))
    rows = store.db.execute(
        f"""SELECT a.player_id, b.player_id, a.place, b.place, a.money, b.money
            FROM results a JOIN results b ON b.game_id = a.game_id AND b.seat != a.seat
            JOIN games g ON g.id = a.game_id
            JOIN game_players pa ON pa.game_id = a.game_id AND pa.seat = a.seat
            JOIN game_players pb ON pb.game_id = b.game_id AND pb.seat = b.seat
            WHERE a.player_id IN ({marks}) AND a.day = ? AND a.finished = 1 AND b.player_id IN ({marks})
            AND pa.side != pb.side{where}""",
        [*players, day, *players, *params],
    ).fetchall()
    days: dict[tuple[int, int], Versus] = {}
    for player_id, other_id, *game in rows:
        days[player_id, other_id] = days.get((player_id, other_id), Versus()) + versus_in_game(*game)
    among = f"player_id IN ({marks}) AND other_id IN ({marks}) AND ruleset = ?"
    chosen = [*players, *players, ruleset]
    store.db.execute(f"DELETE FROM pair_days WHERE {among} AND period = ?", [*chosen, key(day)])
    store.db.conn.executemany(
        "INSERT INTO pair_days (player_id, other_id, ruleset, period, games, ahead, behind, money) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(p, o, ruleset, key(day), v.games, v.ahead, v.behind, v.money_cents) for (p, o), v in days.items()],
    )
    _, month, year = periods_of(day)
    for period, finer in ((month, key(day)[:-2]), (year, key(month)[:-2]), (ALL_TIME, "Y")):
        store.db.execute(f"DELETE FROM pair_days WHERE {among} AND period = ?", [*chosen, key(period)])
        store.db.execute(
            f"""INSERT INTO pair_days (player_id, other_id, ruleset, period, games, ahead, behind, money)
                SELECT player_id, other_id, ruleset, ?, sum(games), sum(ahead), sum(behind), sum(money)
                FROM pair_days WHERE {among} AND period BETWEEN ? AND ? GROUP BY player_id, other_id""",
            [key(period), *chosen, finer, finer + "~"],
        )
