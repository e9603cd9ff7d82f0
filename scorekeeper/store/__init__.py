"""The storage layer: the only code that speaks SQL, through sqlite-utils.

What happened at the table is kept append-only in ``events``; scores and money are
derived from it by the rules engine, so a correction never loses the entry it corrects.
"""

from __future__ import annotations

import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from .migrations import STATS_SQL, migrations

BUSY_TIMEOUT_MS = 5000
RESULT_COLUMNS = ("seat", "rounds", "points", "won", "finished", "money", "best_round", "worst_round")


class StoreError(Exception):
    """Base of the store's errors."""


class NotFound(StoreError, LookupError):
    """No row with that id."""


class StaleWrite(StoreError):
    """A write based on an older version of the game than the one stored."""

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the game changed since this page was loaded (version {expected}, now {actual})")
        self.expected = expected
        self.actual = actual


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: str | Path) -> None:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False)
        self.db = Database(conn)
        self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA synchronous = NORMAL")

    def close(self) -> None:
        self.db.close()

    def _rows(self, sql: str, params: list[Any] | tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        """Rows as dicts through a plain cursor: sqlite-utils' query() wraps every read in a
        savepoint, which the hot paths (every request reads the game) can do without."""
        cursor = self.db.execute(sql, params)
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """One write transaction that takes SQLite's write lock up front (BEGIN IMMEDIATE).

        A plain BEGIN starts as a reader; upgrading it to a writer after another connection
        has written fails at once with "database is locked" instead of waiting. Taking the lock
        first makes concurrent writers queue on the busy timeout. Nested uses become savepoints.
        """
        if self.db.conn.in_transaction:
            with self.db.atomic():
                yield
            return
        self.db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.conn.execute("ROLLBACK")
            raise
        self.db.conn.execute("COMMIT")

    def migrate(self) -> None:
        # WAL lets the live view read while the scorekeeper writes; it must be set outside a transaction.
        self.db.execute("PRAGMA journal_mode = WAL")
        migrations.apply(self.db)

    # --- players ------------------------------------------------------------------------

    def _player_id(self, name: str) -> int:
        """The identity of a player across games: the same name, ignoring case."""
        key = name.casefold()
        row = next(self.db.query("SELECT id FROM players WHERE name_key = ?", [key]), None)
        if row:
            return int(row["id"])
        return int(self.db["players"].insert({"name": name, "name_key": key}).last_pk)

    def known_players(self) -> list[str]:
        return [row["name"] for row in self.db.query("SELECT name FROM players ORDER BY name_key")]

    # --- games --------------------------------------------------------------------------

    def create_game(
        self,
        ruleset: str,
        players: list[str],
        first_dealer: int,
        penny_cents: int,
        sides: list[int] | None = None,
        night_id: int | None = None,
        pin_hash: str | None = None,
    ) -> int:
        """One game and its seats in one transaction; ``sides[seat]`` is the side each seat plays for."""
        with self.writing():
            game_id = int(
                self.db["games"]
                .insert(
                    {
                        "ruleset": ruleset,
                        "created_at": now(),
                        "first_dealer": first_dealer,
                        "penny_cents": penny_cents,
                        "carry_in": 0,
                        "night_id": night_id,
                        "share_token": secrets.token_urlsafe(16),
                        "pin_hash": pin_hash,
                    }
                )
                .last_pk
            )
            self.db["game_players"].insert_all(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "player_id": self._player_id(name),
                    "side": sides[seat] if sides else seat,
                }
                for seat, name in enumerate(players)
            )
        return game_id

    def game(self, game_id: int) -> dict[str, Any]:
        found = self._rows("SELECT * FROM games WHERE id = ?", [game_id])
        if not found:
            raise NotFound(f"there is no game {game_id}")
        row = found[0]
        seats = self._rows("SELECT name, side FROM game_players WHERE game_id = ? ORDER BY seat", [game_id])
        row["players"] = [seat["name"] for seat in seats]
        sides: dict[int, list[str]] = {}
        for seat in seats:
            sides.setdefault(seat["side"], []).append(seat["name"])
        row["sides"] = [names for _, names in sorted(sides.items())]
        return row

    def games(self, limit: int = 50) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT g.id, g.ruleset, g.created_at,
                          (SELECT group_concat(name, ', ') FROM
                             (SELECT name FROM game_players WHERE game_id = g.id ORDER BY seat)) AS players
                   FROM games g ORDER BY g.id DESC LIMIT ?""",
                [limit],
            )
        )

    # --- events -------------------------------------------------------------------------

    def events(self, game_id: int) -> list[dict[str, Any]]:
        rows = self._rows("SELECT id, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY id", [game_id])
        return [{**row, "payload": json.loads(row["payload"])} for row in rows]

    def append_event(
        self,
        game_id: int,
        kind: str,
        payload: dict[str, Any],
        expected_version: int,
        results: dict[int, list[dict[str, Any]]] | None = None,
    ) -> int:
        """Append one event, unless the game has moved on since ``expected_version`` (its event count).

        ``results`` (game id → rows) are the derived results the event changes, written in the
        same transaction so they never disagree with the events.
        """
        with self.writing():
            (count,) = self.db.execute("SELECT count(*) FROM events WHERE game_id = ?", [game_id]).fetchone()
            if count != expected_version:
                raise StaleWrite(expected_version, count)
            cursor = self.db.execute(
                "INSERT INTO events (game_id, kind, payload, created_at) VALUES (?, ?, ?, ?)",
                [game_id, kind, json.dumps(payload, sort_keys=True), now()],
            )
            event_id = int(cursor.lastrowid or 0)
            for result_game, rows in (results or {}).items():
                self.save_results(result_game, rows)
            return event_id

    # --- derived results, nights, players ----------------------------------------------------

    def save_results(self, game_id: int, rows: list[dict[str, Any]]) -> None:
        """Replace a game's derived per-seat results (the engine computes them)."""
        with self.writing():
            self.db.execute("DELETE FROM results WHERE game_id = ?", [game_id])
            ids = dict(self.db.execute("SELECT seat, player_id FROM game_players WHERE game_id = ?", [game_id]))
            self.db.conn.executemany(
                f"INSERT INTO results (game_id, player_id, {', '.join(RESULT_COLUMNS)}) "
                f"VALUES (?, ?, {', '.join('?' * len(RESULT_COLUMNS))})",
                [[game_id, ids[row["seat"]], *(row[c] for c in RESULT_COLUMNS)] for row in rows],
            )
            self._refresh_stats(list(ids.values()))

    def _refresh_stats(self, player_ids: list[int]) -> None:
        """Recompute these players' leaderboard rows from their results (by index, not a scan)."""
        marks = ", ".join("?" * len(player_ids))
        self.db.execute(f"DELETE FROM player_stats WHERE player_id IN ({marks})", player_ids)
        self.db.execute(STATS_SQL.format(where=f"AND player_id IN ({marks})"), player_ids)

    def game_by_share_token(self, token: str) -> int:
        row = next(self.db.query("SELECT id FROM games WHERE share_token = ?", [token]), None)
        if row is None:
            raise NotFound("there is no game behind that link")
        return int(row["id"])

    def pin_block(self, game_id: int, client: str) -> float:
        """Seconds this client must still wait before trying another PIN (0: may try now)."""
        row = next(
            self.db.query("SELECT blocked_until FROM pin_failures WHERE game_id = ? AND client = ?", [game_id, client]),
            None,
        )
        return max(0.0, (row["blocked_until"] if row else 0.0) - time.time())

    def pin_failed(self, game_id: int, client: str, free_tries: int, base_delay: float) -> float:
        """Count a wrong PIN; past the free tries each failure doubles the wait. Returns the wait."""
        with self.writing():
            row = next(
                self.db.query("SELECT failures FROM pin_failures WHERE game_id = ? AND client = ?", [game_id, client]),
                None,
            )
            failures = (row["failures"] if row else 0) + 1
            wait = 0.0 if failures <= free_tries else base_delay * 2 ** (failures - free_tries - 1)
            self.db["pin_failures"].upsert(
                {"game_id": game_id, "client": client, "failures": failures, "blocked_until": time.time() + wait},
                pk=("game_id", "client"),
            )
        return wait

    def pin_succeeded(self, game_id: int, client: str) -> None:
        self.db.execute("DELETE FROM pin_failures WHERE game_id = ? AND client = ?", [game_id, client])

    def create_night(self, name: str = "") -> int:
        return int(self.db["nights"].insert({"name": name, "created_at": now(), "closed_at": None}).last_pk)

    def night(self, night_id: int) -> dict[str, Any]:
        row = next(self.db.query("SELECT * FROM nights WHERE id = ?", [night_id]), None)
        if row is None:
            raise NotFound(f"there is no night {night_id}")
        return row

    def close_night(self, night_id: int) -> None:
        self.night(night_id)
        self.db.execute("UPDATE nights SET closed_at = ? WHERE id = ? AND closed_at IS NULL", [now(), night_id])

    def nights(self, limit: int = 50) -> list[dict[str, Any]]:
        return list(
            self.db.query(
                """SELECT n.*, (SELECT count(*) FROM games g WHERE g.night_id = n.id) AS games
                   FROM nights n ORDER BY n.id DESC LIMIT ?""",
                [limit],
            )
        )

    def open_night(self) -> int | None:
        """The last night not yet closed: where a new game goes by default."""
        row = next(self.db.query("SELECT id FROM nights WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1"), None)
        return None if row is None else int(row["id"])

    def night_game_ids(self, night_id: int) -> list[int]:
        return [r[0] for r in self.db.execute("SELECT id FROM games WHERE night_id = ? ORDER BY id", [night_id])]

    def player(self, player_id: int) -> dict[str, Any]:
        row = next(self.db.query("SELECT id, name FROM players WHERE id = ?", [player_id]), None)
        if row is None:
            raise NotFound(f"there is no player {player_id}")
        return row

    def player_id(self, name: str) -> int | None:
        row = next(self.db.query("SELECT id FROM players WHERE name_key = ?", [name.casefold()]), None)
        return None if row is None else int(row["id"])

    def player_history(self, player_id: int, limit: int = 20, before: int | None = None) -> list[dict[str, Any]]:
        """A player's games, newest first, a page at a time (``before``: the last game id of the page before)."""
        return self._rows(
            """SELECT r.*, g.ruleset, g.created_at, g.night_id, gp.name
               FROM results r JOIN games g ON g.id = r.game_id
               JOIN game_players gp ON gp.game_id = r.game_id AND gp.seat = r.seat
               WHERE r.player_id = ? AND r.game_id < ? ORDER BY r.game_id DESC LIMIT ?""",
            [player_id, before if before is not None else 2**62, limit],
        )

    def player_stats(self, player_id: int) -> dict[str, Any] | None:
        rows = self._rows("SELECT * FROM player_stats WHERE player_id = ?", [player_id])
        return rows[0] if rows else None

    def leaderboard(self, limit: int = 200) -> list[dict[str, Any]]:
        """Per player over every finished game: games, wins, points per round, money, best and worst round."""
        return list(
            self.db.query(
                """SELECT p.id, p.name, s.games, s.wins, s.points, s.rounds, s.money,
                          s.best_low, s.best_high, s.worst_low, s.worst_high
                   FROM player_stats s JOIN players p ON p.id = s.player_id
                   ORDER BY s.wins DESC, s.money DESC, p.name_key LIMIT ?""",
                [limit],
            )
        )

    # --- export, import, backup ----------------------------------------------------------

    def dump(self, night_id: int | None = None, game_id: int | None = None) -> dict[str, Any]:
        """Everything entered (not what is derived), as plain data: the whole database, a night or a game."""
        if game_id is not None:
            games = [self.game(game_id)]
            night_ids = [games[0]["night_id"]] if games[0]["night_id"] else []
        elif night_id is not None:
            night_ids = [self.night(night_id)["id"]]
            games = [self.game(gid) for gid in self.night_game_ids(night_id)]
        else:
            night_ids = [r["id"] for r in self.db.query("SELECT id FROM nights ORDER BY id")]
            games = [self.game(r["id"]) for r in self.db.query("SELECT id FROM games ORDER BY id")]
        return {
            "format": "scorekeeper-export",
            "version": 1,
            "nights": [self.night(n) for n in night_ids],
            "games": [self._game_dump(game) for game in games],
        }

    def _game_dump(self, game: dict[str, Any]) -> dict[str, Any]:
        seats = self.db.query("SELECT seat, name, side FROM game_players WHERE game_id = ? ORDER BY seat", [game["id"]])
        return {
            **{key: game[key] for key in ("id", "ruleset", "created_at", "first_dealer", "penny_cents", "night_id")},
            "players": list(seats),
            "events": self.events(game["id"]),
        }

    def load_dump(self, data: dict[str, Any]) -> list[int]:
        """Import an export, keeping its ids, in one transaction; refused if any id is taken."""
        if data.get("format") != "scorekeeper-export" or data.get("version") != 1:
            raise StoreError("not a Scorekeeper export (format scorekeeper-export, version 1)")
        with self.writing():
            for night in data["nights"]:
                if next(self.db.query("SELECT 1 FROM nights WHERE id = ?", [night["id"]]), None):
                    raise StoreError(f"night {night['id']} already exists: import into an empty database")
                self.db["nights"].insert(night)
            for game in data["games"]:
                if next(self.db.query("SELECT 1 FROM games WHERE id = ?", [game["id"]]), None):
                    raise StoreError(f"game {game['id']} already exists: import into an empty database")
                self.db["games"].insert(
                    # A new share link; a PIN is not exported, so an imported game starts unlocked.
                    {
                        **{k: v for k, v in game.items() if k not in ("players", "events")},
                        "carry_in": 0,
                        "share_token": secrets.token_urlsafe(16),
                    }
                )
                self.db["game_players"].insert_all(
                    {**seat, "game_id": game["id"], "player_id": self._player_id(seat["name"])}
                    for seat in game["players"]
                )
                self.db["events"].insert_all(
                    {**event, "game_id": game["id"], "payload": json.dumps(event["payload"], sort_keys=True)}
                    for event in game["events"]
                )
        return [game["id"] for game in data["games"]]

    def backup(self, path: str | Path) -> None:
        """A consistent copy of the live database (SQLite's online backup), safe while others write."""
        target = sqlite3.connect(str(path))
        try:
            with target:
                self.db.conn.backup(target)
        finally:
            target.close()


# --- Flask integration (flaskr's get_db / init_app) --------------------------------------


def get_store() -> Store:
    """This thread's store: one long-lived connection per server thread.

    Opening SQLite for every request, and closing it (which checkpoints the WAL), costs more
    than the request itself; waitress serves from a fixed set of threads, so each keeps one.
    """
    import threading

    from flask import current_app

    pool: dict[int, Store] = current_app.extensions.setdefault("stores", {})
    key = threading.get_ident()
    store = pool.get(key)
    if store is None:
        store = pool[key] = Store(current_app.config["DATABASE"])
    return store


def end_request(exception: BaseException | None = None) -> None:
    """Never leave a transaction open on a connection the next request will use."""
    import threading

    from flask import current_app

    store = current_app.extensions.get("stores", {}).get(threading.get_ident())
    if store is not None and store.db.conn.in_transaction:
        store.db.conn.rollback()


def init_app(app: Any) -> None:
    """Apply pending migrations at start-up and close the store after each request."""
    import click

    store = Store(app.config["DATABASE"])
    store.migrate()
    store.close()
    app.teardown_appcontext(end_request)

    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create or upgrade the database schema."""
        store = Store(app.config["DATABASE"])
        store.migrate()
        store.close()
        click.echo(f"Database ready: {app.config['DATABASE']}")
