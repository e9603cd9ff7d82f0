"""The host's way back: a forgotten PIN taken off (at the machine only: access to the server's files is
the authority), a player's name put right, two players who are one made one (at the machine, or in
the app behind every PIN among their games). Each is backed up first by its caller."""

from __future__ import annotations

from dataclasses import dataclass

from ..reads.catalog import Catalog
from ..rules.names import look_alike_key
from ..rules.setup import GameError, check_name, name_key
from ..store import Store, record_keeping
from .locks import Lock, game_lock, night_lock


@dataclass(frozen=True)
class ClearPin:
    """The PIN of a night (and so of its games) or of a game outside a locked night, taken off: the
    scores can be entered again, and the next game started with a PIN locks it anew."""

    kind: str  # "night" or "game"
    row_id: int

    def lock(self, store: Store) -> Lock | None:
        if self.kind == "night":
            return night_lock(store.night(self.row_id))
        return game_lock(store, store.game(self.row_id))

    def apply(self, store: Store, catalog: Catalog) -> bool:
        return store.clear_pin(self.kind, self.row_id)


class PlayerChangeRefused(GameError):
    """A rename or merge that would make two players one by accident, or one person two."""


def players_locks(store: Store, player_ids: list[int]) -> list[Lock]:
    """Every PIN among the games these players have a seat in, each once."""
    found: dict[str, Lock] = {}
    for game_id in store.games_of_players(player_ids):
        lock = game_lock(store, store.game(game_id))
        if lock is not None:
            found.setdefault(lock.key, lock)
    return list(found.values())


@dataclass(frozen=True)
class RenamePlayer:
    """A player's name put right on the leaderboard, their page and their records ("Bbo" to "Bob"
    where no Bob has played; where one has, the two are merged instead)."""

    player_id: int
    name: str

    def lock(self, store: Store) -> Lock | None:
        return None  # the runner asks ``locks``: every PIN among the player's games

    def locks(self, store: Store) -> list[Lock]:
        return players_locks(store, [self.player_id])

    def apply(self, store: Store, catalog: Catalog) -> str:
        name = check_name(self.name)
        was = store.player(self.player_id)["name"]
        for other in store.known_players():
            if name_key(other) == name_key(was):
                continue
            if name_key(other) == name_key(name):
                raise PlayerChangeRefused(f"{other!r} has played here already: merge {was!r} into {other!r} instead")
            if look_alike_key(other) == look_alike_key(name):
                raise PlayerChangeRefused(f"{name!r} looks like {other!r}, who has played here: choose another name")
        store.rename_player(self.player_id, name)
        return name


@dataclass(frozen=True)
class MergePlayers:
    """Two players who are one person: every game, record, head to head and rating of ``gone`` goes
    to ``into``, as if it had been entered under that name (the scorepads keep the names as typed)."""

    gone: int
    into: int

    def lock(self, store: Store) -> Lock | None:
        return None  # the runner asks ``locks``: every PIN among both players' games

    def locks(self, store: Store) -> list[Lock]:
        return players_locks(store, [self.gone, self.into])

    def apply(self, store: Store, catalog: Catalog) -> int:
        gone, into = store.player(self.gone)["name"], store.player(self.into)["name"]
        if self.gone == self.into:
            raise PlayerChangeRefused(f"{gone!r} is one player already")
        together = store.games_together(self.gone, self.into)
        if together:
            raise PlayerChangeRefused(
                f"{gone!r} and {into!r} both have a seat in game {together[0]}: one person cannot sit twice, "
                "so they are two players (rename one instead)"
            )
        affected = store.move_player(self.gone, self.into)
        record_keeping.add_up_players(store, affected)
        return len(affected)
