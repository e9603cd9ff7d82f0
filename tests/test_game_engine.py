"""The rules engine's game: scoring, buys, corrections and money, replayed from events."""

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import examples

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.game import Buy, Event, Game, RoundRecord, Void
from scorekeeper.rules.game_json import describe_round, game_json
from scorekeeper.rules.scoring import card_points, next_buy_penalty
from scorekeeper.rules.setup import GameError, Setup

PLAYERS = ("Ann", "Bob", "Cy", "Di")


def setup(rulesets, ruleset="ten-pennies", players=PLAYERS, dealer=0, **kw):
    return Setup(rulesets[ruleset], tuple(players), dealer, **kw)


def rnd(event_id, number, went_out, **hands):
    return RoundRecord(event_id, number, went_out, {name: parse_hand(text) for name, text in hands.items()})


SCORES = [  # ruleset, hand, points
    ("ten-pennies", "3 4 5 6 7 8 9", 35),
    ("ten-pennies", "10 J Q K", 40),
    ("ten-pennies", "2 A JKR", 90),
    ("ten-pennies", "K 7 7 2", 40),
    ("ten-pennies", "", 0),
    ("ten-card-rummy", "3 4 5 6 7 8 9 10", 52),
    ("ten-card-rummy", "J Q K A", 41),
    ("ten-card-rummy", "2 JKR", 30),
]


def test_a_house_limit_of_buys_a_round_refuses_one_more_that_round_only(rulesets):
    """A Liverpool house that allows 3 "May I?"s a deal (docs/rules.md): Bob's 4th in deal 1 is refused
    in words; his next buy, in deal 2, is allowed."""
    house = replace(rulesets["liverpool-rummy"], buys=replace(rulesets["liverpool-rummy"].buys, most_per_round=3))
    game = Game(Setup(house, PLAYERS, 0), [Buy(i, 1, "Bob") for i in range(1, 4)])
    with pytest.raises(
        GameError, match="Bob has made 3 buys in round 1, the most a round allows; another buy is refused"
    ):
        game.with_event(Buy(4, 1, "Bob"))
    game = game.with_event(Buy(4, 1, "Ann")).with_event(rnd(5, 1, "Ann", Bob="K", Cy="", Di=""))
    assert game.with_event(Buy(6, 2, "Bob")).buys_in_round(2)["Bob"] == 1


def test_a_round_s_own_limit_of_buys_stands_over_the_game_s(rulesets):
    """Shanghai (docs/rules.md): 3 buys a player in deals 1-8, 4 in deals 9 and 10; a round's own
    figure is its limit, the game's figure every other round's."""
    shanghai = rulesets["shanghai-rummy"]
    assert [shanghai.most_buys(n) for n in (1, 8, 9, 10)] == [3, 3, 4, 4]
    rounds = list(shanghai.rounds)
    rounds[0] = replace(rounds[0], most_buys=1)
    house = replace(shanghai, rounds=tuple(rounds))
    game = Game(Setup(house, PLAYERS, 0), [Buy(1, 1, "Bob")])
    with pytest.raises(GameError, match="Bob has made 1 buy in round 1, the most a round allows"):
        game.with_event(Buy(2, 1, "Bob"))


@pytest.mark.parametrize("ruleset, hand, points", SCORES)
def test_card_points_table(rulesets, ruleset, hand, points):
    assert card_points(rulesets[ruleset], parse_hand(hand)) == points


# RULES.md, Ten Card Rummy: 3 buys per player per round; each buy beyond 3 adds 100 penalty points.
# Ten Pennies has no penalty: its buys come from the 10-penny stack.
@pytest.mark.parametrize(
    "ruleset, buys_so_far, next_costs",
    [
        ("ten-card-rummy", 0, 0),
        ("ten-card-rummy", 2, 0),
        ("ten-card-rummy", 3, 100),
        ("ten-card-rummy", 5, 100),
        ("ten-pennies", 3, 0),
        ("ten-pennies", 9, 0),
    ],
)
def test_the_next_buy_costs_penalty_points_only_beyond_the_free_ones(rulesets, ruleset, buys_so_far, next_costs):
    assert next_buy_penalty(rulesets[ruleset], buys_so_far) == next_costs


def test_dealer_rotates_left_and_next_player_plays_first(rulesets):
    s = setup(rulesets, dealer=2)
    assert [s.dealer(n) for n in range(1, 8)] == ["Cy", "Di", "Ann", "Bob", "Cy", "Di", "Ann"]
    assert [s.first_player(n) for n in range(1, 4)] == ["Di", "Ann", "Bob"]
    info = describe_round(s, 5)
    assert info["contract"] == "2 sets of 5" and info["wilds"] == "2s, aces, jokers"
    assert info["decks"] == "2 decks" and info["deal"] == 11 and info["jokers"] == 4


@pytest.mark.parametrize(
    "ruleset, number, limit",
    [
        ("ten-pennies", 1, "at most 1 wild per set"),  # RULES.md's table: the limit of round 1
        ("ten-pennies", 7, "at most 3 wilds per set"),
        ("ten-pennies-pcio", 5, "at most 2 of each kind of wild per set"),
        ("ten-card-rummy", 4, "no more wilds than natural cards in a meld"),
        ("pennies-from-heaven", 1, "at most 2 wilds in a book, each with 2 naturals; none in a book of sevens"),
    ],
)
def test_the_dealer_is_told_the_rounds_wild_card_rule(rulesets, ruleset, number, limit):
    assert describe_round(setup(rulesets, ruleset), number)["wild_limit"] == limit


def test_round_scores_points_and_pennies(rulesets):
    game = Game(setup(rulesets), [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob="K 7 7 2", Cy="JKR A 3", Di="10 J Q")])
    result = game.rounds[0].results
    assert {n: (r.points, r.pennies) for n, r in result.items()} == {
        "Ann": (0, 0),
        "Bob": (40, 4),
        "Cy": (75, 3),
        "Di": (30, 3),
    }
    assert game.pennies_paid("Bob") == 5 and game.bowl == 11 and game.buys_left("Bob") == 9
    assert game.current_round == 2 and game.leaders() == ("Ann",)


def test_eleventh_buy_is_refused(rulesets):
    events = [Buy(i, 1, "Bob") for i in range(1, 11)]
    game = Game(setup(rulesets), events)
    assert game.buys_left("Bob") == 0
    with pytest.raises(GameError, match="Bob has used all 10 buys of the game; an 11th buy is refused"):
        game.with_event(Buy(11, 1, "Bob"))


def test_hand_size_limit_grows_with_buys(rulesets):
    twelve = "3 3 4 4 5 5 6 6 7 7 8 8"
    with pytest.raises(
        GameError, match="Bob is caught with 12 cards, but with 0 buys this round a player holds at most 11"
    ):
        Game(setup(rulesets), [rnd(1, 1, "Ann", Bob=twelve, Cy="", Di="")])
    game = Game(setup(rulesets), [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob=twelve, Cy="", Di="")])
    assert game.rounds[0].results["Bob"].points == 60
    fifteen = twelve + " 9 9 10"
    with pytest.raises(GameError, match="with 1 buy this round a player holds at most 14"):
        Game(setup(rulesets), [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob=fifteen, Cy="", Di="")])


def test_cards_beyond_what_the_decks_hold_are_refused(rulesets):
    # 4 players: 2 decks, so 8 kings and 4 jokers at most; with suits, 2 of each card.
    with pytest.raises(GameError, match="the hands hold 9 × K, but 2 decks hold only 8"):
        Game(setup(rulesets), [rnd(1, 1, "Ann", Bob="K K K K", Cy="K K K K", Di="K")])
    with pytest.raises(GameError, match="5 × JKR, but 2 decks hold only 4"):
        Game(setup(rulesets), [rnd(1, 1, "Ann", Bob="JKR JKR", Cy="JKR JKR", Di="JKR")])
    with pytest.raises(GameError, match="3 × K♥, but 2 decks hold only 2"):
        Game(setup(rulesets), [rnd(1, 1, "Ann", Bob="KH KH", Cy="KH", Di="")])
    Game(setup(rulesets), [rnd(1, 1, "Ann", Bob="K K K K", Cy="K K K K", Di="JKR")])


@pytest.mark.parametrize(
    "went_out, hands, message",
    [
        ("Zed", {"Bob": "", "Cy": "", "Di": ""}, "'Zed' is not playing"),
        ("Ann", {"Bob": "", "Cy": ""}, "enter the cards caught in hand for Di"),
        ("Ann", {"Ann": "K", "Bob": "", "Cy": "", "Di": ""}, "Ann went out, so Ann holds no cards"),
        ("Ann", {"Bob": "", "Cy": "", "Di": "", "Eve": "K"}, "'Eve' is not playing"),
    ],
)
def test_round_entries_that_cannot_be(rulesets, went_out, hands, message):
    with pytest.raises(GameError, match=message):
        Game(setup(rulesets), [rnd(1, 1, went_out, **hands)])


def full_game(rulesets, totals_by_round):
    """Seven rounds where Ann goes out and the others are caught with fives (5 points each)."""
    events = []
    for number in range(1, 8):
        hands = {name: "5 " * count for name, count in totals_by_round[number - 1].items()}
        events.append(rnd(number, number, "Ann", **hands))
    return events


def test_lowest_total_takes_the_bowl(rulesets):
    rounds = [{"Bob": 1, "Cy": 2, "Di": 3}] * 7
    game = Game(setup(rulesets), full_game(rulesets, rounds))
    assert game.finished and game.current_round is None
    payout = game.payout()
    assert payout.winners == ("Ann",) and payout.payouts == {"Ann": 42} and payout.left_in_bowl == 0
    assert {n: game.money(n) for n in PLAYERS} == {"Ann": 42, "Bob": -7, "Cy": -14, "Di": -21}


def test_tie_splits_the_bowl_and_the_odd_penny_stays(rulesets):
    # Ann and Bob both end on 0; the bowl holds 7 × (2 + 3) + 1 buy = 36... make it odd with one buy.
    events = [Buy(100, 1, "Cy")] + [
        rnd(
            n,
            n,
            "Ann" if n % 2 else "Bob",
            **({"Bob": "", "Cy": "5 5", "Di": "5 5 5"} if n % 2 else {"Ann": "", "Cy": "5 5", "Di": "5 5 5"}),
        )
        for n in range(1, 8)
    ]
    game = Game(setup(rulesets), events)
    payout = game.payout()
    assert game.bowl == 36
    assert payout.winners == ("Ann", "Bob")
    assert payout.payouts == {"Ann": 18, "Bob": 18} and payout.left_in_bowl == 0
    odd = Game(setup(rulesets), [Buy(101, 1, "Di"), *events])
    assert odd.bowl == 37 and odd.payout().payouts == {"Ann": 18, "Bob": 18} and odd.payout().left_in_bowl == 1


def test_three_way_tie_leaves_the_remainder(rulesets):
    events = [rnd(n, n, "Ann", Bob="", Cy="", Di="5 5 5 5 5") for n in range(1, 8)]
    game = Game(setup(rulesets), events)  # Ann, Bob and Cy all on 0; bowl 35
    assert game.payout().payouts == {"Ann": 11, "Bob": 11, "Cy": 11} and game.payout().left_in_bowl == 2


def test_correction_replaces_a_round_and_everything_after_is_recomputed(rulesets):
    events = [rnd(1, 1, "Ann", Bob="K", Cy="", Di=""), rnd(2, 2, "Bob", Ann="5", Cy="", Di="")]
    game = Game(setup(rulesets), events)
    assert game.totals() == {"Ann": 5, "Bob": 10, "Cy": 0, "Di": 0}
    corrected = game.with_event(rnd(3, 1, "Cy", Ann="", Bob="JKR", Di="5"))
    assert corrected.totals() == {"Ann": 5, "Bob": 50, "Cy": 0, "Di": 5}
    assert corrected.rounds[0].corrected and not corrected.rounds[1].corrected
    assert corrected.bowl == 3
    assert len(corrected.events) == 3  # the earlier entry is kept


def test_undo_a_buy_and_the_last_round(rulesets):
    game = Game(setup(rulesets), [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob="K", Cy="", Di="")])
    without_buy = game.with_event(Void(3, 1))
    assert without_buy.buys_left("Bob") == 10 and without_buy.bowl == 1
    undone = game.with_event(Void(3, 2))
    assert undone.rounds == [] and undone.current_round == 1
    with pytest.raises(GameError, match="nothing to undo"):
        undone.with_event(Void(4, 2))


def test_undo_of_a_buy_that_the_hand_size_needs_is_refused(rulesets):
    game = Game(setup(rulesets), [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob="3 3 4 4 5 5 6 6 7 7 8 8 9", Cy="", Di="")])
    with pytest.raises(GameError, match="Bob is caught with 13 cards"):
        game.with_event(Void(3, 1))


def test_only_the_last_round_can_be_undone(rulesets):
    game = Game(setup(rulesets), [rnd(1, 1, "Ann", Bob="", Cy="", Di=""), rnd(2, 2, "Ann", Bob="", Cy="", Di="")])
    with pytest.raises(GameError, match="only the last round .2. can be undone; correct round 1 instead"):
        game.with_event(Void(3, 1))


def test_finished_game_refuses_rounds_and_buys(rulesets):
    game = Game(setup(rulesets), [rnd(n, n, "Ann", Bob="", Cy="", Di="") for n in range(1, 8)])
    with pytest.raises(GameError, match="the game is finished"):
        game.with_event(rnd(8, 8, "Ann", Bob="", Cy="", Di=""))
    with pytest.raises(GameError, match="the game is finished"):
        game.with_event(Buy(8, 8, "Bob"))
    assert game.with_event(rnd(8, 3, "Bob", Ann="K", Cy="", Di="")).totals()["Ann"] == 10


@pytest.mark.parametrize(
    "players, message",
    [
        (("Ann",), "for 2 to 8 players, not 1"),
        (tuple(f"P{i}" for i in range(9)), "for 2 to 8 players, not 9"),
        (("Ann", "ann"), "two players are called 'Ann'"),
        (("Ann", ""), "player 2 needs a name"),
        (("Ann", " Bob"), "player 2 needs a name"),
        (("Ann", "B" * 41), "longer than 40 characters"),
    ],
)
def test_bad_player_lists(rulesets, players, message):
    with pytest.raises(GameError, match=message):
        setup(rulesets, players=players)


def test_ten_card_rummy_buys_from_round_4_with_penalty_after_3(rulesets):
    s = setup(rulesets, "ten-card-rummy")
    game = Game(s, [rnd(n, n, "Ann", Bob="", Cy="", Di="") for n in range(1, 4)])
    with pytest.raises(GameError, match="buying starts in round 4 in Ten Card Rummy; this is round 3"):
        Game(s, [rnd(1, 1, "Ann", Bob="", Cy="", Di=""), rnd(2, 2, "Ann", Bob="", Cy="", Di=""), Buy(3, 3, "Bob")])
    for i in range(4):
        game = game.with_event(Buy(10 + i, 4, "Bob"))
    game = game.with_event(rnd(20, 4, "Bob", Ann="K", Cy="", Di=""))
    bob = game.rounds[3].results["Bob"]
    assert (bob.points, bob.penalty, bob.pennies) == (100, 100, 0)
    assert game.bowl == 0 and not game.ruleset.is_penny_game
    assert game.buys_left("Bob") is None


ROUNDS = st.lists(
    st.tuples(
        st.integers(0, 3),  # who went out
        # at most one of each card per hand, so three hands never exceed what 2 decks hold
        st.lists(
            st.lists(st.sampled_from(["3", "7", "10", "K", "2", "A", "JKR"]), max_size=4, unique=True),
            min_size=4,
            max_size=4,
        ),
        st.lists(st.integers(0, 2), min_size=4, max_size=4),  # buys per player this round
    ),
    min_size=7,
    max_size=7,
)


# RULES.md's Ten Pennies card points, restated here so the test does not ask the engine.
TEN_PENNIES_POINTS = {"3": 5, "7": 5, "10": 10, "K": 10, "2": 20, "A": 20, "JKR": 50}


@settings(max_examples=examples(150), deadline=None)
@given(ROUNDS, st.integers(0, 9))
def test_no_penny_is_created_or_lost(rulesets, rounds, carry_in):
    """Worked from RULES.md alone: a penny per buy (10 a game at most) and per card caught goes into
    the bowl; the lowest total takes it, a tie splits it and the odd pennies stay."""
    s = Setup(rulesets["ten-pennies"], PLAYERS, 0, carry_in=carry_in)
    game, next_id = Game(s), 1
    bought, cards, points = dict.fromkeys(PLAYERS, 0), dict.fromkeys(PLAYERS, 0), dict.fromkeys(PLAYERS, 0)
    for number, (out, hands, buys) in enumerate(rounds, start=1):
        for seat, count in enumerate(buys):
            for _ in range(count):
                player = PLAYERS[seat]
                if bought[player] < 10:
                    game = game.with_event(Buy(next_id, number, player))
                    bought[player] += 1
                else:
                    with pytest.raises(GameError, match="an 11th buy is refused"):
                        game.with_event(Buy(next_id, number, player))
                next_id += 1
        caught = {PLAYERS[i]: " ".join(hands[i]) for i in range(4) if i != out}
        game = game.with_event(rnd(next_id, number, PLAYERS[out], **caught))
        next_id += 1
        for name, hand in caught.items():
            cards[name] += len(hand.split())
            points[name] += sum(TEN_PENNIES_POINTS[card] for card in hand.split())
    bowl = carry_in + sum(bought.values()) + sum(cards.values())
    lowest = min(points.values())
    winners = tuple(p for p in PLAYERS if points[p] == lowest)
    share, left = divmod(bowl, len(winners))
    assert game.bowl == bowl
    assert game.payout().winners == winners and game.payout().left_in_bowl == left
    for p in PLAYERS:
        assert game.money(p) == (share if p in winners else 0) - bought[p] - cards[p]
    assert sum(game.money(p) for p in PLAYERS) + left == carry_in  # every penny accounted for


ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("buy"), st.integers(0, 3), st.integers(1, 7)),
        st.tuples(st.just("round"), st.integers(0, 3), st.integers(1, 7), st.lists(st.integers(0, 3), max_size=3)),
        st.tuples(st.just("void"), st.integers(1, 40)),
    ),
    max_size=40,
)


@settings(max_examples=examples(300), deadline=None)
@given(ACTIONS)
def test_appending_an_event_is_the_same_as_replaying_them_all(rulesets, actions):
    s = setup(rulesets)
    game, accepted = Game(s), []
    for event_id, action in enumerate(actions, start=1):
        event: Event
        if action[0] == "buy":
            event = Buy(event_id, action[2], PLAYERS[action[1]])
        elif action[0] == "round":
            out = PLAYERS[action[1]]
            hands = {p: " ".join(["5"] * (n % 4)) for p, n in zip(PLAYERS, action[3] + [0, 0, 0, 0], strict=False)}
            event = rnd(event_id, action[2], out, **{p: h for p, h in hands.items() if p != out})
        else:
            event = Void(event_id, action[1])
        try:
            game = game.with_event(event)
        except GameError:
            continue
        accepted.append(event)
        assert game_json(game) == game_json(Game(s, accepted))


def test_an_undo_can_be_put_back_once(rulesets):
    events = [Buy(1, 1, "Bob"), rnd(2, 1, "Ann", Bob="K 7", Cy="", Di=""), Void(3, 1), Void(4, 2)]
    game = Game(setup(rulesets), events)
    assert game.buys_left("Bob") == 10 and game.rounds == [] and game.undone_entries() == {3, 4}
    # Put back the round (undo of undo 4), then the buy (undo of undo 3): as if never undone.
    back = game.with_event(Void(5, 4)).with_event(Void(6, 3))
    assert back.buys_left("Bob") == 9 and back.totals() == {"Ann": 0, "Bob": 15, "Cy": 0, "Di": 0}
    assert back.bowl == 3 and back.undone_entries() == set()
    with pytest.raises(GameError, match="entry 4 is not an undo in force"):
        back.with_event(Void(7, 4))


def test_a_round_cannot_be_put_back_once_another_took_its_place(rulesets):
    events = [rnd(1, 1, "Ann", Bob="K", Cy="", Di=""), Void(2, 1), rnd(3, 1, "Bob", Ann="5", Cy="", Di="")]
    game = Game(setup(rulesets), events)
    with pytest.raises(GameError, match="round 1 cannot be put back: the next round is 2"):
        game.with_event(Void(4, 2))


def played(rounds: int, went_out: str = "Ann") -> list[RoundRecord]:
    """``rounds`` rounds in which Ann went out and nobody was caught with anything."""
    return [rnd(n, n, went_out, Bob="", Cy="", Di="") for n in range(1, rounds + 1)]


BUYS_REFUSED = [  # ruleset, rounds played, the buy (round, player), its refusal word for word
    ("ten-pennies", 7, (8, "Bob"), "the game is finished: no more buys"),
    ("ten-pennies", 0, (2, "Cy"), "round 2 has not started yet"),
    ("ten-pennies", 3, (5, "Di"), "round 5 has not started yet"),
    ("ten-pennies", 0, (0, "Bob"), "round 0 has not started yet"),
    ("ten-card-rummy", 0, (1, "Cy"), "buying starts in round 4 in Ten Card Rummy; this is round 1"),
    ("pennies-from-heaven", 0, (1, "Bob"), "there is no buying in Pennies From Heaven"),
]


@pytest.mark.parametrize("ruleset, rounds, buy, message", BUYS_REFUSED)
def test_a_refused_buy_says_why_and_names_the_buyer(rulesets, ruleset, rounds, buy, message):
    game = Game(setup(rulesets, ruleset), played(rounds) if ruleset != "pennies-from-heaven" else [])
    with pytest.raises(GameError) as refused:
        game.with_event(Buy(100, *buy))
    assert (str(refused.value), refused.value.player) == (message, buy[1])


@pytest.mark.parametrize("rounds, buy_round", [(0, 1), (3, 4), (3, 2), (7, 7), (7, 1)])
def test_a_buy_may_go_into_the_round_being_played_or_one_already_played(rulesets, rounds, buy_round):
    """A buy the table forgot is entered late, even after the last round (someone disputes it afterwards)."""
    game = Game(setup(rulesets), played(rounds)).with_event(Buy(100, buy_round, "Bob"))
    assert (game.buys_left("Bob"), game.buys_in_round(buy_round)["Bob"]) == (9, 1)


def test_undoing_one_of_two_buys_in_a_round_leaves_one(api):
    """Two buys by Bob in round 1, the second undone: one buy counts in the round (one penny, one
    from his stack), not none."""
    gid = api.new_game()["id"]
    api.buy(gid, "Bob")
    api.buy(gid, "Bob")
    last = api.call("GET", f"/api/games/{gid}/history")[-1]["id"]
    api.call("POST", f"/api/games/{gid}/undo", {"event": last}, 201)
    state = api.round(gid, "Ann", {"Bob": "K K", "Cy": "", "Di": ""})
    assert state["rounds"][0]["buys"] == {"Ann": 0, "Bob": 1, "Cy": 0, "Di": 0}
    bob = next(p for p in state["players"] if p["name"] == "Bob")
    assert (bob["buys_left"], bob["pennies_paid"]) == (9, 1 + 2)  # one buy, two cards caught


def test_the_totals_before_a_round_are_those_after_the_round_before(api):
    """A hand's board minimum depends on the totals before it: the totals after round n − 1."""
    from scorekeeper.reads.loading import load_game
    from scorekeeper.store import get_store
    from scorekeeper.web import current_catalog

    gid = api.new_game()["id"]
    api.round(gid, "Ann", {"Bob": "K", "Cy": "5", "Di": ""})  # Bob 10, Cy 5
    api.round(gid, "Bob", {"Ann": "Q Q", "Cy": "", "Di": "2"})  # Ann 20, Di 20
    api.round(gid, "Cy", {"Ann": "", "Bob": "JKR", "Di": ""})  # Bob 50
    with api.client.application.app_context():
        game = load_game(get_store(), current_catalog(), gid).game
    assert game.totals_before(1) == {"Ann": 0, "Bob": 0, "Cy": 0, "Di": 0}
    assert game.totals_before(2) == {"Ann": 0, "Bob": 10, "Cy": 5, "Di": 0}
    assert game.totals_before(3) == {"Ann": 20, "Bob": 10, "Cy": 5, "Di": 20}


def test_a_pile_left_out_or_short_names_its_player(api):
    """RULES.md: a side caught off the board enters every player's pile; the refusal names the
    player whose pile is missing or short (the form marks that field), whoever comes first."""
    from test_cousins import ALL_BOOKS, TEAMS, new_pfh, side

    for piles, player, said in [
        ({"Bob": 150}, "Di", "enter Di's pile: Bob & Di is caught off the board"),  # Bob's counted, Di's missing
        ({"Bob": "K K K", "Di": 150}, "Bob", "Bob's pile holds 15 cards (never picked up); 3 were entered"),
    ]:
        game = new_pfh(api)["id"]
        sides = [side(TEAMS[0], books=ALL_BOOKS, points=200), side(TEAMS[1], piles=piles)]
        refused = api.call("POST", f"/api/games/{game}/rounds", {"went_out": "Ann", "sides": sides}, 400)
        assert refused["player"] == player and said in refused["error"]


def test_an_unknown_stage_is_named_with_the_stages_there_are(api):
    refused = api.call(
        "POST", "/api/melds/check", {"ruleset": "ten-pennies", "round": 1, "stage": "bogus", "melds": ["K K K"]}, 400
    )
    assert refused["error"] == "stage 'bogus' is not one of first-down, meld, layoff, hand"


def test_a_round_undone_and_entered_again_is_no_correction(rulesets):
    """Round 1 corrected, the correction undone (the round taken back whole), then round 1 entered
    anew: a fresh entry, not a correction."""
    from scorekeeper.rules.game import Game, RoundRecord, Void
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["ten-pennies"], tuple(PLAYERS), 0)
    caught = {"Bob": parse_hand("5"), "Cy": (), "Di": ()}
    entered = RoundRecord(1, 1, "Ann", caught)
    corrected = RoundRecord(2, 1, "Ann", {**caught, "Cy": parse_hand("K")})
    assert Game(setup, [entered, corrected]).rounds[0].corrected
    again = Game(setup, [entered, corrected, Void(3, 2), RoundRecord(4, 1, "Ann", caught)])
    assert [(r.number, r.corrected) for r in again.rounds] == [(1, False)]


def test_hands_not_entered_are_all_named_and_the_first_is_marked(rulesets):
    from scorekeeper.rules.scoring import RoundError, score_round

    with pytest.raises(RoundError) as refused:
        score_round(rulesets["ten-pennies"], tuple(PLAYERS), 2, "Ann", {"Cy": ()}, dict.fromkeys(PLAYERS, 0))
    assert str(refused.value) == "enter the cards caught in hand for Bob, Di (an empty hand is allowed)"
    assert refused.value.player == "Bob"


def test_the_player_who_went_out_holds_no_cards(rulesets):
    from scorekeeper.rules.scoring import RoundError, score_round

    caught = {"Ann": parse_hand("K"), "Bob": (), "Cy": (), "Di": ()}
    with pytest.raises(RoundError) as refused:
        score_round(rulesets["ten-pennies"], tuple(PLAYERS), 2, "Ann", caught, dict.fromkeys(PLAYERS, 0))
    assert (str(refused.value), refused.value.player) == ("Ann went out, so Ann holds no cards", "Ann")


def test_a_hand_longer_than_the_deal_and_buys_names_its_player(rulesets):
    """Ten Pennies deals 11 and a buy takes 3 cards: with 1 buy a player holds at most 14."""
    from scorekeeper.rules.scoring import RoundError, check_hand_size

    check_hand_size(rulesets["ten-pennies"], "Cy", parse_hand("K " * 14), 1)
    with pytest.raises(RoundError) as refused:
        check_hand_size(rulesets["ten-pennies"], "Cy", parse_hand("K " * 15), 1)
    assert str(refused.value) == "Cy is caught with 15 cards, but with 1 buy this round a player holds at most 14"
    assert refused.value.player == "Cy"


@pytest.mark.parametrize("number, played", [(2, 0), (3, 1)])
def test_a_round_past_the_next_one_is_refused_naming_the_next(rulesets, number, played):
    from scorekeeper.rules.game import Game, RoundRecord
    from scorekeeper.rules.setup import GameError, Setup

    setup = Setup(rulesets["ten-pennies"], tuple(PLAYERS), 0)
    hands = {"Bob": (), "Cy": (), "Di": ()}
    events = [RoundRecord(n, n, "Ann", hands) for n in range(1, played + 1)]
    with pytest.raises(GameError) as refused:
        Game(setup, [*events, RoundRecord(9, number, "Ann", hands)])
    assert str(refused.value) == f"round {number} cannot be recorded: the next round is {played + 1}"


def game_of_rounds(rulesets, count):
    from support import GAME

    from scorekeeper.rules.game import Game, RoundRecord
    from scorekeeper.rules.setup import Setup

    events = [
        RoundRecord(n, n, out, {name: parse_hand(cards) for name, cards in caught.items()})
        for n, (out, caught) in enumerate(GAME[:count], start=1)
    ]
    return Game(Setup(rulesets["ten-pennies"], tuple(PLAYERS), 0), events)


def test_a_seats_summary_after_two_rounds_worked_by_hand(rulesets):
    """Ten Pennies, the first two rounds of support.GAME. Points: Bob K 7 7 2 = 40, Cy JKR A 3 = 75,
    Di 10 J Q = 30; then Ann 5 = 5, Di K K = 20. Totals Ann 5, Bob 40, Cy 75, Di 50: lowest leads.
    A penny a card caught: Cy paid 3 pennies, Ann 1."""
    game = game_of_rounds(rulesets, 2)
    summaries = [game.seat_summary(seat) for seat in range(4)]
    assert [s.seat for s in summaries] == [0, 1, 2, 3]
    assert [s.points for s in summaries] == [5, 40, 75, 50]
    assert [s.place for s in summaries] == [1, 2, 4, 3]
    assert [s.money for s in summaries] == [game.money(name) for name in PLAYERS]
    assert summaries[2].money == -3 and summaries[0].money == -1


def test_the_games_json_numbers_seats_and_rounds_from_1(rulesets):
    from scorekeeper.rules.game_json import game_json

    data: dict[str, Any] = game_json(game_of_rounds(rulesets, 2))
    assert [(p["name"], p["seat"]) for p in data["players"]] == [("Ann", 1), ("Bob", 2), ("Cy", 3), ("Di", 4)]
    assert [r["number"] for r in data["rounds"]] == [1, 2]


def test_a_buy_entered_late_for_a_recorded_round_scores_that_round_again(rulesets):
    """Ten Card Rummy: buying starts in round 4, 3 free buys a round, each one more 100 points
    (RULES.md). Round 4 is recorded with Bob caught with K (10); his 4 buys of round 4 are entered
    after it (forgotten at the time): his round 4 becomes 110, and his total with it."""
    from scorekeeper.rules.game import Buy, Game, RoundRecord
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["ten-card-rummy"], tuple(PLAYERS), 0)
    empty = {"Bob": (), "Cy": (), "Di": ()}
    rounds = [RoundRecord(n, n, "Ann", empty) for n in (1, 2, 3)]
    recorded = Game(setup, [*rounds, RoundRecord(4, 4, "Ann", {**empty, "Bob": parse_hand("K")})])
    assert recorded.rounds[3].results["Bob"].points == 10
    late = recorded
    for event_id in range(5, 9):
        late = late.with_event(Buy(event_id, 4, "Bob"))
    assert (late.rounds[3].results["Bob"].points, late.rounds[3].results["Bob"].penalty) == (110, 100)
    assert late.totals()["Bob"] == 110
    assert Game(setup, late.events).rounds[3].results["Bob"].points == 110  # the same replayed whole


def test_a_correction_stays_marked_after_a_later_entry(rulesets):
    """Round 1 corrected, then a buy in round 2: the scorepad still marks round 1 as corrected."""
    from scorekeeper.rules.game import Buy, Game, RoundRecord
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["ten-pennies"], tuple(PLAYERS), 0)
    caught = {"Bob": parse_hand("5"), "Cy": (), "Di": ()}
    corrected = Game(setup, [RoundRecord(1, 1, "Ann", caught), RoundRecord(2, 1, "Ann", {**caught, "Cy": ()})])
    assert corrected.with_event(Buy(3, 2, "Cy")).rounds[0].corrected


def test_a_new_games_json_shows_every_total_at_0(rulesets):
    from scorekeeper.rules.game_json import game_json

    data: dict[str, Any] = game_json(game_of_rounds(rulesets, 0))
    assert [p["points"] for p in data["players"]] == [0, 0, 0, 0]


def test_a_stored_entry_the_rules_refuse_is_shown_with_its_reason(rulesets):
    """A history stored before writes were checked: Ann's 11th buy of a 10-buy stack is passed over,
    and the game's JSON says which entry and why."""
    from scorekeeper.rules.game import Buy, Game
    from scorekeeper.rules.game_json import game_json
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["ten-pennies"], tuple(PLAYERS), 0)
    game = Game(setup, [Buy(n, 1, "Ann") for n in range(1, 12)], tolerant=True)
    assert game_json(game)["problems"] == [
        {"entry": 11, "reason": "Ann has used all 10 buys of the game; an 11th buy is refused"}
    ]


@pytest.mark.parametrize(
    "teams, said",
    [
        ((("Ann", "Cy"), ("Bob",)), "Di is in no team"),
        ((("Ann", "Cy"),), "Bob, Di are in no team"),
        ((("Ann", "Cy"), ("Bob", "Di", "Ann")), "Ann must be in exactly one team of the players"),
        ((("Ann", "Cy"), ("Bob", "Di", "Zed")), "Zed must be in exactly one team of the players"),
        ((("Ann", "Cy", "Zed"), ("Bob", "Di", "Zed")), "Zed must be in exactly one team of the players"),
        ((("Ann", "Cy", "Zed", "Bob"), ("Di", "Ed")), "Zed, Ed must be in exactly one team of the players"),
    ],
)
def test_teams_that_do_not_seat_every_player_once_are_refused_in_words(rulesets, teams, said):
    from scorekeeper.rules.setup import GameError, Setup

    with pytest.raises(GameError) as refused:
        Setup(rulesets["pennies-from-heaven"], tuple(PLAYERS), 0, teams=teams)
    assert str(refused.value) == f"the teams must seat every player exactly once: {said}"


NAME_REFUSALS = [
    # (players, the refusal, the player marked on the form)
    (("A" * 41, "Bob"), "the name of player 1 is longer than 40 characters", "A" * 41),
    (
        ("Bob", "Ann\u200b"),
        "the name of player 2 has an invisible or control character at position 4 (U+200B): type the name again",
        "Ann\u200b",
    ),
    (
        ("Ann\u2800", "Bob"),
        "the name of player 1 has a character that looks blank at position 4 (U+2800): type the name again",
        "Ann\u2800",
    ),
    (("Ann", "ann"), "two players are called 'Ann'; give one a different name", "ann"),
    (
        ("Ann", "\u0410nn"),  # a Cyrillic А
        "'\u0410nn' (player 2) looks like 'Ann': give one a name that does not look alike",
        "\u0410nn",
    ),
]


@pytest.mark.parametrize("players, said, marked", NAME_REFUSALS)
def test_a_name_refused_is_said_in_words_and_marks_its_player(rulesets, players, said, marked):
    from scorekeeper.rules.setup import GameError, Setup

    with pytest.raises(GameError) as refused:
        Setup(rulesets["ten-pennies"], players, 0)
    assert (str(refused.value), refused.value.player) == (said, marked)


def test_a_name_of_40_characters_and_a_penny_of_100_dollars_are_the_most_accepted(rulesets):
    from scorekeeper.rules.setup import GameError, Setup

    setup = Setup(rulesets["ten-pennies"], ("A" * 40, "Bob"), 1, penny_cents=10_000)
    assert (setup.players[0], setup.penny_cents) == ("A" * 40, 10_000)
    with pytest.raises(GameError, match=r"^the first dealer must be one of the 2 players$"):
        Setup(rulesets["ten-pennies"], ("Ann", "Bob"), 2)


def test_one_team_of_everyone_is_no_game(rulesets):
    from scorekeeper.rules.setup import GameError, Setup

    with pytest.raises(GameError) as refused:
        Setup(rulesets["pennies-from-heaven"], tuple(PLAYERS), 0, teams=(tuple(PLAYERS),))
    assert str(refused.value) == "a game needs at least two sides"
