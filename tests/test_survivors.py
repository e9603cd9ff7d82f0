"""Faults a mutation run left alive (issue 25), each now a test written from the rule it breaks:
the settlement's seat order, no 0-cent payment, no "−$0.00", best and worst rounds, a book closing at
7, a night's one PIN, "not paid after all" on the page, and a Ten Card Rummy hand the contract search
once missed."""

from __future__ import annotations

import re

import pytest
from support import PLAYERS, csrf_token, tie_game, words

from scorekeeper.rules.cards import parse_hand
from scorekeeper.rules.contract import find_contract
from scorekeeper.rules.ledger import Payment, format_cents, settle, settle_with_keeper, signed_cents
from scorekeeper.rules.melds import check_layoff

# --- the settlement: fewest payments, ties by seat order (README: "Payments made") -----------------


def test_equal_debtors_pay_in_seat_order():
    nets = {"Ann": 10, "Bob": -5, "Cy": -5}
    assert settle(nets, ["Ann", "Bob", "Cy"]) == [Payment("Bob", "Ann", 5), Payment("Cy", "Ann", 5)]
    assert settle(nets, ["Cy", "Bob", "Ann"]) == [Payment("Cy", "Ann", 5), Payment("Bob", "Ann", 5)]


def test_equal_creditors_are_paid_in_seat_order():
    nets = {"Ann": 5, "Bob": 5, "Cy": -10}
    assert settle(nets, ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Ann", 5), Payment("Cy", "Bob", 5)]
    assert settle(nets, ["Bob", "Ann", "Cy"]) == [Payment("Cy", "Bob", 5), Payment("Cy", "Ann", 5)]


def test_the_bowl_keeper_asks_nothing_of_a_player_who_is_even():
    nets = {"Ann": 7, "Bob": 0, "Cy": -7}
    assert settle_with_keeper(nets, "Ann", ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Ann", 7)]
    assert settle_with_keeper(nets, "Bob", ["Ann", "Bob", "Cy"]) == [Payment("Cy", "Bob", 7), Payment("Bob", "Ann", 7)]


@pytest.mark.parametrize(
    ("cents", "plain", "signed"),
    [
        (0, "$0.00", "$0.00"),
        (1, "$0.01", "+$0.01"),
        (-1, "−$0.01", "−$0.01"),
        (100, "$1.00", "+$1.00"),
        (-305, "−$3.05", "−$3.05"),
        (99, "$0.99", "+$0.99"),
    ],
)
def test_money_is_written_one_way_and_nothing_is_minus_zero(cents, plain, signed):
    assert (format_cents(cents), signed_cents(cents)) == (plain, signed)


@pytest.mark.parametrize(
    ("number", "plain", "with_sign"),
    [(0, "0", "0"), (1, "1", "+1"), (2, "2", "+2"), (-1, "−1", "−1"), (-350, "−350", "−350")],
)
def test_a_score_is_written_with_a_true_minus_and_a_change_with_its_sign(number, plain, with_sign):
    """Scores and changes of score (+4, −2): a minus sign, never a hyphen; no sign on nothing."""
    from scorekeeper.rules.ledger import minus, signed

    assert (minus(number), signed(number)) == (plain, with_sign)


# --- best and worst round on a player's page ---------------------------------------------------


def test_a_players_best_round_is_the_fewest_points_when_lowest_wins(api, client):
    # Ten Pennies (lowest wins; 3–9 = 5, K = 10, A = 20). Ann goes out every round; Bob is caught
    # with K K (20) every round; Cy with K (10), A (20), 3 (5), then nothing: best 0, worst 20.
    cy = ["K", "A", "3", "", "", "", ""]
    game = api.new_game()["id"]
    for hand in cy:
        api.round(game, "Ann", {"Bob": "K K", "Cy": hand, "Di": ""})
    board = client.get("/players").text
    cy = re.search(r'href="(/players/\d+)"[^>]*>Cy<', board).group(1)
    page = words(client.get(cy).text)
    assert re.search(r"Best round 0, worst 20\s", page), page


# --- a book closes at 7 (RULES.md, Pennies From Heaven) -------------------------------------------


@pytest.mark.parametrize(
    ("onto", "cards", "valid", "reason"),
    [
        ("K K K K K", "K", True, ""),
        ("K K K K K K", "K", True, ""),
        ("K K K K K", "K K", True, ""),
        ("K K K K K K K", "K", False, "closed at 7"),
        ("K K K K K K", "K K", False, "8 cards"),
    ],
)
def test_a_book_takes_cards_up_to_seven_and_no_more(rulesets, onto, cards, valid, reason):
    verdict = check_layoff(rulesets["pennies-from-heaven"], 1, parse_hand(onto), parse_hand(cards))
    assert verdict.valid is valid, verdict.reasons
    assert reason in " ".join(verdict.reasons)


# --- a night has one PIN --------------------------------------------------------------------------


def test_a_second_pin_never_replaces_a_locked_nights_pin(api, client):
    night = api.call("POST", "/api/nights", {}, 201)["id"]
    body = {"ruleset": "ten-pennies", "players": PLAYERS, "night": night, "pin": "1234"}
    api.call("POST", "/api/games", body, 201)
    token = api.call("POST", f"/api/nights/{night}/unlock", {"pin": "1234"})["token"]
    second = client.post("/api/games", json={**body, "pin": "9999"}, headers={"Authorization": f"Bearer {token}"})
    assert second.status_code == 201  # the game joins the night, under the night's one PIN
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "9999"}).status_code == 403
    assert client.post(f"/api/nights/{night}/unlock", json={"pin": "1234"}).status_code == 200


# --- "not paid after all" on the page -------------------------------------------------------------


def test_not_paid_after_all_and_paid_after_all_on_the_night_page(api, client):
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    game = api.new_game(night=night)["id"]
    for _ in range(7):  # Ann goes out every round, the others are caught with a card: 7 pennies each
        api.round(game, "Ann", {"Bob": "K", "Cy": "5", "Di": "5"})
    players = {"from_bowl": False, "to_bowl": False}
    others = [{"from": "Cy", "to": "Ann", "cents": 7, **players}, {"from": "Di", "to": "Ann", "cents": 7, **players}]
    paid = api.call("POST", f"/api/nights/{night}/payments", {"from": "Bob", "to": "Ann", "cents": 7}, 201)
    payment = paid["payments_made"][0]["id"]
    assert api.call("GET", f"/api/nights/{night}")["still_owed"] == others
    page = client.get(f"/nights/{night}").text
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "1"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == [{"from": "Bob", "to": "Ann", "cents": 7, **players}, *others]
    assert report["payments_made"][0]["undone_at"]  # kept in the night's history, struck through
    page = client.get(f"/nights/{night}").text
    assert "not paid after all" in words(page) and "Paid after all" in page
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "0"})
    report = api.call("GET", f"/api/nights/{night}")
    assert report["still_owed"] == others and report["payments_made"][0]["undone_at"] is None


# --- the contract search ------------------------------------------------------------------------


def test_the_ten_card_rummy_round_6_hand_a_random_search_found_makes_the_contract(rulesets):
    # Two runs of 5 (RULES.md: 2s and jokers wild): 3♥–7♥ as 2♠ 4♥ 2♥ 6♥ 7♥ and as JKR 4♥ 5♥ JKR 7♥.
    hand = parse_hand("2S 2H 4H 4H 5H 6H 7H 7H 9D JKR JKR")
    verdict = find_contract(rulesets["ten-card-rummy"], 6, hand)
    assert verdict.valid and verdict.reasons == [], verdict.reasons
    assert len(verdict.arrangement) == 2 and all("run of 5 in ♥" in line for line in verdict.arrangement)


# --- second mutation run (MUTATION.md): the settlement's edges, written from what they promise ---------


def test_payments_still_owed_follow_seat_order_too():
    """still_owed settles in the night's seat order, like settle: Bob sits before Ann here."""
    from scorekeeper.rules.ledger import still_owed

    nets = {"Ann": -5, "Bob": -5, "Cy": 10}
    assert still_owed(nets, [], ["Bob", "Ann", "Cy"]) == [Payment("Bob", "Cy", 5), Payment("Ann", "Cy", 5)]
    assert still_owed(nets, [], ["Ann", "Bob", "Cy"]) == [Payment("Ann", "Cy", 5), Payment("Bob", "Cy", 5)]


def test_a_payment_to_someone_with_no_net_leaves_them_owing_it():
    """A payment handed to a player whose net is 0 (or who has none): they now owe exactly that much."""
    from scorekeeper.rules.ledger import after_payments

    assert after_payments({"Ann": 5, "Bob": -5}, [Payment("Bob", "Cy", 3)]) == {"Ann": 5, "Bob": -2, "Cy": -3}
    assert after_payments({"Ann": 5, "Bob": -5}, [Payment("Di", "Ann", 4)]) == {"Ann": 1, "Bob": -5, "Di": 4}


@pytest.mark.parametrize(
    "nets, order, keeper, expected",
    [
        # Every debtor pays the keeper, in seat order, then the keeper pays every creditor in seat order.
        ({"Cy": -3, "Ann": -2, "Bob": 5}, ["Cy", "Ann", "Bob"], "Bob", [("Cy", "Bob", 3), ("Ann", "Bob", 2)]),
        ({"Cy": -3, "Ann": -2, "Bob": 5}, [], "Bob", [("Ann", "Bob", 2), ("Cy", "Bob", 3)]),  # no seats: by name
        # One cent each way is still a payment; a seat with no net (Di sat out) pays and gets nothing.
        ({"Ann": -1, "Bob": 1, "Cy": 0}, ["Ann", "Bob", "Cy", "Di"], "Cy", [("Ann", "Cy", 1), ("Cy", "Bob", 1)]),
        ({"Ann": -4, "Bob": 1, "Cy": 3}, ["Di", "Cy", "Bob", "Ann"], "Ann", [("Ann", "Cy", 3), ("Ann", "Bob", 1)]),
    ],
)
def test_the_bowl_keeper_settles_in_seat_order(nets, order, keeper, expected):
    assert settle_with_keeper(nets, keeper, order) == [Payment(*p) for p in expected]


def test_twelve_players_in_three_way_groups_settle_in_eight_payments():
    """Twelve players in four tables of three, each table (+7k, −4k, −3k) for k = 1..4: two payments a
    table, eight in all, each debtor paying their own table's winner; settled as one pot, the largest
    debts and credits no longer match up and it takes more — the exact search holds up to twelve
    players (README, "Payments made")."""
    names = [f"P{i:02}" for i in range(12)]
    nets = {name: (7, -4, -3)[i % 3] * (1 + i // 3) for i, name in enumerate(names)}
    payments = settle(nets, names)
    assert len(payments) == 8
    assert all(names.index(p.from_player) // 3 == names.index(p.to_player) // 3 for p in payments)


def test_many_players_pay_their_exact_match_in_one_payment_each():
    """Beyond twelve players (many tables): a debtor whose debt equals a creditor's credit pays them
    directly, so seven such pairs settle in seven payments, and no empty group is left over."""
    from scorekeeper.rules.ledger import zero_sum_groups

    names = [f"P{i:02}" for i in range(14)]
    nets = {name: (i // 2 + 1) * (1 if i % 2 else -1) for i, name in enumerate(names)}
    groups = zero_sum_groups(nets, names)
    assert groups == [[names[i], names[i + 1]] for i in range(0, 14, 2)]
    assert len(settle(nets, names)) == 7


def test_an_unknown_money_mode_is_named_with_the_ones_there_are():
    from scorekeeper.rules.ledger import MoneyMode

    with pytest.raises(ValueError, match=r"^money is one of 'table', 'paper', not 'coins'$"):
        MoneyMode.parse("coins")


@pytest.mark.parametrize(
    "number, said",
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (10, "10th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (20, "20th"),
        (21, "21st"),
        (22, "22nd"),
        (23, "23rd"),
        (101, "101st"),
        (111, "111th"),
        (112, "112th"),
        (121, "121st"),
        (122, "122nd"),
    ],
)
def test_ordinals_as_the_table_says_them(number, said):
    """The 11th buy is refused (RULES.md): English ordinals, 11th–13th (and 111th–113th) included."""
    from scorekeeper.rules.wording import ordinal

    assert ordinal(number) == said


@pytest.mark.parametrize(
    "card, in_hand, points",
    [
        # RULES.md, Pennies From Heaven: a black 3 in hand costs 100; black 3s cannot be melded and
        # red 3s are not counted as cards (they score as red threes, apart).
        ("3S", True, 100),
        ("3C", True, 100),
        ("3S", False, 0),
        ("3H", True, 0),
        ("3D", False, 0),
        ("K", True, 10),
    ],
)
def test_threes_in_pennies_from_heaven(rulesets, card, in_hand, points):
    from scorekeeper.rules.books import card_value

    ruleset = rulesets["pennies-from-heaven"]
    assert card_value(ruleset, parse_hand(card)[0], ruleset.books, in_hand) == points


# --- more survivors of the partial run in MUTATION.md ---------------------------------------------------


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
    from scorekeeper.loading import load_game
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


def test_going_out_without_any_book_names_every_book_missing(api):
    """Pennies From Heaven (RULES.md): going out takes a natural (red) book, a book of sevens and a
    wild book, and no pile is picked up before the first natural book. Each missing one is named."""
    from test_cousins import TEAMS, new_pfh, side

    gid = new_pfh(api)["id"]
    hand = {"went_out": "Ann", "sides": [side(TEAMS[0], points=200), side(TEAMS[1], points=60)]}
    answer = api.call("POST", f"/api/games/{gid}/rounds", hand, 400)
    assert answer["error"] == (
        "hand 1: Ann & Cy cannot go out without a natural (red) book and a book of sevens and a wild book "
        "(no pile can be picked up before the first natural book)"
    )


def test_the_hardest_round_is_by_the_average_not_the_total():
    """Caught with 6 cards over 3 plays of round 1 (2 a time) is easier than 4 in one play of round 2;
    rounds 2 and 3 tie at 4, and the earlier is named."""
    from scorekeeper.rules.records import Tally

    assert Tally(caught={1: (6, 3), 2: (4, 1), 3: (4, 1)}).hardest_round() == 2
    assert Tally(caught={1: (0, 2)}).hardest_round() is None  # never caught with a card


# --- third mutation run: piles, drafts, suits, stages, payments taken back, entries once ---------


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


def test_a_draft_counts_the_penalty_of_the_buys_beyond_the_free_ones(rulesets):
    """Ten Card Rummy: 3 free buys a round, each one more 100 points (RULES.md); a draft entered on a
    player's phone says so before the round is saved."""
    from scorekeeper.rules.scoring import score_draft

    ruleset = rulesets["ten-card-rummy"]
    assert score_draft(ruleset, 2, "Ann", parse_hand("K 5"), 3).points == 15
    four = score_draft(ruleset, 2, "Ann", parse_hand("K 5"), 4)
    assert (four.points, four.penalty) == (115, 100)


def test_a_suitless_card_in_a_game_of_suits_is_named(rulesets):
    from scorekeeper.rules.melds import Verdict, check_melds

    verdict = check_melds(rulesets["ten-pennies-pcio"], 1, [parse_hand("KS K KD")], "meld")
    assert verdict == Verdict(False, ["meld 1 (K♠ K K♦) needs a suit on K"])


def test_an_unknown_stage_is_named_with_the_stages_there_are(api):
    refused = api.call(
        "POST", "/api/melds/check", {"ruleset": "ten-pennies", "round": 1, "stage": "bogus", "melds": ["K K K"]}, 400
    )
    assert refused["error"] == "stage 'bogus' is not one of first-down, meld, layoff, hand"


def test_a_payment_taken_back_no_longer_marks_where_the_nets_stood(api, client):
    """The line "since the last payment was marked paid, the nets moved" measures from the last
    payment still marked paid: one taken back (not paid after all) no longer counts."""
    from test_money_modes import mark

    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    first = tie_game(api, night)
    mark(client, night, "Di", "Ann", 10)
    fix = {"went_out": "Ann", "caught": {"Bob": "", "Cy": "5", "Di": "5 5 5"}}  # Di caught with one card more
    api.call("PUT", f"/api/games/{first['id']}/rounds/7", fix)
    moved = "the nets moved (a game was corrected or finished):\n  Ann +$0.01, Bob +$0.01, Di −$0.01, the bowl −$0.01."
    assert moved in words(client.get(f"/nights/{night}").text)
    mark(client, night, "Cy", "Bob", 7)  # marked after the correction: nothing moved since
    assert "the nets moved" not in words(client.get(f"/nights/{night}").text)
    payment = api.call("GET", f"/api/nights/{night}")["payments_made"][-1]["id"]
    page = client.get(f"/nights/{night}").text
    client.post(f"/nights/{night}/payments/{payment}", data={"csrf_token": csrf_token(page), "undone": "1"})
    assert moved in words(client.get(f"/nights/{night}").text)  # back to Di's payment, before the correction


def test_an_answer_of_400_or_more_is_not_remembered(app):
    """The runner: a refused entry may be sent again once put right, so only an answer below 400 is
    kept for the key; a repeat of a kept one gets the first answer and runs nothing."""
    from scorekeeper.commands import TRUSTED, Answered, EntryKey, run
    from scorekeeper.store import Store

    class Counted:
        def __init__(self) -> None:
            self.runs = 0

        def lock(self, store: Store) -> None:
            return None

        def apply(self, store: Store, catalog: object) -> str:
            self.runs += 1
            return "ran"

    store, catalog = Store(app.config["DATABASE"]), app.extensions["rulesets"]
    for status, kept in [(201, True), (399, True), (400, False), (409, False)]:
        command, key = Counted(), EntryKey(f"api:{status}")

        def answered(_: object, status: int = status) -> tuple[int, str]:
            return status, "{}"

        for _ in range(2):
            run(store, catalog, command, TRUSTED, key, answer=answered)
        assert command.runs == (1 if kept else 2), status
        assert run(store, catalog, command, TRUSTED, key, answer=answered) == (
            Answered(status, "{}") if kept else "ran"
        )


def test_a_night_holding_an_impossible_history_is_replayed_at_start(app, api, tmp_path):
    """An upgrade or an import replays whole nights at start-up; a game stored by an earlier version
    with entries the rules refuse (11 buys of a 10-buy stack) is replayed without them, as it is shown."""
    from support import make_app

    from scorekeeper.store import Store

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    gid = api.call("POST", "/api/games", {"ruleset": "ten-pennies", "players": PLAYERS, "night": night}, 201)["id"]
    store = Store(app.config["DATABASE"])
    for version in range(11):  # straight into the store, past the engine's checks
        store.append_event(gid, "buy", {"round": 1, "player": "Ann"}, version, store.next_event_id())
    store.mark_night_stale(night)
    restarted = make_app(tmp_path).test_client()
    assert restarted.get(f"/api/nights/{night}").status_code == 200
    assert restarted.get(f"/api/games/{gid}").get_json()["bowl"] == 10  # the 11th buy passed over


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


def test_a_rating_builds_on_the_games_before():
    """The model's update: each game starts from the rating the games before left, so a player who
    keeps winning rises game after game and the model grows surer of them (sigma falls)."""
    from scorekeeper.rules.rating import RatedGame, rate

    wins = [RatedGame([((1,), 1), ((2,), 2)])] * 3
    after = [rate(wins[:n])[1] for n in (1, 2, 3)]
    assert after[0].mu < after[1].mu < after[2].mu
    assert after[0].sigma > after[1].sigma > after[2].sigma
    assert [a.games for a in after] == [1, 2, 3]


@pytest.mark.parametrize("settle_by", ["fewest", "keeper"])
def test_someone_with_money_but_no_seat_is_still_settled(settle_by):
    """A name in the nets but not in the seat order (a player who left the table) pays or is paid
    all the same, after the seated players: every penny is accounted for."""
    nets = {"Ann": 5, "Bob": -3, "Zed": -2}
    seated = ["Cy", "Ann", "Bob"]  # Cy's net is 0: not in the nets at all
    payments = settle(nets, seated) if settle_by == "fewest" else settle_with_keeper(nets, "Ann", seated)
    assert payments == [Payment("Bob", "Ann", 3), Payment("Zed", "Ann", 2)]


# --- the run of ff53b4d (MUTATION.md): a round's checks in their own words, wild-card wording, house files ---


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


@pytest.mark.parametrize(
    "decks, hands, said",
    [
        (1, "KS KH KD KC K", "the hands hold 5 × K, but 1 deck holds only 4"),
        (2, "K K K K K K K K K", "the hands hold 9 × K, but 2 decks hold only 8"),
        (1, "KS KS", "the hands hold 2 × K♠, but 1 deck holds only 1"),
        (2, "KS KS KS", "the hands hold 3 × K♠, but 2 decks hold only 2"),
    ],
)
def test_more_of_a_card_than_the_decks_hold_is_refused_in_words(rulesets, decks, hands, said):
    from scorekeeper.rules.scoring import RoundError, check_deck_supply

    with pytest.raises(RoundError, match=f"^{re.escape(said)}$"):
        check_deck_supply(rulesets["ten-pennies"], decks, {"Bob": parse_hand(hands)})


def test_as_many_of_a_card_as_the_decks_hold_is_accepted(rulesets):
    from scorekeeper.rules.scoring import check_deck_supply

    check_deck_supply(rulesets["ten-pennies"], 2, {"Bob": parse_hand("KS KS"), "Cy": parse_hand("K K K K K K")})


@pytest.mark.parametrize(
    "ruleset_id, number, short, long",
    [  # RULES.md's tables: Ten Pennies' limit per set, the virtual tabletop's per kind, Ten Card Rummy's ratio
        ("ten-pennies", 1, "≤ 1 per set", "at most 1 wild per set"),
        ("ten-pennies", 7, "≤ 3 per set", "at most 3 wilds per set"),
        ("ten-pennies-pcio", 5, "≤ 2 of each per set", "at most 2 of each kind of wild per set"),
        ("ten-card-rummy", 1, "wilds ≤ naturals", "no more wilds than natural cards in a meld"),
    ],
)
def test_a_rounds_wild_limit_in_short_and_in_full(rulesets, ruleset_id, number, short, long):
    rule = rulesets[ruleset_id].round(number)
    assert (rule.describe_limit(short=True), rule.describe_limit()) == (short, long)


def test_house_wild_ranks_are_named_after_2s_aces_and_jokers_in_rank_order():
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.rulesets import parse_ruleset

    text = TEN_PENNIES_TOML.replace('wilds = ["2"]\nwild_limit = 1', 'wilds = ["9", "JKR", "4"]\nwild_limit = 1', 1)
    text = text.replace('wilds = ["2"]\nwild_limit = 1', "wilds = []\nwild_limit = 1", 1)
    house = parse_ruleset(text, "house.toml")
    assert house.round(1).describe_wilds() == "jokers, 4s, 9s"
    assert house.round(2).describe_wilds() == "none"


def test_one_card_parsed_alone_is_card_1_in_its_error():
    from scorekeeper.rules.cards import Card, CardError

    with pytest.raises(CardError, match=r"^card 1 \('ZZ'\) is not a card$"):
        Card.parse("ZZ")


def test_a_deal_of_every_card_leaves_no_stock_to_buy_from():
    """A house Ten Pennies dealing 27 cards each to 2 players uses the whole deck (52 + 2 jokers), so
    a buy of even 1 card is refused (RULES.md: the buys take at most the cards left after the deal)."""
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.game import Buy, Game
    from scorekeeper.rules.rulesets import parse_ruleset
    from scorekeeper.rules.setup import GameError, Setup

    text = TEN_PENNIES_TOML.replace("cards_dealt = 11", "cards_dealt = 27").replace("cards = 3 ", "cards = 1 ")
    setup = Setup(parse_ruleset(text, "house.toml"), ("Ann", "Bob"), 0)
    with pytest.raises(GameError) as refused:
        Game(setup, [Buy(1, 1, "Bob")])
    assert str(refused.value) == (
        "the stock is used up: the 0 buys of round 1 took every card left after the deal (1 a buy); "
        "another buy is refused"
    )


def test_a_house_contract_game_without_buys_holds_the_deal_at_most():
    from support import TEN_PENNIES_TOML

    from scorekeeper.rules.rulesets import parse_ruleset
    from scorekeeper.rules.scoring import RoundError, check_hand_size

    head, tail = TEN_PENNIES_TOML.split("[buys]")
    house = parse_ruleset(head + tail[tail.index("[later_melds]") :], "house.toml")
    assert house.buys is None
    check_hand_size(house, "Di", parse_hand("K " * 11), 0)
    with pytest.raises(RoundError) as refused:
        check_hand_size(house, "Di", parse_hand("K " * 12), 0)
    assert str(refused.value) == "Di is caught with 12 cards, but with 0 buys this round a player holds at most 11"


def test_a_run_counts_its_wilds_by_kind_where_the_house_limits_each_kind():
    """A house Ten Card Rummy allowing 1 wild of each kind per meld: 4♠ 2♣ 6♠ JKR holds one 2 and
    one joker; 4♠ 2♣ 6♠ 2♦ holds two 2s."""
    from support import ruleset_text

    from scorekeeper.rules.melds import Stage, read_meld
    from scorekeeper.rules.rulesets import parse_ruleset

    wilds = 'wilds = ["2", "JKR"]'
    text = ruleset_text("ten-card-rummy").replace(wilds, wilds + "\nwild_limit_per_kind = 1")
    house = parse_ruleset(text, "house.toml")
    rule = house.round(1)
    assert read_meld(house, rule, parse_hand("4S 2C 6S JKR"), Stage.FIRST_DOWN, 3)[0] is not None
    reading, problem = read_meld(house, rule, parse_hand("4S 2C 6S 2D"), Stage.FIRST_DOWN, 3)
    assert reading is None and "has 2 wild 2s; round 1 allows 1 of each kind" in problem


def test_a_card_without_the_suit_a_rule_needs_names_the_token_and_its_place():
    from scorekeeper.rules.cards import CardError, parse_hand

    with pytest.raises(CardError) as refused:
        parse_hand("KS 7 QH", require_suits=True)
    assert (str(refused.value), refused.value.token, refused.value.position) == (
        "card 2 ('7') needs a suit here, e.g. 7H",
        "7",
        2,
    )


def test_a_hand_is_written_in_the_notation_unless_asked_for_suit_symbols():
    from scorekeeper.rules.cards import format_hand

    hand = parse_hand("10h ks jkr 7")
    assert format_hand(hand) == "10H KS JKR 7"
    assert parse_hand(format_hand(hand)) == hand
    assert format_hand(hand, pretty=True) == "10♥ K♠ JKR 7"


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


@pytest.mark.parametrize(
    "ruleset_id, number, said",
    [  # RULES.md's contracts as the dealer says them
        ("ten-pennies", 1, "2 sets of 3"),
        ("ten-pennies", 2, "1 set of 4"),
        ("ten-card-rummy", 1, "1 meld of 3 — sets or runs"),
        ("ten-card-rummy", 2, "2 melds of 3 — sets or runs"),
    ],
)
def test_a_contract_is_said_in_sets_or_melds(rulesets, ruleset_id, number, said):
    assert rulesets[ruleset_id].round(number).contract.describe() == said


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

    data = game_json(game_of_rounds(rulesets, 2))
    assert [(p["name"], p["seat"]) for p in data["players"]] == [("Ann", 1), ("Bob", 2), ("Cy", 3), ("Di", 4)]
    assert [r["number"] for r in data["rounds"]] == [1, 2]


# --- the run's tail (setup, replay, JSON): late buys, a correction kept, teams in words, books JSON ---


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

    data = game_json(game_of_rounds(rulesets, 0))
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


def test_a_books_games_json_names_each_sides_players(rulesets):
    from scorekeeper.rules.game import Game
    from scorekeeper.rules.game_json import game_json
    from scorekeeper.rules.setup import Setup

    setup = Setup(rulesets["pennies-from-heaven"], tuple(PLAYERS), 0, teams=(("Ann", "Cy"), ("Bob", "Di")))
    sides = game_json(Game(setup))["sides"]
    assert [(s["name"], s["players"], s["points"]) for s in sides] == [
        ("Ann & Cy", ["Ann", "Cy"], 0),
        ("Bob & Di", ["Bob", "Di"], 0),
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


def test_a_house_pile_never_picked_up_counts_in_the_most_cards_a_player_can_hold(rulesets):
    """Ten Pennies deals 11 and a buy takes 3; a house file giving each player a pile of 5 (never
    picked up, caught with the hand) lets a player hold 16 with no buy and 19 with one."""
    from dataclasses import replace

    house = replace(rulesets["ten-pennies"], pile_size=5)
    assert (house.hand_limit(0), house.hand_limit(1)) == (16, 19)


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


def test_a_ruleset_read_without_a_file_name_says_so():
    from scorekeeper.rules.rulesets import RulesetError, parse_ruleset

    with pytest.raises(RulesetError, match=r"^<ruleset>: not valid TOML"):
        parse_ruleset("id = ")


@pytest.mark.parametrize(
    "players, sides, decks",
    [
        (8, 2, 10),  # 6 further players: 3 pairs, 4 + 2 × 3
        (8, 4, 10),  # 2 further sides, but 3 further pairs of players: the more of the two
        (9, 3, 12),  # 7 further players: a pair begun counts, 4 pairs, 4 + 2 × 4
    ],
)
def test_pennies_from_heaven_decks_by_further_pairs_of_players(rulesets, players, sides, decks):
    """RULES.md: 4 decks for two players, plus 2 for each further side or each further 2 players."""
    assert rulesets["pennies-from-heaven"].decks.decks_for(players, sides) == decks


def test_a_house_deck_count_with_a_base_but_nothing_per_side_is_refused():
    from test_ruleset_fields import changed, refusal

    data = changed("pennies-from-heaven", ("decks", "extra_per_side"), delete=True)
    assert refusal(data) == "house.toml: decks: gives no deck count for 12 players"


def test_an_unknown_rank_is_quoted():
    from scorekeeper.rules.cards import Rank

    with pytest.raises(ValueError, match=r"^unknown rank 'Z'$"):
        Rank.from_label("Z")


def test_one_team_of_everyone_is_no_game(rulesets):
    from scorekeeper.rules.setup import GameError, Setup

    with pytest.raises(GameError) as refused:
        Setup(rulesets["pennies-from-heaven"], tuple(PLAYERS), 0, teams=(tuple(PLAYERS),))
    assert str(refused.value) == "a game needs at least two sides"
