"""Backups by themselves: a consistent copy of the database (SQLite's online backup) into the
instance's ``backups/`` folder at start and when a night is closed, made under a passing name and
named only once checked whole, the newest 10 kept plus the last of each of the last 7 days with one
and of every month; a restore first backs up the file it replaces, and changes nothing when it cannot
(unless that file is proven damaged)."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from ..rules.wording import plural
from . import startup
from .repository import Store, StoreError

KEEP_NEWEST = 10
KEEP_DAYS = 7  # the last backup of each of the last seven days with one
REASONS = {  # in a file name, and in words
    "start": "when the server started",
    "night-closed": "when a night was closed",
    "by-hand": "by hand",
    "before-restore": "before a restore",
    "before-change": "before a change that Undo cannot take back (a PIN taken off, a delete, players put right)",
    "mirror": "the mirror copy",  # never a file's name here: what a restore from the mirror put back
    "set-aside": "moved aside by a restore, as it looked damaged",  # damaged-….sqlite
}
NAME = re.compile(r"scorekeeper-(\d{8}-\d{6})(?:-(\d+))?-(" + "|".join(REASONS) + r")\.sqlite")
STAMP = "%Y%m%d-%H%M%S"


class BackupFailed(StoreError):
    """A backup could not be made or checked: the message says why; no unchecked copy is kept."""


class NoSuchBackup(StoreError, LookupError):
    """A restore named a backup the backups folder does not hold."""


@dataclass(frozen=True)
class Backup:
    path: Path
    made_at: datetime
    reason: str
    count: int = 1  # the second backup made in the same second is -2

    @property
    def order(self) -> tuple[datetime, int]:
        return (self.made_at, self.count)

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def why(self) -> str:
        return REASONS[self.reason]

    @property
    def month(self) -> str:
        return self.made_at.strftime("%Y-%m")


def with_journal(path: Path) -> tuple[Path, Path, Path]:
    """A database file and the two SQLite may keep beside it (-wal, -shm)."""
    return path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def parse_name(path: Path) -> Backup | None:
    """A backup this module made, from its file name; None for any other file."""
    match = NAME.fullmatch(path.name)
    if match is None:
        return None
    return Backup(path, datetime.strptime(match.group(1), STAMP), match.group(3), int(match.group(2) or 1))


SQLITE_HEADER = b"SQLite format 3\x00"
SMALLEST_DATABASE = 512  # one page: anything shorter was cut short


def looks_whole(path: Path) -> bool:
    """A cheap look (the home page lists the backups): a file at least a page long that starts as a
    SQLite database. A restore checks the whole file first."""
    try:
        with path.open("rb") as file:
            return path.stat().st_size >= SMALLEST_DATABASE and file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def list_backups(folder: str | Path) -> list[Backup]:
    """The backups in ``folder``, newest first (none if there is no folder yet): files named as this
    module names them that look whole; an empty, cut or foreign file is never listed."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    named = [backup for path in folder.iterdir() if (backup := parse_name(path)) is not None]
    found = [backup for backup in named if looks_whole(backup.path)]
    return sorted(found, key=lambda backup: backup.order, reverse=True)


def to_keep(backups: Iterable[Backup], newest: int = KEEP_NEWEST) -> set[Path]:
    """The newest ``newest`` backups; the last one of each of the last ``KEEP_DAYS`` days that have
    one, so a morning of restarts (a unit restarting, a power cut) cannot push out the evenings
    before; and for every month, the last one made in it: a database spoilt weeks ago can still be
    found whole."""
    ordered = sorted(backups, key=lambda backup: backup.order, reverse=True)
    keep = {backup.path for backup in ordered[:newest]}
    days_seen: set[str] = set()
    months_seen: set[str] = set()
    for backup in ordered:
        day = backup.made_at.strftime("%Y-%m-%d")
        if day not in days_seen and len(days_seen) < KEEP_DAYS:
            keep.add(backup.path)
        days_seen.add(day)
        if backup.month not in months_seen:
            months_seen.add(backup.month)
            keep.add(backup.path)
    return keep


def make_backup(store: Store, folder: str | Path, reason: str, now: datetime | None = None) -> Backup:
    """A checked copy of the live database in ``folder`` (owner-only), then the old ones pruned."""
    made = checked_copy(store, folder, reason, now)
    prune(folder)
    return made


def checked_copy(store: Store, folder: str | Path, reason: str, now: datetime | None = None) -> Backup:
    if reason not in REASONS:
        raise ValueError(f"unknown backup reason {reason!r}")
    folder = Path(folder)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(folder, 0o700)
    except OSError as error:
        raise BackupFailed(f"cannot use the backups folder {folder} ({error.strerror})") from None
    path = free_name(folder, now or datetime.now(), reason)
    # Made and checked under a name no listing takes, then renamed: a copy killed part-way, or one
    # that fails its check, is never a backup.
    passing = path.with_name(f".partial-{path.name}")
    try:
        startup.backup(store, passing)
        check_whole(passing)
        passing.replace(path)
    except (OSError, sqlite3.Error, BackupFailed) as error:
        for part in with_journal(passing):
            part.unlink(missing_ok=True)
        raise BackupFailed(f"the backup {path} failed and was not kept: {error}") from None
    made = parse_name(path)
    assert made is not None  # free_name makes a name parse_name reads
    return made


def backup_to(store: Store, path: Path, database: Path) -> None:
    """A checked copy at a path of the person's choosing (``scorekeeper backup PATH``): never over the
    live database, never over a file that is not a database, never into a folder that is not there;
    each said in one line."""
    if not path.parent.is_dir():
        raise BackupFailed(f"there is no folder {path.parent}: make it first, or choose another place")
    if path.exists() and path.resolve() == database.resolve():
        raise BackupFailed(f"{path} is the live database itself: choose another file for the copy")
    if path.exists() and not looks_whole(path):
        raise BackupFailed(f"{path} exists and is not a database: choose a new file name for the copy")
    passing = path.with_name(f".partial-{path.name}")
    try:
        startup.backup(store, passing)
        check_whole(passing)
        passing.replace(path)
    except (OSError, sqlite3.Error) as error:
        raise BackupFailed(f"the backup to {path} failed and was not kept: {error}") from None
    finally:
        for part in with_journal(passing):
            part.unlink(missing_ok=True)


def free_name(folder: Path, now: datetime, reason: str) -> Path:
    """A new file name for a backup made at ``now``: two in the same second get -2, -3, …"""
    stamp = now.strftime(STAMP)
    path = folder / f"scorekeeper-{stamp}-{reason}.sqlite"
    count = 1
    while path.exists():
        count += 1
        path = folder / f"scorekeeper-{stamp}-{count}-{reason}.sqlite"
    return path


SCOREKEEPER_TABLES = {"games", "events", "nights"}


def check_whole(path: str | Path) -> None:
    """A copy is a backup when PRAGMA integrity_check says "ok" and it holds Scorekeeper's tables
    (an empty file passes the check as an empty database)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            problems = [row[0] for row in conn.execute("PRAGMA integrity_check")]
            tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            conn.close()
    except sqlite3.Error as error:
        raise BackupFailed(f"{Path(path).name} cannot be read as a database ({error})") from None
    if problems != ["ok"]:
        raise BackupFailed(f"the copy is not whole: {problems[0]}")
    if not SCOREKEEPER_TABLES <= tables:
        raise BackupFailed(f"{Path(path).name} is not a Scorekeeper database (it has no games tables)")


@dataclass(frozen=True)
class Contents:
    """What a database file holds, as a host compares two of them: games, nights, the last write."""

    games: int
    nights: int
    last_write: str | None  # the newest entry's time (UTC, ISO 8601), None in a database without games

    def __str__(self) -> str:
        last = f", the last entered {self.last_write[:16].replace('T', ' ')} UTC" if self.last_write else ""
        return f"{plural(self.games, 'game')} in {plural(self.nights, 'night')}{last}"


def contents(path: str | Path) -> Contents:
    """Read only; BackupFailed where the file is not a Scorekeeper database."""
    check_whole(path)
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        games = int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
        nights = int(conn.execute("SELECT count(*) FROM nights").fetchone()[0])
        last = conn.execute("SELECT max(created_at) FROM events").fetchone()[0]
    finally:
        conn.close()
    return Contents(games, nights, str(last) if last else None)


def is_damaged(database: Path) -> bool:
    """Proven damaged: a file SQLite cannot read as a database, or whose quick_check fails."""
    try:
        conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            return [row[0] for row in conn.execute("PRAGMA quick_check")] != ["ok"]
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return True


def prune(folder: str | Path) -> list[Path]:
    """Delete the backups ``to_keep`` does not keep; returns what was deleted."""
    backups = list_backups(folder)
    keep = to_keep(backups)
    gone = [backup.path for backup in backups if backup.path not in keep]
    for path in gone:
        for part in with_journal(path):
            part.unlink(missing_ok=True)
    return gone


SET_ASIDE = re.compile(r"damaged-(\d{8}-\d{6})\.sqlite")


def set_aside_files(folder: str | Path) -> list[Backup]:
    """The databases a restore moved aside as damaged, newest first: listed, and restorable by name
    (the restore checks them whole first), so nothing moved is ever out of sight."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = [
        Backup(path, datetime.strptime(match.group(1), STAMP), "set-aside")
        for path in folder.iterdir()
        if (match := SET_ASIDE.fullmatch(path.name))
    ]
    return sorted(found, key=lambda backup: backup.order, reverse=True)


def find_backup(folder: str | Path, name: str) -> Backup:
    for candidate in [*list_backups(folder), *set_aside_files(folder)]:
        if candidate.name == name:
            return candidate
    raise NoSuchBackup(f"no backup named {name!r} in {folder}: `scorekeeper restore` lists them")


@dataclass(frozen=True)
class Restored:
    chosen: Backup
    safety: Backup | None  # the database as it was, backed up first…
    set_aside: Path | None  # …or, too damaged to back up, moved aside whole


def restore(database: str | Path, folder: str | Path, name: str, now: datetime | None = None) -> Restored:
    """Put backup ``name`` in place of the live database, after backing up the live one (a restore is
    undone by restoring that). A live database too damaged to copy is moved aside instead."""
    return restore_backup(database, folder, find_backup(folder, name), now)


def restore_file(database: str | Path, folder: str | Path, source: Path, now: datetime | None = None) -> Restored:
    """Put a copy kept elsewhere (the mirror's) in place of the live database, as ``restore`` does."""
    try:
        made = datetime.fromtimestamp(source.stat().st_mtime)
    except OSError as error:
        raise BackupFailed(f"there is no copy at {source} ({error.strerror})") from None
    return restore_backup(database, folder, Backup(source, made, "mirror"), now)


def restore_backup(database: str | Path, folder: str | Path, chosen: Backup, now: datetime | None = None) -> Restored:
    check_whole(chosen.path)
    check_room(Path(database), chosen.path)
    now = now or datetime.now()
    safety, set_aside = None, None
    if not Path(database).exists():  # lost with its disk: nothing to keep first
        return put_in_place(database, folder, chosen, Restored(chosen, None, None))
    try:
        store = Store(database)
        try:
            safety = checked_copy(store, folder, "before-restore", now)  # pruned once the chosen one is in
        finally:
            store.close()
    except (BackupFailed, sqlite3.Error) as error:
        if not is_damaged(Path(database)):
            raise BackupFailed(
                f"could not back up the database before the restore ({error}): nothing was changed"
            ) from None
        set_aside = move_aside(Path(database), Path(folder), now)
    return put_in_place(database, folder, chosen, Restored(chosen, safety, set_aside))


def put_in_place(database: str | Path, folder: str | Path, chosen: Backup, done: Restored) -> Restored:
    """The chosen copy into the database file, through SQLite (the live file keeps its locks)."""
    safety, set_aside = done.safety, done.set_aside
    try:
        store = Store(database)
        try:
            source = sqlite3.connect(f"file:{chosen.path}?mode=ro", uri=True)
            try:
                source.backup(store.db.conn)
            finally:
                source.close()
        finally:
            store.close()
    except (OSError, sqlite3.Error) as error:
        put_back(Path(database), set_aside)
        kept = f"; what was there before is {safety.name}" if safety else ""
        raise BackupFailed(f"the restore of {chosen.name} failed ({error}): the database is as it was{kept}") from None
    prune(folder)
    return done


def put_back(database: Path, set_aside: Path | None) -> None:
    """After a failed restore: the file that was there back in its place, and never a file SQLite made
    empty where there was none (a 0-byte database starts the app empty)."""
    if set_aside is not None:
        for moved, part in zip(with_journal(set_aside), with_journal(database), strict=True):
            if moved.exists():
                moved.replace(part)
    elif database.exists() and database.stat().st_size < SMALLEST_DATABASE:
        for part in with_journal(database):
            part.unlink(missing_ok=True)


ROOM_TO_SPARE = 1 << 20  # SQLite's journals and the folder's own needs, beyond the two copies


def check_room(database: Path, chosen: Path) -> None:
    """A restore writes a copy of the database it replaces and the chosen one over it: with less room
    than both it would stop half-way (and a database that cannot open for want of room looks damaged).
    Refused before anything is changed, saying how much room it needs."""
    size = database.stat().st_size if database.exists() else 0
    needed = size + chosen.stat().st_size + ROOM_TO_SPARE
    free = startup.free_bytes(database)
    if free is not None and free < needed:
        raise BackupFailed(
            f"the disk holding {database} is full ({megabytes(free)} free; a restore needs {megabytes(needed)}): "
            "free some space on it, then restore again; nothing was changed"
        )


def megabytes(count: int) -> str:
    return f"{count / (1 << 20):.1f} MB"


def move_aside(database: Path, folder: Path, now: datetime) -> Path:
    """The damaged file (and its journal) moved into the backups folder as damaged-<time>.sqlite."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    aside = folder / f"damaged-{now.strftime(STAMP)}.sqlite"
    for part, moved in zip(with_journal(database), with_journal(aside), strict=True):
        if part.exists():
            part.replace(moved)
    return aside
