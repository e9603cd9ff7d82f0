"""The SQL repository: every query and write of the app, through sqlite-utils, one method each,
in a part per kind of table (``games``, ``nights``, ``players``, ``entries``, ``rulesets``,
``deleted``) on one connection and its transactions (``base``)."""

from __future__ import annotations

from .base import BUSY_TIMEOUT_MS, NotFound, StaleWrite, StoreError, connect_owner_only, now
from .deleted import DeletedTables
from .entries import EntryTables
from .games import GameTables
from .nights import NightTables
from .players import PlayerTables
from .rulesets import RulesetTables

__all__ = ["BUSY_TIMEOUT_MS", "NotFound", "StaleWrite", "Store", "StoreError", "connect_owner_only", "now"]


class Store(GameTables, NightTables, PlayerTables, EntryTables, RulesetTables, DeletedTables):
    """The store: every table's SQL on one connection."""
