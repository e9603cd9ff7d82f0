"""The game page's words (scorekeeper/games/page.py), checked in Python: the bowl and what was carried
into it, one penny and many, who won and what stays in the bowl, each player's buys, a phone's hand
sent for a round already saved, and the lock."""

from __future__ import annotations

from scorekeeper.commands.locks import Lock
from scorekeeper.games.page import bowl as bowl_of
from scorekeeper.games.page import (
    buy_meta,
    carried_in,
    correction_line,
    game_page,
    lock_bar,
    paid_out,
    problems_said,
    winners,
)
from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import Buy, Game, RoundRecord
from scorekeeper.rules.setup import Setup

PLAYERS = ("Ann", "Bob", "Cy", "Di O'Neil")


def played(rulesets, rounds, *, ruleset="ten-pennies", buys=(), **setup) -> Game:
    """A game of ``rounds`` (who went out, everyone else's hand as text), then ``buys`` in the next."""
    events: list = []
    for number, (out, hands) in enumerate(rounds, start=1):
        caught = {name: parse_hand(hands.get(name, "")) for name in PLAYERS if name != out}
        events.append(RoundRecord(len(events) + 1, number, out, caught))
    events += [Buy(len(events) + n, len(rounds) + 1, name) for n, name in enumerate(buys, start=1)]
    return Game(Setup(rulesets[ruleset], PLAYERS, 0, **setup), events)


def test_the_bowl_in_pennies_and_money_one_penny_and_many(rulesets):
    one = played(rulesets, [("Ann", {"Bob": "", "Cy": "", "Di O'Neil": "5"})])
    assert (bowl_of(one).count, bowl_of(one).word, bowl_of(one).money) == (1, "penny", "$0.01")
    dear = played(rulesets, [("Ann", {"Bob": "K 7", "Cy": "", "Di O'Neil": "5"})], penny_cents=5)
    assert (bowl_of(dear).count, bowl_of(dear).word, bowl_of(dear).money) == (3, "pennies", "$0.15")


def test_what_the_last_tie_carried_into_the_bowl(rulesets):
    assert carried_in(played(rulesets, [])) == ""
    assert carried_in(played(rulesets, [], carry_in=1), 4) == "1 penny carried into the bowl from game 4's tie"
    assert carried_in(played(rulesets, [], carry_in=3), 2) == "3 pennies carried into the bowl from game 2's tie"


def test_each_players_buys_under_their_button(rulesets):
    """Bob bought twice in round 2, Cy once: what is left of the stack of 10 and what they bought now."""
    game = played(rulesets, [("Ann", {"Bob": "K"})], buys=("Bob", "Bob", "Cy"))
    assert buy_meta(game, 2) == {
        "Ann": "10 left",
        "Bob": "8 left · 2 this round",
        "Cy": "9 left · 1 this round",
        "Di O'Neil": "10 left",
    }


def test_buys_before_they_start_and_the_penalty_of_the_next(rulesets):
    """Ten Card Rummy: buying starts in round 4, three free a round, then 100 points each."""
    first = played(rulesets, [], ruleset="ten-card-rummy")
    assert set(buy_meta(first, 1).values()) == {"from round 4"}
    three_rounds = [("Ann", {"Bob": "K"})] * 3
    game = played(rulesets, three_rounds, ruleset="ten-card-rummy", buys=("Cy", "Cy", "Cy"))
    assert buy_meta(game, 4)["Cy"] == "3 this round · next: +100 points"
    assert buy_meta(game, 4)["Ann"] == ""  # no stack to count down, nothing bought: nothing to say


def test_the_winner_and_the_tie(rulesets):
    seven = [("Ann", {"Bob": "K", "Cy": "5", "Di O'Neil": "5"})] * 7
    alone = winners(played(rulesets, seven))
    assert (alone.label, alone.names, alone.aside) == ("Winner", "Ann", "with 0 points")
    tied = [("Ann" if n % 2 else "Bob", {"Cy": "5", "Di O'Neil": "5"}) for n in range(7)]
    both = winners(played(rulesets, tied))
    assert (both.label, both.names, both.aside) == ("Winners", "Ann and Bob", "(tied on 0)")


def test_what_stays_in_the_bowl_one_penny_and_many(rulesets):
    """Ann and Bob tie on 0: 7 rounds × 3 pennies = 21, 10 each, 1 stays; with 2 × 7 = 14 none stays."""
    tied = [("Ann" if n % 2 else "Bob", {"Cy": "5", "Di O'Neil": "5 5"}) for n in range(7)]
    one = paid_out(played(rulesets, tied))
    assert (one.bowl, one.left, one.stay) == ("The bowl of 21 pennies is paid out", 1, "penny stays")
    even = [("Ann" if n % 2 else "Bob", {"Cy": "5", "Di O'Neil": "5"}) for n in range(7)]
    assert paid_out(played(rulesets, even)).left == 0


def test_a_hand_a_phone_sent_for_a_round_already_saved(rulesets):
    game = played(rulesets, [("Ann", {"Bob": "K"})])
    line = correction_line(game, {"player": "Di O'Neil", "round": 1, "cards": "5 5 5 9", "points": 20})
    assert (line.lead, line.hand, line.after) == ("Di O'Neil's phone, for round 1: ", "5 5 5 9", "(20 points)")
    assert line.correct == "Correct round 1"
    empty = correction_line(game, {"player": "Bob", "round": 1, "cards": "", "points": 0})
    assert (empty.hand, empty.after) == ("nothing", "(0 points)")


def test_a_hand_sent_by_sides_says_its_points(rulesets):
    teams = (("Ann", "Cy"), ("Bob", "Di O'Neil"))
    game = Game(Setup(rulesets["pennies-from-heaven"], PLAYERS, 0, teams=teams))
    line = correction_line(game, {"player": "Cy", "round": 1, "cards": "", "points": 35})
    assert (line.lead, line.hand, line.after) == ("Cy's phone, for hand 1: ", "", "35 points left in hand")


def test_the_lock_line_says_what_this_device_may_do():
    night, game = Lock("night", 4, "hash", 1), Lock("game", 9, "hash", 1)
    assert lock_bar(night, True) == "Unlocked on this device (the PIN locks all of night 4)."
    assert lock_bar(game, True) == "Unlocked on this device."
    assert lock_bar(night, False) == "Read-only: only the scorekeeper can change this night."
    assert lock_bar(game, False) == "Read-only: only the scorekeeper can change this game."


def test_entries_the_rules_refuse_it_or_them():
    assert problems_said(1).startswith("This game's history holds 1 entry that the rules refuse")
    assert problems_said(1).endswith("The scorepad counts the game without it:")
    assert problems_said(2).endswith("The scorepad counts the game without them:")


def test_a_game_in_play_has_no_winner_yet_and_one_over_has_no_buys(rulesets):
    playing = game_page(played(rulesets, []), None, True, [])
    assert (playing.winners, playing.paid_out, playing.lock_bar, playing.problems) == (None, None, "", "")
    assert playing.buy_meta["Ann"] == "10 left"
    over = game_page(played(rulesets, [("Ann", {"Bob": "K"})] * 7), None, True, [])
    assert over.buy_meta == {} and over.winners is not None and over.paid_out is not None


def test_a_carried_penny_names_the_game_it_came_from_across_a_game_without_a_bowl(api, client):
    """Issue 60: "a game says its penny came 'from the last game's tie' when it came from two games
    back" (a Ten Card Rummy game, which plays for no bowl, in between)."""
    from support import PLAYERS, tie_game, words

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    tie_game(api, night)  # game 1: 1 penny left
    api.call("POST", "/api/games", {"ruleset": "ten-card-rummy", "players": PLAYERS, "night": night}, 201)
    third = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "night": night}, 201)
    page = client.get(f"/games/{third['id']}").text
    assert "1 penny carried into the bowl from game 1" in words(page).replace("&#39;", "'")
