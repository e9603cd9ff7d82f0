"""A player's own hand from their phone, kept as a draft: a write, but no entry. It needs no lock (a
locked game takes drafts from players without its PIN), moves no version, points or money."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..reads.catalog import Catalog
from ..reads.drafts import DraftRefused, check_draft_round, draft_result
from ..reads.loading import load_game
from ..rules.setup import name_key
from ..store import Store
from .locks import Lock


@dataclass(frozen=True, kw_only=True)
class KeepDraft:
    """A hand a player entered on their own phone for the round it was typed in: checked as it is typed
    (its size against the player's buys, the decks' supply) and kept, replacing their last draft. The
    scorekeeper's Save records the round as always. A round saved meanwhile takes the hand only as a
    ``correction`` request, which the scorekeeper's correction form offers: a late tap is never filed
    in another round. ``phone_is``: the player this phone said it is (a draft for anyone else is
    refused). Checked and kept under the write lock: a Save on the scorekeeper's phone in between
    would otherwise leave a draft behind for a round already saved."""

    game_id: int
    number: int
    player: str
    cards: str | None = None
    points: int | None = None
    phone_is: str | None = None
    correction: bool = False

    def lock(self, store: Store) -> Lock | None:
        return None

    def apply(self, store: Store, catalog: Catalog) -> dict[str, Any]:
        game = load_game(store, catalog, self.game_id).game
        check_draft_round(game, self.number, self.correction)
        name = game.player_named(self.player)
        if self.phone_is is not None and name_key(self.phone_is) != name_key(name):
            raise DraftRefused(
                f"this phone entered hands as {self.phone_is}: {name}'s hand is entered on {name}'s phone "
                "(or by the scorekeeper)"
            )
        points, pennies = draft_result(game, self.number, name, self.cards, self.points)
        store.keep_draft(self.game_id, self.number, name, self.cards, self.points)
        saved = self.number <= len(game.rounds)
        return {
            "player": name,
            "round": self.number,
            "cards": self.cards,
            "points": points,
            "pennies": pennies,
            "correction": saved,
        }
