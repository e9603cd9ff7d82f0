"""A game of a contract ruleset, derived by replaying what happened at the table.

The table's actions are an append-only list of events (buys, round results, corrections,
undos). ``Game`` replays them in order and checks each one as it goes, so the same code
answers "what is the score?" and "may this be recorded?": a new event is accepted exactly
when ``Game(setup, events + [event])`` replays without error.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .cards import Card, format_hand
from .ledger import Payout, split_bowl, winners
from .rulesets import RoundRule, Ruleset
from .scoring import PlayerResult, RoundError, plural, score_round

MAX_NAME_LENGTH = 40


class GameError(ValueError):
    """An action the table cannot take (a buy, a round, an undo); ``player`` is at fault if named."""

    def __init__(self, message: str, player: str | None = None) -> None:
        super().__init__(message)
        self.player = player


@dataclass(frozen=True)
class Setup:
    ruleset: Ruleset
    players: tuple[str, ...]  # in seat order, clockwise
    first_dealer: int  # seat index (0-based) of round 1's dealer
    penny_cents: int = 1
    carry_in: int = 0  # pennies left in the previous game's bowl

    def __post_init__(self) -> None:
        check_players(self.ruleset, self.players)
        if not 0 <= self.first_dealer < len(self.players):
            raise GameError(f"the first dealer must be one of the {len(self.players)} players")
        if self.penny_cents < 1:
            raise GameError("a penny must be worth at least 1¢")

    @property
    def decks(self) -> int:
        return self.ruleset.decks.decks_for(len(self.players))

    def dealer(self, round_number: int) -> str:
        """The deal passes to the left (clockwise) every round."""
        return self.players[(self.first_dealer + round_number - 1) % len(self.players)]

    def first_player(self, round_number: int) -> str:
        return self.players[(self.first_dealer + round_number) % len(self.players)]


def clean_name(name: str) -> str:
    return " ".join(name.split())


def check_players(ruleset: Ruleset, players: tuple[str, ...]) -> None:
    """2-8 (per ruleset) trimmed, non-empty names, unique ignoring case, at most 40 characters."""
    count = len(players)
    if not ruleset.players_min <= count <= ruleset.players_max:
        raise GameError(f"{ruleset.name} is for {ruleset.players_min} to {ruleset.players_max} players, not {count}")
    seen: dict[str, str] = {}
    for seat, name in enumerate(players, start=1):
        if not name or name != clean_name(name):
            raise GameError(f"player {seat} needs a name")
        if len(name) > MAX_NAME_LENGTH:
            raise GameError(f"the name of player {seat} is longer than {MAX_NAME_LENGTH} characters", name)
        key = name.casefold()
        if key in seen:
            raise GameError(f"two players are called {seen[key]!r}; give one a different name", name)
        seen[key] = name


# --- events -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Buy:
    id: int
    round: int
    player: str


@dataclass(frozen=True)
class RoundRecord:
    """A round's result; a later record for the same round corrects it."""

    id: int
    round: int
    went_out: str
    caught: Mapping[str, tuple[Card, ...]]


@dataclass(frozen=True)
class Void:
    """Undoes a buy, or the last round played."""

    id: int
    target: int


Event = Buy | RoundRecord | Void


@dataclass(frozen=True)
class RoundResult:
    number: int
    dealer: str
    went_out: str
    buys: dict[str, int]
    results: dict[str, PlayerResult]
    record_id: int
    corrected: bool = False


@dataclass
class _Replay:
    buys: dict[int, Buy] = field(default_factory=dict)  # live buys by event id
    rounds: dict[int, RoundRecord] = field(default_factory=dict)  # latest record per round
    corrected: set[int] = field(default_factory=set)
    records: dict[int, Event] = field(default_factory=dict)  # every event by id


class Game:
    """The state of one game after replaying its events; every check raises GameError."""

    def __init__(self, setup: Setup, events: Iterable[Event] = (), game_id: int = 0) -> None:
        self.id = game_id  # the store's id; 0 for a game that is not stored
        self.setup = setup
        self.ruleset = setup.ruleset
        self.events = tuple(events)
        self._state = _Replay()
        self.rounds: list[RoundResult] = []
        for event in self.events:
            self._apply(event)
        self._score_all()

    # --- what the table sees ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def round_count(self) -> int:
        return len(self.ruleset.rounds)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.round_count

    @property
    def current_round(self) -> int | None:
        return None if self.finished else len(self.rounds) + 1

    @property
    def version(self) -> int:
        """Changes with every recorded event: a write based on an older one is stale."""
        return len(self.events)

    def round_rule(self, number: int) -> RoundRule:
        return self.ruleset.round(number)

    def buys_in_round(self, number: int) -> dict[str, int]:
        counts = dict.fromkeys(self.players, 0)
        for buy in self._state.buys.values():
            if buy.round == number:
                counts[buy.player] += 1
        return counts

    def buy_events(self) -> list[Buy]:
        return sorted(self._state.buys.values(), key=lambda buy: buy.id)

    def buys_used(self, player: str) -> int:
        return sum(1 for buy in self._state.buys.values() if buy.player == player)

    def buys_left(self, player: str) -> int | None:
        stack = self.ruleset.buys.stack if self.ruleset.buys else None
        return None if stack is None else stack - self.buys_used(player)

    def totals(self) -> dict[str, int]:
        totals = dict.fromkeys(self.players, 0)
        for result in self.rounds:
            for name, player_result in result.results.items():
                totals[name] += player_result.points
        return totals

    def running_totals(self) -> list[dict[str, int]]:
        """Each player's total after each round (for the scorepad and the chart)."""
        running, rows = dict.fromkeys(self.players, 0), []
        for result in self.rounds:
            running = {name: running[name] + result.results[name].points for name in self.players}
            rows.append(running)
        return rows

    def pennies_paid(self, player: str) -> int:
        buy_pennies = self.buys_used(player) * (self.ruleset.buys.pennies if self.ruleset.buys else 0)
        card_pennies = sum(result.results[player].pennies for result in self.rounds)
        return buy_pennies + card_pennies

    @property
    def bowl(self) -> int:
        return self.setup.carry_in + sum(self.pennies_paid(name) for name in self.players)

    def leaders(self) -> tuple[str, ...]:
        if not self.rounds:
            return ()
        return winners(self.totals(), lowest_wins=self.ruleset.winner == "lowest")

    def payout(self) -> Payout:
        """Who takes the bowl: nobody until the last round is recorded."""
        if not self.finished:
            return Payout((), {}, self.bowl)
        return split_bowl(self.bowl, self.leaders())

    def money(self, player: str) -> int:
        """What a player made this game: payout − buys − card pennies."""
        return self.payout().payouts.get(player, 0) - self.pennies_paid(player)

    # --- checks for new entries ---------------------------------------------------------

    def player_named(self, name: str) -> str:
        """The player's name as seated, matched ignoring case and spacing."""
        key = clean_name(name).casefold()
        for player in self.players:
            if player.casefold() == key:
                return player
        raise GameError(f"{name!r} is not playing in this game")

    def with_event(self, event: Event) -> Game:
        """The game after ``event``, or GameError saying why it cannot be recorded."""
        return Game(self.setup, (*self.events, event), self.id)

    # --- replay -------------------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        state = self._state
        if event.id in state.records:
            raise GameError(f"event {event.id} is recorded twice")
        if isinstance(event, Buy):
            self._check_buy(event)
            state.buys[event.id] = event
        elif isinstance(event, RoundRecord):
            self._check_round_number(event.round)
            if event.round in state.rounds:
                state.corrected.add(event.round)
            state.rounds[event.round] = event
            self._score(event)
        else:
            self._void(event)
        state.records[event.id] = event

    def _played(self) -> int:
        return len(self._state.rounds)

    def _check_buy(self, buy: Buy) -> None:
        rule = self.ruleset.buys
        if rule is None:
            raise GameError(f"there is no buying in {self.ruleset.name}", buy.player)
        if buy.player not in self.players:
            raise GameError(f"{buy.player!r} is not playing in this game")
        if self._played() == self.round_count and buy.round > self._played():
            raise GameError("the game is finished: no more buys", buy.player)
        if not 1 <= buy.round <= self._played() + 1:
            raise GameError(f"round {buy.round} has not started yet", buy.player)
        if buy.round < rule.first_round:
            raise GameError(
                f"buying starts in round {rule.first_round} in {self.ruleset.name}; this is round {buy.round}",
                buy.player,
            )
        used = sum(1 for b in self._state.buys.values() if b.player == buy.player)
        if rule.stack is not None and used >= rule.stack:
            raise GameError(
                f"{buy.player} has used all {rule.stack} buys of the game; an {ordinal(rule.stack + 1)} buy is refused",
                buy.player,
            )

    def _check_round_number(self, number: int) -> None:
        if number == self._played() + 1 and number > self.round_count:
            raise GameError(f"the game is finished: all {self.round_count} rounds are recorded")
        if not 1 <= number <= self._played() + 1:
            raise GameError(f"round {number} cannot be recorded: the next round is {self._played() + 1}")

    def _void(self, void: Void) -> None:
        state = self._state
        target = state.records.get(void.target)
        if isinstance(target, Buy) and void.target in state.buys:
            del state.buys[void.target]
            for record in state.rounds.values():
                self._score(record)  # a round may no longer be possible without that buy
        elif isinstance(target, RoundRecord) and state.rounds.get(target.round) == target:
            if target.round != self._played():
                raise GameError(
                    f"only the last round ({self._played()}) can be undone; correct round {target.round} instead"
                )
            del state.rounds[target.round]
            state.corrected.discard(target.round)
        else:
            raise GameError(f"there is nothing to undo for entry {void.target}")

    def _score(self, record: RoundRecord) -> dict[str, PlayerResult]:
        try:
            return score_round(
                self.ruleset,
                self.players,
                self.setup.decks,
                record.went_out,
                record.caught,
                self.buys_in_round(record.round),
            )
        except RoundError as error:
            raise GameError(f"round {record.round}: {error}", error.player) from None

    def _score_all(self) -> None:
        state = self._state
        self.rounds = [
            RoundResult(
                number=number,
                dealer=self.setup.dealer(number),
                went_out=record.went_out,
                buys=self.buys_in_round(number),
                results=self._score(record),
                record_id=record.id,
                corrected=number in state.corrected,
            )
            for number, record in sorted(state.rounds.items())
        ]

    # --- JSON ---------------------------------------------------------------------------

    def to_json(self) -> dict[str, object]:
        payout = self.payout()
        totals = self.totals()
        return {
            "id": self.id,
            "ruleset": self.ruleset.id,
            "round": self.current_round,
            "finished": self.finished,
            "version": self.version,
            "bowl": self.bowl,
            "penny_cents": self.setup.penny_cents,
            "decks": self.setup.decks,
            "players": [
                {
                    "name": name,
                    "seat": seat,
                    "points": totals[name],
                    "pennies_paid": self.pennies_paid(name),
                    "buys_left": self.buys_left(name),
                }
                for seat, name in enumerate(self.players, start=1)
            ],
            "rounds": [
                {
                    "number": result.number,
                    "dealer": result.dealer,
                    "went_out": result.went_out,
                    "corrected": result.corrected,
                    "buys": result.buys,
                    "results": {
                        name: {
                            "cards": format_hand(r.cards).split(),
                            "points": r.points,
                            "pennies": r.pennies,
                            "penalty": r.penalty,
                        }
                        for name, r in result.results.items()
                    },
                }
                for result in self.rounds
            ],
            "winners": list(payout.winners),
            "payouts": payout.payouts,
            "left_in_bowl": payout.left_in_bowl if self.finished else 0,
            "money": {name: self.money(name) for name in self.players} if self.finished else {},
        }


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def describe_round(setup: Setup, number: int) -> dict[str, object]:
    """Everything the dealer asks about a round, in table words."""
    rule = setup.ruleset.round(number)
    return {
        "number": number,
        "dealer": setup.dealer(number),
        "first_player": setup.first_player(number),
        "contract": rule.contract.describe() if rule.contract else None,
        "wilds": rule.describe_wilds(),
        "wild_limit": rule.describe_limit(),
        "decks": plural(setup.decks, "deck"),
        "jokers": setup.decks * setup.ruleset.decks.jokers_per_deck,
        "deal": setup.ruleset.cards_dealt,
    }
