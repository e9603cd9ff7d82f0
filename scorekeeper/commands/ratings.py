"""The opt-in rating's writes: leaving a player out of it (or rating them again), and keeping the
rating worked out again after a write made it stale. Working it out from every finished game takes
up to two seconds at 10,000 games, so no page does it: one worker thread per app does, after each
write, from a snapshot of the games; a change made meanwhile leaves the rating stale (a counter,
never a flag a page could clear), and the worker goes round again until nothing is left."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from ..reads.catalog import Catalog
from ..rules.rating import Rating, rate
from ..store import Store
from ..store import records as stored
from .locks import Lock
from .runner import TRUSTED, run

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SetRated:
    """Leave a player out of the house's rating (``rated`` False), or rate them again; the rating is
    then worked out again without them (or with them)."""

    player_id: int
    rated: bool

    def lock(self, store: Store) -> Lock | None:
        return None  # the players' list is the house's, as a new player is

    def apply(self, store: Store, catalog: Catalog) -> None:
        store.player(self.player_id)  # NotFound for a player who is not there
        stored.set_rated(store, self.player_id, self.rated)


@dataclass(frozen=True)
class KeepRatings:
    """Keep ratings worked out from the games as of the ``worked_out_at``-th change."""

    ratings: dict[int, Rating]
    worked_out_at: int

    def lock(self, store: Store) -> Lock | None:
        return None

    def apply(self, store: Store, catalog: Catalog) -> None:
        stored.keep_ratings(store, self.ratings, self.worked_out_at)


class RatingWorker:
    """One thread that brings the rating up to date whenever it is nudged (after a write, or by a page
    that finds it stale); it starts with the first nudge and has its own connection."""

    def __init__(self, database: str, catalog: Catalog) -> None:
        self._database = database
        self._catalog = catalog
        self._wanted = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._guard = threading.Lock()
        self._thread: threading.Thread | None = None

    def nudge(self) -> None:
        with self._guard:
            self._idle.clear()
            self._wanted.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._serve, name="ratings", daemon=True)
                self._thread.start()

    def wait(self, timeout: float) -> bool:
        """Until the last nudge has been worked through (the tests; a clean stop): False on time out."""
        return self._idle.wait(timeout)

    def _serve(self) -> None:
        store = Store(self._database)
        while True:
            self._wanted.wait()
            self._wanted.clear()
            try:
                bring_up_to_date(store, self._catalog)
            except Exception:  # a failure is logged; the next nudge tries again
                log.exception("the rating could not be worked out")
            finally:
                with self._guard:
                    if not self._wanted.is_set():
                        self._idle.set()


def bring_up_to_date(store: Store, catalog: Catalog) -> None:
    """Work the rating out again until no change is left uncounted (a change made while it was being
    worked out leaves it stale: round again)."""
    while stored.ratings_stale(store):
        worked_out_at, games = stored.rating_snapshot(store)
        run(store, catalog, KeepRatings(rate(games), worked_out_at), TRUSTED)
