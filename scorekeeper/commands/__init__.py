"""The one way to write. Every write the app makes — games, rounds, buys, drafts, undo, rematch,
nights, money mode, payments, notes, locks, who is rated — is a command here, run by ``run``: the runner alone
checks the lock, the entry key (once-only), the transaction and the version; the commands ask the
rules and hand the store what the change derives. Views parse, run one command, and render.

By job: ``runner`` (the runner, who asks, entry keys), ``locks`` (what locks a game or a night, PIN
tries), ``games`` (a game's writes), ``drafts`` (players' own hands), ``nights`` (nights, money,
payments, notes, locking again), ``derived`` (what a write works out and the store keeps; imports),
``ratings`` (who is rated; the worker that keeps the rating worked out off the requests).
"""

from __future__ import annotations

from .runner import TRUSTED, Answered, Asker, EntryKey, KeyReused, run

__all__ = ["TRUSTED", "Answered", "Asker", "EntryKey", "KeyReused", "run"]
