"""The writes of a night and of the notes: a new night, how it pays, payments made on paper and taken
back, closing it, a note on a game or a night, and locking again. Each is a command for the runner."""

from __future__ import annotations

import json
from dataclasses import dataclass

from ..reads.catalog import Catalog
from ..reads.night_report import BOWL, BOWL_LABEL, NightReport, night_report
from ..reads.notes import clean_note
from ..rules.ledger import MoneyMode
from ..rules.setup import GameError, name_key
from ..store import Store
from .locks import Lock, game_lock, night_lock

MAX_PAYMENT_CENTS = 10**9
MAX_NIGHT_NAME = 80  # characters: the form and the API refuse a longer name alike


class NightClosed(GameError):
    """A change a closed night no longer takes (its money mode)."""

    def __init__(self, night_id: int, what: str) -> None:
        super().__init__(f"night {night_id} is closed: {what}")


@dataclass(frozen=True)
class CreateNight:
    """A new night: its name (optional, at most MAX_NIGHT_NAME characters, never cut) and how it pays."""

    name: str
    money: MoneyMode = MoneyMode.TABLE

    def lock(self, store: Store) -> Lock | None:
        return None

    def apply(self, store: Store, catalog: Catalog) -> int:
        name = self.name.strip()
        if len(name) > MAX_NIGHT_NAME:
            raise GameError(f"a night's name is at most {MAX_NIGHT_NAME} characters, not {len(name)}")
        return store.create_night(name, self.money)


@dataclass(frozen=True)
class NightChange:
    """A change to a night: a locked night needs its PIN."""

    night_id: int

    def lock(self, store: Store) -> Lock | None:
        return night_lock(store.night(self.night_id))


@dataclass(frozen=True)
class SetMoneyMode(NightChange):
    """Pennies on the table or on paper: changeable while the night is open (a close on another phone
    in between wins). Payments made are kept either way."""

    money: MoneyMode

    def apply(self, store: Store, catalog: Catalog) -> None:
        if store.night(self.night_id)["closed_at"]:
            raise NightClosed(self.night_id, "its money mode stays as it was")
        store.set_money_mode(self.night_id, self.money)


@dataclass(frozen=True)
class Party:
    """Who pays or is paid, as asked: a player by name, or the bowl (a party of its own kind)."""

    name: str | None = None
    bowl: bool = False

    def key(self, report: NightReport) -> str:
        """The party's key in the night's money (the bowl's is no name), or GameError naming it."""
        if self.bowl:
            return BOWL
        wanted = name_key(self.name or "")
        for name in report.players:
            if name_key(name) == wanted:
                return name
        if wanted == name_key(BOWL_LABEL):  # "the bowl" by name, where no player is called that
            return BOWL
        raise GameError(f"{self.name!r} is not a player of night {report.night['id']} (nor the bowl)")


@dataclass(frozen=True)
class Pay(NightChange):
    """A payment made on paper (money handed over): who, to whom, how many cents, and the nets it was
    made against (what a later correction moved is then said)."""

    payer: Party
    payee: Party
    cents: int

    def apply(self, store: Store, catalog: Catalog) -> int:
        night_id = self.night_id
        report = night_report(store, catalog, night_id)
        if not report.money.on_paper:
            raise GameError(f"night {night_id} is played with pennies on the table: nothing is paid on paper")
        payer, payee = self.payer.key(report), self.payee.key(report)
        if payer == payee:
            raise GameError("a payment goes from one party to another, not to itself")
        if not 1 <= self.cents <= MAX_PAYMENT_CENTS:
            raise GameError(f"a payment is 1 to {MAX_PAYMENT_CENTS} cents, not {self.cents}")
        nets = json.dumps(report.balance(), sort_keys=True)
        return store.record_payment(night_id, payer, payee, self.cents, nets)


@dataclass(frozen=True)
class TakeBackPayment(NightChange):
    """ "Not paid after all" (``undone``), or paid after all: the only way a payment made is changed."""

    payment_id: int
    undone: bool

    def apply(self, store: Store, catalog: Catalog) -> None:
        if not store.set_payment_undone(self.night_id, self.payment_id, self.undone):
            raise GameError(f"night {self.night_id} has no payment {self.payment_id}")


@dataclass(frozen=True)
class CloseNight(NightChange):
    """Closed: no new game joins it and its money mode stays; closing it again changes nothing."""

    def apply(self, store: Store, catalog: Catalog) -> None:
        store.close_night(self.night_id)


@dataclass(frozen=True)
class KeepNote:
    """The note of a game or a night, cleaned (NoteError says what cannot be kept): False, and nothing
    written, when it was edited elsewhere since the editor read it (after ``seen_edits`` edits; None:
    as it is now). A note may change on a closed night too: a note is no money."""

    kind: str  # "game" or "night"
    row_id: int
    text: str
    seen_edits: int | None = None

    def lock(self, store: Store) -> Lock | None:
        if self.kind == "game":
            return game_lock(store, store.game(self.row_id))
        return night_lock(store.night(self.row_id))

    def apply(self, store: Store, catalog: Catalog) -> bool:
        notes = clean_note(self.text)
        seen_edits = self.seen_edits
        if seen_edits is None:
            seen_edits = (store.game(self.row_id) if self.kind == "game" else store.night(self.row_id))["notes_edits"]
        return store.replace_notes(self.kind, self.row_id, notes, seen_edits)


@dataclass(frozen=True)
class LockAgain:
    """Locked again everywhere: every unlock given before (cookies, tokens) stops working. Only who
    opened the lock may close it again."""

    target: Lock

    def lock(self, store: Store) -> Lock | None:
        return self.target

    def apply(self, store: Store, catalog: Catalog) -> None:
        store.relock(self.target.kind, self.target.id)
