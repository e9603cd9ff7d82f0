"""Start-up checks (the database opens, is whole, is migrated; or a message that says what to do)
and backups (a consistent copy while the server writes)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from .repository import Store, StoreError, connect_owner_only


def backup(store: Store, path: str | Path) -> None:
    """A consistent copy of the live database (SQLite's online backup), safe while others write."""
    target = connect_owner_only(path)
    try:
        with target:
            store.db.conn.backup(target)
        # One self-contained file: the copy takes the live database's WAL mode, which would leave
        # -wal and -shm files beside it once it is opened.
        target.execute("PRAGMA journal_mode = DELETE")
    finally:
        target.close()


class StartUpProblem(StoreError):
    """The database cannot be used: the message says what, where, and what to do."""


def check_database(path: str) -> None:
    """The database opens, passes SQLite's quick check, and has every migration applied; else
    StartUpProblem with what to do."""
    try:
        store = Store(path)
        try:
            problems = [row[0] for row in store.db.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(problems[0])
            store.migrate()
        finally:
            store.close()
    except OSError as error:
        raise StartUpProblem(f"cannot open the database {path} ({error.strerror}): check its folder") from None
    except sqlite3.DatabaseError as error:
        raise StartUpProblem(database_problem(path, str(error))) from None


FULL_BELOW_BYTES = 1 << 20  # less free space than this beside the database: the disk is full


def free_bytes(path: str | Path) -> int | None:
    """The room left on the disk holding ``path`` (None where it cannot be told)."""
    try:
        return shutil.disk_usage(Path(path).resolve().parent).free
    except OSError:
        return None


def disk_is_full(path: str) -> bool:
    free = free_bytes(path)
    return free is not None and free < FULL_BELOW_BYTES


def database_problem(path: str, error: str) -> str:
    # On a full disk SQLite cannot make its -shm file and says "disk I/O error": the file is whole.
    if "full" in error or ("disk I/O error" in error and disk_is_full(path)):
        free = free_bytes(path) or 0
        return (
            f"the disk holding the database {path} is full ({error}): {free // 1024} KB free, it needs at least "
            f"{FULL_BELOW_BYTES // 1024} KB; free some space on it, then start again; the database is not "
            "damaged, so do not restore a backup over it"
        )
    if "locked" in error or "busy" in error:
        return (
            f"the database {path} is in use by another program ({error}): stop the other program (another "
            "Scorekeeper server, a backup still running, a database browser), then start again; the file is "
            "not damaged"
        )
    if "not a database" in error:
        return (
            f"{path} is not a Scorekeeper database ({error}): move it out of the way to start afresh, "
            "or put back the right file"
        )
    return (
        f"the database {path} is damaged ({error}): stop here and restore it from your latest backup: "
        "`scorekeeper restore` lists the backups made by themselves, `scorekeeper restore NAME` puts one back "
        "(or copy a backup you made over this file) and start again"
    )
