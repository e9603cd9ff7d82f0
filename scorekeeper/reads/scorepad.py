"""The scorepad's cells in table words, worked out once in Python for the screen and the printed
sheet (a Jinja macro per cell cost a third of a game page's time)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..rules.books import SideResult
from ..rules.game import Game, RoundResult
from ..rules.ledger import minus
from ..rules.scoring import PlayerResult
from ..rules.wording import plural


@dataclass(frozen=True)
class Cell:
    """One competitor's cell of one round."""

    points: str  # this round's points (the templates show "—" for a nil cell)
    running: str  # the running total after the round
    details: tuple[str, ...]  # the small print, a line each
    leader: bool
    out: bool
    nil: bool  # went out with no points
    penalty: bool  # buy penalty points in this round
    dealer_mark: str  # "D" (dealt) or "1st" (played first, by sides) on the screen, else ""
    dealer_title: str

    def printed_below(self, by_sides: bool, room_mm: float) -> tuple[str, ...]:
        """The printed cell's small print, a line each (cells never wrap): its parts (pennies, buys, a
        penalty, the running total last) share a line while they fit the column's room."""
        if by_sides:
            return (*self.details, self.running)
        parts = [part for line in self.details for part in line.split(" · ")] + [self.running]
        lines = [parts[0]]
        for part in parts[1:]:
            longer = f"{lines[-1]} · {part}"
            if printed_width_mm(longer) <= room_mm:
                lines[-1] = longer
            else:
                lines.append(part)
        return tuple(lines)


# The printed sheet's small print: DejaVu Sans at 7.5 pt. Advance widths in ems of the characters a
# cell's small print uses (tests/test_printing.py checks them against the font); a letter counts as
# the widest lower-case letter these words hold.
SMALL_PRINT_PT = 7.5
EM_WIDTHS = {" ": 0.318, ".": 0.318, "·": 0.318, "+": 0.838, "−": 0.838} | dict.fromkeys("0123456789", 0.636)
LETTER_EM = 0.635
MM_PER_PT = 25.4 / 72


def printed_width_mm(text: str) -> float:
    return sum(EM_WIDTHS.get(char, LETTER_EM) for char in text) * SMALL_PRINT_PT * MM_PER_PT


def cell_details(game: Game, result: RoundResult, name: str, out: bool) -> tuple[str, ...]:
    """The small print of a cell: books and the side's score parts, or pennies, buys and penalty."""
    r = result.results[name]
    if isinstance(r, SideResult):
        books = r.books
        return (
            f"{'out · ' if out else ''}books {books['natural']}/{books['mixed']}/{books['sevens']}/{books['wild']}"
            f" · red 3s {r.red_threes}",
            f"+{r.bonus} bonus +{r.melded} melded −{r.deducted}",
        )
    words = ["out"] if out and r.points else []  # out with a buy penalty: no "—" says so
    if game.ruleset.is_penny_game and r.pennies:
        words.append(f"{r.pennies} p")  # a count of pennies (the legend says so), never cents
    buys = result.buys.get(name, 0)
    if buys:
        words.append(plural(buys, "buy"))
    if r.penalty:
        words.append(f"+{r.penalty} pen.")
    if r.bonus:
        words.append("at once")  # down and out in one turn: the bonus the points show
    if r.cut_bonus:
        words.append("cut")  # cut the deck exactly: the bonus the points show
    return (" · ".join(words),) if words else ()


def went_out(result: RoundResult, name: str) -> bool:
    r = result.results[name]
    return r.went_out if isinstance(r, SideResult) else name == result.went_out


def round_cells(
    game: Game,
    result: RoundResult,
    running: Sequence[Mapping[str, int]],
    leaders: Sequence[str],
    mark_dealer: bool = False,
) -> list[Cell]:
    """A round's cells in competitor order; ``mark_dealer``: mark who dealt (who played first, by
    sides) in the cell, as the screen does (the printed sheet has a column for it)."""
    by_sides = game.ruleset.by_sides
    dealt = game.setup.first_player(result.number) if by_sides else game.setup.dealer(result.number)
    dealt_side = game.side_of(dealt) if mark_dealer else None
    title = f"{'played first' if by_sides else 'dealt'}: {dealt}"
    cells = []
    for name in game.competitors:
        r: PlayerResult | SideResult = result.results[name]
        out = went_out(result, name)
        marked = name == dealt_side
        cells.append(
            Cell(
                points=minus(r.points),
                running=minus(running[result.number - 1][name]),
                details=cell_details(game, result, name, out),
                leader=name in leaders,
                out=out,
                nil=out and r.points == 0,
                penalty=bool(r.penalty),
                dealer_mark=("1st" if by_sides else "D") if marked else "",
                dealer_title=title if marked else "",
            )
        )
    return cells
