"""The game page's words, made here and tested in Python (plurals, money, the bowl, who won, a
player's buys); the template only lays them out. Each function takes what the page already has."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..commands.locks import Lock
from ..rules.game import Game
from ..rules.ledger import format_money, minus
from ..rules.wording import listed, plural


def pennies(count: int) -> str:
    return plural(count, "penny", "pennies")


def carried_in(game: Game, source: int | None = None) -> str:
    """ "3 pennies carried into the bowl from game 4's tie" (empty when nothing was carried): the game
    it came from named, a game that played for no bowl in between or not (issue 60: "the last game's
    tie" was said of a penny from two games back)."""
    if not game.setup.carry_in:
        return ""
    tie = f"game {source}'s tie" if source is not None else "an earlier game's tie"
    return f"{pennies(game.setup.carry_in)} carried into the bowl from {tie}"


@dataclass(frozen=True)
class Bowl:
    """ "Bowl: 12 pennies ($0.60)": the count stands out, the word follows it."""

    count: int
    word: str
    money: str


def bowl(game: Game) -> Bowl:
    return Bowl(game.bowl, "penny" if game.bowl == 1 else "pennies", format_money(game.bowl, game.setup.penny_cents))


def lock_bar(locked: Lock, can_write: bool) -> str:
    """The line above a locked game's buttons: what this device may do, and why."""
    if can_write:
        whole_night = f" (the PIN locks all of night {locked.id})" if locked.kind == "night" else ""
        return f"Unlocked on this device{whole_night}."
    return f"Read-only: only the scorekeeper can change this {'night' if locked.kind == 'night' else 'game'}."


def problems_said(count: int) -> str:
    """The sentence over the entries a game's history holds that the rules refuse."""
    return (
        f"This game's history holds {plural(count, 'entry', 'entries')} that the rules refuse (stored by an "
        "earlier version while two devices wrote at once). The scorepad counts the game without "
        f"{'it' if count == 1 else 'them'}:"
    )


@dataclass(frozen=True)
class CorrectionLine:
    """A hand a phone sent for a round already saved: "Bob's phone, for round 1: K 7 (20 points)"."""

    lead: str  # "Bob's phone, for round 1: "
    hand: str  # the cards, shown strong ("" by sides: the points say it)
    after: str  # "(20 points)", or "35 points left in hand" by sides
    round: int
    correct: str  # the button's words


def correction_line(game: Game, request: Mapping[str, Any]) -> CorrectionLine:
    word = game.ruleset.round_word
    number = request["round"]
    points = request.get("points")
    if game.ruleset.by_sides:
        hand, after = "", f"{points} points left in hand"
    else:
        hand = request.get("cards") or "nothing"
        after = "" if points is None else f"({plural(points, 'point')})"
    return CorrectionLine(
        f"{request['player']}'s phone, for {word} {number}: ", hand, after, number, f"Correct {word} {number}"
    )


def buy_meta(game: Game, number: int) -> dict[str, str]:
    """Under each player's Buy button: what is left, what they bought this round, what the next
    costs; before buying starts, the round it starts in."""
    rule = game.ruleset.buys
    if rule is None:
        return {}
    if number < rule.first_round:
        return dict.fromkeys(game.players, f"from round {rule.first_round}")
    bought = game.buys_in_round(number)
    said = {}
    for player in game.players:
        left, penalty = game.buys_left(player), game.next_buy_penalty(player, number)
        parts = [] if left is None else [f"{left} left"]
        parts += [f"{bought[player]} this round"] if bought[player] else []
        parts += [f"next: +{penalty} points"] if penalty else []
        said[player] = " · ".join(parts)
    return said


@dataclass(frozen=True)
class Winners:
    """ "Winner: Ann with 12 points", or "Winners: Ann and Bob (tied on 0)"."""

    label: str
    names: str
    aside: str


def winners(game: Game) -> Winners:
    won = game.payout().winners
    total = game.totals()[won[0]]
    if len(won) > 1:
        return Winners("Winners", listed(list(won)), f"(tied on {minus(total)})")
    return Winners("Winner", listed(list(won)), f"with {plural(total, 'point')}")


@dataclass(frozen=True)
class PaidOut:
    """ "The bowl of 21 pennies is paid out; 1 penny stays in the bowl for the next game."."""

    bowl: str  # "The bowl of 21 pennies is paid out"
    left: int  # pennies that stay in the bowl (0: none)
    stay: str  # "penny stays", "pennies stay"


def paid_out(game: Game) -> PaidOut:
    left = game.payout().left_in_bowl
    return PaidOut(
        f"The bowl of {pennies(game.bowl)} is paid out", left, "penny stays" if left == 1 else "pennies stay"
    )


@dataclass(frozen=True)
class GamePage:
    """Everything the game page says in sentences, made once for the template."""

    carried_in: str
    bowl: Bowl
    lock_bar: str
    problems: str
    corrections: tuple[CorrectionLine, ...]
    buy_meta: dict[str, str]  # by player, for the round in play
    winners: Winners | None  # once the game is over
    paid_out: PaidOut | None


def game_page(
    game: Game, locked: Lock | None, can_write: bool, requests: list[dict[str, Any]], carried_from: int | None = None
) -> GamePage:
    over = game.finished
    return GamePage(
        carried_in=carried_in(game, carried_from),
        bowl=bowl(game),
        lock_bar=lock_bar(locked, can_write) if locked else "",
        problems=problems_said(len(game.problems)) if game.problems else "",
        corrections=tuple(correction_line(game, request) for request in requests),
        buy_meta=buy_meta(game, game.current_round) if game.current_round and not over else {},
        winners=winners(game) if over else None,
        paid_out=paid_out(game) if over else None,
    )
