"""The money of a night: every penny movement of its games, each player's net, who pays whom."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .catalog import Catalog
from .rules.game import Game, name_key
from .rules.ledger import Payment, format_money, settle, settle_with_keeper, signed
from .rules.scoring import plural
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


MONEY_MODES = {"table": "with pennies on the table", "paper": "on paper"}


@dataclass
class NightReport:
    """A night's money in one unit: pennies, or cents where its games set different penny values."""

    night: NightRow
    games: list[Game]
    players: list[str]  # in the order they first sat down
    nets: dict[str, int]  # in ``unit``
    in_bowls: int  # still in a bowl (a tie's leftover, an unfinished game's), in ``unit``
    ledger: dict[str, list[Movement]] = field(default_factory=dict)
    unit: str = "penny"  # "penny", or "cent" when the games' penny values differ
    marked_paid: list[tuple[str, str, int]] = field(default_factory=list)  # (from, to, amount) marked paid
    game_notes: dict[int, str] = field(default_factory=dict)  # game id → its note, for the games that have one

    @property
    def money(self) -> str:
        """ "table": the bowls were paid out at the table; "paper": the night is settled at the end."""
        return self.night["money"]

    @property
    def penny_cents(self) -> int:
        """What one unit is worth in cents (1 when the night counts in cents)."""
        if self.unit == "cent" or not self.games:
            return 1
        return self.games[-1].setup.penny_cents

    def amount(self, value: int) -> str:
        """An amount in table words: "31 pennies ($0.31)", or "$1.55" for a night counted in cents."""
        if self.unit == "cent":
            return format_money(value, 1)
        return f"{plural(value, 'penny', 'pennies')} ({format_money(value, self.penny_cents)})"

    def net(self, value: int) -> str:
        """A net or a ledger line: "+9" / "−9" pennies, or "−$0.09" for a night counted in cents."""
        return format_money(value, 1) if self.unit == "cent" else signed(value)

    def payments(self, keeper: str | None = None) -> list[tuple[Payment, bool]]:
        """The settlement with each payment's "marked paid" (only on paper: at the table, nothing is owed)."""
        if self.money == "table":
            return []
        marked = set(self.marked_paid)
        return [(p, (p.from_player, p.to_player, p.pennies) in marked) for p in self.settlement(keeper)]

    def changed_since_marked(self) -> list[tuple[str, str, int]]:
        """Payments marked paid that the settlement no longer holds (a correction changed the nets)."""
        current = {(p.from_player, p.to_player, p.pennies) for p in self.settlement()}
        return [entry for entry in self.marked_paid if entry not in current]

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
            "notes": self.night["notes"],
            "money": self.money,
            "unit": self.unit,
            "games": [
                {
                    "id": game.id,
                    "ruleset": game.ruleset.id,
                    "finished": game.finished,
                    "winners": list(game.payout().winners),
                    "carry_in": game.setup.carry_in,
                    "left_in_bowl": game.carry_out,
                    "notes": self.game_notes.get(game.id, ""),
                }
                for game in self.games
            ],
            "nets": self.nets,
            "settlement": [{**payment.to_json(), "paid": paid} for payment, paid in self.payments()],
            "left_in_bowls": self.in_bowls,
        }


def night_report(store: Store, catalog: Catalog, night_id: int) -> NightReport:
    """The night's games in order (each with the carry the store keeps for it), and their money."""
    night = store.night(night_id)
    loaded = [load_game(store, catalog, game_id) for game_id in store.night_game_ids(night_id)]
    games = [each.game for each in loaded]
    names: dict[str, str] = {}  # casefolded → as first written: one player across the night's games
    for game in games:
        for name in game.players:
            names.setdefault(name_key(name), name)
    players = list(names.values())
    unit = night_unit(games)
    ledger: dict[str, list[Movement]] = {name: [] for name in players}
    for game in games:
        for name in game.players:
            ledger[names[name_key(name)]].extend(movements(game, name, unit))
    nets = {name: sum(m.pennies for m in ledger[name]) for name in players}
    marked = store.payments_marked(night_id)
    notes = {each.game.id: each.row["notes"] for each in loaded if each.row["notes"]}
    return NightReport(night, games, players, nets, bowl_left(games, unit), ledger, unit, marked, notes)


def night_unit(games: list[Game]) -> str:
    """Pennies, unless the night's penny games set different penny values: then cents (RULES.md)."""
    values = {game.setup.penny_cents for game in games if game.ruleset.is_penny_game}
    return "cent" if len(values) > 1 else "penny"


def in_unit(game: Game, pennies: int, unit: str) -> int:
    return pennies * game.setup.penny_cents if unit == "cent" else pennies


def movements(game: Game, player: str, unit: str = "penny") -> list[Movement]:
    """Where a player's pennies went in one game (in the night's unit)."""
    lines = []
    buy_pennies, card_pennies = game.buy_pennies(player), game.card_pennies(player)
    if buy_pennies:
        lines.append(
            Movement(
                game.id, f"{plural(game.buys_used(player), 'buy')} into the bowl", -in_unit(game, buy_pennies, unit)
            )
        )
    if card_pennies:
        lines.append(Movement(game.id, "a penny a card caught", -in_unit(game, card_pennies, unit)))
    payout = game.payout()
    taken = payout.payouts.get(player, 0)
    if game.finished and taken:
        carried = f", with {game.setup.carry_in} carried in" if game.setup.carry_in else ""
        shared = f" (shared by {len(payout.winners)})" if len(payout.winners) > 1 else ""
        lines.append(Movement(game.id, f"took the bowl{shared}{carried}", in_unit(game, taken, unit)))
    return lines


def bowl_left(games: list[Game], unit: str = "penny") -> int:
    """Still in a bowl: every bowl less what its winners took, less what came into it from an earlier
    bowl (counted there already): an unfinished game's whole bowl, a last tie's leftover."""
    return sum(
        in_unit(game, game.bowl - sum(game.payout().payouts.values()) - game.setup.carry_in, unit) for game in games
    )
