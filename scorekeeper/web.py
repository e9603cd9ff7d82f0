"""What every blueprint reaches for in a request: the app's rulesets, and a write asked for by the
page's browser (through the one runner: the blueprints decide no lock and open no transaction)."""

from __future__ import annotations

from typing import TypeVar

from flask import current_app

from .access import page_asker
from .catalog import Catalog
from .commands import Answered, EntryKey, run
from .commands.ratings import RatingWorker
from .commands.runner import Command
from .store import get_store

T = TypeVar("T")


def current_catalog() -> Catalog:
    """The app's rulesets, with the house rulesets as the store holds them now."""
    catalog: Catalog = current_app.extensions["rulesets"]
    if catalog.house_mark is not None:  # the store was opened at start-up
        catalog.refresh_house(get_store())
    return catalog


def page_write(command: Command[T]) -> T:
    """Run ``command`` for this browser (a write that is the same however often it is sent)."""
    done = run(get_store(), current_catalog(), command, page_asker())
    assert not isinstance(done, Answered)  # only an entry key is ever answered from before
    written()
    return done


def page_entry(command: Command[T], entry_key: str | None) -> T | None:
    """Run ``command`` for this browser, once per form entry key: its result, or None when the key
    was recorded already (a second tap, Back then Save, a resend): nothing was done again."""
    done = run(get_store(), current_catalog(), command, page_asker(), EntryKey.form(entry_key))
    written()
    return None if isinstance(done, Answered) else done


def rating_worker() -> RatingWorker | None:
    """The worker that keeps the rating worked out: None while the house has the rating off."""
    worker: RatingWorker | None = current_app.extensions.get("ratings")
    return worker


def written() -> None:
    """After a write: what it made stale is worked out again off the request (the rating)."""
    worker = rating_worker()
    if worker is not None:
        worker.nudge()
