"""Ledger arithmetic in whole pennies: who wins, how a bowl is split, what each player made."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum


class MoneyMode(StrEnum):
    """How a night's money moves (docs/rules.md): pennies into the bowl and out of it at the table as the
    games go, so nothing is owed after a game; or on paper, settled in the fewest payments at the end."""

    TABLE = "table"
    PAPER = "paper"

    @property
    def label(self) -> str:
        """As a sentence says it: "money with pennies on the table"."""
        return "with pennies on the table" if self is MoneyMode.TABLE else "on paper"

    @property
    def on_paper(self) -> bool:
        """Money is owed until paid: the night keeps what was paid and what is still owed."""
        return self is MoneyMode.PAPER

    @property
    def settled(self) -> str:
        """How the night's money was settled, as its summary says it."""
        if self is MoneyMode.TABLE:
            return "the bowls were paid out after each game, so nobody owes anything"
        return "settled with the payments below"

    @property
    def choice(self) -> str:
        """As the choice on a form says it."""
        if self is MoneyMode.TABLE:
            return "Pennies on the table (the bowl is paid out after each game)"
        return "On paper (settle at the end)"

    @classmethod
    def parse(cls, text: str, what: str = "money") -> MoneyMode:
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"{what} is one of {', '.join(repr(m.value) for m in cls)}, not {text!r}") from None


@dataclass(frozen=True)
class Payout:
    winners: tuple[str, ...]
    payouts: dict[str, int]  # pennies each winner takes from the bowl
    left_in_bowl: int  # pennies a tie could not split: they carry into the next game


def winners(totals: Mapping[str, int], lowest_wins: bool) -> tuple[str, ...]:
    """The players with the best total, in the order ``totals`` lists them (seat order)."""
    if not totals:
        return ()
    best = min(totals.values()) if lowest_wins else max(totals.values())
    return tuple(name for name, total in totals.items() if total == best)


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 for the leader; equal totals share a rank and the next rank is skipped ("1, 1, 3")
    name: str
    total: int
    behind: int  # points between this total and the leader's: 0 for the leader(s)


def standings(totals: Mapping[str, int], lowest_wins: bool) -> tuple[Standing, ...]:
    """Everyone from first to last; equal totals keep the order ``totals`` lists them (seat order)."""
    ordered = sorted(totals.items(), key=lambda item: item[1] if lowest_wins else -item[1])
    result: list[Standing] = []
    for place, (name, total) in enumerate(ordered, start=1):
        tied = bool(result) and result[-1].total == total
        rank = result[-1].rank if tied else place
        behind = abs(total - ordered[0][1])
        result.append(Standing(rank, name, total, behind))
    return tuple(result)


def split_bowl(bowl: int, winning: tuple[str, ...]) -> Payout:
    """Split the bowl evenly among the winners; the pennies that cannot be split stay in it."""
    if bowl < 0:
        raise ValueError(f"a bowl cannot hold {bowl} pennies")
    if not winning:
        return Payout((), {}, bowl)
    share, left = divmod(bowl, len(winning))
    return Payout(winning, {name: share for name in winning}, left)


def minus(number: int) -> str:
    """A score as printed: below zero with the minus sign of signed() and format_money ("−350")."""
    return f"−{-number}" if number < 0 else str(number)


def signed(number: int) -> str:
    """+9 / −9 with the same minus sign as format_money ("−$0.09"), not a hyphen."""
    return f"+{number}" if number > 0 else minus(number)


def format_cents(cents: int) -> str:
    """The one way an amount of money is written: cents as dollars, '$1.62', '−$0.06' (docs/rules.md: "¢"
    and "$" always mean money; a count of pennies is never written with them)."""
    sign = "−" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars}.{rest:02d}"


def signed_cents(cents: int) -> str:
    """A net in money: '+$3.18', '−$0.06', '$0.00'."""
    return f"+{format_cents(cents)}" if cents > 0 else format_cents(cents)


def format_money(pennies: int, penny_cents: int = 1) -> str:
    """A count of pennies as money at its game's penny value: 37 pennies at 1¢ → '$0.37'."""
    return format_cents(pennies * penny_cents)


# --- settling a night -------------------------------------------------------------------------


class SettlementError(ValueError):
    """Nets that cannot be settled (they do not sum to zero, or too many players for the exact search)."""


@dataclass(frozen=True)
class Payment:
    """Money from one player (or the bowl) to another, in cents."""

    from_player: str
    to_player: str
    cents: int


MAX_EXACT_PLAYERS = 12  # counting is n·2ⁿ steps and each group chosen looks at ≤ 2ⁿ subsets: 12 players ≈ 10 ms


def zero_sum_groups(nets: Mapping[str, int], order: Sequence[str]) -> list[list[str]]:
    """Split the players who owe or are owed into the most groups whose nets each sum to zero
    (each group of k players then settles in k − 1 payments: the fewest in all).

    Exact up to MAX_EXACT_PLAYERS players, by dynamic programming over subsets: most[mask] is the
    most zero-sum groups the players in ``mask`` can be split into. Where the fewest payments can
    go more than one way, the smallest groups come first and each takes the first seats in
    ``order`` it can (a debt that matches two credits is paid to the player seated first), so the
    answer does not depend on how ``nets`` is listed. Beyond that (a night of many tables),
    near-minimal: see ``paired_groups``.
    """
    players = [name for name in order if nets.get(name, 0) != 0]
    if len(players) > MAX_EXACT_PLAYERS:
        return paired_groups(nets, players)
    values = [nets[name] for name in players]
    sums = _subset_sums(values)
    most = _most_groups(sums)
    groups, left = [], (1 << len(players)) - 1
    while left:
        # The smallest group, first in seat order, that leaves the rest as many groups as can be.
        group = min(
            (part for part in _submasks(left) if sums[part] == 0 and most[left ^ part] == most[left] - 1),
            key=lambda part: (part.bit_count(), _seats(part)),
        )
        groups.append([players[i] for i in _seats(group)])
        left ^= group
    return groups


def _subset_sums(values: Sequence[int]) -> list[int]:
    """The sum of every subset of ``values``, indexed by its bit mask."""
    sums = [0] * (1 << len(values))
    for mask in range(1, len(sums)):
        low = (mask & -mask).bit_length() - 1
        sums[mask] = sums[mask & (mask - 1)] + values[low]
    return sums


def _most_groups(sums: Sequence[int]) -> list[int]:
    """For every subset that sums to zero, the most zero-sum groups it splits into: the most places
    a sequence of its players can be cut where the running sum is zero (read only for such subsets)."""
    most = [0] * len(sums)
    for mask in range(1, len(sums)):
        before = max(most[mask ^ (1 << i)] for i in _seats(mask))
        most[mask] = before + (1 if sums[mask] == 0 else 0)
    return most


def _submasks(mask: int) -> Iterator[int]:
    part = mask
    while part:
        yield part
        part = (part - 1) & mask


def _seats(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(mask.bit_length()) if mask >> i & 1)


def paired_groups(nets: Mapping[str, int], players: Sequence[str]) -> list[list[str]]:
    """Near-minimal groups for many players, in time n·log n: every debtor whose debt equals a
    creditor's credit is a group of two (one payment), and everyone else is one group (at most
    k − 1 payments for its k players). So it never needs more than n − 1 payments, and it needs
    the fewest whenever no zero-sum group of three or more players exists."""
    waiting: dict[int, list[str]] = {}
    pairs: list[list[str]] = []
    for name in players:
        partners = waiting.get(-nets[name])
        if partners:
            pairs.append([partners.pop(0), name])
        else:
            waiting.setdefault(nets[name], []).append(name)
    paired = {name for pair in pairs for name in pair}
    rest = [name for name in players if name not in paired]
    return pairs + ([rest] if rest else [])


def _seating(nets: Mapping[str, int], order: Sequence[str]) -> list[str]:
    """Everyone in ``nets``: those seated in ``order`` first, then anyone else by name."""
    seated = [name for name in order if name in nets]
    return seated + sorted(name for name in nets if name not in seated)


def settle(nets: Mapping[str, int], order: Sequence[str]) -> list[Payment]:
    """The fewest payments that settle the nets: within each zero-sum group the largest debtor
    pays the largest creditor, ties broken by seat order (``order``)."""
    if sum(nets.values()) != 0:
        raise SettlementError(f"the nets sum to {sum(nets.values())}, not 0: settle the bowl first")
    seats = _seating(nets, order)
    rank = {name: index for index, name in enumerate(seats)}
    payments = []
    for group in zero_sum_groups(nets, seats):
        balance = {name: nets[name] for name in group}
        while any(balance.values()):
            debtor = min(balance, key=lambda n: (balance[n], rank[n]))
            creditor = max(balance, key=lambda n: (balance[n], -rank[n]))
            amount = min(-balance[debtor], balance[creditor])
            payments.append(Payment(debtor, creditor, amount))
            balance[debtor] += amount
            balance[creditor] -= amount
    return payments


def after_payments(nets: Mapping[str, int], made: Sequence[Payment]) -> dict[str, int]:
    """What each still has to get (+) or pay (−) once the payments made are counted: a payer is owed
    what they handed over, a payee owes what they received (docs/rules.md: still owed = nets − payments)."""
    balance = dict(nets)
    for payment in made:
        balance[payment.from_player] = balance.get(payment.from_player, 0) + payment.cents
        balance[payment.to_player] = balance.get(payment.to_player, 0) - payment.cents
    return balance


def still_owed(nets: Mapping[str, int], made: Sequence[Payment], order: Sequence[str]) -> list[Payment]:
    """The fewest payments that settle what the payments made left open (one may run back the other
    way, when a correction lowered what somebody had already received)."""
    return settle(after_payments(nets, made), order)


def settle_with_keeper(nets: Mapping[str, int], keeper: str, order: Sequence[str]) -> list[Payment]:
    """The simple way: every debtor pays the bowl-keeper, who pays every creditor (in seat order)."""
    if sum(nets.values()) != 0:
        raise SettlementError(f"the nets sum to {sum(nets.values())}, not 0: settle the bowl first")
    seats = [name for name in _seating(nets, order) if name != keeper]
    payments = [Payment(n, keeper, -nets[n]) for n in seats if nets[n] < 0]
    payments += [Payment(keeper, n, nets[n]) for n in seats if nets[n] > 0]
    return payments
