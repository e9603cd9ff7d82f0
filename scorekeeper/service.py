"""What the table does, as functions the views call: each loads the game from the store,
asks the rules engine whether the action may be recorded, and appends it as one event.

Views (HTML and JSON) stay thin: they parse input, call one of these, and render.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .catalog import Catalog
from .rules.cards import CardError, format_hand, parse_hand
from .rules.game import Buy, Event, Game, GameError, RoundRecord, Setup, Void, clean_name
from .rules.rulesets import Ruleset
from .store import Store


class GameNotFound(LookupError):
    pass


def event_from_row(row: Mapping[str, Any]) -> Event:
    payload = row["payload"]
    if row["kind"] == "buy":
        return Buy(row["id"], payload["round"], payload["player"])
    if row["kind"] == "round":
        caught = {name: parse_hand(text) for name, text in payload["caught"].items()}
        return RoundRecord(row["id"], payload["round"], payload["went_out"], caught)
    if row["kind"] == "void":
        return Void(row["id"], payload["target"])
    raise ValueError(f"unknown event kind {row['kind']!r}")


def event_payload(event: Event) -> tuple[str, dict[str, Any]]:
    if isinstance(event, Buy):
        return "buy", {"round": event.round, "player": event.player}
    if isinstance(event, RoundRecord):
        caught = {name: format_hand(cards) for name, cards in event.caught.items()}
        return "round", {"round": event.round, "went_out": event.went_out, "caught": caught}
    return "void", {"target": event.target}


def load_game(store: Store, catalog: Catalog, game_id: int) -> Game:
    try:
        row = store.game(game_id)
    except LookupError:
        raise GameNotFound(f"there is no game {game_id}") from None
    setup = Setup(
        ruleset=catalog.get(row["ruleset"]),
        players=tuple(row["players"]),
        first_dealer=row["first_dealer"],
        penny_cents=row["penny_cents"],
        carry_in=row["carry_in"],
    )
    return Game(setup, [event_from_row(r) for r in store.events(game_id)], game_id)


def start_game(
    store: Store,
    ruleset: Ruleset,
    names: list[str],
    first_dealer: str | None,
    penny_cents: int = 1,
    rng: random.Random | None = None,
) -> int:
    """Seat the players; with no first dealer named, the app draws one at random."""
    players = tuple(clean_name(name) for name in names)
    if first_dealer is None or first_dealer == "":
        dealer_seat = (rng or random.SystemRandom()).randrange(len(players)) if players else 0
    else:
        keys = [name.casefold() for name in players]
        wanted = clean_name(first_dealer).casefold()
        if wanted not in keys:
            raise GameError(f"the first dealer {first_dealer!r} is not one of the players")
        dealer_seat = keys.index(wanted)
    Setup(ruleset, players, dealer_seat, penny_cents)  # validates names, count and penny value
    return store.create_game(ruleset.id, list(players), dealer_seat, penny_cents)


def _next_id(game: Game) -> int:
    return max((event.id for event in game.events), default=0) + 1


def _record(store: Store, game: Game, event: Event, version: int | None) -> Game:
    """Check the event against the rules, then append it if nobody wrote in between."""
    after = game.with_event(event)
    kind, payload = event_payload(event)
    expected = game.version if version is None else version
    store.append_event(game.id, kind, payload, expected)
    return after


def record_buy(
    store: Store, game: Game, player: str, version: int | None = None, round_number: int | None = None
) -> Game:
    name = game.player_named(player)
    number = round_number if round_number is not None else (game.current_round or game.round_count + 1)
    return _record(store, game, Buy(_next_id(game), number, name), version)


def parse_caught(game: Game, caught: Mapping[str, str]) -> dict[str, tuple[Any, ...]]:
    """Each player's typed hand as cards; a bad token is reported with the player's name."""
    hands = {}
    for player, text in caught.items():
        name = game.player_named(player)
        try:
            hands[name] = parse_hand(text or "", require_suits=game.ruleset.suits_required)
        except CardError as error:
            raise GameError(f"{name}'s cards: {error}", name) from None
    return hands


def round_event(game: Game, number: int | None, went_out: str, caught: Mapping[str, str]) -> RoundRecord:
    if number is None:
        if game.current_round is None:
            raise GameError(f"the game is finished: all {game.round_count} rounds are recorded")
        number = game.current_round
    out = game.player_named(went_out) if went_out else ""
    if not out:
        raise GameError("say who went out")
    return RoundRecord(_next_id(game), number, out, parse_caught(game, caught))


def record_round(
    store: Store,
    game: Game,
    went_out: str,
    caught: Mapping[str, str],
    number: int | None = None,
    version: int | None = None,
) -> Game:
    """Record the current round, or correct round ``number``."""
    return _record(store, game, round_event(game, number, went_out, caught), version)


def preview_round(game: Game, went_out: str, caught: Mapping[str, str], number: int | None = None) -> Game:
    """The game as it would be after this round, without saving anything."""
    return game.with_event(round_event(game, number, went_out, caught))


def undo(store: Store, game: Game, event_id: int, version: int | None = None) -> Game:
    return _record(store, game, Void(_next_id(game), event_id), version)


def describe_event(game: Game, event: Event) -> str:
    """One history line in table words."""
    if isinstance(event, Buy):
        return f"{event.player} bought (round {event.round})"
    if isinstance(event, RoundRecord):
        hands = "; ".join(
            f"{name}: {format_hand(cards, pretty=True) or 'no cards'}" for name, cards in event.caught.items()
        )
        return f"Round {event.round}: {event.went_out} went out. {hands}"
    target = next((e for e in game.events if e.id == event.target), None)
    return f"Undo of entry {event.target}" + (f" ({describe_event(game, target)})" if target else "")


def describe_events(game: Game, times: Mapping[int, str] | None = None) -> list[dict[str, Any]]:
    """The game's history, oldest first: what was entered, what it corrected, what can be undone."""
    live_buys = {buy.id for buy in game.buy_events()}
    last_round = game.rounds[-1].record_id if game.rounds else None
    seen_rounds: set[int] = set()
    entries = []
    for event in game.events:
        text = describe_event(game, event)
        if isinstance(event, RoundRecord):
            if event.round in seen_rounds:
                text = "Correction — " + text
            seen_rounds.add(event.round)
        entries.append(
            {
                "id": event.id,
                "at": (times or {}).get(event.id, ""),
                "text": text,
                "undoable": event.id in live_buys or event.id == last_round,
            }
        )
    return entries


def event_times(store: Store, game: Game) -> dict[int, str]:
    return {row["id"]: row["created_at"] for row in store.events(game.id)}
