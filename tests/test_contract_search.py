""" "Does this hand make the contract?" on hands built to defeat a search by combinations: many cards
of one or two ranks, many wilds, long suited runs, up to the legal maximum. The verdicts agree with an
exhaustive reference wherever it can run (few distinct cards), and the search never explodes."""

from collections import Counter
from itertools import combinations_with_replacement, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import adversarial_hands, examples, hand_text, ruleset_text, suited

from scorekeeper.rules.cards import NATURAL_RANKS, Card, Rank, Suit, parse_hand
from scorekeeper.rules.contract import find_contract, multisets
from scorekeeper.rules.melds import Stage, Verdict, read_meld
from scorekeeper.rules.rulesets import parse_ruleset

CONTRACT_RULESETS = ["ten-pennies", "ten-pennies-pcio", "ten-card-rummy"]


def reference(ruleset, number, hand):
    """Exhaustive over sub-multisets (identical cards are interchangeable): every way to take some
    of each distinct card, each read by the meld checker; then every pair of disjoint melds."""
    rule = ruleset.round(number)
    size, needed = rule.contract.size, rule.contract.melds
    counts = Counter(hand)
    kinds = sorted(counts)
    legal = []
    for picks in product(*(range(counts[kind] + 1) for kind in kinds)):
        if sum(picks) < size:
            continue
        cards = [kind for kind, n in zip(kinds, picks, strict=True) for _ in range(n)]
        if read_meld(ruleset, rule, cards, Stage.FIRST_DOWN, size)[0] is not None:
            legal.append(picks)
    if needed == 1:
        return bool(legal)
    return any(
        all(x + y <= counts[kind] for x, y, kind in zip(a, b, kinds, strict=True))
        for a, b in combinations_with_replacement(legal, 2)
    )


FEW_CARDS = st.lists(
    st.builds(
        suited,
        st.sampled_from([Rank.ACE, Rank.TWO, Rank.FIVE, Rank.SIX, Rank.KING, Rank.JOKER]),
        st.sampled_from([Suit.SPADES, Suit.HEARTS]),
    ),
    min_size=2,
    max_size=3,
    unique=True,
)


@settings(max_examples=examples(400), deadline=None)
@given(st.sampled_from(CONTRACT_RULESETS), st.integers(1, 11), FEW_CARDS, st.lists(st.integers(1, 12), min_size=3))
def test_large_hands_of_few_distinct_cards_agree_with_the_reference(rulesets, ruleset_id, number, kinds, counts):
    ruleset = rulesets[ruleset_id]
    number = (number - 1) % len(ruleset.rounds) + 1
    per_kind = 12 if len(kinds) == 2 else 6  # keeps the reference's pairs of sub-multisets countable
    hand = [card for card, n in zip(kinds, counts, strict=False) for _ in range(min(n, per_kind))]
    found = find_contract(ruleset, number, hand)
    assert found.valid == reference(ruleset, number, hand), (number, hand, found.arrangement, found.reasons)


@pytest.mark.parametrize("ruleset_id", CONTRACT_RULESETS)
def test_adversarial_hands_are_answered_the_same_by_the_reference_where_it_runs(rulesets, ruleset_id):
    ruleset = rulesets[ruleset_id]
    for number in range(1, len(ruleset.rounds) + 1):
        for size in (3, 6, 9):
            for hand in adversarial_hands(ruleset, number, size):
                if len(set(hand)) <= 4:
                    assert find_contract(ruleset, number, hand).valid == reference(ruleset, number, hand), hand


def test_multisets_are_every_distinct_choice_once():
    counts = Counter({Card(Rank.KING, Suit.SPADES): 3, Card(Rank.KING, Suit.HEARTS): 2, Card(Rank.JOKER): 1})
    choices = list(multisets(counts, 3))
    assert len(choices) == len(set(choices))
    # By hand: (S, H, J) counts with S ≤ 3, H ≤ 2, J ≤ 1 adding up to 3: 300, 210, 201, 120, 111, 021.
    assert sorted(Counter(c).most_common() for c in choices) == sorted(
        Counter(c).most_common()
        for c in (
            [Card(Rank.KING, Suit.SPADES)] * 3,
            [Card(Rank.KING, Suit.SPADES)] * 2 + [Card(Rank.KING, Suit.HEARTS)],
            [Card(Rank.KING, Suit.SPADES)] * 2 + [Card(Rank.JOKER)],
            [Card(Rank.KING, Suit.SPADES)] + [Card(Rank.KING, Suit.HEARTS)] * 2,
            [Card(Rank.KING, Suit.SPADES), Card(Rank.KING, Suit.HEARTS), Card(Rank.JOKER)],
            [Card(Rank.KING, Suit.HEARTS)] * 2 + [Card(Rank.JOKER)],
        )
    )


def test_a_hand_longer_than_the_largest_table_holds_is_refused(client, rulesets):
    ruleset = rulesets["ten-pennies"]  # 8 players: 4 decks of 54 cards
    largest = [Card(NATURAL_RANKS[i % 13], list(Suit)[i % 4]) for i in range(216)]
    body = {"ruleset": "ten-pennies", "round": 5, "stage": "hand", "melds": [hand_text(largest)]}
    assert client.post("/api/melds/check", json=body).status_code == 200
    body["melds"] = [hand_text(largest) + " K"]
    response = client.post("/api/melds/check", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"] == (
        "a hand of 217 cards is more than the decks of the largest Ten Pennies table hold (216 cards for 8 players)"
    )
    assert ruleset.largest_deal == 216


@pytest.mark.parametrize("ruleset_id", CONTRACT_RULESETS)
def test_every_adversarial_hand_up_to_the_largest_deal_is_answered(client, rulesets, ruleset_id):
    ruleset = rulesets[ruleset_id]
    for number in range(1, len(ruleset.rounds) + 1):
        for size in (41, ruleset.largest_deal):
            for hand in adversarial_hands(ruleset, number, size):
                body = {"ruleset": ruleset_id, "round": number, "stage": "hand", "melds": [hand_text(hand)]}
                response = client.post("/api/melds/check", json=body)
                assert response.status_code == 200 and response.get_json()["valid"] in (True, False)


def test_the_server_stays_responsive_while_eight_worst_case_searches_run(tmp_path, rulesets):
    """Eight clients keep asking the meld page for the worst hand found (28 kings and 12 jokers, one
    meld of 10) while /healthz is asked 40 times: every answer comes (the probe gives up after 10 s),
    every search is answered, and a question past the few searched at once is told in words to ask
    again (503, issue 58). Before the counting search one such request took 16 s and held /healthz for
    over a minute. How fast it answers is the benchmark's to measure, not a test's: a ratio of times
    asserted here failed on a busy machine."""
    import threading
    import time
    import urllib.parse

    from support import HttpClient, free_port, start_server

    worst = {"ruleset": "ten-card-rummy", "round": 11, "stage": "hand", "melds-0": "K " * 28 + "JKR " * 12}
    query = urllib.parse.urlencode(worst)
    port = free_port()
    server = start_server(tmp_path, port)
    stop = threading.Event()
    answers: list[int] = []
    errors: list[int] = []

    def ask():
        client = HttpClient(port, timeout=60)
        while not stop.is_set():
            status, page = client.call("GET", f"/melds?{query}")
            busy = status == 503 and b"ask again in a moment" in page
            (answers if status == 200 or busy else errors).append(status)

    workers = [threading.Thread(target=ask) for _ in range(8)]
    try:
        for worker in workers:
            worker.start()
        time.sleep(0.2)
        probe = HttpClient(port)
        assert [probe.call("GET", "/healthz")[0] for _ in range(40)] == [200] * 40
    finally:
        stop.set()
        for worker in workers:
            worker.join()
        server.kill()
        server.wait()
    assert errors == [] and 200 in answers


# Worked by hand from the rulesets (RULES.md): the contract, what is wild that round, the limits.
DECIDED = [
    # Ten Card Rummy round 1, one meld of 3: 4♣ 5♣ 6♣, with no wild card at all.
    ("ten-card-rummy", 1, "KD 5C 4H 3D 7H JS 6C 4C QD 9D KC JC", True),
    # Round 2, two melds of 3: 3♦ 3♦ 2♥, and 10♠ 2 2 K♠ (J and Q wild: 2 wilds, 2 naturals).
    ("ten-card-rummy", 2, "2C 2H 7H 3D 2D 3D 10S KS", True),
    # Round 4, two melds of 4: 4♠ to 7♠, and 8♠ 2 2 J♠ (two wilds, no more than its two naturals).
    ("ten-card-rummy", 4, "4S 5S 6S 7S 8S 2C 2C JS", True),
    # Ten Pennies as this house plays it: jokers only in rounds 1-4; 2s, aces and jokers from round 5,
    # at most 2 of each kind a set; never two of the same card in a meld (jokers excepted).
    # Round 4, a set of 5: 7♠ 7♣ 7♦ and both jokers (aces are not wild yet).
    ("ten-pennies-pcio", 4, "7S 8S JKR JD 7C 9H 3C AS 7D KD 8C AD 4H JKR", True),
    # Round 5, two sets of 5: 9♠ 9♦ A♦ 2 2 and Q♦ Q♣ 2 2 JKR.
    ("ten-pennies-pcio", 5, "JKR 9D 2H JD QD 2S AD 2D 8H KC 3D 2C QC 9S", True),
    # Round 5: three different jacks take two 2s for the first set; nothing else has 3 naturals, and
    # 2 naturals need 3 wilds where only two 2s may go (no ace, no joker).
    ("ten-pennies-pcio", 5, "KC 2C JD JS 2H 2S 2S JD 2H JH 4D 4H", False),
    # Round 6, a set of 6: 7♠ 7♥ 7♣ (the second 7♠ may not join), two aces and a 2.
    ("ten-pennies-pcio", 6, "7S AC AC AS 7S AS AD 2C 7H 2D 2H 7C 2H", True),
    # Round 6: 4♦ 4♣, two aces, one 2, one joker.
    ("ten-pennies-pcio", 6, "3D 4D 5D JKR KC AC 7D 10D 2H 4C JC AD 8H 2H", True),
    # Round 6: 5♥, two aces, a 2 and both jokers: 6, no more than 2 of each kind of wild.
    ("ten-pennies-pcio", 6, "8H 9H JKR QC AS 2C AD 6H JKR 5H", True),
    # Round 6: two 7s or two 9s, and at most two jokers and the one ace: 5 cards, not 6.
    ("ten-pennies-pcio", 6, "JKR 4C 5C JKR 7C JKR 9C AD JC 9S 7D", False),
]


def cards_of(arrangement):
    return Counter(card for line in arrangement for card in parse_hand(line.split(":")[0]))


@pytest.mark.parametrize("ruleset_id, number, hand, makes", DECIDED)
def test_hands_worked_by_hand_are_answered_with_melds_from_the_hand(rulesets, ruleset_id, number, hand, makes):
    cards = parse_hand(hand)
    verdict = find_contract(rulesets[ruleset_id], number, cards)
    assert verdict.valid is makes, verdict
    assert len(verdict.arrangement) == (rulesets[ruleset_id].round(number).contract.melds if makes else 0)
    assert not cards_of(verdict.arrangement) - Counter(cards)  # never a card the hand does not hold


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(CONTRACT_RULESETS),
    st.integers(1, 7),
    st.lists(st.builds(suited, st.sampled_from(list(Rank)), st.sampled_from(list(Suit))), min_size=6, max_size=12),
)
def test_an_arrangement_found_uses_each_card_of_the_hand_at_most_once(rulesets, ruleset_id, number, hand):
    ruleset = rulesets[ruleset_id]
    if number > len(ruleset.rounds) or ruleset.round(number).contract is None:
        return
    verdict = find_contract(ruleset, number, hand)
    assert not cards_of(verdict.arrangement) - Counter(hand)


ARRANGED = [  # hands worked by hand with only one way to make the contract: the answer word for word
    # Ten Pennies (virtual tabletop), round 1: two sets of 3, one joker each, never two of the same
    # card in a meld. K♠ K♥ K♣ with a joker would leave K♣ alone: the first set must take a K♣.
    (
        "ten-pennies-pcio",
        1,
        "KS KH KC KC JKR JKR",
        ["K♠ K♣ JKR: set of 3 × K with 1 wild", "K♥ K♣ JKR: set of 3 × K with 1 wild"],
    ),
    # Ten Card Rummy round 11, a run of 10: no 10 or 11 places from 3♥ to A♥ hold more naturals
    # than wilds (4 or 5 of 10 or 11), but all 12 do: 6 naturals, 6 wilds.
    (
        "ten-card-rummy",
        11,
        "3H 4H 5H QH KH AH JKR JKR JKR 2C 2D 2S",
        ["3♥ 4♥ 5♥ Q♥ K♥ A♥ 2♠ 2♦ 2♣ JKR JKR JKR: run of 12 in ♥, 3 to A with 6 wilds"],
    ),
]


@pytest.mark.parametrize("ruleset_id, number, hand, arrangement", ARRANGED)
def test_a_hand_with_one_arrangement_is_answered_with_it(rulesets, ruleset_id, number, hand, arrangement):
    assert find_contract(rulesets[ruleset_id], number, parse_hand(hand)) == Verdict(True, [], arrangement)


# Ten Card Rummy as houses play it: without "no more wilds than natural cards in a meld" (house rules
# file: wilds_at_most_naturals = false), never two of the same card in a meld, at most one wild of each
# kind in a meld on the first down, or only runs.
TEN_CARD_RUMMY = ruleset_text("ten-card-rummy")
NO_RATIO = TEN_CARD_RUMMY.replace("wilds_at_most_naturals = true", "wilds_at_most_naturals = false")
WILDS = 'wilds = ["2", "JKR"]'
HOUSES = {
    "no duplicates": TEN_CARD_RUMMY.replace("contract_exact", "no_duplicates = true\ncontract_exact"),
    "one of each kind": TEN_CARD_RUMMY.replace(WILDS, WILDS + "\nwild_limit_per_kind = 1"),
    "no-ratio": NO_RATIO,
    "no-ratio, no duplicates": NO_RATIO.replace("contract_exact", "no_duplicates = true\ncontract_exact"),
    "no-ratio, runs only": NO_RATIO.replace('meld_kinds = ["set", "run"]', 'meld_kinds = ["run"]'),
}
HOUSE_DECIDED = [
    # Round 6, two melds of 5. Only runs: 4♠ _ 6♠ _ _ and 9♥ _ J♥ _ _, each with 3 of the 6 wilds.
    # No rank is held twice, so a set of 5 has one natural and 4 wilds, and 4 + 3 > 6.
    ("no-ratio", 6, "4S 6S 9H JH JKR JKR JKR JKR 2C 2D", True),
    # Round 10, one meld of 9: A♣ 2♣ 3♣ 4♣ (the 2♣ natural in its place) and the other 5 wilds.
    ("no-ratio", 10, "4C 2C 2S QS 3C JKR JKR JKR JKR JKR AC 9S", True),
    # Round 5, one meld of 5 from five wild cards: no set (no natural card, no sets of 2s), and a run
    # of spades holds one 2♠ (never two of the same card), the 2♣ and the joker: 3 cards.
    ("no-ratio, no duplicates", 5, "JKR 2C 2S 2S 2S", False),
    # Round 2, two melds of 3, where which wild goes where matters. 2♥ 2♠ 4♥ (the 2♥ natural in its
    # place, the 2♠ for 3♥) and 9♠ 9♥ with the other 2♥: no meld holds two 2♥.
    ("no duplicates", 2, "4H 9S 9H 2S 2H 2H", True),
    # Round 2: 4♠ 4♥ JKR, and 6♠ 2♣ JKR 9♠ (a 2 and a joker: one of each kind).
    ("one of each kind", 2, "4S 4H 9S 6S 2C JKR JKR", True),
]


@pytest.mark.parametrize("house, number, hand, makes", HOUSE_DECIDED)
def test_house_hands_worked_by_hand_are_answered_with_melds_from_the_hand(house, number, hand, makes):
    ruleset = parse_ruleset(HOUSES[house], "house.toml")
    cards = parse_hand(hand)
    verdict = find_contract(ruleset, number, cards)
    assert verdict.valid is makes, verdict
    contract = ruleset.round(number).contract
    assert contract is not None
    assert len(verdict.arrangement) == (contract.melds if makes else 0)
    assert not cards_of(verdict.arrangement) - Counter(cards)


@settings(max_examples=examples(300), deadline=None)
@given(
    st.sampled_from(sorted(HOUSES)),
    st.integers(1, 11),
    st.lists(
        st.sampled_from(
            [
                *(suited(rank, Suit.SPADES) for rank in NATURAL_RANKS),
                suited(Rank.TWO, Suit.HEARTS),
                suited(Rank.JOKER, Suit.SPADES),
            ]
        ),
        min_size=2,
        max_size=4,
        unique=True,
    ),
    st.lists(st.integers(1, 3), min_size=4, max_size=4),
)
def test_house_hands_of_few_distinct_cards_agree_with_the_reference(house, number, kinds, counts):
    """Runs of one suit with wild cards, where wilds may outnumber naturals: a meld of the contract
    that is not the last may hold more wilds than naturals too."""
    ruleset = parse_ruleset(HOUSES[house], "house.toml")
    hand = [card for card, n in zip(kinds, counts, strict=False) for _ in range(n)]
    assert find_contract(ruleset, number, hand).valid == reference(ruleset, number, hand), (number, hand)


def test_the_ten_card_rummy_round_6_hand_a_random_search_found_makes_the_contract(rulesets):
    # Two runs of 5 (RULES.md: 2s and jokers wild): 3♥–7♥ as 2♠ 4♥ 2♥ 6♥ 7♥ and as JKR 4♥ 5♥ JKR 7♥.
    hand = parse_hand("2S 2H 4H 4H 5H 6H 7H 7H 9D JKR JKR")
    verdict = find_contract(rulesets["ten-card-rummy"], 6, hand)
    assert verdict.valid and verdict.reasons == [], verdict.reasons
    assert len(verdict.arrangement) == 2 and all("run of 5 in ♥" in line for line in verdict.arrangement)


def reference_by_kind(ruleset, number, hand):
    """Exhaustive for a contract by kind: every sub-multiset read as a set and as a run by the meld
    checker, then every choice of the contract's sets and runs that the hand holds at once."""
    rule = ruleset.round(number)
    contract = rule.contract
    counts = Counter(hand)
    kinds = sorted(counts)
    legal: dict[str, list[tuple[int, ...]]] = {"set": [], "run": []}
    for picks in product(*(range(counts[kind] + 1) for kind in kinds)):
        cards = [kind for kind, n in zip(kinds, picks, strict=True) for _ in range(n)]
        for kind in ("set", "run"):
            least = contract.least_size(kind)
            if len(cards) >= least and read_meld(ruleset, rule, cards, Stage.FIRST_DOWN, least, (kind,))[0]:
                legal[kind].append(picks)
    for sets in combinations_with_replacement(legal["set"], contract.sets):
        for runs in combinations_with_replacement(legal["run"], contract.runs):
            taken = [sum(column) for column in zip(*sets, *runs, strict=True)] if sets + runs else []
            if all(n <= counts[kind] for n, kind in zip(taken, kinds, strict=True)):
                return True
    return False


LIVERPOOL_FEW = st.lists(
    st.builds(
        suited,
        st.sampled_from([Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.QUEEN, Rank.KING, Rank.JOKER]),
        st.sampled_from([Suit.SPADES, Suit.HEARTS]),
    ),
    min_size=5,
    max_size=9,
)


@settings(max_examples=examples(150), deadline=None)
@given(
    st.sampled_from(["liverpool-rummy", "carioca", "shanghai-rummy", "continental"]), st.integers(1, 3), LIVERPOOL_FEW
)
def test_contracts_by_kind_agree_with_the_reference(rulesets, ruleset_id, number, hand):
    """Deals 1-3 (2 sets; a set and a run; 2 runs of 4) over aces at both ends and kings, runs that
    stop at the ace (Liverpool, Shanghai) and that pass it (Carioca, Continental), fewer wilds than
    naturals (Shanghai) and no two wilds side by side (Continental): a hand the reference finds the
    sets and runs in is found by the search, and no other."""
    ruleset = rulesets[ruleset_id]
    found = find_contract(ruleset, number, hand)
    assert found.valid == reference_by_kind(ruleset, number, hand), (number, hand, found.arrangement)


def test_a_set_taken_before_a_run_leaves_the_run_its_card(rulesets):
    """The case the reference found: three 3♠ and a 3♥. The set of 3s must take the 3♥, for the run
    A♠ 2♠ 3♠ 4♠ needs a 3♠; a search that chose the set's suits first took three 3♠ and said no."""
    found = find_contract(rulesets["liverpool-rummy"], 2, parse_hand("AS 2S 3S 3S 3S 3H 4S"))
    assert found.valid, found.reasons
    assert sorted(found.arrangement) == ["3♠ 3♠ 3♥: set of 3 × 3", "A♠ 2♠ 3♠ 4♠: run of 4 in ♠, A to 4"]
