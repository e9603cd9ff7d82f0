"""The night page's words (scorekeeper/nights/page.py), checked in Python: plurals, money, who pays
whom, and the time a payment was marked on the table's clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support import Api, make_app
from test_words import BEGUN, in_chicago  # noqa: F401 - a fixture

from scorekeeper.nights.page import (
    Owed,
    PaymentMade,
    changes,
    check,
    game_line,
    how_settled,
    in_play,
    kept_payments,
    lock_words,
    night_page,
    nobody_owes,
)
from scorekeeper.reads.night_report import NightReport, night_report
from scorekeeper.rules.ledger import Payment
from scorekeeper.store import Store
from scorekeeper.web import current_catalog

TIE = {"Bob": "", "Cy": "5", "Di": "5 5 5"}  # Ann and Bob both on 0 in the last round: they share the bowl


def report_of(api: Api, night: int) -> NightReport:
    app = api.client.application
    with app.app_context():
        return night_report(Store(app.config["DATABASE"]), current_catalog(), night)


def test_who_pays_whom_the_bowl_said_as_what_it_is():
    ann_pays_bob = Owed.of(Payment("Ann", "Bob", 150))
    assert (ann_pays_bob.payer, ann_pays_bob.payee, ann_pays_bob.amount) == ("Ann", "Bob", "$1.50")
    assert (ann_pays_bob.payer_field, ann_pays_bob.payee_field, ann_pays_bob.label) == (
        "player:Ann",
        "player:Bob",
        "Ann paid Bob",
    )
    into = Owed.of(Payment("Di", "", 1))
    assert into.into_the_bowl and (into.payer, into.payee_field, into.label) == ("Di", "bowl", "Di paid the bowl")
    out = Owed.of(Payment("", "Cy", 2))
    assert out.from_the_bowl and (out.payer, out.payer_field, out.label) == ("The bowl", "bowl", "the bowl paid Cy")
    the_bowl = Owed.of(Payment("the bowl", "Ann", 5))  # a player called "the bowl" is a player
    assert not the_bowl.from_the_bowl and the_bowl.payer_field == "player:the bowl"


def test_changes_and_settling_in_table_words():
    assert changes({"Ann": 5, "": -5, "Bob": 0}) == ("Ann +$0.05", "the bowl −$0.05", "Bob $0.00")
    assert how_settled(None) == "The fewest payments that settle what is left."
    assert how_settled("O'Neil") == "Everyone settles with O'Neil, the bowl-keeper."
    assert nobody_owes([]) == "Nobody owes anybody anything."
    assert (
        nobody_owes([Payment("Ann", "Bob", 1)]) == "Nobody owes anybody anything: the payments made settle the night."
    )
    assert kept_payments([]) == ""
    assert kept_payments([Payment("Ann", "", 1), Payment("Bob", "Cy", 200)]) == (
        "Payments marked paid while the night was on paper are kept: Ann paid the bowl $0.01, Bob paid Cy $2.00."
    )


def test_the_lock_line():
    assert lock_words(False, True) == ""
    assert lock_words(True, True).startswith("Unlocked on this device")
    assert lock_words(True, False).startswith("Locked with the scorekeeper's PIN")


def test_a_payment_made_reads_on_the_table_s_clock_and_offers_its_undo(in_chicago):  # noqa: F811
    row: Any = {"id": 3, "night_id": 1, "payer": "", "payee": "Ann", "cents": 7, "made_at": BEGUN, "undone_at": None}
    made = PaymentMade.of(row | {"nets": None})
    assert (made.payer, made.payee, made.amount, made.at) == ("the bowl", "Ann", "$0.07", "21:30")
    assert (made.button, made.undone_value, made.undone) == ("Not paid after all", "1", False)
    undone = PaymentMade.of(row | {"nets": None, "undone_at": BEGUN})
    assert (undone.button, undone.undone_value, undone.undone) == ("Paid after all", "0", True)


def test_a_night_s_games_in_words_one_penny_and_many(tmp_path: Path):
    api = Api(make_app(tmp_path).test_client())
    night = api.call("POST", "/api/nights", {"money": "paper"}, 201)["id"]
    tie = api.new_game(night=night, penny_cents=5)["id"]
    for _ in range(7):
        api.round(tie, "Ann", TIE)
    playing = api.new_game(night=night)["id"]
    api.round(playing, "Ann", {"Bob": "K", "Cy": "", "Di": ""})
    report = report_of(api, night)
    finished, open_one = (game_line(report, game) for game in report.games)
    assert finished.title == f"Game {tie} · Ten Pennies"
    assert finished.details.startswith("won by Ann") and "5¢ a penny" in finished.details
    assert open_one.details == "1 of 7 played · in play: 1 penny ($0.01) in its bowl"  # Bob's K
    assert in_play(report) == f"Game {playing} is still in play: it counts once it ends."
    assert check(report).startswith("✔ Every cent accounted for: the nets add up to ")
    page = night_page(report, report.still_owed(), None, locked=False, can_write=True)
    assert page.any_finished and page.paid_at_the_table == "" and page.lock_words == ""
    assert [line.game_id for line in page.games] == [tie, playing]


def test_a_tie_s_penny_waits_for_the_next_game_while_the_night_is_open(app, api, client):
    """Issue 60: while the night was open, its page said the tie's penny "stays there: no later game
    plays for a bowl", and the next game took it. Open, it waits for that game; closed, it stays."""
    import html

    from support import tie_game, words

    night = api.call("POST", "/api/nights", {}, 201)["id"]
    tie_game(api, night)  # 21 pennies split 10 and 10: 1 left
    page = html.unescape(words(client.get(f"/nights/{night}").text))
    assert "1 penny ($0.01) left in its bowl by the tie waits for the night's next game that plays for a bowl." in page
    assert "no later game plays for a bowl" not in page
    from scorekeeper.commands import TRUSTED, run
    from scorekeeper.commands.nights import CloseNight
    from scorekeeper.store import Store

    store = Store(app.config["DATABASE"])
    run(store, app.extensions["rulesets"], CloseNight(night), TRUSTED)
    store.close()
    closed = html.unescape(words(client.get(f"/nights/{night}").text))
    assert "1 penny ($0.01) left in its bowl by the tie stays there: no later game plays for a bowl." in closed
