"""The stored event format: each table action as a (kind, JSON payload) pair and back.

Cards are stored in canonical notation, so an event read back is the event that was written
(a Hypothesis test round-trips every kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..rules.books import SideEntry
from ..rules.cards import CardError, format_hand, parse_hand
from ..rules.game import Buy, Event, HandRecord, RoundRecord, Void
from ..store.rows import EventRow
from .side_input import MAX_COUNT

EVENT_KINDS = ("buy", "round", "hand", "void")


class EventFormatError(ValueError):
    """A stored event that cannot be read back (an unknown kind or a missing field)."""


def event_from_row(row: EventRow) -> Event:
    return event_from_payload(row["id"], row["kind"], row["payload"])


def event_from_payload(event_id: int, kind: str, payload: Mapping[str, Any]) -> Event:
    """An entry read back, every field checked for its type and range (an imported file may hold
    anything: a round as 2.0, a count as "2", a number of 31 digits)."""
    where = f"entry {event_id} ({kind})"
    try:
        if not isinstance(payload, Mapping):
            raise EventFormatError(f"{where}: must be an object")
        if kind == "buy":
            return Buy(event_id, _round(payload, where), _text(payload["player"], f"{where}: player"))
        if kind == "round":
            caught = {name: parse_hand(text) for name, text in _texts(payload["caught"], f"{where}: caught").items()}
            went_out = _text(payload["went_out"], f"{where}: went_out")
            at_once = payload.get("at_once", False)
            if not isinstance(at_once, bool):
                raise EventFormatError(f"{where}: at_once must be true or false")
            cut = payload.get("cut_exactly")
            cut_exactly = None if cut is None else _text(cut, f"{where}: cut_exactly")
            return RoundRecord(event_id, _round(payload, where), went_out, caught, at_once, cut_exactly)
        if kind == "hand":
            sides = payload["sides"]
            if not isinstance(sides, list):
                raise EventFormatError(f"{where}: sides must be a list")
            out = payload["went_out"]
            return HandRecord(
                event_id,
                _round(payload, where),
                None if out is None else _text(out, f"{where}: went_out"),
                tuple(side_from_json(side, where) for side in sides),
            )
        if kind == "void":
            return Void(event_id, _whole(payload["target"], f"{where}: target", 1, MAX_ROW_ID))
    except CardError as error:
        raise EventFormatError(f"{where}: {error}") from None
    except (KeyError, TypeError, AttributeError) as error:
        raise EventFormatError(f"{where}: {error!r} is missing or malformed") from None
    raise EventFormatError(f"entry {event_id}: {kind!r} is not a kind of entry ({', '.join(EVENT_KINDS)})")


MAX_ROW_ID = 2**63 - 1
MAX_ROUND = 1000  # far beyond any ruleset's rounds; the engine checks the exact number


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EventFormatError(f"{where} must be a whole number from {low} to {high}, not {value!r:.40}")
    return value


def _round(payload: Mapping[str, Any], where: str) -> int:
    return _whole(payload["round"], f"{where}: round", 1, MAX_ROUND)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise EventFormatError(f"{where} must be text, not {value!r:.40}")
    return value


def _texts(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise EventFormatError(f"{where} must be an object of texts by player")
    return {_text(key, where): _text(text, where) for key, text in value.items()}


def _counts(value: Any, where: str) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise EventFormatError(f"{where} must be an object of whole numbers")
    return {_text(key, where): _whole(count, f"{where}: {key}", 0, MAX_COUNT) for key, count in value.items()}


def event_payload(event: Event) -> tuple[str, dict[str, Any]]:
    if isinstance(event, Buy):
        return "buy", {"round": event.round, "player": event.player}
    if isinstance(event, RoundRecord):
        caught = {name: format_hand(cards) for name, cards in event.caught.items()}
        # Feats kept only where said: every older entry is stored as it was.
        feats: dict[str, object] = {"at_once": True} if event.at_once else {}
        feats |= {"cut_exactly": event.cut_exactly} if event.cut_exactly else {}
        return "round", {"round": event.round, "went_out": event.went_out, "caught": caught, **feats}
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


def side_from_json(data: Mapping[str, Any], where: str = "a side") -> SideEntry:
    if not isinstance(data, Mapping):
        raise EventFormatError(f"{where}: a side must be an object")
    players = data["players"]
    if not isinstance(players, list):
        raise EventFormatError(f"{where}: a side's players must be a list")
    melded, melded_points = data["melded"], data["melded_points"]
    return SideEntry(
        players=tuple(_text(name, f"{where}: players") for name in players),
        red_threes=_whole(data["red_threes"], f"{where}: red_threes", 0, MAX_COUNT),
        books=_counts(data["books"], f"{where}: books"),
        melded=None if melded is None else parse_hand(_text(melded, f"{where}: melded")),
        melded_points=None if melded_points is None else _whole(melded_points, f"{where}: melded_points", 0, MAX_COUNT),
        hands={name: parse_hand(text) for name, text in _texts(data["hands"], f"{where}: hands").items()},
        piles={name: parse_hand(text) for name, text in _texts(data["piles"], f"{where}: piles").items()},
        # absent from entries stored before points could be given
        hand_points=_counts(data.get("hand_points", {}), f"{where}: hand_points"),
        pile_points=_counts(data.get("pile_points", {}), f"{where}: pile_points"),
    )
