"""The runner every write goes through. A command says which lock it needs and does its work; the
runner, in this order and nowhere else: checks that the asker opened that lock, opens the write
transaction, answers a repeated entry key with the first answer (once-only), checks the version the
asker saw, calls the command (which asks the rules and hands the store what the change derives), and
remembers the answer under the entry key. A refusal anywhere rolls everything back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..reads.catalog import Catalog
from ..store import StaleWrite, Store
from ..store.rows import EntryKeyRow
from .locks import Lock, LockError

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


@dataclass(frozen=True)
class Answered:
    """The entry key was recorded already: nothing was done again; the first answer, to send back."""

    status: int
    body: str


class NeedsConfirming(Exception):
    """A write that is legal but rarely meant (a round where nobody was caught with a card): the
    question to ask; the same write sent again, confirmed, is made."""


class KeyReused(ValueError):
    """The key was recorded for another request (the API: a new entry needs a new key)."""


@dataclass(frozen=True)
class Asker:
    """Who asks for a write: whether they opened a lock (a page's session, an API's bearer token), and
    the refusal that tells them they did not, in their words."""

    opened: Callable[[Lock], bool]
    refusal: Callable[[Lock], LockError]


def _never_refused(lock: Lock) -> LockError:  # pragma: no cover - TRUSTED opens every lock
    raise AssertionError(lock)


TRUSTED = Asker(lambda lock: True, _never_refused)
"""The machine's owner (the command line, an import, the tests' set-up): every lock is open."""


@dataclass(frozen=True)
class EntryKey:
    """An entry key: a form's (one per drawn page) or an API client's ``Idempotency-Key``, with the
    digest of the request it was first used for."""

    key: str
    digest: str = ""

    @staticmethod
    def form(key: str | None) -> EntryKey | None:
        """A form's key as kept; None for a form sent without one (it is then simply recorded)."""
        return EntryKey(f"form:{key}") if key else None

    @staticmethod
    def api(key: str, digest: str) -> EntryKey:
        return EntryKey(f"api:{key}", digest)


class Guarded(Protocol):
    """What a write changes, as far as its lock goes: the lock it needs (None: anyone may)."""

    def lock(self, store: Store) -> Lock | None: ...


class Command(Guarded, Protocol[T_co]):
    """A write: the lock it needs, and the work, done inside the transaction."""

    def apply(self, store: Store, catalog: Catalog) -> T_co: ...


def run(
    store: Store,
    catalog: Catalog,
    command: Command[T],
    asker: Asker,
    key: EntryKey | None = None,
    answer: Callable[[T], tuple[int, str]] = lambda result: (200, ""),
) -> T | Answered:
    """Do ``command`` for ``asker``, once per entry ``key``: its result, or the first answer
    (``Answered``) when the key was recorded already. ``answer`` says what to remember of the
    result (an answer of 400 or more is not remembered: a refused entry may be sent again)."""
    with store.writing():
        # The lock is read under the write lock: a PIN set on another phone a moment ago counts.
        refuse_unopened(store, command, asker)
        digest = "" if key is None else key.digest or form_digest(command)
        if key is not None:
            first = store.answer_for(key.key)
            if first is not None:
                if first["digest"] != digest and not same_game_before_kinds(first, key, command):
                    raise KeyReused(key.key)
                return Answered(first["status"], first["body"])
        check_version(store, catalog, command)
        result = command.apply(store, catalog)
        if key is not None:
            status, body = answer(result)
            if status < 400:
                store.remember_answer(key.key, getattr(command, "game_id", None), digest, status, body)
    return result


def refuse_unopened(store: Store, command: Guarded, asker: Asker) -> None:
    """Refuse ``asker`` unless they opened every lock ``command`` needs, in their words. The runner asks
    it under the write lock; a page asks it first too (``web.changes``), before it draws or reads a
    form the browser could not save, so a locked phone goes to the PIN page before anything is typed:
    the same check, made once more at the write, where it decides."""
    for target in locks_of(store, command):
        if not asker.opened(target):
            refusal = asker.refusal(target)
            refusal.lock = target  # which one, for a refusal that names it
            raise refusal


def form_digest(command: object) -> str:
    """What a form's key is first used for: the kind of write and what it writes to. The same key sent
    with another game's form, or for another kind of write, is refused, never answered "already
    saved" with nothing recorded (issue 58)."""
    target = getattr(command, "game_id", None) or getattr(command, "night_id", None)
    return f"{type(command).__name__}:{target}"


def same_game_before_kinds(first: EntryKeyRow, key: EntryKey, command: object) -> bool:
    """A form key kept before keys named their kind of write (digest ""): the same game is enough."""
    return first["digest"] == "" and not key.digest and first["game_id"] == getattr(command, "game_id", None)


def locks_of(store: Store, command: Guarded) -> list[Lock]:
    """The locks a command needs opened: its one ``lock``, or, for a command that reaches across
    games (a player renamed or merged), every lock among them (``locks``)."""
    several = getattr(command, "locks", None)
    if several is not None:
        found: list[Lock] = several(store)
        return found
    target = command.lock(store)
    return [] if target is None else [target]


def check_version(store: Store, catalog: Catalog, command: object) -> None:
    """A command made against a version of a game (one with ``game_id`` and ``version``; a version of
    None: as it is stored now) is refused once the game has moved on since: in its own words when it
    has them (``refuse_stale``: a new round for one recorded since is "already recorded", decided here
    and nowhere else), else as made on an old view."""
    version = getattr(command, "version", None)
    if version is None:
        return
    stored = store.revision(getattr(command, "game_id"))  # noqa: B009 - every versioned command names its game
    if stored != version:
        refuse_stale = getattr(command, "refuse_stale", None)
        if refuse_stale is not None:
            refuse_stale(store, catalog)
        raise StaleWrite(version, stored)
