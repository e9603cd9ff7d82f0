"""The results card of a finished game (issue 44): the standings, who won, each player's money and the
bowl, as lines a chat can show (the PNG on the game page and its plain text beside it). Pure: the same
card is drawn as an image and written as text, and a test compares its figures with the game's."""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .ledger import format_cents, signed_cents
from .wording import listed, plural


@dataclass(frozen=True)
class ResultsCard:
    title: str  # "Game 7 · Ten Pennies"
    headline: str  # "Ann wins the bowl: 20 pennies ($0.20)"
    columns: tuple[str, ...]  # the table's heads
    rows: tuple[tuple[str, ...], ...]  # first to last
    notes: tuple[str, ...] = ()  # what else the table wants to know (a bowl left over, payments)

    def text(self) -> str:
        """The card as plain text, for a chat that shows no image (copied with one tap)."""
        lines = [self.title, self.headline, ""]
        lines += ["  ".join(cell for cell in row if cell) for row in self.rows]
        if self.notes:
            lines += ["", *self.notes]
        return "\n".join(lines) + "\n"


def game_card(game: Game, when: str = "") -> ResultsCard:
    """A finished game's card; a game still in play says where it stands."""
    ruleset = game.ruleset
    title = f"Game {game.id} · {ruleset.name}" + (f" · {when}" if when else "")
    payout = game.payout()
    totals = game.totals()
    if game.finished:
        winners = listed(list(payout.winners))
        # "Ann and Cy win", and a side of two as well: "Ann & Cy win" (issue 60).
        several = len(payout.winners) > 1 or len(game.setup.side_players(payout.winners[0])) > 1
        verb = "win" if several else "wins"
        if ruleset.is_penny_game:
            taken = game.bowl - payout.left_in_bowl  # what stays in the bowl is not won: said as a note
            money_taken = format_cents(taken * game.setup.penny_cents)
            if payout.left_in_bowl:
                headline = (
                    f"{winners} {verb} {taken} of the bowl's {plural(game.bowl, 'penny', 'pennies')} ({money_taken})"
                )
            else:
                headline = f"{winners} {verb} the bowl: {plural(game.bowl, 'penny', 'pennies')} ({money_taken})"
        else:
            headline = f"{winners} {verb} with {plural(totals[payout.winners[0]], 'point')}"
    else:
        headline = f"After {plural(len(game.rounds), ruleset.round_word)} of {len(ruleset.rounds)}"
    money = ruleset.is_penny_game and game.finished
    columns = ("", "Player", "Points", "Money") if money else ("", "Player", "Points")
    rows: list[tuple[str, ...]] = []
    for standing in game.standings():
        row: tuple[str, ...] = (f"{standing.rank}.", standing.name, str(totals[standing.name]))
        if money:
            members = game.setup.side_players(standing.name)
            row += (signed_cents(sum(game.money_cents(name) for name in members)),)
        rows.append(row)
    notes = []
    if money and payout.left_in_bowl:
        left = payout.left_in_bowl
        stays = "stays" if left == 1 else "stay"
        notes.append(f"{plural(left, 'penny', 'pennies')} {stays} in the bowl for the next game.")
    return ResultsCard(title, headline, columns, tuple(rows), tuple(notes))
