"""What the table does, as functions the views call: each loads the game from the store,
asks the rules engine whether the action may be recorded, and appends it as one event.

Views (HTML and JSON) stay thin: they parse input, call one of these, and render.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .catalog import Catalog
from .lock import check_new_pin
from .rules.books import BOOK_KINDS, SideEntry
from .rules.cards import Card, CardError, format_hand, parse_hand
from .rules.game import Buy, Event, Game, GameError, HandRecord, RoundRecord, Setup, Void, clean_name
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
    if row["kind"] == "hand":
        return HandRecord(
            row["id"], payload["round"], payload["went_out"], tuple(side_from_json(s) for s in payload["sides"])
        )
    if row["kind"] == "void":
        return Void(row["id"], payload["target"])
    raise ValueError(f"unknown event kind {row['kind']!r}")


def event_payload(event: Event) -> tuple[str, dict[str, Any]]:
    if isinstance(event, Buy):
        return "buy", {"round": event.round, "player": event.player}
    if isinstance(event, RoundRecord):
        caught = {name: format_hand(cards) for name, cards in event.caught.items()}
        return "round", {"round": event.round, "went_out": event.went_out, "caught": caught}
    if isinstance(event, HandRecord):
        return "hand", {"round": event.round, "went_out": event.went_out, "sides": [side_json(s) for s in event.sides]}
    return "void", {"target": event.target}


def side_json(side: SideEntry) -> dict[str, Any]:
    """A side's entry as stored: cards in canonical notation."""
    return {
        "players": list(side.players),
        "red_threes": side.red_threes,
        "books": dict(side.books),
        "melded": None if side.melded is None else format_hand(side.melded),
        "melded_points": side.melded_points,
        "hands": {name: format_hand(cards) for name, cards in side.hands.items()},
        "piles": {name: format_hand(cards) for name, cards in side.piles.items()},
    }


def side_from_json(data: Mapping[str, Any]) -> SideEntry:
    return SideEntry(
        players=tuple(data["players"]),
        red_threes=data["red_threes"],
        books=dict(data["books"]),
        melded=None if data["melded"] is None else parse_hand(data["melded"]),
        melded_points=data["melded_points"],
        hands={name: parse_hand(text) for name, text in data["hands"].items()},
        piles={name: parse_hand(text) for name, text in data["piles"].items()},
    )


def load_game(store: Store, catalog: Catalog, game_id: int) -> Game:
    """A game replayed from its events; in a night, the pennies a tie left in the previous
    game's bowl carry into it (derived every time, so a correction there follows through)."""
    try:
        row = store.game(game_id)
    except LookupError:
        raise GameNotFound(f"there is no game {game_id}") from None
    carry_in = 0
    if row["night_id"] is not None:
        earlier = [gid for gid in store.night_game_ids(row["night_id"]) if gid < game_id]
        if earlier:
            previous = load_game(store, catalog, earlier[-1])
            carry_in = previous.payout().left_in_bowl if previous.finished else 0
    return game_from_row(store, catalog, row, carry_in)


def game_from_row(store: Store, catalog: Catalog, row: Mapping[str, Any], carry_in: int) -> Game:
    setup = Setup(
        ruleset=catalog.get(row["ruleset"]),
        players=tuple(row["players"]),
        first_dealer=row["first_dealer"],
        penny_cents=row["penny_cents"],
        carry_in=carry_in,
        teams=tuple(tuple(side) for side in row["sides"]) if len(row["sides"]) < len(row["players"]) else (),
    )
    return Game(setup, [event_from_row(r) for r in store.events(row["id"])], row["id"])


def start_game(
    store: Store,
    ruleset: Ruleset,
    names: list[str],
    first_dealer: str | None,
    penny_cents: int = 1,
    rng: random.Random | None = None,
    teams: list[list[str]] | None = None,
    night_id: int | None = None,
    pin: str | None = None,
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
    sides = tuple(tuple(clean_name(name) for name in team) for team in teams or ())
    Setup(ruleset, players, dealer_seat, penny_cents, teams=sides)  # validates names, count, teams, penny
    side_of = [next(i for i, side in enumerate(sides) if name in side) for name in players] if sides else None
    if night_id is not None:
        try:
            night = store.night(night_id)
        except LookupError:
            raise GameError(f"there is no night {night_id}") from None
        if night["closed_at"]:
            raise GameError(f"night {night_id} is closed: start a new night for this game")
    pin_hash = None
    if pin:
        try:
            pin_hash = check_new_pin(pin)
        except ValueError as error:
            raise GameError(str(error)) from None
    return store.create_game(ruleset.id, list(players), dealer_seat, penny_cents, side_of, night_id, pin_hash)


def _next_id(game: Game) -> int:
    return max((event.id for event in game.events), default=0) + 1


def _record(store: Store, catalog: Catalog, game: Game, event: Event, version: int | None) -> Game:
    """Check the event against the rules, then append it if nobody wrote in between, together with
    the derived results it changes (this game's, and the later games' of its night via the carry)."""
    after = game.with_event(event)
    kind, payload = event_payload(event)
    expected = game.version if version is None else version
    results = {game.id: result_rows(after), **later_results(store, catalog, after)}
    store.append_event(game.id, kind, payload, expected, results)
    return after


def result_rows(game: Game) -> list[dict[str, Any]]:
    """Each seat's game in numbers, for history and the leaderboard (derived, never entered)."""
    lowest_wins = game.ruleset.winner == "lowest"
    payout = game.payout()
    totals = game.totals()
    rows = []
    for seat, name in enumerate(game.players):
        side = game.side_of(name)
        scores = [result.results[side].points for result in game.rounds]
        ordered = sorted(scores, reverse=not lowest_wins)
        rows.append(
            {
                "seat": seat,
                "rounds": len(scores),
                "points": totals[side],
                "won": int(game.finished and side in payout.winners),
                "finished": int(game.finished),
                "money": game.money(name) if game.finished else -game.pennies_paid(name),
                "best_round": ordered[0] if ordered else None,
                "worst_round": ordered[-1] if ordered else None,
            }
        )
    return rows


def later_results(store: Store, catalog: Catalog, changed: Game) -> dict[int, list[dict[str, Any]]]:
    """A game's leftover pennies carry into the next game of its night: refresh what follows."""
    row = store.game(changed.id)
    if row["night_id"] is None:
        return {}
    results, previous = {}, changed
    for gid in [g for g in store.night_game_ids(row["night_id"]) if g > changed.id]:
        carry = previous.payout().left_in_bowl if previous.finished else 0
        previous = game_from_row(store, catalog, store.game(gid), carry)
        results[gid] = result_rows(previous)
    return results


def record_buy(
    store: Store, catalog: Catalog, game: Game, player: str, version: int | None = None, round_number: int | None = None
) -> Game:
    name = game.player_named(player)
    number = round_number if round_number is not None else (game.current_round or game.round_count + 1)
    return _record(store, catalog, game, Buy(_next_id(game), number, name), version)


def parse_caught(game: Game, caught: Mapping[str, str]) -> dict[str, tuple[Any, ...]]:
    """Each player's typed hand as cards; a bad token is reported with the player's name."""
    hands = {}
    for player, text in caught.items():
        name = game.player_named(player)
        try:
            hands[name] = parse_hand(text or "")  # scoring caught cards never needs their suits
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
    catalog: Catalog,
    game: Game,
    went_out: str,
    caught: Mapping[str, str],
    number: int | None = None,
    version: int | None = None,
) -> Game:
    """Record the current round, or correct round ``number``."""
    return _record(store, catalog, game, round_event(game, number, went_out, caught), version)


def preview_round(game: Game, went_out: str, caught: Mapping[str, str], number: int | None = None) -> Game:
    """The game as it would be after this round, without saving anything."""
    return game.with_event(round_event(game, number, went_out, caught))


def undo(store: Store, catalog: Catalog, game: Game, event_id: int, version: int | None = None) -> Game:
    return _record(store, catalog, game, Void(_next_id(game), event_id), version)


def describe_event(game: Game, event: Event) -> str:
    """One history line in table words."""
    if isinstance(event, Buy):
        return f"{event.player} bought (round {event.round})"
    if isinstance(event, RoundRecord):
        hands = "; ".join(
            f"{name}: {format_hand(cards, pretty=True) or 'no cards'}" for name, cards in event.caught.items()
        )
        return f"Round {event.round}: {event.went_out} went out. {hands}"
    if isinstance(event, HandRecord):
        out = f"{event.went_out} went out" if event.went_out else "nobody went out"
        sides = "; ".join(
            f"{side.name}: {side.red_threes} red 3s, books "
            + ", ".join(f"{count} {kind}" for kind, count in side.books.items() if count)
            for side in event.sides
        )
        return f"Hand {event.round}: {out}. {sides}"
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
        if isinstance(event, (RoundRecord, HandRecord)):
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


def seat_teams(players: list[str], team_count: int) -> list[list[str]]:
    """Partners sit across from each other: with 2 teams, seats 1 & 3 against 2 & 4."""
    return [players[first::team_count] for first in range(team_count)]


def _count(value: Any, what: str) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise GameError(f"{what} must be a whole number, 0 or more")
    return value


def _cards(game: Game, text: Any, whose: str) -> tuple[Card, ...]:
    if text is not None and not isinstance(text, str):
        raise GameError(f"{whose} must be a string of cards")
    try:
        return parse_hand(text or "")
    except CardError as error:
        raise GameError(f"{whose}: {error}", None) from None


def _hands(game: Game, given: Any, what: str) -> dict[str, tuple[Card, ...]]:
    if given is None:
        return {}
    if not isinstance(given, Mapping):
        raise GameError(f"{what}s must be given by player name")
    return {game.player_named(str(n)): _cards(game, text, f"{n}'s {what}") for n, text in given.items()}


def hand_event(game: Game, number: int | None, went_out: str | None, sides: list[Mapping[str, Any]]) -> HandRecord:
    """A books-game hand from what the scorekeeper typed, side by side."""
    if number is None:
        if game.current_round is None:
            raise GameError(f"the game is finished: all {game.round_count} hands are recorded")
        number = game.current_round
    out = game.player_named(went_out) if went_out else None
    entries = []
    for data in sides:
        if not isinstance(data, Mapping) or not isinstance(data.get("players"), list):
            raise GameError("each side needs its list of players")
        players = tuple(game.player_named(str(name)) for name in data["players"])
        name = " & ".join(players)
        given_books = data.get("books") or {}
        if not isinstance(given_books, Mapping):
            raise GameError(f"{name}: books must be counts by kind ({', '.join(BOOK_KINDS)})")
        unknown = sorted(set(given_books) - set(BOOK_KINDS))
        if unknown:
            raise GameError(f"{name}: {', '.join(unknown)} is not a kind of book ({', '.join(BOOK_KINDS)})")
        books = {kind: _count(given_books.get(kind), f"{name}: {kind} books") for kind in BOOK_KINDS}
        melded_text = data.get("melded")
        points = data.get("melded_points")
        entries.append(
            SideEntry(
                players=players,
                red_threes=_count(data.get("red_threes"), f"{name}: red threes"),
                books=books,
                melded=_cards(game, melded_text, f"{name}'s melded cards") if melded_text else None,
                melded_points=None if points is None or points == "" else _count(points, f"{name}: melded points"),
                hands=_hands(game, data.get("hands"), "cards"),
                piles=_hands(game, data.get("piles"), "pile"),
            )
        )
    return HandRecord(_next_id(game), number, out, tuple(entries))


def record_hand(
    store: Store,
    catalog: Catalog,
    game: Game,
    went_out: str | None,
    sides: list[Mapping[str, Any]],
    number: int | None = None,
    version: int | None = None,
) -> Game:
    """Record the current hand of a books game, or correct hand ``number``."""
    return _record(store, catalog, game, hand_event(game, number, went_out, sides), version)


def refresh_results(store: Store, catalog: Catalog, game_ids: list[int]) -> None:
    """Recompute the derived results of these games (after an import)."""
    for gid in sorted(game_ids):
        store.save_results(gid, result_rows(load_game(store, catalog, gid)))
