"""The stored event format: each table action as a (kind, JSON payload) pair and back.

Cards are stored in canonical notation, so an event read back is the event that was written
(a Hypothesis test round-trips every kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rules.books import SideEntry
from .rules.cards import CardError, format_hand, parse_hand
from .rules.game import Buy, Event, HandRecord, RoundRecord, Void
from .store.rows import EventRow

EVENT_KINDS = ("buy", "round", "hand", "void")


class EventFormatError(ValueError):
    """A stored event that cannot be read back (an unknown kind or a missing field)."""


def event_from_row(row: EventRow) -> Event:
    return event_from_payload(row["id"], row["kind"], row["payload"])


def event_from_payload(event_id: int, kind: str, payload: Mapping[str, Any]) -> Event:
    try:
        if kind == "buy":
            return Buy(event_id, payload["round"], payload["player"])
        if kind == "round":
            caught = {name: parse_hand(text) for name, text in payload["caught"].items()}
            return RoundRecord(event_id, payload["round"], payload["went_out"], caught)
        if kind == "hand":
            sides = tuple(side_from_json(side) for side in payload["sides"])
            return HandRecord(event_id, payload["round"], payload["went_out"], sides)
        if kind == "void":
            return Void(event_id, payload["target"])
    except CardError as error:
        raise EventFormatError(f"entry {event_id} ({kind}): {error}") from None
    except (KeyError, TypeError, AttributeError) as error:
        raise EventFormatError(f"entry {event_id} ({kind}): {error!r} is missing or malformed") from None
    raise EventFormatError(f"entry {event_id}: {kind!r} is not a kind of entry ({', '.join(EVENT_KINDS)})")


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
        "hand_points": dict(side.hand_points),
        "pile_points": dict(side.pile_points),
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
        hand_points=dict(data.get("hand_points", {})),  # absent from entries stored before points could be given
        pile_points=dict(data.get("pile_points", {})),
    )
