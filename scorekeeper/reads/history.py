"""A game's history in table words: what was entered, what it corrected, what can be undone."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from ..rules.cards import format_hand
from ..rules.game import Buy, Event, Game, HandRecord, RoundRecord, Void
from ..rules.scoring import next_buy_penalty
from ..rules.wording import ordinal, plural


class HistoryEntry(TypedDict):
    id: int
    at: str
    text: str
    round: bool  # a round's (or hand's) entry: its undo asks first, a buy's does not
    undoable: bool  # a live buy, or the last round: it can be undone
    restorable: bool  # an undo in force: what it took back can be put back


def entry_name(game: Game, event: Event | None) -> str:
    """An entry named as the table says it, never by its number: "Eve’s buy in round 2", "round 3",
    "the undo of Eve’s buy in round 2"."""
    if isinstance(event, Buy):
        return f"{event.player}’s buy in round {event.round}"
    if isinstance(event, (RoundRecord, HandRecord)):
        return f"{game.ruleset.round_word} {event.round}"
    if isinstance(event, Void):
        return f"the undo of {entry_name(game, find_entry(game, event.target))}"
    return "an entry no longer in the game"


def find_entry(game: Game, event_id: int) -> Event | None:
    return next((e for e in game.events if e.id == event_id), None)


def describe_event(game: Game, event: Event) -> str:
    """One history line in table words."""
    if isinstance(event, Buy):
        return f"{event.player} bought in round {event.round}"
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
    target = find_entry(game, event.target)
    if isinstance(target, Void):
        return f"Put back {entry_name(game, find_entry(game, target.target))} (after its undo)"
    return f"Undid {entry_name(game, target)}" + (f" ({describe_event(game, target)})" if target else "")


def describe_change(game: Game, event: Event) -> str:
    """An entry as news from another phone: a round or hand says whether it was saved or corrected
    ("Round 1 corrected: Ann went out. …"), since its bare line reads the same both ways."""
    if not isinstance(event, (RoundRecord, HandRecord)):
        return describe_event(game, event)
    corrected = event.id in corrections(game)
    told = describe_event(game, event).split(": ", 1)[1]
    return f"{game.ruleset.round_word.capitalize()} {event.round} {'corrected' if corrected else 'saved'}: {told}"


def corrections(game: Game) -> set[int]:
    """The round (hand) entries that corrected a round standing when they came: not a round entered
    again after its undo (an undo takes the whole round back; an undo of that undo puts it back)."""
    by_id = {event.id: event for event in game.events}
    standing: set[int] = set()
    found: set[int] = set()
    for event in game.events:
        if isinstance(event, (RoundRecord, HandRecord)):
            if event.round in standing:
                found.add(event.id)
            standing.add(event.round)
        elif isinstance(event, Void):
            target = by_id.get(event.target)
            if isinstance(target, (RoundRecord, HandRecord)):
                standing.discard(target.round)
            elif isinstance(target, Void):
                put_back = by_id.get(target.target)
                if isinstance(put_back, (RoundRecord, HandRecord)):
                    standing.add(put_back.round)
    return found


def describe_events(game: Game, times: Mapping[int, str] | None = None) -> list[HistoryEntry]:
    """The game's history, oldest first."""
    undoable, undone, corrected = game.undoable_entries(), game.undone_entries(), corrections(game)
    entries: list[HistoryEntry] = []
    for event in game.events:
        text = describe_event(game, event)
        if event.id in corrected:
            text = "Correction — " + text
        entries.append(
            {
                "id": event.id,
                "at": (times or {}).get(event.id, ""),
                "text": text,
                "round": isinstance(event, (RoundRecord, HandRecord)),
                "undoable": event.id in undoable,
                "restorable": event.id in undone,
            }
        )
    return entries


def bought(game: Game, buy: Buy) -> str:
    """What a buy just made did, in table words: the buys left of the player's stack, or, where buys
    cost points (Ten Card Rummy past its free buys), which buy of the round it was and what it costs."""
    name = buy.player
    count = game.buys_in_round(buy.round)[name]
    penalty = next_buy_penalty(game.ruleset, count - 1)
    if penalty:
        return f"{name} bought the discard — the {ordinal(count)} buy this round: +{penalty} points"
    left = game.buys_left(name)
    if left is not None:
        return f"{name} bought the discard — {plural(left, 'buy')} left"
    return f"{name} bought the discard — the {ordinal(count)} buy this round"
