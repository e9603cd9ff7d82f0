"""The rules engine: cards, rulesets, melds, scoring and ledger arithmetic.

Pure Python: no Flask, no SQLite, no I/O (ruleset documents come in as text).
"""

from .cards import Card, CardError, Rank, Suit, format_hand, parse_hand
from .rulesets import Ruleset, RulesetError, parse_ruleset

__all__ = [
    "Card",
    "CardError",
    "Rank",
    "Ruleset",
    "RulesetError",
    "Suit",
    "format_hand",
    "parse_hand",
    "parse_ruleset",
]
