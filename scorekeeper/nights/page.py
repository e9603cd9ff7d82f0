"""The night page's words, made here and tested in Python (plurals, money, who pays whom); the
template only lays them out. Built from the night's report, what is still owed and who asks."""

from __future__ import annotations

from dataclasses import dataclass

from ..reads.night_report import NightReport, party_label
from ..rules.game import Game
from ..rules.ledger import Payment, format_cents, signed_cents
from ..rules.wording import listed, plural
from ..store.rows import PaymentRow
from ..web.words import local_clock


def pennies(count: int) -> str:
    return plural(count, "penny", "pennies")


def changes(moved: dict[str, int]) -> tuple[str, ...]:
    """Who moved by how much, one item each ("Ann +$0.05"; the bowl as "the bowl")."""
    return tuple(f"{party_label(name)} {signed_cents(change)}" for name, change in moved.items())


@dataclass(frozen=True)
class GameLine:
    """One game of the night in its list: what it is, how far it got, and what happened to its money."""

    game_id: int
    title: str  # "Game 3 · Ten Pennies"
    details: str  # "won by Ann · 5¢ a penny · 3 pennies carried in"
    moved: tuple[str, ...]  # a correction after the end: who moved by how much
    moved_end: str  # how the nets below count that correction
    leftovers: tuple[str, ...]  # where a tie's odd pennies went, a sentence each
    note: str


def game_details(game: Game) -> str:
    if game.finished:
        parts = [f"won by {listed(list(game.payout().winners))}"]
    else:
        parts = [f"{len(game.rounds)} of {game.round_count} played"]
    penny_game = game.ruleset.is_penny_game
    if penny_game and game.setup.penny_cents != 1:
        parts.append(f"{game.setup.penny_cents}¢ a penny")
    if game.setup.carry_in:
        parts.append(f"{pennies(game.setup.carry_in)} carried in")
    if penny_game and not game.finished:
        in_bowl = format_cents(game.bowl * game.setup.penny_cents)
        parts.append(f"in play: {pennies(game.bowl)} ({in_bowl}) in its bowl")
    return " · ".join(parts)


def game_line(report: NightReport, game: Game) -> GameLine:
    leftovers = []
    for lo in report.leftovers_by_game.get(game.id, ()):
        one = lo.pennies == 1
        if lo.into:
            went = f"{'was' if one else 'were'} carried {lo.why}"
        elif lo.waiting:
            went = f"{'waits' if one else 'wait'} for the night's next game that plays for a bowl"
        else:
            went = f"{'stays' if one else 'stay'} there: {lo.why}"
        cents = format_cents(lo.pennies * lo.penny_cents)
        leftovers.append(f"{pennies(lo.pennies)} ({cents}) left in its bowl by the tie {went}.")
    on_paper = report.money.on_paper
    return GameLine(
        game_id=game.id,
        title=f"Game {game.id} · {game.ruleset.name}",
        details=game_details(game),
        moved=changes(report.moved_games.get(game.id, {})),
        moved_end="; the nets below count it."
        if on_paper
        else " (the nets below count it as if it had been right all along).",
        leftovers=tuple(leftovers),
        note=report.game_notes.get(game.id, ""),
    )


def in_play(report: NightReport) -> str:
    """ "Game 4 is still in play: it counts once it ends." (every game still in play, one sentence)."""
    return ", ".join(f"Game {game.id} is still in play: it counts once it ends" for game in report.in_play) + (
        "." if report.in_play else ""
    )


def check(report: NightReport) -> str:
    """The line under the nets that says every cent is accounted for (or that something is wrong)."""
    if not report.balanced():
        return "✘ The nets and the bowls do not add up: please report this."
    in_bowl = f", and {format_cents(report.in_bowls)} is still in a bowl" if report.in_bowls else ""
    return f"✔ Every cent accounted for: the nets add up to {signed_cents(sum(report.nets.values()))}{in_bowl}."


def paid_at_the_table(report: NightReport) -> str:
    stays = f"; {format_cents(report.in_bowls)} stays in a bowl" if report.in_bowls else ""
    return (
        "The bowls were paid out at the table after each game: nobody owes anybody anything. The nets above are "
        f"what each player won or lost tonight{stays}."
    )


def kept_payments(made: list[Payment]) -> str:
    """At the table, the payments marked while the night was on paper, which are kept."""
    if not made:
        return ""
    said = [f"{party_label(p.from_player)} paid {party_label(p.to_player)} {format_cents(p.cents)}" for p in made]
    return f"Payments marked paid while the night was on paper are kept: {', '.join(said)}."


@dataclass(frozen=True)
class PaymentMade:
    """A payment marked paid (or taken back), with the button that changes it."""

    payer: str
    payee: str
    amount: str
    undone: bool
    at: str  # the server's clock, when it was marked
    payment_id: int
    button: str
    undone_value: str  # what the button sends

    @staticmethod
    def of(row: PaymentRow) -> PaymentMade:
        undone = bool(row["undone_at"])
        return PaymentMade(
            payer=party_label(row["payer"]),
            payee=party_label(row["payee"]),
            amount=format_cents(row["cents"]),
            undone=undone,
            at=local_clock(row["made_at"]),
            payment_id=row["id"],
            button="Paid after all" if undone else "Not paid after all",
            undone_value="0" if undone else "1",
        )


@dataclass(frozen=True)
class Owed:
    """A payment still owed: who, to whom, how much, and what the Mark paid button sends."""

    payer: str  # said: a name, or "The bowl"
    payee: str  # said; empty when the money goes into the bowl
    amount: str
    into_the_bowl: bool  # a tie's odd pennies that stay in the bowl
    from_the_bowl: bool
    cents: int
    payer_field: str  # "player:Ann" or "bowl"
    payee_field: str
    label: str  # what the outbox says while it waits

    @staticmethod
    def of(payment: Payment) -> Owed:
        def field(party: str) -> str:
            return f"player:{party}" if party else "bowl"

        return Owed(
            payer=payment.from_player or "The bowl",
            payee=payment.to_player,
            amount=format_cents(payment.cents),
            into_the_bowl=not payment.to_player,
            from_the_bowl=not payment.from_player,
            cents=payment.cents,
            payer_field=field(payment.from_player),
            payee_field=field(payment.to_player),
            label=f"{party_label(payment.from_player)} paid {party_label(payment.to_player)}",
        )


def how_settled(keeper: str | None) -> str:
    return (
        f"Everyone settles with {keeper}, the bowl-keeper."
        if keeper
        else "The fewest payments that settle what is left."
    )


def nobody_owes(made: list[Payment]) -> str:
    return "Nobody owes anybody anything" + (": the payments made settle the night." if made else ".")


def lock_words(locked: bool, can_write: bool) -> str:
    """The line at the foot of a locked night: empty when the night has no PIN."""
    if not locked:
        return ""
    if can_write:
        return "Unlocked on this device: the night is locked with the scorekeeper's PIN."
    return "Locked with the scorekeeper's PIN: its games, new games in it and closing it need the PIN."


@dataclass(frozen=True)
class NightPage:
    """Everything the night page says, made once for the template."""

    games: tuple[GameLine, ...]
    in_play: str
    check: str
    paid_at_the_table: str
    kept_payments: str
    moved_since_payment: tuple[str, ...]
    payments_made: tuple[PaymentMade, ...]
    owed: tuple[Owed, ...]
    how_settled: str
    nobody_owes: str
    lock_words: str
    any_finished: bool


def night_page(
    report: NightReport, still: list[Payment], keeper: str | None, locked: bool, can_write: bool
) -> NightPage:
    made = report.made
    on_paper = report.money.on_paper
    return NightPage(
        games=tuple(game_line(report, game) for game in report.games),
        in_play=in_play(report),
        check=check(report),
        paid_at_the_table="" if on_paper else paid_at_the_table(report),
        kept_payments="" if on_paper else kept_payments(made),
        moved_since_payment=changes(report.moved_since_last_payment()) if on_paper else (),
        payments_made=tuple(PaymentMade.of(row) for row in report.payment_rows) if on_paper else (),
        owed=tuple(Owed.of(payment) for payment in still),
        how_settled=how_settled(keeper),
        nobody_owes=nobody_owes(made),
        lock_words=lock_words(locked, can_write),
        any_finished=any(game.finished for game in report.games),
    )
