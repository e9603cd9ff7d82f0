"""A second copy of the database on another disk (issue 41): ``MIRROR = "/media/usb/scorekeeper"`` in the
instance's config.py, or ``scorekeeper serve --mirror DIR``. A thread of the server copies the database
there with SQLite's online backup whenever it changed, at most every ``MIRROR_SECONDS`` (30): under a
passing name, checked (``PRAGMA quick_check`` and Scorekeeper's tables), then renamed over the last
copy, so the mirror always holds one whole database. The folder is never created: a stick that is not
plugged in must not turn into a folder on the server's own disk. What went wrong is kept in words for
the home page."""

from __future__ import annotations

import errno
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .backups import BackupFailed, check_whole, with_journal
from .base import connect_owner_only

MIRROR_NAME = "scorekeeper.sqlite"
MIRROR_SECONDS = 30.0


@dataclass(frozen=True)
class MirrorState:
    """What the home page says of the mirror: when the last copy was made, and what is wrong."""

    folder: Path
    made_at: datetime | None = None
    problem: str | None = None


class Mirror:
    """The mirror of one database into one folder; ``copy_if_changed`` is one round of its thread."""

    def __init__(self, database: str | Path, folder: str | Path, every: float = MIRROR_SECONDS) -> None:
        self.database = Path(database)
        self.folder = Path(folder)
        self.every = every
        self.state = MirrorState(self.folder, made_at=made_at(self.folder / MIRROR_NAME))
        self._seen: int | None = None  # the database's data_version at the last copy
        self._stop = threading.Event()
        self._watch: sqlite3.Connection | None = None

    @property
    def path(self) -> Path:
        return self.folder / MIRROR_NAME

    def changed(self) -> bool:
        """Has any connection written since the last copy? (``PRAGMA data_version`` moves when another
        connection commits; this one only ever reads it.)"""
        if self._watch is None:
            self._watch = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, check_same_thread=False)
        version = int(self._watch.execute("PRAGMA data_version").fetchone()[0])
        moved = version != self._seen or self.state.made_at is None
        self._seen = version
        return moved

    def copy_if_changed(self) -> MirrorState:
        try:
            if not self.folder.is_dir():  # said at once, changed or not: the stick was pulled out
                raise FileNotFoundError(errno.ENOENT, "missing", str(self.folder))
            if self.changed():
                self.copy()
                self.state = MirrorState(self.folder, made_at=datetime.now())
        except (OSError, sqlite3.Error, BackupFailed) as error:
            self._seen = None  # try again next round
            self.state = MirrorState(self.folder, self.state.made_at, problem=self.problem(error))
        return self.state

    def copy(self) -> None:
        passing = self.folder / f".partial-{MIRROR_NAME}"
        try:
            source = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            try:
                target = connect_owner_only(passing)  # it holds the PIN hashes: 0600 whatever the umask
                try:
                    source.backup(target)
                finally:
                    target.close()
            finally:
                source.close()
            check_whole(passing)
            passing.replace(self.path)
        finally:
            for part in with_journal(passing):
                part.unlink(missing_ok=True)

    def problem(self, error: Exception) -> str:
        """The mirror's trouble in words: a missing folder, a full disk, a folder it may not write."""
        folder = self.folder
        # The system's numbers and SQLite's are two lists (EACCES and SQLITE_FULL are both 13).
        number = error.errno if isinstance(error, OSError) else None
        code = getattr(error, "sqlite_errorcode", None) if isinstance(error, sqlite3.Error) else None
        text = str(error).lower()
        if not folder.exists():
            return f"the mirror folder {folder} is missing (is the disk plugged in?)"
        if not folder.is_dir():
            return f"the mirror {folder} is a file, not a folder"
        if number == errno.ENOSPC or code == sqlite3.SQLITE_FULL or "full" in text:
            return f"the mirror folder {folder} is full"
        refused = number in (errno.EACCES, errno.EROFS, errno.EPERM)
        refused |= code in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN)
        if refused or "readonly" in text or "unable to open" in text:
            return f"the mirror folder {folder} cannot be written to"
        return f"the last copy to the mirror folder {folder} failed: {error}"

    def run(self) -> None:
        """The thread: a round now, then one every ``every`` seconds until ``stop``."""
        while True:
            self.copy_if_changed()
            if self._stop.wait(self.every):
                return

    def start(self) -> threading.Thread:
        thread = threading.Thread(target=self.run, name="scorekeeper-mirror", daemon=True)
        thread.start()
        return thread

    def stop(self) -> None:
        self._stop.set()


def made_at(path: Path) -> datetime | None:
    """When the mirror copy in place was made (its file's time), if there is one."""
    try:
        return datetime.fromtimestamp(path.stat().st_mtime)
    except OSError:
        return None
