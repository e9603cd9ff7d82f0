"""Ledger arithmetic in whole pennies: who wins, how a bowl is split, what each player made."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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


def split_bowl(bowl: int, winning: tuple[str, ...]) -> Payout:
    """Split the bowl evenly among the winners; the pennies that cannot be split stay in it."""
    if bowl < 0:
        raise ValueError(f"a bowl cannot hold {bowl} pennies")
    if not winning:
        return Payout((), {}, bowl)
    share, left = divmod(bowl, len(winning))
    return Payout(winning, {name: share for name in winning}, left)


def format_money(pennies: int, penny_cents: int = 1) -> str:
    """Pennies as currency at the table's penny value: 37 pennies at 1¢ → '$0.37'."""
    cents = pennies * penny_cents
    sign = "−" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars}.{rest:02d}"
