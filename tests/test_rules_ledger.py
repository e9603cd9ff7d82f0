"""The ledger (scorekeeper/rules/ledger.py): money written one way, and settling a night in the fewest
payments or through a bowl-keeper, ties by seat order (README: "Payments made")."""

from __future__ import annotations

import pytest

from scorekeeper.rules.ledger import Payment, format_cents, settle, settle_with_keeper, signed_cents


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


@pytest.mark.parametrize("settle_by", ["fewest", "keeper"])
def test_someone_with_money_but_no_seat_is_still_settled(settle_by):
    """A name in the nets but not in the seat order (a player who left the table) pays or is paid
    all the same, after the seated players: every penny is accounted for."""
    nets = {"Ann": 5, "Bob": -3, "Zed": -2}
    seated = ["Cy", "Ann", "Bob"]  # Cy's net is 0: not in the nets at all
    payments = settle(nets, seated) if settle_by == "fewest" else settle_with_keeper(nets, "Ann", seated)
    assert payments == [Payment("Bob", "Ann", 3), Payment("Zed", "Ann", 2)]
