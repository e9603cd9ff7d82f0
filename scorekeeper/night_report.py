"""The money of a night: every penny movement of its games, each player's net, who pays whom."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog
from .rules.game import Game
from .rules.ledger import Payment, settle, settle_with_keeper
from .service import game_from_row
from .store import Store

BOWL = "the bowl"


@dataclass
class Movement:
    """One line of a player's ledger: pennies in (+) or out (−) of their pocket."""

    game_id: int
    what: str
    pennies: int


@dataclass
class NightReport:
    night: dict[str, Any]
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
                    "left_in_bowl": game.payout().left_in_bowl if game.finished else 0,
                }
                for game in self.games
            ],
            "nets": self.nets,
            "settlement": [payment.to_json() for payment in self.settlement()],
            "left_in_bowls": self.in_bowls,
        }


def night_report(store: Store, catalog: Catalog, night_id: int) -> NightReport:
    """Replay the night's games in order, the leftover of each carried into the next."""
    night = store.night(night_id)
    games: list[Game] = []
    carry = 0
    for gid in store.night_game_ids(night_id):
        game = game_from_row(store, catalog, store.game(gid), carry)
        games.append(game)
        carry = game.payout().left_in_bowl if game.finished else 0
    names: dict[str, str] = {}  # casefolded → as first written: one player across the night's games
    for game in games:
        for name in game.players:
            names.setdefault(name.casefold(), name)
    players = list(names.values())
    ledger: dict[str, list[Movement]] = {name: [] for name in players}
    for game in games:
        for name in game.players:
            ledger[names[name.casefold()]].extend(movements(game, name))
    nets = {name: sum(m.pennies for m in ledger[name]) for name in players}
    return NightReport(night, games, players, nets, bowl_left(games), ledger)


def movements(game: Game, player: str) -> list[Movement]:
    """Where a player's pennies went in one game."""
    lines = []
    buy_pennies = game.buys_used(player) * (game.ruleset.buys.pennies if game.ruleset.buys else 0)
    if buy_pennies:
        lines.append(Movement(game.id, f"{game.buys_used(player)} buys into the bowl", -buy_pennies))
    card_pennies = game.pennies_paid(player) - buy_pennies
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
    """Pennies still in a bowl: each game's bowl, less what its winners took and what it
    carried into the next game (so an unfinished game's whole bowl, a last tie's leftover)."""
    total = 0
    for index, game in enumerate(games):
        carried_on = games[index + 1].setup.carry_in if index + 1 < len(games) else 0
        paid_out = sum(game.payout().payouts.values()) if game.finished else 0
        total += game.bowl - paid_out - carried_on
    return total
