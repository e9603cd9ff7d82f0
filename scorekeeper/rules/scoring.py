"""Scoring a round of a contract game: card points, pennies, buy penalties and the checks
a scorekeeper makes before writing anything down (hand size, cards the decks can hold).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .cards import Card, Rank
from .rulesets import Ruleset
from .wording import plural

SUITS_PER_RANK = 4


class RoundError(ValueError):
    """A round result that cannot be recorded; ``player`` names whose entry is at fault, ``box`` which
    of their boxes when a player has several (a Pennies From Heaven "hand" or "pile")."""

    def __init__(self, message: str, player: str | None = None, box: str | None = None) -> None:
        super().__init__(message)
        self.player = player
        self.box = box


@dataclass(frozen=True)
class PlayerResult:
    cards: tuple[Card, ...]
    points: int  # card points plus any penalty
    pennies: int  # pennies paid into the bowl for cards caught
    penalty: int = 0  # penalty points for buys beyond the free ones
    bonus: int = 0  # points taken off for going down and out in one turn (Continental)
    cut_bonus: int = 0  # points taken off for cutting the deck exactly for the deal (Liverpool, Carioca)


def card_points(ruleset: Ruleset, cards: Iterable[Card]) -> int:
    """The points of cards caught in hand: the one place card values are added up."""
    return sum(ruleset.points[card.rank] for card in cards)


def buy_penalty(ruleset: Ruleset, buys: int) -> int:
    rule = ruleset.buys
    if rule is None or rule.free_per_round is None:
        return 0
    return max(0, buys - rule.free_per_round) * rule.penalty_points


def next_buy_penalty(ruleset: Ruleset, buys_so_far: int) -> int:
    """What one more buy this round adds in penalty points (0 while buys are still free)."""
    return buy_penalty(ruleset, buys_so_far + 1) - buy_penalty(ruleset, buys_so_far)


def check_hand_size(
    ruleset: Ruleset, player: str, cards: tuple[Card, ...], buys: int, round_number: int | None = None
) -> None:
    limit = ruleset.hand_limit(buys, round_number)
    if len(cards) > limit:
        raise RoundError(
            f"{player} is caught with {plural(len(cards), 'card')}, but with "
            f"{plural(buys, 'buy')} this round a player holds at most {limit}",
            player,
        )


def check_deck_supply(
    ruleset: Ruleset, decks: int, hands: Mapping[str, tuple[Card, ...]], jokers: int | None = None
) -> None:
    """No value may appear more often, across all hands, than the decks hold (``jokers``: the table's,
    by default each deck's)."""
    jokers = decks * ruleset.decks.jokers_per_deck if jokers is None else jokers
    everything = [card for cards in hands.values() for card in cards]
    by_rank = Counter(card.rank for card in everything)
    by_table = bool(ruleset.decks.jokers_fewer_than_players)
    for rank, count in sorted(by_rank.items()):
        joker = rank is Rank.JOKER
        held = jokers if joker else SUITS_PER_RANK * decks
        if count > held:
            holder = "this table plays with" if joker and by_table else _decks_hold(decks)
            raise RoundError(f"the hands hold {count} × {rank.label}, but {holder} only {held}")
    by_card = Counter(card for card in everything if card.suit is not None)  # each deck has each card once
    for card, count in sorted(by_card.items()):
        if count > decks:
            raise RoundError(f"the hands hold {count} × {card.pretty()}, but {_decks_hold(decks)} only {decks}")


def _decks_hold(decks: int) -> str:
    return f"{plural(decks, 'deck')} {'holds' if decks == 1 else 'hold'}"


def score_round(
    ruleset: Ruleset,
    players: tuple[str, ...],
    decks: int,
    went_out: str,
    caught: Mapping[str, tuple[Card, ...]],
    buys: Mapping[str, int],
    round_number: int | None = None,
    at_once: bool = False,
    cut_exactly: str | None = None,
) -> dict[str, PlayerResult]:
    """Score one round of a contract game after checking it could have happened (its hands no longer
    than round ``round_number``'s deal and buys allow; without it, the game's largest deal);
    ``at_once``: the player who went out went down and out in one turn (a bonus where the game has one);
    ``cut_exactly``: the player who cut the deck exactly for the deal (a bonus where the game has one)."""
    if went_out not in players:
        raise RoundError(f"{went_out!r} is not playing in this game")
    for name in caught:
        if name not in players:
            raise RoundError(f"{name!r} is not playing in this game")
    if caught.get(went_out):
        raise RoundError(f"{went_out} went out, so {went_out} holds no cards", went_out)
    missing = [name for name in players if name != went_out and name not in caught]
    if missing:
        raise RoundError(
            "enter the cards caught in hand for " + ", ".join(missing) + " (an empty hand is allowed)",
            missing[0],
        )
    hands = {name: tuple(caught.get(name, ())) for name in players}
    for name in players:
        check_hand_size(ruleset, name, hands[name], buys.get(name, 0), round_number)
    check_deck_supply(ruleset, decks, hands, ruleset.decks.jokers_for(len(players), decks))
    results = {name: score_hand(ruleset, hands[name], buys.get(name, 0)) for name in players}
    if at_once:
        results[went_out] = with_out_at_once_bonus(ruleset, went_out, results[went_out])
    if cut_exactly is not None:
        results[cut_exactly] = with_exact_cut_bonus(ruleset, cut_exactly, results.get(cut_exactly))
    return results


def with_out_at_once_bonus(ruleset: Ruleset, player: str, result: PlayerResult) -> PlayerResult:
    """The points of a player who went down and went out in one turn, the game's bonus taken off."""
    bonus = ruleset.out_at_once_bonus
    if not bonus:
        raise RoundError(f"{ruleset.name} has no bonus for going down and out at once", player)
    return replace(result, points=result.points - bonus, bonus=bonus)


def with_exact_cut_bonus(ruleset: Ruleset, player: str, result: PlayerResult | None) -> PlayerResult:
    """The points of the player who cut the deck leaving exactly the cards the deal needs, the game's
    bonus taken off (on top of any other: the cutter may go out too)."""
    bonus = ruleset.exact_cut_bonus
    if not bonus:
        raise RoundError(f"{ruleset.name} has no bonus for cutting the deck exactly", player)
    if result is None:
        raise RoundError(f"{player!r} is not playing in this game, so did not cut the deck")
    return replace(result, points=result.points - bonus, cut_bonus=bonus)


def score_hand(ruleset: Ruleset, cards: tuple[Card, ...], buys: int) -> PlayerResult:
    """One player's caught cards: points (with any penalty for buys beyond the free ones) and the
    pennies they pay into the bowl — the one place a hand is scored."""
    penalty = buy_penalty(ruleset, buys)
    return PlayerResult(
        cards=cards,
        points=card_points(ruleset, cards) + penalty,
        pennies=ruleset.pennies_per_card * len(cards),
        penalty=penalty,
    )


def score_draft(
    ruleset: Ruleset,
    decks: int,
    player: str,
    cards: tuple[Card, ...],
    buys: int,
    round_number: int | None = None,
    jokers: int | None = None,
) -> PlayerResult:
    """A hand a player enters on their own phone before the round is saved: checked as far as one
    hand can be (its size against the round's deal and the player's buys, the decks' supply) and scored.
    ``jokers``: the table's (the game's setup knows them); by default each deck's."""
    check_hand_size(ruleset, player, cards, buys, round_number)
    check_deck_supply(ruleset, decks, {player: cards}, jokers)
    return score_hand(ruleset, cards, buys)
