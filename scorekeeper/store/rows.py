"""The shapes of the rows the store hands out, so that a mistyped key is a type error."""

from __future__ import annotations

from typing import Any, TypedDict


class GameRow(TypedDict):
    id: int
    ruleset: str
    ruleset_version: int | None  # the kept version of the ruleset it plays (None: from before versions)
    ruleset_document: str | None  # that version's document (JSON)
    created_at: str
    first_dealer: int  # seat index of round 1's dealer
    penny_cents: int
    carry_in: int  # pennies carried into the bowl from the night's earlier games (kept by the store)
    revision: int  # bumped by every event and every change of carry_in: the game's version
    night_id: int | None
    share_token: str
    pin_hash: str | None
    lock_generation: int
    notes: str  # the scorekeeper's note on the game ("" for none)
    notes_edits: int  # how often a note was changed: with revision, what the live views poll
    rematch_of: int | None  # the finished game this one plays again (at most one per game)
    money_at_end: str | None  # each seat's cents (JSON list) when the game ended; None while in play
    players: list[str]  # in seat order
    sides: list[list[str]]  # who scores together, in side order


class PaymentRow(TypedDict):
    """A payment made on paper: money handed over, in cents."""

    id: int
    night_id: int
    payer: str
    payee: str
    cents: int
    made_at: str
    undone_at: str | None  # "not paid after all", when
    nets: str | None  # the night's nets (JSON, cents) when it was marked


class GameListRow(TypedDict):
    id: int
    ruleset: str
    created_at: str
    players: str  # "Ann, Bob, Cy"


class EventRow(TypedDict):
    id: int
    kind: str
    payload: dict[str, Any]
    created_at: str


class EntryKeyRow(TypedDict):
    key: str
    game_id: int | None
    digest: str  # what was sent with the key (a repeat must send the same)
    status: int
    body: str  # the first answer, as sent


class DraftRow(TypedDict):
    """A hand a player entered on their own phone for the round in play: not an entry."""

    player: str
    cards: str | None  # as typed (a game of cards caught)
    points: int | None  # points left in hand (Pennies From Heaven, counted by the player)
    updated_at: str


class DraftRoundRow(DraftRow):
    """A draft with its round: a phone's correction request for a round already saved."""

    round: int


class SeatRow(TypedDict):
    seat: int
    name: str
    side: int


class NightRow(TypedDict):
    id: int
    name: str
    created_at: str
    closed_at: str | None
    pin_hash: str | None  # a PIN on the night locks every game in it
    lock_generation: int
    money: str  # "table" or "paper"
    notes: str
    notes_edits: int
    share_token: str  # the night's link: its phones and tablet follow it from game to game


class DeletedRow(TypedDict):
    """A game or night the host deleted, kept to be brought back."""

    id: int
    kind: str  # "game" or "night"
    object_id: int
    label: str  # what it was, in words ("Ten Pennies: Ann, Bob, Cy, 2026-11-27")
    deleted_at: str


class LockedRow(TypedDict):
    """A night or a game under a PIN of its own, as `scorekeeper pin reset` lists it."""

    kind: str  # "night" or "game"
    id: int
    name: str  # a night's name; a game's ruleset
    created_at: str
    games: str | None  # a night's game ids; a game's players, comma-separated


class NightListRow(NightRow):
    games: int


class ResultRow(TypedDict):
    """One seat's game as the engine derived it (written with every entry of the game)."""

    seat: int
    rounds: int
    points: int
    won: int
    finished: int
    money: int
    best_round: int | None
    worst_round: int | None
    went_out: int  # rounds (hands) the player went out
    buys: int
    place: int  # the seat's side's place at the end (1: leading)
    caught: str  # cards caught round by round, a JSON list (card games; "[]" for books)


class HistoryRow(ResultRow):
    game_id: int
    player_id: int
    ruleset: str
    created_at: str
    day: str | None  # the day the game counts on: its night's, else its own, in the server's time zone
    night_id: int | None
    name: str


class PlayerRow(TypedDict):
    id: int
    name: str


class PlayerTotals(TypedDict):
    """A player's finished games of one ruleset added up (the leaderboard's numbers)."""

    ruleset: str
    games: int
    wins: int
    points: int
    rounds: int
    money: int
    lowest_round: int | None  # the lowest score of any round (and the highest): the best and worst by the winner
    highest_round: int | None


class StatsRow(PlayerTotals):
    player_id: int


class LeaderRow(PlayerTotals):
    id: int
    name: str


RESULT_COLUMNS = (
    "seat",
    "rounds",
    "points",
    "won",
    "finished",
    "money",
    "best_round",
    "worst_round",
    "went_out",
    "buys",
    "place",
    "caught",
)
