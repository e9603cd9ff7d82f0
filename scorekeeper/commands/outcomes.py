"""What a write came to, as one typed value (issue 59): ``attempt`` runs a command through the runner
and returns an outcome instead of raising, so a form page and the API each render every outcome in
one place (a ``match``) and decide nothing of their own: not whether the round was recorded since,
not whether the game moved on, not whether a lock was opened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..reads.catalog import Catalog
from ..rules.setup import GameError
from ..store import StaleWrite, Store
from .games import AlreadyRecorded
from .locks import LockError
from .runner import Answered, Asker, Command, EntryKey, NeedsConfirming, run

T = TypeVar("T")


@dataclass(frozen=True)
class Saved(Generic[T]):
    """Done: the command's result."""

    result: T


@dataclass(frozen=True)
class AlreadySaved:
    """The entry key was used already (a second tap, Back then Save, a resend): nothing done again."""

    answer: Answered


@dataclass(frozen=True)
class RecordedSince:
    """A new round for one recorded since the form was drawn (another phone): nothing saved."""

    refusal: AlreadyRecorded

    @property
    def number(self) -> int:
        return self.refusal.number


@dataclass(frozen=True)
class MovedOn:
    """The game changed since the asker saw it (a buy, an undo, a correction elsewhere): nothing saved;
    the same entry sent again goes through."""

    refusal: StaleWrite


@dataclass(frozen=True)
class Refused:
    """The rules refuse it: the words, and the player (the field) they are about."""

    error: GameError

    @property
    def field(self) -> str | None:
        return self.error.player


@dataclass(frozen=True)
class Locked:
    """The asker has not opened the lock the write needs (a PIN set on another phone meanwhile)."""

    refusal: LockError


@dataclass(frozen=True)
class ToConfirm:
    """A question to answer before the write is made."""

    question: str


Outcome = Saved[T] | AlreadySaved | RecordedSince | MovedOn | Refused | Locked | ToConfirm


def attempt(
    store: Store,
    catalog: Catalog,
    make: Callable[[], Command[T]],
    asker: Asker,
    key: EntryKey | None = None,
    answer: Callable[[T], tuple[int, str]] = lambda result: (200, ""),
) -> Outcome[T]:
    """The command ``make`` builds (a form's fields read into it may be refused too), run by ``run``
    for ``asker``: what it came to. Anything else (a key reused for another request, a database that
    cannot be written) is not an outcome of the write and still raises."""
    try:
        done = run(store, catalog, make(), asker, key, answer)
    except AlreadyRecorded as refusal:  # before GameError: it is one
        return RecordedSince(refusal)
    except GameError as error:
        return Refused(error)
    except StaleWrite as refusal:
        return MovedOn(refusal)
    except LockError as refusal:
        return Locked(refusal)
    except NeedsConfirming as question:
        return ToConfirm(str(question))
    return AlreadySaved(done) if isinstance(done, Answered) else Saved(done)
