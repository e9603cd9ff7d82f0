"""The game pages: set up a game, record buys and rounds, correct them, see the history. One
blueprint in three parts: ``pages`` (the game page, a new game, buys, locks, the rematch, and what
the parts share), ``rounds`` (the round and hand forms), ``history`` (undo, history, exports)."""

from . import deleting, history, rounds  # noqa: F401 (their routes, on the one blueprint)
from .pages import bp

__all__ = ["bp"]
