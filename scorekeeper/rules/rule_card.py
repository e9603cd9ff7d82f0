"""The rule card of a ruleset: what a table needs to play it, in the words a table uses, made from the
ruleset itself (never written by hand), so a house ruleset has one as soon as it is saved.

The same card is a page, a one-page PDF and the "your round" panel of a player's phone.
"""

from __future__ import annotations

from dataclasses import dataclass

from .game import Game
from .rulesets import RoundRule, Ruleset, round_spans
from .wording import listed, plural, sentence_start


@dataclass(frozen=True)
class CardRound:
    """One row of the card's table of rounds."""

    number: int
    need: str  # "2 sets of 3", or in a books game "50 points to get on the board"
    wilds: str  # "2s, aces, jokers"
    limit: str  # "at most 1 wild per set"


@dataclass(frozen=True)
class RuleCard:
    name: str
    summary: str
    house_words: str  # a house ruleset's own one sentence, shown as the house's ("" for none)
    round_word: str  # "round", or "hand" in a game by sides
    rounds: tuple[CardRound, ...]
    sections: tuple[tuple[str, tuple[str, ...]], ...]  # (heading, its sentences)


def points_key(ruleset: Ruleset) -> list[tuple[str, int]]:
    """Card points grouped by value, in rank order: [("3 4 5 6 7 8 9", 5), ("10 J Q K", 10), ...]
    (a red three in a books game is no card: left out)."""
    groups: dict[int, list[str]] = {}
    for rank, points in sorted(ruleset.points.items()):
        if ruleset.by_sides and rank.label == "3":
            continue
        groups.setdefault(points, []).append(rank.label)
    return [(" ".join(labels), points) for points, labels in sorted(groups.items())]


def points_words(ruleset: Ruleset) -> str:
    """Card points as a table says them: "3–9: 5; 10 J Q K: 10; A 2: 20; JKR: 50", and number cards
    that count what they show as "3–10 at face value"."""
    face = [
        rank.label
        for rank, points in sorted(ruleset.points.items())
        if rank.label.isdecimal() and points == int(rank.label) and not (ruleset.by_sides and rank.label == "3")
    ]
    parts = [f"{face[0]}–{face[-1]} at face value"] if len(face) > 2 else []
    for labels, points in points_key(ruleset):
        shown = [label for label in labels.split() if len(face) <= 2 or label not in face]
        if shown:
            parts.append(f"{_span(shown)}: {points}")
    return "; ".join(parts)


def _span(labels: list[str]) -> str:
    """ "3–9" for the number cards 3 4 5 6 7 8 9 in a row; else the labels as they are."""
    numbers = [int(label) for label in labels if label.isdecimal()]
    if len(numbers) == len(labels) and len(numbers) > 2 and numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}"
    return " ".join(labels)


def card_round(ruleset: Ruleset, rule: RoundRule) -> CardRound:
    if rule.contract is None:
        need = f"{rule.board_minimum} points to get on the board"
    else:
        need = rule.contract.describe()
    return CardRound(rule.number, need, rule.describe_wilds(), ruleset.describe_wild_rule(rule))


def written_summary(ruleset: Ruleset) -> str:
    """One sentence written from the rules: the summary of a house ruleset's card. (A sentence typed
    from the ruleset it was made from would go on saying what the house no longer plays: issue 58.)"""
    needs = [card_round(ruleset, rule).need for rule in ruleset.rounds]
    rounds = plural(len(needs), ruleset.round_word)
    parts = [f"{rounds} from “{needs[0]}” to “{needs[-1]}”" if len(set(needs)) > 1 else f"{rounds} of “{needs[0]}”"]
    wilds = sorted({rule.describe_wilds() for rule in ruleset.rounds})
    parts.append(f"{wilds[0]} wild" if len(wilds) == 1 else "wilds by round")
    buys = ruleset.buys
    if buys is not None and buys.stack is not None:
        parts.append(
            f"{plural(buys.stack, 'buy')} each" + (f", {_pennies(buys.pennies)} a buy" if buys.pennies else "")
        )
    if ruleset.is_penny_game and ruleset.pennies_per_card:
        parts.append(f"{_pennies(ruleset.pennies_per_card)} a card caught")
    parts.append(f"{ruleset.winner.value} total wins" + (" the bowl" if ruleset.is_penny_game else ""))
    return "; ".join(parts).replace("none wild", "no wilds") + "."


def _pennies(count: int) -> str:
    return "a penny" if count == 1 else plural(count, "penny", "pennies")


def rule_card(ruleset: Ruleset, house: bool = False) -> RuleCard:
    """The card of a ruleset; a house ruleset's summary written from its rules, its own words apart."""
    sections = [
        ("Players and cards", players_and_cards(ruleset)),
        ("Going down" if ruleset.has_contract else "Books", going_down(ruleset)),
        ("Buying", buying(ruleset)),
        ("Scoring", scoring(ruleset)),
        ("Money", money(ruleset)),
        ("Winning", winning(ruleset)),
    ]
    return RuleCard(
        name=ruleset.name,
        summary=written_summary(ruleset) if house else ruleset.summary,
        house_words=ruleset.summary if house else "",
        round_word=ruleset.round_word,
        rounds=tuple(card_round(ruleset, rule) for rule in ruleset.rounds),
        sections=tuple((heading, tuple(lines)) for heading, lines in sections if lines),
    )


def players_and_cards(ruleset: Ruleset) -> list[str]:
    lines = [f"{ruleset.players_min} to {ruleset.players_max} players."]
    lines.append(decks_sentence(ruleset))
    deal = f"Deal {ruleset.deal_words}"
    if ruleset.pile_size:
        deal += f" and a {ruleset.pile_size}-card pile"
    lines.append(deal + ".")
    if ruleset.by_sides:
        lines.append("Played by sides: each player alone, or teams of the same size.")
    else:
        lines.append("The deal moves one seat to the left each round; the player left of the dealer plays first.")
    return lines


def decks_sentence(ruleset: Ruleset) -> str:
    decks = ruleset.decks
    fewer = decks.jokers_fewer_than_players
    each = "52 cards" if fewer else f"52 cards and {plural(decks.jokers_per_deck, 'joker')}"
    jokers = f" Jokers: {'one' if fewer == 1 else fewer} fewer than the players." if fewer else ""
    if decks.base is not None and decks.extra_per_side is not None and not decks.table:
        return (
            f"Decks of {each}: {decks.base} for two players, plus {decks.extra_per_side} for each further side "
            f"or each further 2 players.{jokers}"
        )
    spans: list[tuple[int, int, int]] = []  # (first players, last players, decks)
    for players in range(ruleset.players_min, ruleset.players_max + 1):
        count = decks.decks_for(players)
        if spans and spans[-1][2] == count:
            spans[-1] = (spans[-1][0], players, count)
        else:
            spans.append((players, players, count))
    parts = [
        f"{first}{'–' + str(last) if last != first else ''} players: {plural(count, 'deck')}"
        for first, last, count in spans
    ]
    return f"Decks of {each}: " + "; ".join(parts) + "." + jokers


def going_down(ruleset: Ruleset) -> list[str]:
    if ruleset.books is not None:
        b = ruleset.books
        return [
            f"A book is {b.min_size} to {b.max_size} cards of one rank; at {b.max_size} it closes. No books of threes.",
            f"At most {b.max_wilds} wilds in a book, with {b.naturals_per_wild} naturals for each; "
            "none in a book of sevens. A wild book holds only wild cards.",
            "A side below zero needs only "
            f"{b.board_minimum_below_zero} points to get on the board; red threes do not count towards it.",
            "Going out needs the side's wild book and book of sevens, and the player's pile picked up (allowed "
            "after the side's first natural book).",
        ]
    w = ruleset.meld_words
    kinds = f"{w.many('set')} or {w.many('run')}" if "run" in ruleset.meld_kinds else w.many("set")
    by_kind = any(rule.contract is not None and rule.contract.by_kind for rule in ruleset.rounds)
    each = (
        f": the {w.many('set')} and the {w.many('run')} it names"
        if by_kind
        else f" ({kinds}), each meld at least the contract's size"
    )
    lines = [
        "First down: "
        + ("exactly the round's contract" if ruleset.contract_exact else "at least the round's contract")
        + f"{each}, within the round's wild limit."
    ]
    lines.append(f"{sentence_start(w.a('set'))} is cards of one rank.")
    if "run" in ruleset.meld_kinds:
        lines.append(_run_sentence(ruleset))
    if ruleset.later_melds is not None:
        later = f"After going down: melds of {ruleset.later_melds.min_size} or more cards"
        if ruleset.later_melds.max_wilds is not None:
            later += f", at most {plural(ruleset.later_melds.max_wilds, 'wild')} each"
        lines.append(later + ", and lay-offs onto any meld on the table.")
    if ruleset.lay_offs_only:
        lines.append("After going down: no new melds, only lay-offs onto any meld on the table.")
    if ruleset.wild_margin == 1:
        lines.append("Every meld holds fewer wild cards than natural ones.")
    elif ruleset.wild_margin == 0:
        lines.append("No meld holds more wild cards than natural ones.")
    if ruleset.no_touching_wilds:
        lines.append(f"No two wild cards side by side in {w.a('run')}.")
    if not ruleset.wild_rank_sets:
        lines.append(f"A wild card is always wild in {w.a('set')}: there is no {w.noun('set', 1)} of wild cards.")
    if ruleset.no_duplicates:
        lines.append("No meld holds two cards of the same rank and suit (jokers excepted).")
    if ruleset.suits_required:
        lines.append("Suits count: type every card with its suit.")
    return lines


def _run_sentence(ruleset: Ruleset) -> str:
    least = f"at least {ruleset.run_min} cards" if ruleset.run_min > 3 else "cards"
    aces = "aces high or low" if ruleset.runs_wrap else "an ace is high (J Q K A) or low (A 2 3 4), never both"
    run = ruleset.meld_words.a("run")
    over = f"; {run} may go over the top (Q K A 2)" if ruleset.runs_wrap else ""
    return f"{sentence_start(run)} is {least} in a row of one suit; {aces}{over}."


def buying(ruleset: Ruleset) -> list[str]:
    buys = ruleset.buys
    if buys is None:
        return ["No buying."]
    others = buys.cards - 1
    lines = [
        f"A buy takes {plural(buys.cards, 'card')}: the discard"
        + (f" and {plural(others, 'card')} from the deck." if others else ".")
    ]
    if buys.stack is not None:
        stack = f"Each player has {plural(buys.stack, 'buy')} for the whole game"
        lines.append(
            stack + (f", each {plural(buys.pennies, 'penny', 'pennies')} into the bowl." if buys.pennies else ".")
        )
    elif buys.pennies:
        lines.append(f"Each buy puts {plural(buys.pennies, 'penny', 'pennies')} into the bowl.")
    if buys.first_round > 1:
        lines.append(f"Buying starts in {ruleset.round_word} {buys.first_round}.")
    most = _most_buys(ruleset)
    if most:
        lines.append(most)
    if buys.free_per_round is not None and (
        free := _free_buys(buys.free_per_round, buys.penalty_points, ruleset.round_word)
    ):
        lines.append(free)
    return lines


def _most_buys(ruleset: Ruleset) -> str:
    """The most buys a player a round ("" with no limit); where rounds differ, round by round:
    "At most 3 buys a player a round in rounds 1–8, 4 in rounds 9–10"."""
    spans = round_spans([ruleset.most_buys(rule.number) for rule in ruleset.rounds])
    limited = [(first, last, most) for first, last, most in spans if most is not None]
    if not limited:
        return ""
    opening = f"At most {plural(limited[0][2], 'buy')} a player a {ruleset.round_word}"
    if len(spans) == 1:
        return opening + "."
    first_span, *later = [f" in {ruleset.rounds_words(first, last)}" for first, last, _ in limited]
    later_spans = "".join(f", {most}{span}" for (_, _, most), span in zip(limited[1:], later, strict=True))
    unlimited = [ruleset.rounds_words(first, last) for first, last, most in spans if most is None]
    free = f"; no limit in {listed(unlimited)}" if unlimited else ""
    return f"{opening}{first_span}{later_spans}{free}."


def _free_buys(free: int, penalty: int, word: str) -> str:
    """How many buys a round cost nothing, and what each one beyond them costs ("" if nothing to say)."""
    if free == 0:
        return f"Each buy adds {penalty} points to that {word}." if penalty else ""
    first = (
        f"Each player's first buy a {word} is free"
        if free == 1
        else f"Each player's first {free} buys a {word} are free"
    )
    if not penalty:
        return first + "."
    return f"{first}; each buy beyond {'it' if free == 1 else 'them'} adds {penalty} points to that {word}."


def scoring(ruleset: Ruleset) -> list[str]:
    values = points_words(ruleset)
    if ruleset.books is not None:
        b = ruleset.books
        return [
            f"Closed books: natural {b.natural}, with wilds {b.mixed}, sevens {b.sevens}, wild {b.wild}. "
            f"Going out: {b.going_out}.",
            f"Red threes: {b.red_three} each, {b.red_three_many} each with {b.red_three_many_from} or more.",
            f"Cards melded count for the side and cards left in hand against it ({values}); "
            f"a black three left in hand: −{b.black_three_in_hand}.",
        ]
    lines = [
        f"When a player goes out, everyone else adds up the cards left in their hand ({values}); "
        "the player who went out scores 0."
    ]
    if ruleset.out_at_once_bonus:
        lines.append(
            f"Going down and going out in the same turn: −{ruleset.out_at_once_bonus} for that "
            f"{ruleset.round_word} instead of 0."
        )
    if ruleset.exact_cut_bonus:
        lines.append(
            f"Cutting the deck exactly (the cards of the deal and one to turn up, no more, no fewer): "
            f"−{ruleset.exact_cut_bonus} for the cutter that {ruleset.round_word}."
        )
    return lines


def money(ruleset: Ruleset) -> list[str]:
    if not ruleset.is_penny_game:
        return ["No pennies change hands."]
    lines = []
    if ruleset.pennies_per_card:
        lines.append(
            f"Every card caught in hand puts {plural(ruleset.pennies_per_card, 'penny', 'pennies')} into the bowl."
        )
    lines.append(
        "The winner takes the whole bowl; a tie splits it, and pennies that cannot be split carry into the "
        "night's next game that plays for a bowl."
    )
    return lines


def winning(ruleset: Ruleset) -> list[str]:
    last = plural(len(ruleset.rounds), ruleset.round_word)
    return [f"{ruleset.winner.value.capitalize()} total after {last} wins."]


def your_round(game: Game, player: str) -> tuple[str, ...]:
    """A player's own round, as their phone shows it: what they need, the wilds, the deal, and their
    buys (how many are left and what the next one costs)."""
    number = game.current_round
    if not number:
        return ()
    ruleset, setup = game.ruleset, game.setup
    rule = ruleset.round(number)
    row = card_round(ruleset, rule)
    word = ruleset.round_word.capitalize()
    dealer, first = setup.dealer(number), setup.first_player(number)
    deals = "you deal" if dealer == player else f"{dealer} deals"
    plays = "you play first" if first == player else f"{first} plays first"
    pile = f" and a {ruleset.pile_size}-card pile" if ruleset.pile_size else ""
    lines = [
        f"{word} {number}: {row.need}.",
        f"Wild: {row.wilds}; {row.limit}.",
        f"{plural(ruleset.dealt(number), 'card')} each{pile}; {plays if ruleset.by_sides else deals + ', ' + plays}.",
    ]
    buys = ruleset.buys
    if buys is not None:
        lines.append(_your_buys(game, player, number))
    return tuple(lines)


def _your_buys(game: Game, player: str, number: int) -> str:
    buys = game.ruleset.buys
    assert buys is not None
    if number < buys.first_round:
        return f"Buying starts in {game.ruleset.round_word} {buys.first_round}."
    left = game.buys_left(player)
    if left == 0:
        return "You have no buys left."
    cost = [f"takes {plural(buys.cards, 'card')}"]
    if buys.pennies:
        cost.append(f"puts {plural(buys.pennies, 'penny', 'pennies')} in the bowl")
    penalty = game.next_buy_penalty(player, number)
    if penalty:
        cost.append(f"adds {penalty} points")
    have = "You may buy" if left is None else f"You have {plural(left, 'buy')} left"
    return f"{have}: the next {' and '.join(cost)}."
