"""The store in a Flask app (flaskr's get_db / init_app): one connection per server thread, no
transaction left open after a request, the database checked at start-up."""

from __future__ import annotations

import threading

from flask import Flask, current_app

from . import backups
from .mirror import Mirror, MirrorState
from .repository import Store
from .startup import check_database


def get_store() -> Store:
    """This thread's store: one long-lived connection per server thread.

    Opening SQLite for every request, and closing it (which checkpoints the WAL), costs more
    than the request itself; waitress serves from a fixed set of threads, so each keeps one.
    """
    pool: dict[int, Store] = current_app.extensions.setdefault("stores", {})
    key = threading.get_ident()
    store = pool.get(key)
    if store is None:
        store = pool[key] = Store(current_app.config["DATABASE"])
    return store


def end_request(exception: BaseException | None = None) -> None:
    """Never leave a transaction open on a connection the next request will use."""
    store = current_app.extensions.get("stores", {}).get(threading.get_ident())
    if store is not None and store.db.conn.in_transaction:
        store.db.conn.rollback()


def init_app(app: Flask) -> None:
    """Check the database and apply pending migrations at start-up; never leave a transaction open
    after a request; the mirror, when the house has one (its thread is started by ``serve``)."""
    check_database(app.config["DATABASE"])
    app.teardown_appcontext(end_request)
    set_mirror(app, app.config["MIRROR"])


def set_mirror(app: Flask, folder: str | None) -> Mirror | None:
    if not folder:
        return None
    mirror = app.extensions["mirror"] = Mirror(app.config["DATABASE"], folder, float(app.config["MIRROR_SECONDS"]))
    return mirror


def mirror_state() -> MirrorState | None:
    """What the home page says of the mirror (None: the house has none)."""
    mirror: Mirror | None = current_app.extensions.get("mirror")
    return mirror.state if mirror else None


def automatic_backup(reason: str) -> str | None:
    """A backup made by itself (at start, when a night is closed): None when made, else what went
    wrong, for the page to say (what triggered it stands either way). Off with AUTO_BACKUP = False."""
    if not current_app.config["AUTO_BACKUP"]:
        return None
    try:
        backups.make_backup(get_store(), current_app.config["BACKUPS_DIR"], reason)
    except backups.BackupFailed as error:
        current_app.logger.error("automatic backup: %s", error)
        return f"The automatic backup failed: {error}"
    return None


def last_backup() -> backups.Backup | None:
    made = backups.list_backups(current_app.config["BACKUPS_DIR"])
    return made[0] if made else None
