"""A game or a night deleted (a test game, a night entered twice) and brought back (issue 57): what
was entered is kept for at least 30 days (``store.deleted``), every row of it goes, and what it
derived is added up again, so the records, the night's money and the rating are as if it had never
been played; brought back, it is imported again through the same replay as an export."""

from __future__ import annotations

from dataclasses import dataclass

from ..reads.catalog import Catalog
from ..store import Store, exchange, record_keeping
from ..store.deleted import with_free_ids
from .derived import import_dump, refresh_night
from .locks import Lock, game_lock, night_lock


def game_label(store: Store, catalog: Catalog, game_id: int) -> str:
    """A deleted game in words, as the list to bring one back shows it."""
    game = store.game(game_id)
    ruleset = catalog.rulesets.get(game["ruleset"])
    players = ", ".join(seat["name"] for seat in store.seats(game_id))
    return f"{ruleset.name if ruleset else game['ruleset']}: {players}, {game['created_at'][:10]}"


@dataclass(frozen=True)
class DeleteGame:
    game_id: int

    def lock(self, store: Store) -> Lock | None:
        return game_lock(store, store.game(self.game_id))

    def apply(self, store: Store, catalog: Catalog) -> int:
        game = store.game(self.game_id)
        dump = exchange.dump(store, game_id=self.game_id)
        label = game_label(store, catalog, self.game_id)
        kept = store.keep_deleted("game", self.game_id, label, dump, {"pin_hash": game["pin_hash"]})
        players = store.delete_game_rows(self.game_id)
        if game["night_id"] is not None:
            refresh_night(store, catalog, game["night_id"])  # the later games' carries, the night's money
        record_keeping.add_up_players(store, players)
        return kept


@dataclass(frozen=True)
class DeleteNight:
    night_id: int

    def lock(self, store: Store) -> Lock | None:
        return None  # the runner asks ``locks``: the night's PIN, and any game's own

    def locks(self, store: Store) -> list[Lock]:
        found = [night_lock(store.night(self.night_id))]
        found += [game_lock(store, store.game(game_id)) for game_id in store.night_game_ids(self.night_id)]
        return list({lock.key: lock for lock in found if lock is not None}.values())

    def apply(self, store: Store, catalog: Catalog) -> int:
        night = store.night(self.night_id)
        dump = exchange.dump(store, night_id=self.night_id)
        game_pins = {game["id"]: store.game(game["id"])["pin_hash"] for game in dump["games"]}
        games = len(game_pins)
        label = f"{night['name'] or 'A night'} of {night['created_at'][:10]}, {games} game{'' if games == 1 else 's'}"
        kept = {"pin_hash": night["pin_hash"], "payments": store.payments_of(self.night_id), "game_pins": game_pins}
        deleted = store.keep_deleted("night", self.night_id, label, dump, kept)
        players: set[int] = set()
        for game_id in game_pins:
            players.update(store.delete_game_rows(game_id))
        store.delete_night_row(self.night_id)
        record_keeping.add_up_players(store, sorted(players))
        return deleted


@dataclass(frozen=True)
class BringBack:
    """A deleted game or night imported again (under new ids where others took its own since)."""

    deleted_id: int

    def lock(self, store: Store) -> Lock | None:
        return None  # at the machine only (the command line)

    def apply(self, store: Store, catalog: Catalog) -> tuple[str, int]:
        row, dump, kept = store.take_deleted(self.deleted_id)
        data = with_free_ids(store, dump)
        game_ids = import_dump(store, catalog, data)
        brought = {night["id"] for night in data["nights"]}
        among = {night for game_id in game_ids if (night := store.night_of(game_id)) is not None}
        for night_id in among - brought:
            refresh_night(store, catalog, night_id)  # a game back among a night's: the carries anew
        object_id = data["nights"][0]["id"] if row["kind"] == "night" else game_ids[0]
        store.put_back_kept(row["kind"], object_id, kept)
        for old, pin_hash in kept.get("game_pins", {}).items():
            moved = dict(zip([game["id"] for game in dump["games"]], game_ids, strict=True))
            store.put_back_kept("game", moved[int(old)], {"pin_hash": pin_hash})
        return row["kind"], object_id
