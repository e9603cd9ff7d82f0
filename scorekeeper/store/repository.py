"""The SQL repository: every query and write of the app, through sqlite-utils, one method each."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import sqlite3
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from sqlite_utils import Database
from sqlite_utils.db import Table

from ..rules.ledger import MoneyMode
from ..rules.setup import name_key
from .migrations import RULESET_STATS_SQL, migrations
from .rows import (
    RESULT_COLUMNS,
    DraftRoundRow,
    DraftRow,
    EntryKeyRow,
    EventRow,
    GameListRow,
    GameRow,
    HistoryRow,
    LeaderRow,
    NightListRow,
    NightRow,
    PaymentRow,
    PlayerRow,
    ResultRow,
    SeatRow,
    StatsRow,
)

# The day a game counts on in players' records: the day its night began (a night past midnight
# stays one night), else the game's own, in the server's time zone.
GAME_DAY_SQL = """SELECT date(coalesce(n.created_at, g.created_at), 'localtime')
                  FROM games g LEFT JOIN nights n ON n.id = g.night_id WHERE g.id = ?"""


BUSY_TIMEOUT_MS = 5000

# Every count only grows, so their sum moves whenever any of them does.
SHOWN_VERSION = "g.revision + g.notes_edits + coalesce(n.notes_edits, 0)"
SHOWN_FROM = "FROM games g LEFT JOIN nights n ON n.id = g.night_id"


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


def _result_values(row: ResultRow) -> tuple[int | str | None, ...]:
    """A result row's values in RESULT_COLUMNS order."""
    return (
        row["seat"],
        row["rounds"],
        row["points"],
        row["won"],
        row["finished"],
        row["money"],
        row["best_round"],
        row["worst_round"],
        row["went_out"],
        row["buys"],
        row["place"],
        row["caught"],
    )


def _new_id(table: Table) -> int:
    """The id of the row just inserted."""
    if not isinstance(table.last_pk, int):
        raise StoreError(f"no id for the row inserted into {table.name}")
    return table.last_pk


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def connect_owner_only(path: str | Path, timeout: float = BUSY_TIMEOUT_MS / 1000) -> sqlite3.Connection:
    """A connection to ``path``, which holds PIN hashes: the file (and so SQLite's -wal and -shm, which
    take its permissions) is readable by its owner only.

    The file is never opened or closed outside SQLite: closing any other descriptor of it would drop
    the POSIX locks SQLite holds on it in this process, and another process (a backup beside the
    server) would then take itself for the last user and delete the server's journal. So a new file
    is created through the umask, and an older one is made owner-only by its path."""
    if str(path) == ":memory:":
        return sqlite3.connect(":memory:", check_same_thread=False)
    previous = os.umask(0o077)
    try:
        conn = sqlite3.connect(str(path), timeout=timeout, check_same_thread=False)
    finally:
        os.umask(previous)
    os.chmod(path, 0o600)
    return conn


class Store:
    def __init__(self, path: str | Path) -> None:
        self.db = Database(connect_owner_only(path))
        self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.execute("PRAGMA synchronous = NORMAL")

    def close(self) -> None:
        self.db.close()

    def table(self, name: str) -> Table:
        return self.db.table(name)

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """Rows as dicts through a plain cursor: sqlite-utils' query() wraps every read in a
        savepoint, which the hot paths (every request reads the game) can do without."""
        cursor = self.db.execute(sql, list(params))
        names = [column[0] for column in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _one(self, sql: str, params: Sequence[Any], missing: str) -> dict[str, Any]:
        found = self._rows(sql, params)
        if not found:
            raise NotFound(missing)
        return found[0]

    def has_row(self, table: str, row_id: int) -> bool:
        """Is there a row with this id (an import must not take an id that is used)?"""
        return bool(self._value(f"SELECT 1 FROM [{table}] WHERE id = ?", [row_id]))

    def _value(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = self.db.execute(sql, list(params)).fetchone()
        return None if row is None else row[0]

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

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Several reads that see one snapshot of the database (a read transaction); inside a
        transaction already, they see that one."""
        if self.db.conn.in_transaction:
            yield
            return
        self.db.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.db.conn.execute("COMMIT")

    def migrate(self) -> None:
        # WAL lets the live view read while the scorekeeper writes; it must be set outside a transaction.
        self.db.execute("PRAGMA journal_mode = WAL")
        migrations.apply(self.db)

    # --- players ------------------------------------------------------------------------

    def ensure_player(self, name: str) -> int:
        """The identity of a player across games: the same name, ignoring case."""
        key = name_key(name)
        found = self._value("SELECT id FROM players WHERE name_key = ?", [key])
        if found is not None:
            return int(found)
        return _new_id(self.table("players").insert({"name": name, "name_key": key}))

    def known_players(self) -> list[str]:
        return [str(row[0]) for row in self.db.execute("SELECT name FROM players ORDER BY name_key")]

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
        carry_in: int = 0,
        rematch_of: int | None = None,
    ) -> int:
        """One game and its seats in one transaction; ``sides[seat]`` is the side each seat plays for."""
        with self.writing():
            game_id = _new_id(
                self.table("games").insert(
                    {
                        "ruleset": ruleset,
                        "created_at": now(),
                        "first_dealer": first_dealer,
                        "penny_cents": penny_cents,
                        "carry_in": carry_in,
                        "revision": 0,
                        "night_id": night_id,
                        "share_token": secrets.token_urlsafe(16),
                        "pin_hash": pin_hash,
                        "rematch_of": rematch_of,
                    }
                )
            )
            self.table("game_players").insert_all(
                {
                    "game_id": game_id,
                    "seat": seat,
                    "name": name,
                    "player_id": self.ensure_player(name),
                    "side": sides[seat] if sides else seat,
                }
                for seat, name in enumerate(players)
            )
        return game_id

    def game(self, game_id: int) -> GameRow:
        row = self._one("SELECT * FROM games WHERE id = ?", [game_id], f"there is no game {game_id}")
        seats = self.seats(game_id)
        row["players"] = [seat["name"] for seat in seats]
        sides: dict[int, list[str]] = {}
        for seat in seats:
            sides.setdefault(seat["side"], []).append(seat["name"])
        row["sides"] = [names for _, names in sorted(sides.items())]
        return cast(GameRow, row)

    def rematch_of(self, game_id: int) -> int | None:
        """The game started as the rematch of ``game_id``, if one was."""
        found = self._value("SELECT id FROM games WHERE rematch_of = ?", [game_id])
        return None if found is None else int(found)

    def night_of(self, game_id: int) -> int | None:
        found = self._value("SELECT night_id FROM games WHERE id = ?", [game_id])
        return None if found is None else int(found)

    def seats(self, game_id: int) -> list[SeatRow]:
        rows = self._rows("SELECT seat, name, side FROM game_players WHERE game_id = ? ORDER BY seat", [game_id])
        return cast(list[SeatRow], rows)

    def games(self, limit: int = 50) -> list[GameListRow]:
        rows = self._rows(
            """SELECT g.id, g.ruleset, g.created_at,
                      (SELECT group_concat(name, ', ') FROM
                         (SELECT name FROM game_players WHERE game_id = g.id ORDER BY seat)) AS players
               FROM games g ORDER BY g.id DESC LIMIT ?""",
            [limit],
        )
        return cast(list[GameListRow], rows)

    def shown_version_by_share_token(self, token: str) -> tuple[int, int]:
        """(game id, shown version) behind a share link: what the live view polls, one indexed read."""
        found = self._rows(f"SELECT g.id, {SHOWN_VERSION} AS shown {SHOWN_FROM} WHERE g.share_token = ?", [token])
        if not found:
            raise NotFound("there is no game behind that link")
        return int(found[0]["id"]), int(found[0]["shown"])

    def shown_version(self, game_id: int) -> int:
        """What the live and table views show changes when this does: the game's version, or a note
        on the game or its night. One indexed read."""
        found = self._value(f"SELECT {SHOWN_VERSION} {SHOWN_FROM} WHERE g.id = ?", [game_id])
        if found is None:
            raise NotFound(f"there is no game {game_id}")
        return int(found)

    def replace_notes(self, kind: str, row_id: int, notes: str, seen_edits: int) -> bool:
        """Keep ``notes`` as the note of a game or a night, unless the note was edited since the
        editor saw it (after ``seen_edits`` edits): then False and nothing is written. The same
        note sent again (a second tap) is no new edit."""
        table = {"game": "games", "night": "nights"}[kind]
        with self.writing():
            current = self._one(
                f"SELECT notes, notes_edits FROM {table} WHERE id = ?", [row_id], f"there is no {kind} {row_id}"
            )
            if current["notes"] == notes:
                return True
            if current["notes_edits"] != seen_edits:
                return False
            self.db.execute(
                f"UPDATE {table} SET notes = ?, notes_edits = notes_edits + 1 WHERE id = ?", [notes, row_id]
            )
            return True

    def set_carry(self, game_id: int, carry_in: int) -> None:
        """A new carry-in changes the game's money: it is a new version of the game."""
        self.db.execute("UPDATE games SET carry_in = ?, revision = revision + 1 WHERE id = ?", [carry_in, game_id])

    def keep_money_at_end(self, game_id: int, seat_cents: Sequence[int]) -> None:
        """Each seat's money when the game first ended: what later corrections are measured against
        (kept once; a correction never rewrites it)."""
        self.db.execute(
            "UPDATE games SET money_at_end = ? WHERE id = ? AND money_at_end IS NULL",
            [json.dumps(list(seat_cents)), game_id],
        )

    # --- events -------------------------------------------------------------------------

    def events(self, game_id: int) -> list[EventRow]:
        rows = self._rows("SELECT id, kind, payload, created_at FROM events WHERE game_id = ? ORDER BY id", [game_id])
        return [cast(EventRow, {**row, "payload": json.loads(row["payload"])}) for row in rows]

    def revision(self, game_id: int) -> int:
        """The game's version as stored (read it inside ``writing()`` to act on it)."""
        found = self._value("SELECT revision FROM games WHERE id = ?", [game_id])
        if found is None:
            raise NotFound(f"there is no game {game_id}")
        return int(found)

    def next_event_id(self) -> int:
        """The number the next event will be stored under (to be read inside ``writing()``)."""
        return int(self._value("SELECT coalesce(max(id), 0) + 1 FROM events"))

    def append_event(
        self, game_id: int, kind: str, payload: dict[str, Any], expected_version: int, event_id: int
    ) -> None:
        """Append one event as number ``event_id`` (``next_event_id``), unless the game has moved on
        since ``expected_version``."""
        with self.writing():
            revision = self._value("SELECT revision FROM games WHERE id = ?", [game_id])
            if revision != expected_version:
                raise StaleWrite(expected_version, int(revision))
            self.db.execute(
                "INSERT INTO events (id, game_id, kind, payload, created_at) VALUES (?, ?, ?, ?, ?)",
                [event_id, game_id, kind, json.dumps(payload, sort_keys=True), now()],
            )
            self.db.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", [game_id])

    # --- derived results, nights, players ----------------------------------------------------

    def save_results(self, game_id: int, rows: Sequence[ResultRow]) -> bool:
        """Replace a game's derived per-seat results (the engine computes them); True when the game
        is finished or was (players' records must then be added up again)."""
        with self.writing():
            was_finished = bool(self._value("SELECT max(finished) FROM results WHERE game_id = ?", [game_id]))
            self.db.execute("DELETE FROM results WHERE game_id = ?", [game_id])
            ids = dict(self.db.execute("SELECT seat, player_id FROM game_players WHERE game_id = ?", [game_id]))
            day = self._value(GAME_DAY_SQL, [game_id])
            self.db.conn.executemany(
                f"INSERT INTO results (game_id, player_id, day, {', '.join(RESULT_COLUMNS)}) "
                f"VALUES (?, ?, ?, {', '.join('?' * len(RESULT_COLUMNS))})",
                [[game_id, ids[row["seat"]], day, *_result_values(row)] for row in rows],
            )
            self._refresh_stats(list(ids.values()))
        return was_finished or any(row["finished"] for row in rows)

    def _refresh_stats(self, player_ids: list[int]) -> None:
        """Recompute these players' leaderboard rows from their results (by index, not a scan)."""
        marks = ", ".join("?" * len(player_ids))
        self.db.execute(f"DELETE FROM ruleset_stats WHERE player_id IN ({marks})", player_ids)
        self.db.execute(RULESET_STATS_SQL.format(where=f"AND r.player_id IN ({marks})"), player_ids)

    # --- locks ---------------------------------------------------------------------------

    def claim_pin_try(self, lock: str, free_tries: int, base_delay: float) -> tuple[bool, float]:
        """Count one PIN try on ``lock`` (whoever makes it), atomically, in one statement: (may this
        try go ahead, seconds until the next may). Past the free tries each claim makes the next
        wait twice as long as the last, so simultaneous guesses cannot all be checked."""
        now = time.time()
        with self.writing():
            row = self._claim(lock, now, free_tries, base_delay)
        if row is not None:
            return True, max(0.0, float(row[0]) - now)
        blocked_until = self._value("SELECT blocked_until FROM pin_tries WHERE lock = ?", [lock])
        return False, max(0.01, float(blocked_until or 0) - now)

    def _claim(self, lock: str, now: float, free_tries: int, base_delay: float) -> Any:
        return self.db.execute(
            """INSERT INTO pin_tries (lock, tries, blocked_until) VALUES (:lock, 1, :now)
               ON CONFLICT(lock) DO UPDATE SET
                 tries = tries + 1,
                 blocked_until = :now + CASE WHEN tries + 1 > :free
                                   THEN :base * (1 << MIN(tries - :free, 20)) ELSE 0 END
               WHERE blocked_until <= :now
               RETURNING blocked_until""",
            {"lock": lock, "now": now, "free": free_tries, "base": base_delay},
        ).fetchone()

    def pin_succeeded(self, lock: str) -> None:
        with self.writing():
            self.db.execute("DELETE FROM pin_tries WHERE lock = ?", [lock])

    def relock(self, kind: str, row_id: int) -> None:
        """A new lock generation: every unlock given before it (cookies, tokens) ends."""
        table = {"game": "games", "night": "nights"}[kind]
        with self.writing():
            self.db.execute(f"UPDATE {table} SET lock_generation = lock_generation + 1 WHERE id = ?", [row_id])

    def lock_night(self, night_id: int, pin_hash: str) -> None:
        with self.writing():
            self.db.execute("UPDATE nights SET pin_hash = ? WHERE id = ? AND pin_hash IS NULL", [pin_hash, night_id])

    def create_night(self, name: str = "", money: MoneyMode = MoneyMode.TABLE) -> int:
        row = {
            "name": name,
            "created_at": now(),
            "closed_at": None,
            "money": money.value,
            "share_token": secrets.token_urlsafe(16),
        }
        with self.writing():
            return _new_id(self.table("nights").insert(row))

    def set_money_mode(self, night_id: int, money: MoneyMode) -> None:
        with self.writing():
            self.db.execute("UPDATE nights SET money = ? WHERE id = ?", [money.value, night_id])

    def payments(self, night_id: int) -> list[PaymentRow]:
        """Every payment marked paid in a night, in the order they were made (those taken back with
        "not paid after all" carry ``undone_at``)."""
        rows = self._rows("SELECT * FROM payments WHERE night_id = ? ORDER BY id", [night_id])
        return cast(list[PaymentRow], rows)

    def record_payment(self, night_id: int, payer: str, payee: str, cents: int, nets: str) -> int:
        row = {"night_id": night_id, "payer": payer, "payee": payee, "cents": cents, "made_at": now(), "nets": nets}
        with self.writing():
            return _new_id(self.table("payments").insert(row))

    def set_payment_undone(self, night_id: int, payment_id: int, undone: bool) -> bool:
        """Take a payment back ("not paid after all"), or put it back; False if the night has no such payment."""
        with self.writing():
            changed = self.db.execute(
                "UPDATE payments SET undone_at = ? WHERE id = ? AND night_id = ?",
                [now() if undone else None, payment_id, night_id],
            ).rowcount
        return bool(changed)

    def night(self, night_id: int) -> NightRow:
        return cast(
            NightRow, self._one("SELECT * FROM nights WHERE id = ?", [night_id], f"there is no night {night_id}")
        )

    def close_night(self, night_id: int) -> None:
        self.night(night_id)
        self.db.execute("UPDATE nights SET closed_at = ? WHERE id = ? AND closed_at IS NULL", [now(), night_id])

    def nights(self, limit: int = 50) -> list[NightListRow]:
        rows = self._rows(
            """SELECT n.*, (SELECT count(*) FROM games g WHERE g.night_id = n.id) AS games
               FROM nights n ORDER BY n.id DESC LIMIT ?""",
            [limit],
        )
        return cast(list[NightListRow], rows)

    def night_by_share_token(self, token: str) -> NightRow:
        return cast(
            NightRow,
            self._one("SELECT * FROM nights WHERE share_token = ?", [token], "there is no night behind that link"),
        )

    def night_followed(self, night_id: int, player: str | None) -> tuple[int, int] | None:
        """(game id, shown version) of what a phone following the night shows: the night's latest game
        that ``player`` sits in (any, when they sit in none or say nobody); None before the first game.
        One indexed read: every phone at the table asks it every two seconds."""
        sql = f"SELECT g.id, {SHOWN_VERSION} AS shown {SHOWN_FROM} WHERE g.night_id = ? {{seat}} ORDER BY g.id DESC"
        found = []
        if player:
            seat = (
                "AND g.id IN (SELECT p.game_id FROM game_players p JOIN players x ON x.id = p.player_id "
                "WHERE x.name_key = ?)"
            )
            found = self._rows(sql.format(seat=seat) + " LIMIT 1", [night_id, name_key(player)])
        if not found:
            found = self._rows(sql.format(seat="") + " LIMIT 1", [night_id])
        return (int(found[0]["id"]), int(found[0]["shown"])) if found else None

    def open_night(self) -> int | None:
        """The last night not yet closed: where a new game goes by default."""
        found = self._value("SELECT id FROM nights WHERE closed_at IS NULL ORDER BY id DESC LIMIT 1")
        return None if found is None else int(found)

    def night_game_ids(self, night_id: int, after: int = 0) -> list[int]:
        """The night's games in the order they were started (those after game ``after``)."""
        rows = self.db.execute("SELECT id FROM games WHERE night_id = ? AND id > ? ORDER BY id", [night_id, after])
        return [int(r[0]) for r in rows]

    def player(self, player_id: int) -> PlayerRow:
        row = self._one("SELECT id, name FROM players WHERE id = ?", [player_id], f"there is no player {player_id}")
        return cast(PlayerRow, row)

    def player_id(self, name: str) -> int | None:
        found = self._value("SELECT id FROM players WHERE name_key = ?", [name_key(name)])
        return None if found is None else int(found)

    def player_history(self, player_id: int, limit: int = 20, before: int | None = None) -> list[HistoryRow]:
        """A player's games, newest first, a page at a time (``before``: the last game id of the page before)."""
        rows = self._rows(
            """SELECT r.*, g.ruleset, g.created_at, g.night_id, gp.name
               FROM results r JOIN games g ON g.id = r.game_id
               JOIN game_players gp ON gp.game_id = r.game_id AND gp.seat = r.seat
               WHERE r.player_id = ? AND r.game_id < ? ORDER BY r.game_id DESC LIMIT ?""",
            [player_id, before if before is not None else 2**62, limit],
        )
        return cast(list[HistoryRow], rows)

    def player_stats(self, player_id: int) -> list[StatsRow]:
        """A player's finished games added up, one row per ruleset."""
        rows = self._rows("SELECT * FROM ruleset_stats WHERE player_id = ? ORDER BY ruleset", [player_id])
        return cast(list[StatsRow], rows)

    def leaderboard(self, limit: int = 200) -> list[LeaderRow]:
        """Per ruleset and player over every finished game: games, wins, points, money, best and worst round."""
        rows = self._rows(
            """SELECT p.id, p.name, s.ruleset, s.games, s.wins, s.points, s.rounds, s.money,
                      s.best_low, s.best_high, s.worst_low, s.worst_high
               FROM ruleset_stats s JOIN players p ON p.id = s.player_id
               ORDER BY s.ruleset, s.wins DESC, s.money DESC, p.name_key LIMIT ?""",
            [limit],
        )
        return cast(list[LeaderRow], rows)

    # --- entries recorded once (form entry keys, API Idempotency-Keys) -------------------------

    def answer_for(self, key: str) -> EntryKeyRow | None:
        rows = self._rows("SELECT key, game_id, digest, status, body FROM entry_keys WHERE key = ?", [key])
        return cast(EntryKeyRow, rows[0]) if rows else None

    def remember_answer(self, key: str, game_id: int | None, digest: str, status: int, body: str) -> None:
        self.db.execute(
            "INSERT INTO entry_keys (key, game_id, digest, status, body, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            [key, game_id, digest, status, body, now()],
        )

    # --- drafts: hands entered on players' own phones (never entries) ----------------------------

    def keep_draft(self, game_id: int, number: int, player: str, cards: str | None, points: int | None) -> None:
        self.table("drafts").upsert(
            {
                "game_id": game_id,
                "round": number,
                "player": player,
                "cards": cards,
                "points": points,
                "updated_at": now(),
            },
            pk=("game_id", "round", "player"),
        )

    def drafts(self, game_id: int, number: int) -> list[DraftRow]:
        sql = "SELECT player, cards, points, updated_at FROM drafts WHERE game_id = ? AND round = ? ORDER BY player"
        return cast(list[DraftRow], self._rows(sql, [game_id, number]))

    def clear_drafts(self, game_id: int, rounds: list[int], beyond: int) -> None:
        """The drafts of ``rounds``, and of every round after ``beyond`` (not begun: left by an undo)."""
        marks = ", ".join("?" * len(rounds))
        self.db.execute(
            f"DELETE FROM drafts WHERE game_id = ? AND (round > ? OR round IN ({marks}))", [game_id, beyond, *rounds]
        )

    def correction_requests(self, game_id: int, played: int) -> list[DraftRoundRow]:
        """The drafts of rounds already saved: hands a phone sent to correct them."""
        sql = (
            "SELECT round, player, cards, points, updated_at FROM drafts WHERE game_id = ? AND round <= ? "
            "ORDER BY round, player"
        )
        return cast(list[DraftRoundRow], self._rows(sql, [game_id, played]))

    # --- nights whose carries must be worked out again (after an upgrade or an import) ---------

    def stale_results(self) -> list[int]:
        return [int(r[0]) for r in self.db.execute("SELECT game_id FROM stale_results ORDER BY game_id")]

    def results_refreshed(self, game_id: int) -> None:
        self.db.execute("DELETE FROM stale_results WHERE game_id = ?", [game_id])

    def stale_nights(self) -> list[int]:
        return [int(r[0]) for r in self.db.execute("SELECT night_id FROM stale_nights ORDER BY night_id")]

    def mark_night_stale(self, night_id: int) -> None:
        self.db.execute("INSERT OR IGNORE INTO stale_nights (night_id) VALUES (?)", [night_id])

    def night_refreshed(self, night_id: int) -> None:
        self.db.execute("DELETE FROM stale_nights WHERE night_id = ?", [night_id])
