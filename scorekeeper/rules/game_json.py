"""A game in JSON for the API, and a round described in table words for the dealer."""

from __future__ import annotations

from .books import SideResult
from .cards import format_hand
from .game import Game
from .scoring import PlayerResult
from .setup import Setup
from .wording import plural


def game_json(game: Game) -> dict[str, object]:
    """A game's state as the API answers it (and the tests compare)."""
    payout = game.payout()
    totals = game.totals()
    state: dict[str, object] = {
        "id": game.id,
        "ruleset": game.ruleset.id,
        "ruleset_version": game.setup.ruleset_version,
        "round": game.current_round,
        "finished": game.finished,
        "version": game.version,
        "bowl": game.bowl,
        "penny_cents": game.setup.penny_cents,
        "decks": game.setup.decks,
        "players": [
            {
                "name": name,
                "seat": seat,
                "points": totals[game.side_of(name)],
                "pennies_paid": game.pennies_paid(name),
                "buys_left": game.buys_left(name),
            }
            for seat, name in enumerate(game.players, start=1)
        ],
        "rounds": [
            {
                "number": result.number,
                "dealer": result.dealer,
                "went_out": result.went_out,
                "corrected": result.corrected,
                "buys": result.buys,
                "results": {name: result_json(r) for name, r in result.results.items()},
            }
            for result in game.rounds
        ],
        "winners": list(payout.winners),
        "payouts": payout.payouts,
        "left_in_bowl": game.carry_out,
        "money": {name: game.money(name) for name in game.players} if game.finished else {},  # pennies
        "money_cents": ({name: game.money_cents(name) for name in game.players} if game.finished else {}),
        "problems": [{"entry": entry, "reason": reason} for entry, reason in game.problems],
    }
    if game.ruleset.by_sides:
        minimums = game.board_minimums()
        state["sides"] = [
            {"name": name, "players": list(side), "points": totals[name], "board_minimum": minimums.get(name)}
            for name, side in zip(game.competitors, game.setup.sides, strict=True)
        ]
    return state


def result_json(result: PlayerResult | SideResult) -> dict[str, object]:
    if isinstance(result, SideResult):
        return {
            "score": result.points,
            "bonus": result.bonus,
            "melded": result.melded,
            "deducted": result.deducted,
            "books": dict(result.books),
            "red_threes": result.red_threes,
            "went_out": result.went_out,
        }
    return {
        "cards": format_hand(result.cards).split(),
        "points": result.points,
        "pennies": result.pennies,
        "penalty": result.penalty,
        "bonus": result.bonus,
        "cut_bonus": result.cut_bonus,
    }


def describe_round(setup: Setup, number: int) -> dict[str, object]:
    """Everything the dealer asks about a round, in table words."""
    rule = setup.ruleset.round(number)
    return {
        "books": setup.ruleset.by_sides,
        "word": setup.ruleset.round_word,
        "board_minimum": rule.board_minimum,
        "pile": setup.ruleset.pile_size,
        "number": number,
        "dealer": setup.dealer(number),
        "first_player": setup.first_player(number),
        "contract": rule.contract.describe() if rule.contract else None,
        "wilds": rule.describe_wilds(),
        "wild_limit": setup.ruleset.describe_wild_rule(rule),
        "decks": plural(setup.decks, "deck"),
        "jokers": setup.jokers,
        "deal": setup.ruleset.dealt(number),
    }
