"""The money of a night, in cents (docs/rules.md: a night's money is counted in cents, each game's pennies
at that game's value): every movement of its finished games, each player's net, the bowls still in
play, where each leftover went, and on paper the payments made and what is still owed."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from ..rules.game import Game
from ..rules.ledger import MoneyMode, Payment, after_payments, format_cents, settle, settle_with_keeper, signed_cents
from ..rules.night import Leftover, leftovers
from ..rules.setup import name_key
from ..rules.share import ResultsCard
from ..rules.wording import listed, plural
from ..store import Store
from ..store.rows import NightRow, PaymentRow
from .catalog import Catalog
from .kept import KeptLast
from .loading import load_game

# The bowl is a party to a night's money of its own kind, never a name: its key in the nets, the
# payments and the store is the empty name, which no player can have (a player may be called "the
# bowl"); it is said as BOWL_LABEL.
BOWL = ""
BOWL_LABEL = "the bowl"


def party_label(party: str) -> str:
    """A party as the pages say it: a player's name, or "the bowl"."""
    return party or BOWL_LABEL


def payment_json(payer: str, payee: str, cents: int) -> dict[str, Any]:
    """A payment in the API: each party as it is said, and whether it is the bowl."""
    return {
        "from": party_label(payer),
        "from_bowl": payer == BOWL,
        "to": party_label(payee),
        "to_bowl": payee == BOWL,
        "cents": cents,
    }


@dataclass
class Movement:
    """One line of a player's ledger: money into (+) or out of (−) their pocket, in cents."""

    game_id: int
    what: str
    cents: int


@dataclass
class NightReport:
    night: NightRow
    games: list[Game]
    players: list[str]  # in the order they first sat down
    nets: dict[str, int]  # cents, over the finished games
    in_bowls: int  # cents left in the bowls of finished games (a tie's leftover)
    ledger: dict[str, list[Movement]] = field(default_factory=dict)
    payment_rows: list[PaymentRow] = field(default_factory=list)  # every payment marked, undone ones too
    game_notes: dict[int, str] = field(default_factory=dict)  # game id → its note, for the games that have one
    moved_games: dict[int, dict[str, int]] = field(default_factory=dict)  # finished games whose money moved since
    unit = "cent"

    @property
    def money(self) -> MoneyMode:
        """TABLE: the bowls were paid out at the table; PAPER: the night is settled at the end."""
        return MoneyMode(self.night["money"])

    @property
    def in_play(self) -> list[Game]:
        """Games not finished: their bowls are in play, settled when they end."""
        return [game for game in self.games if not game.finished]

    @cached_property
    def leftovers(self) -> list[Leftover]:
        return leftovers(self.games, night_open=self.night["closed_at"] is None)

    @cached_property
    def leftovers_by_game(self) -> dict[int, list[Leftover]]:
        found: dict[int, list[Leftover]] = {}
        for leftover in self.leftovers:
            found.setdefault(leftover.game_id, []).append(leftover)
        return found

    @property
    def made(self) -> list[Payment]:
        """The payments handed over (those not taken back), in cents."""
        return [Payment(row["payer"], row["payee"], row["cents"]) for row in self.payment_rows if not row["undone_at"]]

    def balance(self) -> dict[str, int]:
        """The nets, with what sits in the bowls of finished games owed to the bowl (a party of its own)."""
        nets = dict(self.nets)
        if self.in_bowls:
            nets[BOWL] = self.in_bowls
        return nets

    def order(self) -> list[str]:
        return [*self.players, BOWL]

    def still_owed(self, keeper: str | None = None) -> list[Payment]:
        """What is still to be paid on paper: the nets less the payments made, in the fewest payments
        (or each through ``keeper``). Nothing at the table: the bowls were paid out there."""
        if not self.money.on_paper:
            return []
        balance = after_payments(self.balance(), self.made)
        if keeper:
            return settle_with_keeper(balance, keeper, self.order())
        return settle(balance, self.order())

    def paid_and_received(self, name: str) -> tuple[int, int]:
        made = self.made
        return (
            sum(p.cents for p in made if p.from_player == name),
            sum(p.cents for p in made if p.to_player == name),
        )

    def moved_since_last_payment(self) -> dict[str, int]:
        """How the nets moved since the last payment was marked (a correction, a game finished): what
        the page says in one line, so nobody wonders why a new payment is asked for."""
        marked = [nets for row in self.payment_rows if not row["undone_at"] and (nets := row["nets"])]
        if not marked:
            return {}
        before: dict[str, int] = json.loads(marked[-1])
        now = self.balance()
        moved = {name: now.get(name, 0) - before.get(name, 0) for name in [*self.order(), *before]}
        return {name: change for name, change in moved.items() if change}

    def balanced(self) -> bool:
        """Every cent accounted for: what players are up or down is what sits in the bowls."""
        return sum(self.nets.values()) + self.in_bowls == 0

    @staticmethod
    def net(cents: int) -> str:
        return signed_cents(cents)

    def to_json(self) -> dict[str, Any]:
        still = self.still_owed()
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
                    "penny_cents": game.setup.penny_cents,
                    "winners": list(game.payout().winners),
                    "carry_in": game.setup.carry_in,
                    "left_in_bowl": game.carry_out,
                    "in_play_cents": 0 if game.finished else game.bowl * game.setup.penny_cents,
                    "moved_since_end_cents": self.moved_games.get(game.id, {}),
                    "notes": self.game_notes.get(game.id, ""),
                }
                for game in self.games
            ],
            "nets": self.nets,
            "payments_made": [
                {
                    "id": row["id"],
                    **payment_json(row["payer"], row["payee"], row["cents"]),
                    "made_at": row["made_at"],
                    "undone_at": row["undone_at"],
                }
                for row in self.payment_rows
            ],
            "still_owed": [payment_json(p.from_player, p.to_player, p.cents) for p in still],
            "settlement": [payment_json(p.from_player, p.to_player, p.cents) for p in still],  # what is still owed
            "left_in_bowls": self.in_bowls,
            "leftovers": [
                {
                    "game": lo.game_id,
                    "pennies": lo.pennies,
                    "cents": lo.pennies * lo.penny_cents,
                    "into": lo.into,
                    "why": lo.why,
                }
                for lo in self.leftovers
            ],
        }


# A night's report is a pure function of its rows: kept under them, so a night of twenty games is
# worked out once per change, not at every look (issue 46).
REPORTS: KeptLast[NightReport] = KeptLast(16)


def night_report(store: Store, catalog: Catalog, night_id: int) -> NightReport:
    """The night's games in order (each with the carry the store keeps for it), and their money."""
    with store.reading():
        night = store.night(night_id)
        games = store.night_games_state(night_id)
        payments = store.payments(night_id)
    key = (tuple(night.values()), tuple(games), tuple(tuple(row.values()) for row in payments))
    return REPORTS.get(key, lambda: worked_out(store, catalog, night, payments, [row[0] for row in games]))


def worked_out(
    store: Store, catalog: Catalog, night: NightRow, payments: list[PaymentRow], game_ids: list[int]
) -> NightReport:
    loaded = [load_game(store, catalog, game_id) for game_id in game_ids]
    games = [each.game for each in loaded]
    names: dict[str, str] = {}  # casefolded → as first written: one player across the night's games
    for game in games:
        for name in game.players:
            names.setdefault(name_key(name), name)
    players = list(names.values())
    ledger: dict[str, list[Movement]] = {name: [] for name in players}
    nets = dict.fromkeys(players, 0)
    for game in games:
        if game.finished:  # a game still in play is not settled (docs/rules.md)
            for name in game.players:
                ledger[names[name_key(name)]].extend(movements(game, name))  # the lines that explain it
                nets[names[name_key(name)]] += game.money_cents(name)
    notes = {each.game.id: each.row["notes"] for each in loaded if each.row["notes"]}
    moved = {each.game.id: moved for each in loaded if (moved := each.money_moved())}
    return NightReport(night, games, players, nets, bowl_left(games), ledger, payments, notes, moved)


def pennies_at(count: int, game: Game) -> str:
    """A count of pennies in words, with what one is worth where that is not 1¢: "4 pennies at 5¢"."""
    value = game.setup.penny_cents
    return plural(count, "penny", "pennies") + (f" at {value}¢" if value != 1 else "")


def movements(game: Game, player: str) -> list[Movement]:
    """Where a player's money went in one finished game, in cents (a game in play is not settled)."""
    lines = []
    value = game.setup.penny_cents
    buy_pennies, card_pennies = game.buy_pennies(player), game.card_pennies(player)
    if buy_pennies:
        what = f"{plural(game.buys_used(player), 'buy')} into the bowl ({pennies_at(buy_pennies, game)})"
        lines.append(Movement(game.id, what, -buy_pennies * value))
    if card_pennies:
        what = f"a penny a card caught ({pennies_at(card_pennies, game)})"
        lines.append(Movement(game.id, what, -card_pennies * value))
    payout = game.payout()
    taken = payout.payouts.get(player, 0)
    if taken:
        carried = f", with {game.setup.carry_in} carried in" if game.setup.carry_in else ""
        shared = f", shared by {len(payout.winners)}" if len(payout.winners) > 1 else ""
        lines.append(Movement(game.id, f"took the bowl ({pennies_at(taken, game)}{shared}{carried})", taken * value))
    return lines


def bowl_left(games: list[Game]) -> int:
    """Cents still in the bowls of finished games: every bowl less what its winners took, less what
    came into it from an earlier bowl (counted there already)."""
    return sum(
        (game.bowl - sum(game.payout().payouts.values()) - game.setup.carry_in) * game.setup.penny_cents
        for game in games
        if game.finished
    )


CARD_GAMES = 12  # games named on a night's results card (issue 58: 150 games drew a 7,744 px picture)
CARD_PLAYERS = 16  # players ranked on it; the rest are counted in one line


def night_card(report: NightReport) -> ResultsCard:
    """The night's results card (issue 44): each player's money for the evening, best first, who won
    each game, and on paper what is still to be paid."""
    night = report.night
    title = f"Night {night['id']}" + (f" · {night['name']}" if night["name"] else "")
    finished = [game for game in report.games if game.finished]
    ranked = sorted(report.players, key=lambda name: (-report.nets.get(name, 0), report.players.index(name)))
    top = report.nets.get(ranked[0], 0) if ranked else 0
    best = [name for name in ranked if report.nets.get(name, 0) == top]
    if best and top > 0:
        each = f"{signed_cents(top)} each" if len(best) > 1 else signed_cents(top)
        headline = f"{listed(best)} {'are' if len(best) > 1 else 'is'} up the most: {each}"
    else:
        headline = f"{plural(len(finished), 'game')} played"
    rows = tuple(
        (f"{tied_place(report.nets, name)}.", name, signed_cents(report.nets.get(name, 0)))
        for name in ranked[:CARD_PLAYERS]
    )
    if len(ranked) > CARD_PLAYERS:
        rows += (("", f"and {len(ranked) - CARD_PLAYERS} more players", ""),)
    notes = [f"Game {game.id}: {listed(list(game.payout().winners))} won." for game in finished[-CARD_GAMES:]]
    if len(finished) > CARD_GAMES:  # a card to share stays a card: the night page lists every game
        notes.insert(0, f"The last {CARD_GAMES} of {len(finished)} games:")
    if report.in_bowls:
        notes.append(f"{format_cents(report.in_bowls)} stays in the bowl.")
    owed = report.still_owed()
    notes += [payment_words(p) for p in owed]
    if report.money.on_paper and not owed and finished:
        notes.append("Nobody owes anybody anything.")
    return ResultsCard(title, headline, ("", "Player", "Money"), rows, tuple(notes))


def tied_place(nets: dict[str, int], name: str) -> int:
    """A player's place for the evening: players up the same share it (issue 60: a tie read 1 and 2)."""
    return 1 + sum(1 for other in nets.values() if other > nets.get(name, 0))


def payment_words(payment: Payment) -> str:
    """A payment still owed, as the night page says it (the bowl is no one who pays or is paid)."""
    if not payment.to_player:
        return f"{payment.from_player} puts {format_cents(payment.cents)} into the bowl."
    if not payment.from_player:
        return f"The bowl pays {payment.to_player} {format_cents(payment.cents)}."
    return f"{payment.from_player} pays {payment.to_player} {format_cents(payment.cents)}."
