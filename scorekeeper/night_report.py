"""The money of a night: every penny movement of its games, each player's net, who pays whom."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog
from .rules.game import Game, name_key
from .rules.ledger import Payment, settle, settle_with_keeper
from .store import Store
from .store.rows import NightRow
from .table import load_game

BOWL = "the bowl"


@dataclass
class Movement:
    """One line of a player's ledger: pennies in (+) or out (−) of their pocket."""

    game_id: int
    what: str
    pennies: int


@dataclass
class NightReport:
    night: NightRow
    games: list[Game]
    players: list[str]  # in the order they first sat down
    nets: dict[str, int]
    in_bowls: int  # pennies still in a bowl: a tie's leftover, or an unfinished game's
    ledger: dict[str, list[Movement]] = field(default_factory=dict)

    @property
    def penny_cents(self) -> int:
        return self.games[-1].setup.penny_cents if self.games else 1

    def balanced(self) -> bool:
        """Every penny accounted for: what players are up or down is what sits in the bowls."""
        return sum(self.nets.values()) + self.in_bowls == 0

    def settlement(self, keeper: str | None = None) -> list[Payment]:
        nets = dict(self.nets)
        order = list(self.players)
        if self.in_bowls:
            nets[BOWL] = self.in_bowls  # the leftover stays in the bowl, for the next game
            order.append(BOWL)
        if keeper:
            return settle_with_keeper(nets, keeper, order)
        return settle(nets, order)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.night["id"],
            "name": self.night["name"],
            "closed": bool(self.night["closed_at"]),
            "games": [
                {
                    "id": game.id,
                    "ruleset": game.ruleset.id,
                    "finished": game.finished,
                    "winners": list(game.payout().winners),
                    "carry_in": game.setup.carry_in,
                    "left_in_bowl": game.carry_out,
                }
                for game in self.games
            ],
            "nets": self.nets,
            "settlement": [payment.to_json() for payment in self.settlement()],
            "left_in_bowls": self.in_bowls,
        }


def night_report(store: Store, catalog: Catalog, night_id: int) -> NightReport:
    """The night's games in order (each with the carry the store keeps for it), and their money."""
    night = store.night(night_id)
    games = [load_game(store, catalog, game_id).game for game_id in store.night_game_ids(night_id)]
    names: dict[str, str] = {}  # casefolded → as first written: one player across the night's games
    for game in games:
        for name in game.players:
            names.setdefault(name_key(name), name)
    players = list(names.values())
    ledger: dict[str, list[Movement]] = {name: [] for name in players}
    for game in games:
        for name in game.players:
            ledger[names[name_key(name)]].extend(movements(game, name))
    nets = {name: sum(m.pennies for m in ledger[name]) for name in players}
    return NightReport(night, games, players, nets, bowl_left(games), ledger)


def movements(game: Game, player: str) -> list[Movement]:
    """Where a player's pennies went in one game."""
    lines = []
    buy_pennies, card_pennies = game.buy_pennies(player), game.card_pennies(player)
    if buy_pennies:
        lines.append(Movement(game.id, f"{game.buys_used(player)} buys into the bowl", -buy_pennies))
    if card_pennies:
        lines.append(Movement(game.id, "a penny a card caught", -card_pennies))
    payout = game.payout()
    taken = payout.payouts.get(player, 0)
    if game.finished and taken:
        carried = f", with {game.setup.carry_in} carried in" if game.setup.carry_in else ""
        shared = f" (shared by {len(payout.winners)})" if len(payout.winners) > 1 else ""
        lines.append(Movement(game.id, f"took the bowl{shared}{carried}", taken))
    return lines


def bowl_left(games: list[Game]) -> int:
    """Pennies still in a bowl: every bowl less what its winners took, less what came into it from
    an earlier bowl (counted there already): an unfinished game's whole bowl, a last tie's leftover."""
    return sum(game.bowl - sum(game.payout().payouts.values()) - game.setup.carry_in for game in games)
