"""The one way to write. Every write the app makes — games, rounds, buys, drafts, undo, rematch,
nights, money mode, payments, notes, locks, who is rated — is a command here, run by ``run``: the runner alone
checks the lock, the entry key (once-only), the transaction and the version; the commands ask the
rules and hand the store what the change derives. Views parse, run one command, and render. A route
that changes a game or a night (marked ``web.changes``) asks the runner's own lock check
(``runner.refuse_unopened``) once before its view, so a locked phone goes to the PIN page before it
types anything; the write itself is checked again, under the write lock.

One write goes around ``run`` on purpose: a PIN try (``locks.verify_pin``). ``run`` rolls a refusal
back, and a wrong PIN is a refusal that must stay written: each try is claimed in one statement
(``Store.claim_pin_try``) before the PIN is looked at, committed whatever the answer, so guesses sent
all at once from many phones are counted as they come and cannot all be checked.

By job: ``runner`` (the runner, who asks, entry keys), ``outcomes`` (what a write came to, one typed
value a page or the API renders in one place: ``attempt``), ``locks`` (what locks a game or a night,
PIN tries), ``games`` (a game's writes), ``drafts`` (players' own hands), ``nights`` (nights, money,
payments, notes, locking again), ``derived`` (what a write works out and the store keeps; imports),
``ratings`` (who is rated; the worker that keeps the rating worked out off the requests).
"""

from __future__ import annotations

from .runner import TRUSTED, Answered, Asker, EntryKey, KeyReused, run

__all__ = ["TRUSTED", "Answered", "Asker", "EntryKey", "KeyReused", "run"]
