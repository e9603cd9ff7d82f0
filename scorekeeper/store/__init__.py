"""The storage layer: the only code that speaks SQL, through sqlite-utils.

What happened at the table is kept append-only in ``events``; scores and money are
derived from it by the rules engine, so a correction never loses the entry it corrects.

By job: ``repository`` (the SQL: ``Store``, made of ``base`` — the connection and its
transactions — and a part per kind of table: ``games``, ``nights``, ``players``, ``entries``),
``exchange`` (the export format and its import), ``web`` (the store in a Flask app: a connection per
thread, teardown), ``startup`` (start-up checks and the copy itself), ``backups`` (the backups folder:
made, checked, pruned, restored), ``mirror`` (the copy on another disk), ``records`` (players' records
added up by day), ``migrations`` (the schema) and ``rows`` (the row types).
"""

from __future__ import annotations

from .repository import NotFound, StaleWrite, Store, StoreError
from .startup import StartUpProblem
from .web import automatic_backup, get_store, init_app, last_backup, mirror_state, set_mirror

__all__ = [
    "NotFound",
    "StaleWrite",
    "StartUpProblem",
    "Store",
    "StoreError",
    "automatic_backup",
    "get_store",
    "init_app",
    "last_backup",
    "mirror_state",
    "set_mirror",
]
