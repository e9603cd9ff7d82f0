"""A game of a contract ruleset, derived by replaying what happened at the table.

The table's actions are an append-only list of events (buys, round results, corrections,
undos). ``Game`` replays them in order and checks each one as it goes, so the same code
answers "what is the score?" and "may this be recorded?": a new event is accepted exactly
when ``Game(setup, events + [event])`` replays without error.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .books import SideEntry, SideResult, board_minimum, score_as_entered, score_hand, side_name
from .cards import Card
from .ledger import Payout, Standing, split_bowl, standings, winners
from .rulesets import BuyRule, RoundRule
from .scoring import PlayerResult, RoundError, next_buy_penalty, score_round
from .setup import GameError, Setup, name_key
from .wording import listed, ordinal, plural

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
    at_once: bool = False  # the player who went out went down and out in one turn
    cut_exactly: str | None = None  # the player who cut the deck exactly for the deal


@dataclass(frozen=True)
class HandRecord:
    """A hand's result in a game played by sides (Pennies From Heaven); a later one corrects it."""

    id: int
    round: int
    went_out: str | None
    sides: tuple[SideEntry, ...]


@dataclass(frozen=True)
class Void:
    """Undoes a buy, or the last round played."""

    id: int
    target: int


Event = Buy | RoundRecord | HandRecord | Void
Record = RoundRecord | HandRecord


@dataclass(frozen=True)
class RoundResult:
    number: int
    dealer: str
    went_out: str | None
    buys: dict[str, int]
    results: dict[str, PlayerResult | SideResult]  # by player, or by side in a books game
    record_id: int
    corrected: bool = False


@dataclass(frozen=True)
class SeatSummary:
    """One seat's game in numbers, for history and the leaderboard."""

    seat: int
    rounds: int
    points: int  # the seat's side's total
    won: bool
    finished: bool
    money: int  # what the game paid them so far, in pennies
    best_round: int | None  # by the ruleset's measure: lowest points when lowest wins
    worst_round: int | None
    place: int  # the seat's side's place (1 for the leader; equal totals share it)
    went_out: int  # rounds (hands) this player went out
    buys: int
    caught: tuple[int, ...]  # cards caught in hand, round by round (a card game; () for books)


@dataclass
class _Replay:
    buys: dict[int, Buy] = field(default_factory=dict)  # live buys by event id
    rounds: dict[int, Record] = field(default_factory=dict)  # latest record per round
    corrected: set[int] = field(default_factory=set)
    records: dict[int, Event] = field(default_factory=dict)  # every event by id
    undone: set[int] = field(default_factory=set)  # ids of the undos in force (that can be put back)
    # Each round's results as last scored, with the buys they were scored with.
    scored: dict[int, tuple[dict[str, int], dict[str, PlayerResult | SideResult]]] = field(default_factory=dict)
    # The live buys counted by player and by (round, player), kept with ``buys``, so that no check
    # counts every buy again (loading a game stays linear in its entries).
    by_player: Counter[str] = field(default_factory=Counter)
    by_round: Counter[tuple[int, str]] = field(default_factory=Counter)

    def add_buy(self, buy: Buy) -> None:
        self.buys[buy.id] = buy
        self.by_player[buy.player] += 1
        self.by_round[buy.round, buy.player] += 1

    def remove_buy(self, buy_id: int) -> None:
        buy = self.buys.pop(buy_id)
        self.by_player[buy.player] -= 1
        self.by_round[buy.round, buy.player] -= 1

    def copy(self) -> _Replay:
        return _Replay(
            buys=dict(self.buys),
            rounds=dict(self.rounds),
            corrected=set(self.corrected),
            records=dict(self.records),
            undone=set(self.undone),
            scored=dict(self.scored),
            by_player=Counter(self.by_player),
            by_round=Counter(self.by_round),
        )


class Game:
    """The state of one game after replaying its events; every check raises GameError."""

    def __init__(
        self,
        setup: Setup,
        events: Iterable[Event] = (),
        game_id: int = 0,
        version: int | None = None,
        tolerant: bool = False,
    ) -> None:
        """The game after ``events``; GameError for the first one the rules refuse, unless
        ``tolerant`` (a stored history): then that entry is passed over and kept in ``problems``."""
        self.id = game_id  # the store's id; 0 for a game that is not stored
        self.setup = setup
        self.ruleset = setup.ruleset
        self.events = tuple(events)
        # Changes with every recorded event (and, for a stored game, with every change of its carry):
        # a write based on an older version is stale.
        self.version = len(self.events) if version is None else version
        # Stored entries the rules refuse (an impossible history, from before writes were checked
        # under the write lock), each with why: the game is shown without them.
        self.problems: tuple[tuple[int, str], ...] = ()
        self._running: list[dict[str, int]] | None = None
        self._payout: Payout | None = None
        try:
            self._replay(strict=True)
        except GameError:
            if not tolerant:
                raise
            self._replay(strict=False)
        self._score_all()

    def _replay(self, strict: bool) -> None:
        self._state = _Replay()
        self.rounds: list[RoundResult] = []
        problems = []
        for event in self.events:
            if strict:
                self._apply(event)
                continue
            before = self._state.copy()
            try:
                self._apply(event)
            except GameError as error:
                self._state = before
                problems.append((event.id, str(error)))
        self.problems = tuple(problems)

    # --- what the table sees ------------------------------------------------------------

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def competitors(self) -> tuple[str, ...]:
        return self.setup.competitors

    @property
    def round_count(self) -> int:
        return len(self.ruleset.rounds)

    @property
    def finished(self) -> bool:
        return len(self.rounds) == self.round_count

    @property
    def current_round(self) -> int | None:
        return None if self.finished else len(self.rounds) + 1

    def record(self, number: int) -> Record:
        """The entry in force for a recorded round (the latest correction)."""
        return self._state.rounds[number]

    def round_rule(self, number: int) -> RoundRule:
        return self.ruleset.round(number)

    def buys_in_round(self, number: int) -> dict[str, int]:
        by_round = self._state.by_round
        return {player: by_round[number, player] for player in self.players}

    def next_buy_penalty(self, player: str, number: int) -> int:
        """Penalty points a further buy by `player` in round `number` would cost."""
        return next_buy_penalty(self.ruleset, self.buys_in_round(number)[player])

    def buys_used(self, player: str) -> int:
        return self._state.by_player[player]

    def buys_left(self, player: str) -> int | None:
        stack = self.ruleset.buys.stack if self.ruleset.buys else None
        return None if stack is None else stack - self.buys_used(player)

    def totals(self) -> dict[str, int]:
        """Each competitor's total (a player's, or a side's in a books game)."""
        return self.running_totals()[-1] if self.rounds else dict.fromkeys(self.competitors, 0)

    def running_totals(self) -> list[dict[str, int]]:
        """Each competitor's total after each round (for the scorepad and the chart)."""
        if self._running is None:
            running, rows = dict.fromkeys(self.competitors, 0), []
            for result in self.rounds:
                running = {name: running[name] + result.results[name].points for name in self.competitors}
                rows.append(running)
            self._running = rows
        return self._running

    def buy_pennies(self, player: str) -> int:
        return self.buys_used(player) * (self.ruleset.buys.pennies if self.ruleset.buys else 0)

    def card_pennies(self, player: str) -> int:
        return sum(result.results[player].pennies for result in self.rounds if player in result.results)

    def pennies_paid(self, player: str) -> int:
        return self.buy_pennies(player) + self.card_pennies(player)

    @property
    def bowl(self) -> int:
        return self.setup.carry_in + sum(self.pennies_paid(name) for name in self.players)

    def leaders(self) -> tuple[str, ...]:
        if not self.rounds:
            return ()
        return winners(self.totals(), lowest_wins=self.ruleset.winner.lowest_wins)

    def standings(self) -> tuple[Standing, ...]:
        """Competitors from first to last, with the points each is behind the leader."""
        return standings(self.totals(), lowest_wins=self.ruleset.winner.lowest_wins)

    def payout(self) -> Payout:
        """Who takes the bowl: nobody until the last round is recorded (and nothing is left over)."""
        if self._payout is None:
            self._payout = split_bowl(self.bowl, self.leaders()) if self.finished else Payout((), {}, 0)
        return self._payout

    @property
    def carry_out(self) -> int:
        """Pennies a tie leaves in the bowl for the next game that plays for one; 0 until the game ends."""
        return self.payout().left_in_bowl

    def seat_summary(self, seat: int) -> SeatSummary:
        name = self.players[seat]
        side = self.side_of(name)
        scores = [result.results[side].points for result in self.rounds]
        low, high = (min(scores), max(scores)) if scores else (None, None)
        return SeatSummary(
            seat=seat,
            rounds=len(scores),
            points=self.totals()[side],
            won=self.finished and side in self.payout().winners,
            finished=self.finished,
            money=self.money(name),
            best_round=self.ruleset.winner.best_of(low, high),
            worst_round=self.ruleset.winner.worst_of(low, high),
            place=next((s.rank for s in self.standings() if s.name == side), 1),
            went_out=sum(1 for result in self.rounds if result.went_out == name),
            buys=self.buys_used(name),
            caught=tuple(
                len(entry.cards) for result in self.rounds if isinstance(entry := result.results[side], PlayerResult)
            ),
        )

    def money(self, player: str) -> int:
        """What a player made this game: payout − buys − card pennies."""
        return self.payout().payouts.get(player, 0) - self.pennies_paid(player)

    def money_cents(self, player: str) -> int:
        """The same in cents, at this game's penny value: the one place a player's money is counted."""
        return self.money(player) * self.setup.penny_cents

    def board_minimums(self) -> dict[str, int]:
        """Books game: what each side needs to get on the board in the current hand."""
        if self.current_round is None or not self.ruleset.by_sides:
            return {}
        totals = self.totals()
        return {name: board_minimum(self.ruleset, self.current_round, totals[name]) for name in self.competitors}

    # --- checks for new entries ---------------------------------------------------------

    def player_named(self, name: str) -> str:
        """The player's name as seated, matched ignoring case and spacing."""
        key = name_key(name)
        for player in self.players:
            if name_key(player) == key:
                return player
        raise GameError(f"{name!r} is not playing in this game")

    def with_event(self, event: Event) -> Game:
        """The game after ``event``, or GameError saying why it cannot be recorded.

        The same as replaying every event again (``Game(setup, events + [event])``), but it
        starts from this game's replay and applies just the new event.
        """
        after = Game(self.setup, (), self.id, self.version + 1)
        after.events = (*self.events, event)
        after.problems = self.problems
        after._state = self._state.copy()
        after._apply(event)
        after._score_all()
        return after

    # --- replay -------------------------------------------------------------------------

    def _apply(self, event: Event) -> None:
        state = self._state
        if event.id in state.records:
            raise GameError(f"event {event.id} is recorded twice")
        if isinstance(event, Buy):
            self._check_buy(event)
            state.add_buy(event)
        elif isinstance(event, (RoundRecord, HandRecord)):
            self._check_record_kind(event)
            self._check_round_number(event.round)
            if event.round in state.rounds:
                state.corrected.add(event.round)
            state.rounds[event.round] = event
            self._score_and_keep(event)
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
        self._check_stock(buy, rule)
        used = self._state.by_player[buy.player]
        if rule.stack is not None and used >= rule.stack:
            raise GameError(
                f"{buy.player} has used all {rule.stack} buys of the game; an {ordinal(rule.stack + 1)} buy is refused",
                buy.player,
            )
        this_round = self._state.by_round[buy.round, buy.player]
        most = self.ruleset.most_buys(buy.round)
        if most is not None and this_round >= most:
            raise GameError(
                f"{buy.player} has made {plural(most, 'buy')} in round {buy.round}, the most a round allows; "
                "another buy is refused",
                buy.player,
            )

    def _check_stock(self, buy: Buy, rule: BuyRule) -> None:
        """docs/rules.md: all players' buys in one round take at most the cards left after the deal."""
        cards = rule.cards  # each buy takes this many from what the deal left (at least 1: rulesets.py)
        in_decks = self.setup.decks * 52 + self.setup.jokers
        allowed = max(in_decks - self.ruleset.dealt(buy.round) * len(self.players), 0) // cards
        taken = sum(self._state.by_round[buy.round, player] for player in self.players)
        if taken >= allowed:
            raise GameError(
                f"the stock is used up: the {allowed} buys of round {buy.round} took every card left after "
                f"the deal ({cards} a buy); another buy is refused",
                buy.player,
            )

    def _check_record_kind(self, record: Record) -> None:
        books_game = self.ruleset.by_sides
        if books_game != isinstance(record, HandRecord):
            raise GameError(
                f"{self.ruleset.name} is scored {'by sides, books and threes' if books_game else 'by cards caught'}"
            )

    def _check_round_number(self, number: int) -> None:
        if number == self._played() + 1 and number > self.round_count:
            raise GameError(f"the game is finished: all {self.round_count} rounds are recorded")
        if not 1 <= number <= self._played() + 1:
            raise GameError(f"round {number} cannot be recorded: the next round is {self._played() + 1}")

    def _void(self, void: Void) -> None:
        state = self._state
        target = state.records.get(void.target)
        if isinstance(target, Void):
            self._put_back(target)
        elif isinstance(target, Buy) and void.target in state.buys:
            state.remove_buy(void.target)
            for record in state.rounds.values():
                self._score_and_keep(record)  # a round may no longer be possible without that buy
            state.undone.add(void.id)
        elif isinstance(target, (RoundRecord, HandRecord)) and state.rounds.get(target.round) == target:
            if target.round != self._played():
                raise GameError(
                    f"only the last round ({self._played()}) can be undone; correct round {target.round} instead"
                )
            del state.rounds[target.round]
            state.corrected.discard(target.round)
            state.undone.add(void.id)
        else:
            raise GameError(f"there is nothing to undo for entry {void.target}")

    def _put_back(self, undo: Void) -> None:
        """Undo an undo: the entry it took back counts again, if it still can."""
        state = self._state
        if undo.id not in state.undone:
            raise GameError(f"entry {undo.id} is not an undo in force: there is nothing to put back")
        entry = state.records[undo.target]
        if isinstance(entry, Buy):
            self._check_buy(entry)
            state.add_buy(entry)
            for record in state.rounds.values():
                self._score_and_keep(record)
        elif isinstance(entry, (RoundRecord, HandRecord)):
            if entry.round != self._played() + 1:
                raise GameError(
                    f"{self.ruleset.round_word} {entry.round} cannot be put back: "
                    f"the next {self.ruleset.round_word} is {self._played() + 1}"
                )
            state.rounds[entry.round] = entry
            self._score_and_keep(entry)
        state.undone.discard(undo.id)

    def undoable_entries(self) -> set[int]:
        """The entries an undo can take back now: each buy in force, and the last round's entry in force."""
        last = self._state.rounds.get(self._played())
        return set(self._state.buys) | ({last.id} if last is not None else set())

    def undone_entries(self) -> set[int]:
        """The undos in force: each can be put back (an undo of the undo)."""
        return set(self._state.undone)

    def _score_and_keep(self, record: Record) -> dict[str, PlayerResult | SideResult]:
        results = self._score(record)
        self._state.scored[record.round] = (self.buys_in_round(record.round), results)
        return results

    def _results(self, number: int, record: Record) -> dict[str, PlayerResult | SideResult]:
        """A round's results, scored again only if its buys changed since (a hand of a books
        game always: its board minimum depends on the hands before it)."""
        kept = self._state.scored.get(number)
        if kept is not None and isinstance(record, RoundRecord) and kept[0] == self.buys_in_round(number):
            return kept[1]
        return self._score_and_keep(record)

    def _score(self, record: Record) -> dict[str, PlayerResult | SideResult]:
        try:
            if isinstance(record, HandRecord):
                return dict(self._score_hand(record))
            return dict(
                score_round(
                    self.ruleset,
                    self.players,
                    self.setup.decks,
                    record.went_out,
                    record.caught,
                    self.buys_in_round(record.round),
                    record.round,
                    record.at_once,
                    record.cut_exactly,
                )
            )
        except RoundError as error:
            raise GameError(f"{self.ruleset.round_word} {record.round}: {error}", error.player, error.box) from None

    def _score_hand(self, record: HandRecord) -> dict[str, SideResult]:
        entries = {side.name: side for side in record.sides}
        for side in self.setup.sides:
            name = side_name(side)
            if name not in entries or entries[name].players != side:
                raise RoundError(f"enter the hand for the side {name}", side[0])
            entry = entries[name]
            missing = [
                p for p in side if p not in entry.hands and p not in entry.hand_points and record.went_out not in side
            ]
            if missing:
                raise RoundError(f"enter the cards left in hand for {listed(missing)} (empty is allowed)", missing[0])
        if len(entries) != len(self.setup.sides):
            raise RoundError("one of the sides entered is not a side of this game")
        totals = dict.fromkeys(self.competitors, 0)
        for number, earlier in sorted(self._state.rounds.items()):
            if number < record.round and isinstance(earlier, HandRecord):
                for name, result in self._score_hand(earlier).items():
                    totals[name] += result.points
        ordered = tuple(entries[side_name(side)] for side in self.setup.sides)
        return score_hand(self.ruleset, record.round, ordered, record.went_out, totals)

    def _score_all(self) -> None:
        state = self._state
        self.rounds = [
            RoundResult(
                number=number,
                dealer=self.setup.dealer(number),
                went_out=record.went_out,
                buys=self.buys_in_round(number),
                results=self._results(number, record),
                record_id=record.id,
                corrected=number in state.corrected,
            )
            for number, record in sorted(state.rounds.items())
        ]

    def hand_as_entered(self, record: HandRecord) -> dict[str, SideResult]:
        """Each side's score for a hand being entered, side by side, while the hand as a whole may not
        pass its checks yet (the live totals of the form: a side entered in full shows its score)."""
        scored = {
            side.name: score_as_entered(self.ruleset, side, record.went_out in side.players) for side in record.sides
        }
        return {name: result for name, result in scored.items() if result is not None}

    def totals_before(self, number: int) -> dict[str, int]:
        """Each competitor's total before round (or hand) ``number``."""
        return self.running_totals()[number - 2] if number > 1 else dict.fromkeys(self.competitors, 0)

    def side_of(self, player: str) -> str:
        return next(side_name(side) for side in self.setup.sides if player in side)
