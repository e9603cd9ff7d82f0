"""The store's foundation: the connection (owner-only file, busy timeout, WAL), the one write
transaction and snapshot reads, the errors, and the SQL every part shares."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.db import Table

from .migrations import migrations
from .rows import ResultRow

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
        self.actual = actual


def result_values(row: ResultRow) -> tuple[int | str | None, ...]:
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


def new_id(table: Table) -> int:
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


class StoreBase:
    """The connection and the transactions; each part of the store adds its tables' SQL."""

    def __init__(self, path: str | Path) -> None:
        conn = connect_owner_only(path)
        try:
            self.db = Database(conn)
            self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.execute("PRAGMA synchronous = NORMAL")
        except BaseException:
            conn.close()  # a file that cannot be used is not held open (a disk can be unmounted)
            raise

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
            # SQLite has rolled back already on some errors (a full disk): the error is what to say.
            if self.db.conn.in_transaction:
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
