"""What the house-rules form calls each field: a refusal of the reader names the field by its path
(``buys.cards``); the person at the table reads "Cards a buy takes"."""

from __future__ import annotations

import re
from typing import Any

LABELS = {
    "name": "Name",
    "summary": "In one sentence",
    "winner": "Who wins",
    "meld_kinds": "Melds",
    "meld_words": "The game's own words",
    "meld_words.set": "A set is called",
    "meld_words.sets": "Sets are called",
    "meld_words.run": "A run is called",
    "meld_words.runs": "Runs are called",
    "players": "Players",
    "players.min": "Fewest players",
    "players.max": "Most players",
    "cards_dealt": "Cards dealt",
    "run_min": "Fewest cards in a run",
    "runs_wrap": "Runs go round the ace",
    "lay_offs_only": "Only lay-offs after going down",
    "out_at_once_bonus": "Points off for going down and out at once",
    "exact_cut_bonus": "Points off for cutting the deck exactly",
    "pile_size": "Cards in each pile",
    "points": "Card points",
    "money": "Money",
    "money.pennies_per_card": "Pennies a card caught",
    "decks": "Decks",
    "decks.jokers_per_deck": "Jokers in each deck",
    "decks.players_per_deck": "One deck for every … players",
    "decks.table": "Decks by players",
    "decks.base": "Decks for two players",
    "decks.extra_per_side": "More decks for each further side",
    "decks.jokers_fewer_than_players": "Jokers: fewer than the players by",
    "buys": "Buying",
    "buys.stack": "Buys each player has for the game",
    "buys.pennies": "Pennies a buy",
    "buys.cards": "Cards a buy takes",
    "buys.first_round": "Buying starts in round",
    "buys.free_per_round": "Free buys a round",
    "buys.penalty_points": "Points for each buy beyond the free ones",
    "buys.most_per_round": "Most buys a player a round",
    "later_melds": "After going down",
    "later_melds.min_size": "Later melds: fewest cards",
    "later_melds.max_wilds": "Later melds: most wilds",
    "rounds": "Rounds",
    "books": "Books",
    "books.min_size": "Fewest cards in a book",
    "books.max_size": "A book closes at",
    "books.max_wilds": "Most wilds in a book",
    "books.naturals_per_wild": "Naturals for each wild",
    "books.natural": "Natural book",
    "books.mixed": "Book with wilds",
    "books.sevens": "Book of sevens",
    "books.wild": "Wild book",
    "books.going_out": "Going out",
    "books.red_three": "A red three",
    "books.red_three_many": "A red three, with many",
    "books.red_three_many_from": "Many red threes: from",
    "books.black_three_in_hand": "A black three left in hand",
    "books.board_minimum_below_zero": "On the board from below zero",
    "suits_required": "Suits count",
    "no_duplicates": "No two cards alike in a meld",
    "contract_exact": "Exactly the contract to go down",
    "wilds_at_most_naturals": "No more wilds than naturals",
    "wilds_fewer_than_naturals": "Fewer wilds than naturals",
    "no_touching_wilds": "No two wilds side by side in a run",
    "wild_rank_sets": "Sets of wild cards allowed",
}
ROUND_LABELS = {
    "contract": "contract",
    "contract.melds": "melds",
    "contract.size": "cards in each",
    "contract.sets": "sets",
    "contract.runs": "runs",
    "contract.run_size": "cards in each run",
    "cards_dealt": "cards dealt",
    "most_buys": "most buys a player",
    "wilds": "wild cards",
    "wild_limit": "most wilds in a set",
    "wild_limit_per_kind": "most of each kind of wild",
    "board_minimum": "points to get on the board",
}
_ROUND = re.compile(r"rounds\[(\d+)\](?:\.(.+))?")


def field_label(field: str) -> str:
    """The words for a field path: "Round 3, cards in each" for ``rounds[3].contract.size``."""
    match = _ROUND.fullmatch(field)
    if match:
        part = match.group(2)
        return f"Round {match.group(1)}" + (f", {ROUND_LABELS.get(part, part)}" if part else "")
    if field.startswith("points."):
        return f"Card points, {field.removeprefix('points.')}"
    return LABELS.get(field, field)


def input_id(name: str) -> str:
    """An element id for a field name ("rounds[3].contract.size" → "f-rounds-3-contract-size")."""
    return "f-" + re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")


def changes_in_words(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed from one version of a ruleset to the next, field by field, in the form's words:
    "Pennies a buy: 2 (was 1)", "Round 2, most wilds in a set: 3 (was none)", "Round 8: added"."""
    was, now = _flat(before), _flat(after)
    rounds_before, rounds_after = len(before.get("rounds", [])), len(after.get("rounds", []))
    said = []
    for path in sorted(was.keys() | now.keys(), key=_in_order):
        if path in ("id", "summary") or was.get(path) == now.get(path):
            continue
        number, _ = _in_order(path)
        if number > min(rounds_before, rounds_after):  # a whole round added or taken off: one line
            line = f"Round {number}: {'new' if number > rounds_before else 'gone'}"
            said += [line] if line not in said else []
            continue
        label = field_label(path)
        if path not in was:
            said.append(f"{label}: {_shown(now[path])} (new)")
        elif path not in now:
            said.append(f"{label}: {_shown(was[path])} (gone)")
        else:
            said.append(f"{label}: {_shown(now[path])} (was {_shown(was[path])})")
    return said


def _flat(document: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in document.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flat(value, f"{path}."))
        elif key == "rounds" and isinstance(value, list):
            for number, rule in enumerate(value, start=1):
                flat.update(_flat(rule, f"rounds[{number}]."))
        else:
            flat[path] = value
    return flat


def _in_order(path: str) -> tuple[int, str]:
    match = _ROUND.fullmatch(path)
    return (int(match.group(1)), path) if match else (0, path)


def _shown(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(str(item) for item in value) or "none"
    return str(value)
