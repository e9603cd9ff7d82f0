"""The storage layer: the only code that speaks SQL, through sqlite-utils.

What happened at the table is kept append-only in ``events``; scores and money are
derived from it by the rules engine, so a correction never loses the entry it corrects.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from .migrations import migrations

BUSY_TIMEOUT_MS = 5000


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
        self, ruleset: str, players: list[str], first_dealer: int, penny_cents: int, sides: list[int] | None = None
    ) -> int:
        """One game and its seats in one transaction; ``sides[seat]`` is the side each seat plays for."""
        with self.db.atomic():
            game_id = int(
                self.db["games"]
                .insert(
                    {
                        "ruleset": ruleset,
                        "created_at": now(),
                        "first_dealer": first_dealer,
                        "penny_cents": penny_cents,
                        "carry_in": 0,
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
        row = next(self.db.query("SELECT * FROM games WHERE id = ?", [game_id]), None)
        if row is None:
            raise NotFound(f"there is no game {game_id}")
        seats = list(self.db.query("SELECT name, side FROM game_players WHERE game_id = ? ORDER BY seat", [game_id]))
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
        rows = self.db.query(
            "SELECT id, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY id", [game_id]
        )
        return [{**row, "payload": json.loads(row["payload"])} for row in rows]

    def next_event_id(self) -> int:
        row = next(self.db.query("SELECT coalesce(max(id), 0) + 1 AS next FROM events"))
        return int(row["next"])

    def append_event(self, game_id: int, kind: str, payload: dict[str, Any], expected_version: int) -> int:
        """Append one event, unless the game has moved on since ``expected_version`` (its event count)."""
        with self.db.atomic():
            row = next(self.db.query("SELECT count(*) AS n FROM events WHERE game_id = ?", [game_id]))
            if row["n"] != expected_version:
                raise StaleWrite(expected_version, row["n"])
            return int(
                self.db["events"]
                .insert(
                    {
                        "game_id": game_id,
                        "kind": kind,
                        "payload": json.dumps(payload, sort_keys=True),
                        "created_at": now(),
                    }
                )
                .last_pk
            )


# --- Flask integration (flaskr's get_db / init_app) --------------------------------------


def get_store() -> Store:
    """The request's store, opened on first use and closed when the request ends."""
    from flask import current_app, g

    if "store" not in g:
        g.store = Store(current_app.config["DATABASE"])
    return g.store  # type: ignore[no-any-return]


def close_store(exception: BaseException | None = None) -> None:
    from flask import g

    store = g.pop("store", None)
    if store is not None:
        store.close()


def init_app(app: Any) -> None:
    """Apply pending migrations at start-up and close the store after each request."""
    import click

    store = Store(app.config["DATABASE"])
    store.migrate()
    store.close()
    app.teardown_appcontext(close_store)

    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create or upgrade the database schema."""
        store = Store(app.config["DATABASE"])
        store.migrate()
        store.close()
        click.echo(f"Database ready: {app.config['DATABASE']}")
